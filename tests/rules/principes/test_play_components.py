"""One test per Battle card, Court card, Neighbour card and Progress tile (History cards: test_play_history):
each applies the component's effect through the rules and asserts the change of state it causes. ``covers(...)`` names the kinds a test covers;
``test_every_component_has_a_test`` enumerates the data and fails on a kind without one (``PENDING`` lists the
kinds whose effect needs a part of the game that does not exist yet, and must only shrink)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules.engine import ReplayRng
from rules.principes.data import catalog, instances
from rules.principes.play import battle, dynasty, flow, legal_actions, pending
from rules.principes.play.assembly import assembly_targets
from rules.principes.play.common import Ctx
from rules.principes.play.currency import hand_limit
from rules.principes.state import controllers

from .scenario import (
    act,
    clear_units,
    decision_of,
    new_state,
    open_action,
    pass_empty_windows,
    put,
    run,
    seat,
)

#: kinds whose text needs a part of the game not implemented yet (none left: Dynastic Marriage and Lady of the
#: Court are tested with the Princesses in test_play_princess.py)
PENDING: set[str] = set()


def covers(*kinds: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Marks the component kinds a test covers (read from the source by the enumeration test)."""

    def mark(test: Callable[..., Any]) -> Callable[..., Any]:
        return test

    return mark


# ---- helpers -----------------------------------------------------------------------------------------------


def give(state: dict, code: str, *cards: str) -> None:
    state["players"][code]["hand"] = list(cards)


def hold(state: dict, code: str, *tiles: str) -> None:
    for tile in tiles:
        state["players"][code]["progress"][catalog().kind_of(tile)["colour"]].append(tile)


def battle_state(
    attacker_units: dict[str, int],
    defender_units: dict[str, int],
    land: str = "rava",
    hands: dict[str, list[str]] | None = None,
) -> dict:
    """Polonia Minor attacks Masovia in ``land`` (4 players); the battle waits at the attacker's first window."""
    state = new_state(4)
    clear_units(state, land)
    put(state, land, "PMI", **attacker_units)
    put(state, land, "MAS", **defender_units)
    for code in ("PMI", "MAS"):
        give(state, code, *(hands or {}).get(code, []))
    state = open_action(state, "PMI", "movement")
    state["play"]["action"].update({"stage": "resolve", "pieces": [], "penalties": [], "destroy": []})
    state["play"]["prompts"] = {}
    flow.advance(Ctx(state, ReplayRng([])))
    return state


def to_roll(state: dict, plays: dict[str, list[str]], dice: list[int]) -> dict:
    """Play the listed 'before battle' cards, pass the windows, roll ``dice``; stops after the roll."""
    for code in ("PMI", "MAS"):
        if decision_of(state, code) == "before_battle":
            state, _ = run(state, code, *plays.get(code, []))
            if decision_of(state, code) == "before_battle":
                state = act(state, code, "pass", draws=dice).state
    if decision_of(state, "MAS") == "reroll":  # Masovia's With the Wind: keep the die
        state, _ = run(state, "MAS", "keep")
    return state


def finish(state: dict, dice: list[int], after: dict[str, str] | None = None) -> dict:
    """Drive the battle to its end: windows pass, 'after battle' choices from ``after``, first withdrawal."""
    for _ in range(30):
        if state["play"]["battle"] is None:
            return state
        decisions = pending(state)
        if not decisions:
            return state
        code = next(c for c in ("PMI", "MAS") if seat(state, c) in decisions)
        kind = decisions[seat(state, code)].kind
        options = legal_actions(state, seat(state, code))
        answer = {
            "after_battle": (after or {}).get(code, "pass"),
            "reroll": "keep",
            "flip": "keep",
            "withdraw": options[0],
        }.get(kind, "pass")
        state = act(state, code, answer, draws=dice).state
    return state


def play_text(state: dict, code: str, action: str) -> dict:
    """Play a Court card's text; the others' Papal Legate windows pass (nobody holds one)."""
    state, kinds = run(state, code, action)
    assert "court_card" in kinds
    return pass_empty_windows(state)


