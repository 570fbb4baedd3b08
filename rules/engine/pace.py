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
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from .core import Decision, Game, State
from .playout import Playout, Recorded, start, step
from .rng import ReplayRng
from .standing import (
    AHEAD,
    AHEAD_CHOICES,
    AHEAD_PLAN,
    MAX_TURN_STEPS,
    OFFERED,
    Order,
    Orders,
    ahead_order,
    standing_answer,
    turn_key,
    turn_order,
    turn_rest,
)
from .turn_ahead import preview_after


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
    given_plan: Order | None = None,
    given_turns: Orders | None = None,
) -> tuple[str, str] | None:
    """(the answer, its source) that the host gives for the seat without asking it, or None: ask. The source
    is "autopass", "ahead" (``given_ahead``: the seat's answer given ahead; ``given_plan``: its answer given when
    it sealed its plan, ``Game.plan_ahead``; ``given_turns``: its own turns answered ahead, ``Game.turn_ahead``) or
    "standing"."""
    if autopass and (passed := game.auto_pass(state, seat)) is not None:
        return passed, "autopass"
    early = ((AHEAD, given_ahead), (AHEAD_PLAN, given_plan))
    given_early = {**{key: order for key, order in early if order}, **(given_turns or {})}
    for source, given in (("ahead", given_early), ("standing", orders)):
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


def ask_turns(
    game: Game,
    state: State,
    given: dict[int, dict[str, Order]],
    orders: Mapping[int, Orders],
    level: str,
    chooser: random.Random,
    riding: Collection[int],
    sighted: Collection[str] = (),
) -> dict[int, Decision]:
    """Ask every seat whose own turn is in sight (``Game.turn_ahead``) and was not asked it yet, when its seat is
    in a wait of its own (``riding``: it has just answered, or is asked) or the turn has just come in sight
    publicly (not in ``sighted``, ``Game.turn_comes_publicly``): the AI goes
    through the turn on the preview (``turn_ahead.preview_after``), its answers kept in ``given`` (under
    ``standing.turn_key``) until the preview stops. Returns the seats asked, with their decisions."""
    asked = {}
    for seat, decisions in game.turn_ahead(state).items():
        turns = given.setdefault(seat, {})
        fresh = [decision for decision in decisions if turn_key(decision.id) not in turns]
        public = any(game.turn_comes_publicly(d) and d.id not in sighted for d in fresh)
        if seat not in riding and not public:
            continue  # offered only with its seat's own wait, or at the public moment one comes in sight
        for decision in fresh:  # the seat, asked, goes through every turn of its in sight
            steps = _turn_steps(game, state, seat, decision.id, level, chooser, orders.get(seat, {}))
            turns[turn_key(decision.id)] = (
                turn_order(decision.id, steps) if steps else Order(OFFERED, (decision.id,))
            )
            if steps:
                asked[seat] = decision
    return asked


def _turn_steps(
    game: Game, state: State, seat: int, slot: str, level: str, chooser: random.Random, orders: Orders
) -> list[tuple[str, str]]:
    """The AI's answers of the seat's turn of ``slot`` on its preview, answer after answer until the preview
    stops (none: nothing to decide there, its only answer is passed for it or its standing ``orders`` answer it
    when the turn comes)."""
    preview = game.turn_ahead_state(state, seat, slot)
    if preview is not None and automatic_answer(
        game, preview, seat, game.pending(preview)[seat], orders, True
    ):
        return []
    steps: list[tuple[str, str]] = []
    while preview is not None and len(steps) < MAX_TURN_STEPS:
        posed = game.pending(preview)[seat]
        answers = [a for a in game.legal_actions(preview, seat) if not game.is_free(preview, seat, a)]
        if not answers:
            break
        action = _choose(game, preview, seat, level, chooser, answers)  # free actions: any time, not ahead
        steps.append((posed.kind, action))
        preview = preview_after(game, preview, seat, slot, action)
    return steps


def _next_seat(pending: Mapping[int, Decision], answers: Mapping[int, tuple[str, str]], paired: bool) -> int:
    """The seat that answers next: the lowest answered automatically, else the lowest asked; ``paired``: the
    lowest passed automatically, else the lowest asked (the order of a game without standing orders)."""
    first = [seat for seat, (_action, source) in answers.items() if source == "autopass" or not paired]
    return min(first) if first else min(pending)


