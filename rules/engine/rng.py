"""Deterministic, recorded randomness.

A game never touches module-level ``random``. Each event gets its own generator derived from the game's seed
and the event number, and every number it hands out is written down (``draws``). The host stores those draws
in the event, and a replay feeds them back through :class:`ReplayRng`, so an old game replays exactly even if
the way a game uses its generator changes in a later release.

>>> rng = Rng.for_event(seed=7, seq=3)
>>> first = rng.randint(1, 6)
>>> ReplayRng(rng.draws).randint(1, 6) == first
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


class ReplayMismatch(RuntimeError):
    """A recorded chance result does not fit the call that asks for it (a corrupted or foreign log)."""


class Rng:
    """A seeded generator that records each integer it returns."""

    def __init__(self, seed_material: bytes) -> None:
        self._random = random.Random(int.from_bytes(hashlib.sha256(seed_material).digest()[:16], "big"))
        self.draws: list[int] = []

    @classmethod
    def for_event(cls, seed: int, seq: int) -> Rng:
        return cls(f"{seed}:{seq}".encode())

    def _next(self, low: int, high: int) -> int:
        return self._random.randint(low, high)

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, recorded."""
        if low > high:
            raise ValueError("empty range")
        value = self._next(low, high)
        self.draws.append(value)
        return value

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randint(0, len(items) - 1)]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates with recorded indices, so a replay needs no knowledge of ``random``'s algorithm."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randint(0, i)
            items[i], items[j] = items[j], items[i]

    def roll(self, sides: int = 6) -> int:
        return self.randint(1, sides)


class ReplayRng(Rng):
    """Hands back recorded draws in order; checks each one fits the range asked for."""

    def __init__(self, draws: Sequence[int]) -> None:
        self._recorded = list(draws)
        self._pos = 0
        self.draws = []

    def _next(self, low: int, high: int) -> int:
        if self._pos >= len(self._recorded):
            raise ReplayMismatch("the event log has fewer chance results than the rules ask for")
        value = self._recorded[self._pos]
        self._pos += 1
        if not low <= value <= high:
            raise ReplayMismatch(f"recorded chance result {value} is outside {low}..{high}")
        return value

    @property
    def exhausted(self) -> bool:
        return self._pos == len(self._recorded)


class NoChance(Rng):
    """For a lookahead that must not depend on luck: asking for a die is a bug there."""

    def __init__(self) -> None:
        self.draws = []

    def _next(self, low: int, high: int) -> int:
        raise ReplayMismatch("this step was not expected to use chance")
