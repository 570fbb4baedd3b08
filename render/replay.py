"""Animated replays: board images with a caption band, written as an animated GIF one frame at a time.

Pure drawing and encoding: frames in (images a game's renderer drew from public views), GIF bytes out. The writer
keeps one frame in memory besides the first, whatever the number of frames (a 4-player PRINCIPES game's board is
1600 x 1200: 500 whole frames would take a gigabyte), and stores each later frame as the rectangle that changed,
with the unchanged pixels inside it transparent, so a frame costs a few kilobytes.

Why GIF and not WebP: Discord animates GIF attachments inline on every client, animated WebP only on some, and
for these flat palette boards lossless WebP came out no smaller (a 40-frame PRINCIPES stretch: GIF 209 kB, WebP
214 kB) and fifteen times slower to encode.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterable
from functools import cache

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from .common import COLOURS, font, to_palette

#: caption band: two lines of text above the board
CAPTION_TITLE_PX = 42
CAPTION_LINE_PX = 30
CAPTION_HEIGHT = 112
#: the palette entry unchanged pixels of a later frame take (an entry the fixed palette leaves unused)
TRANSPARENT = 255


@cache
def _palette() -> tuple[bytes, int]:
    """The fixed palette's 768 bytes and the index of the renderers' background colour."""
    probe = to_palette(Image.new("RGB", (1, 1), COLOURS["background"]))
    flat = bytes((probe.getpalette() or [])[:768]).ljust(768, b"\0")
    return flat, probe.getpixel((0, 0))  # type: ignore[return-value]


def on_palette(image: Image.Image) -> Image.Image:
    """``image`` on the fixed palette (a renderer's palette image as it is)."""
    if image.mode == "P" and bytes((image.getpalette() or [])[:768]).ljust(768, b"\0") == _palette()[0]:
        return image
    return to_palette(image if image.mode == "RGB" else image.convert("RGB"))


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` pixels at ``size``."""
    face = font(size)
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def captioned(board: Image.Image, title: str, line: str) -> Image.Image:
    """The board under a band with the frame's ``title`` (game, round, step) and ``line`` (what just happened)."""
    band = Image.new("RGB", (board.width, CAPTION_HEIGHT), COLOURS["panel"])
    draw = ImageDraw.Draw(band)
    margin = 16
    room = board.width - 2 * margin
    draw.text(
        (margin, 10),
        _fit(draw, title, CAPTION_TITLE_PX, room),
        font=font(CAPTION_TITLE_PX),
        fill=COLOURS["ink"],
    )
    draw.text(
        (margin, 64), _fit(draw, line, CAPTION_LINE_PX, room), font=font(CAPTION_LINE_PX), fill=COLOURS["ink"]
    )
    frame = Image.new("P", (board.width, board.height + CAPTION_HEIGHT), _palette()[1])
    frame.putpalette(_palette()[0])
    frame.paste(to_palette(band), (0, 0))
    frame.paste(on_palette(board), (0, CAPTION_HEIGHT))
    return frame


def _indices(image: Image.Image) -> Image.Image:
    return Image.frombytes("L", image.size, image.tobytes())


class GifWriter:
    """An animated GIF built frame by frame on the fixed palette; ``data()`` gives the file.

    Frames may differ in size (a Babylone board grows with its tallest stack): the canvas is the largest frame,
    and a frame is drawn over the background colour. The first frame is written whole once the canvas size is
    known; each later one as the rectangle that changed since the frame before it."""

    def __init__(self) -> None:
        self.frames = 0
        self._first: tuple[Image.Image, int] | None = None
        self._previous: Image.Image | None = None  # the last frame, padded to the canvas so far
        self._width = self._height = 0
        self._chunks: list[bytes] = []
        self._size = 0

    @property
    def size(self) -> int:
        """About the bytes of the file so far (the first frame counted as drawn, before any padding)."""
        return self._size

    def add(self, image: Image.Image, duration_ms: int) -> None:
        frame = on_palette(image)
        self._width, self._height = max(self._width, frame.width), max(self._height, frame.height)
        padded = self._padded(frame, self._width, self._height)
        self.frames += 1
        if self._first is None:
            self._first = (frame, duration_ms)
            self._previous = padded
            self._size += len(self._frame_bytes(frame, (0, 0), duration_ms, None)) + 800  # with the header
            return
        assert self._previous is not None
        previous = self._padded(self._previous, self._width, self._height)
        difference = ImageChops.difference(_indices(previous), _indices(padded))
        box = difference.getbbox()
        if box is None:  # nothing changed: the frame before it simply stays longer
            self._lengthen_last(duration_ms)
            return
        patch = padded.crop(box)
        transparent = None
        if patch.histogram()[TRANSPARENT] == 0:
            unchanged = difference.crop(box).point([255] + [0] * 255, "1")
            patch.paste(TRANSPARENT, mask=unchanged)
            transparent = TRANSPARENT
        self._append(self._frame_bytes(patch, box[:2], duration_ms, transparent))
        self._previous = padded

    def _lengthen_last(self, duration_ms: int) -> None:
        if not self._chunks:
            assert self._first is not None
            self._first = (self._first[0], self._first[1] + duration_ms)
            return
        last = bytearray(self._chunks[-1])
        delay = struct.unpack("<H", last[4:6])[0] + duration_ms // 10
        last[4:6] = struct.pack("<H", min(delay, 0xFFFF))
        self._chunks[-1] = bytes(last)

    def _append(self, chunk: bytes) -> None:
        self._chunks.append(chunk)
        self._size += len(chunk)

    @staticmethod
    def _padded(frame: Image.Image, width: int, height: int) -> Image.Image:
        if frame.size == (width, height):
            return frame
        canvas = Image.new("P", (width, height), _palette()[1])
        canvas.putpalette(_palette()[0])
        canvas.paste(frame, (0, 0))
        return canvas

    @staticmethod
    def _frame_bytes(
        patch: Image.Image, offset: tuple[int, int], duration_ms: int, transparent: int | None
    ) -> bytes:
        """Graphic control extension (delay, keep the frame, transparency) + image descriptor + LZW data."""
        flags = (1 << 2) | (1 if transparent is not None else 0)  # disposal 1: leave the frame in place
        control = (
            b"!\xf9\x04" + struct.pack("<BHB", flags, max(2, duration_ms // 10), transparent or 0) + b"\0"
        )
        return control + b"".join(GifImagePlugin.getdata(patch, offset))

    def data(self) -> bytes:
        """The whole file: header with the final canvas size, the first frame whole, the changes, the trailer."""
        if self._first is None:
            raise ValueError("a GIF needs at least one frame")
        first, duration = self._first
        header = b"GIF89a" + struct.pack("<HHBBB", self._width, self._height, 0xF7, _palette()[1], 0)
        header += _palette()[0]
        header += b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\0"  # loop for ever
        whole = self._frame_bytes(self._padded(first, self._width, self._height), (0, 0), duration, None)
        return header + whole + b"".join(self._chunks) + b";"


def encode_gif(frames: Iterable[tuple[Image.Image, int]]) -> bytes:
    """Frames (image, milliseconds) as an animated GIF that loops."""
    writer = GifWriter()
    for image, duration in frames:
        writer.add(image, duration)
    return writer.data()


def frame_count(data: bytes) -> int:
    """Frames in a GIF (for checks and reports)."""
    with Image.open(io.BytesIO(data)) as image:
        return int(getattr(image, "n_frames", 1))
