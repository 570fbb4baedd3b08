"""The event store: SQLite (aiosqlite, WAL, one writer connection) or PostgreSQL (asyncpg), numbered migrations.

Every change a player causes is one transaction (``Store.transaction``): the event row, the game's version bump
(refused if someone else changed the game first), a snapshot every ``SNAPSHOT_EVERY`` events, timers, and the
outbox rows of the messages it causes. A sender posts outbox rows and marks them sent, so a crash between
"stored" and "delivered" ends with the delivery after restart, never with a lost or doubled game effect.

Several processes may share one PostgreSQL database (one per group of gateway shards). Timers and outbox rows are
then *claimed* before anyone acts on them: ``claim_due_timers`` and ``claim_outbox`` mark the rows they return
with the process's name and the end of a lease (``CLAIM_LEASE_S``), choosing them with ``FOR UPDATE SKIP LOCKED``
on PostgreSQL so two processes claiming at the same moment get disjoint rows (SQLite has a single writer, which
serialises the claims already). A crashed process's claims lapse with their lease and another process takes them.

The backend is chosen by the target ``Store.open`` gets: a ``postgresql://`` URL (``DATABASE_URL``) opens
PostgreSQL, anything else is an SQLite file. Both run the same SQL and the same migrations (``base``,
``sqlite``, ``postgres`` modules).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .base import Connection, Database, Result, Row, insert_returning_id, is_database_url

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"
SNAPSHOT_EVERY = 25
#: how long a claim on a timer or an outbox row keeps other processes away (far longer than posting takes)
CLAIM_LEASE_S = 120.0
#: rows one claim takes at most (the rest wait for the next round)
CLAIM_BATCH = 500
#: the earliest timers ``next_timer_due`` looks at
NEXT_DUE_WINDOW = 64
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class StaleVersion(Exception):
    """The game changed since it was read: the write was refused and nothing was stored."""


@dataclass(frozen=True)
class EventRow:
    seq: int
    seat: int | None
    action: str
    draws: list[int]
    user_id: str | None
    log: list[list[str]]
    created_at: float


@dataclass(frozen=True)
class EventHead:
    """An event's number, seat and who acted (``Store.event_heads``)."""

    seq: int
    seat: int | None
    user_id: str | None


def _ready_at(timer: Row, worker: str) -> float:
    """When ``worker`` may fire ``timer``: at its due time, or when another worker's claim on it lapses."""
    claimed_until = timer["claimed_until"]
    held = claimed_until is not None and timer["claimed_by"] != worker and claimed_until > timer["due"]
    return float(claimed_until if held else timer["due"])


def migration_files(directory: Path = MIGRATIONS_DIR) -> list[tuple[int, Path]]:
    found = []
    for path in sorted(directory.glob("*.sql")):
        match = _MIGRATION_NAME.match(path.name)
        if not match:
            raise RuntimeError(f"migration file name {path.name!r} is not NNNN_name.sql")
        found.append((int(match.group(1)), path))
    numbers = [number for number, _ in found]
    # gaps are allowed: parallel branches reserve their numbers, and each file is applied once by its number
    # (``Store.migrate``), so a later-merged lower number still runs on a database migrated past it
    if len(set(numbers)) != len(numbers) or min(numbers, default=1) < 1:
        raise RuntimeError(f"migrations must have distinct numbers from 1 up, found {numbers}")
    return found


def split_statements(script: str) -> list[str]:
    """SQL statements of a script, so a migration can run inside our own transaction (executescript commits)."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current.strip())
            current = ""
    if current.strip() and not current.strip().startswith("--"):
        statements.append(current.strip())
    return statements


#: a migration statement preceded by this comment line runs on that backend only (``runs_on``)
ONLY = re.compile(r"^--\s*only\s+(sqlite|postgresql)\s*$", re.MULTILINE)


def runs_on(statement: str, dialect: str) -> bool:
    """Whether a migration statement runs on ``dialect``: every statement does, except one preceded by a line
    ``-- only sqlite`` or ``-- only postgresql`` (where the two differ, e.g. SQLite cannot drop a NOT NULL
    constraint and rebuilds the table, which PostgreSQL does in place).

    >>> runs_on("-- only postgresql\\nALTER TABLE t ALTER COLUMN c DROP NOT NULL;", "sqlite")
    False
    >>> runs_on("CREATE TABLE t (c INTEGER);", "postgresql")
    True
    """
    marked = ONLY.search(statement)
    return marked is None or marked.group(1) == dialect


async def open_database(target: str | Path) -> Database:
    """The backend for ``target``: PostgreSQL for a ``postgresql://`` or ``postgres://`` URL, else SQLite."""
    if is_database_url(target):
        from .postgres import PostgresDatabase  # asyncpg is only imported when PostgreSQL is used

        return await PostgresDatabase.open(str(target))
    from .sqlite import SqliteDatabase

    return await SqliteDatabase.open(target)


