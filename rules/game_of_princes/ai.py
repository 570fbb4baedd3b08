"""Game of Princes AI: searches over :class:`Board` with a route-cost evaluation.

The evaluation asks, for each Prince, how many moves its owner needs at least to walk him to an opponent's
carpet (:func:`route_cost`): a cheapest orthogonal route, priced by the servitors and carpets that must be
brought onto it. The score is the opponent's cost (capped: a distant opponent is no threat worth a move)
minus one's own, plus a little for servitors standing on or next to the opponent's free carpets, and less
still for servitors drawing near the opponent's carpets (so they stand ready while every route is blocked).

Levels: ``expert`` and ``hard`` search with iterative-deepening alpha-beta (``search.py``), ``hard`` within
``SEARCH_BUDGETS["hard"]`` positions over :func:`balanced_evaluate`, ``expert`` within a second over
:func:`evaluate` for its own seat (it presses on where ``hard`` keeps the balance) and deeper along the routes;
``medium`` is a full-width two-ply alpha-beta over :func:`evaluate`, ``easy`` one ply over
:func:`balanced_evaluate` with occasional random moves. Budgets count work (positions visited, positions
evaluated) rather than time, so the same position and rng give the same move on any machine; only ``expert``'s
wall-time cap (which a loaded machine may reach) can cut a search shorter.
"""

from __future__ import annotations

import heapq
import random
from functools import lru_cache

from rules.engine.thinking import DEFAULT_SECONDS, Budget, split_level

from .board import COLOURS, KING_STEPS, NEUTRAL, PRINCE, Board, Cell, Move

#: the first is the default, the others strongest first: ``expert`` beats ``hard`` (``python -m bench ai``: 7 won,
#: none lost, 33 drawn; the same 40 games played again: 3 won, 1 lost, 36 drawn), most games still going to the
#: 200-move draw
LEVELS: tuple[str, ...] = ("expert", "hard", "medium", "easy")
#: the searching levels' budgets, in positions visited: ``hard`` a fixed count (about a quarter of a second
#: here, depth 3 to 4), ``expert`` up to a second of wall time (depth 5 to 6; the count caps it on a fast machine)
SEARCH_BUDGETS = {"hard": Budget(2_000, None), "expert": Budget(20_000, DEFAULT_SECONDS)}
DEPTHS = {"medium": 2, "easy": 1}
#: the plain searches that score with :func:`balanced_evaluate`: one ply over :func:`evaluate` (which caps the
#: opponent's route only) read every position from the opponent's side, so ``easy`` defended and never
#: attacked (it drew 38 of 40 games against a random player); two plies read it from its own side
BALANCED_LEVELS = frozenset({"easy"})
#: share of ``easy`` decisions taken at random (so beginners can beat it)
EASY_BLUNDER_RATE = 0.25
#: positions a ``medium`` or ``easy`` decision may evaluate (counted, not timed, so a decision depends on its rng
#: alone): past it the search stops deepening and keeps its best move so far
EVALUATION_BUDGET = 2_500

WIN = 100_000
#: one move of route cost is worth this much score
ROUTE_WEIGHT = 100
#: an opponent's route longer than this is no threat worth spending moves on
THREAT_HORIZON = 5
#: routes dearer than this count as this (for :func:`balanced_evaluate`: beyond it a route is a long way off)
ROUTE_LIMIT = 20
#: the move in hand of the side to move, in score (half a move of route)
TEMPO = ROUTE_WEIGHT // 2
#: per point of :func:`pressure`: a tie-breaker while the routes are blocked
PRESSURE_WEIGHT = 20
#: per step of :func:`approach`: the smallest tie-breaker
APPROACH_WEIGHT = 5
#: revisiting a position already seen costs this much (so the AI does not shuffle back and forth)
REPEAT_PENALTY = 60
#: extra route cost of a cell held by an enemy servitor (he must leave first) or lacking a carpet
BLOCKED_EXTRA, NO_CARPET_EXTRA = 5, 1
#: extra route cost of a cell held by an enemy servitor that cannot leave (no free carpet next to it, or it
#: carries its Prince): waiting for him is hopeless, a route around him is worth several moves more
STUCK_EXTRA = 10
#: route cost when no route exists at all (every cell beyond the table is blocked by confinement)
NO_ROUTE = 60
#: Dijkstra's "not reached yet"
UNREACHABLE = 1_000_000
#: :func:`_route`'s queue entries pack (cost, cell index) into one int: cost times this plus the index
_SHIFT = 1 << 12
#: cost of a route cell for which no free servitor is left
REUSE = 3

