"""A player's own turn answered ahead, through the host (issue 47, Pace II; ``rules.engine.turn_ahead``,
``bot.hosting.turns``), for every kind of turn the rules offer (an own action of each kind that comes, Council
pledges, a Common Council's, the defender's card windows, a Period's new Prince, a Princess's draw at home, the
Princeps's direction, a Movement answered past its moves): enumerated from a scripted 3-player game.

Two host games on the same seed follow the same script: in one the later player answers its turn ahead, step by
step, by clicks on the offer's buttons; in the other it clicks the same answers when asked. Until its turn, nobody
else gets anything different (the channel, the other players' DMs, the views); then the answers are given at
the auto-pass's random moments, and the two games are the same game (state, events, log), which replays from
its seed and stored actions. An answer no longer legal at its turn leaves the player asked, and an answer of
its own instead of the one given ahead drops the rest."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from bot.host import Host
from bot.hosting.turns import read_step_slot, step_slot
from bot.models import Delivery, HostError
from rules.engine import Decision, ReplayRng, get_game
from rules.engine.pace import paced_play
from rules.engine.playout import Playout, start
from rules.engine.standing import MAX_TURN_STEPS, OFFERED, turn_key, turn_order, turn_steps
from rules.engine.turn_ahead import preview_after
from rules.principes.play.turn_ahead import OWN_ACTIONS
from tests.conftest import ALICE, BOB, CAROL
from tests.support.answered_ahead import (
    answer_by_clicks,
    assert_nothing_else_differs,
    assert_the_same_game,
    give_answers_ahead,
    play_records,
    start_scripted,
)
from tests.support.deliveries import seen_by_others

GAME = get_game("principes")
SEED = 14  # 3 players: every kind of turn comes in this game (own actions of each kind, Councils, battles)
PLAYERS = (ALICE, BOB, CAROL)


@functools.cache
def _playout() -> Playout:
    return paced_play(GAME, len(PLAYERS), SEED, "basic").playout


@functools.cache
def _states() -> list[dict[str, Any]]:
    """The state before each record of the scripted game."""
    state = start(GAME, len(PLAYERS), {}, SEED).state
    states = []
    for record in _playout().records:
        states.append(state)
        state = GAME.apply(state, record.seat, record.action, ReplayRng(list(record.draws))).state
    return [*states, state]


#: the families whose turn is one kind of decision (the others: "action <kind>", an own action's)
WHOLE = (
    "council",
    "common_council",
    "before_battle",
    "extra_cards",
    "prince_choice",
    "princess_draw",
    "direction",
)
#: a Movement's own choices after its moves and before any die (resolutions 11-13), still its action's turn
AFTER_MOVES = {"clergy_penalty", "destroy", "battle_order"}
PAST_MOVES = "action movement past its moves"
#: an own action offered to its player as it seals its plan, the others still planning (the seal kept out of the
#: host's state until the last one is in: the offer is made from the state with it applied)
AT_SEALING = "own action offered at sealing"


def _family(decision: Decision) -> str:
    """The family of a turn offered (the extra-card windows offered with Masovia's reroll come in 4-player games
    only: ``tests/rules/principes/test_turn_ahead.py``, and through the host ``test_turns_ahead_reroll.py``)."""
    return decision.kind if decision.kind in WHOLE else f"action {decision.kind}"


def _given_family(family: str, seat: int, turn: list[int], given: list[str]) -> str:
    """A Movement answered ahead past its moves into the mover's choices after them is a family of its own."""
    kinds = {GAME.pending(_states()[record])[seat].kind for record in turn[: len(given)]}
    return PAST_MOVES if family == "action movement" and kinds & AFTER_MOVES else family


def _sealed_now(index: int, seat: int) -> bool:
    """Whether the seat has just sealed its plan (the record before ``index``) while others still plan."""
    record = _playout().records[index - 1] if index else None
    return record is not None and record.seat == seat and record.action.startswith("plan ")


def _turn_records(seat: int, slot: str, after: int) -> list[int]:
    """The script's records of the seat's turn of ``slot`` (its decisions of that turn, in a row)."""
    records, states = _playout().records, _states()
    found: list[int] = []
    for index in range(after, len(records)):
        decision = GAME.pending(states[index]).get(seat)
        in_turn = (
            decision is not None and GAME.turn_slot(GAME.view(states[index], seat), seat, decision) == slot
        )
        if in_turn and records[index].seat == seat:
            found.append(index)
        elif found:
            break
    return found


