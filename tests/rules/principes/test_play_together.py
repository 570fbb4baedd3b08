"""PRINCIPES decisions asked together (option ``together``, issue 47; ``play.together``): the queued History
prompts, the Period's Prince choice and placement, and the Princess missions and the draws and discards they
cause are asked of every player at once, sealed; the answers apply in turn order at each player's turn, one no
longer allowed leaves its player asked again. Replay equality, the views (nobody sees another's sealed answer),
the fallback, one wait for all, and the default (off: one player after the other, stored as games stored before
the option were, state and log unchanged)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from rules.engine import ReplayRng, get_game
from rules.engine.pace import WaitCounter, paced_play
from rules.engine.playout import replay
from rules.principes.play import legal_actions, pending, view_play
from rules.principes.play.common import capital
from rules.principes.play.together import TOGETHER
from rules.principes.state import build_view

from .scenario import decision_of, new_state, run, seat
from .test_play_history import reveal, round_end

GAME = get_game("principes")
SEEDS = range(1, 5)
#: every kind asked together somewhere in the sample games
KINDS = ("division", "urbanization", "release", "prince_choice", "prince_place", "princess", "princess_draw")
#: the table's choice; off is the default
ON = {"together": "on"}


def _together_decisions(state: dict[str, Any]) -> dict[int, Any]:
    return {s: d for s, d in pending(state).items() if d.id.startswith(TOGETHER)}


@pytest.fixture(scope="module")
def games() -> list[Any]:
    return [paced_play(GAME, 4, seed, "strong", autopass=True, options=ON) for seed in SEEDS]


def test_each_kind_is_asked_together_and_the_game_replays_from_its_seed_and_actions(games: list[Any]) -> None:
    asked: Counter[str] = Counter()
    for paced in games:
        playout = paced.playout
        assert playout.state["options"]["together"] == "on"
        assert replay(GAME, 4, ON, playout.setup_draws, playout.records) == playout.state
        state = replay(GAME, 4, ON, playout.setup_draws, [])
        for record in playout.records:
            together = _together_decisions(state)
            if together:
                assert all(d.sealed for d in together.values())
                assert len({d.id for d in together.values()}) == 1  # one decision, as a plan
                asked.update({d.kind for d in together.values()})
            state = GAME.apply(state, record.seat, record.action, ReplayRng(list(record.draws))).state
    assert set(KINDS) <= set(asked), asked


def test_players_asked_together_start_one_wait() -> None:
    state, _ = round_end(new_state(4, together="on"), "H03", ["urbanization"])
    asked = _together_decisions(state)
    assert len(asked) == 4 and {d.kind for d in asked.values()} == {"urbanization"}
    counter = WaitCounter()
    counter.observe(pending(state))
    for code in ("PMA", "MAS", "PMI"):
        state, _ = run(state, code, "pass")
        counter.observe(pending(state))
    assert counter.waits == 1


def _views(state: dict[str, Any], but: int) -> list[str]:
    seats = [s for s in range(len(state["seats"])) if s != but]
    return [json.dumps(view_play(state, build_view(state, s), s), sort_keys=True) for s in [*seats, None]]


def test_nobody_sees_a_sealed_answer_and_a_taken_city_leaves_the_later_player_asked() -> None:
    state, _ = round_end(new_state(4, together="on"), "H03", ["urbanization"])
    order = [code for code in state["play"]["order"] if decision_of(state, code) == "urbanization"]
    wanting = [code for code in order if "found posnania" in legal_actions(state, seat(state, code))]
    first, later = wanting[0], wanting[1]
    founded, _ = run(state, later, "found posnania")
    passed, _ = run(state, later, "pass")
    assert _views(founded, seat(state, later)) == _views(passed, seat(state, later))  # nothing shows
    assert founded["lands"]["posnania"]["cities"] == passed["lands"]["posnania"]["cities"]  # nothing applied
    state = founded
    for code in order:
        if code != later:
            state, _ = run(state, code, "found posnania" if code == first else "pass")
    assert state["lands"]["posnania"]["cities"] == {"posnania": "capital"}
    assert state["players"][first]["gold"] == 5  # the first in turn order founded it
    asked = pending(state)[seat(state, later)]
    assert asked.kind == "urbanization" and not asked.sealed  # asked again, seeing the board
    assert "found posnania" not in legal_actions(state, seat(state, later))


def test_a_history_text_s_prince_moves_are_asked_together_and_apply_in_turn_order() -> None:
    state, _ = reveal(new_state(4, together="on"), "H12")  # Burundai: each player may move its Prince
    asked = _together_decisions(state)
    assert len(asked) >= 2 and {d.kind for d in asked.values()} == {"history_relocate"}
    for asked_seat in sorted(asked):
        code = state["seats"][asked_seat]
        state, _ = run(state, code, "place sandomiria" if code == "PMI" else "stay")
    assert state["lands"]["sandomiria"]["units"]["PMI"]["prince"] == 1
    assert decision_of(state, "PMI") == "plan"  # every move applied: the Round goes on


def test_the_period_s_prince_changes_are_asked_together() -> None:
    """At a Period's end every player's Prince placement (and choice, where a player has two candidates) is
    one decision asked of all at once."""
    state = new_state(4, together="on")
    state["round"], state["period"] = 2, 2
    state["play"]["succession"] = [
        {"who": code, "why": "period", "stage": None} for code in state["play"]["order"]
    ]
    state, _ = round_end(state, "H03", [])
    asked: dict[str, int] = {}
    while state["play"]["succession"]:
        together = _together_decisions(state)
        assert together, pending(state)  # nobody is asked alone
        for kind in {d.kind for d in together.values()}:
            asked[kind] = max(asked.get(kind, 0), len(together))
        for asked_seat in sorted(together):
            state, _ = run(state, state["seats"][asked_seat], legal_actions(state, asked_seat)[0])
    assert asked.get("prince_place") == 4 and asked.get("prince_choice") == 3, asked  # PMI has one candidate
    assert all("-2" in state["players"][code]["prince"] for code in state["seats"])


def test_the_missions_then_their_draws_are_asked_together_and_a_taken_area_is_asked_again() -> None:
    state = new_state(4, together="on")
    state, _ = run(state, state["princeps"]["holder"], "direction cw")
    sending = _together_decisions(state)
    assert len(sending) == 4 and {d.kind for d in sending.values()} == {"princess"}
    order = state["play"]["order"]
    first, later = order[0], order[1]
    for code in order:  # the first two want the same Neighbour; the others send her home
        area = "send hungary" if code in (first, later) else f"send {capital_of(code)}"
        state, _ = run(state, code, area)
    assert state["players"][first]["princess"] == "hungary"
    asked = pending(state)[seat(state, later)]
    assert asked.kind == "princess" and not asked.sealed  # asked again: hungary is taken
    state, _ = run(state, later, f"send {capital_of(later)}")
    drawing = _together_decisions(state)
    assert {state["seats"][s] for s in drawing} == {code for code in order if code != first}
    assert {d.kind for d in drawing.values()} == {"princess_draw"}


def capital_of(code: str) -> str:
    return str(capital(code))


def test_off_is_the_default_and_is_stored_as_the_games_from_before_the_option() -> None:
    stored = {
        "principalities": "standard",
        "neutrals": "passive",
        "maior_prince": "spindleshanks",
        "gold_supply": "unlimited",
        "elimination": "on",
    }
    assert GAME.resolve_options(stored) == stored  # a game stored before the option: read as off
    assert (
        GAME.resolve_options({}) == stored == GAME.resolve_options({"together": "off"})
    )  # off: the same game
    assert GAME.resolve_options(ON) == {**stored, **ON}
    state, _ = round_end(new_state(4), "H03", ["urbanization"])
    assert not _together_decisions(state) and len(pending(state)) == 1
    assert "together" not in state["play"] and "sealing" not in state["play"]  # nothing of it is written