ROOK_STEPS: tuple[Cell, ...] = ((0, -1), (-1, 0), (1, 0), (0, 1))


class _Timeout(Exception):
    """The search ran out of its evaluation budget; the previous depth's choice stands."""


def route_cost(board: Board, seat: int, confined: bool, limit: int = NO_ROUTE) -> int:
    """Moves (estimated) the seat needs to bring its Prince onto an opponent's carpet.

    First a cheapest orthogonal route from the Prince (:func:`_route`), then its price: one Prince step per
    cell, plus for each cell on it lacking one of his servitors the walk of a servitor to it (each free
    servitor sent to one cell, nearest pairs first; a cell nobody is left for costs ``REUSE``, a servitor the
    Prince already passed coming round again), plus the extras of cells an enemy servitor holds (dearer when
    he cannot leave: waiting for him would shuffle pieces forever) or lacking a carpet. Routes dearer than
    ``limit`` are not looked for: the answer is then ``limit``.
    """
    start = board.princes[seat]
    if board.carpets.get(start) == COLOURS[1 - seat]:
        return 0
    helpers = _helpers(board, seat)
    route = _route(board, seat, confined, helpers, limit)
    if route is None:
        return limit
    missing = [cell for cell in route if board.servitors.get(cell) != seat]
    on_route = set(route)
    extras = sum(_extra(board, seat, cell, on_route) for cell in missing)
    spare = [cell for cell in helpers if cell not in on_route]
    return min(limit, len(route) + extras + _assignment_cost(missing, spare))


def _helpers(board: Board, seat: int) -> list[Cell]:
    """The cells of the seat's servitors that may walk onto a route: all but the one carrying his Prince."""
    start = board.princes[seat]
    return [cell for cell, owner in board.servitors.items() if owner == seat and cell != start]


def _extra(board: Board, seat: int, cell: Cell, route: set[Cell]) -> int:
    """Moves besides a servitor's walk that ``cell`` needs before the Prince can use it."""
    if cell in board.servitors:
        return BLOCKED_EXTRA if _can_leave(board, cell) else STUCK_EXTRA
    if cell in board.carpets:
        return 0
    return _carpet_walk(board, seat, cell, route)


def _carpet_walk(board: Board, seat: int, cell: Cell, route: set[Cell]) -> int:
    """Moves to bring a carpet onto the bare ``cell``: the walk of the nearest carpet the seat may lift.

    A carpet the route itself needs is not taken, and one whose lifting would split the carpets (the only link
    of others to the group) first needs another carpet beside it: one move more. Without that, a carpet that
    cannot leave priced the route as if it could, every move scored alike and the AI shuffled far-off carpets.
    """
    x, y = cell
    mine = COLOURS[seat]
    walks = sorted(
        (max(abs(x - cx), abs(y - cy)), (cx, cy))
        for (cx, cy), colour in board.carpets.items()
        if colour in (NEUTRAL, mine) and (cx, cy) not in board.servitors and (cx, cy) not in route
    )
    best = REUSE + 1
    for distance, source in walks:
        if distance >= best:
            break
        best = min(best, distance if board.can_lift(source) else distance + 1)
    return best


def _assignment_cost(cells: list[Cell], servitors: list[Cell]) -> int:
    """Greedy matching of servitors to the cells they must reach (nearest pairs first), in moves."""
    pairs = sorted(
        (max(abs(cx - sx), abs(cy - sy)), c, s)
        for c, (cx, cy) in enumerate(cells)
        for s, (sx, sy) in enumerate(servitors)
    )
    used_cells: set[int] = set()
    used_servitors: set[int] = set()
    total = 0
    for distance, c, s in pairs:
        if c in used_cells or s in used_servitors:
            continue
        used_cells.add(c)
        used_servitors.add(s)
        total += distance
    return total + REUSE * (len(cells) - len(used_cells))


