"""The pace figures the rules declare hold in self-play."""

from __future__ import annotations

import random

import pytest

from rules.engine import available_games, get_game
from rules.engine.playout import start, step


def windows_passing_by_themselves(key: str, seeds: range, level: str) -> float:
    """Over 4-player (or the most players') self-play at ``level``: the share of card windows whose only answer
    was "pass" (the automatic pass's)."""
    game = get_game(key)
    windows = passed = 0
    for seed in seeds:
        playout = start(game, min(4, game.max_players), {}, seed)
        rng = random.Random(seed)
        for _ in range(5000):
            pending = game.pending(playout.state)
            if not pending:
                break
            seat = min(pending)
            if pending[seat].timing == "window":
                windows += 1
                passed += game.auto_pass(playout.state, seat) is not None
            legal = game.legal_actions(playout.state, seat)
            step(
                game,
                playout,
                seat,
                game.choose_action(game.view(playout.state, seat), seat, legal, level, rng),
            )
    return passed / windows


@pytest.mark.parametrize("key", [key for key in available_games() if get_game(key).has_windows])
def test_the_declared_share_of_windows_passing_by_themselves_holds(key: str) -> None:
    """``Game.window_pass_share`` (what /game status weighs a person's window by) is within 0.15 of self-play."""
    game = get_game(key)
    level = "basic" if "basic" in game.ai_levels else game.ai_levels[-1]
    measured = windows_passing_by_themselves(key, range(1, 4), level)
    assert abs(measured - game.window_pass_share) <= 0.15, measured
