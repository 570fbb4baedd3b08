"""Build the PRINCIPES board geometry (render/assets/principes/map_geometry.json) from the map data.

Reproducible and dependency-free: ``.venv/bin/python scripts/make_principes_map.py``. Each land is the Voronoi
cell of its seat (the castellany's latitude/longitude in ``rules/principes/data/map.json``), clipped to a disc
around the seat so that the realm gets a natural, rounded outline. The script also records:

- which cells touch and along which segment (for borders and crops);
- the segments where two cells touch although the map data gives no border between them: the renderer draws
  them as impassable (a forest/marsh hatch), so the picture never suggests a border the rules do not have;
- data borders whose cells do not touch: printed as a warning (there are none with the current data);
- a hand-placed box for each off-map area (warning when one covers a land), and on each land an area touches
  the spot for a tag naming that area: inside the cell, off its name/gord/units column, towards the area.

Seats are first spread by a few steps of Lloyd relaxation towards their cell centroids (capped, so every land
stays near its historical place): dense clusters such as Posnania-Gnesna-Sremium otherwise get cells too small
to hold a name, a gord and units legibly.
"""

from __future__ import annotations

import json
import math
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "rules" / "principes" / "data" / "map.json"
OUT = ROOT / "render" / "assets" / "principes" / "map_geometry.json"

WIDTH, HEIGHT = 1080, 1120  # the map area of the board image, in pixels
FIT = (30, 60, 1050, 1060)  # the realm is scaled into this box, leaving room for the off-map areas
SCALE = 174  # pixels per degree of latitude
LON0, LAT0 = 13.6, 54.5  # top-left corner of the map area
COS_LAT = math.cos(math.radians(52.0))
DISC = 118  # radius of the disc each cell is clipped to (pixels)
DISC_SIDES = 40
LLOYD_STEPS = 6
LLOYD_MAX_SHIFT = 34  # pixels a seat may move in total
#: hand-placed nudges (pixels) where a historical seat sits at the very edge of its land
NUDGES = {
    "pomocc": (60, 0),
    "pomor": (-50, 30),
    "calisia": (12, -6),
    "lubusium": (6, -62),
    "santocum": (14, 6),
    "cracovia": (-14, 0),
    "crosna": (14, -14),
    "premet": (-16, 8),
    # Vratislavia's name sat at Milicium's southern edge: Milicium's two figures had nowhere to go
    "vratislavia": (0, 16),
}
#: lands covering a wide area around one seat get a larger disc
WIDE = {"pomocc": 136, "pomor": 128}
OFFMAP_BOX = (156, 66)
#: centre of each off-map area's box, in the direction of the lands it touches
OFFMAP_CENTRES = {
    "german_marches": (80, 665),
    "bohemia": (120, 1000),
    "hungary": (480, 1070),
    "rus": (970, 1040),
    "prussians": (720, 60),
    "lithuanians": (970, 110),
}

Point = tuple[float, float]


def project(lat: float, lon: float) -> Point:
    return (lon - LON0) * COS_LAT * SCALE, (LAT0 - lat) * SCALE


def clip(polygon: list[Point], anchor: Point, normal: Point) -> list[Point]:
    """Keep the part of a convex polygon where (p - anchor) . normal <= 0 (Sutherland-Hodgman, one plane)."""

    def side(p: Point) -> float:
        return (p[0] - anchor[0]) * normal[0] + (p[1] - anchor[1]) * normal[1]

    result: list[Point] = []
    for index, current in enumerate(polygon):
        previous = polygon[index - 1]
        s_prev, s_cur = side(previous), side(current)
        if s_cur <= 0:
            if s_prev > 0:
                result.append(_cross(previous, current, s_prev, s_cur))
            result.append(current)
        elif s_prev <= 0:
            result.append(_cross(previous, current, s_prev, s_cur))
    return result


def _cross(a: Point, b: Point, sa: float, sb: float) -> Point:
    t = sa / (sa - sb)
    return a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])


def disc(centre: Point, radius: float) -> list[Point]:
    return [
        (
            centre[0] + radius * math.cos(2 * math.pi * k / DISC_SIDES),
            centre[1] + radius * math.sin(2 * math.pi * k / DISC_SIDES),
        )
        for k in range(DISC_SIDES)
    ]


def cells(seats: dict[str, Point]) -> dict[str, list[Point]]:
    result = {}
    for land, seat in seats.items():
        polygon = disc(seat, WIDE.get(land, DISC))
        for other, position in seats.items():
            if other != land:
                middle = ((seat[0] + position[0]) / 2, (seat[1] + position[1]) / 2)
                polygon = clip(polygon, middle, (position[0] - seat[0], position[1] - seat[1]))
        result[land] = polygon
    return result


def centroid(polygon: list[Point]) -> Point:
    area = cx = cy = 0.0
    for index, (x1, y1) in enumerate(polygon):
        x0, y0 = polygon[index - 1]
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    area /= 2
    return cx / (6 * area), cy / (6 * area)


