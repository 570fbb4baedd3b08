"""The ``strong`` PRINCIPES AI: its decisions from a seat's view in the situations that decide a game."""

from __future__ import annotations

import random

from rules.engine import Rng
from rules.principes import GAME
from rules.principes.play import ai, ai_strong, legal_actions, pending
from rules.principes.play.ai_eval import battle_odds, can_reach, distances
from rules.principes.state import build_view

from .scenario import clear_units, decision_of, new_state, open_action, put, run, seat, send_princesses


def choose(state: dict, code: str, level: str = "strong", rng_seed: int = 0) -> str:
    who = seat(state, code)
    view = GAME.view(state, who)
    return GAME.choose_action(view, who, legal_actions(state, who), level, random.Random(rng_seed))


def test_strong_is_an_ai_level_and_plays_legal_actions_to_the_end() -> None:
    assert "strong" in GAME.ai_levels and "basic" in GAME.ai_levels
    state = GAME.setup(2, {}, Rng.for_event(3, 0))
    rng, event = random.Random(3), 1
    while not GAME.outcome(state).finished:
        who, _decision = sorted(pending(state).items())[0]
        legal = legal_actions(state, who)
        action = GAME.choose_action(GAME.view(state, who), who, legal, "strong", rng)
        assert action in legal
        state = GAME.apply(state, who, action, Rng.for_event(3, event)).state
        event += 1
    assert GAME.outcome(state).finished


def test_the_same_rng_gives_the_same_decision() -> None:
    state = new_state(2)
    assert choose(state, "PMA", rng_seed=5) == choose(state, "PMA", rng_seed=5)


def _last_round_plans() -> dict:
    """Both players sealing their plans in the last Round."""
    state = new_state(2)
    state, _ = run(state, "PMI", "direction cw")
    state = send_princesses(state)  # the Period's Princess missions come before the plans
    assert decision_of(state, "PMA") == "plan"
    state["round"] = state["play"]["last_round"]
    return state


def test_last_round_without_the_token_plans_the_council_last() -> None:
    state = _last_round_plans()
    plan = choose(state, "PMA").split()
    assert plan[0] == "plan" and plan[-1] == "politics"


def test_last_round_holder_keeps_politics_and_avoids_taxes() -> None:
    state = _last_round_plans()
    plan = choose(state, "PMI").split()[1:]
    assert "politics" in plan and "taxes" not in plan


def test_politics_summons_a_council_only_when_it_can_lead() -> None:
    state = new_state(2)
    state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"] = 8, 8
    assert choose(open_action(state, "PMA", "politics"), "PMA") == "council"
    behind = new_state(2)
    behind["players"]["PMA"]["people"], behind["players"]["PMA"]["clergy"] = 2, 2
    behind["players"]["PMA"]["hand"] = []
    assert choose(open_action(behind, "PMA", "politics"), "PMA") != "council"


def _answer_council(state: dict, code: str) -> dict:
    """The AI's whole turn in a Council's card phase."""
    while decision_of(state, code) == "council":
        state, _ = run(state, code, choose(state, code))
    return state


def test_the_holder_pledges_to_stop_a_rival_council() -> None:
    """Polonia Maior hosts (Elder Blood lifts its Clergy to 6) and leads on all tracks; Polonia Minor, the
    Princeps, answers first in the card phase and pledges to push Polonia Maior below the two it needs."""
    state = new_state(2)
    state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"] = 6, 4
    state["players"]["PMI"]["people"], state["players"]["PMI"]["clergy"] = 6, 5
    state["players"]["PMA"]["hand"] = []
    state["players"]["PMI"]["hand"] = ["C02a", "C03a"]
    state = open_action(state, "PMA", "politics")
    state, _ = run(state, "PMA", "council")
    assert decision_of(state, "PMI") == "council"
    assert choose(state, "PMI").startswith(("pledge", "play"))
    state = _answer_council(state, "PMI")
    state, kinds = run(state, "PMA", "done")
    assert "princeps_claimed" not in kinds and state["princeps"]["holder"] == "PMI"


