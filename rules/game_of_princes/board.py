"""The Game of Princes position as fast Python objects, its move generator and the carpet connectivity rule.

The JSON state (see ``rules.game_of_princes``) is converted into a :class:`Board` for anything that needs to
think about moves: ``legal_actions``, ``apply`` and the AI all share this one move generator, so they cannot
disagree about what is legal.

Cells are ``(x, y)`` pairs on an unbounded table. The original 5x5 grid is ``1..5 x 1..5``: Red's carpets on
row 1, Blue's on row 5. Carpets may leave it (unless the game is *confined*), so coordinates may be 0,
negative or above 5.

>>> board = Board.start()
>>> len(board.carpets), len(board.servitors), board.princes
(24, 10, [(3, 1), (3, 5)])
>>> len(board.moves(0, confined=False, long_jump=False))
38
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

Cell = tuple[int, int]

#: a move: piece letter (C carpet, S servitor, P Prince), from, to
Move = tuple[str, Cell, Cell]

SIZE = 5
COLOURS = ("red", "blue")
NEUTRAL = "neutral"
CARPET, SERVITOR, PRINCE = "C", "S", "P"
PIECE_NAMES = {CARPET: "carpet", SERVITOR: "servitor", PRINCE: "Prince"}

KING_STEPS: tuple[Cell, ...] = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
ROOK_STEPS: tuple[Cell, ...] = ((0, -1), (-1, 0), (1, 0), (0, 1))


def home_row(seat: int) -> int:
    """Red (seat 0) starts on row 1, Blue (seat 1) on row 5."""
    return 1 if seat == 0 else SIZE


def in_original_grid(cell: Cell) -> bool:
    return 1 <= cell[0] <= SIZE and 1 <= cell[1] <= SIZE


def neighbours(cell: Cell) -> list[Cell]:
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in KING_STEPS]


def touching(a: Cell, b: Cell) -> bool:
    """Edge or corner contact (Chebyshev distance 1)."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def format_cell(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


def format_move(move: Move) -> str:
    """Canonical notation: piece letter, source cell, ``>``, target cell; e.g. ``S2,1>2,2``."""
    letter, source, target = move
    return f"{letter}{format_cell(source)}>{format_cell(target)}"


def components(cells: Iterable[Cell]) -> list[set[Cell]]:
    """Groups of cells connected by edges or corners."""
    remaining = set(cells)
    groups: list[set[Cell]] = []
    while remaining:
        seed = remaining.pop()
        group = {seed}
        frontier = [seed]
        while frontier:
            x, y = frontier.pop()
            for dx, dy in KING_STEPS:
                other = (x + dx, y + dy)
                if other in remaining:
                    remaining.remove(other)
                    group.add(other)
                    frontier.append(other)
        groups.append(group)
    return groups


@lru_cache(maxsize=256)
def _ring_connected(mask: int) -> bool:
    """Whether the occupied cells around a cell (bit i: ``KING_STEPS[i]``) touch one another without it.

    If they do, lifting that cell cannot split a group: any path through it can go around it instead.
    """
    ring = [step for bit, step in enumerate(KING_STEPS) if mask >> bit & 1]
    return len(components(ring)) <= 1


