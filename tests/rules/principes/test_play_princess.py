"""Princesses (rulebook PRINCESSES; resolution 31): missions, their cards, immunity, removal; Dynastic Marriage
and Lady of the Court."""

from __future__ import annotations

from rules.engine import ReplayRng
from rules.principes.data import catalog
from rules.principes.play import dynasty, flow, legal_actions, pending
from rules.principes.play.common import Ctx
from rules.principes.play.princesses import check, legal_areas, remove_princess, send
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
from .test_play_components import covers, give, hold


def at_missions(players: int = 2, direction: str = "cw") -> dict:
    """A new game after the Princeps chose the direction: the first Princess mission is asked."""
    state = new_state(players)
    return act(state, state["princeps"]["holder"], f"direction {direction}").state


def sent(state: dict, code: str, area: str) -> dict:
    """Place a Princess by the rules' own ``send`` (no arrival steps are asked)."""
    ctx = Ctx(state, ReplayRng([]))
    send(ctx, code, area)
    state["play"]["princess_queue"] = []
    return state


def test_resolution_31_missions_after_the_turn_order_before_the_history_card() -> None:
    state = at_missions(2)
    assert state["history"]["revealed"] is None  # the History card waits for the missions
    assert decision_of(state, "PMI") == "princess" and decision_of(state, "PMA") is None
    answers = legal_actions(state, seat(state, "PMI"))
    assert {"send cracovia", "send posnania", "send german_marches", "send rus"} <= set(answers)
    hand = len(state["players"]["PMI"]["hand"])
    state, kinds = run(state, "PMI", "send cracovia")
    assert "princess_sent" in kinds and decision_of(state, "PMI") == "princess_draw"
    state, _ = run(state, "PMI", "draw neighbour")
    assert len(state["players"]["PMI"]["hand"]) == hand + 1
    assert state["lands"]["cracovia"]["units"]["PMI"]["princess"] == 1
    assert decision_of(state, "PMA") == "princess"
    assert "send cracovia" not in legal_actions(state, seat(state, "PMA"))  # one Princess per area
    state, _ = run(state, "PMA", "send german_marches")
    assert state["history"]["revealed"] is not None  # now the History card
    assert all(decision.kind == "plan" for decision in pending(state).values())


def test_foreign_capital_discard_now_with_conversions_first() -> None:
    state = at_missions(2)
    give(state, "PMA", "C01a", "N02")
    state, _ = run(state, "PMI", "send posnania")
    assert decision_of(state, "PMA") == "princess_discard"
    assert set(legal_actions(state, seat(state, "PMA"))) >= {"discard c01a", "discard n02", "sell c01a"}
    gold = state["players"]["PMA"]["gold"]
    state, _ = run(state, "PMA", "sell c01a")  # a conversion first: the card is worth its gold
    assert state["players"]["PMA"]["gold"] == gold + 1 and decision_of(state, "PMA") == "princess_discard"
    state, kinds = run(state, "PMA", "discard n02")
    assert "princess_discard" in kinds and state["players"]["PMA"]["hand"] == []
    assert state["decks"]["neighbour"][-1] == "N02"


def test_second_round_of_the_period_draws_again_and_the_next_period_sends_anew() -> None:
    state = new_state(2)
    state = sent(state, "PMI", "cracovia")
    state["round"] = 2
    hand = len(state["players"]["PMI"]["hand"])
    state = act(state, "PMI", "direction cw").state
    assert decision_of(state, "PMI") == "princess_draw"
    state, _ = run(state, "PMI", "draw court")
    assert len(state["players"]["PMI"]["hand"]) == hand + 2  # and Leszek the White's card as Princeps
    state["round"] = 3
    state["play"]["phase"] = "direction"
    state["play"]["prompts"] = {}
    flow.advance(Ctx(state, ReplayRng([])))
    state = act(state, "PMI", "direction cw").state
    assert state["players"]["PMI"]["princess"] == "home"
    assert "princess" not in state["lands"]["cracovia"]["units"]["PMI"]
    answers = legal_actions(state, seat(state, "PMI"))
    assert "send cracovia" not in answers and "send posnania" in answers  # never the same area twice in a row


