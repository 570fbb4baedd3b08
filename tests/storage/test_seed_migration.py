"""Migration 0005: seeds become text. A game stored with a 48-bit integer seed keeps it (as decimal digits) and
keeps replaying and verifying with the derivation it was played with; new seeds are 256-bit keys."""

from __future__ import annotations

import json
from pathlib import Path

from bot.host import Host
from bot.storage import Store
from rules.engine import ReplayRng, Rng, get_game
from rules.engine.playout import play
from rules.engine.rng import KEYED_SCHEME, LEGACY_SCHEME, seed_scheme
from tests.conftest import ALICE
from tests.support.migrations import migrations_up_to

LEGACY_SEED = 2**48 - 3


async def _store_legacy_game(database: str, tmp_path: Path) -> tuple[int, list[list[int]]]:
    """A finished Pharaoh game stored as the schema of migration 3 held it: an INTEGER seed."""
    game = get_game("pharaoh")
    playout = play(game, 2, LEGACY_SEED)
    assert game.outcome(playout.state).finished
    store = await Store.open(database, migrations=migrations_up_to(tmp_path / "old", 3))
    try:
        async with store.transaction() as db:
            game_id = await store.insert_returning_id(
                db,
                "INSERT INTO games (guild_id, channel_id, kind, status, options, seed, num_players, creator_id, "
                "result, created_at, updated_at) VALUES ('g', 'c', 'pharaoh', 'finished', ?, ?, 2, 'u', ?, 1, 1) "
                "RETURNING id",
                (json.dumps(game.resolve_options({})), LEGACY_SEED, '{"winners": [0], "draw": false}'),
            )
            draws = [playout.setup_draws] + [record.draws for record in playout.records]
            rows = [(game_id, 0, None, "setup", playout.setup_draws, "u", [], 1.0)]
            rows += [
                (game_id, seq, record.seat, record.action, record.draws, "u", [], 1.0)
                for seq, record in enumerate(playout.records, start=1)
            ]
            await store.append_events(db, rows)
    finally:
        await store.close()
    return game_id, draws


async def test_a_stored_integer_seed_becomes_its_digits_and_still_derives_every_draw(
    database, tmp_path
) -> None:
    game_id, draws = await _store_legacy_game(database, tmp_path)
    store = await Store.open(database)  # every migration, 0005 included
    try:
        row = await store.fetchone("SELECT seed, origin_id FROM games WHERE id = ?", (game_id,))
        assert dict(row) == {"seed": str(LEGACY_SEED), "origin_id": None}
        assert seed_scheme(row["seed"]) == LEGACY_SCHEME
        events = await store.events(game_id, -1)
    finally:
        await store.close()
    game = get_game("pharaoh")
    for event in events:  # the text seed derives exactly the numbers the integer seed derived
        rng = Rng.for_event(row["seed"], event.seq)
        assert [rng.randint(low, high) for low, high in _ranges(game, events, event.seq)] == event.draws
    assert [event.draws for event in events] == draws


def _ranges(game, events, seq: int) -> list[tuple[int, int]]:
    """The ranges event ``seq`` asked for, found by replaying the recorded draws."""
    state = None
    for event in events:
        rng = ReplayRng(event.draws)
        if event.seq == 0:
            state = game.setup(2, game.resolve_options({}), rng)
        else:
            state = game.apply(state, event.seat, event.action, rng).state
        if event.seq == seq:
            return rng.ranges
    raise AssertionError(seq)


async def test_a_new_game_gets_a_256_bit_seed_from_secrets(database) -> None:
    """Issue 25: 48 bits can be searched from the public dice; a new game's seed is 256 bits, stored exactly."""
    host = await Host.open(database)
    try:
        seeds = set()
        for number in range(3):
            info = await host.create_game("g", f"chan-{number}", ALICE, "pharaoh")
            seed = (await host.games.row(info.game_id))["seed"]
            assert isinstance(seed, str) and len(seed) == 64 and int(seed, 16).bit_length() > 128
            assert seed_scheme(seed) == KEYED_SCHEME
            seeds.add(seed)
        assert len(seeds) == 3
    finally:
        await host.close()
