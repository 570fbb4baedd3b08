"""The embedded default: aiosqlite, WAL, one connection whose writes are serialised by a lock.

Checkpoints (copying the write-ahead log back into the database file, with an fsync) do not run inside a
commit, as SQLite's automatic checkpoint would: that put 10 to 30 ms on whichever action's commit filled the
log. A second connection, on its own thread, runs a passive checkpoint after every ``CHECKPOINT_EVERY``
commits; a passive checkpoint never blocks the writer, which goes on appending to the log meanwhile.
The log restarts from its beginning only at a commit that finds it wholly copied and unread, which a stream of
commits with no pause may never offer; so once the log holds more than ``LOG_LIMIT_PAGES`` the next checkpoint
holds the writer back for a moment and empties it (TRUNCATE): the pages are in the file already, so that is
mostly one fsync, once every few thousand commits.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from .base import Connection, Params, Result, Row

log = logging.getLogger(__name__)

#: commits between two background checkpoints (a commit of one action writes a few pages of the log)
CHECKPOINT_EVERY = 64
#: log pages (4 kB) beyond which a checkpoint waits for the writer and empties the log
LOG_LIMIT_PAGES = 4096


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

    def __init__(
        self, connection: aiosqlite.Connection, checkpointer: aiosqlite.Connection | None = None
    ) -> None:
        self._connection = connection
        self._inside = SqliteConnection(connection)
        self._lock = asyncio.Lock()
        self._checkpointer = checkpointer
        self._checkpoint: asyncio.Task[None] | None = None
        self._commits = 0
        #: background checkpoints run (tests read it)
        self.checkpoints = 0

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
        checkpointer = None
        if str(path) != ":memory:":
            await connection.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer's job (module doc)
            checkpointer = await aiosqlite.connect(str(path), isolation_level=None)
            await checkpointer.execute("PRAGMA busy_timeout=5000")
        return cls(connection, checkpointer)

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
                self._after_commit()

    def _after_commit(self) -> None:
        self._commits += 1
        due = self._commits % CHECKPOINT_EVERY == 0
        if due and self._checkpointer is not None and (self._checkpoint is None or self._checkpoint.done()):
            self._checkpoint = asyncio.create_task(self.checkpoint(), name="sqlite-checkpoint")

    async def checkpoint(self) -> None:
        """Copy the committed log into the database file, beside the writer (a passive checkpoint), or, once
        the log is longer than ``LOG_LIMIT_PAGES``, with the writer held back, emptying the log."""
        if self._checkpointer is None:
            return
        try:
            # stepped to its end: a statement left open would hold a read mark and keep the log from restarting
            rows = await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            _busy, log_pages, _copied = tuple(list(rows)[0])
            if log_pages > LOG_LIMIT_PAGES:
                async with self._lock:
                    await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as error:  # the log just grows until the next one: nothing is lost
            log.warning("background checkpoint failed: %s", error)
            return
        self.checkpoints += 1

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
        if self._checkpoint is not None:
            await asyncio.gather(self._checkpoint, return_exceptions=True)
        if self._checkpointer is not None:
            await self._checkpointer.close()
        await self._connection.close()