# ---- Battle cards ------------------------------------------------------------------------------------------


@covers("B01")
def test_crossbowmen_sword_and_shield() -> None:
    state = to_roll(
        battle_state({"footman": 1}, {"footman": 1}, hands={"PMI": ["B01a"]}),
        {"PMI": ["before b01a"]},
        [3, 3],
    )
    assert state["play"]["battle"]["bonus"]["A"] == [1, 1]


@covers("B02")
def test_ambush_in_the_forest_defender_only() -> None:
    hands = {"PMI": ["B02a"], "MAS": ["B02b"]}
    state = to_roll(
        battle_state({"footman": 1}, {"footman": 1}, hands=hands),
        {"PMI": ["before b02a"], "MAS": ["before b02b"]},
        [3, 3],
    )
    assert state["play"]["battle"]["bonus"] == {"A": [0, 0], "D": [2, 0]}


@covers("B03")
def test_knightly_charge_per_cavalry() -> None:
    state = to_roll(
        battle_state({"knight": 2}, {"footman": 1}, hands={"PMI": ["B03a"]}), {"PMI": ["before b03a"]}, [3, 3]
    )
    assert state["play"]["battle"]["bonus"]["A"] == [2, 0]


@covers("B04")
def test_hired_knights_cost_gold() -> None:
    state = battle_state({"footman": 1}, {"footman": 1}, hands={"PMI": ["B04a"]})
    gold = state["players"]["PMI"]["gold"]
    state = to_roll(state, {"PMI": ["before b04a"]}, [3, 3])
    assert state["play"]["battle"]["bonus"]["A"] == [2, 0] and state["players"]["PMI"]["gold"] == gold - 1


@covers("B05")
def test_shield_wall_per_infantry() -> None:
    state = to_roll(
        battle_state({"footman": 2}, {"footman": 1}, hands={"PMI": ["B05a"]}),
        {"PMI": ["before b05a"]},
        [3, 3],
    )
    assert state["play"]["battle"]["bonus"]["A"] == [0, 2]


@covers("B06")
def test_siege_engines_ignore_the_castle() -> None:
    state = battle_state({"footman": 1}, {"footman": 1}, hands={"PMI": ["B06a"]})
    state["lands"]["rava"]["building"] = "castle"
    before = battle.swords_and_shields(state, state["play"]["battle"], "D")[1]
    state = to_roll(state, {"PMI": ["before b06a"]}, [1, 1])  # both dice a sword: no die shield
    current = state["play"]["battle"]
    assert current["ignore"] == ["castle"]
    assert battle.swords_and_shields(state, current, "D")[1] == before - 2


@covers("B07")
def test_scouts_cancel_an_opponent_card() -> None:
    hands = {"PMI": ["B07a"], "MAS": ["B01a"]}
    state = to_roll(
        battle_state({"footman": 1}, {"footman": 1}, hands=hands),
        {"PMI": ["before b07a"], "MAS": ["before b01a"]},
        [3, 3],
    )
    assert state["play"]["battle"]["cancelled"] == ["B01a"] and state["play"]["battle"]["bonus"]["D"] == [
        0,
        0,
    ]


@covers("B08")
def test_night_march_closes_the_defenders_window() -> None:
    state = battle_state({"footman": 1}, {"footman": 1}, hands={"PMI": ["B08a"], "MAS": ["B01a"]})
    state = act(state, "PMI", "before b08a", draws=[3, 3]).state  # one unit: one card, the window closes
    assert decision_of(state, "MAS") != "before_battle" and state["play"]["battle"]["dice"]["A"] is not None


@covers("B09")
def test_feigned_retreat_cavalry_falls_first() -> None:
    state = battle_state({"knight": 2}, {"footman": 1, "knight": 1}, hands={"PMI": ["B09a"]})
    state = to_roll(state, {"PMI": ["before b09a"]}, [1, 1])
    assert state["play"]["battle"]["order"] == {"D": "cavalry_first"}
    state = finish(state, [1, 1])
    assert state["lands"]["rava"]["units"].get("MAS", {}).get("knight", 0) == 0


