"""The island of The Prince: geometry, tile names, map generation and castle strength.

Tiles are numbered ``y * 10 + x`` with ``x`` the column (``a``-``j``, west to east) and ``y`` the row
(``1``-``10``, north to south), so ``c4`` is column 3, row 4. A tile is stored as
``[terrain, resource, yield]`` with resource ``""`` (and yield 0) when it holds none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from rules.engine import Rng

SIZE = 10
TILES = SIZE * SIZE
COLUMNS = "abcdefghij"
#: each seat's colour, as the renderer draws it (``render/the_prince.py``)
SEAT_COLOURS = ("red", "blue")
TERRAINS = ("plains", "forest", "hills", "mountains")
RESOURCES = ("iron", "stone", "gold")
#: how often each terrain is drawn (out of 10)
TERRAIN_WEIGHTS = {"plains": 3, "forest": 3, "hills": 2, "mountains": 2}
#: percentage of land tiles holding a resource
RESOURCE_PERCENT = 55
#: resource weights per terrain: mountains favour iron, hills stone, plains gold; forests favour nothing
RESOURCE_WEIGHTS = {
    "mountains": {"iron": 6, "stone": 2, "gold": 2},
    "hills": {"iron": 2, "stone": 6, "gold": 2},
    "plains": {"iron": 2, "stone": 2, "gold": 6},
    "forest": {"iron": 1, "stone": 1, "gold": 1},
}
#: the eight directions and staying put, as ``(dx, dy)``; north is row 1
DIRECTIONS: dict[str, tuple[int, int]] = {
    "stay": (0, 0),
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}
DIRECTION_WORDS = {
    "stay": "stay",
    "n": "north",
    "ne": "north-east",
    "e": "east",
    "se": "south-east",
    "s": "south",
    "sw": "south-west",
    "w": "west",
    "nw": "north-west",
}
TILE_RE = re.compile(r"^([a-j])\s*(10|[1-9])$")

#: [terrain, resource, yield], e.g. ["forest", "iron", 2] or ["plains", "", 0]: a JSON list of mixed types
Tile = list[Any]


def xy(index: int) -> tuple[int, int]:
    return index % SIZE, index // SIZE


def at(x: int, y: int) -> int:
    return y * SIZE + x


def name(index: int) -> str:
    """``c4`` style name of a tile."""
    x, y = xy(index)
    return f"{COLUMNS[x]}{y + 1}"


def parse_tile(text: str) -> int | None:
    """The index of a tile name such as ``c4`` (case and inner spaces forgiven), or None."""
    match = TILE_RE.match(text.strip().lower())
    if not match:
        return None
    return at(COLUMNS.index(match.group(1)), int(match.group(2)) - 1)


def on_ring(index: int) -> bool:
    """The outer ring is always water: every player knows that without seeing it."""
    x, y = xy(index)
    return x in (0, SIZE - 1) or y in (0, SIZE - 1)


def _area(index: int) -> tuple[int, ...]:
    x, y = xy(index)
    return tuple(
        at(x + dx, y + dy)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if 0 <= x + dx < SIZE and 0 <= y + dy < SIZE
    )


#: a tile and its (up to) 8 neighbours: what a Prince sees and what a castle draws resources from
AREA: tuple[tuple[int, ...], ...] = tuple(_area(index) for index in range(TILES))


def step(index: int, direction: str) -> int | None:
    """The tile one step away in ``direction``, or None off the board."""
    dx, dy = DIRECTIONS[direction]
    x, y = xy(index)
    if not (0 <= x + dx < SIZE and 0 <= y + dy < SIZE):
        return None
    return at(x + dx, y + dy)


def is_land(tiles: Sequence[Tile], index: int) -> bool:
    return bool(tiles[index][0] != "water")


def coastal(tiles: Sequence[Tile], index: int) -> bool:
    """A land tile touching water (diagonals count)."""
    return is_land(tiles, index) and any(not is_land(tiles, other) for other in AREA[index])


def in_half(index: int, seat: int) -> bool:
    """Seat 0 holds the west half (columns a-e), seat 1 the east half (f-j)."""
    x, _ = xy(index)
    return x < SIZE // 2 if seat == 0 else x >= SIZE // 2


def landing_tiles(tiles: Sequence[Tile], seat: int) -> list[int]:
    return [index for index in range(TILES) if in_half(index, seat) and coastal(tiles, index)]


def _weighted(rng: Rng, weights: dict[str, int]) -> str:
    roll = rng.randint(1, sum(weights.values()))
    for key, weight in weights.items():
        roll -= weight
        if roll <= 0:
            return key
    raise AssertionError("weights exhausted")


def _land_tile(rng: Rng) -> Tile:
    terrain = _weighted(rng, TERRAIN_WEIGHTS)
    if rng.randint(1, 100) > RESOURCE_PERCENT:
        return [terrain, "", 0]
    return [terrain, _weighted(rng, RESOURCE_WEIGHTS[terrain]), rng.randint(1, 3)]


def generate(rng: Rng, symmetric: bool) -> list[Tile]:
    """A seeded island; symmetric maps repeat each tile on its half-turn image, so both halves are equal."""
    tiles: list[Tile] = [["water", "", 0] for _ in range(TILES)]
    for index in range(TILES):
        if on_ring(index):
            continue
        mirror = TILES - 1 - index
        if symmetric and mirror < index:
            tiles[index] = list(tiles[mirror])
        else:
            tiles[index] = _land_tile(rng)
    return tiles


def strength(tiles: Sequence[Tile | None], index: int) -> dict[str, int]:
    """Offence (iron), defence (stone) and bonus (gold) of a castle on ``index``; unknown tiles add 0."""
    totals = {"iron": 0, "stone": 0, "gold": 0}
    for other in AREA[index]:
        tile = tiles[other]
        if tile is not None and tile[1]:
            totals[tile[1]] += tile[2]
    return {"offence": totals["iron"], "defence": totals["stone"], "bonus": totals["gold"]}


def tile_token(index: int, tile: Tile) -> str:
    """How views write a tile: ``tile:c4:forest:iron2`` (``-`` for no resource); distinctive for secrets."""
    resource = f"{tile[1]}{tile[2]}" if tile[1] else "-"
    return f"tile:{name(index)}:{tile[0]}:{resource}"


def parse_tile_token(token: str) -> tuple[int, Tile]:
    """The inverse of :func:`tile_token` (views carry tokens; the AI and the renderer read them back)."""
    _, place, terrain, resource = token.split(":")
    index = parse_tile(place)
    if index is None:
        raise ValueError(f"bad tile token {token!r}")
    if resource == "-":
        return index, [terrain, "", 0]
    return index, [terrain, resource[:-1], int(resource[-1])]


def known_tiles(tokens: Iterable[str]) -> list[Tile | None]:
    """The board as a view knows it: a tile where seen, None elsewhere."""
    tiles: list[Tile | None] = [None] * TILES
    for token in tokens:
        index, tile = parse_tile_token(token)
        tiles[index] = tile
    return tiles
