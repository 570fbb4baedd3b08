"""Neighbour cards (PRINCIPES III): the rulebook's example, blocking, the movement rules, Pomerania."""

from __future__ import annotations

from rules.principes.play import legal_actions, pending

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


def _german_marches_example():
    """Polonia Maior holds the full German Marches card, Silesia the partial one; a Silesian Footman guards
    Crosna, Lubusium is empty with an Abbey."""
    state = new_state(4)
    state["players"]["PMA"]["hand"] = ["N01"]
    state["players"]["SIL"]["hand"] = ["N02"]
    state["players"]["MAS"]["hand"] = []
    state["players"]["PMI"]["hand"] = []
    put(state, "crosna", "SIL", footman=1)
    state["lands"]["lubusium"]["building"] = "abbey"
    state["supply"]["tokens"]["abbey"] -= 1
    return open_action(state, "PMA", "politics")


def test_rulebook_neighbour_example_resolution_22() -> None:
    """Polonia Maior pays 2 gold for the full card (resolution 22); Silesia blocks 1 Knight and 1 Footman;
    the remaining Knight fights in Crosna, the Footman takes Lubusium and destroys its Abbey."""
    state = _german_marches_example()
    gold = state["players"]["PMA"]["gold"]
    assert "neighbour n01 ger" in legal_actions(state, seat(state, "PMA"))
    state, kinds = run(state, "PMA", "neighbour n01 ger")
    assert "neighbour_card" in kinds and state["players"]["PMA"]["gold"] == gold - 2
    # every other player gets the window in turn order, whatever the hand: Masovia and Polonia Minor pass
    assert decision_of(state, "MAS") == "neighbour_block"
    state = pass_empty_windows(state)
    assert decision_of(state, "SIL") == "neighbour_block"
    state, kinds = run(state, "SIL", "block n02")
    assert "neighbour_blocked" in kinds
    army = state["play"]["action"]["neighbour"]
    assert (army["knights"], army["footmen"]) == (1, 1)
    state = pass_empty_windows(state)  # Silesia has no card left: its window passes
    assert decision_of(state, "PMA") == "neighbour_move"
    state, kinds = run(
        state, "PMA", "move knight german_marches crosna", "move footman german_marches lubusium"
    )
    assert "move knight german_marches crosna" not in legal_actions(
        state, seat(state, "PMA")
    )  # 1 Knight only
    state, kinds = run(state, "PMA", "done")
    assert decision_of(state, "PMA") == "neighbour_destroy"
    state, kinds = run(state, "PMA", "destroy lubusium abbey")
    assert state["lands"]["lubusium"]["building"] is None and "destruction" in kinds
    # the battle in Crosna: the German Knight attacks the Silesian Footman (Silesia plays its windows)
    current = state["play"]["battle"]
    assert current["land"] == "crosna" and current["sides"] == {"A": "GER", "D": "SIL"}
    assert current["mover"] == "PMA"
    for _ in range(20):
        state = pass_empty_windows(state, [1, 3])  # German sword against a Silesian shield
        if state["play"]["battle"] is None:
            break
        code = next(iter(state["play"]["prompts"]))
        state = act(state, code, legal_actions(state, seat(state, code))[0], draws=[1, 3]).state
    assert "GER" not in state["lands"]["crosna"]["units"] or "SIL" not in state["lands"]["crosna"]["units"]
    assert state["lands"]["lubusium"]["units"]["GER"] == {"footman": 1}  # the army stays until expelled
    assert state["play"]["battles"] == 1
    assert decision_of(state, "PMA") == "politics"  # then the Politics action itself


def test_full_block_stops_the_neighbour_and_the_cost_is_kept() -> None:
    """Two blocking cards (the partial card and a joker) stop the whole force; the 2 gold stay paid."""
    state = _german_marches_example()
    gold = state["players"]["PMA"]["gold"]
    state["players"]["SIL"]["hand"] = ["N02", "N11"]
    state, _ = run(state, "PMA", "neighbour n01 ger")
    state = pass_empty_windows(state)
    state, kinds = run(state, "SIL", "block n02", "block n11")
    assert "neighbour_stopped" in kinds and state["players"]["PMA"]["gold"] == gold - 2
    assert decision_of(state, "PMA") == "politics"
    assert "neighbour n01 ger" not in legal_actions(state, seat(state, "PMA"))


def test_resolution_23_no_end_on_the_movers_lands_and_one_card_per_neighbour() -> None:
    state = _german_marches_example()
    state["players"]["PMA"]["hand"] = ["N02", "N11"]
    state, _ = run(state, "PMA", "neighbour n02 ger")
    state = pass_empty_windows(state)
    assert decision_of(state, "SIL") == "neighbour_block"
    state, _ = run(state, "SIL", "pass")
    state, _ = run(state, "PMA", "move footman german_marches santocum")  # Santocum: Polonia Maior's own land
    assert "done" not in legal_actions(state, seat(state, "PMA"))
    state, _ = run(state, "PMA", "undo", "done")
    options = legal_actions(state, seat(state, "PMA"))
    assert "neighbour n11 ger" not in options and "neighbour n11 boh" in options  # the joker names another


def test_neighbour_occupation_removes_a_division_token() -> None:
    state = _german_marches_example()
    state["lands"]["lubusium"]["division"] = True
    state["players"]["SIL"]["hand"] = []
    state, _ = run(state, "PMA", "neighbour n01 ger")
    state = pass_empty_windows(state)
    state, kinds = run(state, "PMA", "move footman german_marches lubusium", "done")
    assert "division_removed" in kinds and not state["lands"]["lubusium"]["division"]


def test_pomeranian_conquest_units_return_when_the_land_is_vacated() -> None:
    """Western Pomerania defends with both gords; beaten at home, its units leave the map and come back once
    no foreign unit stands there."""
    from rules.principes.play import battle

    state = new_state(2)
    assert battle.fortification(state, "pomocc") == 2
    clear_units(state, "pomocc")
    put(state, "pomocc", "PMA", knight=1)
    state["play"]["pomerania_out"] = {"WPOM": {"knight": 1, "footman": 2}}
    state = open_action(state, "PMA", "movement")
    state, _ = run(state, "PMA", "move knight pomocc santocum")
    assert state["lands"]["pomocc"]["units"] == {"WPOM": {"knight": 1, "footman": 2}}
    assert not state["play"]["pomerania_out"]


def test_the_blocking_window_reveals_no_hand() -> None:
    """Players without a matching card get the same window (their only answer is pass: a host auto-passes)."""
    from rules.principes.play import auto_pass

    state = _german_marches_example()
    state, _ = run(state, "PMA", "neighbour n01 ger")
    decision = pending(state)[seat(state, "MAS")]
    assert decision.kind == "neighbour_block" and decision.timing == "window"
    assert auto_pass(state, seat(state, "MAS")) == "pass"
    state = pass_empty_windows(state)
    assert auto_pass(state, seat(state, "SIL")) is None  # Silesia may block: it decides
