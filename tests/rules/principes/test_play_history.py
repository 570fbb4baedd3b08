"""History cards (PRINCIPES IV): one test per card applying its text and asserting the change it causes, the
icons at the end of the Round (Division, Urbanization, Release to Home, Common Council) with the rulebook's
examples, and the resolutions 24, 26, 27 and 35 they settle. The Invader icons are in ``test_play_invaders``."""

from __future__ import annotations

from typing import Any

from rules.engine import Rng
from rules.principes.data import catalog
from rules.principes.play import battle, flow, legal_actions, pending
from rules.principes.play.building import city_cost
from rules.principes.play.common import Ctx, assets, controlled_lands
from rules.principes.play.effects_engine import fire
from rules.principes.state import controllers, might

from .scenario import act, clear_units, decision_of, new_state, open_action, put, run, seat
from .test_play_components import covers


def reveal(state: dict[str, Any], card: str) -> tuple[dict[str, Any], list[str]]:
    """Put ``card`` on top of the History deck and let the Princeps choose the direction: it is revealed."""
    state["history"]["deck"].insert(0, card)
    if state["round"] % 2 == 1:  # the second Round of the Period: no Princess missions before the card
        state["round"] += 1
    applied = act(state, state["princeps"]["holder"], "direction cw")
    return applied.state, [event.kind for event in applied.events]


