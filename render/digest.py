"""The catch-up digest's two boards: the seat's view when it last acted and now, each captioned, with alt text.

Two images rather than one wide one: Discord lays several images of a message out as a gallery, and each keeps
the width a phone needs to read it (a PRINCIPES board is 1,700 px wide; two side by side would halve its text).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PIL import Image

from . import alt_text, render_view
from .alt import compose
from .common import COLOURS, fit_text, font, image_words, new_canvas, to_palette

#: what the two boards are called, on the image and at the start of their alt texts
CAPTIONS = ("When you last moved", "Now")


@dataclass(frozen=True)
class CaptionedBoard:
    caption: str
    image: Image.Image
    #: the board's description for screen readers, starting with the caption (at most 1,024 characters)
    alt_text: str


def digest_boards(
    game_key: str, before: dict[str, Any], after: dict[str, Any], captions: tuple[str, str] = CAPTIONS
) -> list[CaptionedBoard]:
    """The boards of two views of one seat (the digest's ``before`` and ``after``), captioned in the views'
    language (``view["locale"]``)."""
    boards = []
    for english, view in zip(captions, (before, after), strict=True):
        caption = image_words(view.get("locale"), english)
        image = captioned(render_view(game_key, view), caption)
        boards.append(CaptionedBoard(caption, image, compose([f"{caption}:", alt_text(game_key, view)])))
    return boards


def caption_size(width: int) -> int:
    """Text that reads at about 14 px on a phone, where the image is scaled to some 400 px wide."""
    return max(28, round(width / 28))


def captioned(image: Image.Image, caption: str) -> Image.Image:
    """``image`` under a band with ``caption``; a palette board stays on the fixed palette (so its PNG keeps
    the fast encoding), any other comes back in full colour."""
    size = caption_size(image.width)
    band, draw = new_canvas(image.width, size * 2, "panel")
    text, fitted = fit_text(caption, image.width - 32, size)
    draw.text((16, size), text, font=font(fitted), fill=COLOURS["ink"], anchor="lm")
    if image.mode == "P":
        band = to_palette(band)
        combined = Image.new("P", (image.width, image.height + band.height))
        combined.putpalette(image.getpalette() or [])
    else:
        image = image.convert("RGB")
        combined = Image.new("RGB", (image.width, image.height + band.height))
    combined.paste(band, (0, 0))
    combined.paste(image, (0, band.height))
    return combined
