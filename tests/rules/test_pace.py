"""The pace figures the rules declare hold in self-play."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.engine import available_games, get_game
from rules.engine.pace import SelfPlayPace, log_pace, self_play_pace
from rules.engine.playout import Record, play, start, step
from rules.engine.rng import ReplayRng
from tests.support.games import SealedGuess


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


HOUR, STARTED = 3600.0, 1000.0


def _round_one_sealed(
    last: float,
) -> tuple[SealedGuess, Any, list[tuple[Record, float]], dict[tuple[str, int], float]]:
    """Sealed Guess's first round, 3 seats: seats 0 and 1 seal after 1 and 2 h, seat 2 after ``last`` seconds, when
    the host stores the three choices (it keeps when each seat sealed)."""
    game = SealedGuess()
    start_state = game.setup(3, {}, ReplayRng([]))
    revealed = STARTED + last
    events = [(Record(seat, "pick 1", []), revealed) for seat in range(3)]
    answered_at = {
        ("round-1", 0): STARTED + HOUR,
        ("round-1", 1): STARTED + 2 * HOUR,
        ("round-1", 2): revealed,
    }
    return game, start_state, events, answered_at


def test_a_wait_of_several_seats_at_once_lasts_until_the_slowest_answered() -> None:
    """A decision asked of several seats at once (a sealed plan, PRINCIPES's option ``together``) is one wait,
    and its time runs until the last of them answered: answers after 1, 2 and 10 h make one wait of 10 h, beside
    each seat's own answer time."""
    game, start_state, events, answered_at = _round_one_sealed(last=10 * HOUR)
    pace = log_pace(game, start_state, events, STARTED, lambda index, seat, decision: False, answered_at)
    assert pace.waits == 1
    assert sorted(seconds for _seat, seconds in pace.samples) == [HOUR, 2 * HOUR, 10 * HOUR]
    assert pace.wait_times == [10 * HOUR]


def test_a_wait_that_ran_to_a_deadline_is_timed_apart_as_expired() -> None:
    """A seat whose deadline's default answered was waited for until then: its wait counts, and its time (how
    long the wait lasted, the player's own answer time being longer) is kept apart from the answered waits'."""
    game, start_state, events, answered_at = _round_one_sealed(last=24 * HOUR)

    def answered_by_deadline(index: int) -> bool:
        return events[index][0].seat == 2

    pace = log_pace(
        game,
        start_state,
        events,
        STARTED,
        lambda index, seat, decision: False,
        answered_at,
        expired=answered_by_deadline,
    )
    assert pace.waits == 1
    assert (pace.wait_times, pace.expired_times) == ([], [24 * HOUR])
    answered = log_pace(game, start_state, events, STARTED, lambda index, seat, decision: False, answered_at)
    assert (answered.wait_times, answered.expired_times) == ([24 * HOUR], [])


def test_self_play_counts_each_wait_in_its_round() -> None:
    """``self_play_pace``: the waits per Round of one self-played game add up to the game's waits."""
    pace = self_play_pace(get_game("principes"), 3, seeds=1)
    assert len(pace.by_round) > 1 and sum(pace.by_round.values()) == pace.waits


def test_the_waits_to_come_are_the_later_rounds_over_the_earlier() -> None:
    """The waits still to come scale the waits so far by the self-played Rounds from this one on over those
    played; before any Round was played there is nothing to scale (None)."""
    pace = SelfPlayPace(60.0, {0.0: 30.0, 1 / 3: 20.0, 2 / 3: 10.0})
    assert pace.later_over_earlier(1 / 3) == 30.0 / 30.0
    assert pace.later_over_earlier(2 / 3) == 10.0 / 50.0
    assert pace.later_over_earlier(0.0) is None
