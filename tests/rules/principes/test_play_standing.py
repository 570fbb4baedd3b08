"""PRINCIPES standing orders (issue 18, ``play.standing``): per order, the answer it gives from the seat's view,
and replay equality: a game played with the order is the game in which the player clicked the same answers when
asked (every answer the order gave was one of the seat's legal actions, applied as any other)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules.engine import Decision, OptionError, ReplayRng, get_game
from rules.engine.pace import paced_play
from rules.engine.playout import replay, start, step
from rules.engine.standing import Order, check_order, standing_answer

GAME = get_game("principes")
PLAYERS = 4
SEEDS = range(1, 7)
WINDOW_KINDS = {"before_battle", "extra_cards", "after_battle", "court_reaction", "neighbour_block"}

#: topic -> (the order, the decision kinds it answers, what each answer must be: a fixed action, or "deadline":
#: what a missed deadline gives)
ORDERS: dict[str, tuple[Order, set[str], str]] = {
    "windows": (Order("pass"), WINDOW_KINDS, "pass"),
    "council": (Order("keep"), {"council", "common_council"}, "done"),
    "taxes": (Order("collect"), {"taxes"}, "collect"),
    "direction": (Order("ccw"), {"direction"}, "direction ccw"),
    "princess": (Order("default"), {"princess"}, "deadline"),
    "princess_draw": (Order("court"), {"princess_draw"}, "draw court"),
    "release": (Order("default"), {"release"}, "deadline"),
    "division": (Order("default"), {"division"}, "deadline"),
    "urbanization": (Order("default"), {"urbanization"}, "deadline"),
    "history_build": (Order("default"), {"history_build"}, "deadline"),
    "history_choice": (Order("default"), {"history_choice"}, "deadline"),
}


def _clicked(playout: Any) -> dict[str, Any]:
    """The same game, each recorded answer given by its seat when the game asked it (legal then)."""
    again = start(GAME, PLAYERS, {}, playout.seed)
    for record in playout.records:
        assert record.action in GAME.legal_actions(again.state, record.seat), record
        step(GAME, again, record.seat, record.action)
    return again.state


@pytest.mark.parametrize("topic", sorted(ORDERS))
def test_each_order_answers_as_a_click_would(topic: str) -> None:
    order, kinds, expected = ORDERS[topic]
    answered: Counter[str] = Counter()
    for seed in SEEDS:
        orders = {seat: {topic: order} for seat in range(PLAYERS)}
        paced = paced_play(GAME, PLAYERS, seed, "basic", orders)
        playout = paced.playout
        answered.update(paced.by_order)
        assert set(paced.by_order) <= kinds, paced.by_order  # an order answers its own kinds only
        # replay equality: with the order, and as clicks when asked, the game is the same
        assert replay(GAME, PLAYERS, {}, playout.setup_draws, playout.records) == playout.state
        assert _clicked(playout) == playout.state
        # what the order gives, at each decision it answers
        state = start(GAME, PLAYERS, {}, seed).state
        for record in playout.records[:400]:
            for seat, decision in GAME.pending(state).items():
                if decision.kind not in kinds:
                    continue
                legal = GAME.legal_actions(state, seat)
                given = standing_answer(GAME, GAME.view(state, seat), seat, decision, legal, orders[seat])
                want = GAME.on_deadline(state, seat) if expected == "deadline" else expected
                if given is not None:
                    assert given == want and given in legal, (decision.kind, given, want)
            state = GAME.apply(state, record.seat, record.action, ReplayRng(list(record.draws))).state
        if answered:
            break
    assert answered, f"no decision answered by the {topic} order in {len(SEEDS)} seeds"


def _consent_view(asker: str) -> dict[str, Any]:
    """A seat's view while a Movement of ``asker`` waits for its consent to pass."""
    return {
        "seats": ["PMA", "MAS", "PMI", "SIL"],
        "play": {"action": {"kind": "movement", "who": asker, "stage": "consent"}, "event": None},
        "you": {"hand": []},
    }


CONSENT = Decision("c-1", "consent", "May they pass?")
CONSENT_ANSWERS = ["allow", "deny", "allow always", "deny always"]


@pytest.mark.parametrize(
    ("choice", "names", "asker", "answer"),
    [
        ("allow", (), "MAS", "allow"),
        ("deny", (), "MAS", "deny"),
        ("named", ("masovia", "sil"), "MAS", "allow"),
        ("named", ("masovia", "sil"), "PMI", "deny"),
        ("ask", (), "MAS", None),
    ],
)
def test_consent_order(choice: str, names: tuple[str, ...], asker: str, answer: str | None) -> None:
    orders = {"consent": check_order(GAME, "consent", choice, names)}
    assert standing_answer(GAME, _consent_view(asker), 0, CONSENT, CONSENT_ANSWERS, orders) == answer


def _window_view() -> dict[str, Any]:
    return {"seats": ["PMA", "MAS"], "play": {}, "you": {"hand": ["B02a", "C16b"]}}


@pytest.mark.parametrize(
    ("marks", "answer"),
    [
        ((), "pass"),
        (("court",), "pass"),  # a Court card marked, but the window would play a Battle card
        (("battle",), None),
        (("b02a",), None),
        (("b02",), "pass"),  # not a card id: refused when read (below), never matched
    ],
)
def test_window_order_passes_unless_a_marked_card_could_be_played(
    marks: tuple[str, ...], answer: Any
) -> None:
    decision = Decision("w-1", "before_battle", "Before the battle", timing="window")
    legal = ["before b02a", "pass", "sell b02a", "sell c16b"]
    orders = {"windows": Order("pass", marks)}
    assert standing_answer(GAME, _window_view(), 0, decision, legal, orders) == answer


def test_marks_and_names_are_read_or_refused() -> None:
    assert check_order(GAME, "windows", "pass", ["Truce of God", "BATTLE"]).names == (
        "truce of god (treuga dei)",
        "battle",
    )
    with pytest.raises(OptionError, match="names no card"):
        check_order(GAME, "windows", "pass", ["b02"])
    with pytest.raises(OptionError, match="not a principality"):
        check_order(GAME, "consent", "named", ["Atlantis"])
    with pytest.raises(OptionError, match="takes no names"):
        check_order(GAME, "taxes", "collect", ["pma"])


@pytest.mark.parametrize(
    ("choice", "marks", "answer"),
    [
        ("keep", (), "done"),
        ("keep", ("c16b",), None),
        ("pledge", (), "pledge c16b people"),
    ],
)
def test_council_order(choice: str, marks: tuple[str, ...], answer: str | None) -> None:
    decision = Decision("k-1", "council", "Council")
    legal = ["pledge c16b people", "pledge c16b clergy", "done", "sell c16b"]
    orders = {"council": Order(choice, marks)}
    assert standing_answer(GAME, _window_view(), 0, decision, legal, orders) == answer


def test_a_council_pledged_by_order_replays_as_clicks() -> None:
    orders = {seat: {"council": Order("pledge")} for seat in range(PLAYERS)}
    for seed in SEEDS:
        paced = paced_play(GAME, PLAYERS, seed, "basic", orders)
        if paced.by_order["council"] or paced.by_order["common_council"]:
            assert _clicked(paced.playout) == paced.playout.state
            return
    raise AssertionError("no Council answered by order")
