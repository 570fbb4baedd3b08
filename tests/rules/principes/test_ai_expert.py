"""The ``expert`` PRINCIPES AI: a search from its seat's view only, deterministic for a seed and a budget."""

from __future__ import annotations

import random

import pytest

from rules.engine import Rng
from rules.engine.playout import play
from rules.engine.thinking import Budget
from rules.principes import GAME
from rules.principes.play import EXPERT_RULES, ai_expert, legal_actions, pending

from .scenario import decision_of, new_state, run, seat, send_princesses

#: a small search, and no clock: the same view, rng and budget give the same action on any machine
SMALL = Budget(150, None)


def _last_round_plans() -> dict:
    """Both players sealing their plans in the last Round (the expert searches there)."""
    state = new_state(2)
    state, _ = run(state, "PMI", "direction cw")
    state = send_princesses(state)
    assert decision_of(state, "PMA") == "plan"
    state["round"] = state["play"]["last_round"]
    return state


def _expert(state: dict, code: str, rng_seed: int, budget: Budget = SMALL) -> str:
    who = seat(state, code)
    view = GAME.view(state, who)
    return ai_expert.choose(
        view, who, legal_actions(state, who), random.Random(rng_seed), EXPERT_RULES, budget
    )


def test_expert_is_a_level_and_deterministic_for_a_seed_and_budget() -> None:
    assert "expert" in GAME.ai_levels
    state = _last_round_plans()
    legal = legal_actions(state, seat(state, "PMA"))
    runs = [_expert(state, "PMA", seed) for seed in (7, 7, 8)]
    assert runs[0] == runs[1] and all(action in legal for action in runs)
    view = GAME.view(state, seat(state, "PMA"))
    assert GAME.choose_action(view, seat(state, "PMA"), legal, "expert:0.2s", random.Random(7)) in legal


def test_expert_cannot_depend_on_what_it_cannot_see() -> None:
    """Two states differing only in what Polonia Minor holds, the decks' order and its sealed plan give
    Polonia Maior one view, so one action."""
    first = _last_round_plans()
    second = GAME.copy_state(first)
    rival, deck = second["players"]["PMI"]["hand"], second["decks"]["court"]
    rival[0], deck[0] = deck[0], rival[0]
    deck.reverse()
    second["decks"]["battle"].reverse()
    first, _ = run(first, "PMI", "plan taxes assembly movement")
    second, _ = run(second, "PMI", "plan building movement politics")
    who = seat(first, "PMA")
    assert first != second and GAME.view(first, who) == GAME.view(second, who)
    assert _expert(first, "PMA", 5) == _expert(second, "PMA", 5)


def test_a_sampled_state_gives_the_seat_its_own_view() -> None:
    """What the search samples is consistent with the view: the seat would see the very same thing there."""
    state = play(GAME, 2, 31, choosers={0: _strong, 1: _strong}, stop_after=150).state
    checked = 0
    for _ in range(40):
        if GAME.outcome(state).finished:
            break
        who = min(pending(state))
        view = GAME.view(state, who)
        sample = ai_expert.determinize(view, who, random.Random(checked), EXPERT_RULES)
        assert GAME.view(sample, who) == view
        assert legal_actions(sample, who) == legal_actions(state, who)
        checked += 1
        action = _strong(GAME, view, who, legal_actions(state, who), random.Random(checked))
        state = GAME.apply(state, who, action, Rng.for_event(31, 1000 + checked)).state
    assert checked > 10


def _strong(game: object, view: dict, who: int, legal: list[str], rng: random.Random) -> str:
    return GAME.choose_action(view, who, legal, "strong", rng)


def test_a_game_of_expert_seats_plays_to_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_expert, "EXPERT_BUDGET", Budget(40, None))

    def expert(game: object, view: dict, who: int, legal: list[str], rng: random.Random) -> str:
        action = GAME.choose_action(view, who, legal, "expert", rng)
        assert action in legal
        return action

    playout = play(GAME, 2, 8, choosers={0: expert, 1: expert})
    assert GAME.outcome(playout.state).finished
