"""One test per Prince card: the ruling Prince's special rule applied through the rules, asserting its change.
Invader opponents (Prussians, Lithuanians) are placed directly in the state (their armies are another module)."""

from __future__ import annotations

from typing import Any

from rules.engine import ReplayRng
from rules.principes.play import battle, legal_actions
from rules.principes.play.building import build_cost
from rules.principes.play.common import Ctx
from rules.principes.play.effects_engine import fire
from rules.principes.play.neighbours import forbidden
from rules.principes.play.princes import waive_penalties
from rules.principes.play.taxes import tax_income
from rules.principes.state import controllers

from .scenario import clear_units, new_state, open_action, put, run, seat
from .test_play_components import covers


def ruled(players: int, code: str, prince: str) -> dict[str, Any]:
    state = new_state(players)
    state["players"][code]["prince"] = prince
    return state


def fake_battle(attacker: str, defender: str, winner: str | None = None) -> dict[str, Any]:
    return {
        "sides": {"A": attacker, "D": defender},
        "bonus": {"A": [0, 0], "D": [0, 0]},
        "winner": winner,
        "units": {"A": {"footman": 1}, "D": {"footman": 1}},
        "land": "plocium",
    }


def taxes_gold(state: dict[str, Any], code: str) -> int:
    before = state["players"][code]["gold"]
    state = open_action(state, code, "taxes")
    state, _ = run(state, code, "collect")
    return int(state["players"][code]["gold"] - before)


