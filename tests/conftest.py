from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.host import Actor, Host
from rules.engine.registry import register, unregister
from tests.support.games import SealedGuess


class FakeClock:
    """An injectable clock: tests move time forward instead of sleeping."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def host(tmp_path, clock) -> AsyncIterator[Host]:
    opened = await Host.open(tmp_path / "test.sqlite3", clock=clock)
    yield opened
    await opened.close()


@pytest.fixture
def sealed_game():
    game = SealedGuess()
    register(game)
    yield game
    unregister(game.key)


ALICE = Actor("100", "alice")
BOB = Actor("200", "bob")
CAROL = Actor("300", "carol")
MOD = Actor("900", "moderator", can_manage=True)