def _won_battle(hands: dict[str, list[str]], after: dict[str, str], **extra: Any) -> dict:
    """Polonia Minor (2 Knights) beats a Masovian Footman (+ the Knight if asked) with dice sword/shield."""
    defender = {"footman": 1, **extra}
    state = to_roll(battle_state({"knight": 2}, defender, hands=hands), {}, [1, 3])
    return finish(state, [1, 3], after)


@covers("B10")
def test_ransom_of_captives() -> None:
    state = battle_state({"knight": 2}, {"footman": 1}, hands={"PMI": ["B10a"]})
    gold = {code: state["players"][code]["gold"] for code in ("PMI", "MAS")}
    state = finish(to_roll(state, {}, [1, 3]), [1, 3], {"PMI": "after b10a"})
    assert state["players"]["PMI"]["gold"] == gold["PMI"] + 2
    assert state["players"]["MAS"]["gold"] == gold["MAS"] - 2


@covers("B11")
def test_te_deum() -> None:
    state = battle_state({"knight": 2}, {"footman": 1}, hands={"PMI": ["B11a"]})
    clergy = state["players"]["PMI"]["clergy"]
    state = finish(to_roll(state, {}, [1, 3]), [1, 3], {"PMI": "after b11a"})
    assert state["players"]["PMI"]["clergy"] == clergy + 1


@covers("B12")
def test_orderly_retreat_gives_the_people_back() -> None:
    state = battle_state({"knight": 2}, {"footman": 1}, hands={"MAS": ["B12a"]})
    people = state["players"]["MAS"]["people"]
    state = finish(to_roll(state, {}, [1, 3]), [1, 3], {"MAS": "after b12a"})
    assert state["players"]["MAS"]["people"] == people


@covers("B13")
def test_pursuit_removes_a_withdrawing_footman() -> None:
    """2 Knights against 3 Footmen, dice shield/shield: 2 Footmen fall against 1 Knight, the third withdraws and
    the pursuit catches it."""
    state = battle_state({"knight": 2}, {"footman": 3}, hands={"PMI": ["B13a"]})
    on_map = _footmen_on_map(state, "MAS")
    state = finish(to_roll(state, {}, [3, 3]), [3, 3], {"PMI": "after b13a"})
    assert state["play"]["battle"] is None and "MAS" not in state["lands"]["rava"]["units"]
    assert _footmen_on_map(state, "MAS") == on_map - 3  # 2 toppled, 1 caught while withdrawing


def _footmen_on_map(state: dict, code: str) -> int:
    return sum(land["units"].get(code, {}).get("footman", 0) for land in state["lands"].values())


@covers("B14")
def test_fortify_the_conquest() -> None:
    state = battle_state({"knight": 2}, {"footman": 1}, hands={"PMI": ["B14a"]})
    state = finish(to_roll(state, {}, [1, 3]), [1, 3], {"PMI": "after b14a"})
    assert controllers(state)["rava"] == "PMI" and state["lands"]["rava"]["building"] == "castle"


@covers("B15", "B16")
@pytest.mark.parametrize("card,symbol", [("B15a", "sword"), ("B16a", "shield")])
def test_cards_without_text_give_their_corner(card: str, symbol: str) -> None:
    state = to_roll(battle_state({"footman": 1}, {"footman": 1}, hands={"PMI": [card]}), {}, [3, 3])
    assert decision_of(state, "PMI") == "extra_cards"
    state, _ = run(state, "PMI", f"extra {card.lower()} {symbol}")
    assert state["play"]["battle"]["extra"]["A"] == ([1, 0] if symbol == "sword" else [0, 1])


# ---- Court cards -------------------------------------------------------------------------------------------


@covers("C01")
def test_heir_keeps_the_player_in_the_game() -> None:
    state = new_state(4)
    give(state, "PMI", "C01a")
    state["players"]["PMI"]["prince"] = None
    dynasty.lose_last_prince(Ctx(state, ReplayRng([])), "PMI")
    assert not state["players"]["PMI"]["eliminated"] and state["players"]["PMI"]["heir"]
    assert "C01a" not in state["players"]["PMI"]["hand"]


