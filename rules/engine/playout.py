"""Pure playouts and replays over the contract: used by tests, ``render`` and ``perft`` (no host, no I/O)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from .core import Event, Game, State
from .rng import ReplayRng, Rng, Seed


@dataclass
class Record:
    """One applied action as the host stores it: who, what, and the chance results it used."""

    seat: int
    action: str
    draws: list[int]


@dataclass
class Playout:
    seed: Seed
    num_players: int
    options: dict[str, str]
    setup_draws: list[int]
    records: list[Record] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    state: State = field(default_factory=dict)


#: chooses an action for ``seat`` among ``legal``; receives the seat's view, never the state
Chooser = Callable[[Game, dict, int, list[str], random.Random], str]


def random_chooser(game: Game, view: dict, seat: int, legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def start(game: Game, num_players: int, options: Mapping[str, str], seed: Seed) -> Playout:
    rng = Rng.for_event(seed, 0)
    state = game.setup(num_players, options, rng)
    return Playout(seed, num_players, dict(options), list(rng.draws), state=state)


def step(game: Game, playout: Playout, seat: int, action: str) -> list[Event]:
    rng = Rng.for_event(playout.seed, len(playout.records) + 1)
    applied = game.apply(playout.state, seat, action, rng)
    playout.state = applied.state
    playout.records.append(Record(seat, action, list(rng.draws)))
    playout.events.extend(applied.events)
    return applied.events


def play(
    game: Game,
    num_players: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    max_actions: int = 100_000,
    choosers: Mapping[int, Chooser] | None = None,
    stop_after: int | None = None,
) -> Playout:
    """Play from the start, each pending seat (lowest first) choosing from its view."""
    playout = start(game, num_players, options or {}, seed)
    agent_rng = random.Random(seed)
    for _ in range(max_actions if stop_after is None else stop_after):
        pending = game.pending(playout.state)
        if not pending:
            break
        seat = min(pending)
        legal = game.legal_actions(playout.state, seat)
        chooser = (choosers or {}).get(seat, random_chooser)
        action = chooser(game, game.view(playout.state, seat), seat, legal, agent_rng)
        step(game, playout, seat, action)
    return playout


class Recorded(Protocol):
    """An applied action as some log keeps it (a ``Record``, a stored event): who, what, the chance it drew.
    A seat of None is the setup's or the host's, applied as seat 0."""

    @property
    def seat(self) -> int | None: ...

    @property
    def action(self) -> str: ...

    @property
    def draws(self) -> Sequence[int]: ...


RecordT = TypeVar("RecordT", bound=Recorded)


def replay_from(game: Game, state: State, records: Iterable[Recorded]) -> State:
    """Apply recorded actions to ``state`` in order, each with the chance results it recorded.

    >>> from rules.engine import get_game
    >>> game = get_game("babylone")
    >>> playout = play(game, 2, seed=3, stop_after=4)
    >>> start = game.setup(2, {}, ReplayRng(playout.setup_draws))
    >>> replay_from(game, start, playout.records) == playout.state
    True
    """
    for record in records:
        state = game.apply(state, record.seat or 0, record.action, ReplayRng(list(record.draws))).state
    return state


def replay_steps(
    game: Game, state: State, records: Iterable[RecordT]
) -> Iterator[tuple[RecordT, State, State]]:
    """Each recorded action in order with the state before and after it (for replays that look at each step)."""
    for record in records:
        after = game.apply(state, record.seat or 0, record.action, ReplayRng(list(record.draws))).state
        yield record, state, after
        state = after


def setup_state(game: Game, num_players: int, options: Mapping[str, str], setup: Recorded) -> State:
    """The state a recorded setup (the log's first entry) made."""
    return game.setup(num_players, options, ReplayRng(list(setup.draws)))


def replay(
    game: Game,
    num_players: int,
    options: Mapping[str, str],
    setup_draws: Iterable[int],
    records: Iterable[Recorded],
) -> State:
    """Rebuild a state from the recorded log alone (no seed needed: chance comes from the records)."""
    return replay_from(game, game.setup(num_players, options, ReplayRng(list(setup_draws))), records)


def perft(game: Game, state: State, depth: int) -> int:
    """Leaves of the legal-action tree ``depth`` plies deep; a finished game is a leaf where it occurs."""
    if depth == 0:
        return 1
    pending = game.pending(state)
    if not pending:
        return 1
    seat = min(pending)
    total = 0
    for action in game.legal_actions(state, seat):
        after = game.apply(state, seat, action, Rng.for_event(0, 0)).state
        total += perft(game, after, depth - 1)
    return total
