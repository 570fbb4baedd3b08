"""Game of Princes AI: how it prices a blocked route, and that its decisions depend on the rng alone."""

from __future__ import annotations

import random

import pytest

from rules.engine.playout import play
from rules.game_of_princes import GAME
from rules.game_of_princes.ai import route_cost
from rules.game_of_princes.board import Board


def _blocked_start(free_carpet: tuple[int, int]) -> Board:
    """Red's Prince on 1,1 next to Blue's only free-standing carpet 1,2, which a Blue servitor holds; a
    neutral carpet lies free on ``free_carpet``."""
    carpets = {(1, 1): "red", (1, 2): "blue", (2, 1): "neutral", (3, 3): "neutral", free_carpet: "neutral"}
    servitors = {(1, 1): 0, (2, 1): 0, (1, 2): 1, (3, 3): 1}
    return Board(carpets, servitors, [(1, 1), (3, 3)])


def test_a_blocker_that_cannot_leave_makes_the_route_dearer() -> None:
    stuck = _blocked_start((3, 2))  # no free carpet touches 1,2: Blue's servitor there cannot move
    movable = _blocked_start((2, 2))  # 2,2 touches 1,2: Blue's servitor may step off
    assert stuck.carpets_connected() and movable.carpets_connected()
    assert not any(move[1] == (1, 2) for move in stuck.servitor_moves(1))
    assert any(move[1] == (1, 2) for move in movable.servitor_moves(1))
    assert route_cost(stuck, 0, confined=False) > route_cost(movable, 0, confined=False)


@pytest.mark.parametrize("level", GAME.ai_levels)
def test_the_same_position_and_rng_give_the_same_move(level: str) -> None:
    # the search budget counts evaluations, not seconds: a loaded machine must not change the choice
    state = play(GAME, 2, 3, stop_after=30).state
    seat = state["to_move"]
    view = GAME.view(state, seat)
    legal = GAME.legal_actions(state, seat)
    choices = {GAME.choose_action(view, seat, legal, level, random.Random(7)) for _ in range(2)}
    assert len(choices) == 1 and choices <= set(legal)
