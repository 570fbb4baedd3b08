"""Game of Princes: iterative-deepening alpha-beta with a transposition table, for ``hard`` and ``expert``.

Negamax over :class:`Board` (every score is for the side to move), deepened one ply at a time until the
iteration budget (positions visited, see ``rules.engine.thinking``) or the wall-time cap is spent; a depth cut
short still counts once its first move (the previous depth's best) has been searched, because any move found
better after it was proven better at the new depth.

What makes it see further than the plain two-ply search of ``medium`` for the same work:
- a transposition table (Zobrist keys kept up to date move by move) that remembers each position's best move
  and bound, so the next depth searches the best move first and transposed move orders are searched once;
- move ordering: the table's move, Prince moves (wins at once), the killer moves of the ply, then by history;
- at the horizon, a side to move whose Prince can reach a winning cell scores the win (one look at at most
  four Prince moves), so a threat is never left hanging one ply beyond the search; ``expert`` looks further, at
  every node: a Prince with a line of his own servitors to one on an opponent's carpet wins in as many moves
  whatever the other side does (:func:`forced_walk`), and so does a line that lacks servitors on a few
  cells the other side cannot spoil in time (:func:`gapped_walk`), so a race already decided scores as won or
  lost however far its end lies beyond the search;
- ``expert`` attacks: it scores its leaves for its own seat alone (:func:`evaluate`: its own route in full,
  the opponent's only while it is near) where ``hard`` weighs both routes alike and keeps the balance (every
  game between two such searches went to the 200-move draw), and from its second move in a line on it
  searches only the moves that touch either side's cheapest route, so it sees a race a ply or two deeper;
- the game's draws: a position that would stand for the third time (counting the game's record and the
  searched line) scores as the draw it is, and so does reaching the 200-move limit; a draw counts a little
  below even for the searching side (``CONTEMPT``), so it plays on when ahead and repeats only when every other
  move is worse. A position met once before is no draw: the opponent can take back most moves (a neutral
  carpet moved back), and scoring that as a draw made every such move look refuted.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field
from itertools import permutations

from rules.engine.thinking import Stopwatch

from .ai import WIN, balanced_evaluate, evaluate, route_cells
from .board import CARPET, COLOURS, KING_STEPS, PRINCE, SERVITOR, Board, Cell, Move

#: a score this far from a win is a forced result (mate distance is subtracted from ``WIN``)
WON = WIN - 1_000
#: what a draw costs the searching side (one move of route): when it is ahead it plays on rather than repeat,
#: and it repeats only when every other move is worse than that
CONTEMPT = 100
#: the game's draw by the number of moves (rules.game_of_princes.MOVE_LIMIT; not imported: that module imports
#: this one)
MOVE_LIMIT = 200
#: the game's draw by repetition (rules.game_of_princes.REPETITIONS_FOR_DRAW, not imported for the same reason)
REPETITIONS_FOR_DRAW = 3
#: game-history repetitions are looked up this many plies deep (each look needs the position's digest)
HISTORY_PLIES = 4
MAX_DEPTH = 32
#: late move reductions: moves after this many (in search order) at depths from ``REDUCE_FROM`` on are first
#: searched one ply shallower (a carpet shuffled far from both routes rarely needs the full depth)
LATE_MOVE, REDUCE_FROM = 4, 3
#: ... and moves after this many two plies shallower
VERY_LATE_MOVE = 12
EXACT, LOWER, UPPER = 0, 1, 2
#: ``attacking``: from this ply on (the searching side's second move), only the moves that touch either side's
#: cheapest route are searched
RELEVANT_FROM = 2
#: the most game-record digests kept (see ``_DIGESTS``): the table is emptied when full
DIGEST_CACHE = 100_000
#: the game-record digests (``Board.digest``, a function of the position alone) by position key with the side to
#: move, kept from one decision to the next: the repetition check near the root asks for one at every node, and
#: building one costs about as much as evaluating the position
_DIGESTS: dict[int, str] = {}


class _OutOfBudget(Exception):
    """The iteration budget or the time cap is spent: the deepest completed choice stands."""


_ZOBRIST: dict[tuple[str, int, int], int] = {}


def _zobrist(tag: str, cell: Cell) -> int:
    """A fixed 64-bit key for a piece (tag) on a cell; the table is unbounded, so keys are made on demand."""
    key = (tag, cell[0], cell[1])
    value = _ZOBRIST.get(key)
    if value is None:
        value = _ZOBRIST[key] = random.Random(f"gop:{tag}:{cell[0]},{cell[1]}").getrandbits(64)
    return value


def _piece_tag(board: Board, move: Move, seat: int) -> str:
    letter, source, _ = move
    if letter == CARPET:
        return "c" + board.carpets[source][0]
    if letter == SERVITOR:
        return f"s{board.servitors[source]}"
    return f"p{seat}"


def position_key(board: Board) -> int:
    key = 0
    for cell, colour in board.carpets.items():
        key ^= _zobrist("c" + colour[0], cell)
    for cell, owner in board.servitors.items():
        key ^= _zobrist(f"s{owner}", cell)
    for seat, cell in enumerate(board.princes):
        key ^= _zobrist(f"p{seat}", cell)
    return key


def forced_walk(board: Board, seat: int) -> int | None:
    """The fewest Prince moves that take the seat's Prince, servitor to servitor of his own, onto one standing on
    a carpet of the other colour; None when his servitors form no such path.

    Nothing can stop that walk: a carpet under a servitor cannot be moved and a servitor is moved only by its
    owner, so every cell of the path stays as it is (without the long jump, which lands on the first servitor
    in line: an enemy servitor may step in between).

    >>> board = Board.start()
    >>> forced_walk(board, 0) is None
    True
    >>> board.servitors.update({(3, 2): 0, (3, 3): 0, (3, 4): 0})
    >>> board.carpets[(3, 3)] = "neutral"
    >>> del board.servitors[(3, 5)]
    >>> board.servitors[(3, 5)] = 0
    >>> forced_walk(board, 0)
    4
    """
    servitors, carpets = board.servitors, board.carpets
    enemy = COLOURS[1 - seat]
    start = board.princes[seat]
    seen, frontier, steps = {start}, [start], 0
    while frontier:
        steps += 1
        following = []
        for x, y in frontier:
            for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if cell in seen or servitors.get(cell) != seat:
                    continue
                if carpets.get(cell) == enemy:
                    return steps
                seen.add(cell)
                following.append(cell)
        frontier = following
    return None


#: :func:`gapped_walk` looks for walks with at most this many cells still to fill, one fewer for the side that
#: moves second (the other side has a move before each)
MAX_GAPS = 3


def gapped_walk(board: Board, seat: int, moving: bool, confined: bool) -> int | None:
    """The fewest moves (servitor steps and Prince moves) of an unstoppable walk of the seat's Prince that still
    needs servitors stepped onto some of its cells; None when no such walk is found.

    A walk as :func:`forced_walk`'s, but up to ``MAX_GAPS`` of its cells (one fewer when the seat does not move
    next) are free carpets, each with its own servitor of the seat beside it, off the walk. The other side
    could spoil such a cell only by stepping a servitor onto it or moving its carpet away; a cell the seat
    fills after ``m`` moves of his (:func:`_safe_for`) must allow neither: no servitor of his within ``m``
    steps, and a carpet he cannot move now (``m`` = 1) or ever (the seat's colour). Sound rather than
    complete: a walk found is won; one missed is scored as usual.

    >>> board = Board.start()
    >>> board.carpets[(3, 3)] = "neutral"
    >>> board.servitors.update({(3, 2): 0, (3, 4): 0, (2, 3): 0, (4, 4): 1, (3, 5): 0})
    >>> forced_walk(board, 0) is None, gapped_walk(board, 0, True, False)  # (2, 3) steps in, then four moves
    (True, 5)
    >>> gapped_walk(board, 0, False, False) is None  # Blue moves first: (4, 4) steps onto (3, 3)
    True
    """
    servitors, carpets = board.servitors, board.carpets
    enemy, other = COLOURS[1 - seat], 1 - seat
    start = board.princes[seat]
    most = MAX_GAPS if moving else MAX_GAPS - 1
    if not _near_enemy_carpet(board, seat):
        return None
    # best-first over (moves so far, tie-break, cell, the walk's free cells, the walk's cells)
    queue: list[tuple[int, int, Cell, tuple[Cell, ...], frozenset[Cell]]] = [(0, 0, start, (), frozenset())]
    done: set[tuple[Cell, int]] = set()
    pushed = 0
    while queue:
        cost, _, here, gaps, path = heapq.heappop(queue)
        if (here, len(gaps)) in done:
            continue
        done.add((here, len(gaps)))
        if here != start and carpets[here] == enemy:
            if _fillable(board, seat, other, gaps, path, moving, confined):
                return cost
            continue
        x, y = here
        for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if cell == start or cell in path or cell not in carpets:
                continue
            owner = servitors.get(cell)
            if owner == seat:
                pushed += 1
                heapq.heappush(queue, (cost + 1, pushed, cell, gaps, path | {cell}))
            elif owner is None and len(gaps) < most:
                pushed += 1
                heapq.heappush(queue, (cost + 2, pushed, cell, (*gaps, cell), path | {cell}))
    return None


def _near_enemy_carpet(board: Board, seat: int) -> bool:
    """Whether a servitor of the seat stands on or beside a carpet of the other colour: every walk ends on one
    such servitor (most positions a search visits have none, and need no walk searched)."""
    enemy = COLOURS[1 - seat]
    carpets = board.carpets
    for (x, y), owner in board.servitors.items():
        if owner == seat and any(carpets.get((x + dx, y + dy)) == enemy for dx, dy in _AROUND):
            return True
    return False


#: a cell and its eight neighbours
_AROUND: tuple[Cell, ...] = ((0, 0), *KING_STEPS)


def _fillable(
    board: Board,
    seat: int,
    other: int,
    gaps: tuple[Cell, ...],
    path: frozenset[Cell],
    moving: bool,
    confined: bool,
) -> bool:
    """Whether the seat can fill ``gaps`` one by one, each with a servitor of its own from beside it and off
    ``path``, in an order that leaves the other side no way to spoil one (see :func:`gapped_walk`)."""
    start = board.princes[seat]
    fillers = [
        {
            (gx + dx, gy + dy)
            for dx, dy in KING_STEPS
            if board.servitors.get((gx + dx, gy + dy)) == seat and (gx + dx, gy + dy) not in path
        }
        - {start}
        for gx, gy in gaps
    ]
    if not _distinct(fillers):
        return False
    before = 0 if moving else 1  # the other side's moves before the first fill
    return any(
        all(_safe_for(board, other, gaps[gap], before + turn, confined) for turn, gap in enumerate(order))
        for order in permutations(range(len(gaps)))
    )


def _distinct(choices: list[set[Cell]]) -> bool:
    """Whether one element can be picked from each set, no two alike (the sets are few and small)."""
    if not choices:
        return True
    return any(_distinct([rest - {pick} for rest in choices[1:]]) for pick in choices[0])


def _safe_for(board: Board, other: int, gap: Cell, moves: int, confined: bool) -> bool:
    """Whether ``other``, in ``moves`` moves, can neither step a servitor onto the free carpet ``gap`` nor move
    that carpet away.

    A servitor of his more than ``moves`` steps away cannot arrive (the one carrying his Prince may move once
    the Prince has left: it counts from two moves on). In one move he can move the carpet if he may now; given
    two or more he might first make room or free it, so only a carpet of the seat's colour is safe then.
    """
    if moves == 0:
        return True
    x, y = gap
    carrying = board.princes[other]
    for (sx, sy), owner in board.servitors.items():
        if owner == other and max(abs(sx - x), abs(sy - y)) <= moves and (moves > 1 or (sx, sy) != carrying):
            return False
    if moves == 1:
        return not (board.carpet_is_movable(gap, other) and board.carpet_targets(gap, confined))
    return board.carpets[gap] == COLOURS[1 - other]


def fastest_win(board: Board, seat: int) -> int:
    """At least how many moves the seat needs to win when it has no forced walk: one to make a path, and a
    Prince move per cell (orthogonally) to the nearest carpet of the other colour (at least one)."""
    px, py = board.princes[seat]
    enemy = COLOURS[1 - seat]
    nearest = min(
        (abs(px - x) + abs(py - y) for (x, y), colour in board.carpets.items() if colour == enemy), default=1
    )
    return 1 + max(1, nearest)


@dataclass
class _Entry:
    depth: int
    score: int
    bound: int
    move: Move | None


@dataclass
class SearchResult:
    move: Move
    score: int
    depth: int  # the deepest depth completed (or cut short after its first move)
    iterations: int
    timed_out: bool


@dataclass
class AlphaBeta:
    """One decision's search. ``seen`` is the game's repetition record (digest -> count)."""

    board: Board
    confined: bool
    long_jump: bool
    seen: dict[str, int]
    moves_played: int
    watch: Stopwatch
    table: dict[int, _Entry] = field(default_factory=dict)
    history: dict[Move, int] = field(default_factory=dict)
    killers: list[list[Move]] = field(default_factory=lambda: [[] for _ in range(MAX_DEPTH + 2)])
    path: list[int] = field(default_factory=list)
    #: leaf scores by position key: transposed lines end on the same positions
    evaluations: dict[int, int] = field(default_factory=dict)
    #: ``expert``'s: each searched position's legal moves by key with the side to move, since every deepening
    #: iteration visits the previous one's positions again (more positions within the wall-time cap). A
    #: transposed position's moves then come in the order of its first visit rather than of the board's
    #: dictionaries, which may break a tie otherwise: ``hard`` (None) keeps its measured choices exactly
    moves_of: dict[int, list[Move]] | None = None
    #: ``expert``'s: score the walks nobody can stop (:func:`forced_walk`) as the wins and losses they are, at
    #: any depth; ``hard`` (False) sees a win only when its Prince can make it at once
    forced: bool = False
    #: ``expert``'s: with ``forced``, also the walks that still need servitors stepped in where the other side
    #: cannot stop them (:func:`gapped_walk`)
    gapped: bool = False
    #: ``expert``'s: score the leaves for the searching seat alone (:func:`evaluate`: its own route in full, the
    #: opponent's only while it is near, so it presses on where a score weighing both alike keeps the balance),
    #: measured from the searched position's score (a draw, ``-CONTEMPT``, then means "worse than now"); and
    #: from ``RELEVANT_FROM`` on search only the moves that touch either side's cheapest route, a ply or two
    #: deeper for the same work
    attacking: bool = False
    #: ``attacking``: the searched position's :func:`evaluate` for the searching seat, set by :meth:`choose`
    baseline: int = 0

    def __post_init__(self) -> None:
        self.key = position_key(self.board)

    # ---- making moves with the key kept up to date -----------------------------------------------------------
    def _play(self, seat: int, move: Move) -> None:
        tag = _piece_tag(self.board, move, seat)
        self.key ^= _zobrist(tag, move[1]) ^ _zobrist(tag, move[2])
        self.board.play(seat, move)

    def _unplay(self, seat: int, move: Move) -> None:
        self.board.unplay(seat, move)
        tag = _piece_tag(self.board, move, seat)
        self.key ^= _zobrist(tag, move[1]) ^ _zobrist(tag, move[2])

    def _side_key(self, seat: int) -> int:
        return self.key ^ (0x9E3779B97F4A7C15 if seat else 0)

    def _can_win_now(self, seat: int) -> bool:
        board = self.board
        enemy = COLOURS[1 - seat]
        for _, _, target in board.prince_moves(seat, self.long_jump):
            if board.carpets.get(target) == enemy:  # he lands on his own servitor, so this is a win
                return True
        return False

    # ---- the search ---------------------------------------------------------------------------------------------
    def choose(self, seat: int, moves: list[Move], max_depth: int = MAX_DEPTH) -> SearchResult:
        """Deepen until the budget is spent; ``moves`` (the legal moves, tie order first) must not be empty."""
        for move in moves:  # a win now needs no search
            if move[0] == PRINCE and self.board.carpets.get(move[2]) == COLOURS[1 - seat]:
                return SearchResult(move, WIN, 0, 0, False)
        self.root_seat = seat
        if self.attacking:
            self.baseline = evaluate(self.board, seat, self.confined)
        best, best_score, completed = moves[0], -WIN, 0
        order = list(moves)
        for depth in range(1, max_depth + 1):
            found = self._root(seat, order, depth)
            if found is None:
                break
            (best, best_score), finished = found
            completed = depth
            order.remove(best)
            order.insert(0, best)
            if not finished or abs(best_score) >= WON:
                break
        return SearchResult(best, best_score, completed, self.watch.iterations, self.watch.timed_out)

    def _root(self, seat: int, moves: list[Move], depth: int) -> tuple[tuple[Move, int], bool] | None:
        """Best move and score at ``depth``, and whether every move was searched; None when even the first
        move could not be searched (the previous depth's choice stands)."""
        alpha, best = -WIN - 1, None
        for index, move in enumerate(moves):
            try:
                score = self._search_move(seat, move, index, depth, alpha, WIN + 1, 0)
            except _OutOfBudget:
                return None if best is None else (best, False)
            if best is None or score > alpha:
                alpha, best = score, (move, score)
        assert best is not None
        return best, True

    def _after(self, seat: int, move: Move, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Score for the opponent of ``seat`` once ``seat`` has played ``move``."""
        self._play(seat, move)
        try:
            if move[0] == PRINCE and self.board.has_won(seat):
                return -(WIN - ply)
            return self._negamax(1 - seat, depth, alpha, beta, ply)
        finally:
            self._unplay(seat, move)

    def _drawn(self, seat: int, ply: int, key: int) -> bool:
        """The move limit, or this position for the third time (on the searched line and in the game).

        A position met only once before is no draw: scoring it as one let the opponent "refute" every move
        he can take back (a neutral carpet moved back restores the position before it), so the search saw
        a draw behind all of them and shuffled the few pieces the opponent cannot move back.
        """
        if self.moves_played + ply >= MOVE_LIMIT:
            return True
        earlier = self.path.count(key)
        if earlier < REPETITIONS_FOR_DRAW - 1 and ply <= HISTORY_PLIES and self.seen:
            earlier += self.seen.get(self._digest(seat, key), 0)
        return earlier >= REPETITIONS_FOR_DRAW - 1

    def _digest(self, seat: int, key: int) -> str:
        digest = _DIGESTS.get(key)
        if digest is None:
            if len(_DIGESTS) >= DIGEST_CACHE:
                _DIGESTS.clear()
            digest = _DIGESTS[key] = self.board.digest(seat)
        return digest

    def _moves(self, seat: int, key: int) -> list[Move]:
        """The legal moves of ``seat`` (``key`` is the position's with ``seat`` to move); not to be changed."""
        if self.moves_of is None:
            return self.board.moves(seat, self.confined, self.long_jump)
        moves = self.moves_of.get(key)
        if moves is None:
            moves = self.moves_of[key] = self.board.moves(seat, self.confined, self.long_jump)
        return moves

    def _negamax(self, seat: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        if self.watch.tick():
            raise _OutOfBudget
        key = self._side_key(seat)
        if self._drawn(seat, ply, key):
            return self._draw_score(seat)
        if self.forced:
            settled = self._settled(seat, ply)
            if settled is not None:
                return settled
        elif self._can_win_now(seat):
            return WIN - ply - 1
        if depth <= 0:
            return self._leaf(seat, key)
        entry = self.table.get(key)
        stored = self._stored(entry, depth, alpha, beta)
        if stored is not None:
            return stored
        moves = self._moves(seat, key)
        if not moves:  # a pass; when the other side cannot move either, its pass draws
            if not self._has_moves(1 - seat):
                return self._draw_score(seat)
            return -self._negamax(1 - seat, depth - 1, -beta, -alpha, ply + 1)
        best, best_move = self._search_moves(seat, moves, entry, key, depth, alpha, beta, ply)
        bound = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.table[key] = _Entry(depth, best, bound, best_move)
        return best

    def _settled(self, seat: int, ply: int) -> int | None:
        """The result of a race that is already decided, for ``seat`` to move; None while it is open.

        A seat with a forced walk of ``n`` Prince moves wins with its ``n``-th move whatever happens meanwhile,
        unless the other side is surely home first: it moves second, so it needs fewer moves than the first
        side's. A side without a forced walk needs at least one move to make one and a Prince move per cell to
        the nearest carpet of the other colour (:func:`fastest_win`).
        """
        if self.long_jump:  # a long jump lands on the first servitor in line: an enemy may step in between
            return WIN - ply - 1 if self._can_win_now(seat) else None
        board = self.board
        mine, theirs = self._walk(seat, True), self._walk(1 - seat, False)
        if mine is not None and mine <= (theirs if theirs is not None else fastest_win(board, 1 - seat)):
            finish = 2 * mine - 1
            if self.moves_played + ply + finish <= MOVE_LIMIT:
                return WIN - ply - finish
        if theirs is not None and theirs < (mine if mine is not None else fastest_win(board, seat)):
            finish = 2 * theirs
            if self.moves_played + ply + finish <= MOVE_LIMIT:
                return -(WIN - ply - finish)
        return None

    def _walk(self, seat: int, moving: bool) -> int | None:
        """The fewest moves of an unstoppable walk of the seat's Prince, ``moving`` when the seat moves next;
        None when there is none. :func:`gapped_walk` finds :func:`forced_walk`'s walks too (none to fill)."""
        if self.gapped:
            return gapped_walk(self.board, seat, moving, self.confined)
        return forced_walk(self.board, seat)

    def _leaf(self, seat: int, key: int) -> int:
        """The position's evaluation at the search horizon (each position evaluated once)."""
        score = self.evaluations.get(key)
        if score is None:
            if self.attacking:
                gain = evaluate(self.board, self.root_seat, self.confined) - self.baseline
                score = gain if seat == self.root_seat else -gain
            else:
                score = balanced_evaluate(self.board, seat, self.confined)
            self.evaluations[key] = score
        return score

    @staticmethod
    def _stored(entry: _Entry | None, depth: int, alpha: int, beta: int) -> int | None:
        """The table's score when its entry settles the node: searched deep enough, and exact or a bound that
        falls outside the window; None when the node must be searched."""
        if entry is None or entry.depth < depth:
            return None
        if entry.bound == EXACT:
            return entry.score
        if entry.bound == LOWER and entry.score >= beta:
            return entry.score
        if entry.bound == UPPER and entry.score <= alpha:
            return entry.score
        return None

    def _search_moves(
        self,
        seat: int,
        moves: list[Move],
        entry: _Entry | None,
        key: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> tuple[int, Move]:
        """The best score among ``moves`` and its move; ``alpha`` rises as they are searched and a cut-off
        (``alpha >= beta``) stops the search."""
        best, best_move = -WIN - 1, moves[0]
        self.path.append(key)
        try:
            for index, move in enumerate(self._ordered(moves, entry, ply)):
                score = self._search_move(seat, move, index, depth, alpha, beta, ply)
                if score > best:
                    best, best_move = score, move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            self._reward(move, depth, ply)
                            break
        finally:
            self.path.pop()
        return best, best_move

    def _search_move(
        self, seat: int, move: Move, index: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """Principal variation search with late move reductions: the first move gets the full window; later
        ones are first asked only whether they beat ``alpha`` (a null window), late quiet ones also one ply
        shallower, and searched again in full only when they do."""
        if index == 0:
            return -self._after(seat, move, depth - 1, -beta, -alpha, ply + 1)
        reduced = depth - 1
        if index >= LATE_MOVE and depth >= REDUCE_FROM and move[0] != PRINCE:
            reduced -= 1 if index < VERY_LATE_MOVE else 2
        score = -self._after(seat, move, reduced, -alpha - 1, -alpha, ply + 1)
        if score > alpha and (reduced < depth - 1 or score < beta):
            score = -self._after(seat, move, depth - 1, -beta, -alpha, ply + 1)
        return score

    def _draw_score(self, seat: int) -> int:
        """A draw, for the side to move: a little worse than even for the searching side (``CONTEMPT``)."""
        return -CONTEMPT if seat == self.root_seat else CONTEMPT

    def _has_moves(self, seat: int) -> bool:
        return bool(self._moves(seat, self._side_key(seat)))

    def _ordered(self, moves: list[Move], entry: _Entry | None, ply: int) -> list[Move]:
        first = entry.move if entry is not None else None
        killers = self.killers[ply] if ply < len(self.killers) else []
        history = self.history

        def rank(move: Move) -> tuple[int, int]:
            if move == first:
                return (0, 0)
            if move[0] == PRINCE:
                return (1, 0)
            if move in killers:
                return (2, 0)
            return (3, -history.get(move, 0))

        ordered = sorted(moves, key=rank)
        if not self.attacking or ply < RELEVANT_FROM:
            return ordered
        board, confined = self.board, self.confined
        cells = route_cells(board, 0, confined) | route_cells(board, 1, confined)
        relevant = [move for move in ordered if move[0] == PRINCE or move[1] in cells or move[2] in cells]
        return relevant or ordered

    def _reward(self, move: Move, depth: int, ply: int) -> None:
        """A move that cut the search off: remember it for this ply and rank it higher everywhere."""
        if move[0] != PRINCE and ply < len(self.killers):
            killers = self.killers[ply]
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth
