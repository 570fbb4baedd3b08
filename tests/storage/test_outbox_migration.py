"""Migration 0015 lets an outbox row belong to no game (a league's notice). Every row keeps its id through it, on
both backends: an id is its message's nonce (``bot.discord.sender``), so a row posted just before the upgrade and
posted again after it must still carry the same one; and new rows get ids above every kept one."""

from __future__ import annotations

from pathlib import Path

from bot.storage import Store, runs_on
from tests.support.migrations import migrations_up_to

INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, kind, status, options, seed, num_players, creator_id, created_at, "
    "updated_at) VALUES ('g', 'c', 'nim', 'active', '{}', '1', 2, 'u', 1, 1) RETURNING id"
)
INSERT_ROW = "INSERT INTO outbox (game_id, payload, created_at) VALUES (?, ?, 1) RETURNING id"


async def test_outbox_rows_keep_their_ids_and_may_belong_to_no_game(database: str, tmp_path: Path) -> None:
    store = await Store.open(database, migrations=migrations_up_to(tmp_path / "old", 14))
    try:
        async with store.transaction() as db:
            game_id = await store.insert_returning_id(db, INSERT_GAME, ())
            ids = [await store.insert_returning_id(db, INSERT_ROW, (game_id, f"row {n}")) for n in range(5)]
            # a gap, as pruning sent rows leaves: the ids kept are not renumbered 1, 2, 3...
            await db.execute("DELETE FROM outbox WHERE id IN (?, ?)", (ids[0], ids[2]))
        before = {row["id"]: row["payload"] for row in await store.fetchall("SELECT id, payload FROM outbox")}
    finally:
        await store.close()
    store = await Store.open(database)  # every migration, 0015 included
    try:
        after = {row["id"]: row["payload"] for row in await store.fetchall("SELECT id, payload FROM outbox")}
        assert after == before
        async with store.transaction() as db:
            notice = await store.insert_returning_id(db, INSERT_ROW, (None, "a league notice"))
        assert notice > max(ids)
    finally:
        await store.close()


def test_a_statement_marked_for_one_backend_runs_on_that_one_only() -> None:
    sqlite_only = "-- why\n-- only sqlite\nDROP TABLE outbox;"
    assert runs_on(sqlite_only, "sqlite") and not runs_on(sqlite_only, "postgresql")
    assert runs_on("-- only  postgresql \nSELECT 1;", "postgresql")
    assert runs_on("-- only at start: a comment that says only\nSELECT 1;", "sqlite")
