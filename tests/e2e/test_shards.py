"""Two bot processes' worth of clients over two gateway shards, one PostgreSQL and the fake Discord.

Each "process" is a real ``PrincesBot`` (discord.py's ``AutoShardedBot``) with its own shard, its own ``Host``
and connection pool, its own worker name and its own deadline and outbox loops. Guild A lives on shard 0, guild B
on shard 1. A game is played in each guild; guild B's players answer by DM, so their clicks reach shard 0's
process, which acts on guild B's game. Shard 1's process stores a move and "dies" before posting it: shard 0's
process posts it once the claim has lapsed. Then both deadline loops wake up at once. At the end every outbox row
was posted exactly once, by one process, and the fake Discord holds exactly those messages.

A second test runs the same kind of play over two real OS processes (``python -m bot run`` with SHARD_COUNT and
SHARD_IDS), which the test can only watch from outside: through the fake Discord and the database.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import discord
import pytest

from bot.config import Config
from bot.discord.app import PrincesBot, ShardedPrincesBot, create_bot
from bot.host import Host
from bot.models import Actor, Delivery
from bot.storage import CLAIM_LEASE_S
from tests.e2e.conftest import ActsAsUsers, Clock
from tests.e2e.fake_discord import (
    BOT_LAUNCHER,
    FakeDiscord,
    FakeMessage,
    FakeUser,
    InteractionRecord,
    shard_of,
)

SHARDS = 2
#: seconds an answer, or the quiet after it, may take (the machine may be busy)
SETTLE_S = 30.0
#: PostgreSQL only (skipped with the storage suite's notice when no test cluster is configured)
ON_POSTGRESQL = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


@dataclass
class Process:
    """One bot process: its shard, host, client and what it did."""

    shard: int
    host: Host
    bot: PrincesBot
    connection: asyncio.Task[None] | None = None
    posted: list[int] = field(default_factory=list)
    interactions: list[int] = field(default_factory=list)


async def _start_process(fake: FakeDiscord, database: str, clock: Clock, shard: int) -> Process:
    config = Config(
        discord_token=fake.token,
        database_path="unused.sqlite3",
        dev_guild_id=None,
        database_url=database,
        shard_count=SHARDS,
        shard_ids=(shard,),
    )
    host = await Host.open(config.database, clock=clock, worker=config.worker)
    bot = create_bot(host, config, guild_ready_timeout=0.01)
    process = Process(shard, host, bot)
    sender_done = bot.sender._done

    async def done(
        delivery: Delivery, posted: str | None = None
    ) -> None:  # every delivery this process posted
        process.posted.append(delivery.id)
        await sender_done(delivery, posted)

    async def on_interaction(interaction: discord.Interaction) -> None:
        process.interactions.append(interaction.id)

    bot.sender._done = done  # type: ignore[method-assign]
    bot.add_listener(on_interaction)
    await bot.login(fake.token)
    process.connection = asyncio.create_task(bot.connect(reconnect=False))
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    await bot.wait_idle()
    return process


async def _stop_process(process: Process) -> None:
    errors = list(process.bot.unexpected_errors)
    await process.bot.close()
    if process.connection is not None:
        try:
            await asyncio.wait_for(process.connection, 5)
        except (asyncio.CancelledError, discord.ConnectionClosed):
            pass
    await process.host.close()
    assert not errors, f"unexpected errors in shard {process.shard}'s process: {errors!r}"


@dataclass
class Cluster(ActsAsUsers):
    """The fake Discord with a guild on each shard, and the bot processes serving them."""

    fake: FakeDiscord
    clock: Clock
    #: a host on the same database, for reading whom a game waits for
    reader: Host
    guild_a: int
    guild_b: int
    channel_a: int
    channel_b: int
    #: bots running in this test process (their activity can be awaited); empty for OS processes
    processes: list[Process] = field(default_factory=list)

    async def settle(self, record: InteractionRecord | None = None) -> None:
        """Wait for the answer to ``record`` and for everything it caused."""
        if record is not None:
            await asyncio.wait_for(record.responded.wait(), SETTLE_S)
        if self.processes:
            for process in self.processes:
                await process.bot.wait_idle()
            return
        if record is not None:  # a slow answer is deferred first ("thinking..."): wait for the real one
            await self.fake.wait_for(lambda: not any(m.loading for m in self.fake.replies(record)), SETTLE_S)
        await self._quiet()

    async def wait_for_events(self, game_id: int, count: int) -> None:
        """Until the game has ``count`` events (the setup included), then quiet: a deferred click answers
        before its move is stored."""
        deadline = asyncio.get_running_loop().time() + SETTLE_S
        while len(await self.reader.store.events(game_id)) < count:
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError(f"game {game_id} did not reach {count} events")
            await asyncio.sleep(0.05)
        if not self.processes:
            await self._quiet()

    async def _quiet(self) -> None:
        """Other OS processes: until the outbox is empty and the fake Discord saw no request for a moment."""
        deadline = asyncio.get_running_loop().time() + SETTLE_S
        seen = -1
        while asyncio.get_running_loop().time() < deadline:
            unsent = await self.reader.store.fetchone("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
            if unsent[0] == 0 and seen == len(self.fake.requests):
                return
            seen = len(self.fake.requests)
            await asyncio.sleep(0.15)
        raise TimeoutError("the bot processes did not settle")

    async def turn_of(self, players: list[FakeUser], game_id: int) -> FakeUser | None:
        """Whom the game waits for (None once it is over), as the database says."""
        info = await self.reader.game_info(game_id)
        if info.status != "active":
            return None
        return next(p for p in players if str(p.id) == info.pending_users[0])


@asynccontextmanager
async def _guilds_on_two_shards(fake: FakeDiscord, database: str, clock: Clock) -> AsyncIterator[Cluster]:
    guild_a = fake.add_guild("Shard zero's guild", shard=(0, SHARDS))
    guild_b = fake.add_guild("Shard one's guild", shard=(1, SHARDS))
    channel_a, channel_b = fake.add_channel("tables", guild_a), fake.add_channel("tables", guild_b)
    fake.shard_count = SHARDS
    reader = await Host.open(database, clock=clock, worker="test-reader")
    try:
        yield Cluster(fake, clock, reader, guild_a, guild_b, channel_a, channel_b)
    finally:
        await reader.close()


@pytest.fixture
async def cluster(fake: FakeDiscord, database: str, clock: Clock) -> AsyncIterator[Cluster]:
    """Two bots in this test process, each with its own host, pool, shard and background loops."""
    async with _guilds_on_two_shards(fake, database, clock) as cluster:
        try:
            for shard in range(SHARDS):  # shard 0 first: it syncs the commands
                cluster.processes.append(await _start_process(fake, database, clock, shard))
            yield cluster
        finally:
            for process in cluster.processes:
                await _stop_process(process)


#: a bot process against the fake Discord: ``python -m bot run`` with discord.py's two endpoints pointed at it
@pytest.fixture
async def os_cluster(
    fake: FakeDiscord, database: str, clock: Clock, tmp_path: Path
) -> AsyncIterator[Cluster]:
    """Two real bot processes (``python -m bot run`` with SHARD_COUNT=2 and SHARD_IDS=0 or 1), started together."""
    async with _guilds_on_two_shards(fake, database, clock) as cluster:
        children: list[asyncio.subprocess.Process] = []
        logs = [tmp_path / f"shard-{shard}.log" for shard in range(SHARDS)]
        try:
            for shard, log_path in enumerate(logs):
                env = {
                    **os.environ,
                    "DISCORD_TOKEN": fake.token,
                    "DATABASE_URL": database,
                    "SHARD_COUNT": str(SHARDS),
                    "SHARD_IDS": str(shard),
                    "DEV_GUILD_ID": "",
                    "FAKE_DISCORD_REST": fake.rest_base,
                    "FAKE_DISCORD_GATEWAY": fake.gateway_url,
                    "PYTHONUNBUFFERED": "1",
                }
                with log_path.open("wb") as log_file:
                    children.append(
                        await asyncio.create_subprocess_exec(
                            sys.executable,
                            "-c",
                            BOT_LAUNCHER,
                            cwd=tmp_path,
                            env=env,
                            stdout=log_file,
                            stderr=log_file,
                        )
                    )
            await fake.wait_for(lambda: len(fake.identified_shards) == SHARDS and "move" in fake.commands, 60)
            yield cluster
        finally:
            for child in children:
                if child.returncode is None:
                    child.terminate()
                await child.wait()
            for log_path in logs:  # shown by pytest when the test failed
                print(f"---- {log_path.name}\n{log_path.read_text(errors='replace')[-4000:]}")


async def _new_game(cluster: Cluster, alice: FakeUser, bob: FakeUser, channel_id: int) -> int:
    record = await cluster.slash(
        alice, "game new", channel_id, game="babylone", options="first=1", deadline_hours=1.0
    )
    [lobby] = cluster.fake.replies(record)
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    await cluster.click(bob, lobby, lobby.button("Join")["custom_id"])
    await cluster.fake.wait_for(lambda: bob.name in cluster.fake.messages[lobby.id].content, SETTLE_S)
    await cluster.slash(alice, "game start", channel_id, order="given")
    await cluster.wait_for_events(game_id, 1)
    return game_id


async def _move_in_channel(cluster: Cluster, player: FakeUser, channel_id: int) -> None:
    choices = await cluster.fake.autocomplete(player, "move", "notation", channel_id)
    record = await cluster.slash(player, "move", channel_id, notation=choices[0]["value"])
    assert "Done" in "\n".join(m.text() for m in cluster.fake.replies(record))


async def _move_by_dm(cluster: Cluster, player: FakeUser) -> InteractionRecord:
    """The first choice of the player's open DM prompt (a select, or buttons when there are few choices)."""
    # the open prompt's DM (the earlier ones lost their buttons when their decisions closed); the process that
    # posts it may not have yet
    await cluster.fake.wait_for(
        lambda: [m for m in cluster.fake.dm_messages(player) if m.custom_ids()], SETTLE_S
    )
    prompt = [m for m in cluster.fake.dm_messages(player) if m.custom_ids()][-1]
    if prompt.selects():
        select = prompt.selects()[0]
        return await cluster.click(player, prompt, select["custom_id"], [select["options"][0]["value"]])
    return await cluster.click(player, prompt, prompt.buttons()[0]["custom_id"])