@covers("C02", "C03")
@pytest.mark.parametrize("card,track", [("C02a", "clergy"), ("C03a", "people")])
def test_council_cards_raise_a_track_by_two(card: str, track: str) -> None:
    state = open_action(new_state(2), "PMI", "politics")
    give(state, "PMI", card)
    state, _ = run(state, "PMI", "council")
    before = state["players"]["PMI"][track]
    state, kinds = run(state, "PMI", f"play {card.lower()}")
    assert state["players"]["PMI"][track] == before + 2 and "court_card" in kinds


@covers("C05")
def test_statutes_of_leczyca() -> None:
    state = new_state(4)
    clear_units(state, "calisia")
    put(state, "calisia", "SIL", footman=1)  # Silesia controls a land of Polonia Maior
    give(state, "PMA", "C05a")
    state = open_action(state, "PMA", "politics")
    clergy = {code: state["players"][code]["clergy"] for code in state["seats"]}
    state = play_text(state, "PMA", "play c05a")
    assert state["players"]["SIL"]["clergy"] == clergy["SIL"] - 1
    assert (
        state["players"]["MAS"]["clergy"] == clergy["MAS"]
        and state["players"]["PMI"]["clergy"] == clergy["PMI"]
    )


@covers("C07")
def test_location_privilege_free_civitas() -> None:
    state = new_state(2)
    give(state, "PMA", "C07a")
    state = open_action(state, "PMA", "building")
    gold = state["players"]["PMA"]["gold"]
    state = play_text(state, "PMA", "play c07a santocum")
    assert list(state["lands"]["santocum"]["cities"].values()) == ["civitas"]
    assert state["players"]["PMA"]["gold"] == gold


@covers("C08")
def test_cistercian_foundation_free_abbey() -> None:
    state = new_state(2)
    give(state, "PMA", "C08a")
    state = open_action(state, "PMA", "building")
    gold = state["players"]["PMA"]["gold"]
    state = play_text(state, "PMA", "play c08a gnesna")
    assert state["lands"]["gnesna"]["building"] == "abbey" and state["players"]["PMA"]["gold"] == gold


@covers("C09")
def test_immunity_charter_taxes_cost_no_people() -> None:
    state = new_state(2)
    give(state, "PMA", "C09a")
    state = open_action(state, "PMA", "taxes")
    people, gold = state["players"]["PMA"]["people"], state["players"]["PMA"]["gold"]
    state = play_text(state, "PMA", "play c09a")
    state, _ = run(state, "PMA", "collect")
    assert state["players"]["PMA"]["people"] == people and state["players"]["PMA"]["gold"] == gold + 4


@covers("C10")
def test_renovatio_monetae() -> None:
    state = new_state(2)
    give(state, "PMA", "C10a")
    state = open_action(state, "PMA", "taxes")
    people, gold = state["players"]["PMA"]["people"], state["players"]["PMA"]["gold"]
    state = play_text(state, "PMA", "play c10a")
    state, _ = run(state, "PMA", "collect")
    assert state["players"]["PMA"]["people"] == people - 2 and state["players"]["PMA"]["gold"] == gold + 3 + 4


@covers("C11")
def test_crusade_bull_two_more_units() -> None:
    state = new_state(2)
    give(state, "PMA", "C11a")
    state = open_action(state, "PMA", "assembly")
    state = play_text(state, "PMA", "play c11a")
    state, _ = run(state, "PMA", *["assemble footman posnania"] * 4, "assemble knight posnania")
    assert state["lands"]["posnania"]["units"]["PMA"] == {"prince": 1, "knight": 2, "footman": 4}


@covers("C13")
def test_chronicle_of_master_vincent_any_time() -> None:
    state = new_state(2)
    give(state, "PMA", "C13a")
    people = state["players"]["PMA"]["people"]
    state = play_text(state, "PMA", "play c13a")
    assert state["play"]["private"]["PMA"]["peek"] == state["history"]["deck"][:2]
    assert state["players"]["PMA"]["people"] == people + 1