@covers("PMA-1a")
def test_spindleshanks_taxes_paid_with_clergy() -> None:
    state = open_action(ruled(2, "PMA", "PMA-1a"), "PMA", "taxes")
    assert "collect clergy" in legal_actions(state, seat(state, "PMA"))
    people, clergy = state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"]
    state, _ = run(state, "PMA", "collect clergy")
    assert (state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"]) == (people, clergy - 1)
    other = open_action(ruled(2, "PMA", "PMA-1b"), "PMA", "taxes")
    assert "collect clergy" not in legal_actions(other, seat(other, "PMA"))


@covers("PMA-1b")
def test_odonic_free_abbeys() -> None:
    state = open_action(ruled(2, "PMA", "PMA-1b"), "PMA", "building")
    gold = state["players"]["PMA"]["gold"]
    state, _ = run(state, "PMA", "build abbey gnesna", "build tiltyard calisia")
    assert state["players"]["PMA"]["gold"] == gold - 1  # the Tiltyard costs its gold, the Abbey none


@covers("PMA-2a")
def test_przemysl_i_gains_people_for_a_city() -> None:
    state = open_action(ruled(2, "PMA", "PMA-2a"), "PMA", "building")
    people = state["players"]["PMA"]["people"]
    state, _ = run(state, "PMA", "found gnesna")
    assert state["players"]["PMA"]["people"] == people + 1


@covers("PMA-2b")
def test_boleslaw_the_pious_calisia_taxes() -> None:
    state = ruled(2, "PMA", "PMA-2b")
    assert taxes_gold(state, "PMA") == tax_income(state, "PMA") + 2
    clear_units(state, "calisia")
    put(state, "calisia", "PMI", footman=1)
    assert taxes_gold(state, "PMA") == tax_income(state, "PMA")


@covers("PMA-3")
def test_przemysl_ii_people_when_summoning() -> None:
    state = open_action(ruled(2, "PMA", "PMA-3"), "PMA", "politics")
    people = state["players"]["PMA"]["people"]
    state, kinds = run(state, "PMA", "council")
    assert "council" in kinds and state["players"]["PMA"]["people"] == people + 1


@covers("MAS-1")
def test_conrad_shield_against_invaders() -> None:
    state = ruled(4, "MAS", "MAS-1")
    ctx = Ctx(state, ReplayRng([]))
    against_prussians, against_silesia = fake_battle("PRU", "MAS"), fake_battle("SIL", "MAS")
    fire(ctx, "MAS", "before_battle", against_prussians, "D")
    fire(ctx, "MAS", "before_battle", against_silesia, "D")
    assert against_prussians["bonus"]["D"] == [0, 1] and against_silesia["bonus"]["D"] == [0, 0]


@covers("MAS-2a")
def test_casimir_of_kuyavia_central_lands() -> None:
    state = ruled(4, "MAS", "MAS-2a")
    for land in ("lancicia", "siradia"):
        clear_units(state, land)
        put(state, land, "MAS", footman=1)
    assert taxes_gold(state, "MAS") == tax_income(state, "MAS") + 2


def army(state: dict[str, Any], faction: str) -> dict[str, Any]:
    return {"faction": faction, "start_control": controllers(state)}


@covers("MAS-2b")
def test_siemowit_rus_cannot_end_on_masovia() -> None:
    state = ruled(4, "MAS", "MAS-2b")
    assert forbidden(state, "PMI", army(state, "RUS"), "wizna")
    assert not forbidden(state, "PMI", army(state, "HUN"), "wizna")
    state["players"]["MAS"]["prince"] = "MAS-1"
    assert not forbidden(state, "PMI", army(state, "RUS"), "wizna")


@covers("MAS-3a")
def test_boleslaw_ii_lithuanians_cannot_end_on_masovia() -> None:
    state = ruled(4, "MAS", "MAS-3a")
    put(state, "lucovia", "LIT", knight=2)  # an Invader army placed by hand
    assert forbidden(state, "PMI", army(state, "LIT"), "wizna")
    assert forbidden(state, "PMI", army(state, "LIT"), "ciechanow")
    assert not forbidden(state, "PMI", army(state, "LIT"), "lucovia")


@covers("MAS-3b")
def test_elbow_high_draws_after_a_lost_battle() -> None:
    state = ruled(4, "MAS", "MAS-3b")
    ctx = Ctx(state, ReplayRng([]))
    hand = len(state["players"]["MAS"]["hand"])
    fire(ctx, "MAS", "after_battle", fake_battle("PMI", "MAS", winner="A"), "D")
    assert len(state["players"]["MAS"]["hand"]) == hand + 1
    fire(ctx, "MAS", "after_battle", fake_battle("PMI", "MAS", winner="D"), "D")
    assert len(state["players"]["MAS"]["hand"]) == hand + 1


@covers("PMI-1")
def test_leszek_the_white_draws_as_princeps() -> None:
    state = ruled(4, "PMI", "PMI-1")
    ctx = Ctx(state, ReplayRng([]))
    hand = len(state["players"]["PMI"]["hand"])
    fire(ctx, "PMI", "round_start")
    assert len(state["players"]["PMI"]["hand"]) == hand + 1
    state["princeps"]["holder"] = "PMA"
    fire(ctx, "PMI", "round_start")
    assert len(state["players"]["PMI"]["hand"]) == hand + 1


@covers("PMI-2")
def test_boleslaw_the_chaste_one_more_gold() -> None:
    state = ruled(2, "PMI", "PMI-2")
    assert taxes_gold(state, "PMI") == tax_income(state, "PMI") + 1


@covers("PMI-3")
def test_leszek_the_black_sword_against_neighbours_and_invaders() -> None:
    state = ruled(4, "PMI", "PMI-3")
    ctx = Ctx(state, ReplayRng([]))
    fights = {enemy: fake_battle("PMI", enemy) for enemy in ("HUN", "MON", "MAS")}
    for fight in fights.values():
        fire(ctx, "PMI", "before_battle", fight, "A")
    assert [fights[enemy]["bonus"]["A"] for enemy in ("HUN", "MON", "MAS")] == [[1, 0], [1, 0], [0, 0]]


@covers("SIL-1")
def test_henry_the_bearded_cheaper_cities() -> None:
    state = open_action(ruled(4, "SIL", "SIL-1"), "SIL", "building")
    gold = state["players"]["SIL"]["gold"]
    state, _ = run(state, "SIL", "found vratislavia")
    assert state["players"]["SIL"]["gold"] == gold - 2  # 3 gold for a Capital, 1 less
    assert build_cost(state, "SIL", "city", 2) == 1 and build_cost(state, "SIL", "abbey", 1) == 1


@covers("SIL-2a")
def test_henry_the_pious_clergy_after_invaders() -> None:
    state = ruled(4, "SIL", "SIL-2a")
    ctx = Ctx(state, ReplayRng([]))
    clergy = state["players"]["SIL"]["clergy"]
    fire(ctx, "SIL", "after_battle", fake_battle("MON", "SIL", winner="A"), "D")
    fire(ctx, "SIL", "after_battle", fake_battle("PMI", "SIL", winner="A"), "D")
    assert state["players"]["SIL"]["clergy"] == clergy + 1


@covers("SIL-2b")
def test_boleslaw_the_bald_coin_steals_two() -> None:
    state = ruled(4, "SIL", "SIL-2b")
    ctx = Ctx(state, ReplayRng([]))
    fight = fake_battle("SIL", "PMI")
    fight["dice"] = {"A": ["coin"], "D": ["sword"]}
    gold = state["players"]["PMI"]["gold"]
    battle._steal(ctx, fight)
    assert state["players"]["PMI"]["gold"] == gold - 2


@covers("SIL-3a")
def test_henry_probus_free_tiltyards() -> None:
    state = open_action(ruled(4, "SIL", "SIL-3a"), "SIL", "building")
    gold = state["players"]["SIL"]["gold"]
    state, _ = run(state, "SIL", "build tiltyard vratislavia")
    assert state["players"]["SIL"]["gold"] == gold


@covers("SIL-3b")
def test_henry_of_glogow_no_penalty_in_polonia_maior() -> None:
    state = ruled(4, "SIL", "SIL-3b")
    action = {"penalties": ["santocum", "rava"]}
    waive_penalties(Ctx(state, ReplayRng([])), "SIL", action)
    assert action["penalties"] == ["rava"]