def round_end(
    state: dict[str, Any], card: str, icons: list[str] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Jump to the end of the Round with ``card`` revealed (its icons, or ``icons``), and resolve what needs no
    decision."""
    state["history"]["revealed"] = card
    state["history"]["icons"] = list(icons if icons is not None else catalog().kind_of(card)["icons"])
    play = state["play"]
    play.update({"prompts": {}, "phase": "end", "action": None})
    ctx = Ctx(state, Rng(b"round-end"))
    flow.advance(ctx)
    return state, [event.kind for event in ctx.events]


def tracks(state: dict[str, Any], track: str) -> dict[str, int]:
    return {code: state["players"][code][track] for code in state["seats"]}


# ---- the texts ---------------------------------------------------------------------------------------------


@covers("H01")
def test_battle_of_zawichost_everyone_draws_a_battle_card_princeps_first() -> None:
    state = new_state(4)
    top = state["decks"]["battle"][0]
    hands = {code: len(state["players"][code]["hand"]) for code in state["seats"]}
    state["players"]["PMI"]["prince"] = None  # Leszek the White's own Court card would blur the count
    state, kinds = reveal(state, "H01")
    assert "history_text" in kinds and "history_icons" in kinds
    assert all(len(state["players"][code]["hand"]) == hands[code] + 1 for code in state["seats"])
    assert state["players"]["PMI"]["hand"][-1] == top  # the Princeps draws first (Princeps order)


@covers("H02")
def test_papal_bull_princeps_loses_clergy_others_gain() -> None:
    state, _ = reveal(new_state(4), "H02")
    assert tracks(state, "clergy") == {"PMA": 5, "MAS": 5, "PMI": 3, "SIL": 5}


@covers("H03")
def test_zlotoryja_a_city_costs_one_gold_less_this_round_only() -> None:
    state, _ = reveal(new_state(4), "H03")
    gnesna = catalog().lands["gnesna"]["gords"][0]
    assert city_cost(state, "PMA", gnesna) == 1
    state = open_action(state, "PMA", "building")
    state, _ = run(state, "PMA", "found gnesna")
    assert state["players"]["PMA"]["gold"] == 4 and "gnesna" in state["lands"]["gnesna"]["cities"]
    state, _ = round_end(state, "H03", [])
    assert city_cost(state, "PMA", gnesna) == 2  # "In this Round" ends with the Round


@covers("H04")
def test_spring_thaw_every_unit_one_movement_point_less() -> None:
    state, _ = reveal(new_state(4), "H04")
    state = open_action(state, "PMA", "movement")
    points = {piece["type"]: piece["mp"] for piece in state["play"]["action"]["pieces"]}
    assert points == {"prince": 2, "knight": 2, "footman": 1}


@covers("H05")
def test_conrad_invites_the_order_culmen_controller_gains() -> None:
    state, _ = reveal(new_state(4), "H05")
    assert (state["players"]["MAS"]["clergy"], state["players"]["MAS"]["gold"]) == (5, 6)
    assert state["players"]["PMA"]["gold"] == 5


@covers("H06")
def test_privilege_of_cienia_taxes_cost_no_people() -> None:
    state, _ = reveal(new_state(4), "H06")
    state = open_action(state, "PMA", "taxes")
    state, kinds = run(state, "PMA", "collect")
    assert "taxes" in kinds and state["players"]["PMA"]["people"] == 4


@covers("H07")
def test_battle_of_legnica_a_shield_against_invaders() -> None:
    state, _ = reveal(new_state(4), "H07")
    state["players"]["MAS"]["prince"] = "MAS-2a"  # not Conrad I, whose own shield against Invaders would add
    clear_units(state, "dobrinia")
    put(state, "dobrinia", "MAS", footman=1)
    put(state, "dobrinia", "PRU", footman=2)
    ctx = Ctx(state, Rng(b"legnica"))
    battle.start(ctx, "dobrinia", "PRU")
    battle.apply_before_cards(ctx, state["play"]["battle"])
    assert state["play"]["battle"]["bonus"] == {"A": [0, 0], "D": [0, 1]}


@covers("H08")
def test_swietopelk_everyone_draws_a_neighbour_card() -> None:
    state = new_state(4)
    state, _ = reveal(state, "H08")
    assert all(
        sum(catalog().kind_of(card)["deck"] == "neighbour" for card in state["players"][code]["hand"]) == 2
        for code in state["seats"]
    )


@covers("H09")
def test_synod_of_wroclaw_each_pays_or_loses_clergy() -> None:
    state = new_state(4)
    state["players"]["SIL"]["gold"] = 0  # only the Clergy point is possible: applied at once
    state, _ = reveal(state, "H09")
    assert decision_of(state, "PMI") == "history_choice"
    assert legal_actions(state, seat(state, "PMI"))[:2] == ["choose pay", "choose clergy"]
    state, _ = run(state, "PMI", "choose pay")
    assert state["players"]["SIL"]["clergy"] == 3  # in turn order, after the Princeps
    state, _ = run(state, "PMA", "choose clergy")
    state, _ = run(state, "MAS", "choose pay")
    assert (
        state["players"]["PMI"]["gold"],
        state["players"]["PMA"]["clergy"],
        state["players"]["MAS"]["gold"],
    ) == (4, 3, 4)
    assert decision_of(state, "PMI") == "plan"


@covers("H10")
def test_st_stanislaus_clergy_for_all_and_cracovia() -> None:
    state, _ = reveal(new_state(4), "H10")
    assert tracks(state, "clergy") == {"PMA": 5, "MAS": 5, "PMI": 6, "SIL": 5}


@covers("H11")
def test_magdeburg_law_found_a_city_at_its_price() -> None:
    state, _ = reveal(new_state(4), "H11")
    assert decision_of(state, "PMI") == "history_build"
    state, _ = run(state, "PMI", "pass")
    state, _ = run(state, "SIL", "pass")
    assert "found gnesna" in legal_actions(state, seat(state, "PMA"))
    state, kinds = run(state, "PMA", "found gnesna")
    assert "effect_build" in kinds and state["lands"]["gnesna"]["cities"] == {"gnesna": "city"}
    assert state["players"]["PMA"]["gold"] == 3 and might(state)["PMA"] == 5


@covers("H12")
def test_burundai_each_may_move_the_prince() -> None:
    state, _ = reveal(new_state(4), "H12")
    state, _ = run(state, "PMI", "place sandomiria")
    assert state["lands"]["sandomiria"]["units"]["PMI"]["prince"] == 1
    assert "prince" not in state["lands"]["cracovia"]["units"]["PMI"]
    state, _ = run(state, "SIL", "stay")
    assert decision_of(state, "PMA") == "history_relocate"


@covers("H13")
def test_st_hedwig_clergy_per_abbey() -> None:
    state = new_state(4)
    state["lands"]["gnesna"]["building"] = "abbey"
    state, _ = reveal(state, "H13")
    assert tracks(state, "clergy") == {"PMA": 5, "MAS": 4, "PMI": 4, "SIL": 4}


@covers("H14")
def test_henry_probus_the_richest_pay_a_ransom() -> None:
    state = new_state(4)
    state["players"]["PMA"]["gold"] = state["players"]["SIL"]["gold"] = 7
    state, _ = reveal(state, "H14")
    assert {code: state["players"][code]["gold"] for code in state["seats"]} == {
        "PMA": 5,
        "MAS": 5,
        "PMI": 5,
        "SIL": 5,
    }
    poor = new_state(4)
    for code in poor["seats"]:
        poor["players"][code]["gold"] = 1
    poor, _ = reveal(poor, "H14")
    assert all(poor["players"][code]["gold"] == 0 for code in poor["seats"])  # never below 0


@covers("H15")
def test_gozlice_winning_against_invaders_gives_people() -> None:
    state, _ = reveal(new_state(4), "H15")
    won = {"sides": {"A": "PRU", "D": "MAS"}, "winner": "D", "land": "dobrinia"}
    fire(Ctx(state, Rng(b"gozlice")), "MAS", "after_battle", won, "D")
    assert state["players"]["MAS"]["people"] == 5
    lost_to_player = {"sides": {"A": "PMI", "D": "MAS"}, "winner": "D", "land": "rava"}
    fire(Ctx(state, Rng(b"gozlice")), "MAS", "after_battle", lost_to_player, "D")
    assert state["players"]["MAS"]["people"] == 5  # only against Neighbours or Invaders


@covers("H16")
def test_synod_of_leczyca_lancicia_controller_gains() -> None:
    state = new_state(4)
    put(state, "lancicia", "PMA", footman=1)
    state["play"]["assets"] = assets(state)  # Lancicia's own Clergy point counts as already held
    state, _ = reveal(state, "H16")
    assert (state["players"]["PMA"]["clergy"], state["players"]["PMA"]["people"]) == (5, 5)


@covers("H17")
def test_third_mongol_invasion_a_castle_for_one_gold() -> None:
    state, _ = reveal(new_state(4), "H17")
    state, _ = run(state, "PMI", "build castle sandomiria")
    assert state["lands"]["sandomiria"]["building"] == "castle" and state["players"]["PMI"]["gold"] == 4
    assert decision_of(state, "SIL") == "history_build"


@covers("H18")
def test_coronation_at_gniezno_gnesna_controller_gains_two_clergy() -> None:
    state, _ = reveal(new_state(4), "H18")
    assert tracks(state, "clergy") == {"PMA": 6, "MAS": 4, "PMI": 4, "SIL": 4}


# ---- the icons ---------------------------------------------------------------------------------------------


def test_icons_resolve_top_then_bottom_and_not_in_the_last_round() -> None:
    state, kinds = round_end(new_state(4), "H01")  # Release, then Division
    assert kinds.index("icon_release") < (kinds + ["icon_division"]).index("icon_division")
    last = new_state(4)
    last["round"] = last["play"]["last_round"]
    last, kinds = round_end(last, "H01")
    assert not [kind for kind in kinds if kind.startswith("icon_")] and "game_end" in kinds


def test_resolution_26_urbanization_polonia_minor_founds_posnania() -> None:
    """The rulebook's example: Polonia Minor founds Posnania for free; the Might goes to Polonia Maior."""
    state, kinds = round_end(new_state(4), "H03", ["urbanization"])
    assert "icon_urbanization" in kinds and decision_of(state, "PMI") == "urbanization"
    options = legal_actions(state, seat(state, "PMI"))
    assert "found posnania" in options and "found cracovia" not in options  # not on lands it controls
    state, kinds = run(state, "PMI", "found posnania")
    assert state["lands"]["posnania"]["cities"] == {"posnania": "capital"}
    assert state["players"]["PMI"]["gold"] == 5 and might(state)["PMA"] == 5
    assert decision_of(state, "SIL") == "urbanization"


def test_resolution_24_division_placement_on_unit_free_lands_of_players() -> None:
    state = new_state(2)  # Polonia Maior and Polonia Minor; Masovia and Silesia neutral
    clear_units(state, "calisia")
    state, kinds = round_end(state, "H01", ["division"])
    options = legal_actions(state, seat(state, "PMI"))
    lands = {option.split()[1] for option in options if option.startswith("division")}
    assert "calisia" in lands and "gnesna" not in lands  # Gnesna holds a Footman
    assert all(
        catalog().lands[land]["principality"] == "PMA" for land in lands
    )  # no neutral, no central land
    state, kinds = run(state, "PMI", "division calisia")
    assert "division_placed" in kinds and controllers(state)["calisia"] is None and might(state)["PMA"] == 3
    assert "calisia" not in controlled_lands(state, "PMA")


def test_division_placed_then_removed_with_a_single_penalty() -> None:
    """Division placement (24) and removal (resolution 25): the owner ends a move there, no battle, one penalty."""
    state = new_state(2)
    clear_units(state, "calisia")
    state, _ = round_end(state, "H01", ["division"])
    state, _ = run(state, "PMI", "division calisia")
    state, _ = run(state, "PMA", "pass")
    state["round"], state["play"]["icons_round"] = 2, 2
    state = open_action(state, "PMA", "movement")
    state, _ = run(state, "PMA", "move footman gnesna landa", "move footman landa calisia", "done")
    assert not state["lands"]["calisia"]["division"] and controllers(state)["calisia"] == "PMA"
    assert decision_of(state, "PMA") == "clergy_penalty"
    state, _ = run(state, "PMA", "penalty calisia clergy")
    assert state["players"]["PMA"]["clergy"] == 3 and decision_of(state, "PMA") != "clergy_penalty"


def test_resolution_27_release_to_home_one_knight_or_footman() -> None:
    state = new_state(4)
    for land in ("cracovia", "sandomiria", "wislicia"):
        clear_units(state, land)
    put(state, "cracovia", "PMI", prince=1, footman=1)  # one choice only: applied at once
    pool = dict(state["supply"]["units"]["PMI"])
    state, kinds = round_end(state, "H01", ["release"])
    assert "released" in kinds and state["lands"]["cracovia"]["units"]["PMI"] == {"prince": 1}
    assert state["supply"]["units"]["PMI"]["footman"] == pool["footman"] + 1
    assert decision_of(state, "SIL") == "release"
    options = [option for option in legal_actions(state, seat(state, "SIL")) if option.startswith("release")]
    assert options and all(option.split()[1] in ("knight", "footman") for option in options)
    state, _ = run(state, "SIL", "release knight vratislavia")
    assert state["lands"]["vratislavia"]["units"]["SIL"].get("knight", 0) == 0


def _council_table(state: dict[str, Any], table: dict[str, tuple[int, int]]) -> None:
    for code, (people, clergy) in table.items():
        state["players"][code]["people"], state["players"][code]["clergy"] = people, clergy
        state["players"][code]["hand"] = []


def _council_done(state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    kinds: list[str] = []
    for _ in range(8):
        waiting = [code for code in state["seats"] if decision_of(state, code) == "common_council"]
        if not waiting:
            break
        state, more = run(state, waiting[0], "done")
        kinds += more
    return state, kinds


def test_resolution_35_common_council_ties_in_turn_order() -> None:
    """Resolution 46's table: Masovia and Polonia Minor qualify; the Princeps (Polonia Minor) keeps the token."""
    state = new_state(4)
    _council_table(state, {"PMA": (3, 5), "MAS": (7, 7), "PMI": (7, 4), "SIL": (5, 6)})
    for land in ("sandecia", "becz", "lelovia"):
        put(state, land, "PMI", footman=1)  # no effect on Might: small gords
    state, kinds = round_end(state, "H02", ["council"])
    assert "icon_council" in kinds and decision_of(state, "PMI") == "common_council"
    state, kinds = _council_done(state)
    assert "princeps_kept" in kinds and state["princeps"]["holder"] == "PMI"
    # without the Princeps qualifying, the first qualified player in turn order (PMI, SIL, PMA, MAS) claims it
    state = new_state(4)
    _council_table(state, {"PMA": (7, 7), "MAS": (7, 7), "PMI": (1, 1), "SIL": (2, 2)})
    state["lands"]["posnania"]["cities"] = {"posnania": "capital"}  # Polonia Maior alone has the most Might
    state, _ = round_end(state, "H02", ["council"])
    state, kinds = _council_done(state)
    assert "princeps_claimed" in kinds and state["princeps"]["holder"] == "PMA"


def test_common_council_coronation_beats_the_token() -> None:
    state = new_state(4)
    _council_table(state, {"PMA": (4, 4), "MAS": (10, 10), "PMI": (9, 9), "SIL": (4, 4)})
    for land in ("wladislavia", "dobrinia", "culmen", "wyszegrad", "ciechanow", "wizna", "rava"):
        state["lands"][land]["cities"] = {land: "civitas"}  # Masovia's Might reaches 10
    state["lands"]["lancicia"]["units"] = {"MAS": {"footman": 1}}
    assert might(state)["MAS"] >= 10
    state, _ = round_end(state, "H02", ["council"])
    state, kinds = _council_done(state)
    assert "coronation" in kinds and state["play"]["result"]["winners"] == [seat(state, "MAS")]
    assert "princeps_claimed" not in kinds and not pending(state)