@covers("C14")
def test_homage_of_a_kinsman_removes_a_division_token() -> None:
    state = new_state(4)
    give(state, "SIL", "C14a")
    state = open_action(state, "SIL", "politics")
    people = state["players"]["SIL"]["people"]
    state = play_text(state, "SIL", "play c14a opolia")
    assert not state["lands"]["opolia"]["division"] and state["players"]["SIL"]["people"] == people + 1


@covers("C15")
def test_partition_among_sons_places_a_division_token() -> None:
    state = new_state(4)
    give(state, "SIL", "C15a")
    state["lands"]["opolia"]["division"] = False
    state["supply"]["tokens"]["division"] += 1
    state = open_action(state, "SIL", "politics")
    assert "play c15a posnania" not in legal_actions(state, seat(state, "SIL"))  # units there (resolution 24)
    state = play_text(state, "SIL", "play c15a naclum")
    assert state["lands"]["naclum"]["division"] and controllers(state)["naclum"] is None


@covers("C16")
def test_conspiracy_of_gasawa() -> None:
    state = new_state(2)
    give(state, "PMA", "C16a")
    give(state, "PMI", "C02a", "N01", "B01a")
    state = open_action(state, "PMA", "politics")
    gold = state["players"]["PMI"]["gold"]
    state = play_text(state, "PMA", "play c16a pmi")
    assert state["players"]["PMI"]["hand"] == ["B01a"] and state["players"]["PMI"]["gold"] == gold + 2


# ---- Neighbour cards ---------------------------------------------------------------------------------------

NEIGHBOUR_KINDS = [record["id"] for record in catalog().components["neighbour"]]


@covers("N01", "N02", "N03", "N04", "N05", "N06", "N07", "N08", "N09", "N10", "N11", "N12")
@pytest.mark.parametrize("kind", NEIGHBOUR_KINDS)
def test_each_neighbour_card_moves_its_neighbour(kind: str) -> None:
    record = catalog().kinds[kind]
    faction = "GER" if record["faction"] == "any" else record["faction"]
    state = new_state(2)
    card = instances(record)[0]
    give(state, "PMA", card)
    give(state, "PMI")
    state = open_action(state, "PMA", "politics")
    gold = state["players"]["PMA"]["gold"]
    state, _ = run(state, "PMA", f"neighbour {card.lower()} {faction.lower()}")
    state = pass_empty_windows(state)
    assert state["players"]["PMA"]["gold"] == gold - record["cost"]
    moves = [a for a in legal_actions(state, seat(state, "PMA")) if a.startswith("move footman")]
    control = controllers(state)
    target_move = next(
        m for m in moves if control.get(m.split()[3]) != "PMA" and not state["lands"][m.split()[3]]["units"]
    )
    target = target_move.split()[3]
    state, _ = run(state, "PMA", target_move, "done")
    assert state["lands"][target]["units"] == {faction: {"footman": 1}}
    assert decision_of(state, "PMA") == "politics"


# ---- Progress tiles ----------------------------------------------------------------------------------------


def progress_state(code: str, offered: dict[str, list[str]], gold: int | None = None) -> dict:
    state = new_state(2)
    for colour, tiles in offered.items():
        state["market"][colour]["face_up"] = list(tiles)
    if gold is not None:
        state["players"][code]["gold"] = gold
    return state


@covers("G1")
def test_chronicle_scores_pairs() -> None:
    state = progress_state("PMA", {"green": ["G1a", "G2a"]})
    hold(state, "PMA", "Y1a", "Y2a")
    state = open_action(state, "PMA", "progress")
    people, clergy = state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"]
    state, _ = run(state, "PMA", "take g1a")
    assert state["players"]["PMA"]["people"] + state["players"]["PMA"]["clergy"] == people + clergy + 1


