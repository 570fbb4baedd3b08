"""Pharaoh's board geometry: a 5x5 grid with its corners blocked, edges, goal lines, step costs, dice odds.

Cells are named like chess squares, files ``a``-``e`` from west to east and ranks ``1``-``5`` from south to north,
so ``c3`` is the centre. Internally a cell is the index ``rank * 5 + file`` (``a1`` is 0, ``e5`` is 24), which is
what the AI's search uses; the game state and views use the names.

>>> cell_name(12), cell_index("b4")
('c3', 16)
>>> [cell_name(cell) for cell in EDGE_CELLS["west"]]
['a2', 'a3', 'a4']
"""

from __future__ import annotations

from itertools import product

SIZE = 5
FILES = "abcde"
#: the four blocked corners: a1, e1, a5, e5
BLOCKED = frozenset({0, 4, 20, 24})
CELLS = tuple(cell for cell in range(SIZE * SIZE) if cell not in BLOCKED)
CENTRE = 12

#: each edge's three cells, listed west to east or south to north
EDGE_CELLS: dict[str, tuple[int, int, int]] = {
    "south": (1, 2, 3),
    "west": (5, 10, 15),
    "north": (21, 22, 23),
    "east": (9, 14, 19),
}
#: edges in seat order. Seat order is clockwise seen from above with north up: south, west, north, east.
SEAT_EDGES: dict[int, tuple[str, ...]] = {
    2: ("south", "north"),
    3: ("south", "west", "north"),
    4: ("south", "west", "north", "east"),
}

#: the 3-cell lines through the centre
GOAL_LINES: dict[str, tuple[int, int, int]] = {
    "row": (11, 12, 13),  # b3 c3 d3: parallel to the south and north edges
    "column": (7, 12, 17),  # c2 c3 c4: parallel to the west and east edges
    "rising": (6, 12, 18),  # b2 c3 d4
    "falling": (16, 12, 8),  # b4 c3 d2
}

PIECE_LETTERS = ("S", "M", "L")
PIECE_NAMES = ("small", "medium", "large")


def cell_name(cell: int) -> str:
    return f"{FILES[cell % SIZE]}{cell // SIZE + 1}"


def cell_index(name: str) -> int:
    """The index of a cell name; raises ``ValueError`` for a name off the board or on a blocked corner."""
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345":
        raise ValueError(f"{name!r} is not a cell")
    cell = (int(name[1]) - 1) * SIZE + FILES.index(name[0])
    if cell in BLOCKED:
        raise ValueError(f"{name} is a blocked corner")
    return cell


def goal_line_names(players: int, two_player_goal: str) -> tuple[str, ...]:
    """Which goal lines count. 2 players: the line between them ("between") or across it ("across")."""
    if players == 2:
        return ("row",) if two_player_goal == "between" else ("column",)
    if players == 3:
        return ("row", "column")
    return ("row", "column", "rising", "falling")


def _neighbours(cell: int) -> tuple[tuple[int, int], ...]:
    """(neighbour, cost multiplier): 1 for an orthogonal step, 2 for a diagonal one."""
    rank, file = divmod(cell, SIZE)
    found = []
    for d_rank, d_file in product((-1, 0, 1), repeat=2):
        if d_rank == d_file == 0:
            continue
        r, f = rank + d_rank, file + d_file
        if 0 <= r < SIZE and 0 <= f < SIZE and r * SIZE + f not in BLOCKED:
            found.append((r * SIZE + f, 2 if d_rank and d_file else 1))
    return tuple(found)


NEIGHBOURS: dict[int, tuple[tuple[int, int], ...]] = {cell: _neighbours(cell) for cell in CELLS}


def step_multiplier(source: int, target: int) -> int | None:
    """1 for orthogonally adjacent cells, 2 for diagonally adjacent ones, None otherwise."""
    for neighbour, multiplier in NEIGHBOURS[source]:
        if neighbour == target:
            return multiplier
    return None


def manhattan(a: int, b: int) -> int:
    """Steps between two cells priced as orthogonal steps (a diagonal costs the same as two of them)."""
    return abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE)


def _dice_sums(dice: int) -> dict[int, int]:
    counts: dict[int, int] = {}
    for faces in product(range(1, 7), repeat=dice):
        counts[sum(faces)] = counts.get(sum(faces), 0) + 1
    return counts


#: dice -> total -> probability of rolling at least that total (index 0 and below are certain)
AT_LEAST: dict[int, tuple[float, ...]] = {}
for _dice in (1, 2):
    _counts = _dice_sums(_dice)
    _total = sum(_counts.values())
    AT_LEAST[_dice] = tuple(
        sum(n for s, n in _counts.items() if s >= need) / _total for need in range(6 * _dice + 1)
    )


def chance_at_least(dice: int, need: int) -> float:
    """Probability that ``dice`` d6 sum to at least ``need`` points."""
    table = AT_LEAST[dice]
    if need <= 0:
        return 1.0
    return table[need] if need < len(table) else 0.0
