"""Drawing helpers shared by every game's renderer: fonts, colours, pyramids, fast PNG encoding.

Renderers are pure: ``view -> PIL.Image``. They never see a game state, only a view, so they cannot leak a
secret. Images are encoded as palette PNGs on one fixed palette: that is lossless for our flat drawings and
several times faster than a full-colour PNG (docs/notes/performance.md).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from i18n import translate_in

from .memo import Memo
from .png import encode_palette_png

#: the catalog context of the words drawn on a board and said by its alt text
IMAGE = "image"


def image_words(locale: str | None, msgid: str, **params: object) -> str:
    """Words drawn on an image or read in its alt text, in the reader's language (catalog context "image")."""
    return translate_in(IMAGE, locale, msgid, **params)


#: text must stay legible on a phone: nothing smaller than this on images up to 1600 px wide
MIN_TEXT_PX = 16

#: Named colours used by all renderers. Colour is never the only cue: pieces also carry a letter.
COLOURS: dict[str, tuple[int, int, int]] = {
    "background": (246, 241, 228),
    "panel": (232, 224, 204),
    "ink": (34, 30, 28),
    "muted": (110, 102, 92),
    "grid": (190, 178, 156),
    "highlight": (255, 196, 0),
    "white": (255, 255, 255),
    "black": (20, 20, 20),
    "red": (208, 42, 46),
    "yellow": (240, 200, 30),
    "green": (46, 150, 70),
    "blue": (40, 90, 200),
    "purple": (128, 60, 160),
    "orange": (236, 120, 30),
    "cyan": (40, 170, 190),
    "maroon": (120, 30, 40),
    "grey": (150, 150, 150),
    "brown": (140, 96, 56),
    "sand": (222, 200, 150),
    "water": (120, 170, 220),
    "forest": (60, 120, 60),
    "plains": (170, 200, 110),
    "hills": (180, 150, 90),
    "mountains": (130, 120, 120),
}

#: single letters that name a colour on pieces (for colour-blind players and small screens)
COLOUR_LETTERS: dict[str, str] = {
    "red": "R",
    "yellow": "Y",
    "green": "G",
    "blue": "B",
    "purple": "P",
    "orange": "O",
    "cyan": "C",
    "black": "K",
    "white": "W",
}


def rgb(name: str) -> tuple[int, int, int]:
    return COLOURS[name]