def relax(seats: dict[str, Point]) -> dict[str, Point]:
    origin = dict(seats)
    for _ in range(LLOYD_STEPS):
        polygons = cells(seats)
        moved = {}
        for land, polygon in polygons.items():
            cx, cy = centroid(polygon)
            ox, oy = origin[land]
            dx, dy = cx - ox, cy - oy
            length = math.hypot(dx, dy)
            if length > LLOYD_MAX_SHIFT:
                dx, dy = dx * LLOYD_MAX_SHIFT / length, dy * LLOYD_MAX_SHIFT / length
            moved[land] = (ox + dx, oy + dy)
        seats = moved
    return seats


def shared_segments(
    seats: dict[str, Point], polygons: dict[str, list[Point]]
) -> tuple[dict[tuple[str, str], list[Point]], dict[str, list[str | None]]]:
    """Touching pairs with their common segment, and for each land the land across each polygon edge.

    Edge ``i`` of a polygon runs from vertex ``i - 1`` to vertex ``i``; ``None`` means the realm's rim.
    """
    touching: dict[tuple[str, str], list[Point]] = {}
    across: dict[str, list[str | None]] = {}
    for land, polygon in polygons.items():
        seat = seats[land]
        across[land] = []
        for index, end in enumerate(polygon):
            start = polygon[index - 1]
            neighbour = None
            for other, position in seats.items():
                if other == land:
                    continue
                middle = ((seat[0] + position[0]) / 2, (seat[1] + position[1]) / 2)
                normal = (position[0] - seat[0], position[1] - seat[1])
                length = math.hypot(*normal)
                if all(
                    abs((p[0] - middle[0]) * normal[0] + (p[1] - middle[1]) * normal[1]) / length < 0.5
                    for p in (start, end)
                ):
                    neighbour = other
                    break
            across[land].append(neighbour)
            if neighbour is not None and math.dist(start, end) >= 4:
                touching[(min(land, neighbour), max(land, neighbour))] = [start, end]
    return touching, across


def fit(
    polygons: dict[str, list[Point]], seats: dict[str, Point]
) -> tuple[dict[str, list[Point]], dict[str, Point]]:
    """Scale and move the realm into ``FIT``, keeping its proportions."""
    xs = [x for polygon in polygons.values() for x, _ in polygon]
    ys = [y for polygon in polygons.values() for _, y in polygon]
    factor = min((FIT[2] - FIT[0]) / (max(xs) - min(xs)), (FIT[3] - FIT[1]) / (max(ys) - min(ys)))
    dx = FIT[0] + ((FIT[2] - FIT[0]) - factor * (max(xs) - min(xs))) / 2 - factor * min(xs)
    dy = FIT[1] + ((FIT[3] - FIT[1]) - factor * (max(ys) - min(ys))) / 2 - factor * min(ys)

    def move(p: Point) -> Point:
        return p[0] * factor + dx, p[1] * factor + dy

    return (
        {land: [move(p) for p in polygon] for land, polygon in polygons.items()},
        {land: move(seat) for land, seat in seats.items()},
    )


def inside(point: Point, polygon: list[Point]) -> bool:
    x, y = point
    result = False
    for index, (x1, y1) in enumerate(polygon):
        x0, y0 = polygon[index - 1]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            result = not result
    return result


def offmap_boxes(polygons: dict[str, list[Point]]) -> dict[str, list[int]]:
    """A box per off-map area at its hand-placed centre; warns when a box covers a land."""
    width, height = OFFMAP_BOX
    boxes = {}
    for area, (x, y) in OFFMAP_CENTRES.items():
        box = [round(x - width / 2), round(y - height / 2), round(x + width / 2), round(y + height / 2)]
        probes = [(box[0] + width * i / 6, box[1] + height * j / 3) for i in range(7) for j in range(4)]
        covered = sorted({land for land, polygon in polygons.items() for p in probes if inside(p, polygon)})
        if covered:
            print(f"warning: the {area} box covers {', '.join(covered)}", file=sys.stderr)
        boxes[area] = box
    return boxes


GATE_HALF = (16, 11)  # half size of a gate tag (pixels)
CENTRE_COLUMN = (42, 44, 52)  # half width, height above and below the centre kept for name, gord, units
#: a land's name as the renderer draws it (16 px, 2 px halo, 27 px above the centre), measured without a font:
#: 9.6 px is the widest letter average of the names, so the box holds every name
NAME_RAISE, NAME_HALF_HEIGHT, NAME_LETTER = 27, 10, 9.6


Box = tuple[float, float, float, float]


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def plain_name(text: str) -> str:
    """The name as the board spells it (no accents): its length sizes the name's box."""
    decomposed = unicodedata.normalize("NFKD", text.replace("ł", "l").replace("Ł", "L"))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def name_box(centre: Point, name: str) -> Box:
    half = len(name) * NAME_LETTER / 2 + 2
    y = centre[1] - NAME_RAISE
    return centre[0] - half, y - NAME_HALF_HEIGHT, centre[0] + half, y + NAME_HALF_HEIGHT


