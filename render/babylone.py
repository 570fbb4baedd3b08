"""Babylone board: each slot a numbered column of pyramids, bottom to top, height written under it."""

from __future__ import annotations

from typing import Any

from PIL import Image

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
