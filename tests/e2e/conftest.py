"""Fixtures: a fake Discord on loopback, the real bot (discord.py 2.7.1) connected to it, a clock to turn.

The ``fake`` fixture fails a test at teardown when the bot sent a request real Discord would refuse (Discord's
contract, ``discord_contract``; a test provoking one on purpose wraps it in ``fake.expect_violations()``) or
answered an interaction later than ``FIRST_RESPONSE_LIMIT_S`` after it arrived (Discord invalidates it after 3 s).
The slowest first response of the run is printed in the terminal summary.
"""

from __future__ import annotations

import asyncio
import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import yarl

from bot.discord.app import PrincesBot
from bot.host import Host
from tests.conftest import FIRST_RESPONSES_PROPERTY
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord

MENTION = re.compile(r"<@(\d+)>")
#: an interaction's first response must come within this many seconds of its push (Discord's limit is 3 s)
FIRST_RESPONSE_LIMIT_S = 2.5


def first_responses_of(fake: FakeDiscord) -> tuple[int, float, str]:
    """One test's share of the run's first responses: interactions answered, the slowest first response and what
    it answered (the run adds the shares up: ``tests/conftest.py``)."""
    answered, slowest, what = 0, 0.0, ""
    for record in fake.interactions.values():
        seconds = record.first_response_s
        if seconds is None:
            continue
        answered += 1
        if seconds > slowest:
            slowest, what = seconds, describe(record)
    return answered, slowest, what


def describe(record: InteractionRecord) -> str:
    if record.type == 3:
        return f"click {record.data.get('custom_id')!r}"
    kind = "autocomplete" if record.type == 4 else "slash"
    names = [str(record.data.get("name"))]
    options = record.data.get("options") or []
    while options and options[0].get("type") in (1, 2):  # subcommand groups and subcommands
        names.append(str(options[0]["name"]))
        options = options[0].get("options") or []
    return f"{kind} /{' '.join(names)}"


def teardown_problems(fake: FakeDiscord) -> list[str]:
    """What fails a test using ``fake``: requests outside Discord's contract it did not expect, interactions
    first answered after ``FIRST_RESPONSE_LIMIT_S``."""
    problems = [
        f"Discord would refuse {v.method} {v.path} ({v.status}): {v.errors}"
        for v in fake.unexpected_violations()
    ]
    for record in fake.interactions.values():
        seconds = record.first_response_s
        if seconds is not None and seconds > FIRST_RESPONSE_LIMIT_S:
            problems.append(
                f"{describe(record)} first answered after {seconds:.2f} s (limit {FIRST_RESPONSE_LIMIT_S} s)"
            )
    return problems


class Clock:
    """The injected clock: deadlines move when a test says so, never by sleeping."""

    def __init__(self, now: float = 1_900_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class ActsAsUsers(ABC):
    """Users' slash commands and clicks on the fake Discord, each followed by ``settle`` (what "done" means
    differs: one bot idle, or several processes with an empty outbox)."""

    fake: FakeDiscord

    @abstractmethod
    async def settle(self, record: InteractionRecord | None = None) -> None:
        """Wait until the bot(s) answered ``record`` and finished what it caused."""

    async def slash(
        self, user: FakeUser, command: str, channel_id: int | None = None, **options: Any
    ) -> InteractionRecord:
        record = await self.fake.slash(user, command, channel_id, **options)
        await self.settle(record)
        return record

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: list[str] | None = None
    ) -> InteractionRecord:
        record = await self.fake.click(user, message, custom_id, values)
        await self.settle(record)
        return record


class Table(ActsAsUsers):
    """One fake Discord, one database, and the bot (re)started on them; helpers act as users and wait."""

    def __init__(self, fake: FakeDiscord, database: Path, clock: Clock) -> None:
        self.fake = fake
        self.database = database
        self.clock = clock
        self.bot: PrincesBot | None = None
        self.host: Host | None = None
        self._connection: asyncio.Task[None] | None = None

    async def start_bot(self, run_timers: bool = False) -> PrincesBot:
        """Start the bot; its deadline loop only runs when asked (tests usually fire timers themselves)."""
        self.host = await Host.open(self.database, clock=self.clock)
        bot = PrincesBot(
            self.host, dev_guild_id=self.fake.guild_id, run_timers=run_timers, guild_ready_timeout=0.01
        )
        await bot.login(self.fake.token)
        self._connection = asyncio.create_task(bot.connect(reconnect=False))
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        await bot.wait_idle()
        self.bot = bot
        return bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            errors = list(self.bot.unexpected_errors)
            await self.bot.close()
            self.bot = None
            assert not errors, f"unexpected errors in the bot: {errors!r}"
        if self._connection is not None:
            try:
                await asyncio.wait_for(self._connection, 5)
            except (asyncio.CancelledError, discord.ConnectionClosed):
                pass
            self._connection = None
        if self.host is not None:
            await self.host.close()
            self.host = None

    @property
    def running(self) -> PrincesBot:
        assert self.bot is not None, "the bot is not running"
        return self.bot

    async def settle(self, record: InteractionRecord | None = None) -> None:
        """Wait for the bot's answer to ``record`` and for everything it caused (deliveries included)."""
        if record is not None:
            await asyncio.wait_for(record.responded.wait(), 10)
        await self.running.wait_idle()

    # ---- acting as users -------------------------------------------------------------------------------------

    async def press(self, user: FakeUser, message: FakeMessage, label: str) -> InteractionRecord:
        return await self.click(user, message, message.button(label)["custom_id"])

    def reply_text(self, record: InteractionRecord) -> str:
        return "\n".join(message.text() for message in self.fake.replies(record))

    # ---- reading the channel ---------------------------------------------------------------------------------
    def last_public(self, channel_id: int | None = None) -> FakeMessage:
        return self.fake.channel_messages(channel_id or self.fake.general)[-1]

    def turn_of(self, players: list[FakeUser], channel_id: int | None = None) -> FakeUser | None:
        """Who the latest turn message mentions (None when the game is over)."""
        for message in reversed(self.fake.channel_messages(channel_id or self.fake.general)):
            if "Game over" in message.content:
                return None
            mentioned = MENTION.findall(message.content)
            if mentioned:
                return next(p for p in players if str(p.id) == mentioned[-1])
        return None


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    # process-global class attributes; monkeypatch restores them after the test
    monkeypatch.setattr(discord.http.Route, "BASE", server.rest_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url))
    yield server
    await server.stop()
    request.node.user_properties.append((FIRST_RESPONSES_PROPERTY, first_responses_of(server)))
    problems = teardown_problems(server)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def table(fake: FakeDiscord, tmp_path: Path, clock: Clock) -> AsyncIterator[Table]:
    harness = Table(fake, tmp_path / "bot.sqlite3", clock)
    await harness.start_bot()
    yield harness
    await harness.stop_bot()