def relative_luminance(colour: tuple[int, int, int]) -> float:
    """WCAG 2 relative luminance, 0 (black) to 1 (white)."""

    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """WCAG 2 contrast ratio, 1 to 21; body text needs 4.5."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


#: the WCAG AA contrast for text under 24 px: every label on a coloured piece reaches it
READABLE_CONTRAST = 4.5


def text_colour_on(fill: Sequence[int]) -> tuple[int, int, int]:
    """Ink or white, whichever contrasts more with ``fill`` (WCAG ratio: orange, cyan, grey and the greens
    take ink, which a plain luminance threshold got wrong)."""
    red, green, blue = fill
    return _text_colour_on((red, green, blue))


@lru_cache(maxsize=256)  # a board asks for every piece it draws; the palette has a few dozen colours
def _text_colour_on(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    ink, white = COLOURS["ink"], COLOURS["white"]
    return ink if contrast_ratio(ink, fill) >= contrast_ratio(white, fill) else white


#: the font for text the bundled one cannot draw: DejaVu Sans Condensed (Bitstream Vera licence, beside it), which
#: has Polish letters (ą ę ł ó ś ż...), accents and arrows; condensed, so a line keeps about the bundled width
FALLBACK_FONT = Path(__file__).parent / "assets" / "fonts" / "DejaVuSansCondensed.ttf"
#: the character the bundled font draws for any it lacks (its "missing glyph" box)
_NO_GLYPH = "\uffff"


def _glyph(face: ImageFont.FreeTypeFont, char: str) -> bytes:
    image = Image.new("L", (48, 48))
    ImageDraw.Draw(image).text((8, 8), char, font=face, fill=255)
    return image.tobytes()


@cache
def _bundled_draws(char: str) -> bool:
    """Whether Pillow's bundled font has ``char`` (it draws ASCII, but not ą, é or an arrow: those come out as
    its missing-glyph box)."""
    face = ImageFont.load_default(size=20)
    assert isinstance(face, ImageFont.FreeTypeFont)
    return char.isspace() or _glyph(face, char) != _glyph(face, _NO_GLYPH)


def _needs_fallback(text: str | bytes) -> bool:
    return isinstance(text, str) and any(ord(c) > 0x7E and not _bundled_draws(c) for c in text)


@cache
def _fallback_draws(char: str) -> bool:
    """Whether ``FALLBACK_FONT`` has ``char`` (it has Polish letters and arrows, not emoji)."""
    face = ImageFont.truetype(str(FALLBACK_FONT), 20)
    return char.isspace() or _glyph(face, char) != _glyph(face, _NO_GLYPH)


def drawable_text(text: str, missing: str = "?") -> str:
    """``text`` without the characters no font of ours draws (an emoji in a player's name would be a box), its
    spaces collapsed; ``missing`` when nothing drawable is left."""
    kept = "".join(c for c in text if ord(c) <= 0x7E or _bundled_draws(c) or _fallback_draws(c))
    return " ".join(kept.split()) or missing


#: the bytes of drawn texts kept per font size (a board's labels, names and numbers: a few hundred bytes each)
TEXT_MASK_BYTES = 1024 * 1024


class _TextFont(ImageFont.FreeTypeFont):
    """Pillow's bundled font, except that a text holding a character it lacks is drawn and measured whole in
    ``FALLBACK_FONT`` (so English images stay exactly as they were, and a Polish word never shows boxes).
    Pillow measures and draws through these methods, each given the text."""

    def __init__(self, size: int) -> None:
        bundled = ImageFont.load_default(size=size)
        assert isinstance(bundled, ImageFont.FreeTypeFont)
        self.__dict__.update(bundled.__dict__)  # what Pillow reads off a font (size, font, layout engine...)
        self.bundled, self.fallback = bundled, ImageFont.truetype(str(FALLBACK_FONT), size)
        self.masks: Memo[Any, Any] = Memo(
            TEXT_MASK_BYTES, lambda found: 64 + found[0].size[0] * found[0].size[1]
        )

    def _face(self, text: str | bytes) -> ImageFont.FreeTypeFont:
        return self.fallback if _needs_fallback(text) else self.bundled

    def getlength(self, text: Any, *args: Any, **kwargs: Any) -> float:
        return self._face(text).getlength(text, *args, **kwargs)

    def getbbox(self, text: Any, *args: Any, **kwargs: Any) -> tuple[float, float, float, float]:
        return self._face(text).getbbox(text, *args, **kwargs)

    def getmask(self, text: Any, *args: Any, **kwargs: Any) -> Any:
        return self._face(text).getmask(text, *args, **kwargs)

    def getmask2(self, text: Any, *args: Any, **kwargs: Any) -> Any:
        """The text's drawn mask, kept for the next board: boards draw the same labels turn after turn, and
        drawing a text is most of what a small board costs (the mask is only read: Pillow draws through it)."""
        try:
            key = (text, args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:  # a list of font features: not kept
            key = None
        if key is None or (args and args[0] == "RGBA"):  # an RGBA mask is written on: never shared
            return self._face(text).getmask2(text, *args, **kwargs)
        found = self.masks.get(key)
        if found is None:
            found = self._face(text).getmask2(text, *args, **kwargs)
            self.masks.put(key, found)
        return found

    def font_variant(self, *args: Any, size: float | None = None, **kwargs: Any) -> ImageFont.FreeTypeFont:
        return _TextFont(round(size)) if size is not None else self


@cache
def font(size: int = 20) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled scalable font, with a bundled fallback for the letters it lacks (``_TextFont``): no
    system font needed on a fresh machine."""
    if size < MIN_TEXT_PX:
        raise ValueError(f"text smaller than {MIN_TEXT_PX} px is not legible on a phone")
    return _TextFont(size)


def new_canvas(
    width: int, height: int, colour: str = "background"
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGB", (width, height), COLOURS[colour])
    return image, ImageDraw.Draw(image)


def centred_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int = 20,
    fill: tuple[int, int, int] | None = None,
    stroke: tuple[int, int, int] | None = None,
) -> None:
    draw.text(
        xy,
        text,
        font=font(size),
        fill=fill or COLOURS["ink"],
        anchor="mm",
        stroke_width=2 if stroke else 0,
        stroke_fill=stroke,
    )


def draw_pyramid(
    draw: ImageDraw.ImageDraw,
    centre_x: float,
    base_y: float,
    pips: int,
    colour: str,
    unit: float = 14,
    label: str | None = None,
    outline: str = "ink",
) -> float:
    """An Icehouse pyramid seen from the side, ``pips`` 1-3 (small, medium, large).

    Returns the height drawn, so callers can stack pyramids. The pip marks at the base say the size without
    relying on proportions alone.
    """
    width = unit * (1.4 + 0.8 * pips)
    height = unit * (1.2 + 0.7 * pips)
    points = [(centre_x - width / 2, base_y), (centre_x + width / 2, base_y), (centre_x, base_y - height)]
    fill = COLOURS[colour]
    draw.polygon(points, fill=fill, outline=COLOURS[outline], width=2)
    for i in range(pips):
        px = centre_x + (i - (pips - 1) / 2) * unit * 0.55
        draw.ellipse((px - 2.5, base_y - 7.5, px + 2.5, base_y - 2.5), fill=text_colour_on(fill))
    if label:
        size = max(MIN_TEXT_PX, int(unit * 1.1))
        centred_text(draw, (centre_x, base_y - height * 0.45), label, size, fill=text_colour_on(fill))
    return height


def draw_pyramid_top(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], half: float, colour: str, label: str | None = None
) -> None:
    """A pyramid seen from above: a square with its four ridges."""
    x, y = centre
    fill = COLOURS[colour]
    draw.rectangle((x - half, y - half, x + half, y + half), fill=fill, outline=COLOURS["ink"], width=2)
    shade = tuple(max(0, c - 40) for c in fill)
    for corner in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        draw.line((x, y, x + corner[0] * half, y + corner[1] * half), fill=shade, width=2)
    if label:
        centred_text(draw, centre, label, max(MIN_TEXT_PX, int(half * 0.9)), fill=text_colour_on(fill))