def test_a_host_pledges_the_track_that_makes_it_lead() -> None:
    """Polonia Maior ties on Might only (Elder Blood lifts its Clergy from 2 to 4); its Council card's +2
    Clergy makes it lead on two tracks once the Princeps has answered."""
    state = new_state(2)
    state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"] = 5, 2
    state["players"]["PMI"]["people"], state["players"]["PMI"]["clergy"] = 6, 5
    state["players"]["PMI"]["hand"] = []
    state["players"]["PMA"]["hand"] = ["C02a"]  # Blessing of the Archbishop: +2 Clergy at a Council
    state = open_action(state, "PMA", "politics")
    state, _ = run(state, "PMA", "council")
    state, _ = run(state, "PMI", "done")
    assert choose(state, "PMA").startswith(("pledge", "play"))
    state = _answer_council(state, "PMA")
    assert state["princeps"]["holder"] == "PMA"


def test_battle_odds_follow_the_numbers() -> None:
    state = new_state(2)
    view = build_view(state, None)
    strong, _, _ = battle_odds(view, "sandomiria", {"knight": 3}, {"footman": 1})
    weak, _, _ = battle_odds(view, "sandomiria", {"footman": 1}, {"knight": 3})
    assert strong > 0.9 and weak == 0.0


def _moves_of(state: dict, code: str) -> dict:
    """Let the AI move until it says done; the lands where its units stand then."""
    while decision_of(state, code) == "movement":
        action = choose(state, code)
        if action == "done":
            break
        state, _ = run(state, code, action)
    return {land: dict(ls["units"][code]) for land, ls in state["lands"].items() if ls["units"].get(code)}


def test_movement_attacks_a_weak_garrison() -> None:
    state = new_state(2)
    clear_units(state, "calisia")
    put(state, "calisia", "PMA", knight=3)
    clear_units(state, "siradia")
    put(state, "siradia", "PMI", footman=1)
    assert "siradia" in _moves_of(open_action(state, "PMA", "movement"), "PMA")


def test_movement_spares_a_strong_garrison() -> None:
    state = new_state(2)
    clear_units(state, "calisia")
    put(state, "calisia", "PMA", footman=2)
    view = build_view(state, None)
    fortresses = [land for land in distances(view, "calisia", "PMA", 2) if land != "calisia"]
    for land in fortresses:
        clear_units(state, land)
        put(state, land, "PMI", knight=4)
    assert can_reach(build_view(state, None), "calisia", "siradia", "PMA", 2)
    ended = _moves_of(open_action(state, "PMA", "movement"), "PMA")
    assert not set(ended) & set(fortresses)


def test_consent_is_refused_to_a_rival() -> None:
    state = new_state(2)
    state["play"]["prompts"]["PMI"] = {
        "id": "c1",
        "kind": "consent",
        "text": "",
        "timing": "turn",
        "sealed": False,
    }
    view = GAME.view(state, seat(state, "PMI"))
    assert ai_strong.STRONG["consent"](view, "PMI", ["allow", "deny"], random.Random(0)) == "deny"


def test_unknown_prompt_kinds_fall_back_to_the_basic_chooser(monkeypatch) -> None:
    state = new_state(2)
    state["play"]["prompts"]["PMA"] = {
        "id": "x",
        "kind": "princess_mission",
        "text": "",
        "timing": "turn",
        "sealed": False,
    }
    monkeypatch.setitem(ai.CHOOSERS, "princess_mission", lambda view, me, answers, rng: answers[-1])
    view = GAME.view(state, seat(state, "PMA"))
    assert ai.choose_action(view, 0, ["send a", "send b"], "strong", random.Random(0)) == "send b"


def test_no_court_text_is_offered_while_another_is_announced() -> None:
    """Found by the strong AI: while a Court text waits for its Papal Legate answers, an action prompt must not
    list another Court text (apply refuses it), so an AI never picks an action the rules then refuse."""
    state = new_state(3)
    state["players"]["PMA"]["hand"] = ["C11a"]
    state = open_action(state, "PMA", "assembly")
    assert any(action.startswith("play c11a") for action in legal_actions(state, seat(state, "PMA")))
    state["play"]["reaction"] = {"who": "SIL", "card": "C13a", "words": ["play", "c13a"], "waiting": ["PMI"]}
    assert not any(action.startswith("play ") for action in legal_actions(state, seat(state, "PMA")))


def test_a_respawn_asked_while_only_conversions_are_offered_converts() -> None:
    # the hand limit comes before the standing respawn prompt: the answers are the conversions only (seed 512 of
    # ``python -m bench orders`` raised KeyError reading a card id as a land)
    state = new_state(2)
    answers = ["sell n02", "support n02 clergy", "sell b16b"]
    assert ai.CHOOSERS["respawn"](GAME.view(state, 0), "PMA", answers, random.Random(0)) == "sell n02"
