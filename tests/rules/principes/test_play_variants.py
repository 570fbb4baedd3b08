"""Games for 2 and 3 players: the passive and the active variant (Combined Actions, resolution 38), neutral
units and the neutral Prince's respawn."""

from __future__ import annotations

from rules.engine import ReplayRng
from rules.principes.play import battle, dynasty, legal_actions
from rules.principes.play.common import Ctx, capital
from rules.principes.state import controllers

from .scenario import clear_units, decision_of, new_state, open_action, put, run, seat


def test_resolution_38_combined_assembly_three_free_units_in_the_neutral_capital() -> None:
    state = open_action(new_state(3, neutrals="active"), "PMA", "assembly")
    state, _ = run(state, "PMA", "done")
    assert decision_of(state, "PMA") == "combined"
    assert legal_actions(state, seat(state, "PMA"))[:1] == ["combined assemble mas"]
    before = dict(state["lands"]["plocium"]["units"]["MAS"])
    pool = state["supply"]["units"]["MAS"]
    expected = min(3, pool.get("knight", 0) + pool.get("footman", 0))
    gold = state["players"]["PMA"]["gold"]
    state, kinds = run(state, "PMA", "combined assemble mas")
    after = state["lands"]["plocium"]["units"]["MAS"]
    assert expected > 0 and sum(after.values()) - sum(before.values()) == expected
    assert "combined_assembly" in kinds
    assert state["players"]["PMA"]["gold"] == gold and decision_of(state, "PMA") != "combined"


def test_resolution_38_combined_building_one_castle_on_a_neutral_land() -> None:
    state = open_action(new_state(3, neutrals="active"), "PMA", "building")
    state, _ = run(state, "PMA", "done", "combined castle plocium")
    assert state["lands"]["plocium"]["building"] == "castle"


def test_resolution_38_combined_movement_never_ends_on_the_movers_lands() -> None:
    state = open_action(new_state(2, neutrals="active"), "PMA", "movement")
    state, _ = run(state, "PMA", "done")
    answers = legal_actions(state, seat(state, "PMA"))
    assert "combined move mas" in answers and "combined move sil" in answers
    state, kinds = run(state, "PMA", "combined move sil")
    assert decision_of(state, "PMA") == "neighbour_move" and "combined_movement" in kinds
    control = controllers(state)
    onto_maior = next(
        move
        for move in legal_actions(state, seat(state, "PMA"))
        if move.startswith("move") and control.get(move.split()[3]) == "PMA"
    )
    state, _ = run(state, "PMA", onto_maior)
    assert "done" not in legal_actions(state, seat(state, "PMA"))  # Polonia Maior's own land
    state, _ = run(state, "PMA", "undo", "done")
    assert decision_of(state, "PMA") != "neighbour_move"


def test_passive_variant_offers_no_combined_action() -> None:
    state = open_action(new_state(3), "PMA", "assembly")
    state, _ = run(state, "PMA", "done")
    assert decision_of(state, "PMA") != "combined"


def test_neutral_prince_respawns_on_his_own_land() -> None:
    """With nobody to choose (no player removed him), he returns to the first free land of his own."""
    state = new_state(3)
    home = capital("MAS")
    clear_units(state, home)
    put(state, home, "PMA", knight=1)
    ctx = Ctx(state, ReplayRng([]))
    fight = {"land": "rava", "deaths": []}
    state["lands"]["rava"]["units"].pop("MAS", None)
    battle._remove(ctx, fight, "MAS", "prince", 1)
    dynasty.respawn_step(ctx)
    where = [land for land, data in state["lands"].items() if data["units"].get("MAS", {}).get("prince")]
    assert len(where) == 1 and where[0] != home and "prince_respawn" in [e.kind for e in ctx.events]
