"""One test (at least) per resolution of docs/principes/principes-resolutions.md that PRINCIPES II implements; each cites it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules.engine import IllegalAction, ReplayRng
from rules.principes.play import battle, dynasty, flow, legal_actions, pending, view_play
from rules.principes.play.assembly import assembly_targets
from rules.principes.play.common import Ctx, change_track
from rules.principes.play.council import positions
from rules.principes.state import controllers, might

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


def fight(state, land: str, attacker: str, draws: list[int]):
    """Start the battle(s) of ``attacker``'s Movement now, with the dice ``draws``."""
    state = open_action(state, attacker, "movement")
    state["play"]["action"].update({"stage": "resolve", "pieces": [], "penalties": [], "destroy": []})
    state["play"]["prompts"] = {}
    flow.advance(Ctx(state, ReplayRng(draws)))
    return pass_empty_windows(state, draws)


# ---- tracks, buildings, Lancicia ---------------------------------------------------------------------------


def test_resolution_1_tiltyard_and_abbey_move_people_and_clergy() -> None:
    state = open_action(new_state(2), "PMA", "building")
    people, clergy = state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"]
    state, _ = run(state, "PMA", "build tiltyard gnesna", "build abbey calisia")
    assert (state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"]) == (people + 1, clergy + 1)
    assert might(state)["PMA"] == 4  # an Abbey is no Might (resolution 1)


def test_resolution_2_might_from_the_map_and_the_track_clamp() -> None:
    state = open_action(new_state(2), "PMA", "building")
    state, kinds = run(state, "PMA", "found gnesna")
    assert "found_city" in kinds and might(state)["PMA"] == 5 and state["players"]["PMA"]["gold"] == 3
    for land in ("sandomiria", "wislicia", "cracovia", "siradia", "lancicia", "pomocc", "pomor"):
        clear_units(state, land)
        put(state, land, "PMA", footman=1)
    assert might(state)["PMA"] > 10 and positions(state, "PMA")[0] == 10


def test_resolution_3_start_tracks() -> None:
    state = new_state(3)
    for code in state["seats"]:
        assert (might(state)[code], state["players"][code]["people"], state["players"][code]["clergy"]) == (
            4,
            4,
            4,
        )


def test_resolution_4_tracks_clamp_and_taxes_refused_at_zero() -> None:
    state = new_state(2)
    ctx = Ctx(state, ReplayRng([]))
    state["players"]["PMA"]["people"] = 10
    assert change_track(ctx, "PMA", "people", 2, "test") == 0
    state["players"]["PMI"]["people"] = 0
    state = open_action(state, "PMI", "taxes")
    assert "collect" not in legal_actions(state, seat(state, "PMI"))
    with pytest.raises(IllegalAction):
        act(state, "PMI", "collect")


def test_resolution_5_lancicia_gives_clergy_while_controlled() -> None:
    state = new_state(2)
    put(state, "siradia", "PMI", knight=1)
    state = open_action(state, "PMI", "movement")
    clergy = state["players"]["PMI"]["clergy"]
    state, _ = run(state, "PMI", "move knight siradia lancicia", "done")
    assert controllers(state)["lancicia"] == "PMI"
    assert state["players"]["PMI"]["clergy"] == clergy + 1


def test_resolution_6_western_pomerania_two_cities_and_both_shields() -> None:
    state = new_state(2)
    clear_units(state, "pomocc")
    put(state, "pomocc", "PMA", footman=1)
    state["players"]["PMA"]["gold"] = 9
    state = open_action(state, "PMA", "building")
    state, _ = run(state, "PMA", "found stetinum")
    assert state["play"]["action"] is not None
    state["play"]["action"].update(founded=False, cities=0)  # a second Building action
    state, _ = run(state, "PMA", "found caminum")
    assert set(state["lands"]["pomocc"]["cities"]) == {"stetinum", "caminum"}
    assert battle.fortification(state, "pomocc") == 4


# ---- Assembly ----------------------------------------------------------------------------------------------


def test_resolution_7_assembly_fallback_to_the_richest_land() -> None:
    state = new_state(2)
    clear_units(state, "cracovia")
    put(state, "cracovia", "PMA", footman=1)  # Polonia Minor lost its Capital; its Prince is gone too
    assert set(assembly_targets(state, "PMI")) == {"sandomiria", "wislicia"}


def test_resolution_8_prince_off_the_map_returns_with_assembly() -> None:
    state = new_state(2)
    clear_units(state, "cracovia")
    state["supply"]["units"]["PMI"]["prince"] = 1
    state = open_action(state, "PMI", "assembly")
    assert "assemble prince cracovia" in legal_actions(state, seat(state, "PMI"))
    state, _ = run(state, "PMI", "assemble prince cracovia")
    assert state["lands"]["cracovia"]["units"]["PMI"]["prince"] == 1


# ---- Movement ----------------------------------------------------------------------------------------------


def test_resolution_9_movement_points_stops_and_neutrals_never_consent() -> None:
    state = new_state(2)  # Masovia and Silesia are neutral
    put(state, "zarnovia", "PMI", footman=1)
    state = open_action(state, "PMI", "movement")
    state, _ = run(state, "PMI", "move footman zarnovia rava", "move footman rava radomia")
    assert not any(a.startswith("move footman radomia") for a in legal_actions(state, seat(state, "PMI")))
    state = new_state(2)
    put(state, "ratiboria", "SIL", footman=1)
    state = open_action(state, "PMI", "movement")
    options = legal_actions(state, seat(state, "PMI"))
    assert "ask ratiboria" not in options  # a neutral land (Silesia) never consents
    state, _ = run(state, "PMI", "move knight cracovia ratiboria")
    assert not any(a.startswith("move knight ratiboria") for a in legal_actions(state, seat(state, "PMI")))


def test_resolution_10_consent_denied_standing_answers_and_undo() -> None:
    state = new_state(4)
    put(state, "siradia", "PMI", knight=1)
    state = open_action(state, "PMI", "movement")
    state, kinds = run(state, "PMI", "ask calisia")
    state, kinds = run(state, "PMA", "deny always")
    assert "consent_denied" in kinds and state["play"]["standing"]["PMA"] == {"PMI": "deny"}
    assert "ask calisia" not in legal_actions(state, seat(state, "PMI"))
    state, _ = run(state, "PMI", "move knight siradia calisia")
    assert state["play"]["action"]["pieces"][-1]["stopped"] or any(
        p["stopped"] for p in state["play"]["action"]["pieces"]
    )
    state, kinds = run(state, "PMI", "undo")
    assert "undo" in kinds and state["lands"]["siradia"]["units"]["PMI"] == {"knight": 1}
    assert "standing" not in view_play(state, {}, None)["play"]  # standing answers stay private


def test_resolution_11_clergy_penalty_per_land_and_nothing_at_zero() -> None:
    state = new_state(2)
    put(state, "radomia", "PMI", footman=2)
    state["players"]["PMI"]["clergy"], state["players"]["PMI"]["gold"] = 0, 0
    state = open_action(state, "PMI", "movement")
    state, _ = run(state, "PMI", "move footman radomia rava", "move footman radomia rava", "done")
    assert state["play"]["action"] is None  # Masovia's land, but nothing to pay: no penalty
    state = new_state(2)
    put(state, "radomia", "PMI", footman=2)
    state["players"]["PMI"]["gold"] = 0
    state = open_action(state, "PMI", "movement")
    state, kinds = run(state, "PMI", "move footman radomia rava", "move footman radomia rava", "done")
    assert state["players"]["PMI"]["clergy"] == 3  # one land, two units: one penalty


def test_resolution_12_destruction_costs_people_and_clergy_once() -> None:
    state = new_state(2)
    state["lands"]["rava"]["building"] = "abbey"
    state["lands"]["rava"]["cities"]["rava"] = "civitas"
    put(state, "radomia", "PMI", footman=1)
    state["players"]["PMI"]["gold"] = 0
    state["players"]["PMI"]["clergy"] = 6
    state = open_action(state, "PMI", "movement")
    state, _ = run(state, "PMI", "move footman radomia rava", "done")
    assert decision_of(state, "PMI") == "destroy"
    assert "destroy rava rava abbey" in legal_actions(state, seat(state, "PMI"))
    people = state["players"]["PMI"]["people"]
    state, kinds = run(state, "PMI", "destroy rava rava abbey")
    assert kinds.count("destruction") == 1
    assert state["players"]["PMI"]["people"] == people - 1
    assert state["lands"]["rava"]["building"] is None and not state["lands"]["rava"]["cities"]


def test_resolution_13_the_mover_chooses_the_battle_order() -> None:
    state = new_state(2)
    put(state, "rava", "PMI", knight=1)
    put(state, "rava", "MAS", footman=1)
    put(state, "opolia", "PMI", knight=1)
    put(state, "opolia", "SIL", footman=1)
    state = fight(state, "rava", "PMI", [])
    assert decision_of(state, "PMI") == "battle_order"
    assert {a for a in legal_actions(state, seat(state, "PMI")) if a.startswith("battle")} == {
        "battle rava",
        "battle opolia",
    }


# ---- Battles -----------------------------------------------------------------------------------------------


def _neutral_battle(draws: list[int], gold: int = 5):
    state = new_state(2)
    put(state, "rava", "PMI", knight=1)
    put(state, "rava", "MAS", footman=1)
    state["players"]["PMI"]["hand"] = []
    state["players"]["PMI"]["gold"] = gold
    return fight(state, "rava", "PMI", draws)


def test_resolution_14_coin_steals_on_the_final_face() -> None:
    state = _neutral_battle([6, 1])  # attacker coin, defender sword
    assert state["players"]["PMI"]["gold"] == 6  # a coin against neutrals is paid from the pool


def test_resolution_15_with_the_wind_reroll_after_the_initial_count() -> None:
    state = new_state(2, principalities="mas-sil")
    clear_units(state, "crusvicia")
    put(state, "crusvicia", "MAS", knight=1)
    put(state, "crusvicia", "PMA", footman=1)
    state["players"]["MAS"]["hand"] = []
    state = fight(state, "crusvicia", "MAS", [3, 1])
    assert decision_of(state, "MAS") == "reroll"
    kinds = [e.kind for e in act(state, "MAS", "reroll", draws=[1]).events]
    assert "reroll" in kinds


def test_resolution_16_damage_order_wounds_and_loose_wounds() -> None:
    units = {"footman": 1, "knight": 1, "prince": 1}
    assert battle.casualties(units, 2) == ({"footman": 1}, 1, 0)
    assert battle.casualties(units, 4) == ({"footman": 1, "knight": 1}, 1, 0)  # the Prince is wounded last
    assert battle.casualties(units, 8) == ({"footman": 1, "knight": 1, "prince": 1}, 0, 3)


def test_resolution_17_card_caps_one_per_unit() -> None:
    state = new_state(2)
    put(state, "rava", "PMI", footman=1)
    put(state, "rava", "MAS", footman=1)
    state["players"]["PMI"]["hand"] = ["B15a", "B16a"]
    state = fight(state, "rava", "PMI", [3, 3])
    assert decision_of(state, "PMI") == "extra_cards"
    state, _ = run(state, "PMI", "extra b15a sword")
    assert decision_of(state, "PMI") != "extra_cards"  # one unit: one card


def test_resolution_18_withdrawal_to_adjacent_controlled_lands() -> None:
    """Polonia Minor's Footman falls, the Masovian Knight is only wounded: the defender wins and the attacker's
    Knight withdraws to a land of its choice next to the battle."""
    state = new_state(2)
    put(state, "rava", "PMI", footman=1, knight=1)
    put(state, "rava", "MAS", knight=1)
    state["players"]["PMI"]["hand"] = []
    state = fight(state, "rava", "PMI", [3, 3])
    assert state["play"]["battle"]["winner"] == "D"
    assert decision_of(state, "PMI") == "withdraw"
    assert set(legal_actions(state, seat(state, "PMI"))) >= {
        "withdraw knight radomia",
        "withdraw knight zarnovia",
    }
    state, kinds = run(state, "PMI", "withdraw knight zarnovia")
    assert "withdrawal" in kinds and state["lands"]["zarnovia"]["units"]["PMI"]["knight"] == 1
    assert "PMI" not in state["lands"]["rava"]["units"]


def test_resolution_19_each_fighter_draws_a_battle_card() -> None:
    state = _neutral_battle([1, 3])
    assert len(state["players"]["PMI"]["hand"]) == 1


def test_resolution_20_hand_limit_blocks_until_converted() -> None:
    state = new_state(2)
    state["players"]["PMA"]["hand"] = ["C02a", "C03a", "C04a", "C05a", "C06a", "C07a", "C08a"]
    decisions = pending(state)
    assert decisions[seat(state, "PMA")].kind == "hand_limit" and seat(state, "PMI") not in decisions
    state, _ = run(state, "PMA", "sell c02a")
    assert decision_of(state, "PMA") != "hand_limit"


def test_resolution_21_politics_split_declared_first_one_returned() -> None:
    state = open_action(new_state(2), "PMA", "politics")
    court = len(state["decks"]["court"])
    state, _ = run(state, "PMA", "draw 2 court 1 neighbour")
    assert decision_of(state, "PMA") == "politics_return"
    returned = legal_actions(state, seat(state, "PMA"))[0]
    state, _ = run(state, "PMA", returned)
    assert len(state["players"]["PMA"]["hand"]) == 5
    assert len(state["decks"]["court"]) in (court - 2, court - 1)


def test_resolution_25_division_token_removed_with_a_single_penalty() -> None:
    state = new_state(3)
    put(state, "lelovia", "PMI", footman=1)
    state = open_action(state, "PMI", "movement")
    state, kinds = run(state, "PMI", "move footman lelovia opolia", "done")
    assert "division_removed" in kinds and not state["lands"]["opolia"]["division"]
    assert decision_of(state, "PMI") == "clergy_penalty" and state["play"]["action"]["penalties"] == [
        "opolia"
    ]


# ---- dynasties and the end ---------------------------------------------------------------------------------


def test_resolution_32_successor_of_a_prince_killed_in_battle() -> None:
    """The other Prince of the current Period; Polonia Minor, with none, takes its Period II Prince."""
    state = new_state(2)
    ctx = Ctx(state, ReplayRng([]))
    dynasty.prince_died(ctx, ["PMA", "PMI"])
    assert [entry["who"] for entry in state["play"]["succession"]] == ["PMA", "PMI"]
    state["play"]["prompts"] = {}  # the Round's own prompt comes back after the successions
    flow.advance(ctx)
    assert state["players"]["PMA"]["prince"] == "PMA-1b" and decision_of(state, "PMA") == "prince_place"
    state, kinds = run(state, "PMA", "stay")
    assert state["players"]["PMI"]["prince"] == "PMI-2" and "succession" in kinds


def test_no_elimination_variant_plays_on_with_an_heir() -> None:
    state = new_state(2, elimination="off")
    state["players"]["PMI"]["princes"] = []
    dynasty.prince_died(Ctx(state, ReplayRng([])), ["PMI"])
    assert not state["players"]["PMI"]["eliminated"] and state["players"]["PMI"]["prince"] is None
    assert state["play"]["result"] is None


def test_resolution_33_and_44_elimination_effects_and_last_round() -> None:
    state = new_state(3)
    state["players"]["PMI"]["princes"] = []
    ctx = Ctx(state, ReplayRng([]))
    dynasty.prince_died(ctx, ["PMI"])
    player = state["players"]["PMI"]
    assert player["eliminated"] and player["hand"] == [] and player["gold"] == 0
    assert "PMI" in state["neutral"] and state["play"]["last_round"] == 2
    assert state["princeps"]["holder"] != "PMI"  # the token passes on


def test_resolution_34_mutual_elimination_is_a_draw() -> None:
    state = new_state(2)
    for code in ("PMA", "PMI"):
        state["players"][code]["princes"] = []
    ctx = Ctx(state, ReplayRng([]))
    dynasty.prince_died(ctx, ["PMA", "PMI"])
    assert state["play"]["result"]["draw"]


def test_resolution_35_coronation_wins_the_game() -> None:
    state = new_state(2)
    for land in ("sandomiria", "wislicia", "cracovia", "siradia", "lancicia", "pomocc", "pomor"):
        clear_units(state, land)
        put(state, land, "PMA", footman=1)
    state["players"]["PMA"]["people"] = state["players"]["PMA"]["clergy"] = 10
    state = open_action(state, "PMA", "politics")
    state, kinds = run(state, "PMA", "council")
    for _ in range(2):  # the card phase, in turn order from the Princeps
        code = next(c for c in ("PMI", "PMA") if decision_of(state, c) == "council")
        state, more = run(state, code, "done")
        kinds += more
    assert "coronation" in kinds and state["play"]["result"]["winners"] == [seat(state, "PMA")]


def test_resolution_36_elder_blood_and_house_of_princeps() -> None:
    state = open_action(new_state(2), "PMA", "politics")
    clergy = state["players"]["PMA"]["clergy"]
    state, _ = run(state, "PMA", "council")
    assert state["players"]["PMA"]["clergy"] == clergy + 2  # Elder Blood: Gnesna held
    from rules.principes.play.council import tracks_needed

    assert tracks_needed(state, "PMI") == 1 and tracks_needed(state, "PMA") == 2


def test_resolution_39_the_princeps_token_is_named_so() -> None:
    state = new_state(2)
    applied = act(state, "PMI", "direction cw")
    assert any("Princeps" in event.text for event in applied.events)


def test_resolution_41_decks_bottom_and_empty_draws_nothing() -> None:
    state = new_state(2)
    card = state["players"]["PMA"]["hand"][0]
    state, _ = run(state, "PMA", f"sell {card.lower()}")
    assert state["decks"][{"C": "court", "B": "battle", "N": "neighbour"}[card[0]]][-1] == card
    state["decks"]["court"] = []
    hand = list(state["players"]["PMA"]["hand"])
    state = open_action(state, "PMA", "politics")
    state, kinds = run(state, "PMA", "draw 3 court")
    assert state["play"]["action"] is None and state["players"]["PMA"]["hand"] == hand


def test_resolution_42_support_icon_and_no_support_during_a_council() -> None:
    state = new_state(2)
    state["players"]["PMA"]["hand"] = ["C01a"]  # support: either
    options = legal_actions(state, seat(state, "PMA"))
    assert {"support c01a people", "support c01a clergy"} <= set(options)
    state = open_action(state, "PMA", "politics")
    state, _ = run(state, "PMA", "council")
    with pytest.raises(IllegalAction):
        act(state, "PMA", "support c01a people")


def test_resolution_43_after_battle_cards_are_sealed_together() -> None:
    state = new_state(4)
    put(state, "rava", "PMI", knight=1)
    put(state, "rava", "MAS", knight=1)
    state["players"]["PMI"]["hand"] = ["B10a"]
    state["players"]["MAS"]["hand"] = ["B11a"]
    state = fight(state, "rava", "PMI", [3, 3])
    for _ in range(10):  # pass the card windows, withdraw where asked, until the 'after battle' window
        decisions = pending(state)
        if any(d.kind == "after_battle" for d in decisions.values()):
            break
        code = next(c for c in ("PMI", "MAS") if seat(state, c) in decisions)
        kind = decision_of(state, code)
        answer = {"reroll": "keep", "withdraw": legal_actions(state, seat(state, code))[0]}.get(kind, "pass")
        state, _ = run(state, code, answer)
    decisions = pending(state)
    after = [d for d in decisions.values() if d.kind == "after_battle"]
    assert len(after) == 2 and after[0].id == after[1].id and all(d.sealed for d in after)


def test_resolution_45_prince_change_at_the_end_of_a_period() -> None:
    """After Round 2, in turn order: Polonia Minor's only Period II Prince rules at once (it may move the
    figure); Polonia Maior chooses between its two."""
    state = new_state(2)
    state["round"] = 2
    state = open_action(state, "PMA", "taxes")
    state, kinds = run(state, "PMA", "done")
    assert "period" in kinds and state["players"]["PMI"]["prince"] == "PMI-2"
    assert decision_of(state, "PMI") == "prince_place" and "stay" in legal_actions(state, seat(state, "PMI"))
    state, _ = run(state, "PMI", "place wislicia")
    assert state["lands"]["wislicia"]["units"]["PMI"]["prince"] == 1
    assert decision_of(state, "PMA") == "prince_choice"
    assert {a for a in legal_actions(state, seat(state, "PMA")) if a.startswith("prince")} == {
        "prince pma-2a",
        "prince pma-2b",
    }


# ---- the list of resolutions without a test ----------------------------------------------------------------

#: resolutions without a citing test (none: 40 is cited by tests/host/test_principes_solo.py); 22-24 are cited
#: by the PRINCIPES III card tests, 23-30 and 35 by the History and Invader tests, 31 and 38 by the Princess
#: and variant tests
DEFERRED: set[int] = set()


def test_resolutions_without_a_test() -> None:
    """Every resolution 1-46 is cited by a test (``test_resolution_N_...`` or "resolution N" in a test)."""
    cited: set[int] = set()
    for path in Path(__file__).parents[2].rglob("*.py"):  # every test folder (40 is a host test)
        for match in re.finditer(r"resolutions?_?\s?([0-9]+)(?:_and_([0-9]+))?", path.read_text()):
            cited.update(int(group) for group in match.groups() if group)
    missing = set(range(1, 47)) - cited
    assert missing == DEFERRED, f"resolutions without a test: {sorted(missing)}"


def test_resolution_37_limited_gold_supply_pays_what_the_bank_holds() -> None:
    """Unlimited gold by default; the option gold_supply=limited keeps the box's 66 coins: the bank starts with
    what the players did not take, Taxes pay at most what it holds, and paid gold goes back to it."""
    assert new_state(2)["supply"]["gold"] is None
    state = new_state(2, gold_supply="limited")
    assert state["supply"]["gold"] == 66 - 2 * 5
    state["supply"]["gold"] = 1
    state = open_action(state, "PMA", "taxes")
    before = state["players"]["PMA"]["gold"]
    state, _ = run(state, "PMA", "collect")
    assert state["players"]["PMA"]["gold"] == before + 1 and state["supply"]["gold"] == 0
    ctx = Ctx(state, ReplayRng([]))
    from rules.principes.play.common import pay_gold

    assert pay_gold(ctx, "PMA", 3) == 3 and state["supply"]["gold"] == 3
