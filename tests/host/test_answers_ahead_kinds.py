"""Every kind of PRINCIPES decision a later player may answer ahead (``history.AHEAD_KINDS``,
``princesses.AHEAD_KINDS``, and what a sealed plan implies, ``Game.plan_ahead``: enumerated from the rules'
declarations, so a new kind is covered), through the host (issue 47, Pace II). Two host games on the same seed follow the same script: in one the later player answers
ahead, in the other they click the same answer when asked. Until the answer is given at its turn, nobody else
gets anything different (the channel, the other player's DMs, the views drawn); then the two games are the same
game (state, events, log), and the one answered ahead replays from its seed and stored actions (``/verify`` waits
for the game's end). An answer no longer legal at its
turn leaves the player asked, and an illegal first choice with a legal second gives the second."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from bot.host import Host
from bot.models import Delivery
from rules.engine import ReplayRng, get_game
from rules.engine.pace import paced_play
from rules.engine.playout import Playout, start, step
from rules.engine.standing import AHEAD, AHEAD_PLAN, ahead_order
from rules.principes.play import history, princesses
from tests.conftest import ALICE, BOB
from tests.support.deliveries import seen_by_others
from tests.support.players import without_shipped_orders

GAME = get_game("principes")
SEED = 1  # 2 players: each kind comes in this game (``test_every_kind_comes_in_the_scripted_game``)
PLAYERS = (ALICE, BOB)
#: every kind a later player may answer ahead, from the rules' own declarations
AHEAD_KINDS = (*history.AHEAD_KINDS, *princesses.AHEAD_KINDS)


@functools.cache
def _playout() -> Playout:
    return paced_play(GAME, len(PLAYERS), SEED, "basic").playout


@functools.cache
def _states() -> list[dict[str, Any]]:
    """The state before each record of the scripted game."""
    playout = _playout()
    state = start(GAME, len(PLAYERS), {}, SEED).state
    states = []
    for record in playout.records:
        states.append(state)
        state = GAME.apply(state, record.seat, record.action, ReplayRng(list(record.draws))).state
    return states


def _plan_offers() -> dict[str, tuple[int, int, str, tuple[str, ...]]]:
    """The decisions a sealed plan implies (``Game.plan_ahead``), by kind, the first time the script seals one:
    (the sealing record, the seat, the slot, the answers offered)."""
    found: dict[str, tuple[int, int, str, tuple[str, ...]]] = {}
    for index, (record, state) in enumerate(zip(_playout().records, _states(), strict=True)):
        if GAME.pending(state)[record.seat].sealed:
            for offer in GAME.plan_ahead(state, record.seat, record.action):
                answers = tuple(action for action, _label in offer.answers)
                found.setdefault(offer.kind, (index, record.seat, offer.slot, answers))
    return found


#: every kind a seat may answer when it seals its plan, from the rules' own ``plan_ahead``
PLAN_KINDS = tuple(sorted(_plan_offers()))


@functools.cache
def _point(kind: str) -> tuple[int, int, str, int]:
    """The first moment a later seat may answer a decision of ``kind`` ahead and the script asks it that very
    decision later: (the record before which it answers, the seat, the slot, the record of its turn)."""
    records, states = _playout().records, _states()
    if kind in PLAN_KINDS:
        sealing, seat, slot, _answers = _plan_offers()[kind]
        turn = _turn(states, sealing + 1, seat, kind)
        assert turn is not None, f"the {kind} decision of the plan never comes"
        return sealing + 1, seat, slot, turn
    for index, state in enumerate(states):
        for later, decision in sorted(GAME.ahead(state).items()):
            if decision.kind != kind:
                continue
            turn = _turn(states, index, later, kind)
            if turn is not None:
                return index, later, decision.id, turn
    raise AssertionError(f"no {kind} answered ahead in the scripted game ({len(records)} records)")


def _turn(states: list[dict[str, Any]], index: int, later: int, kind: str) -> int | None:
    """The record at which ``later`` is asked its ``kind`` decision (the first asking it at or after ``index``)."""
    for turn in range(index, len(states)):
        decision = GAME.pending(states[turn]).get(later)
        if decision is not None:
            return turn if decision.kind == kind and _playout().records[turn].seat == later else None
    return None


async def _start(host: Host, channel: str) -> int:
    await without_shipped_orders(host, ALICE, BOB)  # every answer scripted, each asked as the rules ask it
    info = await host.create_game("g", channel, ALICE, "principes", {}, seed=SEED)
    await host.join(channel, BOB)
    await host.start(channel, ALICE, order="given")
    return info.game_id


async def _play(host: Host, game_id: int, upto: int, start: int = 0) -> list[Delivery]:
    delivered: list[Delivery] = []
    for record in _playout().records[start:upto]:
        delivered += await host.act(game_id, PLAYERS[record.seat], record.action)
    return delivered


async def _state(host: Host, game_id: int) -> Any:
    return (await host.games.load(game_id)).state


#: every kind answered ahead: a later turn of a queue (``/ahead``), or what a sealed plan implies (a click)
KINDS = (*AHEAD_KINDS, *PLAN_KINDS)


def _offered(kind: str) -> list[str]:
    """The answers the seat may give ahead for the decision of ``kind`` (as the host offers them)."""
    index, later, _slot, _turn = _point(kind)
    if kind in PLAN_KINDS:
        return list(_plan_offers()[kind][3])
    preview = GAME.ahead_state(_states()[index], later)
    assert preview is not None
    return GAME.legal_actions(preview, later)


async def _answer_ahead(host: Host, channel: str, game_id: int, kind: str, choices: list[str]) -> str:
    """The seat answers ahead as a player does: ``/ahead`` with its choices, or a click on the plan's offer."""
    _index, later, slot, _turn = _point(kind)
    if kind in PLAN_KINDS:
        (choice,) = choices
        return await host.answer_ahead_slot(game_id, PLAYERS[later], slot, choice)
    return await host.answer_ahead(channel, PLAYERS[later], ", ".join(choices))


