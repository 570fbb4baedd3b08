"""Migrations, the version guard and the outbox of the SQLite event store."""

from __future__ import annotations

import sqlite3

import pytest

from bot.storage import StaleVersion, Store, migration_files, split_statements


async def test_every_migration_applies_to_an_empty_database(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        assert await store.schema_version() == len(migration_files())
        tables = {row[0] for row in await store.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"games", "seats", "events", "snapshots", "timers", "outbox", "messages", "sealed"} <= tables
        journal = await store.fetchone("PRAGMA journal_mode")
        assert journal[0] == "wal"
    finally:
        await store.close()


async def test_migrations_run_once(tmp_path) -> None:
    path = tmp_path / "db.sqlite3"
    (await Store.open(path)).db  # noqa: B018 - opening migrates
    first = await Store.open(path)
    versions = await first.fetchall("SELECT version FROM schema_version")
    await first.close()
    assert [row[0] for row in versions] == list(range(1, len(migration_files()) + 1))


async def test_a_failing_migration_leaves_nothing_behind(tmp_path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_good.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (folder / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER);\nTHIS IS NOT SQL;\n")
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(tmp_path / "db.sqlite3", migrations=folder)
    plain = sqlite3.connect(tmp_path / "db.sqlite3")
    tables = {row[0] for row in plain.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    plain.close()
    assert "a" not in tables and "b" not in tables  # one transaction: all or nothing


def test_split_statements_keeps_semicolons_inside_strings() -> None:
    script = "CREATE TABLE t (x TEXT DEFAULT ';');\n-- a comment; with a semicolon\nINSERT INTO t VALUES ('a;b');\n"
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].endswith("INSERT INTO t VALUES ('a;b');")


async def _game_row(store: Store) -> int:
    async with store.transaction() as db:
        cursor = await db.execute(
            "INSERT INTO games (channel_id, kind, status, seed, creator_id, created_at, updated_at) "
            "VALUES ('c', 'babylone', 'active', 1, 'u', 0, 0)")
        return int(cursor.lastrowid or 0)


async def test_stale_append_is_refused_and_writes_nothing(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        game_id = await _game_row(store)
        async with store.transaction() as db:
            await store.bump_version(db, game_id, 0, 1.0)
            await store.append_event(db, game_id, 0, None, "setup", [], "u", [], 1.0)
        with pytest.raises(StaleVersion):
            async with store.transaction() as db:
                await store.append_event(db, game_id, 1, 0, "1>2", [], "u", [], 2.0)
                await store.add_outbox(db, game_id, {"text": "x"}, 2.0)
                await store.bump_version(db, game_id, 0, 2.0)  # someone else already moved it to 1
        assert [event.seq for event in await store.events(game_id)] == [0]
        assert await store.unsent_outbox() == []
        row = await store.fetchone("SELECT version FROM games WHERE id = ?", (game_id,))
        assert row[0] == 1
    finally:
        await store.close()


async def test_outbox_rows_stay_until_marked_sent(tmp_path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        game_id = await _game_row(store)
        async with store.transaction() as db:
            first = await store.add_outbox(db, game_id, {"text": "one"}, 1.0)
            await store.add_outbox(db, game_id, {"text": "two"}, 1.0)
        await store.mark_sent(first, 2.0)
        assert [payload["text"] for _id, payload in await store.unsent_outbox()] == ["two"]
    finally:
        await store.close()
