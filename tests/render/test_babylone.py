"""The Babylone board is pasted together from kept slot tiles: it must be the very image that drawing the whole
board in full colour and mapping it to the palette gives, and a turn must draw only the slots it changed."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from render import babylone, render_view
from render.common import COLOURS, new_canvas, to_palette
from tests.host.selfplayed import recorded


def whole_drawing(view: dict[str, Any]) -> Image.Image:
    """The board drawn at once in full colour (as it was before tiles), from the renderer's own parts."""
    stacks = view["stacks"]
    width, height, row_height = babylone.board_size(stacks)
    image, draw = new_canvas(width, height)
    babylone._header(draw, view, width)
    for index, stack in enumerate(stacks):
        left, bottom = babylone.slot_corner(index, row_height)
        if index + 1 in (view.get("last_move") or []):
            draw.rectangle(
                babylone.last_move_frame(left, bottom, row_height), outline=COLOURS["highlight"], width=4
            )
        top = bottom - babylone._slot_height(len(stack))
        babylone.draw_slot(draw, (left, top), stack, index + 1, view.get("locale"))
    return to_palette(image)


def boards(
    players: int, seed: int, options: dict[str, str] | None = None, polish: bool = True
) -> list[dict[str, Any]]:
    """Every view of a seeded game as the host shows them, every fourth in Polish unless told."""
    played = recorded("babylone", players, seed, 300, options)
    views = []
    for index in range(len(played.states)):
        view = played.view(index, None)
        if polish and index % 4 == 3:
            view["locale"] = "pl"
        views.append(view)
    return views


@pytest.mark.parametrize(
    ("players", "seed", "options"), [(2, 1, None), (2, 2, {"match": "best-of-3"}), (3, 3, None), (4, 4, None)]
)
def test_a_board_of_tiles_is_the_whole_drawing_mapped_to_the_palette(
    players: int, seed: int, options: dict[str, str] | None
) -> None:
    views = boards(players, seed, options)
    assert len(views) > 10
    for number, view in enumerate(views):
        tiled, whole = render_view("babylone", view), whole_drawing(view)
        assert tiled.mode == "P" and tiled.size == whole.size, number
        assert tiled.getpalette() == whole.getpalette(), number
        assert tiled.tobytes() == whole.tobytes(), f"board {number} differs from the whole drawing"


def test_a_turn_draws_only_the_slots_it_changed() -> None:
    views = boards(2, 5, polish=False)
    babylone._SLOTS.clear()
    render_view("babylone", views[0])
    assert babylone._SLOTS.misses == len(views[0]["stacks"])  # the first board draws every slot
    for before, after in zip(views, views[1:], strict=False):
        if before.get("round") != after.get("round"):
            continue  # a new round of a match sets every slot up again
        missed = babylone._SLOTS.misses
        render_view("babylone", before)
        assert babylone._SLOTS.misses == missed  # the same board again: all kept
        render_view("babylone", after)
        changed = sum(a != b for a, b in zip(before["stacks"], after["stacks"], strict=True))
        assert babylone._SLOTS.misses - missed <= changed
