"""Answers given when a plan is sealed (issue 18): a PRINCIPES seat that seals a plan with Taxes is offered,
privately, to answer the Taxes choice now; the answer is given as its click when its Taxes action comes (at the
auto-pass's random moment), the game being the one in which it clicked "collect" when asked. The answer is kept
apart from the answer given with ``/ahead`` (neither replaces the other), and nobody else learns of it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.host import Host, HostError
from bot.models import AHEAD_KIND, Actor, Delivery
from rules.engine import Decision, Game, State
from rules.engine.rng import NoChance
from rules.engine.standing import AHEAD, AHEAD_PLAN
from rules.principes import Principes
from rules.principes.play.common import Ctx, principality_of, prompt
from tests.conftest import ALICE, BOB

SEED = 1
ALICE_PLAN = "plan assembly building taxes"  # Taxes is alice's Action III
BOB_PLAN = "plan assembly building politics"
SLOT = "r1:taxes"
MAX_STEPS = 60


async def _start(host: Host, channel: str) -> int:
    info = await host.create_game("g", channel, ALICE, "principes", {}, seed=SEED)
    await host.join(channel, BOB)
    await host.start(channel, ALICE, order="given")
    return info.game_id


def _answer(kind: str, seat: int, actions: list[str]) -> str:
    """The script both games follow: fixed plans, clockwise, otherwise the shortest way on."""
    if kind == "plan":
        return (ALICE_PLAN, BOB_PLAN)[seat]
    if kind == "direction":
        return "direction cw"
    return next((word for word in ("pass", "done", "keep", "deny") if word in actions), actions[0])


async def _open(host: Host, game_id: int) -> tuple[int, Decision] | None:
    """The first seat the game waits for (a seat whose sealed choice is in waits for the others)."""
    live = await host.games.load(game_id)
    sealed = await host.games.sealed_for(live)
    waiting = [(s, d) for s, d in sorted(live.game.pending(live.state).items()) if s not in sealed]
    return waiting[0] if waiting else None


async def _play_until(host: Host, game_id: int, stop: Any, seen: list[Delivery] | None = None) -> Decision:
    """Answer by the script until ``stop(seat, decision)`` holds for the decision the game waits for."""
    for _ in range(MAX_STEPS):
        found = await _open(host, game_id)
        assert found is not None, "the game stopped waiting"
        seat, decision = found
        if stop(seat, decision):
            return decision
        player = (ALICE, BOB)[seat]
        offered = await host.prompt_of(game_id, player.user_id)
        assert offered is not None
        action = _answer(decision.kind, seat, [choice.action for choice in offered.choices])
        delivered = await host.act(game_id, player, action, decision.id)
        if seen is not None:
            seen += delivered
    raise AssertionError(f"no stop within {MAX_STEPS} decisions")


def _is_plan(seat: int, decision: Decision) -> bool:
    return decision.kind == "plan"


def _alice_taxes(seat: int, decision: Decision) -> bool:
    return seat == 0 and decision.kind == "taxes"


def _offers(deliveries: list[Delivery]) -> list[Delivery]:
    return [d for d in deliveries if d.prompt is not None and d.prompt.kind == AHEAD_KIND]


def _leaks(deliveries: list[Delivery], owner: Actor) -> list[str]:
    """Texts anyone but ``owner`` gets that speak of an answer given ahead or of Taxes to come."""
    words = ("ahead", "taxes action", "collect when")
    found = []
    for delivery in deliveries:
        if delivery.user_id == owner.user_id:
            continue
        texts = [delivery.text] + (
            [delivery.prompt.text, *(c.label for c in delivery.prompt.choices)] if delivery.prompt else []
        )
        found += [text for text in texts if any(word in text.lower() for word in words)]
    return found


async def test_taxes_answered_at_sealing_is_the_click_when_the_action_comes(host: Host, clock) -> None:
    host.autopass_rng.seed(5)
    ahead = await _start(host, "sealed-taxes-1")
    seen: list[Delivery] = []
    await _play_until(host, ahead, _is_plan, seen)
    sealing = await host.act(ahead, ALICE, ALICE_PLAN, "plan-r1")
    # with her plan's own actions offered ahead (``test_turns_ahead``), the Taxes choice comes by its own message
    (offer,) = [d for d in _offers(sealing) if d.prompt is not None and d.prompt.decision_id == SLOT]
    assert offer.user_id == ALICE.user_id and offer.kind == "private" and offer.view is None
    assert offer.prompt is not None
    assert [c.action for c in offer.prompt.choices][0] == "collect" and offer.prompt.choices[
        -1
    ].action == "ask"
    assert "Taxes action (Action III)" in offer.text
    told = await host.answer_ahead_slot(ahead, ALICE, SLOT, "collect")
    assert "Answered ahead" in told and "Collect when your Taxes action comes" in told
    assert "Your answer given ahead: Collect" in await host.ahead_text("sealed-taxes-1", ALICE)
    with pytest.raises(HostError, match="no longer upcoming"):
        await host.answer_ahead_slot(ahead, BOB, SLOT, "collect")  # bob's plan has no Taxes: nothing of his
    seen += sealing
    before_taxes = len(seen)
    taxes = await _play_until(host, ahead, _alice_taxes, seen)
    asked = [d.text for d in seen[before_taxes:] if d.user_id == ALICE.user_id and "Taxes:" in d.text]
    assert any("Your answer given ahead answers this in a moment: Collect" in text for text in asked), asked
    assert not any("standing order answers this" in text for text in asked)
    gold = (await host.games.load(ahead)).state["players"]["PMA"]["gold"]
    due = await host.next_timer_due()
    assert due is not None and clock.now + 20 <= due <= clock.now + 120  # the auto-pass's random moment
    clock.advance(120)
    fired = await host.fire_due_timers()
    notes = [d for d in fired if "answered by your answer given ahead" in d.text]
    assert len(notes) == 1 and notes[0].user_id == ALICE.user_id
    answered = await host.games.load(ahead)
    assert answered.state["players"]["PMA"]["gold"] > gold
    assert (await _open(host, ahead)) != (0, taxes)
    with pytest.raises(HostError, match="no longer upcoming"):  # a stale button: the action has come and gone
        await host.answer_ahead_slot(ahead, ALICE, SLOT, "ask")
    seen += fired
    assert not _leaks(seen, ALICE), _leaks(seen, ALICE)
    assert "ahead" not in json.dumps(await host.export_game(ahead)).lower()

    # the same game with alice clicking "collect" when asked
    clicked = await _start(host, "sealed-taxes-2")
    await _play_until(host, clicked, _alice_taxes)
    await host.act(clicked, ALICE, "collect")
    assert (await host.games.load(clicked)).state == answered.state
    events = [(e.seat, e.action, e.user_id) for e in await host.store.events(ahead, 0)]
    assert events == [(e.seat, e.action, e.user_id) for e in await host.store.events(clicked, 0)]
    assert (0, "collect", ALICE.user_id) in events  # alice's own move (so /undo treats it as hers)
    assert await host.replay_state(ahead) == answered.state


def _queued_turn(state: State) -> bool:
    """A stand-in queue (see below): while alice's Taxes is still to come and someone else is asked."""
    play = state.get("play")
    return bool(
        play is not None
        and play["phase"] == "actions"
        and len(play["revealed"]["PMA"]) < 3
        and 0 not in Principes().pending(state)
    )


