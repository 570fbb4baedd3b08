"""What the host sees of a database, whichever backend runs it (SQLite or PostgreSQL).

The host writes one SQL dialect: ``?`` placeholders, ``ON CONFLICT`` upserts, ``INSERT ... RETURNING id`` for new
keys. Inside ``Database.transaction`` it gets a ``Connection`` with four calls; outside, the ``Database`` reads.
Rows are the backend's own (``sqlite3.Row`` or ``asyncpg.Record``): both answer ``row["name"]``, ``row[0]``,
``dict(row)`` and tuple unpacking, which is all the host relies on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

#: a result row; see the module docstring for what every backend's row supports
Row = Any
Params = Iterable[Any]
#: targets with these prefixes are PostgreSQL URLs; anything else is an SQLite file path
DATABASE_URL_SCHEMES = ("postgresql://", "postgres://")


def is_database_url(target: object) -> bool:
    return str(target).startswith(DATABASE_URL_SCHEMES)


@dataclass(frozen=True)
class Result:
    """What a write statement reports: how many rows it changed."""

    rowcount: int


class Connection(Protocol):
    """The database inside one transaction."""

    async def execute(self, sql: str, params: Params = ()) -> Result: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...


class Database(Protocol):
    """A backend: atomic transactions, reads outside them, and the few facts migrations need."""

    #: "sqlite" or "postgresql"
    dialect: str

    def transaction(self) -> AbstractAsyncContextManager[Connection]: ...

    async def execute_alone(self, sql: str, params: Params = ()) -> None:
        """One statement that is a transaction by itself (no BEGIN/COMMIT round trips), serialised with the
        writers."""
        ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...

    async def lock_for_migrations(self, db: Connection) -> None: ...

    def migration_sql(self, statement: str) -> str: ...

    async def table_names(self) -> set[str]: ...

    async def close(self) -> None: ...


def code_segments(sql: str) -> Iterator[tuple[bool, str]]:
    """Split SQL into (is_code, text) pieces, so rewrites never touch quoted strings, identifiers or comments."""
    start = index = 0
    length = len(sql)
    while index < length:
        char = sql[index]
        if char in "'\"":
            end = index + 1
            while end < length:  # a doubled quote inside the literal escapes it
                if sql[end] == char:
                    if end + 1 < length and sql[end + 1] == char:
                        end += 2
                        continue
                    break
                end += 1
            end = min(end + 1, length)
        elif sql.startswith("--", index):
            newline = sql.find("\n", index)
            end = length if newline < 0 else newline
        elif sql.startswith("/*", index):
            close = sql.find("*/", index + 2)
            end = length if close < 0 else close + 2
        else:
            index += 1
            continue
        if start < index:
            yield True, sql[start:index]
        yield False, sql[index:end]
        start = index = end
    if start < length:
        yield True, sql[start:]


class Reader(Protocol):
    """Anything that answers queries: a ``Connection`` inside a transaction, or the ``Store`` outside one. The
    repository's read functions take a ``Reader``, so a caller inside a transaction reads what it wrote."""

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...


#: one write, built now and run later inside the transaction that stores a change (``run``)
Statement = tuple[str, tuple[Any, ...]]


async def insert_returning_id(db: Connection, sql: str, params: Params) -> int:
    """Run an ``INSERT ... RETURNING id`` (portable, unlike SQLite's ``lastrowid``) and return the new key."""
    row = await db.fetchone(sql, params)
    if row is None:
        raise RuntimeError(f"no id returned by {sql!r}")
    return int(row[0])


async def run(db: Connection, *statements: Statement) -> None:
    """Run statements built by the repository modules, in order, inside the caller's transaction."""
    for sql, params in statements:
        await db.execute(sql, params)