def test_every_kind_comes_in_the_scripted_game() -> None:
    assert PLAN_KINDS  # the Taxes choice, at least
    assert {kind: _point(kind) for kind in KINDS}


@pytest.mark.parametrize("kind", KINDS)
async def test_an_answer_given_ahead_is_the_click_and_shows_to_nobody_else(
    host: Host, clock: Any, kind: str
) -> None:
    index, later, slot, turn = _point(kind)
    answer = _playout().records[turn].action
    assert answer in _offered(kind)
    ahead_game, clicked_game = await _start(host, "ahead-1"), await _start(host, "clicked-1")
    await _play(host, ahead_game, index)
    await _play(host, clicked_game, index)
    if kind in AHEAD_KINDS:
        assert await _state(host, ahead_game) == _states()[index]  # the host plays the scripted game
        assert GAME.ahead(await _state(host, ahead_game))[later].id == slot
    told = await _answer_ahead(host, "ahead-1", ahead_game, kind, [answer])
    assert "Answered ahead" in told
    # until its turn, nobody else gets anything the clicked game does not give them
    ahead_seen = await _play(host, ahead_game, turn, index)
    clicked_seen = await _play(host, clicked_game, turn, index)
    assert seen_by_others(ahead_seen, PLAYERS[later].user_id) == seen_by_others(
        clicked_seen, PLAYERS[later].user_id
    )
    assert await host.log("ahead-1", 500) == await host.log("clicked-1", 500)
    for seat in (1 - later, None):
        assert GAME.view(await _state(host, ahead_game), seat) == GAME.view(
            await _state(host, clicked_game), seat
        )
    assert await host.prompt_of(ahead_game, PLAYERS[later].user_id) is not None  # its turn: asked as usual
    # its turn: the answer is given (at the auto-pass's random moment), as the click
    clock.advance(121)  # both at the same moment (the deadlines that follow read the clock)
    clicked_seen = await host.act(clicked_game, PLAYERS[later], answer)
    fired = await host.fire_due_timers()
    assert any("your answer given ahead" in d.text and d.user_id == PLAYERS[later].user_id for d in fired)
    ahead_others = seen_by_others([d for d in fired if d.game_id == ahead_game], PLAYERS[later].user_id)
    clicked_others = seen_by_others(clicked_seen, PLAYERS[later].user_id)
    assert ahead_others == clicked_others  # then only what the click shows
    assert not any("ahead" in str(d[3]).lower() for d in ahead_others)
    # the same game: state, events, log; and it replays from its seed and stored actions
    assert await _state(host, ahead_game) == await _state(host, clicked_game) == _states()[turn + 1]
    ahead_events = [(e.seat, e.action, e.user_id) for e in await host.store.events(ahead_game, 0)]
    clicked_events = [(e.seat, e.action, e.user_id) for e in await host.store.events(clicked_game, 0)]
    assert ahead_events == clicked_events
    assert await host.log("ahead-1", 500) == await host.log("clicked-1", 500)
    replayed = start(GAME, len(PLAYERS), {}, SEED)  # the seed and the stored actions give the same game
    for seat, action, _user in ahead_events:
        if seat is not None:
            step(GAME, replayed, seat, action)
    assert replayed.state == await _state(host, ahead_game)