QUEUED = Decision("r1:queue:test", "direction", "A turn of yours in a queue (a test's stand-in).")


def _ahead(self: Principes, state: State) -> dict[int, Decision]:
    return {0: QUEUED} if _queued_turn(state) else {}


def _ahead_state(self: Principes, state: State, seat: int) -> State | None:
    if seat != 0 or not _queued_turn(state):
        return None
    preview = Game.copy_state(state)
    prompt(
        Ctx(preview, NoChance()),
        principality_of(state, seat),
        QUEUED.kind,
        QUEUED.prompt,
        decision_id=QUEUED.id,
    )
    return preview


async def test_taxes_answered_at_sealing_survives_a_later_answer_given_ahead(
    host: Host, clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alice seals last (the plans are revealed with her seal), answers the Taxes choice, then answers ahead, with
    /ahead and with a click, a queued turn that comes before her Taxes: both answers are kept, each for its own
    decision. (No queue of the rules comes mid-Round in this game, so a stand-in queue asks alice ahead.)"""
    monkeypatch.setattr(Principes, "ahead", _ahead)
    monkeypatch.setattr(Principes, "ahead_state", _ahead_state)
    host.autopass_rng.seed(5)
    game_id = await _start(host, "sealed-taxes-3")
    await _play_until(host, game_id, _is_plan)
    await host.act(game_id, BOB, BOB_PLAN, "plan-r1")
    sealing = await host.act(game_id, ALICE, ALICE_PLAN, "plan-r1")  # the last seal reveals both plans
    (offer,) = _offers([d for d in sealing if d.prompt is None or d.prompt.decision_id == SLOT])
    assert offer.user_id == ALICE.user_id
    await host.answer_ahead("sealed-taxes-3", ALICE, "collect")  # /ahead collect, for the plan's Taxes
    shown = await host.ahead_text("sealed-taxes-3", ALICE)
    assert "coming to you" in shown and "Your answer given ahead: Collect" in shown
    assert "Answered ahead" in await host.answer_ahead("sealed-taxes-3", ALICE, "direction ccw")
    assert "Answered ahead" in await host.answer_ahead_slot(game_id, ALICE, QUEUED.id, "direction cw")
    orders = (await host.games.load(game_id)).orders[ALICE.user_id]
    assert orders[AHEAD].names == (QUEUED.id, "direction cw")
    assert orders[AHEAD_PLAN].names == (SLOT, "collect")
    await _play_until(host, game_id, _alice_taxes)
    clock.advance(120)
    fired = await host.fire_due_timers()
    assert [d.user_id for d in fired if "answered by your answer given ahead" in d.text] == [ALICE.user_id]
    events = [(e.seat, e.action) for e in await host.store.events(game_id, 0)]
    assert events[-1] == (0, "collect")


async def test_changing_ones_mind_and_nobody_else_sees_the_answer(host: Host, clock) -> None:
    game_id = await _start(host, "sealed-taxes-4")
    await _play_until(host, game_id, _is_plan)
    sealing = await host.act(game_id, ALICE, ALICE_PLAN, "plan-r1")
    assert not _leaks(sealing, ALICE)
    await host.answer_ahead_slot(game_id, ALICE, SLOT, "collect")
    assert "you are asked when your Taxes action" in await host.answer_ahead_slot(game_id, ALICE, SLOT, "ask")
    with pytest.raises(HostError, match="does not answer"):
        await host.answer_ahead_slot(game_id, ALICE, SLOT, "done")
    with pytest.raises(HostError, match="no longer upcoming"):
        await host.answer_ahead_slot(game_id, ALICE, "r1:text:forged", "collect")
    await host.answer_ahead("sealed-taxes-4", ALICE, "collect")  # and back again, with /ahead
    # bob sees nothing of it: his hand, his /ahead, his view, the public board
    bob_hand = await host.hand("sealed-taxes-4", BOB)
    assert "collect" not in bob_hand.text.lower() and "ahead" not in json.dumps(bob_hand.view).lower()
    assert "collect" not in (await host.ahead_text("sealed-taxes-4", BOB)).lower()
    board = await host.board("sealed-taxes-4")
    assert "ahead" not in json.dumps(board.view).lower() and "collect" not in board.text.lower()
    delivered = await host.act(game_id, BOB, BOB_PLAN, "plan-r1")
    assert not _leaks(delivered, ALICE)
    await _play_until(host, game_id, _alice_taxes)  # bob's own turns pass by; the answer waits for alice's
    clock.advance(120)
    fired = await host.fire_due_timers()
    assert not _leaks(fired, ALICE)
    assert (await host.store.events(game_id, 0))[-1].action == "collect"
