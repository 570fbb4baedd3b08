"""Pace: how many times a game stops to wait for a person (issue 18), counted the same way by the benchmark
(``bench.bench_pace``, self-play) and the host (``/game status``'s time to finish, from the stored log).

A *wait* starts whenever a seat that was not being asked anything is asked a decision that nobody answers for it:
prompts that start together count once, several decisions in a row by the same seat count once, and an automatic
answer (an automatic pass, a standing order) is no wait.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from .core import Decision, Game, State
from .playout import Playout, Recorded, start, step
from .rng import ReplayRng
from .standing import Orders, standing_answer


@dataclass
class WaitCounter:
    """Feed it each state's open decisions in turn (``observe``); it counts the waits and their kinds."""

    waits: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    #: the seats being asked now (their decision is not answered for them)
    asked: set[int] = field(default_factory=set)

    def observe(self, pending: Mapping[int, Decision], automatic: Collection[int] = ()) -> set[int]:
        """The seats whose wait starts with these open decisions (``automatic``: seats answered for them); a
        wait of several seats at once counts once, under the kind of its lowest seat's decision."""
        asked = {seat for seat in pending if seat not in automatic}
        started = asked - self.asked
        self.asked = asked
        if started:
            self.waits += 1
            self.by_kind[pending[min(started)].kind] += 1
        return started


@dataclass
class PacedGame:
    """One self-played game: its playout and its waits."""

    playout: Playout
    waits: WaitCounter
    #: automatic answers given, by their source ("autopass", "standing")
    automatic: Counter[str]
    #: decision kinds answered by a standing order, and how often
    by_order: Counter[str] = field(default_factory=Counter)


def automatic_answer(
    game: Game, playout: Playout, seat: int, decision: Decision, orders: Orders | None, autopass: bool
) -> tuple[str, str] | None:
    """(the answer, its source) that the host gives for the seat without asking it, or None: ask."""
    state = playout.state
    if autopass and (passed := game.auto_pass(state, seat)) is not None:
        return passed, "autopass"
    if orders:
        legal = game.legal_actions(state, seat)
        answer = standing_answer(game, game.view(state, seat), seat, decision, legal, orders)
        if answer is not None:
            return answer, "standing"
    return None


def paced_play(
    game: Game,
    num_players: int,
    seed: int,
    level: str,
    orders: Mapping[int, Orders] | None = None,
    autopass: bool = False,
    max_actions: int = 100_000,
) -> PacedGame:
    """Self-play with the AI ``level`` for every seat, counting waits. Automatic answers (the auto-pass when
    ``autopass``, each seat's standing ``orders``) are given first and start no wait; the AI decides everything
    else, one seat at a time (the lowest asked seat first)."""
    playout = start(game, num_players, {}, seed)
    chooser = random.Random(seed)
    counter = WaitCounter()
    automatic: Counter[str] = Counter()
    by_order: Counter[str] = Counter()
    for _ in range(max_actions):
        pending = game.pending(playout.state)
        if not pending:
            break
        answers = {
            seat: found
            for seat, decision in pending.items()
            if (found := automatic_answer(game, playout, seat, decision, (orders or {}).get(seat), autopass))
        }
        counter.observe(pending, answers)
        if answers:
            seat = min(answers)
            action, source = answers[seat]
            automatic[source] += 1
            if source == "standing":
                by_order[pending[seat].kind] += 1
        else:
            seat = min(pending)
            legal = game.legal_actions(playout.state, seat)
            if len(legal) == 1:
                action = legal[0]
            else:
                action = game.choose_action(game.view(playout.state, seat), seat, legal, level, chooser)
        step(game, playout, seat, action)
    return PacedGame(playout, counter, automatic, by_order)


def timed_waits(
    game: Game,
    state: State,
    events: Iterable[tuple[Recorded, float]],
    started: float,
    automatic: Collection[int] = (),
    answered_at: Mapping[tuple[str, int], float] | None = None,
) -> tuple[WaitCounter, list[tuple[int, float]]]:
    """Replay a stored log (each recorded action with the time it was stored) from ``state`` (stored at
    ``started``), counting its waits; returns the counter and, per wait that ended, (seat, seconds until that
    seat's first answer). ``automatic``: seats that never make anyone wait (AI seats); ``answered_at``: when a
    seat really answered a decision (decision id, seat), where that is earlier than its event (a sealed choice is
    stored when the last seat seals)."""
    counter = WaitCounter()
    since: dict[int, float] = {}
    samples: list[tuple[int, float]] = []
    moment = started
    for record, stored_at in events:
        pending = game.pending(state)
        for seat in counter.observe(pending, automatic):
            since[seat] = moment
        seat = record.seat or 0
        decision = pending.get(seat)
        answered = (answered_at or {}).get((decision.id, seat), stored_at) if decision else stored_at
        if seat in since:
            samples.append((seat, max(0.0, answered - since.pop(seat))))
        state = game.apply(state, seat, record.action, ReplayRng(list(record.draws))).state
        moment = stored_at
    counter.observe(game.pending(state), automatic)
    return counter, samples


def expected_waits(game: Game, num_players: int, seeds: int = 3) -> float:
    """The median waits of a whole game in self-play with the game's simplest AI level and the automatic pass
    (for a game whose progress the rules cannot tell)."""
    level = game.ai_levels[-1] if game.ai_levels else "random"
    return statistics.median(
        paced_play(game, num_players, seed, level, autopass=True).waits.waits for seed in range(1, seeds + 1)
    )


def quantile(ordered: list[float], fraction: float) -> float:
    """The value ``fraction`` of the way through sorted values (nearest rank)."""
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]