def _route(board: Board, seat: int, confined: bool, helpers: list[Cell], limit: int) -> list[Cell] | None:
    """The cells of a cheapest Prince route to an opponent's carpet (without his own cell), or None when
    every route costs more than ``limit``.

    Dijkstra over a flat array of the carpets' bounding box (one cell of margin where carpets may go): the
    evaluation runs this twice per searched position, so it avoids tuples and dictionaries in its loop.
    """
    xs = [cell[0] for cell in board.carpets]
    ys = [cell[1] for cell in board.carpets]
    margin = 0 if confined else 1
    low_x, low_y = min(xs) - margin, min(ys) - margin
    width, height = max(xs) + margin - low_x + 1, max(ys) + margin - low_y + 1
    step_cost, is_target = _cost_grid(board, seat, helpers, low_x, low_y, width, height)
    px, py = board.princes[seat]
    start = (px - low_x) + (py - low_y) * width
    size = width * height
    best = [UNREACHABLE] * size
    came_from = [-1] * size
    best[start] = 0
    # a queue entry is cost * _SHIFT + index: one int orders as the pair (cost, index) would, without the tuple
    shift = _SHIFT if size < _SHIFT else size
    queue = [start]
    pop, push = heapq.heappop, heapq.heappush
    last = width - 1
    while queue:
        cost, index = divmod(pop(queue), shift)
        if cost > best[index]:
            continue
        if is_target[index]:
            return _cells_of(index, start, came_from, low_x, low_y, width)
        column = index % width
        for nxt in (
            index - width,
            index + width,
            index - 1 if column else -1,
            index + 1 if column < last else -1,
        ):
            if nxt < 0 or nxt >= size:
                continue
            total = cost + step_cost[nxt]
            if total < best[nxt] and total <= limit:
                best[nxt] = total
                came_from[nxt] = index
                push(queue, total * shift + nxt)
    return None


def _cost_grid(
    board: Board, seat: int, helpers: list[Cell], low_x: int, low_y: int, width: int, height: int
) -> tuple[list[int], list[bool]]:
    """Per box cell: the route cost of the Prince entering it, and whether it is an opponent's carpet."""
    enemy = COLOURS[1 - seat]
    step_cost = list(_reach_grid(tuple(sorted(helpers)), low_x, low_y, width, height, 1 + NO_CARPET_EXTRA))
    is_target = [False] * (width * height)
    for (cx, cy), colour in board.carpets.items():
        index = (cx - low_x) + (cy - low_y) * width
        step_cost[index] -= NO_CARPET_EXTRA
        is_target[index] = colour == enemy
    servitors = board.servitors
    for (cx, cy), owner in servitors.items():
        index = (cx - low_x) + (cy - low_y) * width
        if owner == seat:
            step_cost[index] = 1
        else:
            step_cost[index] += BLOCKED_EXTRA if _can_leave(board, (cx, cy)) else STUCK_EXTRA
    return step_cost, is_target


def _can_leave(board: Board, cell: Cell) -> bool:
    """Whether the servitor on ``cell`` has a move: it carries no Prince and a free carpet touches it."""
    owner = board.servitors[cell]
    if board.princes[owner] == cell:
        return False
    x, y = cell
    carpets, servitors = board.carpets, board.servitors
    return any((x + dx, y + dy) in carpets and (x + dx, y + dy) not in servitors for dx, dy in KING_STEPS)


@lru_cache(maxsize=4096)
def _reach_grid(
    helpers: tuple[Cell, ...], low_x: int, low_y: int, width: int, height: int, add: int
) -> tuple[int, ...]:
    """Per box cell, ``add`` plus the distance (in servitor steps) of the nearest helper.

    Cached: most positions a search visits differ from their neighbours by a carpet move only, which leaves
    the servitors (and usually the box) as they were.
    """
    grid: list[int] = []
    for y in range(low_y, low_y + height):
        row = [REUSE + add] * width
        for hx, hy in helpers:
            dy = abs(y - hy) + add
            distances = [
                dx if dx > dy else dy for dx in (abs(x - hx) + add for x in range(low_x, low_x + width))
            ]
            row = list(map(min, row, distances))
        grid.extend(row)
    return tuple(grid)