@covers("G2")
def test_german_settlers_third_slot() -> None:
    state = progress_state("PMA", {"green": ["G2a", "G4a"]})
    hold(state, "PMA", "G1a", "G3a")
    state = open_action(state, "PMA", "progress")
    state, _ = run(state, "PMA", "take g2a")
    assert state["players"]["PMA"]["progress"]["green"] == ["G1a", "G3a", "G2a"]


@covers("G3")
def test_church_schools_additional_tile_for_two_gold() -> None:
    state = progress_state("PMA", {"green": ["G3a", "G4a"], "yellow": ["Y1a", "Y2a"]}, gold=5)
    state = open_action(state, "PMA", "progress")
    state, _ = run(state, "PMA", "take g3a", "take y1a")
    assert state["players"]["PMA"]["gold"] == 3 and "Y1a" in state["players"]["PMA"]["progress"]["yellow"]


@covers("G4")
def test_new_mechanisms_progress_as_another_action() -> None:
    state = new_state(2)
    hold(state, "PMA", "G4a")
    state = open_action(state, "PMA", "progress")
    state, kinds = run(state, "PMA", "as taxes")
    assert decision_of(state, "PMA") == "taxes" and state["play"]["action"]["kind"] == "taxes"


@covers("Y1", "Y2")
def test_ducal_mint_and_market_rights() -> None:
    state = new_state(2)
    hold(state, "PMA", "Y1a", "Y2a")
    state["lands"]["santocum"]["cities"]["santocum"] = "civitas"
    state = open_action(state, "PMA", "taxes")
    gold = state["players"]["PMA"]["gold"]
    state, _ = run(state, "PMA", "collect")
    assert state["players"]["PMA"]["gold"] == gold + 5 + 2 + 1  # Might 5 with the Civitas, +2, +1


@covers("Y3")
def test_treasury_vault_stops_the_coin() -> None:
    state = battle_state({"knight": 2}, {"footman": 1})
    hold(state, "MAS", "Y3a")
    gold = state["players"]["MAS"]["gold"]
    state = finish(to_roll(state, {}, [6, 3]), [6, 3])  # the attacker rolls the coin
    assert state["players"]["MAS"]["gold"] == gold


@covers("Y4")
def test_rent_in_coin_without_taxes() -> None:
    state = new_state(2)
    hold(state, "PMA", "Y4a")
    gold = state["players"]["PMA"]["gold"]
    state["play"]["phase"], state["play"]["prompts"] = "end", {}
    state["play"]["revealed"]["PMA"] = ["movement"]
    flow.advance(Ctx(state, ReplayRng([])))
    assert state["players"]["PMA"]["gold"] == gold + 2


@covers("R1")
def test_mounts_for_infantry() -> None:
    state = new_state(2)
    hold(state, "PMA", "R1a")
    state = open_action(state, "PMA", "movement")
    assert {p["mp"] for p in state["play"]["action"]["pieces"] if p["type"] == "footman"} == {3}


@covers("R2")
def test_bishops_safe_conduct_one_penalty_only() -> None:
    state = new_state(2)
    hold(state, "PMA", "R2a")
    state["players"]["PMA"]["gold"] = 0
    state = open_action(state, "PMA", "movement")
    clergy = state["players"]["PMA"]["clergy"]
    state, kinds = run(
        state,
        "PMA",
        "move footman calisia milicium",
        "move knight posnania premet",
        "move knight premet crosna",
        "done",
    )  # two Silesian lands: one penalty only
    assert "penalty_waived" in kinds and state["players"]["PMA"]["clergy"] == clergy - 1


@covers("R3")
def test_border_guards_stop_foreign_units() -> None:
    state = new_state(4)
    hold(state, "SIL", "R3a")
    state = open_action(state, "PMA", "movement")
    assert "ask milicium" in legal_actions(state, seat(state, "PMA"))  # Silesia may let them pass
    state, _ = run(state, "PMA", "move footman calisia milicium")
    pieces = [p for p in state["play"]["action"]["pieces"] if p["at"] == "milicium"]
    assert pieces and pieces[0]["stopped"]


