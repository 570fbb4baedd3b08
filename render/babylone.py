"""Babylone board: each slot a numbered column of pyramids, bottom to top, height written under it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from i18n import listing as listed
from i18n import ntranslate

from .alt import compose, names
from .common import (
    COLOUR_LETTERS,
    COLOURS,
    IMAGE,
    centred_text,
    draw_pyramid,
    mapped_entry,
    new_canvas,
    palette_blank,
    seat_label,
    to_palette,
)
from .common import image_words as _t
from .memo import Memo

SLOT_WIDTH = 120
COLUMNS = 6
LEVEL = 34  # vertical step between stacked pyramids
TOP_MARGIN = 70
#: bytes of slot tiles kept (a tile is SLOT_WIDTH wide and 150-500 px high, one byte a pixel)
SLOT_TILE_BYTES = 2 * 1024 * 1024

# A board is a header strip and one tile per slot, each drawn in full colour, mapped to the fixed palette and
# kept: a turn changes two slots, so most of a board is pasted, not drawn and mapped again (mapping a whole
# board to the palette cost as much as drawing it). A tile holds its stack and label only, as high as they need,
# so it is kept when a taller stack elsewhere makes the rows higher; the last move's frames are drawn on the
# board. Nothing drawn overlaps and each pixel is mapped alone (no dithering), so the board is the very one
# that mapping a whole drawing gives (tests/render/test_babylone.py).
_SLOTS: Memo[tuple[Any, ...], Image.Image] = Memo(SLOT_TILE_BYTES, lambda tile: tile.width * tile.height)


def render(view: dict[str, Any]) -> Image.Image:
    """The board, on the fixed palette; its words are in ``view["locale"]`` (set by whoever shows it; English
    without)."""
    stacks: list[list[str]] = view["stacks"]
    width, height, row_height = board_size(stacks)
    image = palette_blank(width, height)
    header, header_draw = new_canvas(width, TOP_MARGIN)
    _header(header_draw, view, width)
    image.paste(to_palette(header), (0, 0))
    draw = ImageDraw.Draw(image)
    last = view.get("last_move") or []
    for index, stack in enumerate(stacks):
        left, bottom = slot_corner(index, row_height)
        tile = _slot(tuple(stack), index + 1, view.get("locale"))
        image.paste(tile, (left, bottom - tile.height))
        if index + 1 in last:
            draw.rectangle(
                last_move_frame(left, bottom, row_height), outline=mapped_entry("highlight"), width=4
            )
    return image


def board_size(stacks: Sequence[Sequence[str]]) -> tuple[int, int, int]:
    """The board's width, height and row height: a row is as high as the tallest stack needs."""
    rows = (len(stacks) + COLUMNS - 1) // COLUMNS
    row_height = _slot_height(max((len(stack) for stack in stacks), default=1))
    return SLOT_WIDTH * COLUMNS + 40, TOP_MARGIN + rows * row_height + 20, row_height


def slot_corner(index: int, row_height: int) -> tuple[int, int]:
    """The left edge and the bottom of slot ``index``'s place (0-based)."""
    row, column = divmod(index, COLUMNS)
    return 20 + SLOT_WIDTH * column, TOP_MARGIN + (row + 1) * row_height


def last_move_frame(left: int, bottom: int, row_height: int) -> tuple[int, int, int, int]:
    """The frame around a slot the last move touched."""
    return left + 4, bottom - row_height + 10, left + SLOT_WIDTH - 4, bottom - 6


def _slot_height(pyramids: int) -> int:
    """A row's height for its tallest stack; a stack's tile is that high for its own."""
    return max(170, 70 + LEVEL * pyramids + 40)


def _slot(stack: tuple[str, ...], number: int, locale: str | None) -> Image.Image:
    """Slot ``number``'s tile, kept: ``draw_slot`` on a canvas of its own, mapped to the palette."""
    key = (stack, number, locale)
    tile = _SLOTS.get(key)
    if tile is None:
        drawing, draw = new_canvas(SLOT_WIDTH, _slot_height(len(stack)))
        draw_slot(draw, (0, 0), stack, number, locale)
        tile = to_palette(drawing)
        _SLOTS.put(key, tile)
    return tile


