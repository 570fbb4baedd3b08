"""Migrations, the version guard and the outbox of the event store, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage import StaleVersion, Store, migration_files, split_statements

TABLES = {"games", "seats", "events", "snapshots", "timers", "outbox", "messages", "sealed", "votes"}


async def test_every_migration_applies_to_an_empty_database(database) -> None:
    store = await Store.open(database)
    try:
        assert await store.schema_version() == migration_files()[-1][0]
        assert TABLES | {"schema_version", "user_settings"} <= await store.table_names()
        if store.dialect == "sqlite":
            journal = await store.fetchone("PRAGMA journal_mode")
            assert journal[0] == "wal"
    finally:
        await store.close()


async def test_migrations_run_once(database) -> None:
    await (await Store.open(database)).close()
    second = await Store.open(database)
    versions = await second.fetchall("SELECT version FROM schema_version ORDER BY version")
    await second.close()
    assert [row[0] for row in versions] == [number for number, _ in migration_files()]


async def test_processes_starting_together_migrate_once(database) -> None:
    """Several bot processes may open one database at the same moment: each migration is applied once."""
    stores = await asyncio.gather(*(Store.open(database) for _ in range(3)))
    try:
        versions = await stores[0].fetchall("SELECT version FROM schema_version ORDER BY version")
        assert [row[0] for row in versions] == [number for number, _ in migration_files()]
    finally:
        for store in stores:
            await store.close()


def _syntax_error(backend: str) -> type[Exception]:
    if backend == "sqlite":
        return sqlite3.OperationalError
    import asyncpg

    return asyncpg.PostgresSyntaxError


async def test_a_failing_migration_leaves_nothing_behind(database, backend, tmp_path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_good.sql").write_text("CREATE TABLE a (x INTEGER);\n")
    (folder / "0002_bad.sql").write_text("CREATE TABLE b (x INTEGER);\nTHIS IS NOT SQL;\n")
    with pytest.raises(_syntax_error(backend)):
        await Store.open(database, migrations=folder)
    empty = tmp_path / "none"
    empty.mkdir()
    store = await Store.open(database, migrations=empty)
    try:
        tables = await store.table_names()
        assert "a" not in tables and "b" not in tables  # one transaction: all or nothing
        assert await store.schema_version() == 0
    finally:
        await store.close()


def test_split_statements_keeps_semicolons_inside_strings() -> None:
    script = "CREATE TABLE t (x TEXT DEFAULT ';');\n-- a comment; with a semicolon\nINSERT INTO t VALUES ('a;b');\n"
    statements = split_statements(script)
    assert len(statements) == 2
    assert statements[1].endswith("INSERT INTO t VALUES ('a;b');")


async def _game_row(store: Store, seed: int | str = "1", now: float = 0.0) -> int:
    """A game row; ``seed`` is text since migration 5 (an integer for a database at an older version)."""
    async with store.transaction() as db:
        row = await db.fetchone(
            "INSERT INTO games (channel_id, kind, status, seed, creator_id, created_at, updated_at) "
            "VALUES (?, 'babylone', 'active', ?, 'u', ?, ?) RETURNING id",
            (f"c{seed}-{now}", seed, now, now),
        )
        return int(row[0])


async def test_stale_append_is_refused_and_writes_nothing(database) -> None:
    store = await Store.open(database)
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


async def test_concurrent_writers_of_one_game_only_one_wins(database) -> None:
    """Two processes (two stores) read version 0 and write at once: exactly one write is stored."""
    first, second = await Store.open(database), await Store.open(database)
    try:
        game_id = await _game_row(first)

        async def move(store: Store, action: str) -> str:
            try:
                async with store.transaction() as db:
                    await store.bump_version(db, game_id, 0, 1.0)
                    await asyncio.sleep(0.05)  # hold the transaction open while the other one tries
                    await store.append_event(db, game_id, 0, 0, action, [], "u", [], 1.0)
            except StaleVersion:
                return "refused"
            return "stored"

        results = await asyncio.gather(move(first, "a"), move(second, "b"))
        assert sorted(results) == ["refused", "stored"]
        events = await second.events(game_id)
        assert len(events) == 1 and events[0].action == ("a" if results[0] == "stored" else "b")
    finally:
        await first.close()
        await second.close()


async def test_outbox_rows_stay_until_marked_sent(database) -> None:
    store = await Store.open(database)
    try:
        game_id = await _game_row(store)
        async with store.transaction() as db:
            first = await store.add_outbox(db, game_id, {"text": "one"}, 1.0)
            second = await store.add_outbox(db, game_id, {"text": "two"}, 1.0)
        assert second > first > 0
        await store.mark_sent(first, 2.0)
        assert [payload["text"] for _id, payload in await store.unsent_outbox()] == ["two"]
    finally:
        await store.close()


async def test_pruning_deletes_old_sent_rows_only(database) -> None:
    store = await Store.open(database)
    try:
        game_id = await _game_row(store)
        async with store.transaction() as db:
            old, recent, unsent = [await store.add_outbox(db, game_id, {"text": t}, 1.0) for t in "abc"]
        await store.mark_sent(old, 10.0)
        await store.mark_sent(recent, 100.0)
        assert await store.prune_outbox(50.0) == 1
        rows = await store.fetchall("SELECT id FROM outbox ORDER BY id")
        assert [row["id"] for row in rows] == [recent, unsent]
        assert [i for i, _payload in await store.unsent_outbox()] == [unsent]
    finally:
        await store.close()


async def test_timers_of_a_game_are_found_through_an_index(database, backend) -> None:
    store = await Store.open(database)
    try:
        if backend == "sqlite":
            plan = await store.fetchall("EXPLAIN QUERY PLAN SELECT id FROM timers WHERE game_id = ?", (1,))
            assert any("timers_game" in str(tuple(row)) for row in plan)
        else:
            rows = await store.fetchall("SELECT indexname FROM pg_indexes WHERE tablename = 'timers'")
            assert "timers_game" in {row["indexname"] for row in rows}
    finally:
        await store.close()


async def test_large_seeds_and_times_keep_full_precision(database) -> None:
    """Seeds are text (256-bit keys, or the decimal digits of a 48-bit legacy seed) and times are Unix seconds
    with fractions: both must come back exactly."""
    store = await Store.open(database)
    try:
        now = 1_800_000_123.456789
        for seed in ("f" * 64, str(2**48 - 3)):
            game_id = await _game_row(store, seed, now)
            row = await store.fetchone("SELECT seed, created_at FROM games WHERE id = ?", (game_id,))
            assert dict(row) == {"seed": seed, "created_at": now}
    finally:
        await store.close()


async def test_rowcount_counts_changed_rows_and_undone_events_are_hidden(database) -> None:
    store = await Store.open(database)
    try:
        game_id = await _game_row(store)
        async with store.transaction() as db:
            await store.append_events(
                db, [(game_id, seq, 0, f"m{seq}", [seq], None, [], 1.0) for seq in range(3)]
            )
            changed = await db.execute(
                "UPDATE events SET undone = 1 WHERE game_id = ? AND seq >= ?", (game_id, 1)
            )
            nothing = await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))
        assert (changed.rowcount, nothing.rowcount) == (2, 0)
        assert [event.seq for event in await store.events(game_id)] == [0]
        everything = await store.events(game_id, include_undone=True)
        assert [(event.seq, event.draws) for event in everything] == [(0, [0]), (1, [1]), (2, [2])]
    finally:
        await store.close()


async def test_a_failed_transaction_rolls_back_every_write(database) -> None:
    store = await Store.open(database)
    try:
        game_id = await _game_row(store)
        with pytest.raises(RuntimeError):
            async with store.transaction() as db:
                await store.add_outbox(db, game_id, {"text": "lost"}, 1.0)
                raise RuntimeError("the process failed before the commit")
        assert await store.unsent_outbox() == []
        async with store.transaction() as db:  # and the connection is usable afterwards
            await store.add_outbox(db, game_id, {"text": "kept"}, 1.0)
        assert [payload["text"] for _id, payload in await store.unsent_outbox()] == ["kept"]
    finally:
        await store.close()


# ---- claims: several processes sharing one database ---------------------------------------------------------


async def test_claim_columns_migration_keeps_existing_rows(database, tmp_path) -> None:
    """A database made by the first migration alone gets the claim columns; its timers and outbox rows stay,
    unclaimed."""
    first_only = tmp_path / "first-only"
    first_only.mkdir()
    number, path = migration_files()[0]
    (first_only / path.name).write_text(path.read_text())
    store = await Store.open(database, migrations=first_only)
    try:
        assert await store.schema_version() == number == 1
        game_id = await _game_row(store, seed=1)
        async with store.transaction() as db:
            await db.execute(
                "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, 'deadline', 0, 'd', 5.0)",
                (game_id,),
            )
            await db.execute(
                'INSERT INTO outbox (game_id, payload, created_at) VALUES (?, \'{"text": "old"}\', 1.0)',
                (game_id,),
            )
    finally:
        await store.close()
    store = await Store.open(database)
    try:
        assert await store.schema_version() == migration_files()[-1][0] >= 2
        timers = await store.fetchall("SELECT claimed_by, claimed_until FROM timers")
        outbox = await store.fetchall("SELECT claimed_by, claimed_until FROM outbox")
        assert [tuple(row) for row in timers] == [(None, None)]
        assert [tuple(row) for row in outbox] == [(None, None)]
        assert [payload["text"] for _id, payload in await store.claim_outbox("w", 2.0)] == ["old"]
    finally:
        await store.close()


async def _outbox_rows(store: Store, game_id: int, count: int, claimed_by: str | None = None) -> list[int]:
    async with store.transaction() as db:
        return [
            await store.add_outbox(
                db, game_id, {"text": f"m{n}"}, 1.0, claimed_by, 1.0 + 60 if claimed_by else None
            )
            for n in range(count)
        ]


async def test_two_workers_claiming_at_once_share_the_outbox(database) -> None:
    first, second = await Store.open(database), await Store.open(database)
    try:
        game_id = await _game_row(first)
        ids = await _outbox_rows(first, game_id, 40)
        mine, theirs = await asyncio.gather(
            first.claim_outbox("a", 10.0, limit=25), second.claim_outbox("b", 10.0, limit=25)
        )
        got_a, got_b = {i for i, _ in mine}, {i for i, _ in theirs}
        assert not got_a & got_b and got_a | got_b == set(ids)
        assert await second.claim_outbox("b", 20.0) == sorted(theirs)  # its own claims only: a's are held
        # "a" dies; once its lease has lapsed, "b" takes its rows over
        later = 10.0 + 120.0
        assert {i for i, _ in await second.claim_outbox("b", later)} == set(ids)
    finally:
        await first.close()
        await second.close()


async def test_outbox_rows_claimed_at_insert_wait_for_their_worker(database) -> None:
    """Rows a process writes are claimed for it: another process's sweep leaves them alone until the lease ends,
    while the process itself (or its restart under the same worker name) may post them at once."""
    store = await Store.open(database)
    try:
        game_id = await _game_row(store)
        ids = await _outbox_rows(store, game_id, 3, claimed_by="shards-1")
        assert await store.claim_outbox("shards-0", 30.0) == []
        assert [i for i, _ in await store.claim_outbox("shards-1", 30.0)] == ids
        await store.mark_sent(ids[0], 31.0)
        assert [i for i, _ in await store.claim_outbox("shards-0", 31.0 + 120.0)] == ids[1:]
    finally:
        await store.close()


async def _timer_rows(store: Store, game_id: int, dues: list[float]) -> None:
    async with store.transaction() as db:
        await db.executemany(
            "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, 'deadline', 0, 'd', ?)",
            [(game_id, due) for due in dues],
        )


async def test_due_timers_are_claimed_once_and_lapse_with_their_lease(database) -> None:
    first, second = await Store.open(database), await Store.open(database)
    try:
        game_id = await _game_row(first)
        await _timer_rows(first, game_id, [5.0, 3.0, 500.0])
        a, b = await asyncio.gather(first.claim_due_timers("a", 10.0), second.claim_due_timers("b", 10.0))
        claimed = [timer["due"] for timer in a + b]
        assert sorted(claimed) == [3.0, 5.0]  # each due timer went to one worker; the later one waits
        # PostgreSQL's SKIP LOCKED may split the rows between the two claims: each list is still earliest first
        assert all([t["due"] for t in got] == sorted(t["due"] for t in got) for got in (a, b))
        for timer in a + b:
            await first.release_timer(timer["id"])
        holder, other = "a", "b"
        assert [t["due"] for t in await first.claim_due_timers(holder, 10.0)] == [3.0, 5.0]  # earliest first
        # held by a live worker: not due for the other one before the lease ends
        assert await second.next_timer_due(other) == 10.0 + 120.0
        assert await second.next_timer_due(holder) == 3.0
        assert await second.claim_due_timers(other, 20.0) == []
        taken = await second.claim_due_timers(other, 10.0 + 120.0)
        assert [t["due"] for t in taken] == [3.0, 5.0]
        await second.release_timer(taken[0]["id"])
        assert [t["due"] for t in await first.claim_due_timers(holder, 131.0)] == [3.0]
    finally:
        await first.close()
        await second.close()


async def test_postgres_claims_skip_rows_another_transaction_holds(database, backend) -> None:
    """While one process's claim is still uncommitted, a second claim does not wait for it: it takes the rows
    the first one has not locked (``FOR UPDATE SKIP LOCKED``)."""
    if backend != "postgresql":
        pytest.skip("SQLite has a single writer: claims are serialised, nothing to skip")
    first, second = await Store.open(database), await Store.open(database)
    try:
        game_id = await _game_row(first)
        ids = await _outbox_rows(first, game_id, 6)
        sql = first._claim_sql(
            "outbox",
            "sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?)",
            "id",
            "id, payload",
        )
        async with first.transaction() as db:
            held = await db.fetchall(sql, ("a", 200.0, 10.0, "a", 3))
            other = await asyncio.wait_for(second.claim_outbox("b", 10.0), 5)
        assert [row["id"] for row in held] == ids[:3]
        assert [i for i, _ in other] == ids[3:]
    finally:
        await first.close()
        await second.close()


async def test_a_claim_is_renewed_before_posting_unless_another_worker_took_the_row(database) -> None:
    store = await Store.open(database)
    try:
        game_id = await _game_row(store)
        ids = await _outbox_rows(store, game_id, 2, claimed_by="a")
        assert await store.renew_outbox_claim(ids[0], "a", 100.0)  # still a's: extended to 100 + lease
        assert not await store.renew_outbox_claim(ids[0], "b", 150.0)
        assert await store.renew_outbox_claim(ids[1], "b", 150.0)  # a's claim on it lapsed at 61
        assert not await store.renew_outbox_claim(ids[1], "a", 151.0)
        await store.mark_sent(ids[0], 160.0)
        assert not await store.renew_outbox_claim(ids[0], "a", 161.0)  # sent: nothing left to post
    finally:
        await store.close()


async def test_next_due_reads_the_earliest_timers_only_and_never_answers_late(database) -> None:
    """Seventy due timers, all held by a live worker: the other worker is woken no later than the due time of
    the last timer it read (the rest are due later still), and not before their claims lapse otherwise."""
    store = await Store.open(database)
    try:
        game_id = await _game_row(store)
        await _timer_rows(store, game_id, [float(n) for n in range(1, 71)])
        assert len(await store.claim_due_timers("a", 500.0)) == 70
        assert await store.next_timer_due("b") == 64.0  # the 64th earliest: a bound, the claims end at 620
        assert await store.next_timer_due("a") == 1.0
        async with store.transaction() as db:
            await db.execute("DELETE FROM timers WHERE due > 10")
        assert await store.next_timer_due("b") == 500.0 + 120.0
    finally:
        await store.close()


async def test_sqlite_checkpoints_beside_the_writer(tmp_path, monkeypatch) -> None:
    """SQLite's automatic checkpoint is off (it fsyncs inside a commit); a second connection checkpoints every
    ``CHECKPOINT_EVERY`` commits, so the log stays bounded and every commit is in the database file. Here every
    checkpoint overlaps a commit, so it never quite catches up: the log limit (made small) empties the log."""
    from bot.storage import sqlite as backend
    from bot.storage.sqlite import CHECKPOINT_EVERY, SqliteDatabase

    monkeypatch.setattr(backend, "LOG_LIMIT_PAGES", 300)

    path = tmp_path / "checkpoints.sqlite3"
    database = await SqliteDatabase.open(path)
    try:
        assert (await database.fetchone("PRAGMA wal_autocheckpoint"))[0] == 0
        async with database.transaction() as db:
            await db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        sizes = []
        for round_ in range(6):
            for index in range(CHECKPOINT_EVERY):
                async with database.transaction() as db:
                    await db.execute("INSERT INTO notes (body) VALUES (?)", (f"{round_}:{index}" * 500,))
            await asyncio.sleep(0.05)
            if database._checkpoint is not None:
                await database._checkpoint
            sizes.append((path.parent / (path.name + "-wal")).stat().st_size)
        assert database.checkpoints >= 5
        # the log is reused after the checkpoints instead of growing by a round's worth of pages each round
        # (a checkpoint that runs beside a commit leaves that commit's pages for the next one)
        assert max(sizes) <= 3 * sizes[0]
    finally:
        await database.close()
    with sqlite3.connect(path) as plain:  # everything reached the file (the last close checkpoints too)
        assert plain.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == 6 * CHECKPOINT_EVERY