def _cells_of(index: int, start: int, came_from: list[int], low_x: int, low_y: int, width: int) -> list[Cell]:
    route: list[Cell] = []
    while index != start:
        route.append((index % width + low_x, index // width + low_y))
        index = came_from[index]
    return route[::-1]


def pressure(board: Board, seat: int) -> int:
    """Hold on the opponent's carpets: 2 for each one the seat's servitor stands on (it can no longer move,
    and it is the end of a route), 1 for each free one a servitor of the seat stands next to."""
    enemy = COLOURS[1 - seat]
    servitors = board.servitors
    total = 0
    for (x, y), colour in board.carpets.items():
        if colour != enemy:
            continue
        owner = servitors.get((x, y))
        if owner == seat:
            total += 2
        elif owner is None and any(servitors.get((x + dx, y + dy)) == seat for dx, dy in KING_STEPS):
            total += 1
    return total


def approach(board: Board, seat: int) -> int:
    """Minus the summed distances of the seat's servitors to their nearest opponent's carpet: while every
    route is blocked, servitors drawing near the opponent's carpets are ready to step on one that frees up."""
    enemy = COLOURS[1 - seat]
    targets = [cell for cell, colour in board.carpets.items() if colour == enemy]
    if not targets:
        return 0
    total = 0
    for (x, y), owner in board.servitors.items():  # plain loops: the evaluation runs this at every leaf
        if owner != seat:
            continue
        nearest = UNREACHABLE
        for tx, ty in targets:
            dx = x - tx if x > tx else tx - x
            dy = y - ty if y > ty else ty - y
            distance = dx if dx > dy else dy
            if distance < nearest:
                nearest = distance
        total += nearest
    return -total


def evaluate(board: Board, seat: int, confined: bool) -> int:
    """Score of the position for ``seat`` (higher is better), not counting a finished game."""
    # slowing the opponent down pays only while he is near: beyond the horizon his route counts as it
    routes = route_cost(board, 1 - seat, confined, THREAT_HORIZON) - route_cost(board, seat, confined)
    hold = pressure(board, seat) - pressure(board, 1 - seat)
    near = approach(board, seat) - approach(board, 1 - seat)
    return ROUTE_WEIGHT * routes + PRESSURE_WEIGHT * hold + APPROACH_WEIGHT * near


def route_cells(board: Board, seat: int, confined: bool) -> set[Cell]:
    """The seat's Prince's cell and the cells of his cheapest route (:func:`route_cost`'s), none when he has no
    route within ``ROUTE_LIMIT``: where a move changes that route (a carpet or servitor onto or off a cell)."""
    route = _route(board, seat, confined, _helpers(board, seat), ROUTE_LIMIT)
    return {board.princes[seat], *(route or ())}


def balanced_evaluate(board: Board, seat: int, confined: bool) -> int:
    """Score of the position for ``seat``, the side to move, such that the other side scores it as its negation
    (less the move in hand): what a search deeper than two plies needs.

    :func:`evaluate` caps only the opponent's route, so it scores a position from either side as bad when both
    routes are long: a search that ends its lines on the opponent's move then plays pure defence, one that
    ends them on its own move pure attack, and a search deepening ply by ply flips between the two. Here both
    routes count alike, a move of a short route more than a move of a long one (near the goal a move decides
    more), and the side to move has its move in hand.
    """
    routes = _route_value(route_cost(board, 1 - seat, confined, ROUTE_LIMIT)) - _route_value(
        route_cost(board, seat, confined, ROUTE_LIMIT)
    )
    hold = pressure(board, seat) - pressure(board, 1 - seat)
    near = approach(board, seat) - approach(board, 1 - seat)
    return ROUTE_WEIGHT // 2 * routes + PRESSURE_WEIGHT * hold + APPROACH_WEIGHT * near + TEMPO


def _route_value(cost: int) -> int:
    """A route's cost in half-moves: two per move up to the threat horizon, one per move beyond it (every
    move of progress counts, a move near the goal twice)."""
    return 2 * cost if cost <= THREAT_HORIZON else THREAT_HORIZON + cost


class Search:
    """One decision's alpha-beta search (negamax form: every score is for the side to move)."""

    def __init__(self, board: Board, confined: bool, long_jump: bool, budget: int, balanced: bool) -> None:
        self.board = board
        self.balanced = balanced
        self.confined = confined
        self.long_jump = long_jump
        self.budget = budget
        self.evaluations = 0

    def evaluate(self, seat: int) -> int:
        """:func:`evaluate` (or :func:`balanced_evaluate`) of the current position, counted against the budget."""
        self.evaluations += 1
        score = balanced_evaluate if self.balanced else evaluate
        return score(self.board, seat, self.confined)

    def exhausted(self) -> bool:
        return self.evaluations >= self.budget

    def moves(self, seat: int) -> list[Move]:
        return self.board.moves(seat, self.confined, self.long_jump)

    def root(self, seat: int, moves: list[Move], depth: int, seen: dict[str, int]) -> tuple[Move, int]:
        """Best move and its score; a move back to a position seen before is penalised, or scores as the
        draw it is when that position was seen twice already."""
        best_move, best_score = moves[0], -WIN * 2
        for move in moves:
            repeats = self._repeats_after(seat, move, seen)
            if repeats >= 2:
                score = 0
            else:
                penalty = REPEAT_PENALTY * repeats
                score = -self.score_after(seat, move, depth - 1, -WIN * 2, -(best_score + penalty)) - penalty
            if score > best_score:
                best_move, best_score = move, score
        return best_move, best_score

    def _repeats_after(self, seat: int, move: Move, seen: dict[str, int]) -> int:
        if not seen:
            return 0
        self.board.play(seat, move)
        try:
            return seen.get(self.board.digest(1 - seat), 0)
        finally:
            self.board.unplay(seat, move)

    def score_after(self, seat: int, move: Move, depth: int, alpha: int, beta: int) -> int:
        """Score for the opponent of ``seat`` once ``seat`` has played ``move``."""
        self.board.play(seat, move)
        try:
            if move[0] == PRINCE and self.board.has_won(seat):
                return -WIN - depth  # a quicker win scores higher for the winner
            return self.negamax(1 - seat, depth, alpha, beta)
        finally:
            self.board.unplay(seat, move)

    def negamax(self, seat: int, depth: int, alpha: int, beta: int) -> int:
        if depth == 0:
            if self.exhausted():
                raise _Timeout
            return self.evaluate(seat)
        moves = self.moves(seat)
        if not moves:
            return -self.negamax(1 - seat, depth - 1, -beta, -alpha)  # a pass
        best = -WIN * 2
        for move in moves:
            score = -self.score_after(seat, move, depth - 1, -beta, -alpha)
            if score > best:
                best = score
                alpha = max(alpha, score)
                if alpha >= beta:
                    break
        return best


def choose_move(
    board: Board,
    seat: int,
    confined: bool,
    long_jump: bool,
    level: str,
    rng: random.Random,
    seen: dict[str, int] | None = None,
    moves_played: int = 0,
    budget: Budget | None = None,
) -> Move:
    """The move the AI of ``level`` plays for ``seat``; the board must have a legal move for it.

    ``seen`` counts the positions so far by digest (the game's repetition record) and ``moves_played`` the
    moves so far, so the AI can steer clear of repeating itself and see the move limit coming. ``level`` may
    name a time cap (``expert:3s``); ``budget`` replaces the level's own (tests pass one without a clock).
    """
    name = split_level(level)[0]
    moves = board.moves(seat, confined, long_jump)
    rng.shuffle(moves)  # equal scores are broken at random: varied games, no fixed loops
    if name == "easy" and rng.random() < EASY_BLUNDER_RATE:
        return moves[0]
    moves.sort(key=lambda move: "PSC".index(move[0]))  # Princes first: wins are found at once
    if name in SEARCH_BUDGETS:
        from .search import AlphaBeta  # the search module builds on this one's evaluation

        watch = (budget or SEARCH_BUDGETS[name].for_level(level)).stopwatch()
        search = AlphaBeta(board.copy(), confined, long_jump, dict(seen or {}), moves_played, watch)
        if name == "expert":
            search.moves_of, search.forced, search.attacking, search.gapped = {}, True, True, True
        return search.choose(seat, moves).move
    search_ = Search(board.copy(), confined, long_jump, EVALUATION_BUDGET, balanced=name in BALANCED_LEVELS)
    chosen = moves[0]
    for depth in range(1, DEPTHS[name] + 1):
        try:
            chosen, score = search_.root(seat, moves, depth, seen or {})
        except _Timeout:
            break
        if score >= WIN:
            break
        moves.remove(chosen)
        moves.insert(0, chosen)  # the previous depth's best first sharpens the next depth's cut-offs
    return chosen