def tint(name: str) -> tuple[int, int, int]:
    """A light tint of a named colour (a quarter of it on the background), for areas a seat owns: the fixed
    palette holds it, so it survives encoding (a Pharaoh home edge in green came out grey before)."""
    r, g, b = ((c + 3 * bg) // 4 for c, bg in zip(COLOURS[name], COLOURS["background"], strict=True))
    return r, g, b


@cache
def _palette_image() -> Image.Image:
    """The fixed palette: every named colour, plus a grey ramp and blends for anti-aliased edges and text."""
    colours = list(dict.fromkeys(COLOURS.values()))
    for level in range(0, 256, 16):
        colours.append((level, level, level))
    base = list(COLOURS.values())
    for colour in base:
        for other in (COLOURS["ink"], COLOURS["background"], COLOURS["white"]):
            colours.append(tuple((a + b) // 2 for a, b in zip(colour, other, strict=True)))  # type: ignore[arg-type]
    colours += [tint(name) for name in COLOURS]  # appended: the entries before keep their numbers
    colours = list(dict.fromkeys(colours))[:256]
    flat = [channel for colour in colours for channel in colour]
    flat += [0] * (768 - len(flat))
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat)
    return palette


def encode_png(image: Image.Image) -> bytes:
    """Lossless-looking palette PNG, deflated at level 1 in bands that later images reuse (``render.png``).

    A palette image (drawn on ``palette_canvas``) is written as it is; any other is first mapped to the fixed
    palette."""
    if image.mode == "P":
        return encode_palette_png(image)
    rgb = image if image.mode == "RGB" else image.convert("RGB")  # convert() to the same mode copies: skip it
    return encode_palette_png(to_palette(rgb))


def to_palette(image: Image.Image) -> Image.Image:
    """The image on the fixed palette, each pixel its nearest colour (no dithering: flat colours stay flat)."""
    return image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


@cache
def _palette_colours() -> tuple[tuple[int, int, int], ...]:
    flat = _palette_image().getpalette() or []
    return tuple((flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat), 3))


@lru_cache(maxsize=4096)
def palette_index(colour: tuple[int, int, int]) -> int:
    """The fixed palette's entry nearest to ``colour`` (exact for the named colours and their blends)."""
    colours = _palette_colours()
    return min(
        range(len(colours)),
        key=lambda i: sum((a - b) ** 2 for a, b in zip(colours[i], colour, strict=True)),
    )


class PaletteDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` on a fixed-palette image: colours given as RGB are drawn as their palette entry.

    Drawing straight into the palette skips mapping a whole full-colour image to it before encoding (a third
    of a PRINCIPES board's cost). Pillow's own palette drawing would add unknown colours to the image's
    palette instead; here every colour is one of the fixed palette's, so the PNG needs no other."""

    def __init__(self, image: Image.Image) -> None:
        if image.mode != "P":
            raise ValueError(f"PaletteDraw draws on palette images, not mode {image.mode}")
        super().__init__(image)
        self.image = image
        self._pixels = image.load()

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        return super()._getink(
            palette_index(ink) if isinstance(ink, tuple) else ink,
            palette_index(fill) if isinstance(fill, tuple) else fill,
        )

    def backdrop(self, box: tuple[int, int, int, int]) -> tuple[int, int, int]:
        """The colour most of a box's centre and corners show (clamped to the image): what text drawn there will
        sit on, to blend its anti-aliased edges with."""
        left, top, right, bottom = box
        points = (
            ((left + right) // 2, (top + bottom) // 2),
            (left, top),
            (right, top),
            (left, bottom),
            (right, bottom),
        )
        width, height = self.image.size
        pixels = self._pixels
        assert pixels is not None
        found = [pixels[min(max(0, x), width - 1), min(max(0, y), height - 1)] for x, y in points]
        return _palette_colours()[max(found, key=found.count)]  # type: ignore[index,arg-type,call-overload]

    def stamp(self, xy: tuple[int, int], patch: Image.Image, mask: Image.Image) -> None:
        """Paste a palette patch (see ``text_patch``) where its mask is set."""
        # the core's paste: ``Image.paste`` re-checks modes and mutability on each of a board's ~170 labels
        box = (xy[0], xy[1], xy[0] + patch.width, xy[1] + patch.height)
        self.image.im.paste(patch.im, box, mask.im)


def palette_blank(width: int, height: int, colour: str = "background") -> Image.Image:
    """A fixed-palette image of one named colour, for tiles mapped by ``to_palette`` to be pasted into: its
    entry is the one ``to_palette`` maps the colour to (Pillow's mapping is not always the nearest entry)."""
    image = Image.new("P", (width, height), mapped_entry(colour))
    image.putpalette(_palette_image().getpalette() or [])
    return image


@cache
def mapped_entry(colour: str) -> int:
    """The palette entry ``to_palette`` maps a named colour to: what to draw with on a ``palette_blank`` image
    so that it matches a full-colour drawing mapped whole."""
    entry: int = to_palette(Image.new("RGB", (1, 1), COLOURS[colour])).getpixel((0, 0))  # type: ignore[assignment]
    return entry


def palette_canvas(image: Image.Image) -> tuple[Image.Image, PaletteDraw]:
    """A copy of a fixed-palette image (a renderer's cached static layer) and a ``PaletteDraw`` on it."""
    copy = image.copy()
    return copy, PaletteDraw(copy)


#: lookup tables for ``Image.point`` (a function there is called 256 times on every use)
NONZERO = [0] + [255] * 255
TEXT_EDGE = [255 if v >= 48 else 0 for v in range(256)]
HALO_EDGE = [255 if v >= 96 else 0 for v in range(256)]


def palette_indices(image: Image.Image) -> Image.Image:
    """A palette image's entry numbers as a grey image (to compare two palette images pixel by pixel)."""
    return Image.frombytes("L", image.size, image.tobytes())


def text_patch(
    coverage: Image.Image,
    fill: tuple[int, int, int],
    backdrop: tuple[int, int, int],
    outline: Image.Image | None,
) -> tuple[Image.Image, Image.Image]:
    """Anti-aliased text for a palette image: the glyphs' ``coverage`` blended from ``backdrop`` to ``fill``
    and mapped to the palette, with the mask of the pixels to paste (the glyphs, or their ``outline`` halo).

    A palette cannot blend at paste time, so the blend is made once against the colour the text will sit on:
    exact on a flat backdrop, which is where a board's labels sit."""
    patch = Image.new("RGB", coverage.size, backdrop)
    patch.paste(fill, (0, 0), coverage)
    # the faintest edge pixels are left out: they would show the backdrop's colour where the guess is wrong
    mask = coverage.point(TEXT_EDGE) if outline is None else outline.point(HALO_EDGE)
    return to_palette(patch), mask


def encode_png_plain(image: Image.Image) -> bytes:
    """Full-colour PNG at level 6: the floor benchmarks compare the fast path with."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=6)
    return buffer.getvalue()


def seat_label(view: dict, seat: int, fallback: str | None = None) -> str:
    """A seat's player name when the host added names to the view (``seat_names``), else ``fallback`` (a
    colour's name where the game gives seats colours), else "Seat N" (1-based)."""
    names = view.get("seat_names") or []
    if 0 <= seat < len(names) and str(names[seat]).strip():
        return str(names[seat]).strip()
    return fallback if fallback is not None else f"Seat {seat + 1}"


def fit_text(text: str, max_width: float, size: int, min_size: int = MIN_TEXT_PX) -> tuple[str, int]:
    """``text`` at ``size`` or smaller (never under ``min_size``, itself never under MIN_TEXT_PX) to fit
    ``max_width``, cut with "..." when even the smallest size is too wide: player names are up to 32 characters.
    A table's cells pass ``min_size=size``, so that every row keeps one size."""
    min_size = max(min_size, MIN_TEXT_PX)
    while size > min_size and font(size).getlength(text) > max_width:
        size -= 1
    if font(size).getlength(text) <= max_width:
        return text, size
    # the longest prefix that fits with its "...", found by bisection (a long title measured once per character
    # took seconds)
    fits, too_long = 1, len(text)
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if font(size).getlength(text[:middle] + "...") > max_width:
            too_long = middle
        else:
            fits = middle
    return text[:fits].rstrip() + "...", size


def label_plate(fill: tuple[int, int, int]) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The plate colour and the text colour of a label on a piece of colour ``fill``: the piece's own colour
    when ink or white reaches READABLE_CONTRAST on it, else its half-way blend with white (green), which the
    fixed palette holds, so the encoded image keeps the contrast."""
    text = text_colour_on(fill)
    if contrast_ratio(text, fill) >= READABLE_CONTRAST:
        return fill, text
    r, g, b = ((channel + 255) // 2 for channel in fill)
    return (r, g, b), COLOURS["ink"]