@covers("R4")
def test_learning_chess_flips_the_die() -> None:
    state = battle_state({"footman": 1}, {"footman": 1})
    hold(state, "PMI", "R4a")
    state = to_roll(state, {}, [1, 1])
    assert decision_of(state, "PMI") == "flip"
    state, kinds = run(state, "PMI", "flip")
    assert state["play"]["battle"]["dice"]["A"] == ["shield"] and "flip" in kinds


@covers("B1")
def test_wici_two_more_units() -> None:
    state = new_state(2)
    hold(state, "PMA", "B1a")
    state = open_action(state, "PMA", "assembly")
    state, _ = run(state, "PMA", *["assemble footman posnania"] * 4, "assemble knight posnania")
    assert state["lands"]["posnania"]["units"]["PMA"] == {"prince": 1, "knight": 2, "footman": 4}


@covers("B2")
def test_training_grounds_draw_per_tiltyard() -> None:
    state = new_state(2)
    hold(state, "PMA", "B2a")
    state["lands"]["gnesna"]["building"] = "tiltyard"
    hand = len(state["players"]["PMA"]["hand"])
    state = open_action(state, "PMA", "assembly")
    assert len(state["players"]["PMA"]["hand"]) == hand + 1


@covers("B3")
def test_castle_garrisons_assemble_on_castle_lands() -> None:
    state = new_state(2)
    state["lands"]["calisia"]["building"] = "castle"
    assert "calisia" not in assembly_targets(state, "PMA")
    hold(state, "PMA", "B3a")
    assert "calisia" in assembly_targets(state, "PMA")


@covers("B4")
def test_knightly_fiefs_first_knight_free() -> None:
    state = new_state(2)
    hold(state, "PMA", "B4a")
    state = open_action(state, "PMA", "assembly")
    gold = state["players"]["PMA"]["gold"]
    state, _ = run(state, "PMA", "assemble knight posnania", "assemble knight posnania")
    assert state["players"]["PMA"]["gold"] == gold - 1


@covers("Br1")
def test_french_style_abbey_gives_two_clergy() -> None:
    state = new_state(2)
    hold(state, "PMA", "Br1a")
    state = open_action(state, "PMA", "building")
    clergy = state["players"]["PMA"]["clergy"]
    state, _ = run(state, "PMA", "build abbey gnesna")
    assert state["players"]["PMA"]["clergy"] == clergy + 2


@covers("Br2")
def test_brick_kilns_three_buildings() -> None:
    state = new_state(2)
    hold(state, "PMA", "Br2a")
    state = open_action(state, "PMA", "building")
    state, _ = run(state, "PMA", "build castle gnesna", "build castle calisia", "build castle santocum")
    assert (
        sum(state["lands"][land]["building"] == "castle" for land in ("gnesna", "calisia", "santocum")) == 3
    )


@covers("Br3")
def test_town_locators_two_cities() -> None:
    state = new_state(2)
    hold(state, "PMA", "Br3a")
    state["players"]["PMA"]["gold"] = 9
    state = open_action(state, "PMA", "building")
    state, _ = run(state, "PMA", "found gnesna", "found calisia")
    assert state["lands"]["gnesna"]["cities"] and state["lands"]["calisia"]["cities"]


@covers("Br4")
def test_town_walls_defending_a_city() -> None:
    state = battle_state({"footman": 1}, {"footman": 1})
    state["lands"]["rava"]["cities"]["rava"] = "civitas"
    hold(state, "MAS", "Br4a")
    state = to_roll(state, {}, [1, 1])
    assert state["play"]["battle"]["bonus"]["D"] == [0, 1]


@covers("Gr1")
def test_heralds_of_peace_battle_cards_for_support() -> None:
    state = new_state(2)
    give(state, "PMA", "B01a")
    assert "support b01a people" not in legal_actions(state, seat(state, "PMA"))
    hold(state, "PMA", "Gr1a")
    people = state["players"]["PMA"]["people"]
    state, _ = run(state, "PMA", "support b01a people")
    assert state["players"]["PMA"]["people"] == people + 1


