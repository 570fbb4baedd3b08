"""Hostile input at the host level: random sequences of host calls with hostile arguments (see ``hostfuzz``).

Only ``HostError`` may reach a caller; every started game equals the replay of its events after every call;
outsiders, stale buttons and admin commands without the permission change nothing.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.host import Host
from rules.engine import available_games
from rules.engine.registry import register, unregister
from tests.security.hostfuzz import run_fuzz
from tests.security.selfplay import TickingClock, scratch_directory
from tests.support.games import CardWindows, SealedGuess

#: calls per example; examples per game (the bench makes thousands of calls)
STEPS, EXAMPLES = 25, 2
SEALED = SealedGuess()
#: card windows whose only answer is often "pass": the automatic pass and what a running game's export shows
WINDOWS = CardWindows()


@pytest.fixture(scope="module", autouse=True)
def sealed_test_game() -> Iterator[None]:
    register(SEALED)
    register(WINDOWS)
    yield
    unregister(SEALED.key)
    unregister(WINDOWS.key)


async def fuzz_once(key: str, rng: random.Random, steps: int) -> dict[str, int]:
    with scratch_directory() as directory:
        clock = TickingClock()
        host = await Host.open(Path(directory) / "fuzz.sqlite3", clock=clock)
        try:
            return await run_fuzz(host, clock, rng, key, steps)
        finally:
            await host.close()


@pytest.mark.parametrize("key", [*available_games(), SEALED.key, WINDOWS.key])
# no shrinking: one example is dozens of database calls, and the failure message names the failing call
# derandomized: CI runs the same examples every time (the bench explores with other seeds)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(rng=st.randoms(use_true_random=False))
def test_random_host_calls_only_refuse_with_host_errors(key: str, rng: random.Random) -> None:
    counts = asyncio.run(fuzz_once(key, rng, STEPS))
    assert sum(counts.values()) == STEPS


async def test_admin_commands_need_manage_channels() -> None:
    """Ending a running game at once and handing someone else's seat over are moderator powers."""
    from bot.host import HostError
    from tests.security.hostfuzz import ALICE, BOB, MALLORY, MOD, SAM

    with scratch_directory() as directory:
        host = await Host.open(Path(directory) / "admin.sqlite3", clock=TickingClock())
        try:
            info = await host.create_game("guild-1", "table", ALICE, "babylone", seed=2)
            await host.join("table", BOB)
            await host.start("table", ALICE)
            for actor in (ALICE, MALLORY):
                with pytest.raises(HostError):
                    await host.sub("table", actor, SAM, 1)
            await host.abandon("table", ALICE)  # a player's abandon is only a vote while bob has not agreed
            assert (await host.game_info(info.game_id)).status == "active"
            with pytest.raises(HostError):
                await host.abandon("table", MALLORY)
            with pytest.raises(HostError, match="is playing"):  # a present player's seat is not a moderator's
                await host.sub("table", MOD, SAM, 1)
            holder = (await host.game_info(info.game_id)).seats[1]
            await host.sub("table", ALICE if holder.user_id == ALICE.user_id else BOB, SAM)  # its holder may
            assert (await host.game_info(info.game_id)).seats[1].user_id == SAM.user_id
            await host.abandon("table", MOD)
            assert (await host.game_info(info.game_id)).status == "abandoned"
        finally:
            await host.close()