def _rest_posts(fake: FakeDiscord, messages: list[FakeMessage]) -> list[FakeMessage]:
    """Messages the bot posted itself (not answers to interactions)."""
    answers = {mid for record in fake.interactions.values() for mid in record.message_ids}
    return [m for m in messages if m.id not in answers]


async def test_the_fake_gateway_recommends_its_shard_count(fake: FakeDiscord) -> None:
    fake.shard_count = 3
    async with aiohttp.ClientSession() as session, session.get(f"{fake.rest_base}/gateway/bot") as response:
        answer = await response.json()
    assert answer["shards"] == 3 and answer["url"] == fake.gateway_url
    assert [shard_of(fake.add_guild(f"g{n}", shard=(n, 3)), 3) for n in range(3)] == [0, 1, 2]


@ON_POSTGRESQL
async def test_two_sharded_processes_share_one_database(cluster: Cluster, fake: FakeDiscord) -> None:
    first, second = cluster.processes
    assert isinstance(first.bot, ShardedPrincesBot) and first.bot.shard_ids == [0]
    assert fake.identified_shards == [(0, SHARDS), (1, SHARDS)] and fake.command_syncs == 1
    assert cluster.guild_a in {g.id for g in first.bot.guilds} - {g.id for g in second.bot.guilds}
    assert cluster.guild_b in {g.id for g in second.bot.guilds} - {g.id for g in first.bot.guilds}
    assert shard_of(cluster.guild_b, SHARDS) == 1

    alice, bob, carol, dave = (fake.add_user(name) for name in ("alice", "bob", "carol", "dave"))
    for player in (carol, dave):  # guild B's players move by DM: their clicks reach shard 0
        await cluster.slash(player, "settings", cluster.channel_b, turn_dms="on")
    game_a = await _new_game(cluster, alice, bob, cluster.channel_a)
    game_b = await _new_game(cluster, carol, dave, cluster.channel_b)
    dm_clicks = []
    for _ in range(6):  # a few turns in both games, interleaved
        mover = await cluster.turn_of([alice, bob], game_a)
        assert mover is not None
        await _move_in_channel(cluster, mover, cluster.channel_a)
        mover = await cluster.turn_of([carol, dave], game_b)
        assert mover is not None
        dm_clicks.append(await _move_by_dm(cluster, mover))
    assert all(click.shards == [0] for click in dm_clicks)  # Discord sends DM clicks to shard 0 ...
    assert {click.id for click in dm_clicks} <= set(
        first.interactions
    )  # ... whose process acted on guild B's game
    assert not {click.id for click in dm_clicks} & set(second.interactions)

    # shard 1's process stores a move and dies before posting it: after its claim lapses, shard 0's sweep posts
    mover = await cluster.turn_of([carol, dave], game_b)
    assert mover is not None
    prompt = await second.host.prompt_of(game_b, str(mover.id))
    orphans = await second.host.act(game_b, Actor(str(mover.id), mover.name), prompt.choices[0].action)
    await first.bot.sender.flush()
    assert orphans and not {d.id for d in orphans} & set(first.posted)  # still held by the silent process
    cluster.clock.advance(CLAIM_LEASE_S)
    await first.bot.sender.flush()
    assert {d.id for d in orphans} <= set(first.posted)

    # both deadline loops wake up with the deadlines of both games due: each deadline fires once
    cluster.clock.advance(3601)
    for process in cluster.processes:
        process.host.timers_changed.set()

    def offers(channel_id: int) -> list[FakeMessage]:
        return [m for m in fake.channel_messages(channel_id) if "let the deadline pass" in m.content]

    await fake.wait_for(lambda: offers(cluster.channel_a) and offers(cluster.channel_b))
    await asyncio.sleep(0.2)  # the other loop had its chance to fire them too
    await cluster.settle()
    assert len(offers(cluster.channel_a)) == len(offers(cluster.channel_b)) == 1
    for channel_id, game_id, players in (
        (cluster.channel_a, game_a, [alice, bob]),
        (cluster.channel_b, game_b, [carol, dave]),
    ):
        late = await cluster.turn_of(players, game_id)
        other = next(p for p in players if p is not late)
        offer = offers(channel_id)[0]
        await cluster.click(other, offer, offer.button("Keep waiting")["custom_id"])

    # both games to their end
    for _ in range(200):
        mover_a = await cluster.turn_of([alice, bob], game_a)
        mover_b = await cluster.turn_of([carol, dave], game_b)
        if mover_a is None and mover_b is None:
            break
        if mover_a is not None:
            await _move_in_channel(cluster, mover_a, cluster.channel_a)
        if mover_b is not None:
            await _move_by_dm(cluster, mover_b)
    for channel_id in (cluster.channel_a, cluster.channel_b):
        assert any("Game over" in m.content for m in fake.channel_messages(channel_id))
    await cluster.settle()

    # every outbox row was posted exactly once, by one of the two processes
    rows = await cluster.reader.store.fetchall("SELECT id FROM outbox ORDER BY id")
    posted = Counter(first.posted + second.posted)
    assert set(posted) == {row["id"] for row in rows} and set(posted.values()) == {1}
    assert first.posted and second.posted  # both processes posted
    assert not set(first.interactions) & set(second.interactions)
    await _assert_nothing_doubled(cluster, [alice, bob, carol, dave])