@dataclass
class Board:
    """A position: carpets by cell (their colour), servitors by cell (their seat), each seat's Prince."""

    carpets: dict[Cell, str] = field(default_factory=dict)
    servitors: dict[Cell, int] = field(default_factory=dict)
    princes: list[Cell] = field(default_factory=list)

    @classmethod
    def start(cls) -> Board:
        """The standard start: 24 carpets (the centre one removed), servitors on their carpets."""
        board = cls()
        for x in range(1, SIZE + 1):
            for y in range(1, SIZE + 1):
                if (x, y) == (3, 3):
                    continue
                colour = COLOURS[0] if y == home_row(0) else COLOURS[1] if y == home_row(1) else NEUTRAL
                board.carpets[(x, y)] = colour
        for seat in (0, 1):
            for x in range(1, SIZE + 1):
                board.servitors[(x, home_row(seat))] = seat
            board.princes.append((3, home_row(seat)))
        return board

    def copy(self) -> Board:
        return Board(dict(self.carpets), dict(self.servitors), list(self.princes))

    # ---- queries ------------------------------------------------------------------------------------------
    def top_piece(self, cell: Cell) -> str | None:
        """The letter of the uppermost pyramid on ``cell``, the only one there that could ever move."""
        if cell in self.princes:
            return PRINCE
        if cell in self.servitors:
            return SERVITOR
        if cell in self.carpets:
            return CARPET
        return None

    def prince_at(self, cell: Cell) -> int | None:
        for seat, where in enumerate(self.princes):
            if where == cell:
                return seat
        return None

    def has_won(self, seat: int) -> bool:
        """The seat's Prince rides one of its servitors on a carpet of the opponent's colour."""
        where = self.princes[seat]
        return self.servitors.get(where) == seat and self.carpets.get(where) == COLOURS[1 - seat]

    def key(self, to_move: int) -> str:
        """The whole position with the player to move, as text (repetition counts compare these)."""
        carpets = ";".join(f"{x},{y}{c[0]}" for (x, y), c in sorted(self.carpets.items()))
        servitors = ";".join(f"{x},{y}{s}" for (x, y), s in sorted(self.servitors.items()))
        princes = ";".join(format_cell(cell) for cell in self.princes)
        return f"{carpets}|{servitors}|{princes}|{to_move}"

    def digest(self, to_move: int) -> str:
        """A short fingerprint of :meth:`key`: what the state stores to count repetitions."""
        return hashlib.blake2b(self.key(to_move).encode(), digest_size=8).hexdigest()

    # ---- move generation ----------------------------------------------------------------------------------
    def moves(self, seat: int, confined: bool, long_jump: bool) -> list[Move]:
        """Every legal move of ``seat``: Prince moves first, then servitors, then carpets (a useful AI order)."""
        return (
            self.prince_moves(seat, long_jump) + self.servitor_moves(seat) + self.carpet_moves(seat, confined)
        )

    def prince_moves(self, seat: int, long_jump: bool) -> list[Move]:
        source = self.princes[seat]
        targets: list[Cell] = []
        for dx, dy in ROOK_STEPS:
            target = self._prince_landing(source, (dx, dy), long_jump)
            if target is not None and self.servitors.get(target) == seat:
                targets.append(target)
        return [(PRINCE, source, target) for target in targets]

    def _prince_landing(self, source: Cell, step: Cell, long_jump: bool) -> Cell | None:
        """The cell holding a servitor where the Prince would land going ``step`` (None: no servitor there)."""
        x, y = source[0] + step[0], source[1] + step[1]
        if not long_jump:
            return (x, y) if (x, y) in self.servitors else None
        # a line of cells without servitors ends within the servitors' span, so the scan is bounded
        xs = [cell[0] for cell in self.servitors]
        ys = [cell[1] for cell in self.servitors]
        while min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys):
            if (x, y) in self.servitors:
                return (x, y)
            x, y = x + step[0], y + step[1]
        return None

    def servitor_moves(self, seat: int) -> list[Move]:
        carrying = self.princes[seat]
        result: list[Move] = []
        for source, owner in sorted(self.servitors.items()):
            if owner != seat or source == carrying:
                continue
            for target in neighbours(source):
                if target in self.carpets and target not in self.servitors:
                    result.append((SERVITOR, source, target))
        return result

    def carpet_moves(self, seat: int, confined: bool) -> list[Move]:
        result: list[Move] = []
        for source in sorted(self.carpets):
            if not self.carpet_is_movable(source, seat):
                continue
            for target in self.carpet_targets(source, confined):
                result.append((CARPET, source, target))
        return result

    def carpet_is_movable(self, source: Cell, seat: int) -> bool:
        """Neutral or the seat's own colour, and carrying no servitor."""
        return self.carpets[source] in (NEUTRAL, COLOURS[seat]) and source not in self.servitors

    def carpet_targets(self, source: Cell, confined: bool) -> list[Cell]:
        """Empty neighbour cells where the carpet may go and leave all carpets in one group."""
        empty = [
            cell
            for cell in neighbours(source)
            if cell not in self.carpets and (not confined or in_original_grid(cell))
        ]
        if not empty:
            return []
        groups = self._split_groups(source)
        if groups is None:
            return [cell for cell in empty if self._touches_other_carpet(cell, source)]
        return [
            cell for cell in empty if all(any(touching(cell, other) for other in group) for group in groups)
        ]

    def can_lift(self, source: Cell) -> bool:
        """Whether the other carpets stay one group without the carpet on ``source``."""
        return self._split_groups(source) is None

    def _touches_other_carpet(self, cell: Cell, lifted: Cell) -> bool:
        return any(other in self.carpets and other != lifted for other in neighbours(cell))

    def _split_groups(self, source: Cell) -> list[set[Cell]] | None:
        """The groups the other carpets form once ``source`` is lifted; None when they stay one group."""
        x, y = source
        carpets = self.carpets
        mask = 0
        for bit, (dx, dy) in enumerate(KING_STEPS):
            if (x + dx, y + dy) in carpets:
                mask |= 1 << bit
        if mask and _ring_connected(mask):
            # the carpets formed one group before (they always do between moves) and still do
            return None
        groups = components(cell for cell in carpets if cell != source)
        return None if len(groups) <= 1 else groups

    def carpets_connected(self) -> bool:
        return len(components(self.carpets)) <= 1

    # ---- making moves -------------------------------------------------------------------------------------
    def play(self, seat: int, move: Move) -> None:
        """Make a move known to be legal (no checks: the AI calls this in its search)."""
        letter, source, target = move
        if letter == CARPET:
            self.carpets[target] = self.carpets.pop(source)
        elif letter == SERVITOR:
            self.servitors[target] = self.servitors.pop(source)
        else:
            self.princes[seat] = target

    def unplay(self, seat: int, move: Move) -> None:
        """Take back :meth:`play` of the same move."""
        letter, source, target = move
        self.play(seat, (letter, target, source))
