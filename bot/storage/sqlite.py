"""The embedded default: aiosqlite, WAL, one connection whose writes are serialised by a lock."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .base import Connection, Params, Result, Row


class SqliteConnection:
    """The one aiosqlite connection, inside a transaction the ``SqliteDatabase`` opened."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    # Each call is one hop to aiosqlite's thread: a write statement is complete once executed, and
    # execute_fetchall steps a query (or an INSERT ... RETURNING) to its end in the same hop.
    async def execute(self, sql: str, params: Params = ()) -> Result:
        cursor = await self._connection.execute(sql, tuple(params))
        return Result(cursor.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._connection.executemany(sql, [tuple(row) for row in rows])

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._connection.execute_fetchall(sql, tuple(params)))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None


class SqliteDatabase:
    """One aiosqlite connection; writes are serialised by a lock, each ``transaction`` is atomic."""

    dialect = "sqlite"

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection
        self._inside = SqliteConnection(connection)
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        connection.row_factory = aiosqlite.Row
        # the busy timeout first: another process opening the same file at once holds a lock for a moment
        await connection.execute("PRAGMA busy_timeout=5000")
        for attempt in range(
            20
        ):  # switching to WAL needs a moment alone with the file; no busy handler helps
            try:
                await connection.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError:
                if attempt == 19:
                    raise
                await asyncio.sleep(0.05)
        await connection.execute("PRAGMA synchronous=NORMAL")
        await connection.execute("PRAGMA foreign_keys=ON")
        return cls(connection)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._lock:
            # IMMEDIATE takes the write lock now, so another process's writer waits instead of failing at COMMIT
            await self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._inside
            except BaseException:
                await self._connection.execute("ROLLBACK")
                raise
            else:
                await self._connection.execute("COMMIT")

    async def execute_alone(self, sql: str, params: Params = ()) -> None:
        async with self._lock:  # the connection autocommits a statement outside BEGIN
            await self._inside.execute(sql, params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._inside.fetchall(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self._inside.fetchone(sql, params)

    async def lock_for_migrations(self, db: Connection) -> None:
        """Nothing to do: ``BEGIN IMMEDIATE`` already keeps other processes out until the commit."""

    def migration_sql(self, statement: str) -> str:
        """Migrations are written in SQLite's spelling of the shared dialect: they run unchanged."""
        return statement

    async def table_names(self) -> set[str]:
        rows = await self.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in rows}

    async def close(self) -> None:
        await self._connection.close()
