"""PRINCIPES answers collected ahead (issue 18, ``history.ahead``, ``princesses.ahead``): while a queued prompt
(Division, Urbanization, Release, a History text, a Princess mission) asks one player, the later players of the
queue answer theirs ahead; each answer is given when its turn comes if it is still legal then (the first legal of
its choices), else the player is asked. Replay equality per kind: the game is the one in which each player clicked
the same answer when asked."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules.engine import get_game
from rules.engine.pace import paced_play
from rules.engine.playout import replay, start, step
from rules.engine.standing import AHEAD, ahead_action, ahead_order, standing_answer
from rules.principes.play import history, princesses

#: every kind a later player may answer ahead
AHEAD_KINDS = (*history.AHEAD_KINDS, *princesses.AHEAD_KINDS)

GAME = get_game("principes")
PLAYERS = 4
SEEDS = range(1, 5)


def _clicked_playout(playout: Any) -> Any:
    """The same game, each recorded answer given by its seat when the game asked it (legal then)."""
    again = start(GAME, PLAYERS, {}, playout.seed)
    for record in playout.records:
        assert record.action in GAME.legal_actions(again.state, record.seat), record
        step(GAME, again, record.seat, record.action)
    return again


def _clicked(playout: Any) -> dict[str, Any]:
    return _clicked_playout(playout).state


@pytest.mark.parametrize("kind", AHEAD_KINDS)
def test_each_kind_answered_ahead_is_the_game_of_the_same_clicks(kind: str) -> None:
    for seed in SEEDS:
        paced = paced_play(GAME, PLAYERS, seed, "basic", collect_ahead=True)
        if not paced.by_ahead[kind]:
            continue
        playout = paced.playout
        assert set(paced.by_ahead) <= set(AHEAD_KINDS), paced.by_ahead
        assert replay(GAME, PLAYERS, {}, playout.setup_draws, playout.records) == playout.state
        clicked = _clicked_playout(playout)
        assert clicked.state == playout.state
        assert clicked.events == playout.events  # the log too
        return
    pytest.fail(f"no {kind} answered ahead in {len(SEEDS)} seeds")


def _queued(kind: str) -> tuple[list[dict[str, Any]], int, int, int]:
    """A scripted game in which a later seat may answer a decision of ``kind`` ahead and is asked that very
    decision at its turn: (the state before each record, the record before which it answers, the seat, the record
    of its turn)."""
    for seed in SEEDS:
        playout = paced_play(GAME, PLAYERS, seed, "basic").playout
        state = start(GAME, PLAYERS, {}, seed).state
        states = []
        for record in playout.records:
            states.append(state)
            state = GAME.apply(state, record.seat, record.action, _draws(record)).state
        for index, state in enumerate(states):
            for later, decision in sorted(GAME.ahead(state).items()):
                turn = next((t for t in range(index, len(states)) if later in GAME.pending(states[t])), None)
                if (
                    decision.kind == kind
                    and turn is not None
                    and GAME.pending(states[turn])[later].kind == kind
                ):
                    return states, index, later, turn
    raise AssertionError(f"no {kind} answered ahead in {len(SEEDS)} seeds")


@pytest.mark.parametrize("kind", AHEAD_KINDS)
def test_each_kind_asked_ahead_shows_in_no_other_view(kind: str) -> None:
    """Asking ahead (``ahead``, ``ahead_state``, as the host does between moves) changes no state and no view:
    the answer given ahead lives outside the game (the seat's orders), so until its turn every other seat's view
    and the spectators' are those of the game in which nobody answered ahead."""
    states, index, later, turn = _queued(kind)
    code = states[index]["seats"][later]
    for state in states[index:turn]:
        views = {seat: GAME.view(state, seat) for seat in (*range(PLAYERS), None)}
        before = GAME.copy_state(state)
        if later in GAME.ahead(state):
            assert GAME.ahead_state(state, later) is not None
        assert state == before
        for seat, view in views.items():
            assert GAME.view(state, seat) == view
            if seat != later:
                assert code not in view["play"]["prompts"]


@pytest.mark.parametrize("kind", AHEAD_KINDS)
def test_each_kind_answered_ahead_falls_back_when_no_longer_legal(kind: str) -> None:
    """At its turn, the first choice given ahead still legal is given; none legal: the player is asked (no
    answer). The illegal choice is one the seat could answer ahead but the turn no longer allows where the game
    takes one away (an earlier player founded that City, sent her Princess there), else one never legal."""
    states, index, later, turn = _queued(kind)
    decision = GAME.ahead(states[index])[later]
    preview = GAME.ahead_state(states[index], later)
    assert preview is not None and GAME.pending(preview)[later].id == decision.id
    offered = GAME.legal_actions(preview, later)
    state = states[turn]
    now, legal = GAME.pending(state)[later], GAME.legal_actions(state, later)
    gone = [action for action in offered if action not in legal] or ["found nowhere"]
    second = next(action for action in offered if action in legal)
    view = GAME.view(state, later)
    for illegal in gone:
        orders = {AHEAD: ahead_order(decision.id, [illegal])}
        assert standing_answer(GAME, view, later, now, legal, orders) is None
        orders = {AHEAD: ahead_order(decision.id, [illegal, second])}
        assert standing_answer(GAME, view, later, now, legal, orders) == second
    # the answer given ahead serves its own slot only
    orders = {AHEAD: ahead_order(decision.id + ":other", [second])}
    assert standing_answer(GAME, view, later, now, legal, orders) is None


def test_collected_ahead_counts_once_and_asks_again_when_illegal() -> None:
    """With answers collected ahead, a queued prompt is one wait for the whole queue; fewer waits in all."""
    counted: Counter[str] = Counter()
    for seed in SEEDS:
        plain = paced_play(GAME, PLAYERS, seed, "basic")
        ahead = paced_play(GAME, PLAYERS, seed, "basic", collect_ahead=True)
        counted["plain"] += sum(plain.waits.by_kind[kind] for kind in AHEAD_KINDS)
        counted["ahead"] += sum(ahead.waits.by_kind[kind] for kind in AHEAD_KINDS)
    assert counted["ahead"] < counted["plain"], counted


def _urbanization_with_a_queue() -> tuple[dict[str, Any], int, int]:
    """A state where one player is asked Urbanization and a later one may answer ahead: (state, asked, later)."""
    for seed in SEEDS:
        playout = paced_play(GAME, PLAYERS, seed, "basic").playout
        state = start(GAME, PLAYERS, {}, seed).state
        for record in playout.records:
            upcoming = {s: d for s, d in GAME.ahead(state).items() if d.kind == "urbanization"}
            asked = [s for s, d in GAME.pending(state).items() if d.kind == "urbanization"]
            if upcoming and asked:
                return state, asked[0], min(upcoming)
            state = GAME.apply(state, record.seat, record.action, _draws(record)).state
    raise AssertionError("no Urbanization with a queue")


def _draws(record: Any) -> Any:
    from rules.engine import ReplayRng

    return ReplayRng(list(record.draws))


def test_an_answer_given_ahead_is_given_at_its_turn_only_if_legal_then() -> None:
    state, asked, later = _urbanization_with_a_queue()
    decision = GAME.ahead(state)[later]
    preview = GAME.ahead_state(state, later)
    assert preview is not None
    assert GAME.pending(preview)[later].id == decision.id  # the decision posed as it will be asked
    mine = GAME.legal_actions(state, asked)
    answers = [a for a in GAME.legal_actions(preview, later) if a.startswith("found") and a in mine]
    assert answers
    # the earlier player founds the very City the later one wants: the later one's fallback is given
    taken, fallback = answers[0], "pass"
    orders = {AHEAD: ahead_order(decision.id, [taken, fallback])}
    after = GAME.apply(state, asked, taken, _draws_none()).state
    while later not in GAME.pending(after):
        seat = min(GAME.pending(after))
        after = GAME.apply(after, seat, "pass", _draws_none()).state
    now = GAME.pending(after)[later]
    legal = GAME.legal_actions(after, later)
    assert taken not in legal
    assert standing_answer(GAME, GAME.view(after, later), later, now, legal, orders) == fallback
    # an answer for another slot (another Round, another icon) is never given
    assert (
        ahead_action({AHEAD: ahead_order("r9:icon:urbanization:0", ["pass"])}, "r1:icon:x:0", ["pass"])
        is None
    )


def _draws_none() -> Any:
    from rules.engine.rng import NoChance

    return NoChance()


def test_asking_ahead_changes_no_state_and_no_view() -> None:
    """Asking ahead poses nothing in the game: only the copy the seat answers from holds its prompt."""
    state, asked, later = _urbanization_with_a_queue()
    before = GAME.copy_state(state)
    assert GAME.ahead_state(state, later) is not None
    assert state == before
    code = state["seats"][later]
    for seat in (*range(PLAYERS), None):
        assert code not in GAME.view(state, seat)["play"]["prompts"]


# ---- Princess missions (``princesses.ahead``): "each player (in the set order), assigns their Princess" ----------


def test_princess_missions_answered_ahead_are_the_game_of_the_same_clicks() -> None:
    """Later players answer their Princess mission while an earlier one is asked: the game (its state and its
    log) is exactly the one in which each clicked the same mission when asked."""
    for seed in SEEDS:
        paced = paced_play(GAME, PLAYERS, seed, "basic", collect_ahead=True)
        if not paced.by_ahead["princess"]:
            continue
        playout = paced.playout
        plain = paced_play(GAME, PLAYERS, seed, "basic")
        assert paced.waits.by_kind["princess"] < plain.waits.by_kind["princess"]
        assert replay(GAME, PLAYERS, {}, playout.setup_draws, playout.records) == playout.state
        clicked = _clicked_playout(playout)
        assert clicked.state == playout.state
        assert clicked.events == playout.events
        return
    pytest.fail(f"no Princess mission answered ahead in {len(SEEDS)} seeds")


def _mission_with_a_queue(seed: int = 1) -> tuple[Any, int, int]:
    """The first Period's missions: (playout, the seat asked its mission, the next seat to send)."""
    playout = start(GAME, PLAYERS, {}, seed)
    while True:
        pending = GAME.pending(playout.state)
        asked = [seat for seat, decision in pending.items() if decision.kind == "princess"]
        if asked:
            queue = playout.state["play"]["princess_queue"]
            later = playout.state["players"][queue[1]["who"]]["seat"]
            assert later in GAME.ahead(playout.state)
            return playout, asked[0], later
        seat = min(pending)
        step(GAME, playout, seat, GAME.legal_actions(playout.state, seat)[0])


def test_asking_for_missions_ahead_changes_no_state() -> None:
    """The host asks ``ahead`` and ``ahead_state`` of the live state between moves: a later player's Princess
    record must not be written then (the stored state would no longer be the replay of its events)."""
    playout, _asked, later = _mission_with_a_queue()
    state = replay(GAME, PLAYERS, {}, playout.setup_draws, playout.records)  # as stored: never asked ahead
    before = GAME.copy_state(state)
    assert later in GAME.ahead(state)
    assert GAME.ahead_state(state, later) is not None
    assert state == before


def test_a_mission_taken_by_an_earlier_princess_falls_to_the_next_choice() -> None:
    """The rulebook's "Only one Princess can occupy one area at a time": the later player wanted the Capital the
    earlier one sends her Princess to; the earlier one's draw comes first and gives nothing of the answer; at the
    later player's turn their second choice is given."""
    playout, asked, later = _mission_with_a_queue()
    state = playout.state
    decision = GAME.ahead(state)[later]
    assert decision.kind == "princess" and decision.id == f"r{state['round']}:princess"
    preview = GAME.ahead_state(state, later)
    assert preview is not None and GAME.pending(preview)[later].id == decision.id
    theirs = [a for a in GAME.legal_actions(preview, later) if a.startswith("send ")]
    assert theirs == [f"send {area}" for area in princesses.legal_areas(state, state["seats"][later])]
    home = "send " + str(princesses.capital(state["seats"][asked]))
    assert home in theirs and home in GAME.legal_actions(state, asked)  # a saboteur there, or her own court
    fallback = next(a for a in theirs if a != home)
    orders = {AHEAD: ahead_order(decision.id, [home, fallback])}
    step(GAME, playout, asked, home)  # the earlier Princess holds court at home: a draw comes first
    drawing = GAME.pending(playout.state)
    assert later not in drawing and drawing[asked].kind == "princess_draw"
    assert GAME.ahead(playout.state)[later].id == decision.id  # still collected, and kept, during the draw
    assert standing_answer(GAME, GAME.view(playout.state, asked), asked, drawing[asked], [], orders) is None
    step(GAME, playout, asked, "draw court")
    now = GAME.pending(playout.state)[later]
    legal = GAME.legal_actions(playout.state, later)
    assert now.kind == "princess" and home not in legal
    assert standing_answer(GAME, GAME.view(playout.state, later), later, now, legal, orders) == fallback
    # with no choice still legal then, the player is asked
    none_left = {AHEAD: ahead_order(decision.id, [home])}
    assert standing_answer(GAME, GAME.view(playout.state, later), later, now, legal, none_left) is None
    # an answer given for another Period's missions is never given
    other = {AHEAD: ahead_order(f"r{state['round'] + 2}:princess", [fallback])}
    assert standing_answer(GAME, GAME.view(playout.state, later), later, now, legal, other) is None


def test_a_mission_answered_ahead_shows_in_no_other_seats_view() -> None:
    """Asking a mission ahead poses nothing in the game, and the answer given ahead lives outside it (the
    seat's orders): until the later player's turn, no seat's view (nor the spectators') shows their choice."""
    playout, asked, later = _mission_with_a_queue()
    state = playout.state
    before = GAME.copy_state(state)
    preview = GAME.ahead_state(state, later)
    assert preview is not None and state == before
    decision = GAME.ahead(state)[later]
    code = state["seats"][later]
    wanted = [a for a in GAME.legal_actions(preview, later) if a.startswith("send ")][-1]
    orders = {AHEAD: ahead_order(decision.id, [wanted])}
    elsewhere = {wanted, f"send {princesses.capital(code)}"}  # not where theirs goes, nor to their court
    step(GAME, playout, asked, next(a for a in GAME.legal_actions(state, asked) if a not in elsewhere))
    while later not in GAME.pending(playout.state):
        for seat in (*range(PLAYERS), None):
            view = GAME.view(playout.state, seat)
            assert code not in view["play"]["prompts"]
            assert view["players"][code]["princess"] == "home"
            assert decision.id not in str(view)
        seat = min(GAME.pending(playout.state))
        step(GAME, playout, seat, GAME.legal_actions(playout.state, seat)[0])
    now = GAME.pending(playout.state)[later]
    legal = GAME.legal_actions(playout.state, later)
    assert standing_answer(GAME, GAME.view(playout.state, later), later, now, legal, orders) == wanted
