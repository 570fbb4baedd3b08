"""Babylone board: each slot a numbered column of pyramids, bottom to top, height written under it."""

from __future__ import annotations

from typing import Any

from PIL import Image

from .alt import compose, listing, names
from .common import COLOUR_LETTERS, COLOURS, centred_text, draw_pyramid, new_canvas, seat_label

SLOT_WIDTH = 120
COLUMNS = 6
LEVEL = 34  # vertical step between stacked pyramids
TOP_MARGIN = 70


def render(view: dict[str, Any]) -> Image.Image:
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
        label = f"#{index + 1}" + (f" h{len(stack)}" if stack else " -")
        centred_text(
            draw, (centre_x, base_y + 24), label, 24, fill=COLOURS["ink"] if stack else COLOURS["muted"]
        )
    return image


def _header(draw: Any, view: dict[str, Any], width: int) -> None:
    if view.get("round_over") and view.get("match") == "single":
        text = f"{seat_label(view, view['last_mover'])} wins"
    elif view.get("chooser") is not None:
        text = f"{seat_label(view, view['chooser'])} chooses first or second"
    else:
        text = f"{seat_label(view, view['to_move'])} to move"
    if view.get("match") != "single":
        text += f"  |  round {view['round']}, wins " + "-".join(str(w) for w in view["wins"])
    centred_text(draw, (width / 2, 34), text, 30)


def alt_text(view: dict[str, Any]) -> str:
    """Who moves (or won), the match score, the last move, then every stack bottom to top."""
    players = view["players"]
    sentences = [f"Babylone, {players} players ({listing(names(view, range(players)))}): {_status(view)}."]
    if view.get("match") != "single":
        wins = ", ".join(
            f"{name} {won}" for name, won in zip(names(view, range(players)), view["wins"], strict=True)
        )
        sentences.append(f"Round {view['round']} of a best-of-3 match, rounds won: {wins}.")
    last = view.get("last_move")
    if last and view.get("last_mover") is not None:
        mover = seat_label(view, view["last_mover"])
        sentences.append(f"Last move: {mover} put stack {last[0]} onto stack {last[1]}.")
    stacks = view["stacks"]
    standing = [
        f"{index}: {', '.join(stack)} ({len(stack)} high)" for index, stack in enumerate(stacks, 1) if stack
    ]
    sentences.append(f"Stacks, bottom to top: {'; '.join(standing)}.")
    empty = [str(index) for index, stack in enumerate(stacks, 1) if not stack]
    if empty:
        sentences.append(f"Empty slots: {', '.join(empty)}.")
    return compose(sentences)


def _status(view: dict[str, Any]) -> str:
    if view.get("round_over") and view.get("match") == "single":
        return f"{seat_label(view, view['last_mover'])} wins: {seat_label(view, view['to_move'])} cannot move"
    if view.get("chooser") is not None:
        return f"{seat_label(view, view['chooser'])} chooses to play first or second"
    if view.get("round_over"):
        return f"the match is over, {seat_label(view, view['last_mover'])} won the last round"
    return f"{seat_label(view, view['to_move'])} to move"