def _steps(index: int, seat: int, slot: str, turn: list[int]) -> list[str]:
    """The script's answers of the turn that its preview at ``index`` lets the seat give ahead, first first."""
    preview = GAME.turn_ahead_state(_states()[index], seat, slot)
    given: list[str] = []
    for record in turn:
        action = _playout().records[record].action
        if (
            preview is None
            or action not in GAME.legal_actions(preview, seat)
            or GAME.is_free(preview, seat, action)
        ):
            break  # free actions are taken any time, not answered ahead
        given.append(action)
        preview = preview_after(GAME, preview, seat, slot, action)
    return given


@functools.cache
def _points() -> dict[str, tuple[int, int, str, list[int], list[str]]]:
    """Each kind of turn's first point where a later seat may answer it ahead and the script plays it with
    answers the preview lets it give: (record before which it answers, seat, slot, the turn's records, answers)."""
    found: dict[str, tuple[int, int, str, list[int], list[str]]] = {}
    for index, state in enumerate(_states()[:-1]):
        for seat, decision in sorted((s, d) for s, ds in GAME.turn_ahead(state).items() for d in ds[:1]):
            sealing = state["play"]["phase"] == "plan"
            if sealing and not _sealed_now(index, seat):
                continue  # an earlier sealer (the host holds no plan before the reveal): offered at its seal
            family = AT_SEALING if sealing else _family(decision)
            if family in found and (family != "action movement" or PAST_MOVES in found):
                continue
            turn = _turn_records(seat, decision.id, index)
            if not turn or GAME.auto_pass(_states()[turn[0]], seat) is not None:
                continue  # passed for it at its turn anyway
            given = _steps(index, seat, decision.id, turn)
            if given:
                found.setdefault(
                    _given_family(family, seat, turn, given), (index, seat, decision.id, turn, given)
                )
    return found


FAMILIES = (
    *WHOLE,
    *(f"action {kind}" for kind in OWN_ACTIONS),
    PAST_MOVES,
    AT_SEALING,
)


def _families() -> list[str]:
    """The families played by the generic test (the one offered at sealing has its own, the seal kept out of the
    host's state until the reveal)."""
    return [family for family in FAMILIES if family in _points() and family != AT_SEALING]


def test_the_scripted_game_offers_every_kind_of_turn() -> None:
    assert set(_points()) == set(FAMILIES)


async def _start(host: Host, channel: str) -> int:
    return await start_scripted(host, channel, "principes", PLAYERS, SEED)


async def _play(host: Host, game_id: int, upto: int, begin: int = 0) -> list[Delivery]:
    return await play_records(host, game_id, PLAYERS, _playout().records[begin:upto])


async def _state(host: Host, game_id: int) -> Any:
    return (await host.games.load(game_id)).state


async def _answer_steps(host: Host, game_id: int, seat: int, slot: str, given: list[str]) -> None:
    """The seat answers its turn ahead as a player does: the offer's buttons, then each next step's."""
    await answer_by_clicks(host, game_id, PLAYERS[seat], slot, given)


async def _given_in_turn(host: Host, clock: Any, game_id: int, count: int) -> list[Delivery]:
    """The answers given ahead, played one by one at the auto-pass's random moments."""
    return await give_answers_ahead(host, clock, game_id, count)


@pytest.mark.parametrize("family", _families())
async def test_a_turn_answered_ahead_is_the_clicks_and_shows_to_nobody_else(
    host: Host, clock: Any, family: str
) -> None:
    index, seat, slot, _turn, given = _points()[family]
    ahead_game, clicked_game = await _start(host, "ahead-1"), await _start(host, "clicked-1")
    await _play(host, ahead_game, index)
    await _play(host, clicked_game, index)
    assert await _state(host, ahead_game) == _states()[index]  # the host plays the scripted game
    await _answer_steps(host, ahead_game, seat, slot, given)
    await _the_turn_comes(
        host, clock, ("ahead-1", ahead_game), ("clicked-1", clicked_game), _points()[family]
    )