async def _assert_nothing_doubled(cluster: Cluster, players: list[FakeUser]) -> None:
    """Every outbox row was sent and the fake Discord holds exactly one message per row (an edited status message
    counts once); every interaction was answered once; every game's events are numbered without a gap and
    replay to the stored state."""
    fake, store = cluster.fake, cluster.reader.store
    rows = await store.fetchall("SELECT id, payload, sent_at FROM outbox ORDER BY id")
    assert rows and all(row["sent_at"] is not None for row in rows)
    deliveries = [Delivery.from_payload(row["id"], json.loads(row["payload"])) for row in rows]
    for channel_id in (cluster.channel_a, cluster.channel_b):
        public = [d for d in deliveries if d.kind == "public" and d.channel_id == str(channel_id)]
        edited = {d.edit_key for d in public if d.edit_key}
        expected = len([d for d in public if not d.edit_key]) + len(edited)
        assert len(_rest_posts(fake, fake.channel_messages(channel_id))) == expected
    for player in players:
        private = [d for d in deliveries if d.kind == "private" and d.user_id == str(player.id)]
        dms = [
            m for m in _rest_posts(fake, fake.dm_messages(player)) if not m.content.startswith("You joined")
        ]
        assert len(dms) == len(private)
    assert all(len(record.callback_types) == 1 for record in fake.interactions.values())
    for game in await store.fetchall("SELECT id FROM games"):
        events = await store.events(game["id"])
        assert [e.seq for e in events] == list(range(len(events)))
        if len(events) > 0:
            assert (
                await cluster.reader.replay_state(game["id"])
                == (await cluster.reader.games.load(game["id"])).state
            )


