"""Game of Princes board image: legible size, coordinates that follow the carpets, the last move framed."""

from __future__ import annotations

import io

from PIL import Image

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