class Store:
    """The event store over one ``Database`` backend: SQLite by default, PostgreSQL for a ``postgresql://`` URL."""

    def __init__(self, database: Database) -> None:
        self.database = database

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.database.dialect

    @classmethod
    async def open(cls, target: str | Path, migrations: Path = MIGRATIONS_DIR) -> Store:
        """Open and migrate ``target``: a PostgreSQL URL (``postgresql://...``), else an SQLite file path."""
        database = await open_database(target)
        store = cls(database)
        try:
            await store.migrate(migrations)
        except BaseException:
            await database.close()
            raise
        return store

    async def close(self) -> None:
        await self.database.close()

    # ---- migrations ------------------------------------------------------------------------------------------
    async def _version_inside(self, db: Connection) -> int:
        await db.execute(
            self.database.migration_sql(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
        )
        row = await db.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0]) if row and row[0] is not None else 0

    async def schema_version(self) -> int:
        async with self.transaction() as db:
            await self.database.lock_for_migrations(db)
            return await self._version_inside(db)

    async def migrate(self, directory: Path = MIGRATIONS_DIR) -> int:
        """Apply every migration not applied yet (by number), all in one transaction. Returns the version.

        The stored version is read inside that transaction, under the backend's migration lock, so processes
        starting together apply each migration once."""
        async with self.transaction() as db:
            await self.database.lock_for_migrations(db)
            current = await self._version_inside(db)
            rows = await db.fetchall("SELECT version FROM schema_version")
            applied = {int(row[0]) for row in rows}
            todo = [(number, path) for number, path in migration_files(directory) if number not in applied]
            for number, path in todo:
                for statement in split_statements(path.read_text()):
                    if runs_on(statement, self.dialect):
                        await db.execute(self.database.migration_sql(statement))
                await db.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        return max([current, *(number for number, _ in todo)])

    # ---- transactions and reads ------------------------------------------------------------------------------
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """One atomic unit of work: everything written through the yielded connection commits or none of it."""
        return self.database.transaction()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        return await self.database.fetchall(sql, params)

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        return await self.database.fetchone(sql, params)

    async def table_names(self) -> set[str]:
        return await self.database.table_names()

    # ---- games (inside a transaction: pass the connection from ``transaction``) ------------------------------
    @staticmethod
    async def insert_returning_id(db: Connection, sql: str, params: Iterable[Any]) -> int:
        """Run an ``INSERT ... RETURNING id`` (portable, unlike SQLite's ``lastrowid``) and return the new key."""
        return await insert_returning_id(db, sql, params)

    @staticmethod
    async def bump_version(db: Connection, game_id: int, expected: int, now: float) -> int:
        """Claim the next version; refused (``StaleVersion``) if the game moved on since it was read."""
        cursor = await db.execute(
            "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
            (now, game_id, expected),
        )
        if cursor.rowcount != 1:
            raise StaleVersion(f"game {game_id} is no longer at version {expected}")
        return expected + 1

    @staticmethod
    async def append_event(
        db: Connection,
        game_id: int,
        seq: int,
        seat: int | None,
        action: str,
        draws: list[int],
        user_id: str | None,
        log: list[list[str]],
        now: float,
    ) -> None:
        await db.execute(
            "INSERT INTO events (game_id, seq, seat, action, draws, user_id, log, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, seat, action, json.dumps(draws), user_id, json.dumps(log), now),
        )

    @staticmethod
    async def append_events(
        db: Connection,
        rows: list[tuple[int, int, int | None, str, list[int], str | None, list[list[str]], float]],
    ) -> None:
        """Several events in one round trip to the database thread."""
        await db.executemany(
            "INSERT INTO events (game_id, seq, seat, action, draws, user_id, log, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(g, q, s, a, json.dumps(d), u, json.dumps(lg), t) for g, q, s, a, d, u, lg, t in rows],
        )

    @staticmethod
    async def save_snapshot(db: Connection, game_id: int, seq: int, state: dict[str, Any]) -> None:
        await db.execute(
            "INSERT INTO snapshots (game_id, seq, state) VALUES (?, ?, ?) "
            "ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state",
            (game_id, seq, json.dumps(state, separators=(",", ":"))),
        )

    @staticmethod
    async def add_outbox(
        db: Connection,
        game_id: int,
        payload: dict[str, Any],
        now: float,
        claimed_by: str | None = None,
        claimed_until: float | None = None,
    ) -> int:
        """A message to post. The process that stores it usually posts it right after the commit, so it claims
        it in the same insert: no other process's outbox sweep can take it meanwhile."""
        return await Store.insert_returning_id(
            db,
            "INSERT INTO outbox (game_id, payload, created_at, claimed_by, claimed_until) "
            "VALUES (?, ?, ?, ?, ?) RETURNING id",
            (game_id, json.dumps(payload), now, claimed_by, claimed_until),
        )

    # ---- reads -----------------------------------------------------------------------------------------------
    async def events(self, game_id: int, after_seq: int = -1, include_undone: bool = False) -> list[EventRow]:
        rows = await self.fetchall(
            "SELECT seq, seat, action, draws, user_id, log, created_at FROM events "
            "WHERE game_id = ? AND seq > ? AND (undone = 0 OR ? = 1) ORDER BY seq",
            (game_id, after_seq, int(include_undone)),
        )
        return [
            EventRow(
                row["seq"],
                row["seat"],
                row["action"],
                json.loads(row["draws"]),
                row["user_id"],
                json.loads(row["log"]),
                row["created_at"],
            )
            for row in rows
        ]

    async def latest_snapshot(self, game_id: int) -> tuple[int, dict[str, Any]] | None:
        row = await self.fetchone(
            "SELECT seq, state FROM snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
        )
        return (row["seq"], json.loads(row["state"])) if row else None

    async def snapshot_at_or_before(self, game_id: int, seq: int) -> tuple[int, dict[str, Any]] | None:
        """The latest snapshot stored after an event numbered ``seq`` or lower (the catch-up digest starts
        from the one at or before the seat's last action), with its number; None when there is none."""
        row = await self.fetchone(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
            (game_id, seq),
        )
        return (row["seq"], json.loads(row["state"])) if row else None

    async def event_heads(self, game_id: int) -> list[EventHead]:
        """Every event of the game that was not undone, in order, as number, seat and who acted only: what
        finding a seat's last action needs, without reading (and decoding) each event's draws and log."""
        rows = await self.fetchall(
            "SELECT seq, seat, user_id FROM events WHERE game_id = ? AND undone = 0 ORDER BY seq", (game_id,)
        )
        return [EventHead(row["seq"], row["seat"], row["user_id"]) for row in rows]

    # ---- claims (several processes on one database) ----------------------------------------------------------
    def _claim_sql(self, table: str, eligible: str, order: str, columns: str) -> str:
        """``UPDATE table`` of the rows ``eligible`` picks (first by ``order``, at most a batch), claimed for a
        worker.

        Parameters, in order: worker, lease end, the eligibility parameters, the batch size. On PostgreSQL the
        candidate rows are locked with ``FOR UPDATE SKIP LOCKED``: a second process claiming at the same moment
        skips them instead of waiting for them, and gets the next ones."""
        lock = " FOR UPDATE SKIP LOCKED" if self.dialect == "postgresql" else ""
        return (
            f"UPDATE {table} SET claimed_by = ?, claimed_until = ? WHERE id IN "
            f"(SELECT id FROM {table} WHERE {eligible} ORDER BY {order} LIMIT ?{lock}) RETURNING {columns}"
        )

    async def claim_due_timers(
        self, worker: str, now: float, lease: float = CLAIM_LEASE_S, limit: int = CLAIM_BATCH
    ) -> list[dict[str, Any]]:
        """Timers due by ``now`` that no other worker holds, claimed for ``worker`` until ``now + lease``,
        earliest first. A worker's own claims are eligible again (it was restarted, or retries a conflict)."""
        sql = self._claim_sql(
            "timers",
            "due <= ? AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)",
            "due, id",
            "id, game_id, kind, seat, decision_id, due, payload",
        )
        async with self.transaction() as db:
            rows = await db.fetchall(sql, (worker, now + lease, now, now, worker, limit))
        return sorted((dict(row) for row in rows), key=lambda timer: (timer["due"], timer["id"]))

    async def release_timer(self, timer_id: int) -> None:
        """Give a claimed timer back, so the next round (in any process) fires it."""
        await self.database.execute_alone(
            "UPDATE timers SET claimed_by = NULL, claimed_until = NULL WHERE id = ?", (timer_id,)
        )

    async def next_timer_due(self, worker: str) -> float | None:
        """When the next timer this worker may fire is due: another worker's claim postpones it to its lease end
        (if that worker is alive, it fires the timer first and the row is gone).

        Reads only the earliest timers through the ``due`` index (the deadline loop asks after every move); the
        timers after them are due no sooner than the last one read, which bounds the answer."""
        rows = await self.fetchall(
            "SELECT due, claimed_by, claimed_until FROM timers ORDER BY due LIMIT ?", (NEXT_DUE_WINDOW,)
        )
        if not rows:
            return None
        soonest = min(_ready_at(row, worker) for row in rows)
        if len(rows) == NEXT_DUE_WINDOW:
            soonest = min(soonest, float(rows[-1]["due"]))
        return soonest

    async def claim_outbox(
        self, worker: str, now: float, lease: float = CLAIM_LEASE_S, limit: int = CLAIM_BATCH
    ) -> list[tuple[int, dict[str, Any]]]:
        """Unsent outbox rows that no other worker holds, claimed for ``worker`` until ``now + lease``, oldest
        first. The worker's own claims are included: they are its rows not yet posted (its sender skips those
        it is posting right now)."""
        sql = self._claim_sql(
            "outbox",
            "sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)",
            "id",
            "id, payload",
        )
        async with self.transaction() as db:
            rows = await db.fetchall(sql, (worker, now + lease, now, worker, limit))
        return sorted(((row["id"], json.loads(row["payload"])) for row in rows), key=lambda item: item[0])

    async def renew_outbox_claim(
        self, outbox_id: int, worker: str, now: float, lease: float = CLAIM_LEASE_S
    ) -> bool:
        """Extend ``worker``'s claim on an unsent row just before posting it (a batch's claim may be old by
        then); False when the row was sent or another worker holds it now."""
        async with self.transaction() as db:
            result = await db.execute(
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id = ? AND sent_at IS NULL "
                "AND (claimed_by = ? OR claimed_until IS NULL OR claimed_until <= ?)",
                (worker, now + lease, outbox_id, worker, now),
            )
        return result.rowcount == 1

    async def unsent_outbox(self) -> list[tuple[int, dict[str, Any]]]:
        rows = await self.fetchall("SELECT id, payload FROM outbox WHERE sent_at IS NULL ORDER BY id")
        return [(row["id"], json.loads(row["payload"])) for row in rows]

    async def prune_outbox(self, sent_before: float) -> int:
        """Delete the rows sent before ``sent_before``; the events stay, so nothing a game needs is lost."""
        async with self.transaction() as db:
            result = await db.execute(
                "DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < ?", (sent_before,)
            )
        return result.rowcount

    async def mark_sent(self, outbox_id: int, now: float) -> None:
        await self.database.execute_alone(
            "UPDATE outbox SET sent_at = ? WHERE id = ? AND sent_at IS NULL", (now, outbox_id)
        )


__all__ = [
    "CLAIM_BATCH",
    "CLAIM_LEASE_S",
    "Connection",
    "Database",
    "EventHead",
    "EventRow",
    "Result",
    "Row",
    "SNAPSHOT_EVERY",
    "StaleVersion",
    "Store",
    "is_database_url",
    "migration_files",
    "open_database",
    "split_statements",
]