def paced_play(
    game: Game,
    num_players: int,
    seed: int,
    level: str,
    orders: Mapping[int, Orders] | None = None,
    autopass: bool = False,
    max_actions: int = 100_000,
    collect_ahead: bool = False,
    answer_plan: bool = False,
    paired: bool = False,
    watch: Callable[[State, int, Decision, str, str], None] | None = None,
    options: Mapping[str, str] | None = None,
    collect_turns: bool = False,
) -> PacedGame:
    """Self-play with the AI ``level`` for every seat, counting waits. Automatic answers (the auto-pass when
    ``autopass``, each seat's standing ``orders``, its answer given ahead) are given first and start no wait;
    the AI decides everything else, one seat at a time (the lowest asked seat first). With ``collect_ahead``,
    whenever a queued decision is asked, the later seats of the queue are asked theirs at the same moment
    (``ask_ahead``); each answer given ahead is applied when its decision arises if it is legal then, and the
    seat is asked as usual if not. With ``answer_plan``, a seat that seals a plan answers at once what the plan
    implies (``Game.plan_ahead``: PRINCIPES's Taxes choice, its first answer, "collect"), given when it comes.
    With ``paired`` (``bench.bench_orders``), the game is played as the game without orders on the same seed
    would be: the seats in the same order (an automatic pass first, else the lowest asked seat, answered by its
    order where it has one), and where an order answers, the AI chooses too (its choice dropped), drawing from
    its random generator as it would have without the order. So an order that answers as the AI would have
    changes nothing: the game is the game without it, move for move, dice and all. ``watch``, if given, sees
    each answer before it is applied: the state, the seat, its decision, the answer and its source ("ai", or
    the automatic answer's). ``options``: the game's lobby options (default: every option's default)."""
    playout = start(game, num_players, options or {}, seed)
    chooser = random.Random(seed)
    counter = WaitCounter()
    automatic: Counter[str] = Counter()
    by_order: Counter[str] = Counter()
    by_ahead: Counter[str] = Counter()
    given: dict[int, Order] = {}
    planned: dict[int, Order] = {}  # each seat's answer given when it sealed its plan
    ahead_kinds: dict[int, str] = {}  # the kind of the decision each answer of ``given`` is for
    turns: dict[int, dict[str, Order]] = {}  # each seat's own turns answered ahead (``collect_turns``)
    clicked: set[int] = set()  # the seat that has just answered by its own click
    sighted: set[str] = set()  # the turns in sight before this step
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
                    game,
                    state,
                    seat,
                    decision,
                    seat_orders.get(seat),
                    autopass,
                    given.get(seat),
                    planned.get(seat),
                    turns.get(seat),
                )
            )
        }
        ahead = ask_ahead(game, state, given, seat_orders, autopass, level, chooser) if collect_ahead else {}
        ahead_kinds.update({seat: decision.kind for seat, decision in ahead.items()})
        # a turn is offered with a step that asks someone new (the host's rule, ``bot.hosting.turns``: never a
        # message of its own; which seats are answered automatically is private, so it is not read)
        # a turn is offered only with its own seat's wait (the host's rule, ``bot.hosting.turns``): to the seat
        # that has just answered by its own click, or that is asked now
        riding = {seat for seat in pending if seat not in answers} | clicked
        turned = (
            ask_turns(game, state, turns, seat_orders, level, chooser, riding, sighted)
            if collect_turns
            else {}
        )
        sighted = {d.id for ds in game.turn_ahead(state).values() for d in ds} if collect_turns else set()
        counter.observe(pending, answers, {**turned, **ahead})
        seat = _next_seat(pending, answers, paired)
        if seat in answers:
            action, source = answers[seat]
            automatic[source] += 1
            if source in ("standing", "ahead"):
                (by_order if source == "standing" else by_ahead)[pending[seat].kind] += 1
                if paired:
                    _choose(game, state, seat, level, chooser)  # the draws the AI makes without the order
        else:
            action, source = _choose(game, state, seat, level, chooser), "ai"
        clicked = {seat} if source == "ai" else set()
        if watch is not None:
            watch(state, seat, pending[seat], action, source)
        if seat in ahead_kinds and ahead_kinds[seat] == pending[seat].kind:
            del given[seat], ahead_kinds[seat]  # its turn came: an answer given ahead serves once
        _use_turn(game, state, seat, pending[seat], action, turns.get(seat))
        if answer_plan and pending[seat].sealed:
            offers = game.plan_ahead(state, seat, action)
            planned.pop(seat, None)  # each new sealing starts again from "ask me"
            if offers and offers[0].answers:
                planned[seat] = ahead_order(offers[0].slot, [offers[0].answers[0][0]])
        step(game, playout, seat, action)
    return PacedGame(playout, counter, automatic, by_order, by_ahead)