async def _the_turn_comes(
    host: Host,
    clock: Any,
    ahead: tuple[str, int],
    clicked: tuple[str, int],
    point: tuple[int, int, str, list[int], list[str]],
) -> None:
    """From ``point``'s record on, both games (channel, id) play the script; in ``ahead`` the seat has answered
    its turn ahead. Until the turn nobody else gets anything different; then the answers are given, as the clicks:
    the same game (state, events, log), which replays, and nothing of the turn is left to give."""
    index, seat, slot, turn, given = point
    (_, ahead_game), (_, clicked_game) = ahead, clicked
    ahead_seen = await _play(host, ahead_game, turn[0], index)
    clicked_seen = await _play(host, clicked_game, turn[0], index)
    await assert_nothing_else_differs(
        host, GAME, seat, (ahead_game, ahead_seen), (clicked_game, clicked_seen), PLAYERS
    )
    # the turn: each answer given ahead is given, as the click
    fired = await _given_in_turn(host, clock, ahead_game, len(given))
    await _play(host, clicked_game, turn[0] + len(given), turn[0])
    assert any("your answer given ahead" in d.text and d.user_id == PLAYERS[seat].user_id for d in fired)
    assert (
        await _state(host, ahead_game) == await _state(host, clicked_game) == _states()[turn[0] + len(given)]
    )
    await assert_the_same_game(host, GAME, SEED, len(PLAYERS), ahead, clicked)
    # used up: nothing of the turn is left to give
    live = await host.games.load(ahead_game)
    assert turn_steps(live.orders[PLAYERS[seat].user_id].get(turn_key(slot)), slot) == []


async def test_own_actions_are_offered_as_the_plan_is_sealed_and_given_after_the_reveal(
    host: Host, clock: Any
) -> None:
    """A seat sealing its plan while others still plan gets, with its seal, by private message, its plan's own
    actions to answer ahead: the host keeps the seal out of the state until the reveal, so the offer, its steps'
    clicks and /ahead read the state with it applied. The answers are given in turn after the reveal, as clicks."""
    index, seat, slot, _turn, given = _points()[AT_SEALING]
    user = PLAYERS[seat].user_id
    ahead_game, clicked_game = await _start(host, "sealing-1"), await _start(host, "sealing-2")
    await _play(host, ahead_game, index - 1)
    await _play(host, clicked_game, index - 1)
    sealed = await _play(host, ahead_game, index, index - 1)  # the seat seals its plan by its own click
    sealed_too = await _play(host, clicked_game, index, index - 1)
    assert seen_by_others(sealed, user) == seen_by_others(sealed_too, user)
    offers = [d for d in sealed if d.prompt is not None and d.prompt.decision_id == step_slot(slot, 0)]
    assert len(offers) == 1 and offers[0].user_id == user and offers[0].channel_id is None
    assert "of the plan you sealed" in offers[0].text and "step by step" in offers[0].text
    # before the reveal: the plan is still sealed in the host's state, the others still plan
    before = await _state(host, ahead_game)
    assert before["play"]["phase"] == "plan" and before["players"][_code(seat)]["plan"] is None
    assert seat in await host.games.sealed_for(await host.games.load(ahead_game))
    assert len(GAME.pending(before)) > 1  # the others still plan
    await _answer_steps(host, ahead_game, seat, slot, given)
    listed = await host.ahead_text("sealing-1", PLAYERS[seat])
    assert "of the plan you sealed" in listed and "Your answers given ahead, in order:" in listed
    with pytest.raises(HostError, match="already answered"):
        await host.answer_ahead_slot(ahead_game, PLAYERS[seat], step_slot(slot, 0), given[0])
    assert await _state(host, ahead_game) == before  # answered ahead: nothing played, nothing revealed
    await _the_turn_comes(
        host, clock, ("sealing-1", ahead_game), ("sealing-2", clicked_game), _points()[AT_SEALING]
    )


def _code(seat: int) -> str:
    return str(_states()[0]["seats"][seat])


async def test_the_offer_comes_by_private_message_with_a_wait_and_once(host: Host) -> None:
    """The seat whose turn came in sight gets the offer, alone, with a step that starts a wait; never twice."""
    index, seat, slot, turn, _given = _points()["action " + _first_action_kind()]
    game_id = await _start(host, "offer-1")
    delivered = await _play(host, game_id, turn[0])
    offers = [d for d in delivered if d.prompt is not None and d.prompt.decision_id == step_slot(slot, 0)]
    assert len(offers) == 1
    assert offers[0].user_id == PLAYERS[seat].user_id and offers[0].channel_id is None
    assert "step by step" in offers[0].text