def gate_point(
    polygon: list[Point], centre: Point, target: Point, taken: list[Box], names: list[Box]
) -> Point:
    """Where a land's tag for an off-map area goes: the whole tag inside the cell, covering no land's name if
    it can, overlapping as little as possible the centre column (name, gord, units) and the land's other
    tags, then as far towards the area."""
    dx, dy = target[0] - centre[0], target[1] - centre[1]
    length = math.hypot(dx, dy)
    column = (
        centre[0] - CENTRE_COLUMN[0],
        centre[1] - CENTRE_COLUMN[1],
        centre[0] + CENTRE_COLUMN[0],
        centre[1] + CENTRE_COLUMN[2],
    )
    best, best_score = centre, -math.inf
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    for gx in range(int(min(xs)), int(max(xs)) + 1, 3):
        for gy in range(int(min(ys)), int(max(ys)) + 1, 3):
            tag = (gx - GATE_HALF[0], gy - GATE_HALF[1], gx + GATE_HALF[0], gy + GATE_HALF[1])
            score = ((gx - centre[0]) * dx + (gy - centre[1]) * dy) / length
            score -= 10 * _overlap(tag, column) + 10 * sum(_overlap(tag, other) for other in taken)
            score -= 1000 * sum(_overlap(tag, name) for name in names)
            if score <= best_score:
                continue
            corners = [
                (gx + sx * (GATE_HALF[0] + 3), gy + sy * (GATE_HALF[1] + 3))
                for sx in (-1, 1)
                for sy in (-1, 1)
            ]
            if all(inside(corner, polygon) for corner in corners):
                best, best_score = (gx, gy), score
    return best


def gates(
    data: dict, polygons: dict[str, list[Point]], boxes: dict[str, list[int]]
) -> dict[str, dict[str, list[float]]]:
    result: dict[str, dict[str, list[float]]] = {}
    taken: dict[str, list[Box]] = {}
    short = {land["id"]: plain_name(land["short"]) for land in data["lands"]}
    names = [name_box(centroid(polygon), short[land]) for land, polygon in polygons.items()]
    for area in data["offmap_areas"]:
        box = boxes[area["id"]]
        target = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        result[area["id"]] = {}
        for land in area["touches"]:
            x, y = gate_point(
                polygons[land], centroid(polygons[land]), target, taken.setdefault(land, []), names
            )
            taken[land].append(
                (x - GATE_HALF[0] - 4, y - GATE_HALF[1] - 4, x + GATE_HALF[0] + 4, y + GATE_HALF[1] + 4)
            )
            result[area["id"]][land] = [x, y]
    return result


def build_geometry(data: dict) -> dict:
    """The whole asset as a JSON-ready dict (the tests rebuild it and compare with the committed file)."""
    seats = {}
    for land in data["lands"]:
        x, y = project(land["lat"], land["lon"])
        nudge = NUDGES.get(land["id"], (0, 0))
        seats[land["id"]] = (x + nudge[0], y + nudge[1])
    seats = relax(seats)
    polygons, seats = fit(cells(seats), seats)
    touching, across = shared_segments(seats, polygons)
    borders = {tuple(sorted(pair)) for pair in data["borders"]}
    missing = sorted(borders - set(touching))
    impassable = [f"{a}|{b}" for (a, b) in sorted(touching) if (a, b) not in borders]
    centres = {land: centroid(polygon) for land, polygon in polygons.items()}
    boxes = offmap_boxes(polygons)
    return {
        "comment": "Generated by scripts/make_principes_map.py from rules/principes/data/map.json; do not edit.",
        "size": [WIDTH, HEIGHT],
        "lands": {
            land: {
                "polygon": [[round(x, 1), round(y, 1)] for x, y in polygon],
                "across": across[land],
                "seat": [round(seats[land][0], 1), round(seats[land][1], 1)],
                "centre": [round(centres[land][0], 1), round(centres[land][1], 1)],
            }
            for land, polygon in polygons.items()
        },
        "touching": {
            f"{a}|{b}": [[round(x, 1), round(y, 1)] for x, y in segment]
            for (a, b), segment in sorted(touching.items())
        },
        "impassable": impassable,
        "missing_borders": [list(pair) for pair in missing],
        "offmap": boxes,
        "gates": gates(data, polygons, boxes),
    }


def main() -> int:
    geometry = build_geometry(json.loads(MAP.read_text(encoding="utf-8")))
    for first, second in geometry["missing_borders"]:
        print(f"warning: the data border {first}-{second} is not drawn as touching cells", file=sys.stderr)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(geometry, separators=(",", ":")) + "\n", encoding="utf-8")
    print(
        f"{OUT.relative_to(ROOT)}: {len(geometry['lands'])} lands, {len(geometry['touching'])} touching pairs, "
        f"{len(geometry['impassable'])} impassable, {len(geometry['missing_borders'])} missing borders"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