def _use_turn(
    game: Game, state: State, seat: int, decision: Decision, action: str, turns: dict[str, Order] | None
) -> None:
    """The seat answered ``action`` in its turn: the answer it gave ahead for it is used up, or (another answer)
    the rest of the turn answered ahead is dropped."""
    if not turns:
        return
    slot = game.turn_slot(game.view(state, seat), seat, decision)
    key = turn_key(slot) if slot is not None else None
    if key in turns:
        rest = turn_rest(turns[key], action, slot)
        if rest is None:
            turns[key] = Order(OFFERED, (str(slot),))  # answered, so never asked again
        else:
            turns[key] = rest


@dataclass
class LogPace:
    """A stored game's pace read from its log (``log_pace``), at a point of it: the waits that started before that
    point, the time from the first wait's start to the point and how it splits between the waits (each wait's
    span runs to the next wait's start), each seat's answer times, and the share of the game played then."""

    waits: int
    elapsed: float
    #: of ``waits``, those that started with only unsampled decisions (card windows) asked
    unsampled_waits: int
    spans: list[float]
    #: per wait that ended: (seat, seconds until that seat's first answer)
    samples: list[tuple[int, float]]
    #: ``Game.progress`` at the point (None: the rules cannot tell)
    share: float | None
    #: the point's moment, and the number of events up to it
    at: float
    events: int
    #: per wait that ended with a sampled answer: its time, until the last of the seats asked at its start gave
    #: its first answer (a decision asked of several seats at once, a sealed plan say, waits for the slowest)
    wait_times: list[float] = field(default_factory=list)
    #: per wait that ended with a deadline's default for one of its seats: how long it had lasted then (it would
    #: have lasted longer had the player been waited for: a censored observation of a wait's time)
    expired_times: list[float] = field(default_factory=list)


@dataclass
class _OpenWaits:
    """The waits under way while a log is replayed (``log_pace``): since when each asked seat is waited for, and
    each wait's seats that have not answered yet, so that a wait is timed until its last seat's first answer."""

    since: dict[int, float] = field(default_factory=dict)
    #: seat -> the number of the wait it was asked in
    wait_of: dict[int, int] = field(default_factory=dict)
    #: wait number -> its seats that have not answered yet
    unanswered: dict[int, set[int]] = field(default_factory=dict)
    #: wait number -> the longest sampled answer time of its seats so far
    longest: dict[int, float] = field(default_factory=dict)
    #: the waits one of whose seats let its deadline pass
    expired: set[int] = field(default_factory=set)
    samples: list[tuple[int, float]] = field(default_factory=list)
    wait_times: list[float] = field(default_factory=list)
    expired_times: list[float] = field(default_factory=list)

    def start(self, number: int, seats: Collection[int], moment: float) -> None:
        """Wait ``number`` starts at ``moment``, asking ``seats``."""
        for seat in seats:
            self._leave(seat)  # a seat asked again whose earlier decision went without its answer
            self.since[seat] = moment
            self.wait_of[seat] = number
        self.unanswered[number] = set(seats)

    def answer(self, seat: int, answered: float, sampled: bool, expired: bool = False) -> None:
        """The seat answered at ``answered``; ``sampled``: its answer time tells how long people take;
        ``expired``: its deadline's default answered (it had not answered by then)."""
        if seat not in self.since:
            return  # not waited for: asked again the moment it answered, or answered for it
        waited = max(0.0, answered - self.since[seat])
        if sampled:
            self.samples.append((seat, waited))
            number = self.wait_of[seat]
            self.longest[number] = max(waited, self.longest.get(number, 0.0))
            if expired:
                self.expired.add(number)
        self._leave(seat)

    def _leave(self, seat: int) -> None:
        """The seat is no longer waited for in its wait; the wait ends with its last seat."""
        self.since.pop(seat, None)
        number = self.wait_of.pop(seat, None)
        if number is None:
            return
        seats = self.unanswered[number]
        seats.discard(seat)
        if not seats:
            del self.unanswered[number]
            if number in self.longest:
                ended = self.expired_times if number in self.expired else self.wait_times
                ended.append(self.longest.pop(number))
                self.expired.discard(number)


