"""Babylone board: each slot a numbered column of pyramids, bottom to top, height written under it."""

from __future__ import annotations

from typing import Any

from PIL import Image

from i18n import listing as listed
from i18n import ntranslate

from .alt import compose, names
from .common import COLOUR_LETTERS, COLOURS, IMAGE, centred_text, draw_pyramid, new_canvas, seat_label
from .common import image_words as _t

SLOT_WIDTH = 120
COLUMNS = 6
LEVEL = 34  # vertical step between stacked pyramids
TOP_MARGIN = 70


def render(view: dict[str, Any]) -> Image.Image:
    """The board; its words are in ``view["locale"]`` (set by whoever shows it; English without)."""
    locale = view.get("locale")
    stacks: list[list[str]] = view["stacks"]
    rows = (len(stacks) + COLUMNS - 1) // COLUMNS
    tallest = max((len(stack) for stack in stacks), default=1)
    row_height = max(170, 70 + LEVEL * tallest + 40)
    width = SLOT_WIDTH * COLUMNS + 40
    height = TOP_MARGIN + rows * row_height + 20
    image, draw = new_canvas(width, height)
    _header(draw, view, width)
    last = view.get("last_move") or []
    for index, stack in enumerate(stacks):
        column, row = index % COLUMNS, index // COLUMNS
        centre_x = 20 + SLOT_WIDTH * column + SLOT_WIDTH / 2
        base_y = TOP_MARGIN + row * row_height + row_height - 50
        if index + 1 in last:
            draw.rectangle(
                (
                    centre_x - SLOT_WIDTH / 2 + 4,
                    base_y - row_height + 60,
                    centre_x + SLOT_WIDTH / 2 - 4,
                    base_y + 44,
                ),
                outline=COLOURS["highlight"],
                width=4,
            )
        draw.line((centre_x - 44, base_y, centre_x + 44, base_y), fill=COLOURS["grid"], width=3)
        for level, colour in enumerate(stack):
            draw_pyramid(
                draw, centre_x, base_y - level * LEVEL, 2, colour, unit=16, label=COLOUR_LETTERS.get(colour)
            )
        high = _t(locale, "h{height}", height=len(stack))
        label = f"#{index + 1}" + (f" {high}" if stack else " -")
        centred_text(
            draw, (centre_x, base_y + 24), label, 24, fill=COLOURS["ink"] if stack else COLOURS["muted"]
        )
    return image


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
