"""Deterministic, recorded randomness.

A game never touches module-level ``random``. Each event gets its own generator derived from the game's seed
and the event number, and every number it hands out is written down (``draws``, with the range asked for in
``ranges``). The host stores those draws in the event, and a replay feeds them back through :class:`ReplayRng`,
so an old game replays exactly even if the way a game uses its generator changes in a later release.

Two kinds of seed, told apart by their form (see ``seed_scheme``):

* ``hmac-sha256`` (games created since seeds became 256-bit): the seed is 64 hexadecimal digits, 32 bytes the
  host draws from ``secrets``. The k-th number an event draws (k = 0, 1, ... counting every attempt) is derived
  from ``x = HMAC-SHA256(key=bytes.fromhex(seed), msg=f"{seq}:{k}")`` read as a 256-bit big-endian integer:
  for a range ``low..high`` with ``n = high - low + 1`` values, ``x`` is accepted when
  ``x < 2**256 - 2**256 % n`` and gives ``low + x % n``; otherwise (a chance below n / 2**256) the next k is
  tried. Any language with HMAC-SHA256 and big integers reimplements it in a few lines, and no number reveals
  anything about the key, so past dice never predict future ones.
* ``sha256-mt19937`` (games created before, and tests, self-play and benchmarks that pass an integer): the seed
  is an integer, and an event's generator is CPython's ``random.Random`` seeded with the first 16 bytes of
  ``sha256(f"{seed}:{seq}")`` read big-endian, each number being ``randint(low, high)``. Reimplementing it
  means reimplementing CPython's Mersenne Twister seeding and ``randbelow``. Kept so stored games verify.

>>> rng = Rng.for_event(seed=7, seq=3)
>>> first = rng.randint(1, 6)
>>> ReplayRng(rng.draws).randint(1, 6) == first
True
>>> keyed = Rng.for_event("00" * 32, 3)
>>> keyed.randint(1, 6) == Rng.for_event("00" * 32, 3).randint(1, 6)
True
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

#: a seed: an integer (legacy games) or the text the games table stores (decimal digits, or 64 hex digits)
Seed = int | str
#: bytes of a new game's seed, drawn by the host from ``secrets`` and written as lowercase hexadecimal
SEED_BYTES = 32
LEGACY_SCHEME = "sha256-mt19937"
KEYED_SCHEME = "hmac-sha256"
_HEX = frozenset("0123456789abcdefABCDEF")
#: the event label of the lobby's random seat order under a keyed seed (events are numbered from 0)
SEAT_ORDER_LABEL = "seats"


class ReplayMismatch(RuntimeError):
    """A recorded chance result does not fit the call that asks for it (a corrupted or foreign log)."""


def seed_scheme(seed: Seed) -> str:
    """``hmac-sha256`` for 64 hexadecimal digits, ``sha256-mt19937`` for an integer (or its decimal digits);
    ``ValueError`` for anything else."""
    if isinstance(seed, bool):
        raise ValueError("a seed is an integer or a text, not a truth value")
    if isinstance(seed, int):
        return LEGACY_SCHEME
    if isinstance(seed, str):
        if len(seed) == 2 * SEED_BYTES and set(seed) <= _HEX:
            return KEYED_SCHEME
        digits = seed[1:] if seed.startswith("-") else seed
        if digits.isascii() and digits.isdigit() and len(digits) <= 2 * SEED_BYTES - 1:
            return LEGACY_SCHEME
    raise ValueError(f"{str(seed)[:80]!r} is not a seed: 64 hexadecimal digits or a whole number")


class Rng:
    """A seeded generator that records each integer it returns (legacy derivation, see the module doc)."""

    def __init__(self, seed_material: bytes) -> None:
        self._random = random.Random(int.from_bytes(hashlib.sha256(seed_material).digest()[:16], "big"))
        self.draws: list[int] = []
        self.ranges: list[tuple[int, int]] = []

    @classmethod
    def for_event(cls, seed: Seed, seq: int) -> Rng:
        """Event ``seq``'s generator under ``seed``, by the seed's scheme."""
        if seed_scheme(seed) == KEYED_SCHEME:
            assert isinstance(seed, str)
            return KeyedRng(bytes.fromhex(seed), str(seq))
        return Rng(f"{int(seed)}:{seq}".encode())

    def _next(self, low: int, high: int) -> int:
        return self._random.randint(low, high)

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``, recorded."""
        if low > high:
            raise ValueError("empty range")
        value = self._next(low, high)
        self.draws.append(value)
        self.ranges.append((low, high))
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


class KeyedRng(Rng):
    """HMAC-SHA256 in counter mode with rejection sampling (the ``hmac-sha256`` scheme of the module doc)."""

    def __init__(self, key: bytes, label: str) -> None:
        self._key = key
        self._prefix = f"{label}:".encode()
        self._counter = 0
        self.draws = []
        self.ranges = []

    def _next(self, low: int, high: int) -> int:
        span = high - low + 1
        limit = (1 << 256) - (1 << 256) % span  # the largest multiple of span: every value equally likely
        while True:
            block = hmac.digest(self._key, self._prefix + str(self._counter).encode(), "sha256")
            self._counter += 1
            value = int.from_bytes(block, "big")
            if value < limit:
                return low + value % span


def shuffle_seats(seed: Seed, seats: MutableSequence[T]) -> None:
    """The lobby's random seat order: under a keyed seed the Fisher-Yates shuffle of ``KeyedRng`` with the label
    ``seats``; under a legacy seed ``random.Random(seed).shuffle``, as those games were started."""
    if seed_scheme(seed) == KEYED_SCHEME:
        assert isinstance(seed, str)
        KeyedRng(bytes.fromhex(seed), SEAT_ORDER_LABEL).shuffle(seats)
    else:
        random.Random(int(seed)).shuffle(seats)


class ReplayRng(Rng):
    """Hands back recorded draws in order; checks each one fits the range asked for."""

    def __init__(self, draws: Sequence[int]) -> None:
        self._recorded = list(draws)
        self._pos = 0
        self.draws = []
        self.ranges = []

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
        self.ranges = []

    def _next(self, low: int, high: int) -> int:
        raise ReplayMismatch("this step was not expected to use chance")