def log_pace(
    game: Game,
    state: State,
    events: Sequence[tuple[Recorded, float]],
    started: float,
    automatic: Callable[[int, int, Decision | None], bool],
    answered_at: Mapping[tuple[str, int], float] | None = None,
    still_automatic: Collection[int] = (),
    at_progress: bool = False,
    unsampled: Callable[[Decision], bool] = lambda decision: False,
    expired: Callable[[int], bool] = lambda index: False,
) -> LogPace:
    """Replay a stored log (each recorded action with the time it was stored) from ``state`` (stored at
    ``started``), counting its waits as ``WaitCounter`` does. ``automatic(index, seat, decision)``: whether
    event ``index`` was an automatic answer (an AI seat, a standing order, an answer given ahead, the automatic
    pass, a deadline's default): a seat whose decision is answered automatically is not waited for;
    ``still_automatic``: seats whose open decisions at the log's end are answered so (AI seats).
    ``answered_at``: when a seat really answered a decision (decision id, seat), where that is earlier than its
    event (a sealed choice is stored when the last seat seals). With ``at_progress``, the pace is read at the
    last event after which ``Game.progress`` rose (the start of the current Round), else at the log's end.
    ``unsampled(decision)``: waits whose answer time is not sampled (a card window, whose pass may be the
    automatic one: they count as waits whoever answered, and their answer times tell nothing). ``expired(index)``:
    event ``index`` was a deadline's default (not ``automatic``: the seat was waited for until its deadline); a
    wait one of whose seats expired is timed into ``LogPace.expired_times``, not ``wait_times``."""
    pendings: list[dict[int, Decision]] = []
    shares: list[float | None] = [game.progress(state)]
    for record, _stored_at in events:
        pendings.append(game.pending(state))
        state = game.apply(state, record.seat or 0, record.action, ReplayRng(list(record.draws))).state
        shares.append(game.progress(state))
    pendings.append(game.pending(state))
    # before each event, the seats whose open decision is answered automatically: those whose next event is
    # automatic, and those with no event left among ``still_automatic``
    by_next: dict[int, bool] = {}
    autos: list[set[int]] = [set(still_automatic)]
    for index in range(len(events) - 1, -1, -1):
        seat = events[index][0].seat or 0
        decision = pendings[index].get(seat)
        by_next[seat] = automatic(index, seat, decision)
        autos.append({s for s, auto in by_next.items() if auto} | (set(still_automatic) - set(by_next)))
    autos.reverse()
    point = len(events)
    if at_progress:
        rises = [i for i in range(1, len(shares)) if (shares[i] or 0.0) > (shares[i - 1] or 0.0)]
        point = rises[-1] if rises else point
    counter = WaitCounter()
    open_waits = _OpenWaits()
    starts: list[float] = []
    unsampled_waits = 0
    moment = started
    for index in range(point):
        record, stored_at = events[index]
        pending = pendings[index]
        started_now = counter.observe(pending, autos[index])
        if started_now:
            open_waits.start(len(starts), started_now, moment)
            starts.append(moment)
            unsampled_waits += all(unsampled(pending[seat]) for seat in started_now)
        seat = record.seat or 0
        decision = pending.get(seat)
        answered = (answered_at or {}).get((decision.id, seat), stored_at) if decision else stored_at
        open_waits.answer(seat, answered, decision is None or not unsampled(decision), expired(index))
        if expired(index):
            counter.asked.discard(seat)  # away until its deadline: its next decision is a wait of its own
        moment = stored_at
    # each wait's span runs to the next wait's start, the last one's to the point (no wait: no span)
    ends = [*starts[1:], moment] if starts else []
    spans = [later - earlier for earlier, later in zip(starts, ends, strict=True)]
    return LogPace(
        len(starts),
        sum(spans),
        unsampled_waits,
        spans,
        open_waits.samples,
        shares[point],
        moment,
        point,
        open_waits.wait_times,
        open_waits.expired_times,
    )


@dataclass
class ProgressMoments:
    """When a stored game reached each share of the game played (``progress_moments``) and when it ended."""

    #: the moment its setup was stored
    started: float
    #: ``Game.progress`` -> the moment of the event after which the game first reached it (a Round's start)
    reached: dict[float, float]
    #: the moment of its last event
    ended: float

    def at(self, share: float) -> float | None:
        """The moment the game reached ``share``, or None (it ended before)."""
        return next(
            (moment for reached, moment in self.reached.items() if abs(reached - share) < _SAME_SHARE), None
        )


