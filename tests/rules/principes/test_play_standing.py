"""PRINCIPES standing orders (issue 18, ``play.standing``): per order, the answer it gives from the seat's view,
and replay equality: a game played with the order is the game in which the player clicked the same answers when
asked (every answer the order gave was one of the seat's legal actions, applied as any other)."""

from __future__ import annotations

import random
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
    "invader_move": (Order("default"), {"invader_move"}, "deadline"),
    "neighbour_move": (Order("default"), {"neighbour_move"}, "deadline"),
    "hand_limit": (Order("default"), {"hand_limit"}, "deadline"),
    "clergy_penalty": (Order("default"), {"clergy_penalty"}, "deadline"),
    "withdraw": (Order("default"), {"withdraw"}, "deadline"),
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


# ---- armies moved by a player (Invaders, a Neighbour's) and the hand limit (issue 47) -----------------------


def _army_view(might: dict[str, int]) -> dict[str, Any]:
    """PMA's view while it moves an army: MAS holds l1 and l2, PMI holds l3 (the lands' codes are made up:
    the order reads only the control, the Might and the answers offered)."""
    return {
        "seats": ["PMA", "MAS", "PMI"],
        "play": {},
        "you": {"hand": []},
        "players": {code: {"eliminated": False, "people": 4, "clergy": 4} for code in might},
        "might": might,
        "control": {"l0": None, "l1": "MAS", "l2": "MAS", "l3": "PMI", "home": "PMA"},
    }


INVADERS = Decision("i-1", "invader_move", "Move the Prussians")
NEIGHBOUR = Decision("n-1", "neighbour_move", "Move the Pomeranians")


@pytest.mark.parametrize("decision", [INVADERS, NEIGHBOUR], ids=lambda d: d.kind)
@pytest.mark.parametrize(
    ("might", "legal", "answer"),
    [
        # MAS leads: a unit moves onto MAS's land, not onto PMI's nor off MAS's
        (
            {"PMA": 5, "MAS": 7, "PMI": 6},
            ["move knight l0 l3", "move knight l0 l1", "undo", "done"],
            "move knight l0 l1",
        ),
        (
            {"PMA": 5, "MAS": 5, "PMI": 6},
            ["move knight l0 l3", "move knight l0 l1", "undo", "done"],
            "move knight l0 l3",
        ),
        # every unit already on the leader's lands: it may go on from l1 to l2, but the move ends
        ({"PMA": 5, "MAS": 7, "PMI": 6}, ["move knight l1 l2", "move knight l1 l0", "undo", "done"], "done"),
        # the army may not end as it stands: asked
        ({"PMA": 5, "MAS": 7, "PMI": 6}, ["move knight l1 l0", "undo"], None),
    ],
)
def test_the_leader_order_sends_the_army_at_the_rival_with_the_most_might(
    decision: Decision, might: dict[str, int], legal: list[str], answer: str | None
) -> None:
    orders = {decision.kind: check_order(GAME, decision.kind, "leader")}
    assert standing_answer(GAME, _army_view(might), 0, decision, legal, orders) == answer


@pytest.mark.parametrize("decision", [INVADERS, NEIGHBOUR], ids=lambda d: d.kind)
def test_army_orders_ask_when_set_to_ask_and_their_defaults_are_the_deadlines(decision: Decision) -> None:
    view = _army_view({"PMA": 5, "MAS": 7, "PMI": 6})
    legal = ["move knight l0 l1", "undo", "done", "sell b02a"]
    assert standing_answer(GAME, view, 0, decision, legal, {decision.kind: Order("ask")}) is None
    assert (
        standing_answer(GAME, view, 0, decision, legal, {"windows": Order("pass")}) is None
    )  # not its topic
    assert standing_answer(GAME, view, 0, decision, legal, {decision.kind: Order("default")}) == "done"
    after_a_move = ["move knight l1 l2", "undo"]  # may not end where it stands: the move is taken back
    assert standing_answer(GAME, view, 0, decision, after_a_move, {decision.kind: Order("default")}) == "undo"


HAND_LIMIT = Decision("hand-1-PMA-7", "hand_limit", "Your hand is over the limit")


def _hand_view(hand: list[str], people: int, clergy: int) -> dict[str, Any]:
    return {
        "seats": ["PMA", "MAS"],
        "play": {},
        "you": {"hand": hand},
        "players": {"PMA": {"people": people, "clergy": clergy}, "MAS": {"people": 4, "clergy": 4}},
    }


