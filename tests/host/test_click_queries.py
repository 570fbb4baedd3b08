"""What one click costs the database (issue 44): a choice clicked on a game's live card, through the path the
Discord adapter runs (the real discord.py client against the fake Discord), counted statement by statement.

The store's backend is wrapped in a counting proxy; each statement is put down to the part of the path that ran
it: the click's own reads before the move (``click``), the move (``act``: load, apply, the commit), and the
posting of the move's deliveries (``deliveries``)."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from bot.host import Host
from bot.hosting.core import CARD_KEY
from bot.models import Remembered
from bot.storage.base import Connection, Database, Params, Result, Row
from tests.e2e import conftest as e2e
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_play import open_lobby
from tests.host.test_host import _pending_actor, _started_babylone

# the e2e fixtures: the real discord.py client against the fake Discord
fake, clock, table = e2e.fake, e2e.clock, e2e.table

SENDER = str(Path("bot") / "discord" / "sender.py")
PLAY = str(Path("bot") / "hosting" / "play.py")


def part_of_path(frame: FrameType | None) -> str:
    """Which part of the click ran the statement: the sender's task, the host's ``act``, else the click."""
    acting = False
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.endswith(SENDER):
            return "deliveries"
        acting = acting or (filename.endswith(PLAY) and frame.f_code.co_name == "act")
        frame = frame.f_back
    return "act" if acting else "click"


class Counted:
    """The statements run, by part of the path."""

    def __init__(self) -> None:
        self.statements: Counter[str] = Counter()
        self.transactions: Counter[str] = Counter()
        self.log: list[tuple[str, str]] = []

    def note(self, sql: str) -> None:
        part = part_of_path(sys._getframe(2))
        self.statements[part] += 1
        self.log.append((part, " ".join(sql.split())[:90]))

    def clear(self) -> None:
        self.statements.clear()
        self.transactions.clear()
        self.log.clear()


class CountingConnection:
    def __init__(self, inner: Connection, counted: Counted) -> None:
        self.inner, self.counted = inner, counted

    async def execute(self, sql: str, params: Params = ()) -> Result:
        self.counted.note(sql)
        return await self.inner.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.counted.note(sql)
        await self.inner.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        self.counted.note(sql)
        return await self.inner.fetchall(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        self.counted.note(sql)
        return await self.inner.fetchone(sql, params)


class CountingDatabase:
    """A ``Database`` that counts every statement and transaction on the way to the real one."""

    def __init__(self, inner: Database, counted: Counted) -> None:
        self.inner, self.counted = inner, counted
        self.dialect = inner.dialect

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        self.counted.transactions[part_of_path(sys._getframe(1))] += 1
        async with self.inner.transaction() as db:
            yield CountingConnection(db, self.counted)

    async def execute_alone(self, sql: str, params: Params = ()) -> None:
        self.counted.note(sql)
        await self.inner.execute_alone(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        self.counted.note(sql)
        return await self.inner.fetchall(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        self.counted.note(sql)
        return await self.inner.fetchone(sql, params)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def reads(counted: Counted, part: str) -> list[str]:
    return [sql for where, sql in counted.log if where == part and sql.startswith("SELECT")]


async def test_a_click_and_its_posting_cost_no_extra_host_queries(table: Table, fake: FakeDiscord) -> None:
    """Before issue 44, the third move of a game on its live card cost 25 statements: 5 for the click (its
    locale, the game three times, the clicker's language after the move), 11 for the move and 9 to post its two
    deliveries (each read the server's language twice over; the card looked up its message and remembered the
    new one apart from its mark). Now the click reads the game and the clicker's settings in one host call, the
    commit reads what posting needs (2 statements more), and each delivery costs its mark alone."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await open_lobby(table, alice, bob, options="first=1 posts=card")
    await table.press(alice, fake.channel_messages(fake.general)[0], "Start")
    host = table.running.host
    counted = Counted()
    host.store.database = CountingDatabase(host.store.database, counted)  # type: ignore[assignment]
    for move in range(3):  # each player's first click stores their client's locale: the third is a usual one
        player = table.turn_of([alice, bob])
        assert player is not None
        [card] = [m for m in fake.channel_messages(fake.general) if m.selects()]
        select = card.selects()[0]
        counted.clear()
        await table.click(player, card, select["custom_id"], [select["options"][0]["value"]])
        assert not table.running.unexpected_errors, move
    report = "\n".join(f"{part:>10}: {sql}" for part, sql in counted.log)
    deliveries = sum(1 for part, sql in counted.log if part == "act" and sql.startswith("INSERT INTO outbox"))
    marks = [sql for part, sql in counted.log if part == "deliveries" and sql.startswith("UPDATE outbox")]
    assert deliveries == 2, report  # the move's line and the live card
    # the click: the game (its version, the rest is this process's copy) and the clicker's settings, one call
    assert counted.statements["click"] == 2 and len(reads(counted, "click")) == 2, report
    # the move: one read outside its commit (the game's version), the commit's reads and writes
    assert counted.statements["act"] == 13 and counted.transactions["act"] == 1, report
    # posting: no read at all; per delivery its mark, with what it posted (a new message below the card, the
    # card posted again) written in the same transaction
    assert not reads(counted, "deliveries"), report
    assert len(marks) == deliveries and counted.statements["deliveries"] == 4, report
    assert counted.transactions["deliveries"] <= deliveries, report


async def test_a_delivery_carries_its_message_from_the_commit_kept_up_to_date(host: Host) -> None:
    """The live card's message, read in the commit: what this process remembers or posts below it afterwards
    applies to it without a query; a row read back from the outbox (a sweep, a restart) is looked up instead."""
    game_id = await _started_babylone(host, posts="card")
    await host.remember_message(game_id, CARD_KEY, "chan", "10")
    actor = await _pending_actor(host, game_id)
    prompt = await host.prompt_of(game_id, actor.user_id)
    assert prompt is not None
    deliveries = await host.act(game_id, actor, prompt.choices[0].action, prompt.decision_id)
    card = next(d for d in deliveries if d.edit_key == CARD_KEY)
    line = next(d for d in deliveries if d.kind == "public" and d.edit_key is None)
    assert card.addressed is not None and card.addressed.language == "en"
    assert card.addressed.remembered == Remembered("chan", "10", 0)
    counted = Counted()
    host.store.database = CountingDatabase(host.store.database, counted)  # type: ignore[assignment]
    await host.mark_sent(line.id, (game_id, "chan"))  # the move's line, posted below the card
    assert await host.message_to_edit(card) == Remembered("chan", "10", 1)
    await host.remember_message(game_id, CARD_KEY, "chan", "11")  # the card posted again
    assert await host.message_to_edit(card) == Remembered("chan", "11", 0)
    assert not [sql for _part, sql in counted.log if sql.startswith("SELECT")], counted.log
    [stored] = [d for d in await host.pending_deliveries() if d.id == card.id]
    assert stored.addressed is None
    assert await host.message_to_edit(stored) == Remembered("chan", "11", 0)
    assert any(sql.startswith("SELECT channel_id, message_id, below") for _part, sql in counted.log)