def progress_moments(
    game: Game, state: State, events: Sequence[tuple[Recorded, float]], started: float
) -> ProgressMoments:
    """Replay a stored log (each recorded action with the time it was stored) from ``state`` (stored at
    ``started``): the moment each share of the game played (``Game.progress``) was first reached, at the same
    point ``log_pace(at_progress=True)`` reads a Round's start (the event after which the share rose).

    >>> from rules.engine import get_game
    >>> from rules.engine.playout import play
    >>> game = get_game("principes")
    >>> playout = play(game, 2, seed=1, stop_after=400)
    >>> start = game.setup(2, {}, ReplayRng(playout.setup_draws))
    >>> timed = [(record, 100.0 + index) for index, record in enumerate(playout.records)]
    >>> moments = progress_moments(game, start, timed, 99.0)
    >>> moments.at(0.0), moments.ended == timed[-1][1]
    (99.0, True)
    >>> game.progress(playout.state) > 0 and moments.at(game.progress(playout.state)) is not None
    True
    """
    share = game.progress(state)
    reached = {share: started} if share is not None else {}
    for record, stored_at in events:
        state = game.apply(state, record.seat or 0, record.action, ReplayRng(list(record.draws))).state
        now = game.progress(state)
        if now is not None and (share is None or now > share + _SAME_SHARE):
            reached.setdefault(now, stored_at)
        share = now if now is not None else share
    return ProgressMoments(started, reached, events[-1][1] if events else started)


@dataclass
class SelfPlayPace:
    """A game's waits in self-play (``self_play_pace``): a whole game's, and how they fall Round by Round."""

    #: the median waits of a whole game
    waits: float
    #: ``Game.progress`` at a Round's start -> the mean waits that started in that Round, a game that ended
    #: before it counting none (empty: the rules cannot tell the share played)
    by_round: dict[float, float]

    def later_over_earlier(self, share: float) -> float | None:
        """The waits of the Rounds from ``share`` on over those of the Rounds before it, or None (none before)."""
        earlier = sum(waits for start, waits in self.by_round.items() if start < share - _SAME_SHARE)
        later = sum(waits for start, waits in self.by_round.items() if start >= share - _SAME_SHARE)
        return later / earlier if earlier > 0 else None


#: shares of the game played closer than this are the same Round's start
_SAME_SHARE = 1e-9


def self_play_pace(
    game: Game,
    num_players: int,
    seeds: int = 3,
    options: Mapping[str, str] | None = None,
    orders: Orders | None = None,
) -> SelfPlayPace:
    """Self-play ``seeds`` games with the game's simplest AI level, the automatic pass and every seat holding the
    standing ``orders`` (``paced_play``), and count their waits, in all and per Round (keyed by ``Game.progress``
    where each wait started)."""
    level = game.ai_levels[-1] if game.ai_levels else "random"
    totals: list[int] = []
    by_round: Counter[float] = Counter()
    every = {seat: orders for seat in range(num_players)} if orders else None
    for seed in range(1, seeds + 1):
        watch = _RoundWaits(game, by_round, orders)
        played = paced_play(
            game, num_players, seed, level, every, autopass=True, watch=watch, options=options
        )
        totals.append(played.waits.waits)
    return SelfPlayPace(
        statistics.median(totals), {share: waits / seeds for share, waits in by_round.items()}
    )


@dataclass
class _RoundWaits:
    """``paced_play``'s ``watch``: counts one game's waits as ``paced_play`` does (the automatic pass and every
    seat's standing ``orders`` its automatic answers) into ``by_round``, under ``Game.progress`` where each
    started."""

    game: Game
    by_round: Counter[float]
    orders: Orders | None = None
    counter: WaitCounter = field(default_factory=WaitCounter)

    def __call__(self, state: State, seat: int, decision: Decision, action: str, source: str) -> None:
        pending = self.game.pending(state)
        passing = {
            asked
            for asked, posed in pending.items()
            if automatic_answer(self.game, state, asked, posed, self.orders, True) is not None
        }
        share = self.game.progress(state)
        if self.counter.observe(pending, passing) and share is not None:
            self.by_round[share] += 1


def quantile(ordered: list[float], fraction: float) -> float:
    """The value ``fraction`` of the way through sorted values (nearest rank)."""
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]
