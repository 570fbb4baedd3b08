"""Game of Princes board image: legible size, coordinates that follow the carpets, the last move framed."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image

from render import game_of_princes as board
from render import render_png, render_view
from render.common import COLOURS
from render.game_of_princes import MAX_WIDTH, _box
from rules.engine import Rng
from rules.engine.playout import play, start
from rules.game_of_princes import GAME, store_board
from rules.game_of_princes.board import Board

KEY = "game-of-princes"


def test_start_image_is_phone_sized_and_encodes() -> None:
    view = GAME.view(start(GAME, 2, {}, 1).state, None)
    image = render_view(KEY, view)
    assert 500 <= image.width <= MAX_WIDTH
    png = render_png(KEY, view)
    assert Image.open(io.BytesIO(png)).size == image.size


def test_box_follows_carpets_off_the_original_grid() -> None:
    state = GAME.setup(2, {}, Rng.for_event(0, 0))
    board = Board.start()
    board.carpets[(-3, 2)] = board.carpets.pop((1, 2))
    board.carpets[(-2, 2)] = board.carpets.pop((1, 3))
    board.carpets[(-1, 2)] = board.carpets.pop((1, 4))
    board.carpets[(0, 2)] = board.carpets.pop((2, 2))
    store_board(state, board)
    view = GAME.view(state, None)
    assert _box(view) == (-4, 0, 6, 6)
    assert render_view(KEY, view).width <= MAX_WIDTH


def test_a_far_spread_table_still_fits() -> None:
    state = GAME.setup(2, {}, Rng.for_event(0, 0))
    board = Board.start()
    line = [cell for cell in board.carpets if board.carpets[cell] == "neutral"]
    for index, cell in enumerate(line):
        board.carpets[(6 + index, 1)] = board.carpets.pop(cell)
    store_board(state, board)
    image = render_view(KEY, GAME.view(state, None))
    assert image.width <= MAX_WIDTH


def test_confined_game_shows_the_original_grid_only() -> None:
    view = GAME.view(start(GAME, 2, {"confined": "yes"}, 1).state, None)
    assert _box(view) == (1, 1, 5, 5)
    render_view(KEY, view)


def _highlight_pixels(view: dict) -> int:
    colours = render_view(KEY, view).convert("RGB").getcolors(maxcolors=1 << 20) or []
    return sum(count for count, colour in colours if colour == COLOURS["highlight"])


def test_last_move_is_highlighted() -> None:
    view = GAME.view(play(GAME, 2, 3, stop_after=9).state, None)
    assert view["last_move"]["from"]
    without = dict(view, last_move=None)
    # the frames around both cells and the arrow add far more than the Princes' rings already show
    assert _highlight_pixels(view) > _highlight_pixels(without) + 4 * 60


def test_finished_game_renders_its_result() -> None:
    for seed in (1, 2):
        playout = play(GAME, 2, seed)
        assert GAME.outcome(playout.state).finished
        render_view(KEY, GAME.view(playout.state, None))


def _highlight_run(
    image: Image.Image, point: tuple[float, float], normal: tuple[float, float], reach: int
) -> int:
    """How many highlight pixels run across the move's axis at ``point`` (both ways from it)."""
    width = 0
    for sign in (1, -1):
        for step in range(1 if sign == 1 else 0, reach):
            x, y = round(point[0] + sign * normal[0] * step), round(point[1] + sign * normal[1] * step)
            if image.getpixel((x, y)) != COLOURS["highlight"]:
                break
            width += 1
    return width


@pytest.mark.parametrize("moves", [9, 30, 31])
def test_the_last_move_shows_its_direction_with_an_arrowhead(moves: int) -> None:
    """Measured from the pixels across the line from the cell left to the cell reached (away from the cell
    frames): a head much wider than the shaft that narrows towards the cell reached. A small dot at the end,
    hidden under the piece that arrived, showed no direction on a phone."""
    view = GAME.view(play(GAME, 2, 1, stop_after=moves).state, None)
    image = render_view(KEY, view).convert("RGB")
    geometry, _, _ = board.layout(view)
    (x0, y0), (x1, y1) = (geometry.centre(*view["last_move"][end]) for end in ("from", "to"))
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    borders = [
        geometry.corner(x, y) for x in range(geometry.low_x, geometry.high_x + 2) for y in (geometry.low_y,)
    ]
    border_xs = {corner[0] for corner in borders}
    border_ys = {
        geometry.corner(geometry.low_x, y)[1] for y in range(geometry.low_y - 1, geometry.high_y + 1)
    }
    profile = []
    for step in range(2, int(length) - 2):
        x, y = x0 + ux * step, y0 + uy * step
        near_frame = any(abs(x - bx) < 8 for bx in border_xs) or any(abs(y - by) < 8 for by in border_ys)
        profile.append(
            (step, 0 if near_frame else _highlight_run(image, (x, y), (-uy, ux), geometry.cell // 2))
        )
    widest_step, widest = max(profile, key=lambda entry: entry[1])
    shaft = [width for step, width in profile if 0 < width and step < widest_step - 12]
    tip = max(step for step, width in profile if width)
    assert widest >= 2 * max(shaft, default=widest), f"no head: widest {widest}, shaft {shaft}"
    assert tip > widest_step + 6, "the head does not narrow towards the cell reached"
