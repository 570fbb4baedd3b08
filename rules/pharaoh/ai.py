"""Pharaoh AI: search the whole turn, then expectimax over the next player's dice.

A decision is one step, but a turn is a sequence of steps bought with the rolled points. The AI therefore
searches every way to spend the points left (depth-first, merging transpositions: the same placement reached
with as many points left or more is not searched again) and takes a win if one is reachable this turn.

Otherwise every placement the turn can end in gets a static *outlook*: the players who roll before our next
turn each win with the probability that their roll pays for their cheapest way onto a goal line, then our roll
may pay for ours. "Cheapest way" prices a piece at its pips per orthogonal cell to a goal cell (a diagonal
costs as much as two orthogonal steps), entering from the reserve included, and a goal cell held by a larger
enemy piece as out of reach for one turn.

Level ``expectimax`` then searches the best placements one ply deeper: a chance node over the next player's
roll, each roll answered by that player's own full-turn search (an exact win if one is reachable, otherwise
the placement with the best outlook for them), scored by our outlook afterwards. Level ``greedy`` stops at the
static outlook. Level ``expert`` (two players; with more it plays as ``expectimax``) is expectimax two turns
deep within its budget (:class:`Expert`): our placement, every roll of the next player and their answer (as a
one-ply expectimax picks it), every roll of ours and our best placement after it, scored by the outlook.

Positions here are flat tuples: entry ``3 * seat + piece`` is the cell index of that piece, -1 in reserve.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import suppress
from itertools import product

from rules.engine.thinking import DEFAULT_SECONDS, Budget, Stopwatch, split_level

from .board import (
    CELLS,
    EDGE_CELLS,
    GOAL_LINES,
    NEIGHBOURS,
    PIECE_LETTERS,
    cell_index,
    cell_name,
    chance_at_least,
    goal_line_names,
    manhattan,
)
from .state import PharaohView

Position = tuple[int, ...]

#: a goal cell held by a larger enemy piece: more than any roll pays, so no win next turn through it
BLOCKED_COST = 13
#: a turn search this large stops expanding (only reachable with two dice); what it found is still scored
NODE_CAP = 30_000
#: expectimax searches the replies to this many of the best placements by outlook ...
CANDIDATES = 6
#: ... while the placements scored inside those reply searches stay under this budget (bounds the time; with
#: two dice each roll's reply is a larger search, so fewer fit)
REPLY_BUDGET = {1: 6_000, 2: 2_000}
#: a reply search (one roll of the next player) expands at most this many placements
REPLY_NODE_CAP = 1_500
ACTION_NAMES = {
    (piece, cell): f"{PIECE_LETTERS[piece]} {cell_name(cell)}" for piece in range(3) for cell in CELLS
}
#: edge -> goal cell -> pips-free cost of entering and walking there (1 for the entry, then cells)
ENTRY_DISTANCE = {
    edge: {goal: 1 + min(manhattan(cell, goal) for cell in cells) for goal in CELLS}
    for edge, cells in EDGE_CELLS.items()
}
#: edge -> piece -> cell + 1 (0: in reserve) -> goal cell -> the piece's cost to reach it, entry included
COST_TABLES = {
    edge: [
        [
            {goal: (piece + 1) * (entry[goal] if cell < 0 else manhattan(cell, goal)) for goal in CELLS}
            for cell in range(-1, 25)
        ]
        for piece in range(3)
    ]
    for edge, entry in ENTRY_DISTANCE.items()
}
#: dice -> ((total, probability), ...)
ROLLS = {
    dice: tuple(
        (total, sum(1 for faces in product(range(1, 7), repeat=dice) if sum(faces) == total) / 6**dice)
        for total in range(dice, 6 * dice + 1)
    )
    for dice in (1, 2)
}


class Context:
    """The facts every evaluation of one decision shares, and a cache of goal-line costs."""

    def __init__(self, view: PharaohView) -> None:
        self.players: int = view["players"]
        self.dice: int = view["dice"]
        self.lines = tuple(GOAL_LINES[name] for name in goal_line_names(self.players, view["goal"]))
        self.line_sets = {tuple(sorted(line)) for line in self.lines}
        self.goal_cells = tuple(sorted({cell for line in self.lines for cell in line}))
        self.edges = tuple(view["edges"])
        self.entry_cells = tuple(EDGE_CELLS[edge] for edge in self.edges)
        #: (seat, its three pieces, the pieces on the goal cells) -> the seat's cheapest way onto a goal line
        self._costs: dict[tuple[int, Position, tuple[int, ...]], int] = {}
        self.scored = 0  # placements scored so far (the expectimax budget counts them)

    def is_win(self, position: Position, seat: int) -> bool:
        return tuple(sorted(position[3 * seat : 3 * seat + 3])) in self.line_sets

    def win_cost(self, position: Position, seat: int, blockers: tuple[int, ...]) -> int:
        """Fewest points ``seat`` needs to fill a goal line, ignoring pieces in the way between.

        ``blockers`` gives, for each goal cell, the index in ``position`` of the piece on it (-1: empty). The
        cost depends only on the seat's own pieces and those, so it is cached by them.
        """
        own = position[3 * seat : 3 * seat + 3]
        key = (seat, own, blockers)
        cost = self._costs.get(key)
        if cost is None:
            cost = self._costs[key] = self._assign(own, seat, blockers)
        return cost

    def _assign(self, own: Position, seat: int, blockers: tuple[int, ...]) -> int:
        """The cheapest assignment of the three pieces to the cells of one goal line."""
        table = COST_TABLES[self.edges[seat]]
        rows = [table[piece][cell + 1] for piece, cell in enumerate(own)]
        # size of a foreign piece on each goal cell (-1: none): it blocks our smaller pieces for a turn
        size = {
            goal: (-1 if holder < 0 or holder // 3 == seat else holder % 3)
            for goal, holder in zip(self.goal_cells, blockers, strict=True)
        }
        best = 10**6
        for line in self.lines:
            (a0, b0, c0), (a1, b1, c1), (a2, b2, c2) = (
                [row[goal] + (BLOCKED_COST if size[goal] > piece else 0) for goal in line]
                for piece, row in enumerate(rows)
            )
            best = min(
                best, a0 + b1 + c2, a0 + c1 + b2, b0 + a1 + c2, b0 + c1 + a2, c0 + a1 + b2, c0 + b1 + a2
            )
        return best

    def outlook(self, position: Position, viewer: int, last_mover: int) -> float:
        """``viewer``'s prospects when ``last_mover`` has just ended a turn: the seats after it roll first."""
        self.scored += 1
        blockers = tuple(position.index(goal) if goal in position else -1 for goal in self.goal_cells)
        costs = [self.win_cost(position, seat, blockers) for seat in range(self.players)]
        threat, survive = 0.0, 1.0
        seat = (last_mover + 1) % self.players
        while seat != viewer:
            chance = chance_at_least(self.dice, costs[seat])
            threat += survive * chance
            survive *= 1.0 - chance
            seat = (seat + 1) % self.players
        mine = costs[viewer]
        others = (sum(costs) - mine) / (self.players - 1)
        progress = (others - mine) / 40.0  # tie-breaker between placements no roll decides yet
        return -threat + survive * (0.6 * chance_at_least(self.dice, mine) + 0.3 * progress)


