"""The conformance suite: run for every registered game, at every player count it supports.

A new game gets all of these by registering itself in ``rules.engine.registry``.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import IllegalAction, InvalidAction, RulesError, available_games, get_game
from rules.engine.playout import Playout, play, random_chooser, replay
from rules.engine.registry import registered_games, render_module_name

SEEDS = (1, 2, 3)
#: a cap on actions per playout, so one slow game cannot stall the suite; games end long before it
MAX_ACTIONS = 20_000


def _cases() -> list[tuple[str, int]]:
    cases = []
    for key in available_games():
        game = get_game(key)
        for players in range(game.min_players, game.max_players + 1):
            cases.append((key, players))
    return cases


CASES = _cases()
IDS = [f"{key}-{players}p" for key, players in CASES]


def _checked_playout(key: str, players: int, seed: int) -> Playout:
    """A random playout that checks, at every step, what must hold in every position."""
    game = get_game(key)
    seen_views: list[tuple[dict, int]] = []

    def chooser(game_, view, seat, legal, rng):
        assert legal, f"seat {seat} is pending but has no legal action"
        seen_views.append((view, seat))
        return random_chooser(game_, view, seat, legal, rng)

    playout = play(
        game, players, seed, max_actions=MAX_ACTIONS, choosers={seat: chooser for seat in range(players)}
    )
    assert seen_views, "the game asked nobody for a decision"
    return playout


@pytest.mark.parametrize(("key", "players"), CASES, ids=IDS)
def test_random_playouts_finish_and_replay(key: str, players: int) -> None:
    game = get_game(key)
    for seed in SEEDS:
        playout = _checked_playout(key, players, seed)
        assert game.outcome(playout.state).finished, f"seed {seed}: no result after {MAX_ACTIONS} actions"
        assert not game.pending(playout.state)
        rebuilt = replay(game, players, playout.options, playout.setup_draws, playout.records)
        assert rebuilt == playout.state, f"seed {seed}: replaying the log gives another state"


@pytest.mark.parametrize(("key", "players"), CASES, ids=IDS)
def test_same_seed_same_game(key: str, players: int) -> None:
    game = get_game(key)
    first = play(game, players, 11, max_actions=300)
    second = play(game, players, 11, max_actions=300)
    assert [(r.seat, r.action, r.draws) for r in first.records] == [
        (r.seat, r.action, r.draws) for r in second.records
    ]
    assert first.state == second.state


@pytest.mark.parametrize(("key", "players"), CASES, ids=IDS)
def test_json_round_trip_views_and_notation(key: str, players: int) -> None:
    """State and views are plain JSON; every legal action is canonical notation that parses to itself."""
    game = get_game(key)
    playout = play(game, players, 5, stop_after=0)
    rng = random.Random(5)
    for _ in range(120):
        state = playout.state
        assert json.loads(json.dumps(state)) == state
        pending = game.pending(state)
        if not pending:
            break
        for seat in range(players):
            view = game.view(state, seat)
            assert json.loads(json.dumps(view)) == view
            for action in game.legal_actions(state, seat)[:200]:
                assert game.parse(state, seat, action) == action, f"{action!r} does not round-trip"
                assert game.describe(state, action)
        public = game.view(state, None)
        assert json.loads(json.dumps(public)) == public
        seat = min(pending)
        from rules.engine.playout import step

        step(game, playout, seat, rng.choice(game.legal_actions(state, seat)))


@pytest.mark.parametrize(("key", "players"), CASES, ids=IDS)
def test_every_legal_action_applies_and_views_keep_secrets(key: str, players: int) -> None:
    game = get_game(key)
    playout = play(game, players, 7, stop_after=0)
    rng = random.Random(7)
    from rules.engine import Rng
    from rules.engine.playout import step

    for turn in range(150):
        state = playout.state
        pending = game.pending(state)
        if not pending:
            break
        for seat in range(players):
            secrets = game.secrets(state, seat)
            for other in [None, *[s for s in range(players) if s != seat]]:
                text = json.dumps(game.view(state, other))
                for secret in secrets:
                    assert secret not in text, f"seat {other}'s view shows seat {seat}'s secret {secret!r}"
        seat = min(pending)
        legal = game.legal_actions(state, seat)
        if turn % 10 == 0:  # every action of a position now and then: all must apply
            for action in legal[:300]:
                game.apply(state, seat, action, Rng.for_event(3, turn))
        assert game.pending(state) == pending, "apply changed the state it was given"
        step(game, playout, seat, rng.choice(legal))


@pytest.mark.parametrize(("key", "players"), CASES, ids=IDS)
def test_not_pending_seat_is_refused(key: str, players: int) -> None:
    game = get_game(key)
    playout = play(game, players, 9, stop_after=0)
    pending = game.pending(playout.state)
    idle = [seat for seat in range(players) if seat not in pending]
    from rules.engine import Rng

    for seat in idle:
        some_action = next(iter(game.legal_actions(playout.state, min(pending))))
        if game.is_free(playout.state, seat, some_action):
            continue
        with pytest.raises(IllegalAction):
            game.apply(playout.state, seat, some_action, Rng.for_event(9, 1))


class _ViewSpy:
    """Wraps ``game.view`` and checks that an AI is only ever handed an object that came out of it."""

    def __init__(self, game, level: str) -> None:
        self.game, self.level = game, level
        self.original = game.view
        self.handed_out: list[object] = []

    def view(self, state, seat):
        view = self.original(state, seat)
        self.handed_out.append(view)
        return view

    def choose(self, game, view, seat, legal, rng):
        assert any(view is seen for seen in self.handed_out), "the AI was given something other than a view"
        action = game.choose_action(view, seat, legal, self.level, rng)
        assert action in legal, f"AI level {self.level} chose an illegal action {action!r}"
        return action


@pytest.mark.whole_game
@pytest.mark.parametrize("key", available_games())
def test_ai_levels_decide_from_views_only(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each AI level plays a game to the end; it is only ever handed the seat's view."""
    game = get_game(key)
    for level in game.ai_levels:
        spy = _ViewSpy(game, level)
        monkeypatch.setattr(game, "view", spy.view)
        playout = play(game, game.min_players, 21, max_actions=MAX_ACTIONS, choosers={0: spy.choose})
        monkeypatch.setattr(game, "view", spy.original)
        assert game.outcome(playout.state).finished