@pytest.mark.parametrize("kind", KINDS)
async def test_an_answer_no_longer_legal_leaves_the_player_asked_and_a_legal_second_is_given(
    host: Host, clock: Any, kind: str
) -> None:
    """The host keeps an answer given ahead as the seat's ``AHEAD`` order; the rules give its first choice still
    legal at its turn. A choice legal when answered but not at the turn (the earlier player took it) is skipped;
    with none left, the player is asked, no action given."""
    index, later, slot, turn = _point(kind)
    states = _states()
    offered = _offered(kind)
    legal = GAME.legal_actions(states[turn], later)
    gone = [action for action in offered if action not in legal]
    answer = _playout().records[turn].action
    assert answer in offered  # the script's answer could be given ahead
    game_id = await _start(host, "fallback-1")
    await _play(host, game_id, index)
    if gone:  # a choice legal when answered, no longer legal at the turn: answered as a player does
        await _answer_ahead(host, "fallback-1", game_id, kind, [gone[0]])
    else:  # no choice of this position is taken by the turn: an answer kept for the slot, not legal then
        await _answer_ahead(host, "fallback-1", game_id, kind, [answer])
        await _force_illegal(host, game_id, kind)
    await _play(host, game_id, turn, index)
    asked = await host.prompt_of(game_id, PLAYERS[later].user_id)
    assert asked is not None
    events = len(await host.store.events(game_id, 0))
    clock.advance(10_000)  # well past any auto-pass moment, short of the deadline
    fired = await host.fire_due_timers()
    assert not any("your answer given ahead" in d.text for d in fired)
    assert len(await host.store.events(game_id, 0)) == events  # no action given
    assert await _state(host, game_id) == states[turn]
    again = await host.prompt_of(game_id, PLAYERS[later].user_id)
    assert again is not None and again.decision_id == asked.decision_id  # asked as usual
    # the first choice illegal, a legal second: the second is given
    first = gone[0] if gone else _ILLEGAL
    fresh = await _start(host, "fallback-2")
    await _play(host, fresh, index)
    if gone and kind in AHEAD_KINDS:
        await _answer_ahead(host, "fallback-2", fresh, kind, [first, answer])
    else:  # a click on a plan's offer gives one choice: the order it keeps, with a first choice before it
        await _answer_ahead(host, "fallback-2", fresh, kind, [answer])
        await _force_illegal(host, fresh, kind, first, then=answer)
    await _play(host, fresh, turn, index)
    clock.advance(121)
    fired = await host.fire_due_timers()
    assert any("your answer given ahead" in d.text and d.user_id == PLAYERS[later].user_id for d in fired)
    assert await _state(host, fresh) == states[turn + 1]
    events_given = [(e.seat, e.action) for e in await host.store.events(fresh, 0)]
    assert events_given[-1] == (later, answer)


#: a well-formed answer no decision ever allows: kept as a first choice where the script takes none away
_ILLEGAL = "found nowhere"


async def _force_illegal(
    host: Host, game_id: int, kind: str, first: str = _ILLEGAL, then: str | None = None
) -> None:
    """Replace the seat's kept answer for the slot with ``first`` (and ``then`` after it), as the host keeps it
    (its ``AHEAD`` or ``AHEAD_PLAN`` order): for a position that takes no choice away by the turn."""
    _index, later, slot, _turn = _point(kind)
    key = AHEAD_PLAN if kind in PLAN_KINDS else AHEAD
    live = await host.games.load(game_id)
    assert live.orders[PLAYERS[later].user_id][key].names[0] == slot
    order = ahead_order(slot, [first, *([then] if then else [])])
    async with host.games.lock(live.id):
        await host.standing._put_ahead(live, PLAYERS[later].user_id, key, order)