@covers("Gr2")
def test_knightly_culture_in_every_council() -> None:
    state = new_state(2)
    hold(state, "PMI", "Gr2a")
    state["lands"]["sandomiria"]["building"] = "tiltyard"
    state = open_action(state, "PMA", "politics")
    people = state["players"]["PMI"]["people"]
    state, _ = run(state, "PMA", "council")
    assert state["players"]["PMI"]["people"] == people + 1


@covers("Gr4")
def test_ducal_chancery_hand_limit_nine() -> None:
    state = new_state(2)
    assert hand_limit(state, "PMA") == 6
    hold(state, "PMA", "Gr4a")
    give(state, "PMA", "C02a", "C03a", "C05a", "C07a", "C08a", "C09a", "C10a", "C11a")
    assert hand_limit(state, "PMA") == 9 and decision_of(state, "PMA") != "hand_limit"


# ---- the enumeration -----------------------------------------------------------------------------------------


def test_every_component_has_a_test() -> None:
    """Every Battle, Court, Neighbour and History card kind, every Progress tile kind and every Prince card is
    named by a ``covers`` mark in this folder's tests, except the explicit PENDING set (which must only shrink)."""
    kinds = {
        record["id"]
        for deck in ("battle", "court", "neighbour", "progress", "history", "princes")
        for record in catalog().components[deck]
    }
    covered: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        for marks in re.findall(r"@covers\(([^)]*)\)", path.read_text()):
            covered.update(re.findall(r'"([A-Za-z0-9-]+)"', marks))
    assert covered <= kinds, f"unknown kinds: {sorted(covered - kinds)}"
    assert kinds - covered == PENDING, f"components without a test: {sorted(kinds - covered - PENDING)}"


@covers("C12")
def test_truce_of_god_no_foreign_unit_ends_there() -> None:
    state = new_state(4)
    give(state, "SIL", "C12a")
    state = play_text(state, "SIL", "play c12a milicium")  # any time: a free action
    assert state["play"]["round_effects"][0]["land"] == "milicium"
    state = open_action(state, "PMA", "movement")
    state, _ = run(state, "PMA", "move footman calisia milicium")
    assert "done" not in legal_actions(state, seat(state, "PMA"))
    state, _ = run(state, "PMA", "undo", "done")
    assert "PMA" not in state["lands"]["milicium"]["units"]


@covers("C04")
def test_papal_legate_cancels_a_court_text() -> None:
    state = new_state(4)
    give(state, "PMA", "C09a")
    give(state, "PMI", "C04a")
    state = open_action(state, "PMA", "taxes")
    people = state["players"]["PMA"]["people"]
    state, _ = run(state, "PMA", "play c09a")
    decisions = pending(state)
    assert {d.kind for d in decisions.values()} == {"court_reaction"} and len(decisions) == 3  # every other
    state = pass_empty_windows(state)
    state, kinds = run(state, "PMI", "cancel c04a")
    assert "card_cancelled" in kinds and decision_of(state, "PMA") == "taxes"
    state, _ = run(state, "PMA", "collect")
    assert state["players"]["PMA"]["people"] == people - 1  # the Immunity Charter had no effect


def test_battle_windows_are_offered_whatever_the_hand() -> None:
    """No leaks: an empty hand gets the same 'before battle' and 'after battle' windows; only auto-pass differs."""
    from rules.principes.play import auto_pass

    state = battle_state({"knight": 2}, {"footman": 1})
    assert decision_of(state, "PMI") == "before_battle" and auto_pass(state, seat(state, "PMI")) == "pass"
    state = to_roll(state, {}, [1, 3])
    for _ in range(10):
        if any(d.kind == "after_battle" for d in pending(state).values()):
            break
        code = next(c for c in ("PMI", "MAS") if seat(state, c) in pending(state))
        options = legal_actions(state, seat(state, code))
        state = act(state, code, "pass" if "pass" in options else options[0], draws=[1, 3]).state
    assert {d.kind for d in pending(state).values()} == {"after_battle"}
