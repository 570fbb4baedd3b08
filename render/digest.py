"""The catch-up digest's two boards: the seat's view when it last acted and now, each captioned, with alt text.

Two images rather than one wide one: Discord lays several images of a message out as a gallery, and each keeps
the width a phone needs to read it (a PRINCIPES board is 1,700 px wide; two side by side would halve its text).

Front-ends post them as PNGs (``digest_pngs``), kept by what they show: a board is a pure function of its game,
caption and view (its language included), so a view fingerprinted the same draws the same bytes, and a repeated
``/catchup`` (or the board of a seat that has not moved since it last asked) is not drawn again.
"""

from __future__ import annotations

import hashlib
import pickle
from dataclasses import dataclass
from typing import Any

from PIL import Image

from . import alt_text, render_view
from .alt import compose
from .common import COLOURS, encode_png, fit_text, font, image_words, new_canvas, to_palette
from .memo import Memo
from .png import BAND_ROWS

#: what the two boards are called, on the image and at the start of their alt texts
CAPTIONS = ("When you last moved", "Now")
#: the PNG bytes of drawn boards kept (least recently used first out): a PRINCIPES board is some 170 kB, so
#: this holds about 190 of them, the boards of some 95 catch-ups
PNG_CACHE_BYTES = 32 * 1024 * 1024
#: (game, English caption, view fingerprint) -> (PNG, alt text)
PNGS: Memo[tuple[str, str, bytes], tuple[bytes, str]] = Memo(PNG_CACHE_BYTES, lambda drawn: len(drawn[0]))


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
    return [
        digest_board(game_key, view, english) for english, view in zip(captions, (before, after), strict=True)
    ]


def digest_board(game_key: str, view: dict[str, Any], caption: str) -> CaptionedBoard:
    """One board of the digest: ``view`` drawn under ``caption`` (English, shown in the view's language)."""
    words = image_words(view.get("locale"), caption)
    image = captioned(render_view(game_key, view), words)
    return CaptionedBoard(words, image, compose([f"{words}:", alt_text(game_key, view)]))


def digest_pngs(
    game_key: str, before: dict[str, Any], after: dict[str, Any], captions: tuple[str, str] = CAPTIONS
) -> list[tuple[bytes, str]]:
    """``digest_boards`` encoded, each board as (PNG bytes, alt text); a board drawn before for the same
    game, caption and view (``PNGS``) is not drawn again. Slow when drawn: front-ends call it in a thread."""
    drawn = []
    for english, view in zip(captions, (before, after), strict=True):
        fingerprint = view_fingerprint(view)
        key = (game_key, english, fingerprint) if fingerprint is not None else None
        png = PNGS.get(key) if key is not None else None
        if png is None:
            board = digest_board(game_key, view, english)
            png = (encode_png(board.image), board.alt_text)
            if key is not None:
                PNGS.put(key, png)
        drawn.append(png)
    return drawn


def view_fingerprint(view: dict[str, Any]) -> bytes | None:
    """A digest of everything in ``view`` (two views with the same fingerprint hold the same values), or None
    for a view that cannot be serialised (then its board is drawn every time)."""
    try:
        data = pickle.dumps(view, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None
    return hashlib.blake2b(data, digest_size=16).digest()


def caption_size(width: int) -> int:
    """Text that reads at about 14 px on a phone, where the image is scaled to some 400 px wide."""
    return max(28, round(width / 28))


def captioned(image: Image.Image, caption: str) -> Image.Image:
    """``image`` under a band with ``caption``; a palette board stays on the fixed palette (so its PNG keeps
    the fast encoding), any other comes back in full colour. The band is a whole number of the PNG writer's
    bands of rows high, so the board's rows fall in the same bands as when it is drawn on its own (the live
    card, a DM): their deflated bytes are found in the writer's cache instead of deflated again."""
    size = caption_size(image.width)
    band, draw = new_canvas(image.width, -(-size * 2 // BAND_ROWS) * BAND_ROWS, "panel")
    text, fitted = fit_text(caption, image.width - 32, size)
    draw.text((16, band.height // 2), text, font=font(fitted), fill=COLOURS["ink"], anchor="lm")
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
