"""Pharaoh renderer: every player count draws, pieces sit on their cells in their colours, dice are shown."""

from __future__ import annotations

import pytest

from render import pharaoh as board
from render import render_png, render_view
from render.common import COLOURS
from rules.engine import Rng
from rules.engine.playout import play
from rules.pharaoh import GAME


def _view(players: int, seed: int = 3, actions: int = 25, **options: str) -> dict:
    playout = play(GAME, players, seed, options=options, stop_after=actions)
    return GAME.view(playout.state, None)


def _face(x: float, y: float) -> tuple[int, int]:
    """A point on a pyramid's face: below its label, between its ridges."""
    return int(x) + 3, int(y) + 15


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_count_renders_a_phone_sized_png(players: int) -> None:
    view = _view(players)
    image = render_view("pharaoh", view)
    assert image.size == (board.WIDTH, board.HEIGHT) and board.WIDTH <= 800
    assert render_png("pharaoh", view).startswith(b"\x89PNG")


def test_pieces_are_drawn_on_their_cells_in_their_colours() -> None:
    state = GAME.setup(4, {}, Rng.for_event(2, 0))
    state["pieces"][1] = ["a3", None, None]
    state["pieces"][3] = [None, None, "c3"]
    image = render_view("pharaoh", GAME.view(state, None))
    for cell, colour in (("a3", "yellow"), ("c3", "blue")):
        x, y = board._cell_centre(cell)
        assert image.getpixel(_face(x, y + board.PIECE_DROP)) == COLOURS[colour]


def test_reserves_hold_the_pieces_off_the_board() -> None:
    view = _view(2, actions=0)
    image = render_view("pharaoh", view)
    # seat 1 sits south: its large pyramid waits first in the band below the board
    x, y = board.BOARD_X + board.CELL * 1.5, board.BOARD_Y + board.BOARD + 50
    assert image.getpixel(_face(x, y)) == COLOURS["red"]


def test_two_dice_are_drawn_and_the_image_changes_with_the_roll() -> None:
    state = GAME.setup(2, {"dice": "2"}, Rng.for_event(4, 0))
    state["roll"], state["points"], state["left"] = [1, 6], 7, 7
    seven = render_view("pharaoh", GAME.view(state, None))
    state["roll"] = [2, 5]
    other = render_view("pharaoh", GAME.view(state, None))
    die_box = (board.WIDTH - 2 * board.DIE - 40, 20, board.WIDTH, 20 + board.DIE + 12)
    assert seven.crop(die_box).tobytes() != other.crop(die_box).tobytes()


def test_finished_game_marks_the_winning_line() -> None:
    state = GAME.setup(2, {}, Rng.for_event(1, 0))
    state["pieces"][0] = ["b3", "c3", "d3"]
    state.update(winner=0, win_line=["b3", "c3", "d3"])
    image = render_view("pharaoh", GAME.view(state, None))
    left, _ = board._cell_centre("b3")
    right, y = board._cell_centre("c3")
    assert image.getpixel((int((left + right) / 2), int(y))) == COLOURS["highlight"]