def _first_action_kind() -> str:
    return next(family.split()[1] for family in _families() if family.startswith("action"))


async def test_an_old_step_button_and_a_foreign_slot_are_refused(host: Host) -> None:
    index, seat, slot, _turn, given = _points()["action " + _first_action_kind()]
    game_id = await _start(host, "stale-1")
    await _play(host, game_id, index)
    await _answer_steps(host, game_id, seat, slot, given[:1])
    with pytest.raises(Exception, match="already answered"):
        await host.answer_ahead_slot(game_id, PLAYERS[seat], step_slot(slot, 0), given[0])
    with pytest.raises(Exception, match="no longer upcoming"):
        await host.answer_ahead_slot(game_id, PLAYERS[seat], step_slot("turn-r9-I-XYZ", 0), given[0])
    other = next(s for s in range(len(PLAYERS)) if s != seat)
    with pytest.raises(Exception):  # noqa: B017 - whatever the sentence, another seat's turn is refused
        await host.answer_ahead_slot(game_id, PLAYERS[other], step_slot(slot, 1), given[0])


@pytest.mark.parametrize("family", _families()[:3])
async def test_an_answer_no_longer_legal_leaves_the_player_asked(host: Host, clock: Any, family: str) -> None:
    index, seat, slot, turn, given = _points()[family]
    game_id = await _start(host, "fallback-1")
    await _play(host, game_id, index)
    await _answer_steps(host, game_id, seat, slot, given)
    live = await host.games.load(game_id)
    kind = GAME.pending(_states()[turn[0]])[seat].kind
    async with host.games.lock(game_id):  # a first answer its turn no longer allows (legal when given)
        await host.standing._put_ahead(
            live, PLAYERS[seat].user_id, turn_key(slot), turn_order(slot, [(kind, "found nowhere")])
        )
    await _play(host, game_id, turn[0], index)
    events = len(await host.store.events(game_id, 0))
    clock.advance(130)  # past any answer given ahead's random moment, short of a card window's deadline
    fired = await host.fire_due_timers()
    assert not any("your answer given ahead" in d.text for d in fired)
    assert len(await host.store.events(game_id, 0)) == events
    assert await _state(host, game_id) == _states()[turn[0]]
    assert await host.prompt_of(game_id, PLAYERS[seat].user_id) is not None


async def test_an_answer_of_its_own_drops_the_rest(host: Host, clock: Any) -> None:
    family = next(f for f in _families() if len(_points()[f][4]) >= 2)
    index, seat, slot, turn, given = _points()[family]
    game_id = await _start(host, "own-1")
    await _play(host, game_id, index)
    await _answer_steps(host, game_id, seat, slot, given)
    await _play(host, game_id, turn[0], index)
    legal = GAME.legal_actions(_states()[turn[0]], seat)
    other = next(a for a in legal if a != given[0] and not GAME.is_free(_states()[turn[0]], seat, a))
    await host.act(game_id, PLAYERS[seat], other)
    live = await host.games.load(game_id)
    assert live.orders[PLAYERS[seat].user_id][turn_key(slot)].choice == OFFERED


async def test_a_turn_keeps_at_most_max_turn_steps_answers(host: Host) -> None:
    """A turn answered ahead keeps at most ``MAX_TURN_STEPS`` answers (a Movement's moves and takebacks could
    go on forever): past them nothing more is offered or taken, and the rest is asked when the turn comes."""
    index, seat, slot, _turn, given = _points()["action " + _first_action_kind()]
    game_id = await _start(host, "cap-1")
    await _play(host, game_id, index)
    live = await host.games.load(game_id)
    kind = GAME.turn_ahead(_states()[index])[seat][0].kind
    full = turn_order(slot, [(kind, given[0])] * MAX_TURN_STEPS)
    async with host.games.lock(game_id):
        await host.standing._put_ahead(live, PLAYERS[seat].user_id, turn_key(slot), full)
    step = await host.turn_step_prompt(game_id, PLAYERS[seat])
    assert step is None or read_step_slot(step.decision_id) != (slot, MAX_TURN_STEPS)
    with pytest.raises(HostError, match="cannot be answered ahead"):
        await host.answer_ahead_slot(game_id, PLAYERS[seat], step_slot(slot, MAX_TURN_STEPS), given[0])