def to_position(view: PharaohView) -> Position:
    return tuple(-1 if cell is None else cell_index(cell) for own in view["pieces"] for cell in own)


def _steps(
    node: Position, budget: int, seat: int, entry_targets: tuple[tuple[int, int], ...]
) -> Iterator[tuple[int, int, int, Position]]:
    """Each single step ``seat`` may take from ``node`` with ``budget`` points left: (piece, target cell, points
    left after it, the placement it makes). A piece may not land on its own side's pieces nor on a larger
    piece; a smaller foreign piece it lands on goes back off the board (-1). Both turn searches walk these."""
    base = 3 * seat
    holders = {cell: index for index, cell in enumerate(node) if cell >= 0}
    for piece in range(3):
        pips = piece + 1
        if pips > budget:
            break
        cell = node[base + piece]
        for target, multiplier in entry_targets if cell < 0 else NEIGHBOURS[cell]:
            rest = budget - pips * multiplier
            if rest < 0:
                continue
            holder = holders.get(target)
            if holder is not None and (holder // 3 == seat or holder % 3 > piece):
                continue
            child = list(node)
            child[base + piece] = target
            if holder is not None:
                child[holder] = -1
            yield piece, target, rest, tuple(child)


def explore(
    context: Context, start: Position, points: int, seat: int, cap: int = NODE_CAP
) -> tuple[dict[Position, str | None], bool]:
    """Every placement ``seat`` can reach this turn -> the first step towards it (None: end now); True if a win.

    When a win is reachable, the answer holds just that placement. Past ``cap`` placements the search stops
    expanding: only two dice get there, and what was found is still a fair sample of the turn.
    """
    entry_targets = tuple((cell, 1) for cell in context.entry_cells[seat])
    best_left: dict[Position, int] = {start: points}
    first: dict[Position, str | None] = {start: None}
    stack = [start]
    while stack:
        node = stack.pop()
        budget = best_left[node]
        first_step = first[node]
        for piece, target, rest, child in _steps(node, budget, seat, entry_targets):
            if best_left.get(child, -1) >= rest:
                continue
            step = first_step or ACTION_NAMES[(piece, target)]
            best_left[child] = rest
            first[child] = step
            if context.is_win(child, seat):
                return {child: step}, True
            if len(best_left) < cap:
                stack.append(child)
    return first, False


def reply_value(context: Context, position: Position, me: int, budget: int) -> float | None:
    """Chance node over the next player's roll; each roll answered by their best turn; our outlook after.

    None when the placements scored pass ``budget`` before every roll is answered (two dice, many pieces).
    """
    opponent = (me + 1) % context.players
    total = 0.0
    for points, probability in ROLLS[context.dice]:
        if context.scored > budget:
            return None
        replies, won = explore(context, position, points, opponent, REPLY_NODE_CAP)
        if won:
            total -= probability
            continue
        answer = max(replies, key=lambda reply: context.outlook(reply, opponent, opponent))
        total += probability * context.outlook(answer, me, opponent)
    return None if context.scored > budget else total


def decide(
    view: PharaohView,
    seat: int,
    legal: Sequence[str],
    level: str,
    rng: random.Random,
    budget: Budget | None = None,
) -> str:
    """The first step of the best way to spend this turn's points (``end`` when stopping now is best).

    ``level`` may name the expert's time cap (``expert:3s``); ``budget`` replaces the expert's own (tests pass
    one without a clock)."""
    if len(legal) == 1:
        return legal[0]
    name = split_level(level)[0]
    context = Context(view)
    placements, won = explore(context, to_position(view), view["left"], seat)
    if won:
        return _checked(next(iter(placements.values())), legal)
    ranked = sorted(
        ((context.outlook(position, seat, seat), rng.random(), position) for position in placements),
        reverse=True,
    )
    if name == "expert" and context.players == 2:
        watch = (budget or EXPERT_BUDGET.for_level(level)).stopwatch()
        ranked = _expert_ranking(context, ranked, seat, watch)
    elif name in ("expert", "expectimax"):
        ranked = _deepen(context, ranked, seat)
    return _checked(placements[ranked[0][2]], legal)


def _deepen(
    context: Context, ranked: list[tuple[float, float, Position]], seat: int
) -> list[tuple[float, float, Position]]:
    """Re-rank the best placements by the expectimax value of the next player's reply.

    Candidates are searched best first until the budget is spent; only fully searched ones are compared
    (if not even the first fits, the static ranking stands).
    """
    deeper = []
    context.scored = 0
    for _, tie_break, position in ranked[:CANDIDATES]:
        value = reply_value(context, position, seat, REPLY_BUDGET[context.dice])
        if value is None:
            break
        deeper.append((value, tie_break, position))
    return sorted(deeper, reverse=True) or ranked


def _checked(step: str | None, legal: Sequence[str]) -> str:
    """The chosen step in the game's notation; the search mirrors the rules, so it is always legal."""
    action = "end" if step is None else step
    if action not in legal:
        raise AssertionError(f"the Pharaoh AI chose {action!r}, which the rules do not allow here")
    return action


# ---- expert: two turns deep, within a budget ----------------------------------------------------------------------
#: the expert's budget: placements visited by its turn searches (each explored placement counts one)
EXPERT_BUDGET = Budget(60_000, DEFAULT_SECONDS)
#: a turn search inside the expert's look-ahead expands at most this many placements
EXPERT_NODE_CAP = 3_000
#: the next player's answers to one roll the expert considers: as many as ``expectimax`` searches
OPPONENT_CANDIDATES = CANDIDATES


def reachable(
    context: Context, start: Position, points: int, seat: int, cap: int
) -> tuple[dict[Position, int], int | None]:
    """Every placement ``seat`` can end its turn in with at most ``points`` -> the fewest points it costs, and the
    fewest points that reach a goal line (None: none up to ``points``). A turn may stop after any step, so one
    search with the largest roll answers every smaller roll: a placement is reachable with roll ``r`` when its
    cost is at most ``r``."""
    entry_targets = tuple((cell, 1) for cell in context.entry_cells[seat])
    best_left: dict[Position, int] = {start: points}
    stack = [start]
    cheapest: int | None = None
    while stack:
        node = stack.pop()
        budget = best_left[node]
        for _piece, _target, rest, child in _steps(node, budget, seat, entry_targets):
            if best_left.get(child, -1) >= rest:
                continue
            if context.is_win(child, seat):
                cost = points - rest
                cheapest = cost if cheapest is None else min(cheapest, cost)
                continue
            best_left[child] = rest
            if len(best_left) < cap:
                stack.append(child)
    return {position: points - left for position, left in best_left.items()}, cheapest


class Expert:
    """Expectimax over the dice two turns deep: our placement, the next player's roll and answer, our next
    roll and our best placement after it, scored by the static outlook (the next player's threat included).

    One search with the largest roll answers every roll (:func:`reachable`), so each level of the look-ahead
    costs one turn search per position rather than one per roll. The next player answers a roll with a win if
    one is in reach; otherwise, among their ``OPPONENT_CANDIDATES`` best placements by outlook, with the one a
    one-ply expectimax picks (the best for them once our next roll is answered by our best placement by
    outlook): the ``expectimax`` level's own choice, read off the searches of our next turn that the look-ahead
    makes anyway. Our placements are first valued one ply deep, best static outlook first, within
    ``FIRST_PASS_SHARE`` of the budget; then the best of those two turns deep until the budget is spent. Two
    players only: with more the look-ahead falls back to ``expectimax``.
    """

    def __init__(self, context: Context, me: int, watch: Stopwatch) -> None:
        self.context, self.me, self.watch = context, me, watch
        self.opponent = (me + 1) % context.players
        self.rolls = ROLLS[context.dice]
        self.most = self.rolls[-1][0]
        self._ours: dict[Position, tuple[float, float]] = {}

    def _reachable(self, position: Position, seat: int) -> tuple[dict[Position, int], int | None]:
        found, cheapest = reachable(self.context, position, self.most, seat, EXPERT_NODE_CAP)
        if self.watch.tick(len(found)):
            raise _Spent
        return found, cheapest

    def _best_first(self, found: dict[Position, int], seat: int) -> list[tuple[float, int, Position]]:
        """(outlook for ``seat``, cost, placement), best first."""
        outlook = self.context.outlook
        return sorted(
            ((outlook(position, seat, seat), cost, position) for position, cost in found.items()),
            key=lambda entry: -entry[0],
        )

    def replies(self, position: Position) -> tuple[float, list[tuple[float, list[Position]]]]:
        """The one-ply value of ending our turn in ``position`` (as ``expectimax`` values it: each roll of the
        next player answered by a win in reach or by their best placement by outlook, which our outlook then
        scores), and for each roll the next player's candidate answers (empty: a win for them), best first."""
        found, cheapest = self._reachable(position, self.opponent)
        ranked = self._best_first(found, self.opponent)
        answers: list[tuple[float, list[Position]]] = []
        total = 0.0
        for points, probability in self.rolls:
            if cheapest is not None and cheapest <= points:
                answers.append((probability, []))
                total -= probability
                continue
            within = [entry[2] for entry in ranked if entry[1] <= points][:OPPONENT_CANDIDATES]
            answers.append((probability, within))
            total += probability * self.context.outlook(within[0], self.me, self.opponent)
        return total, answers

    def value(self, answers: list[tuple[float, list[Position]]]) -> float:
        """Our expected result over the next player's answers, our next turn searched (1 a win, -1 a loss).

        For each roll the next player takes, among its candidate answers, the one the ``expectimax`` level
        would: the best for them once our next roll is answered by our best placement by outlook."""
        total = 0.0
        for probability, within in answers:
            if not within:
                total -= probability
                continue
            best_mine, best_theirs = 0.0, -3.0
            for reply in within:
                mine, theirs = self._our_turn(reply)
                if theirs > best_theirs:
                    best_mine, best_theirs = mine, theirs
            total += probability * best_mine
        return total

    def _our_turn(self, position: Position) -> tuple[float, float]:
        """With the next roll ours: our expected result (a win where one is in reach, else our best outlook)
        and the next player's value of it (their outlook once we take that placement, -1 where we win)."""
        known = self._ours.get(position)
        if known is not None:
            return known
        found, cheapest = self._reachable(position, self.me)
        outlook = self.context.outlook
        best: list[tuple[float, Position | None]] = [(-3.0, None)] * (self.most + 1)
        for placement, cost in found.items():
            score = outlook(placement, self.me, self.me)
            if score > best[cost][0]:
                best[cost] = (score, placement)
        mine = theirs = 0.0
        running: tuple[float, Position | None] = (-3.0, None)
        upto = []
        for points in range(self.most + 1):
            if best[points][0] > running[0]:
                running = best[points]
            upto.append(running)
        for points, probability in self.rolls:
            if cheapest is not None and cheapest <= points:
                mine += probability
                theirs -= probability
                continue
            score, chosen = upto[points]
            assert chosen is not None  # ending the turn at once costs nothing
            mine += probability * score
            theirs += probability * outlook(chosen, self.opponent, self.me)
        self._ours[position] = (mine, theirs)
        return mine, theirs


class _Spent(Exception):
    """The expert's budget ran out: the candidates fully valued so far decide."""


#: the share of the expert's budget its first pass (our placements one ply deep) may use
FIRST_PASS_SHARE = 0.5


def _expert_ranking(
    context: Context, ranked: list[tuple[float, float, Position]], seat: int, watch: Stopwatch
) -> list[tuple[float, float, Position]]:
    """Value our placements one ply deep (best static outlook first, within half the budget), then the best of
    those two turns deep until the budget is spent; the deepest values decide."""
    expert = Expert(context, seat, watch)
    shallow: list[tuple[float, float, Position, list[tuple[float, list[Position]]]]] = []
    with suppress(_Spent):  # the budget may run out in the first pass: the placements valued so far decide
        for _, tie_break, position in ranked:
            if shallow and watch.iterations >= watch.limit * FIRST_PASS_SHARE:
                break
            value, answers = expert.replies(position)
            shallow.append((value, tie_break, position, answers))
    if not shallow:
        return ranked
    shallow.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
    deep = []
    for _, tie_break, position, answers in shallow:
        try:
            deep.append((expert.value(answers), tie_break, position))
        except _Spent:
            break
    return sorted(deep, reverse=True) or [entry[:3] for entry in shallow]
