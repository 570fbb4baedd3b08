"""Whole 4-player PRINCIPES games with standing orders and answers given ahead (issue 47): every DM that says an
order or an answer given ahead "answers this in a moment" is followed, within the automatic pass's random moment
(at most 120 s), by that seat's answer. The players answer every other decision themselves (the basic AI picks),
answer ahead whatever they are asked ahead, and the injected clock jumps to each timer."""

from __future__ import annotations

import random

import pytest

from bench.bench_pace import TYPICAL_ORDERS
from bot.host import Host, HostError
from bot.hosting.core import AUTOPASS_DELAY
from bot.models import AHEAD_KIND, Actor, Delivery
from rules.engine.standing import ASK
from tests.conftest import ALICE, BOB, CAROL

DAVE = Actor("400", "dave")
PLAYERS = (ALICE, BOB, CAROL, DAVE)
ANNOUNCED = "answers this in a moment"
MAX_STEPS = 6000


async def _start(host: Host, channel: str, seed: int) -> tuple[int, list[Delivery]]:
    info = await host.create_game("g", channel, ALICE, "principes", {}, seed=seed)
    for player in PLAYERS[1:]:
        await host.join(channel, player)
    started = await host.start(channel, ALICE, order="given")
    for player in PLAYERS:
        for topic, order in TYPICAL_ORDERS["principes"].items():
            await host.set_order(channel, player, topic, order.choice, ",".join(order.names))
    return info.game_id, started


def _announced(
    deliveries: list[Delivery], announced: dict[tuple[int, str], tuple[float, int]], now: float, events: int
) -> int:
    """Note each DM that says an order or an answer given ahead answers its decision in a moment."""
    count = 0
    for delivery in deliveries:
        if delivery.kind == "private" and ANNOUNCED in delivery.text and delivery.prompt is not None:
            announced.setdefault((delivery.seat or 0, delivery.prompt.decision_id), (now, events))
            count += 1
    return count


async def _answer_ahead(host: Host, game_id: int, deliveries: list[Delivery], rng: random.Random) -> None:
    """Answer most offers to answer ahead with one of their answers, as a click would."""
    by_user = {player.user_id: player for player in PLAYERS}
    for delivery in deliveries:
        prompt = delivery.prompt
        if delivery.kind != "private" or prompt is None or prompt.kind != AHEAD_KIND:
            continue
        answers = [c.action for c in prompt.choices if c.action != ASK]
        if answers and rng.random() < 0.8:
            try:
                await host.answer_ahead_slot(
                    game_id, by_user[delivery.user_id or ""], prompt.decision_id, rng.choice(answers)
                )
            except HostError:  # the slot may have come and gone since the offer
                pass


async def _play(host: Host, clock, channel: str, seed: int) -> tuple[int, int]:
    """Play one whole game; returns (announcements, answered in time). Fails on an announcement not kept."""
    rng = random.Random(seed)
    start = clock.now
    game_id, deliveries = await _start(host, channel, seed)
    #: (seat, decision id) -> (the moment it was announced, the number of events then)
    announced: dict[tuple[int, str], tuple[float, int]] = {}
    kept = total = 0
    for _ in range(MAX_STEPS):
        live = await host.games.load(game_id)
        events = len(await host.store.events(game_id, 0))
        total += _announced(deliveries, announced, clock.now, events)
        await _answer_ahead(host, game_id, deliveries, rng)
        deliveries = []
        if live.row["status"] != "active":
            break
        for player in PLAYERS:  # an answer given ahead later than its offer, or changed, now and then
            if rng.random() < 0.5:
                for prompt in await host.ahead_prompts(channel, player):
                    choice = rng.choice([c.action for c in prompt.choices])
                    await host.answer_ahead_slot(game_id, player, prompt.decision_id, choice)
        pending = live.game.pending(live.state)
        sealed = await host.games.sealed_for(live)
        # an announced decision the clock has gone past without its answer: the fault
        for (seat, decision_id), (when, seen) in list(announced.items()):
            decision = pending.get(seat)
            answered = any(e.seat == seat for e in (await host.store.events(game_id, 0))[seen:])
            if answered or decision is None or decision.id != decision_id or seat in sealed:
                kept += 1
                del announced[(seat, decision_id)]
                continue
            assert clock.now <= when + AUTOPASS_DELAY[1] + 1, (
                f"game {game_id} (seed {seed}): seat {seat}'s {decision.kind} ({decision_id}) was announced "
                f"as answered in a moment at {when - start:.0f} s, still open at "
                f"{clock.now - start:.0f} s"
            )
        open_seats = [s for s in sorted(pending) if s not in sealed and (s, pending[s].id) not in announced]
        if open_seats:
            seat = open_seats[0]
            legal = live.game.legal_actions(live.state, seat)
            action = live.game.choose_action(
                live.game.view(live.state, seat), seat, legal, "basic", random.Random(rng.random())
            )
            deliveries = await host.act(game_id, PLAYERS[seat], action)
            continue
        due = await host.next_timer_due()
        assert due is not None, "the game waits with no timer"
        clock.now = max(clock.now, due)
        deliveries = await host.fire_due_timers()
    else:
        raise AssertionError(f"game {game_id} did not end in {MAX_STEPS} steps")
    return total, kept


@pytest.mark.whole_game
@pytest.mark.parametrize("seed", [5, 11, 17, 23])
async def test_every_announced_automatic_answer_is_given(host: Host, clock, seed: int, backend: str) -> None:
    if backend != "sqlite":
        pytest.skip("one backend is enough for whole games")
    host.autopass_rng.seed(seed)
    total, kept = await _play(host, clock, f"pace-{seed}", seed)
    assert total > 0 and kept >= 1