def test_princess_immunity_against_her_neighbour() -> None:
    """Polonia Maior married into the German Marches: Silesia's German army may not end on its lands."""
    state = new_state(4)
    state = sent(state, "PMA", "german_marches")
    give(state, "SIL", "N02")
    for code in ("PMA", "MAS", "PMI"):
        give(state, code)
    state = open_action(state, "SIL", "politics")
    state, _ = run(state, "SIL", "neighbour n02 ger")
    state = pass_empty_windows(state)
    assert controllers(state)["santocum"] == "PMA" and not state["lands"]["santocum"]["units"].get("PMA")
    clear_units(state, "santocum")
    state, _ = run(state, "SIL", "move footman german_marches santocum")
    assert "done" not in legal_actions(state, seat(state, "SIL"))  # resolution 23: not on her player's lands
    state, _ = run(state, "SIL", "undo", "move footman german_marches lubusium")
    assert "done" not in legal_actions(state, seat(state, "SIL"))  # nor on the mover's own lands
    state, _ = run(state, "SIL", "undo")
    state["players"]["PMA"]["princess"] = "home"  # without the marriage the same move may end there
    state, _ = run(state, "SIL", "move footman german_marches santocum")
    assert "done" in legal_actions(state, seat(state, "SIL"))


def test_princess_removed_when_her_capital_is_taken_and_by_devastation() -> None:
    state = new_state(2)
    state = sent(state, "PMA", "cracovia")
    assert state["lands"]["cracovia"]["units"]["PMA"] == {"princess": 1}
    del state["lands"]["cracovia"]["units"]["PMI"]
    put(state, "cracovia", "PMA", knight=1)  # the saboteur's own units take the land
    state = open_action(state, "PMI", "taxes")
    state = act(state, "PMI", "done").state
    assert state["players"]["PMA"]["princess"] == "removed"
    assert "princess" not in state["lands"]["cracovia"]["units"].get("PMA", {})
    assert state["supply"]["units"]["PMA"]["princess"] == 1
    other = sent(new_state(2), "PMI", "cracovia")
    assert remove_princess(other, "cracovia") == ["PMI"] and other["players"]["PMI"]["princess"] == "removed"


def test_elimination_removes_the_princess() -> None:
    state = sent(new_state(3), "PMI", "hungary")
    state["players"]["PMI"]["princes"] = []
    ctx = Ctx(state, ReplayRng([]))
    dynasty.prince_died(ctx, ["PMI"])
    check(ctx)
    assert state["players"]["PMI"]["eliminated"] and "PMI" not in state["offmap"]["hungary"]["units"]


@covers("C06")
def test_dynastic_marriage_sends_her_again_even_if_removed() -> None:
    state = new_state(2)
    state = sent(state, "PMA", "posnania")
    remove_princess(state, "posnania")
    give(state, "PMA", "C06a")
    give(state, "PMI", "C02a")
    state = open_action(state, "PMA", "politics")
    answers = legal_actions(state, seat(state, "PMA"))
    assert "play c06a cracovia" in answers and "play c06a posnania" not in answers  # a new area
    state, _ = run(state, "PMA", "play c06a cracovia")
    state = pass_empty_windows(state)
    assert state["players"]["PMA"]["princess"] == "cracovia"
    assert decision_of(state, "PMI") == "princess_discard"  # her arrival resolves now
    state, _ = run(state, "PMI", "discard c02a")
    assert state["players"]["PMI"]["hand"] == [] and decision_of(state, "PMA") == "politics"


@covers("Gr3")
def test_lady_of_the_court_two_cards() -> None:
    state = at_missions(2)
    hold(state, "PMI", "Gr3a")
    hand = len(state["players"]["PMI"]["hand"])
    state, _ = run(state, "PMI", "send cracovia", "draw court", "draw neighbour")
    assert len(state["players"]["PMI"]["hand"]) == hand + 2
    state, _ = run(state, "PMA", "send german_marches")
    assert decision_of(state, "PMI") == "plan"
    assert "german_marches" in catalog().offmap and "cracovia" not in legal_areas(state, "PMA")
