"""How long a searching AI may think: a count of iterations, capped by wall time in play.

The count makes a decision deterministic (the same view, rng and iteration budget give the same action on any
machine, so tests and replays are stable); the wall-time cap only keeps a decision within its second when the
machine is slow or busy. A seat's AI level may carry its own cap: ``expert`` thinks up to
``DEFAULT_SECONDS``, ``expert:3s`` (also ``expert 3s``, ``expert:3``) up to 3 seconds.

>>> split_level("expert:2.5s")
('expert', 2.5)
>>> split_level("hard")
('hard', None)
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

#: a searching level's wall-time cap per decision when the seat sets none
DEFAULT_SECONDS = 1.0
#: the longest a seat may let its AI think per decision (the game waits meanwhile)
MAX_SECONDS = 10.0
MIN_SECONDS = 0.1

_LEVEL_WITH_TIME = re.compile(r"^([a-z][a-z0-9-]*)\s*[:\s]\s*(\d+(?:\.\d+)?)\s*s?$")


class LevelError(ValueError):
    """A level text whose time part cannot be read or is out of range (the message is for a player)."""


def split_level(level: str) -> tuple[str, float | None]:
    """The level's name and the seconds it names (None: the level's own default)."""
    text = level.strip().lower()
    match = _LEVEL_WITH_TIME.match(text)
    if match is None:
        return text, None
    seconds = float(match.group(2))
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise LevelError(
            f"An AI may think from {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds per decision, not {seconds:g}."
        )
    return match.group(1), seconds


@dataclass(frozen=True)
class Budget:
    """``iterations`` of search at most, and at most ``seconds`` of wall time (None: no clock at all)."""

    iterations: int
    seconds: float | None = DEFAULT_SECONDS

    def for_level(self, level: str) -> Budget:
        """This budget with the time cap the level text names, if it names one."""
        seconds = split_level(level)[1]
        return self if seconds is None else Budget(self.iterations, seconds)

    def stopwatch(self, clock: Callable[[], float] = time.perf_counter) -> Stopwatch:
        return Stopwatch(self, clock)


class Stopwatch:
    """Counts a search's iterations against its budget; ``spent()`` is cheap enough to ask every iteration."""

    #: the clock is read once per this many iterations (reading it costs more than an iteration's bookkeeping)
    CLOCK_EVERY = 32
    #: the share of the time cap the search may use: the rest is for what follows it (picking the move,
    #: sending it back to the bot)
    MARGIN = 0.9

    def __init__(self, budget: Budget, clock: Callable[[], float]) -> None:
        self.iterations = 0
        self.limit = budget.iterations
        self._clock = clock
        self._deadline = None if budget.seconds is None else clock() + budget.seconds * self.MARGIN
        self._next_look = self.CLOCK_EVERY
        #: whether the wall-time cap (rather than the count) ended the search
        self.timed_out = False

    def tick(self, iterations: int = 1) -> bool:
        """Count ``iterations``; True when the budget is spent (the search must stop)."""
        self.iterations += iterations
        return self.spent()

    def spent(self) -> bool:
        if self.iterations >= self.limit:
            return True
        if self._deadline is not None and self.iterations >= self._next_look:
            self._next_look = self.iterations + self.CLOCK_EVERY
            self.timed_out = self.timed_out or self._clock() >= self._deadline
        return self.timed_out
