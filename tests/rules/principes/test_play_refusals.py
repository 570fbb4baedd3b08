"""An answer the rules refuse says why (issue 17): the wrong decision, an unknown word, a card not in hand, a
card's corner or timing, a cost, a border, a land not controlled."""

from __future__ import annotations

import pytest

from rules.engine import IllegalAction
from rules.principes.play import legal_actions

from .scenario import act, decision_of, new_state, open_action, put, seat
from .test_play_resolutions import fight


def refusal(state: dict, code: str, action: str) -> str:
    assert action not in legal_actions(state, seat(state, code))
    with pytest.raises(IllegalAction) as caught:
        act(state, code, action)
    return str(caught.value)


def _extra_window() -> dict:
    """Polonia Minor attacks neutral Masovia on Rava and holds Hired Knights (a sword corner)."""
    state = new_state(2)
    put(state, "rava", "PMI", footman=1)
    put(state, "rava", "MAS", footman=1)
    state["players"]["PMI"]["hand"] = ["B04a"]
    state = fight(state, "rava", "PMI", [3, 3])
    if decision_of(state, "PMI") == "before_battle":
        state = act(state, "PMI", "pass", draws=[3, 3]).state
    assert decision_of(state, "PMI") == "extra_cards"
    return state


def test_a_card_played_for_the_wrong_corner_names_its_corner() -> None:
    message = refusal(_extra_window(), "PMI", "extra b04a shield")
    assert message == "Hired Knights (b04a)'s corner is a sword, not a shield."


def test_a_card_not_in_hand_is_named() -> None:
    message = refusal(_extra_window(), "PMI", "extra b05a shield")
    assert message == "Shield Wall of Pavises (b05a) is not in your hand."


def test_an_answer_to_another_decision_says_what_is_being_decided() -> None:
    message = refusal(_extra_window(), "PMI", "collect")
    assert "you are deciding the extra sword or shield window" in message
    assert "The answers here start with 'extra' or 'pass'" in message


def test_an_unknown_land_is_named() -> None:
    state = open_action(new_state(2), "PMA", "movement")
    assert refusal(state, "PMA", "move knight posnania atlantis") == "'atlantis' is not a land of PRINCIPES."


def test_a_move_across_no_border_says_so() -> None:
    state = open_action(new_state(2), "PMA", "movement")
    message = refusal(state, "PMA", "move knight posnania cracovia")
    assert message == "Posnania does not border Cracovia: units cross one border at a time."


def test_a_unit_that_is_not_there_says_so() -> None:
    state = open_action(new_state(2), "PMA", "movement")
    message = refusal(state, "PMA", "move knight landa gnesna")
    assert message.startswith("No Knight that can still move stands on Landa")


def test_a_knight_without_gold_names_the_cost() -> None:
    state = new_state(2)
    state["players"]["PMA"]["gold"] = 0
    state = open_action(state, "PMA", "assembly")
    assert refusal(state, "PMA", "assemble knight posnania") == "A Knight costs 1 gold; you have 0."


def test_building_on_a_land_of_another_says_who_controls() -> None:
    state = open_action(new_state(2), "PMA", "building")
    assert refusal(state, "PMA", "build castle cracovia") == "You do not control Cracovia."


def test_an_incomplete_answer_shows_a_complete_one() -> None:
    state = open_action(new_state(2), "PMA", "movement")
    message = refusal(state, "PMA", "move knight posnania")
    assert message.startswith("'move knight posnania' is incomplete: for example 'move knight posnania ")


def test_selling_a_card_not_in_hand_names_it() -> None:
    state = new_state(2)
    state["players"]["PMA"]["hand"] = []
    assert refusal(state, "PMA", "sell b04a") == "Hired Knights (b04a) is not in your hand."
    assert refusal(state, "PMA", "sell xyz") == "'xyz' is not a card in your hand."
