"""The pace figures the rules declare hold in self-play."""

from __future__ import annotations

import random

import pytest

from rules.engine import available_games, get_game
from rules.engine.pace import log_pace
from rules.engine.playout import play, start, step
from rules.engine.rng import ReplayRng


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


def test_a_log_where_nobody_was_waited_for_has_no_wait() -> None:
    """Every answer automatic (AI seats, say): no wait started, no span, no answer time (it once failed with a
    zip of unequal lengths, which /game status in a game of AI seats raised)."""
    game = get_game("babylone")
    playout = play(game, 2, 3, stop_after=6)
    events = [(record, 1000.0 + index) for index, record in enumerate(playout.records)]
    start_state = game.setup(2, playout.options, ReplayRng(list(playout.setup_draws)))
    pace = log_pace(game, start_state, events, 1000.0, lambda index, seat, decision: True)
    assert (pace.waits, pace.spans, pace.samples, pace.events) == (0, [], [], 6)
