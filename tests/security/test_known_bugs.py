"""Bugs the fuzz found in the host, kept as regression tests now that they are fixed.

Each test states what must happen; once the host is fixed it passes, the strict xfail turns that into a
failure, and whoever fixes it removes the mark and puts the left-out inputs back into ``hostfuzz``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.host import Actor, Host, HostError
from tests.security.selfplay import TickingClock

ALICE, BOB = Actor("100", "alice"), Actor("200", "bob")


@pytest.fixture
async def sqlite_host(tmp_path) -> AsyncIterator[Host]:
    host = await Host.open(tmp_path / "bugs.sqlite3", clock=TickingClock())
    yield host
    await host.close()


async def started_babylone(host: Host) -> int:
    info = await host.create_game("guild-1", "table", ALICE, "babylone", seed=3)
    await host.join("table", BOB)
    await host.start("table", ALICE)
    return info.game_id


@pytest.mark.parametrize("expiry_id", ["nan:round-1", ":", "move"])
async def test_garbage_expiry_id_is_refused(sqlite_host: Host, expiry_id: str) -> None:
    game_id = await started_babylone(sqlite_host)
    with pytest.raises(HostError):
        await sqlite_host.answer_expiry(game_id, BOB, expiry_id, "claim")


async def test_game_id_beyond_64_bits_is_refused(sqlite_host: Host) -> None:
    await started_babylone(sqlite_host)
    with pytest.raises(HostError):
        await sqlite_host.act(2**63, ALICE, "pass")


async def test_lost_game_resumes_only_in_its_own_guild(sqlite_host: Host) -> None:
    eve = Actor("777", "eve")
    info = await sqlite_host.create_game("guild-2", "foreign", eve, "babylone", seed=1)
    await sqlite_host.add_ai("foreign", eve, "random")
    await sqlite_host.start("foreign", eve)
    await sqlite_host.channel_lost("foreign")
    with pytest.raises(HostError):
        await sqlite_host.resume("guild-1/table", eve, guild_id="guild-1")
    moved = await sqlite_host.game_info(info.game_id)
    assert (moved.channel_id, moved.status) == ("foreign", "paused")
