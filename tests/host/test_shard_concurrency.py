"""Two host processes (two ``Host`` objects, each with its own connections) on one database, as sharded bot
processes run: an action is stored once, a deadline fires once, an outbox row is posted by one process."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.host import Host, HostError
from bot.storage import CLAIM_LEASE_S
from tests.conftest import ALICE, BOB

GAMES = 4


@pytest.fixture
async def pair(database: str, clock) -> AsyncIterator[tuple[Host, Host]]:
    """Shard 0's process and shard 1's process."""
    first = await Host.open(database, clock=clock, worker="shards-0")
    second = await Host.open(database, clock=clock, worker="shards-1")
    yield first, second
    await first.close()
    await second.close()


async def _babylone(host: Host, channel: str) -> int:
    info = await host.create_game("guild", channel, ALICE, "babylone", {"first": "1"})
    await host.join(channel, BOB)
    await host.start(channel, ALICE, order="given")
    return info.game_id


def _meet_before_storing(hosts: tuple[Host, ...]) -> None:
    """Make every host wait for the others between computing its change and storing it, so all of them compute
    from the same stored version: the race the version guard must settle."""
    barrier = asyncio.Barrier(len(hosts))
    for host in hosts:
        original = host.games.store_change

        async def store_after_meeting(live, after, change, original=original) -> None:
            await barrier.wait()
            await original(live, after, change)

        host.games.store_change = store_after_meeting  # type: ignore[method-assign]


async def test_one_action_from_two_processes_is_stored_once(pair: tuple[Host, Host]) -> None:
    """The same button pressed through shard 0 (a DM) and through shard 1 (the guild): exactly one applies."""
    first, second = pair
    game_id = await _babylone(first, "race")
    for delivery in await first.pending_deliveries():
        await first.mark_sent(delivery.id)
    prompt = await first.prompt_of(game_id, ALICE.user_id)
    _meet_before_storing(pair)
    results = await asyncio.gather(
        first.act(game_id, ALICE, prompt.choices[0].action, prompt.decision_id),
        second.act(game_id, ALICE, prompt.choices[1].action, prompt.decision_id),
        return_exceptions=True,
    )
    stored = [r for r in results if isinstance(r, list)]
    refused = [r for r in results if isinstance(r, HostError)]
    assert len(stored) == 1 and len(refused) == 1, results
    assert "changed at the same moment" in str(refused[0])
    events = await second.store.events(game_id)
    assert len(events) == 2 and events[1].action in (prompt.choices[0].action, prompt.choices[1].action)
    outbox = await second.store.unsent_outbox()
    assert [i for i, _ in outbox] == [d.id for d in stored[0]]  # the refused action left no message behind
    # both processes now see the one stored move, and the refused one may act again on the new state
    assert (await first.games.load(game_id)).state == (await second.games.load(game_id)).state
    assert (await first.game_info(game_id)).pending_users == [BOB.user_id]


async def test_racing_processes_play_a_whole_game_without_a_doubled_event(pair: tuple[Host, Host]) -> None:
    """Both processes keep answering whatever the game waits for; every refusal is clean and the stored game
    equals the replay of its events."""
    first, second = pair
    game_id = await _babylone(first, "long-race")
    applied = refused = 0
    for _ in range(200):
        info = await first.game_info(game_id)
        if info.status != "active":
            break
        actor = ALICE if info.pending_users[0] == ALICE.user_id else BOB
        prompt = await first.prompt_of(game_id, actor.user_id)
        choice = prompt.choices[0].action
        results = await asyncio.gather(
            first.act(game_id, actor, choice, prompt.decision_id),
            second.act(game_id, actor, choice, prompt.decision_id),
            return_exceptions=True,
        )
        assert all(isinstance(r, (list, HostError)) for r in results), results
        applied += sum(isinstance(r, list) for r in results)
        refused += sum(isinstance(r, HostError) for r in results)
        assert sum(isinstance(r, list) for r in results) == 1
    assert (await first.game_info(game_id)).status == "finished"
    events = await first.store.events(game_id)
    assert len(events) == applied + 1 and refused == applied
    assert [e.seq for e in events] == list(range(len(events)))
    assert await first.replay_state(game_id) == (await second.games.load(game_id)).state


async def test_two_timer_loops_fire_each_deadline_once(pair: tuple[Host, Host], sealed_game, clock) -> None:
    first, second = pair
    game_ids = []
    for number in range(GAMES):
        channel = f"timers-{number}"
        info = await first.create_game("g", channel, ALICE, sealed_game.key, {}, deadline_hours=10)
        await first.join(channel, BOB)
        await first.start(channel, ALICE, order="given")
        await first.act(info.game_id, ALICE, "pick 2")
        game_ids.append(info.game_id)
    clock.advance(7.5 * 3600)
    reminders = await asyncio.gather(first.fire_due_timers(), second.fire_due_timers())
    assert sorted(d.game_id for d in reminders[0] + reminders[1]) == game_ids  # one reminder per game
    clock.advance(2.5 * 3600)
    fired = await asyncio.gather(first.fire_due_timers(), second.fire_due_timers())
    expired = [d for d in fired[0] + fired[1] if "deadline passed" in d.text]
    assert sorted(d.game_id for d in expired) == game_ids
    for game_id in game_ids:  # the default was applied once: one round, bob's pick being the default 1
        events = await first.store.events(game_id)
        assert [e.action for e in events[1:]] == ["pick 2", "pick 1"]
    assert await first.fire_due_timers() == [] and await second.fire_due_timers() == []


async def test_a_lapsed_timer_claim_still_fires_once(pair: tuple[Host, Host], clock) -> None:
    """Shard 0's process claims a reminder and a deadline and stalls; after its lease the other process fires
    them; when the first one wakes up and fires its copies, the rows are gone and nothing more happens. (Neither
    timer changes the decision, so only the deletion of the timer with its effect tells the copies apart.)"""
    first, second = pair
    game_id = await _babylone(first, "stall")  # Babylone has no default move: a deadline offers a claim
    clock.advance(24 * 3600)
    stalled = await first.store.claim_due_timers(first.worker, clock())
    assert sorted(t["kind"] for t in stalled) == ["deadline", "reminder"]
    assert await second.fire_due_timers() == []  # held by the first process
    clock.advance(CLAIM_LEASE_S)
    fired = await second.fire_due_timers()
    assert [d.text.split(":")[0] for d in fired] == [
        "Reminder",
        "alice let the deadline pass. Claim the game, keep waiting, or let the AI play the seat?",
    ]
    late = []
    for timer in stalled:
        try:
            late += await first.deadlines._fire(timer)
        except HostError:
            pass
    assert late == []
    seats = await first.store.fetchall(
        "SELECT missed, away FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    assert [tuple(row) for row in seats] == [(1, 0), (0, 0)]  # one missed deadline, not two (two: the AI)
    assert len(await first.store.events(game_id)) == 1


async def test_outbox_rows_go_to_the_process_that_wrote_them_until_their_lease_ends(
    pair: tuple[Host, Host], clock
) -> None:
    first, second = pair
    game_id = await _babylone(first, "outbox")
    for delivery in await first.pending_deliveries():
        await first.mark_sent(delivery.id)
    prompt = await first.prompt_of(game_id, ALICE.user_id)
    written = await first.act(game_id, ALICE, prompt.choices[0].action, prompt.decision_id)
    assert written and await second.pending_deliveries() == []  # the writer posts them
    clock.advance(CLAIM_LEASE_S)  # the writer died without posting: the other process takes them over
    taken = await second.pending_deliveries()
    assert [d.id for d in taken] == [d.id for d in written]
    assert await first.pending_deliveries() == []  # now held by the second process
    for delivery in taken:
        await second.mark_sent(delivery.id)
    clock.advance(CLAIM_LEASE_S)
    assert await first.pending_deliveries() == [] and await second.pending_deliveries() == []