@ON_POSTGRESQL
async def test_two_bot_os_processes_share_one_database(os_cluster: Cluster, fake: FakeDiscord) -> None:
    """The same over two real ``python -m bot run`` processes (real time, so no deadline falls due here)."""
    cluster = os_cluster
    assert sorted(fake.identified_shards) == [(0, SHARDS), (1, SHARDS)] and fake.command_syncs == 1
    alice, bob, carol, dave = (fake.add_user(name) for name in ("alice", "bob", "carol", "dave"))
    for player in (carol, dave):
        setting = await cluster.slash(player, "settings", cluster.channel_b, turn_dms="on")
        assert setting.shards == [1]
    game_a = await _new_game(cluster, alice, bob, cluster.channel_a)
    game_b = await _new_game(cluster, carol, dave, cluster.channel_b)
    for move in range(1, 5):
        mover = await cluster.turn_of([alice, bob], game_a)
        assert mover is not None
        await _move_in_channel(cluster, mover, cluster.channel_a)
        await cluster.wait_for_events(game_a, 1 + move)
        mover = await cluster.turn_of([carol, dave], game_b)
        assert mover is not None
        click = await _move_by_dm(cluster, mover)
        assert click.shards == [0]  # shard 0's process acted on guild B's game
        await cluster.wait_for_events(game_b, 1 + move)
    for game_id in (game_a, game_b):
        assert len(await cluster.reader.store.events(game_id)) == 5  # the setup and four moves, none twice
    await _assert_nothing_doubled(cluster, [alice, bob, carol, dave])
