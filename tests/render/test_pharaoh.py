"""Pharaoh renderer: every player count draws, pieces sit on their cells in their colours, dice are shown."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import pharaoh as board
from render import render_png, render_view
from render.common import COLOUR_LETTERS, COLOURS, READABLE_CONTRAST
from rules.engine import Rng
from rules.engine.playout import play
from rules.pharaoh import GAME
from tests.render.pixels import drawn_texts, readability


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


@pytest.mark.parametrize("colour_seat", [0, 1, 2, 3])
@pytest.mark.parametrize("piece", [0, 1, 2])
def test_piece_labels_read_against_a_flat_plate(colour_seat: int, piece: int) -> None:
    """Measured from the pixels: the letters of a piece's label ("Y1") contrast with what surrounds them
    (WCAG AA), and that surround is one flat colour: no ridge of the pyramid and no dark outline runs into
    the letters (on yellow both did, and "Y1" was a smudge on a phone)."""
    state = GAME.setup(4, {}, Rng.for_event(2, 0))
    state["pieces"][colour_seat] = [None, None, None]
    state["pieces"][colour_seat][piece] = "c3"
    view = GAME.view(state, None)
    colour = view["colours"][colour_seat]
    x, y = board._cell_centre("c3")
    label = f"{COLOUR_LETTERS[colour]}{piece + 1}"
    sent = Image.open(io.BytesIO(render_png("pharaoh", view)))  # the encoded image players get
    contrast, flat = readability(sent, (x, y + board.PIECE_DROP), label, board.LABEL_PX[piece])
    assert contrast >= READABLE_CONTRAST, f"{label}: contrast {contrast:.1f}"
    assert flat >= 0.9, f"{label}: only {flat:.0%} of the letters' surround is one colour"


def test_seats_are_named_by_their_players_and_else_by_their_colours() -> None:
    view = _view(4, actions=5)
    view["seat_names"] = ["alice", "bob", "carol", "dave"]
    with drawn_texts() as named:
        render_view("pharaoh", view)
    text = " ".join(named)
    assert all(name in text for name in view["seat_names"]) and "Seat" not in text
    del view["seat_names"]
    with drawn_texts() as unnamed:
        render_view("pharaoh", view)
    text = " ".join(unnamed)
    assert all(colour.capitalize() in text for colour in view["colours"]) and "Seat" not in text


def test_goal_lines_leave_the_centre_clear_and_are_keyed_beside_the_board() -> None:
    """Four goal lines crossing in c3 cluttered the centre: the board tints the goal cells only and a key in a
    free corner draws the lines."""
    state = GAME.setup(4, {}, Rng.for_event(2, 0))
    state["pieces"] = [[None, None, None] for _ in range(4)]
    view = GAME.view(state, None)
    image = render_view("pharaoh", view).convert("RGB")
    left, top, _, _ = board._cell_box("b4")
    _, _, right, bottom = board._cell_box("d2")
    centre = image.crop((left + 4, top + 4, right - 4, bottom - 4))
    assert COLOURS["brown"] not in {colour for _, colour in centre.getcolors(1 << 16) or []}
    key = image.crop(board.GOAL_KEY_BOX)
    assert sum(count for count, colour in key.getcolors(1 << 16) or [] if colour == COLOURS["brown"]) > 100
