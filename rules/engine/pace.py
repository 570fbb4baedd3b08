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
from .standing import AHEAD, AHEAD_CHOICES, Order, Orders, ahead_order, standing_answer


@dataclass
class WaitCounter:
    """Feed it each state's open decisions in turn (``observe``); it counts the waits and their kinds."""

    waits: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    #: the seats being asked now (their decision is not answered for them)
    asked: set[int] = field(default_factory=set)

    def observe(
        self,
        pending: Mapping[int, Decision],
        automatic: Collection[int] = (),
        ahead: Mapping[int, Decision] | None = None,
    ) -> set[int]:
        """The seats whose wait starts with these open decisions (``automatic``: seats answered for them;
        ``ahead``: seats asked now, with the decision asked, to answer a later decision ahead); a wait of
        several seats at once counts once, under the kind of its lowest seat's decision."""
        asking = {**(ahead or {}), **{seat: d for seat, d in pending.items() if seat not in automatic}}
        asked = set(asking)
        started = asked - self.asked
        self.asked = asked
        if started:
            self.waits += 1
            self.by_kind[asking[min(started)].kind] += 1
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
    #: decision kinds answered by an answer given ahead, and how often
    by_ahead: Counter[str] = field(default_factory=Counter)


def automatic_answer(
    game: Game,
    state: State,
    seat: int,
    decision: Decision,
    orders: Orders | None,
    autopass: bool,
    given_ahead: Order | None = None,
) -> tuple[str, str] | None:
    """(the answer, its source) that the host gives for the seat without asking it, or None: ask. The source
    is "autopass", "ahead" (``given_ahead``: the seat's answer given ahead) or "standing"."""
    if autopass and (passed := game.auto_pass(state, seat)) is not None:
        return passed, "autopass"
    for source, given in (("ahead", {AHEAD: given_ahead} if given_ahead else None), ("standing", orders)):
        if given:
            legal = game.legal_actions(state, seat)
            answer = standing_answer(game, game.view(state, seat), seat, decision, legal, given)
            if answer is not None:
                return answer, source
    return None


def _choose(
    game: Game, state: State, seat: int, level: str, chooser: random.Random, legal: list[str] | None = None
) -> str:
    """The AI's answer for the seat's decision in ``state``, from its view and legal actions."""
    legal = game.legal_actions(state, seat) if legal is None else legal
    if len(legal) == 1:
        return legal[0]
    return game.choose_action(game.view(state, seat), seat, legal, level, chooser)


def _preferences(game: Game, state: State, seat: int, level: str, chooser: random.Random) -> list[str]:
    """The AI's first choices for the seat's decision, best first (``AHEAD_CHOICES``, fewer if fewer answers
    are offered): its choice, then its choice among the others, and so on; free actions are left out."""
    answers = [action for action in game.legal_actions(state, seat) if not game.is_free(state, seat, action)]
    chosen: list[str] = []
    while answers and len(chosen) < AHEAD_CHOICES:
        choice = _choose(game, state, seat, level, chooser, answers)
        chosen.append(choice)
        answers = [action for action in answers if action != choice]
    return chosen


def ask_ahead(
    game: Game,
    state: State,
    given: dict[int, Order],
    orders: Mapping[int, Orders],
    autopass: bool,
    level: str,
    chooser: random.Random,
) -> dict[int, Decision]:
    """Ask every seat with an upcoming decision it may answer ahead (``Game.ahead``) and has not answered yet,
    unless its automatic answers would answer it anyway; the AI answers from the seat's view of the decision
    posed now (``Game.ahead_state``): its first choices in order (``_preferences``), kept in ``given``. Returns the seats asked, with their decisions."""
    asked = {}
    for seat, decision in game.ahead(state).items():
        if (order := given.get(seat)) is not None and order.names[0] == decision.id:
            continue  # answered ahead already
        preview = game.ahead_state(state, seat)
        if preview is None or automatic_answer(game, preview, seat, decision, orders.get(seat), autopass):
            continue
        given[seat] = ahead_order(decision.id, _preferences(game, preview, seat, level, chooser))
        asked[seat] = decision
    return asked


def paced_play(
    game: Game,
    num_players: int,
    seed: int,
    level: str,
    orders: Mapping[int, Orders] | None = None,
    autopass: bool = False,
    max_actions: int = 100_000,
    collect_ahead: bool = False,
) -> PacedGame:
    """Self-play with the AI ``level`` for every seat, counting waits. Automatic answers (the auto-pass when
    ``autopass``, each seat's standing ``orders``, its answer given ahead) are given first and start no wait;
    the AI decides everything else, one seat at a time (the lowest asked seat first). With ``collect_ahead``,
    whenever a queued decision is asked, the later seats of the queue are asked theirs at the same moment
    (``ask_ahead``); each answer given ahead is applied when its decision arises if it is legal then, and the
    seat is asked as usual if not."""
    playout = start(game, num_players, {}, seed)
    chooser = random.Random(seed)
    counter = WaitCounter()
    automatic: Counter[str] = Counter()
    by_order: Counter[str] = Counter()
    by_ahead: Counter[str] = Counter()
    given: dict[int, Order] = {}
    ahead_kinds: dict[int, str] = {}  # the kind of the decision each answer of ``given`` is for
    seat_orders = orders or {}
    for _ in range(max_actions):
        state = playout.state
        pending = game.pending(state)
        if not pending:
            break
        answers = {
            seat: found
            for seat, decision in pending.items()
            if (
                found := automatic_answer(
                    game, state, seat, decision, seat_orders.get(seat), autopass, given.get(seat)
                )
            )
        }
        ahead = ask_ahead(game, state, given, seat_orders, autopass, level, chooser) if collect_ahead else {}
        ahead_kinds.update({seat: decision.kind for seat, decision in ahead.items()})
        counter.observe(pending, answers, ahead)
        if answers:
            seat = min(answers)
            action, source = answers[seat]
            automatic[source] += 1
            if source in ("standing", "ahead"):
                (by_order if source == "standing" else by_ahead)[pending[seat].kind] += 1
        else:
            seat = min(pending)
            action = _choose(game, state, seat, level, chooser)
        if seat in ahead_kinds and ahead_kinds[seat] == pending[seat].kind:
            del given[seat], ahead_kinds[seat]  # its turn came: an answer given ahead serves once
        step(game, playout, seat, action)
    return PacedGame(playout, counter, automatic, by_order, by_ahead)


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