def _conversions(hand: list[str]) -> list[str]:
    """The hand limit's answers as ``currency.conversions`` lists them (C16b: either track, C02a: Clergy)."""
    tracks = {"C16b": ("people", "clergy"), "C02a": ("clergy",), "B02a": ()}
    return [
        answer
        for card in hand
        for answer in (f"sell {card.lower()}", *(f"support {card.lower()} {track}" for track in tracks[card]))
    ]


@pytest.mark.parametrize(
    ("hand", "people", "clergy", "answer"),
    [
        (["C16b", "B02a"], 3, 5, "sell b02a"),  # a Battle card goes first
        (["C16b", "C02a"], 3, 5, "support c16b people"),  # else support on the lower track
        (["C02a", "C16b"], 6, 5, "support c02a clergy"),
        (["C16b", "C02a"], 10, 10, "sell c16b"),  # both tracks full: a support would be lost, sold
        (["C02a"], 3, 10, "sell c02a"),  # its only track is full
    ],
)
def test_the_hand_limit_order_sells_battle_cards_then_supports_the_lower_track(
    hand: list[str], people: int, clergy: int, answer: str
) -> None:
    orders = {"hand_limit": check_order(GAME, "hand_limit", "battle_first")}
    legal = _conversions(hand)
    view = _hand_view(hand, people, clergy)
    assert standing_answer(GAME, view, 0, HAND_LIMIT, legal, orders) == answer
    assert standing_answer(GAME, view, 0, HAND_LIMIT, legal, {"hand_limit": Order("ask")}) is None
    # nothing the order may give is offered: the player is asked
    assert standing_answer(GAME, view, 0, HAND_LIMIT, ["give mas 1"], orders) is None


def test_the_army_and_hand_orders_answer_whole_games_as_clicks_would() -> None:
    """The ``leader`` and ``battle_first`` orders on every seat: each answers its own kinds only, every army
    they move ends its move (the games finish), and the games replay as the same answers clicked."""
    orders = {
        "invader_move": Order("leader"),
        "neighbour_move": Order("leader"),
        "hand_limit": Order("battle_first"),
    }
    answered: Counter[str] = Counter()
    for seed in SEEDS[:3]:
        paced = paced_play(GAME, PLAYERS, seed, "basic", {seat: orders for seat in range(PLAYERS)})
        answered.update(paced.by_order)
        assert set(paced.by_order) <= set(orders), paced.by_order
        assert GAME.outcome(paced.playout.state).finished
        assert _clicked(paced.playout) == paced.playout.state
    assert all(answered[kind] for kind in orders), answered


#: the battle decisions ``decisive`` answers as the strong AI does (its battle rules, from the seat's view)
DECISIVE_KINDS = {"before_battle", "extra_cards", "reroll", "flip"}


def test_the_decisive_orders_play_battles_as_the_strong_ai_rules_do() -> None:
    """``windows: decisive`` and ``dice: decisive`` give, at every battle decision they answer, what the strong
    AI chooses from the seat's view (a 'before battle' card for my side, an extra card or a reroll only when it
    turns the battle); the other windows pass; and the game replays as the same clicks."""
    orders = {"windows": Order("decisive"), "dice": Order("decisive")}
    compared: Counter[str] = Counter()
    for seed in range(1, 4):
        paced = paced_play(GAME, PLAYERS, seed, "basic", {seat: orders for seat in range(PLAYERS)})
        playout = paced.playout
        assert replay(GAME, PLAYERS, {}, playout.setup_draws, playout.records) == playout.state
        state = start(GAME, PLAYERS, {}, seed).state
        for record in playout.records:
            for seat, decision in GAME.pending(state).items():
                if decision.kind not in WINDOW_KINDS | DECISIVE_KINDS:
                    continue
                legal = GAME.legal_actions(state, seat)
                view = GAME.view(state, seat)
                given = standing_answer(GAME, view, seat, decision, legal, orders)
                if decision.kind in DECISIVE_KINDS:
                    offered = [a for a in legal if not GAME.is_free(state, seat, a)]
                    strong = GAME.choose_action(view, seat, offered, "strong", random.Random(0))
                    assert given == strong, (decision.kind, given, strong)
                    compared[decision.kind] += 1
                elif given is not None:
                    assert given == "pass"
            state = GAME.apply(state, record.seat, record.action, ReplayRng(list(record.draws))).state
    assert {"before_battle", "extra_cards"} <= set(compared), compared