@pytest.mark.parametrize("key", available_games())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=40))
def test_parse_never_crashes(key: str, text: str) -> None:
    """Any typed text either parses, or raises InvalidAction with a sentence; apply then judges it."""
    game = get_game(key)
    playout = play(game, game.min_players, 1, stop_after=0)
    seat = min(game.pending(playout.state))
    from rules.engine import Rng

    try:
        action = game.parse(playout.state, seat, text)
    except InvalidAction as error:
        assert str(error)
        return
    try:
        game.apply(playout.state, seat, action, Rng.for_event(1, 1))
    except RulesError as error:
        assert str(error)


@pytest.mark.parametrize("key", available_games())
def test_rules_notes_and_options_documented(key: str) -> None:
    game = get_game(key)
    assert game.key == key and game.title
    assert len(game.rules_notes) > 200
    for option in game.options:
        assert option.default in option.choices and option.help
        assert option.name in game.rules_notes, f"option {option.name} is not explained in the rules notes"
    assert game.ai_levels


@pytest.mark.parametrize("key", registered_games())
def test_every_registered_game_has_a_renderer_that_draws_its_views(key: str) -> None:
    """A game registers once (``rules.engine.registry``); its renderer is found by the same name, and a game
    without one fails here, not when a board is first drawn on Discord."""
    import render

    module = render.renderer_module(key)
    name = render_module_name(key)
    assert callable(getattr(module, "render", None)), f"{name} has no render(view)"
    assert callable(getattr(module, "alt_text", None)), f"{name} has no alt_text(view)"
    game = get_game(key, include_unplayable=True)
    playout = play(game, game.min_players, seed=5, stop_after=30)
    for seat in (None, *range(game.min_players)):
        image = render.render_view(key, game.view(playout.state, seat))
        assert image.width > 0 and image.height > 0
