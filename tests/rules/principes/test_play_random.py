"""Random and AI games played to the end through the PRINCIPES II rules; deadline defaults; decision coverage."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from rules.engine.playout import play, replay
from rules.principes import GAME
from rules.principes.play import legal_actions, on_deadline, outcome, parse, pending

# The conformance suite (tests/rules/test_conformance.py) runs on the registered game at 2, 3 and 4 players.


@pytest.mark.parametrize("players", [2, 3, 4])
def test_basic_ai_games_end_and_replay(players: int) -> None:
    """Basic AI against basic AI: every game ends after Round 6 or earlier, and the log replays."""

    def basic(game, view, seat, legal, rng):
        return game.choose_action(view, seat, legal, "basic", rng)

    kinds: Counter[str] = Counter()
    for seed in range(3):
        playout = play(GAME, players, seed, choosers=dict.fromkeys(range(players), basic))
        result = outcome(playout.state)
        assert result.finished and (result.winners or result.draw)
        assert replay(GAME, players, playout.options, playout.setup_draws, playout.records) == playout.state
        kinds.update(event.kind for event in playout.events)
    assert kinds["taxes"] and kinds["assembly"] and kinds["plan_sealed"] and kinds["reveal"]


def test_deadline_defaults_are_legal_and_finish_a_game() -> None:
    """A game where every seat lets its deadline expire ends too: each default is a legal answer."""

    def expire(game, view, seat, legal, rng):
        return on_deadline(state_box[0], seat)

    state_box: list = []
    from rules.engine.playout import start, step

    playout = start(GAME, 3, {}, 4)
    for _ in range(5000):
        decisions = pending(playout.state)
        if not decisions:
            break
        seat = min(decisions)
        state_box[:] = [playout.state]
        action = on_deadline(playout.state, seat)
        assert action is not None and action in legal_actions(playout.state, seat)
        assert parse(playout.state, seat, action) == action
        step(GAME, playout, seat, action)
    assert outcome(playout.state).finished
    assert json.loads(json.dumps(playout.state)) == playout.state


def test_random_games_cover_the_decisions() -> None:
    """Random play reaches consent, battle windows, withdrawals, Councils and successions."""
    events: Counter[str] = Counter()
    for seed in range(3):
        playout = play(GAME, 4, seed)
        events.update(event.kind for event in playout.events)
    for kind in ("consent_asked", "battle", "council", "succession", "prince_placed"):
        assert events[kind], kind
