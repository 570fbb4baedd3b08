"""PostgreSQL through asyncpg: one pool, a pooled connection per transaction, the host's SQL translated.

Two small translations keep one SQL text for both backends:

* statements: ``?`` placeholders become asyncpg's ``$1..$n`` (outside quoted strings and comments);
* migrations (``migration_sql``), where SQLite's loose types would be too small in PostgreSQL:
  ``INTEGER PRIMARY KEY AUTOINCREMENT`` -> ``BIGSERIAL PRIMARY KEY``, ``INTEGER`` -> ``BIGINT`` (SQLite integers
  are 64-bit; seeds and Discord ids need it) and ``REAL`` -> ``DOUBLE PRECISION`` (SQLite's REAL is 8 bytes;
  PostgreSQL's 4-byte REAL would round a Unix time to minutes). Type names are matched in capitals, as the
  migrations write them, and never inside strings or comments.

Concurrency is PostgreSQL's: transactions run in parallel on pooled connections (READ COMMITTED). The host's
guards hold there as on SQLite: ``UPDATE games ... WHERE version = ?`` waits for a concurrent writer of the same
row and then matches nothing (``StaleVersion``), and a timer is claimed by the one ``DELETE`` that removes it.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from .base import Connection, Params, Result, Row, code_segments

DEFAULT_POOL_SIZE = 10
#: the key of the advisory lock that keeps two starting processes from migrating at the same time
MIGRATION_LOCK_KEY = 0x5052494E  # "PRIN"

_TYPE_RENAMES = (
    (re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b"), "BIGSERIAL PRIMARY KEY"),
    (re.compile(r"\bINTEGER\b"), "BIGINT"),
    (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"),
)


def redact_url(url: str) -> str:
    """The URL without its password, for logs and test headers."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    netloc = f"{parts.username}:***@{host}" if parts.username else f"***@{host}"
    return urlunsplit(parts._replace(netloc=netloc))


@lru_cache(maxsize=512)
def numbered_placeholders(sql: str) -> str:
    """``?`` -> ``$1``, ``$2``, ... in order, leaving quoted text and comments alone."""
    pieces, number = [], 0
    for is_code, text in code_segments(sql):
        if is_code and "?" in text:
            parts = text.split("?")
            rebuilt = [parts[0]]
            for part in parts[1:]:
                number += 1
                rebuilt.append(f"${number}{part}")
            text = "".join(rebuilt)
        pieces.append(text)
    return "".join(pieces)


def postgres_ddl(statement: str) -> str:
    """A migration statement with SQLite's type names widened to their PostgreSQL equivalents."""
    pieces = []
    for is_code, text in code_segments(statement):
        if is_code:
            for pattern, replacement in _TYPE_RENAMES:
                text = pattern.sub(replacement, text)
        pieces.append(text)
    return "".join(pieces)


def _rowcount(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 1`` or ``INSERT 0 3`` (0 for tags without a count)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresConnection:
    """A pooled asyncpg connection inside one transaction."""

    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Params = ()) -> Result:
        status = await self._connection.execute(numbered_placeholders(sql), *params)
        return Result(_rowcount(status))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._connection.executemany(numbered_placeholders(sql), [tuple(row) for row in rows])

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._connection.fetch(numbered_placeholders(sql), *params))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self._connection.fetchrow(numbered_placeholders(sql), *params)


class PostgresDatabase:
    """An asyncpg pool; each transaction takes one connection from it for its whole length."""

    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str, pool_size: int = DEFAULT_POOL_SIZE) -> PostgresDatabase:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``; extra query parameters such
        as ``?search_path=...`` become server settings of every connection)."""
        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        return cls(pool)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield PostgresConnection(connection)

    async def execute_alone(self, sql: str, params: Params = ()) -> None:
        await self._pool.execute(numbered_placeholders(sql), *params)

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self._pool.fetch(numbered_placeholders(sql), *params))

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        return await self._pool.fetchrow(numbered_placeholders(sql), *params)

    async def lock_for_migrations(self, db: Connection) -> None:
        """Several processes may start together: the first to get this lock migrates, the others then see it done.
        The lock ends with the transaction."""
        await db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK_KEY,))

    def migration_sql(self, statement: str) -> str:
        return postgres_ddl(statement)

    async def table_names(self) -> set[str]:
        rows = await self.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {row[0] for row in rows}

    async def close(self) -> None:
        await self._pool.close()