def draw_slot(
    draw: ImageDraw.ImageDraw, corner: tuple[int, int], stack: Sequence[str], number: int, locale: str | None
) -> None:
    """A slot's stack bottom to top on a line, its number and height under it, in the box of width SLOT_WIDTH
    and height ``_slot_height(len(stack))`` whose top left is ``corner``."""
    centre_x, base_y = corner[0] + SLOT_WIDTH / 2, corner[1] + _slot_height(len(stack)) - 50
    draw.line((centre_x - 44, base_y, centre_x + 44, base_y), fill=COLOURS["grid"], width=3)
    for level, colour in enumerate(stack):
        draw_pyramid(
            draw, centre_x, base_y - level * LEVEL, 2, colour, unit=16, label=COLOUR_LETTERS.get(colour)
        )
    high = _t(locale, "h{height}", height=len(stack))
    label = f"#{number}" + (f" {high}" if stack else " -")
    centred_text(draw, (centre_x, base_y + 24), label, 24, fill=COLOURS["ink"] if stack else COLOURS["muted"])


def _header(draw: Any, view: dict[str, Any], width: int) -> None:
    locale = view.get("locale")
    if view.get("round_over") and view.get("match") == "single":
        text = _t(locale, "{who} wins", who=seat_label(view, view["last_mover"]))
    elif view.get("chooser") is not None:
        text = _t(locale, "{who} chooses first or second", who=seat_label(view, view["chooser"]))
    else:
        text = _t(locale, "{who} to move", who=seat_label(view, view["to_move"]))
    if view.get("match") != "single":
        score = "-".join(str(w) for w in view["wins"])
        text += "  |  " + _t(locale, "round {round}, wins {score}", round=view["round"], score=score)
    centred_text(draw, (width / 2, 34), text, 30)


def alt_text(view: dict[str, Any]) -> str:
    """Who moves (or won), the match score, the last move, then every stack bottom to top."""
    locale = view.get("locale")
    players = view["players"]
    who = names(view, range(players))
    sentences = [
        ntranslate(
            locale,
            "Babylone, {n} player ({names}): {status}.",
            "Babylone, {n} players ({names}): {status}.",
            players,
            context=IMAGE,
            names=listed(locale, who),
            status=_status(view, locale),
        )
    ]
    if view.get("match") != "single":
        wins = ", ".join(f"{name} {won}" for name, won in zip(who, view["wins"], strict=True))
        sentences.append(
            _t(
                locale,
                "Round {round} of a best-of-3 match, rounds won: {wins}.",
                round=view["round"],
                wins=wins,
            )
        )
    last = view.get("last_move")
    if last and view.get("last_mover") is not None:
        mover = seat_label(view, view["last_mover"])
        sentences.append(
            _t(
                locale,
                "Last move: {who} put stack {source} onto stack {target}.",
                who=mover,
                source=last[0],
                target=last[1],
            )
        )
    stacks = view["stacks"]
    standing = [
        _t(
            locale,
            "{slot}: {pieces} ({height} high)",
            slot=index,
            pieces=", ".join(_t(locale, colour) for colour in stack),
            height=len(stack),
        )
        for index, stack in enumerate(stacks, 1)
        if stack
    ]
    sentences.append(_t(locale, "Stacks, bottom to top: {stacks}.", stacks="; ".join(standing)))
    empty = [str(index) for index, stack in enumerate(stacks, 1) if not stack]
    if empty:
        sentences.append(_t(locale, "Empty slots: {slots}.", slots=", ".join(empty)))
    return compose(sentences)


def _status(view: dict[str, Any], locale: str | None = None) -> str:
    if view.get("round_over") and view.get("match") == "single":
        return _t(
            locale,
            "{who} wins: {loser} cannot move",
            who=seat_label(view, view["last_mover"]),
            loser=seat_label(view, view["to_move"]),
        )
    if view.get("chooser") is not None:
        return _t(locale, "{who} chooses to play first or second", who=seat_label(view, view["chooser"]))
    if view.get("round_over"):
        return _t(
            locale, "the match is over, {who} won the last round", who=seat_label(view, view["last_mover"])
        )
    return _t(locale, "{who} to move", who=seat_label(view, view["to_move"]))
