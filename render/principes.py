"""PRINCIPES board: the 44 lands with their gords, buildings and units, the off-map areas, and a side panel.

The map geometry comes from ``render/assets/principes/map_geometry.json`` (built by
``scripts/make_principes_map.py``). Everything that never changes during a game (land fills, borders, names,
special marks, the off-map frames, the legend) is drawn once per frame into a cached base image, mapped to the
fixed palette; a render copies it and adds only the dynamic layer, drawn straight into the palette: each land's
pieces pasted from a patch drawn once per thing the land shows, each side-panel section from its drawing for the
same inputs, and the whole map layer reused when a recent board showed the same map (docs/notes/performance.md;
tests check every shortcut against drawing everything). ``render_region`` draws one principality and its
neighbours larger, for phones.

Colour is never the only cue: units are figures whose shape gives the type (crown = Prince, shield = Knight,
disc = Footman, diamond = Princess) and whose code gives the faction (a principality's is the notation's: PMA,
MAS, PMI, SIL; the other factions' two letters); the legend lists both. A land's figures go in rows under its
gords, moved where they cover no land's name (``_units_place``).
"""

from __future__ import annotations

import json
import math
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from i18n import DEFAULT, language_of
from rules.principes.data import PRINCIPALITIES, Catalog, catalog
from rules.principes.play.history import ICON_TITLES

from . import RenderError
from .common import (
    COLOURS,
    MIN_TEXT_PX,
    NONZERO,
    PaletteDraw,
    fit_text,
    font,
    palette_canvas,
    palette_indices,
    seat_label,
    text_colour_on,
    text_patch,
    to_palette,
)
from .common import image_words as _t
from .memo import Memo
from .principes_text import (
    DECK_TAGS,
    DIRECTIONS,
    action_name,
    card_icon,
    icon_title,
    roman,
    short_title,
    title_in,
)
from .principes_text import alt_text as alt_text  # the image's description, registered with it
from .principes_text import player_label as player_label
from .principes_text import read_move_line as read_move_line  # the digest's net effect of moves
from .principes_text import view_changes as view_changes

GEOMETRY_FILE = Path(__file__).parent / "assets" / "principes" / "map_geometry.json"
PANEL_WIDTH = 520
HEIGHT = 1200
#: every text size this renderer uses (a test checks them against MIN_TEXT_PX)
TEXT_SIZES = {"small": 16, "body": 18, "heading": 20, "title": 24}

Colour = tuple[int, int, int]
Point = tuple[float, float]


def _blend(first: str, second: str) -> Colour:
    """The half-way mix of two named colours: the shared palette holds these blends (lossless encoding)."""
    a, b = COLOURS[first], COLOURS[second]
    return (a[0] + b[0]) // 2, (a[1] + b[1]) // 2, (a[2] + b[2]) // 2


INK = COLOURS["ink"]
LAND_FILLS: dict[str, Colour] = {
    "PMA": _blend("maroon", "white"),
    "MAS": (240, 240, 240),
    "PMI": _blend("red", "white"),
    "SIL": _blend("yellow", "white"),
    "CEN": _blend("plains", "white"),
    "WPOM": _blend("cyan", "white"),
    "EPOM": _blend("blue", "white"),
}
SEA = _blend("water", "white")
TRACK_NAMES = (("might", "Might"), ("people", "People"), ("clergy", "Clergy"))
TILE_COLOURS: dict[str, str | Colour] = {
    "green": "green",
    "yellow": "yellow",
    "rose": _blend("red", "white"),
    "blue": "blue",
    "brown": "brown",
    "gray": "grey",
}
UNIT_ORDER = ("prince", "knight", "footman", "princess")
UNIT_NAMES = {"prince": "Prince", "knight": "Knight", "footman": "Footman", "princess": "Princess"}


@dataclass(frozen=True)
class Frame:
    """Where the map goes: map point p -> (left + (p.x - x0) * scale, top + (p.y - y0) * scale)."""

    key: str  # names the frame ("full", "region-SIL") so that equal frames share one cached base
    scale: float
    x0: float
    y0: float
    width: int
    height: int
    left: int = 0
    top: int = 0

    def at(self, point: Point) -> Point:
        return self.left + (point[0] - self.x0) * self.scale, self.top + (point[1] - self.y0) * self.scale

    def px(self, length: float) -> int:
        return max(1, round(length * self.scale))

    def text(self, role: str) -> int:
        return max(MIN_TEXT_PX, round(TEXT_SIZES[role] * self.scale))


@cache
def geometry() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(GEOMETRY_FILE.read_text(encoding="utf-8"))
    return loaded


def _colour(name_or_rgb: str | Colour) -> Colour:
    return COLOURS[name_or_rgb] if isinstance(name_or_rgb, str) else name_or_rgb


def _faction_colour(faction: str) -> Colour:
    return COLOURS[catalog().factions[faction]["colour"]]


def _group(data: Catalog, land: str) -> str:
    return str(data.lands[land]["principality"])


# ---- text -------------------------------------------------------------------------------------------------

#: letters Pillow's bundled font lacks and that do not decompose into a base letter and an accent
_PLAIN = str.maketrans({"ł": "l", "Ł": "L", "—": "-", "–": "-", "’": "'", "×": "x"})


@cache
def plain(text: str) -> str:
    """ASCII spelling of names such as Władysław or Goźlice: the bundled font has no Polish letters."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_PLAIN))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _language(view: dict[str, Any]) -> str:
    return language_of(view.get("locale"))


@lru_cache(maxsize=8192)
def _stamp(text: str, size: int, anchor: str, halo: bool) -> tuple[Image.Image, Image.Image | None, int, int]:
    """A text rendered once as masks (the glyphs, and the glyphs with their halo) and its offset from the anchor.

    FreeType rendering is most of a board's drawing time; the same labels recur on every image, so each is
    rasterised once and then only stamped with ``ImageDraw.bitmap``.
    """
    typeface = font(size)
    stroke = 2 if halo else 0
    left, top, right, bottom = (round(v) for v in typeface.getbbox(text, anchor=anchor, stroke_width=stroke))
    size_px = (max(1, right - left), max(1, bottom - top))
    glyphs = Image.new("L", size_px, 0)
    ImageDraw.Draw(glyphs).text((-left, -top), text, font=typeface, fill=255, anchor=anchor)
    outline = None
    if halo:
        outline = Image.new("L", size_px, 0)
        ImageDraw.Draw(outline).text(
            (-left, -top), text, font=typeface, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
        )
    return glyphs, outline, left, top


def _text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    size: int,
    fill: Colour = INK,
    anchor: str = "la",
    halo: Colour | None = None,
    exact: bool = False,
) -> None:
    """``text`` drawn; English spelt plain (``plain``), other languages ``exact``: their letters come from the
    fallback font (``render.common._TextFont``)."""
    if not exact:
        text = plain(text)
    glyphs, outline, left, top = _stamp(text, size, anchor, halo is not None)
    position = (round(xy[0]) + left, round(xy[1]) + top)
    if isinstance(draw, PaletteDraw):
        box = (position[0], position[1], position[0] + glyphs.width - 1, position[1] + glyphs.height - 1)
        backdrop = halo if halo is not None else draw.backdrop(box)
        patch, mask = _palette_stamp(text, size, anchor, fill, backdrop, halo is not None)
        draw.stamp(position, patch, mask)
        return
    if outline is not None:
        draw.bitmap(position, outline, fill=halo)
    draw.bitmap(position, glyphs, fill=fill)


@lru_cache(maxsize=8192)
def _palette_stamp(
    text: str, size: int, anchor: str, fill: Colour, backdrop: Colour, halo: bool
) -> tuple[Image.Image, Image.Image]:
    """A text blended once onto the colour it sits on (its halo's, or the board's under it), for palette
    drawing; the same labels recur on every board, so each is mapped to the palette once."""
    glyphs, outline, _, _ = _stamp(text, size, anchor, halo)
    return text_patch(glyphs, fill, backdrop, outline)


@lru_cache(maxsize=4096)
def _text_width(text: str, size: int, exact: bool = False) -> float:
    return float(font(size).getlength(text if exact else plain(text)))


def _shape(draw: ImageDraw.ImageDraw, points: list[Point], fill: Colour, outline: Colour = INK) -> None:
    """A filled polygon with a 2 px outline. Pillow's own ``width`` > 1 allocates a full-image mask per call."""
    draw.polygon(points, fill=fill)
    draw.line([*points, points[0]], fill=outline, width=2)


# ---- figures ------------------------------------------------------------------------------------------------


def faction_code(faction: str) -> str:
    """The code figures, the legend and the panel write: a principality's is the notation's (PMA, MAS, PMI,
    SIL, as `/move` text and stored games write it), every other faction's its two letters (GM, BO, ...)."""
    return faction if faction in PRINCIPALITIES else str(catalog().factions[faction]["code"])


def _figure_half_width(faction: str) -> float:
    """Half a figure's width at scale 1: room for its code (three letters for a principality)."""
    return 16.0 if len(faction_code(faction)) <= 2 else 21.0


def _figure(draw: ImageDraw.ImageDraw, centre: Point, unit: str, faction: str, scale: float) -> None:
    """One unit figure: its shape says the type, its fill and code the faction."""
    x, y = centre
    w, h = _figure_half_width(faction) * scale, 14 * scale
    fill = _faction_colour(faction)
    outline = INK
    if unit == "prince":
        points = [
            (x - w, y + h),
            (x - w, y - h * 0.55),
            (x - w * 0.5, y - h * 0.05),
            (x, y - h * 1.15),
            (x + w * 0.5, y - h * 0.05),
            (x + w, y - h * 0.55),
            (x + w, y + h),
        ]
        _shape(draw, points, fill, outline)
        draw.line(
            (x - w, y + h - 2, x + w, y + h - 2), fill=COLOURS["highlight"], width=max(2, round(3 * scale))
        )
    elif unit == "knight":
        _shape(
            draw,
            [(x - w, y - h), (x + w, y - h), (x + w, y + h * 0.25), (x, y + h * 1.1), (x - w, y + h * 0.25)],
            fill,
            outline,
        )
    elif unit == "princess":
        _shape(draw, [(x, y - h * 1.2), (x + w * 1.1, y), (x, y + h * 1.2), (x - w * 1.1, y)], fill, outline)
    else:
        draw.ellipse((x - w * 0.95, y - h, x + w * 0.95, y + h), fill=fill, outline=outline, width=2)
    label_y = y - h * 0.15 if unit == "knight" else y + (h * 0.2 if unit == "prince" else 0)
    size = max(MIN_TEXT_PX, round(15 * scale))
    _text(draw, (x, label_y), faction_code(faction), size, text_colour_on(fill), "mm")


def _units_entries(units: dict[str, dict[str, int]]) -> list[tuple[str, str, int]]:
    entries = []
    for faction, pieces in units.items():
        for unit in UNIT_ORDER:
            if pieces.get(unit):
                entries.append((faction, unit, pieces[unit]))
    return entries


def _entry_widths(entries: list[tuple[str, str, int]], frame: Frame) -> list[float]:
    """Each figure's width with its count (written after it when more than one) on a frame."""
    size = frame.text("small")
    return [
        frame.px(2 * _figure_half_width(faction) + 4)
        + (_text_width(str(count), size) + frame.px(3) if count > 1 else 0)
        for faction, _, count in entries
    ]


def _rows(widths: Sequence[float], max_width: float) -> tuple[tuple[int, ...], ...]:
    """The entries' indices wrapped into rows no wider than ``max_width`` (a wider entry gets a row alone)."""
    rows: list[list[int]] = [[]]
    row_width = 0.0
    for index, width in enumerate(widths):
        if rows[-1] and row_width + width > max_width:
            rows.append([])
            row_width = 0.0
        rows[-1].append(index)
        row_width += width
    return tuple(tuple(row) for row in rows)


def _draw_entry(draw: ImageDraw.ImageDraw, left: Point, entry: tuple[str, str, int], frame: Frame) -> None:
    """One figure with its count after it (when more than one), from ``left``, the left end of its middle."""
    faction, unit, count = entry
    half = frame.px(_figure_half_width(faction))
    _figure(draw, (left[0] + frame.px(2) + half, left[1]), unit, faction, frame.scale)
    if count > 1:
        size = frame.text("small")
        _text(
            draw,
            (left[0] + frame.px(4) + 2 * half, left[1]),
            str(count),
            size,
            INK,
            "lm",
            halo=COLOURS["white"],
        )


def _draw_rows(
    draw: ImageDraw.ImageDraw,
    first_row: Point,
    entries: list[tuple[str, str, int]],
    rows: tuple[tuple[int, ...], ...],
    frame: Frame,
) -> None:
    """Figures with their counts, each row centred under ``first_row`` (the middle of the first row)."""
    widths = _entry_widths(entries, frame)
    y = first_row[1]
    for row in rows:
        x = first_row[0] - sum(widths[i] for i in row) / 2
        for index in row:
            _draw_entry(draw, (x, y), entries[index], frame)
            x += widths[index]
        y += frame.px(ROW_STEP)


def _draw_units(
    draw: ImageDraw.ImageDraw, centre: Point, units: dict[str, dict[str, int]], frame: Frame, max_width: float
) -> None:
    """Figures with their counts, centred on ``centre`` and wrapped into rows no wider than ``max_width``."""
    entries = _units_entries(units)
    if entries:
        _draw_rows(draw, centre, entries, _rows(_entry_widths(entries, frame), max_width), frame)


# ---- where a land's units go -----------------------------------------------------------------------------------
#: map units (the full board's pixels): a row of figures' step, a figure's reach above and below its middle,
#: and where the first row's middle lies below the land's centre by default
ROW_STEP = 32
FIGURE_REACH = 17
UNITS_BELOW = 33
Box = tuple[float, float, float, float]


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _crossings(polygon: Sequence[Sequence[float]], y: float) -> list[float]:
    """Where the horizontal line at ``y`` crosses the polygon's edges, in order (a point lies inside when an
    odd number of them lie to its right)."""
    found = []
    for index, (x1, y1) in enumerate(polygon):
        x0, y0 = polygon[index - 1]
        if (y0 > y) != (y1 > y):
            found.append(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
    return sorted(found)


def _icon_box(centre: Point, items: int, capital: bool) -> Box:
    """The box a land's icon row takes (map units): ``items`` icons 34 apart, each within 18 of its middle
    above (a City's battlements) and 14 below (18 with a capital's ring)."""
    half = 17 * (items - 1) + 18
    below = 18 if capital else 14
    return centre[0] - half, centre[1] + 2 - 18, centre[0] + half, centre[1] + 2 + below


def _icon_count(land: str, land_view: dict[str, Any] | None) -> int:
    record = catalog().lands[land]
    count = len(record["gords"]) + sum(mark in DRAWN_MARKS for mark in record["marks"])
    if land_view is not None:
        count += bool(land_view.get("building")) + bool(land_view.get("division"))
    return max(1, count)


@cache
def _static_obstacles() -> tuple[tuple[str, str, Box], ...]:
    """What figures must leave visible (map units): every land's name, off-map tags and icon row (gords and
    marks), each with its land and kind."""
    frame, geo = _full_frame(), geometry()
    found: list[tuple[str, str, Box]] = []
    for land, record in catalog().lands.items():
        found.append((land, "name", label_box(frame, land)))
        centre = tuple(geo["lands"][land]["centre"])
        icons = _icon_box(centre, _icon_count(land, None), bool(record["capital"]))  # type: ignore[arg-type]
        found.append((land, "icons", icons))
    for gates in geo["gates"].values():
        for land, (x, y) in gates.items():
            found.append((land, "tag", (x - 16, y - 11, x + 16, y + 11)))
    return tuple(found)


#: widths a land's rows may wrap at, the default first, and how far a whole group may move (map units:
#: sideways, and from just under the icon row downwards, in steps of ``SHIFT_STEP``)
BLOCK_WRAPS = (112, 168, 84, 56)
SHIFT_STEP = 4
#: how far a rectangle of overlapping shifts is narrowed or widened against rounding (map units)
SHIFT_MARGIN = 1e-6
_SHIFTS_X = range(-60, 61, SHIFT_STEP)
_SHIFTS_Y = range(-8, 49, SHIFT_STEP)
_BLOCK_SHIFTS = sorted(
    ((dx, dy) for dx in _SHIFTS_X for dy in _SHIFTS_Y),
    key=lambda offset: abs(offset[0]) + abs(offset[1]) * 1.2,
)


class _Room:
    """A land's outline and what figures must leave visible around it (map units)."""

    def __init__(self, land: str, icons: int) -> None:
        record = geometry()["lands"][land]
        self.polygon = record["polygon"]
        self.centre: Point = (record["centre"][0], record["centre"][1])
        own_icons = _icon_box(self.centre, icons, bool(catalog().lands[land]["capital"]))
        near = [
            (kind, box)
            for other, kind, box in _static_obstacles()
            if not (other == land and kind == "icons")
            and abs((box[0] + box[2]) / 2 - self.centre[0]) < 200
            and abs((box[1] + box[3]) / 2 - self.centre[1]) < 170
        ]
        near.append(("own icons", own_icons))
        self.everything = [box for _, box in near]
        self.names_tags = [box for kind, box in near if kind in ("name", "tag", "own icons")]
        self.names = [box for kind, box in near if kind in ("name", "own icons")]
        self.own = [own_icons]
        #: each line's crossings, found once: the placement asks about thousands of points on a few lines
        self._crossings: dict[float, list[float]] = {}

    def inside(self, point: Point) -> bool:
        x, y = point
        crossings = self._crossings.get(y)
        if crossings is None:
            crossings = self._crossings[y] = _crossings(self.polygon, y)
        return (len(crossings) - bisect_right(crossings, x)) % 2 == 1

    def corners_inside(self, box: Box) -> bool:
        corners = ((box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3]))
        return all(self.inside(point) for point in corners)

    def middle_inside(self, box: Box) -> bool:
        return self.inside(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2))


def _clear(boxes: Sequence[Box], obstacles: Sequence[Box]) -> bool:
    return not any(_overlap(box, other) for box in boxes for other in obstacles)


def _shift_index(value: float, shifts: range, above: bool) -> int:
    """The index of the first shift above ``value`` (``above``), else of the last one below it, unclipped."""
    position = (value - shifts.start) / shifts.step
    return math.floor(position) + 1 if above else math.ceil(position) - 1


def _overlapping_shifts(
    layout: Sequence[Box], obstacles: Sequence[Box], origin: Point, margin: float
) -> list[int]:
    """Which shifts put a box of ``layout`` (placed at ``origin`` + shift) over an obstacle: one bit mask over
    ``_SHIFTS_X`` for each of ``_SHIFTS_Y``. A box overlaps an obstacle for the shifts inside an open
    rectangle, so each pair marks a rectangle of the grid at once, instead of each shift testing every pair
    (the placement of a crowded land took up to 100 ms that way). The rectangle is narrowed by ``margin``
    (widened when negative), so that rounding cannot mark a clear shift (leave a blocked one unmarked)."""
    rows = [0] * len(_SHIFTS_Y)
    last_x, last_y = len(_SHIFTS_X) - 1, len(_SHIFTS_Y) - 1
    for box in layout:
        for other in obstacles:
            low_x = max(_shift_index(other[0] - box[2] - origin[0] + margin, _SHIFTS_X, above=True), 0)
            high_x = min(_shift_index(other[2] - box[0] - origin[0] - margin, _SHIFTS_X, above=False), last_x)
            low_y = max(_shift_index(other[1] - box[3] - origin[1] + margin, _SHIFTS_Y, above=True), 0)
            high_y = min(_shift_index(other[3] - box[1] - origin[1] - margin, _SHIFTS_Y, above=False), last_y)
            if low_x > high_x or low_y > high_y:
                continue
            mask = ((1 << (high_x - low_x + 1)) - 1) << low_x
            for row in range(low_y, high_y + 1):
                rows[row] |= mask
    return rows


def _block_layouts(widths: Sequence[float]) -> list[list[Box]]:
    """Each way of wrapping the figures into centred rows, as the figures' boxes around the first row's
    middle, widest rows first (different wraps that give the same rows are tried once)."""
    layouts: list[list[Box]] = []
    for wrap in BLOCK_WRAPS:
        boxes: list[Box] = [(0.0, 0.0, 0.0, 0.0)] * len(widths)
        for number, row in enumerate(_rows(widths, wrap)):
            left = -sum(widths[i] for i in row) / 2
            for index in row:
                y = number * ROW_STEP
                boxes[index] = (left, y - FIGURE_REACH, left + widths[index], y + FIGURE_REACH)
                left += widths[index]
        if boxes not in layouts:
            layouts.append(boxes)
    return layouts


def _place_block(room: _Room, widths: Sequence[float]) -> list[Box] | None:
    """The figures as one group of rows under the icon row, moved a little from the default (never above the
    gords, so that players find a land's figures where they expect them): the nearest spot where every figure
    lies inside the land and off every name, tag and icon row; else where every figure's middle does; else
    where every figure's middle does and none covers a name, tag or the land's own gords (other lands' gords
    may be); else where the group's middle does; else covering an off-map tag. None when no spot within reach
    qualifies."""
    cx, cy = room.centre
    layouts = _block_layouts(widths)

    def whole_inside(boxes: list[Box]) -> bool:
        return all(room.corners_inside(box) for box in boxes)

    def middles_inside(boxes: list[Box]) -> bool:
        return all(room.middle_inside(box) for box in boxes)

    def group_inside(boxes: list[Box]) -> bool:
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
        return room.inside(((left + right) / 2, (top + bottom) / 2))

    rules: tuple[tuple[Callable[[list[Box]], bool], list[Box]], ...] = (
        (whole_inside, room.everything),
        (middles_inside, room.everything),
        (middles_inside, room.names_tags),
        (group_inside, room.names_tags),
        (group_inside, room.names),
    )
    origin = (cx, cy + UNITS_BELOW)
    grids: dict[int, tuple[list[list[int]], list[list[int]]]] = {}  # by obstacle list: rules share them
    for fits, obstacles in rules:
        # a shift the narrowed rectangles mark is blocked, one the widened ones leave is clear; only the few
        # in between (within rounding of an edge) are tested box by box
        if id(obstacles) not in grids:
            grids[id(obstacles)] = (
                [_overlapping_shifts(layout, obstacles, origin, SHIFT_MARGIN) for layout in layouts],
                [_overlapping_shifts(layout, obstacles, origin, -SHIFT_MARGIN) for layout in layouts],
            )
        surely, maybe = grids[id(obstacles)]
        for dx, dy in _BLOCK_SHIFTS:
            x, y = origin[0] + dx, origin[1] + dy
            column, row = (dx - _SHIFTS_X.start) // SHIFT_STEP, (dy - _SHIFTS_Y.start) // SHIFT_STEP
            for index, layout in enumerate(layouts):
                if surely[index][row] >> column & 1:
                    continue
                moved = [(b[0] + x, b[1] + y, b[2] + x, b[3] + y) for b in layout]
                if maybe[index][row] >> column & 1 and not _clear(moved, obstacles):
                    continue
                if fits(moved):
                    return moved
    return None


@lru_cache(maxsize=4096)
def _units_place(land: str, widths: tuple[float, ...], icons: int) -> tuple[Point, ...]:
    """Where each of a land's figures goes (map units: the left end of its middle line), a pure function of
    the land and what it shows: the group of rows near the default where it keeps clear of the names
    (``_place_block``), else the default, centred rows right under the icon row. Small lands in the dense
    middle of the map cannot hold three or four figures without covering a name; moved elsewhere, they would
    no longer show which land holds them."""
    room = _Room(land, icons)
    boxes = _place_block(room, widths)
    if boxes is None:
        x, y = room.centre[0], room.centre[1] + UNITS_BELOW
        boxes = [(b[0] + x, b[1] + y, b[2] + x, b[3] + y) for b in _block_layouts(widths)[0]]
    return tuple((box[0], box[1] + FIGURE_REACH) for box in boxes)


def _draw_land_units(draw: ImageDraw.ImageDraw, land: str, land_view: dict[str, Any], frame: Frame) -> None:
    """A land's figures where ``_units_place`` puts them (found on the full board, scaled to the frame)."""
    entries = _units_entries(land_view["units"])
    if not entries:
        return
    spots = _units_place(land, tuple(_entry_widths(entries, _full_frame())), _icon_count(land, land_view))
    for entry, spot in zip(entries, spots, strict=True):
        _draw_entry(draw, frame.at(spot), entry, frame)


# ---- gords, buildings, tokens -------------------------------------------------------------------------------


def _gord_icon(
    draw: ImageDraw.ImageDraw, centre: Point, base_might: int, city: str | None, capital: bool, scale: float
) -> None:
    """A gord is a round palisade, a City a square tower; the number is the Might it gives now."""
    x, y = centre
    r = 13 * scale
    might = base_might + (1 if city else 0)
    if city:
        draw.rectangle((x - r, y - r, x + r, y + r), fill=INK, outline=COLOURS["white"], width=2)
        for dx in (-r * 0.66, 0, r * 0.66):  # battlements
            draw.rectangle((x + dx - r * 0.2, y - r - 5 * scale, x + dx + r * 0.2, y - r), fill=INK)
        fill_text = COLOURS["white"]
    else:
        fill = COLOURS["brown"] if base_might else COLOURS["sand"]
        draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=INK, width=2)
        fill_text = COLOURS["white"] if base_might else INK
    if capital:
        draw.ellipse(
            (x - r - 4 * scale, y - r - 4 * scale, x + r + 4 * scale, y + r + 4 * scale),
            outline=COLOURS["highlight"],
            width=max(3, round(3 * scale)),
        )
    _text(draw, (x, y), str(might), max(MIN_TEXT_PX, round(17 * scale)), fill_text, "mm")


def _badge(
    draw: ImageDraw.ImageDraw, centre: Point, letter: str, fill: Colour, scale: float, diamond: bool = False
) -> None:
    x, y = centre
    r = 12 * scale
    if diamond:
        _shape(draw, [(x, y - r * 1.2), (x + r * 1.2, y), (x, y + r * 1.2), (x - r * 1.2, y)], fill)
    else:
        draw.rounded_rectangle(
            (x - r, y - r, x + r, y + r), radius=4 * scale, fill=fill, outline=INK, width=2
        )
    _text(draw, (x, y), letter, max(MIN_TEXT_PX, round(16 * scale)), text_colour_on(fill), "mm")


BUILDINGS = {
    "castle": ("C", COLOURS["grey"]),
    "tiltyard": ("T", COLOURS["orange"]),
    "abbey": ("A", COLOURS["purple"]),
}


def _icon_row(
    draw: ImageDraw.ImageDraw, land: str, land_view: dict[str, Any], centre: Point, frame: Frame
) -> None:
    """Gord(s) with their Might, then the building and the Division token, centred on ``centre``."""
    record = catalog().lands[land]
    items: list[tuple[str, Any]] = [("gord", gord) for gord in record["gords"]]
    items += [("mark", mark) for mark in record["marks"] if mark in DRAWN_MARKS]
    if land_view.get("building"):
        items.append(("building", land_view["building"]))
    if land_view.get("division"):
        items.append(("division", None))
    step = frame.px(34)
    x = centre[0] - step * (len(items) - 1) / 2
    for kind, item in items:
        if kind == "gord":
            _gord_icon(
                draw,
                (x, centre[1]),
                item["might"],
                land_view["cities"].get(item["id"]),
                record["capital"],
                frame.scale,
            )
        elif kind == "mark":
            _mark(draw, (x, centre[1]), item, frame.scale)
        elif kind == "building":
            letter, fill = BUILDINGS[item]
            _badge(draw, (x, centre[1]), letter, fill, frame.scale)
        else:
            _badge(draw, (x, centre[1]), "D", COLOURS["orange"], frame.scale, diamond=True)
        x += step


DRAWN_MARKS = ("archbishopric", "clergy_point", "senior_throne", "teutonic")


def _mark(draw: ImageDraw.ImageDraw, centre: Point, mark: str, scale: float) -> None:
    """Static land marks: archbishopric and Clergy point (cross), senior throne (crown), Teutonic shield."""
    x, y = centre
    s = scale
    if mark in ("archbishopric", "clergy_point"):
        colour = COLOURS["purple"]
        draw.rectangle((x - 2.5 * s, y - 11 * s, x + 2.5 * s, y + 11 * s), fill=colour)
        draw.rectangle((x - 8 * s, y - 5 * s, x + 8 * s, y - 1 * s), fill=colour)
        if mark == "clergy_point":
            _text(
                draw,
                (x + 4 * s, y + 9 * s),
                "+1",
                max(MIN_TEXT_PX, round(16 * s)),
                colour,
                "lm",
                halo=COLOURS["white"],
            )
    elif mark == "senior_throne":
        gold = COLOURS["highlight"]
        draw.polygon(
            [
                (x - 11 * s, y + 7 * s),
                (x - 11 * s, y - 6 * s),
                (x - 5 * s, y),
                (x, y - 10 * s),
                (x + 5 * s, y),
                (x + 11 * s, y - 6 * s),
                (x + 11 * s, y + 7 * s),
            ],
            fill=gold,
            outline=INK,
        )
    elif mark == "teutonic":
        _shape(
            draw,
            [
                (x - 10 * s, y - 11 * s),
                (x + 10 * s, y - 11 * s),
                (x + 10 * s, y + 2 * s),
                (x, y + 12 * s),
                (x - 10 * s, y + 2 * s),
            ],
            COLOURS["white"],
        )
        draw.rectangle((x - 1.5 * s, y - 8 * s, x + 1.5 * s, y + 7 * s), fill=INK)
        draw.rectangle((x - 7 * s, y - 3 * s, x + 7 * s, y), fill=INK)


# ---- the static base -----------------------------------------------------------------------------------------


def _polygon(frame: Frame, land: str) -> list[Point]:
    return [frame.at((p[0], p[1])) for p in geometry()["lands"][land]["polygon"]]


def _inset_edge(start: Point, end: Point, centre: Point, distance: float) -> tuple[Point, Point]:
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max(1e-6, (dx * dx + dy * dy) ** 0.5)
    nx, ny = -dy / length, dx / length
    mx, my = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
    if (centre[0] - mx) * nx + (centre[1] - my) * ny < 0:
        nx, ny = -nx, -ny
    return (start[0] + nx * distance, start[1] + ny * distance), (
        end[0] + nx * distance,
        end[1] + ny * distance,
    )


def _draw_lands(draw: ImageDraw.ImageDraw, frame: Frame) -> None:
    data, geo = catalog(), geometry()
    impassable = set(geo["impassable"])
    for land in data.lands:
        draw.polygon(_polygon(frame, land), fill=LAND_FILLS[_group(data, land)])
    for land in data.lands:  # thin inner borders first, so the thick ones cover their ends
        polygon = _polygon(frame, land)
        for index, neighbour in enumerate(geo["lands"][land]["across"]):
            if neighbour and _group(data, neighbour) == _group(data, land) and neighbour > land:
                draw.line((polygon[index - 1], polygon[index]), fill=COLOURS["muted"], width=frame.px(2))
    for land in data.lands:
        _draw_group_borders(draw, frame, land)
    for pair in impassable:  # cells that touch without a border: a hatched barrier
        start, end = (frame.at((p[0], p[1])) for p in geo["touching"][pair])
        _hatched(draw, start, end, frame)


def _draw_group_borders(draw: ImageDraw.ImageDraw, frame: Frame, land: str) -> None:
    """Thick inset lines in the principality colour along its outer edges (ink-edged so white shows)."""
    data, geo = catalog(), geometry()
    group = _group(data, land)
    colour = COLOURS[data.map["principalities"][group]["colour"]] if group in PRINCIPALITIES else INK
    polygon = _polygon(frame, land)
    centre = frame.at(tuple(geo["lands"][land]["centre"]))  # type: ignore[arg-type]
    width = frame.px(6) if group in PRINCIPALITIES else frame.px(3)
    for index, neighbour in enumerate(geo["lands"][land]["across"]):
        if neighbour and _group(data, neighbour) == group:
            continue
        start, end = polygon[index - 1], polygon[index]
        a, b = _inset_edge(start, end, centre, width / 2 + frame.px(1))
        draw.line((start, end), fill=INK, width=frame.px(2))
        if group in PRINCIPALITIES:
            draw.line((a, b), fill=INK, width=width + 2)
            draw.line((a, b), fill=colour, width=width - 1)
            for point in (a, b):
                r = (width - 1) / 2
                draw.ellipse((point[0] - r, point[1] - r, point[0] + r, point[1] + r), fill=colour)


def _hatched(draw: ImageDraw.ImageDraw, start: Point, end: Point, frame: Frame) -> None:
    draw.line((start, end), fill=COLOURS["forest"], width=frame.px(5))
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    nx, ny = -dy / length * frame.px(7), dx / length * frame.px(7)
    steps = max(2, int(length / frame.px(8)))
    for k in range(1, steps):
        x, y = start[0] + dx * k / steps, start[1] + dy * k / steps
        draw.line((x - nx, y - ny, x + nx, y + ny), fill=COLOURS["forest"], width=frame.px(2))


def _label_anchor(frame: Frame, land: str) -> Point:
    cx, cy = frame.at(tuple(geometry()["lands"][land]["centre"]))  # type: ignore[arg-type]
    return cx, cy - frame.px(27)


def label_box(frame: Frame, land: str) -> tuple[float, float, float, float]:
    """The box a land's name takes on a frame, its halo included."""
    x, y = _label_anchor(frame, land)
    text = plain(catalog().lands[land]["short"])
    left, top, right, bottom = font(frame.text("small")).getbbox(text, anchor="mm", stroke_width=2)
    return x + left, y + top, x + right, y + bottom


#: lands' short names that are English abbreviations (the others are Latin, the same in every language); each
#: reader's language writes them no wider, so that figures keep clear of them (``label_box``)
ENGLISH_SHORT_NAMES = ("W. Pomerania", "E. Pomerania")


def _draw_names(draw: ImageDraw.ImageDraw, frame: Frame, language: str = DEFAULT) -> None:
    data = catalog()
    for land, record in data.lands.items():
        short = record["short"]
        translated = short in ENGLISH_SHORT_NAMES and language != DEFAULT
        _text(
            draw,
            _label_anchor(frame, land),
            _t(language, short) if translated else short,
            frame.text("small"),
            INK,
            "mm",
            halo=LAND_FILLS[_group(data, land)],
            exact=translated,
        )


def _draw_offmap_frames(draw: ImageDraw.ImageDraw, frame: Frame, language: str = DEFAULT) -> None:
    data, geo = catalog(), geometry()
    for area, box in geo["offmap"].items():
        x0, y0 = frame.at((box[0], box[1]))
        x1, y1 = frame.at((box[2], box[3]))
        colour = _faction_colour(data.offmap[area]["faction"])
        draw.rounded_rectangle(
            (x0, y0, x1, y1), radius=frame.px(8), fill=COLOURS["panel"], outline=colour, width=frame.px(4)
        )
        _text(
            draw,
            ((x0 + x1) / 2, y0 + frame.px(14)),
            _t(language, _area_title(data.offmap[area]["name"])),
            frame.text("small"),
            INK,
            "mm",
            exact=language != DEFAULT,
        )


def _draw_gates(draw: ImageDraw.ImageDraw, frame: Frame) -> None:
    """On each land an off-map area touches, a tag with the area's code at the cell's side facing the area."""
    data, geo = catalog(), geometry()
    for area in geo["offmap"]:
        faction = data.offmap[area]["faction"]
        fill = _faction_colour(faction)
        for point in geo["gates"][area].values():
            x, y = frame.at((point[0], point[1]))
            w, h = frame.px(15), frame.px(10)
            draw.rounded_rectangle((x - w, y - h, x + w, y + h), radius=frame.px(4), fill=fill, outline=INK)
            _text(
                draw, (x, y), data.factions[faction]["code"], frame.text("small"), text_colour_on(fill), "mm"
            )


def _area_title(name: str) -> str:
    return name.replace("Kingdom of ", "")


def _draw_sea(draw: ImageDraw.ImageDraw, frame: Frame) -> None:
    points = [(0, 0), (760, 0), (720, 120), (520, 150), (300, 110), (0, 150)]
    draw.polygon([frame.at(p) for p in points], fill=SEA)
    _text(draw, frame.at((120, 40)), "Mare Balticum", frame.text("body"), COLOURS["blue"], "mm")


@cache
def _base(frame: Frame, with_legend: bool, language: str = DEFAULT) -> Image.Image:
    """The static layer of a frame: sea, lands, borders, names, marks, off-map frames (and the legend), with
    its words in ``language`` (the lands' Latin names stay)."""
    width = frame.width + (PANEL_WIDTH if with_legend else 0)
    image = Image.new("RGB", (width, frame.height), COLOURS["background"])
    draw = ImageDraw.Draw(image)
    _draw_sea(draw, frame)
    _draw_lands(draw, frame)
    _draw_names(draw, frame, language)
    _draw_offmap_frames(draw, frame, language)
    _draw_gates(draw, frame)
    if with_legend:
        draw.rectangle((frame.width, 0, width, frame.height), fill=COLOURS["panel"])
        draw.line((frame.width, 0, frame.width, frame.height), fill=COLOURS["grid"], width=3)
        _draw_legend(draw, 4, frame.height - LEGEND_HEIGHT, language)
    return image


@cache
def _palette_base(frame: Frame, with_legend: bool, language: str = DEFAULT) -> Image.Image:
    """The static layer mapped to the fixed palette once: each board is drawn straight into a copy of it."""
    return to_palette(_base(frame, with_legend, language))


LEGEND_HEIGHT = 80


def _draw_legend(draw: ImageDraw.ImageDraw, x: int, y: int, language: str = DEFAULT) -> None:
    """Unit shapes and faction codes, in a strip under the map. Each item after the figures stands at its
    place, or further right when the word before it is longer (another language's)."""
    size, exact = TEXT_SIZES["small"], language != DEFAULT
    cursor = x
    half = _figure_half_width("MAS")
    for unit in UNIT_ORDER:
        name = _t(language, UNIT_NAMES[unit])
        _figure(draw, (cursor + half, y + 10), unit, "MAS", 1.0)
        _text(draw, (cursor + 2 * half + 4, y + 10), name, size, anchor="lm", exact=exact)
        cursor += round(2 * half + 12 + _text_width(name, size, exact)) + 10
    end: float = cursor

    def word(at: float, text: str) -> float:
        """The item's word from ``at``; where the next item may start (``end``)."""
        nonlocal end
        text, fitted = _fit(_t(language, text), _full_frame().width - 4 - at, size, exact)
        _text(draw, (at, y + 10), text, fitted, anchor="lm", exact=exact)
        end = at + _text_width(text, fitted, exact) + 6
        return end

    def spot(place: float) -> float:
        """An item's shift right of its place, when the word before reaches it."""
        return max(0.0, end - place)

    _mark(draw, (cursor + 10, y + 10), "archbishopric", 1.0)
    word(cursor + 24, "Church")
    shift = spot(cursor + 97)
    _gord_icon(draw, (cursor + 110 + shift, y + 10), 1, None, False, 1.0)
    word(cursor + 128 + shift, "Gord")
    shift += spot(cursor + 179 + shift)
    _gord_icon(draw, (cursor + 192 + shift, y + 10), 1, "city", False, 1.0)
    word(cursor + 210 + shift, "City (Might)")
    shift += spot(cursor + 307 + shift)
    _badge(draw, (cursor + 322 + shift, y + 10), "D", COLOURS["orange"], 1.0, diamond=True)
    word(cursor + 340 + shift, "Division")
    shift += spot(cursor + 424 + shift)
    tag_x = cursor + 440 + shift
    draw.rounded_rectangle((tag_x - 16, y, tag_x + 16, y + 21), radius=4, fill=COLOURS["black"], outline=INK)
    _text(draw, (tag_x, y + 10), "GM", size, COLOURS["white"], "mm")
    word(tag_x + 22, "borders that area")
    y += 28
    fx, fy = x, y
    for faction_id, faction in catalog().factions.items():
        fill = COLOURS[faction["colour"]]
        code = faction_code(faction_id)
        name = _short_faction(faction["name"])
        name = name if faction_id in PRINCIPALITIES else _t(language, name)
        chip = max(30, round(_text_width(code, size)) + 8)
        width = chip + 6 + round(_text_width(name, size, exact)) + 16
        if fx + width > _full_frame().width:  # the factions flow in rows under the map
            fx, fy = x, fy + 26
        draw.rounded_rectangle((fx, fy, fx + chip, fy + 20), radius=4, fill=fill, outline=INK)
        _text(draw, (fx + chip / 2, fy + 10), code, size, text_colour_on(fill), "mm")
        _text(draw, (fx + chip + 6, fy + 10), name, size, anchor="lm", exact=exact)
        fx += width


def _short_faction(name: str) -> str:
    return (
        name.replace("Kingdom of ", "")
        .replace("Western ", "W. ")
        .replace("Eastern ", "E. ")
        .replace("Teutonic Knights", "Teutonic")
        .replace(" Fiefdoms", "")
    )


# ---- the dynamic layer --------------------------------------------------------------------------------------


def _draw_land(
    draw: ImageDraw.ImageDraw, land: str, land_view: dict[str, Any], centre: Point, frame: Frame
) -> None:
    """One land's gords, buildings, Division token and units around its centre."""
    cx, cy = centre
    _icon_row(draw, land, land_view, (cx, cy + frame.px(2)), frame)
    _draw_land_units(draw, land, land_view, frame)


@dataclass(frozen=True)
class _Patch:
    """What a land's pieces change on the base: the pixels (``image``) where ``mask`` is set, at ``xy``."""

    image: Image.Image | None
    mask: Image.Image | None
    xy: tuple[int, int]


#: how far a land's pieces may reach from its centre (map units: sideways, up, down); a drawing that reaches
#: the edge of this box is drawn straight onto the board instead (``_DIRECT``)
LAND_REACH = (150, 30, 170)
_NOTHING = _Patch(None, None, (0, 0))
_DIRECT = _Patch(None, None, (-1, -1))
#: land patches by frame, legend, land and what the land shows: a board changes a few lands at a time (a
#: patch averages 9 kB; a 4-player game draws about 250 of them)
LAND_PATCHES: Memo[tuple[str, bool, str, str, str], _Patch] = Memo(2048)


class _PatchMaker:
    """Draws the lands a board has no patch for, on one copy of the base, at the board's own coordinates
    (shifting them would round some edges the other way: the map's coordinates are fractions); the base is
    put back around each land after its patch is cut."""

    def __init__(self, frame: Frame, with_legend: bool, language: str = DEFAULT) -> None:
        self.with_legend, self.language = with_legend, language
        self.base = _palette_base(frame, with_legend, language)
        self._board: Image.Image | None = None
        self._draw: PaletteDraw | None = None

    def patch(self, frame: Frame, land: str, land_view: dict[str, Any], centre: Point) -> _Patch:
        """The land's pieces drawn over the base around the land, cut to the pixels they change."""
        area = _land_area(frame, self.with_legend, centre, self.language)
        if area is None:  # a land beyond a region's frame: nothing of it shows
            return _NOTHING
        box, base_area, base_indices = area
        if self._board is None or self._draw is None:
            self._board, self._draw = palette_canvas(self.base)
        _draw_land(self._draw, land, land_view, centre, frame)
        canvas = self._board.crop(box)
        difference = ImageChops.difference(base_indices, palette_indices(canvas))
        drawn = difference.getbbox()
        width, height = canvas.size
        clipped = drawn is not None and (
            (drawn[0] == 0 and box[0] > 0)
            or (drawn[1] == 0 and box[1] > 0)
            or (drawn[2] == width and box[2] < self.base.width)
            or (drawn[3] == height and box[3] < self.base.height)
        )
        if clipped:  # the drawing may reach beyond the box: the next land starts from a fresh copy
            self._board = self._draw = None
            return _DIRECT
        self._board.paste(base_area, box[:2])
        if drawn is None:
            return _NOTHING
        mask = difference.crop(drawn).point(NONZERO)
        return _Patch(canvas.crop(drawn), mask, (box[0] + drawn[0], box[1] + drawn[1]))


@lru_cache(maxsize=512)
def _land_area(
    frame: Frame, with_legend: bool, centre: Point, language: str = DEFAULT
) -> tuple[tuple[int, int, int, int], Image.Image, Image.Image] | None:
    """The box a land's pieces may take on a base (``LAND_REACH``), the base there and its palette entries."""
    base = _palette_base(frame, with_legend, language)
    side, up, down = (frame.px(reach) for reach in LAND_REACH)
    left, top = max(0, round(centre[0] - side)), max(0, round(centre[1] - up))
    right, bottom = min(base.width, round(centre[0] + side)), min(base.height, round(centre[1] + down))
    if right <= left or bottom <= top:
        return None
    box = (left, top, right, bottom)
    area = base.crop(box)
    return box, area, palette_indices(area)


def _draw_map_state(
    draw: ImageDraw.ImageDraw, view: dict[str, Any], frame: Frame, with_legend: bool, patches: bool = True
) -> None:
    """Every land's pieces and the off-map areas' units. On a palette board each land is pasted from its
    patch (drawn once per thing the land shows: most lands show the same from one board to the next), which
    gives the very pixels drawing it would; ``patches=False`` draws everything (tests compare the two)."""
    data, geo, language = catalog(), geometry(), _language(view)
    maker = _PatchMaker(frame, with_legend, language)
    for land in data.lands:
        land_view = view["lands"][land]
        centre = frame.at(tuple(geo["lands"][land]["centre"]))  # type: ignore[arg-type]
        if patches and isinstance(draw, PaletteDraw):
            key = (frame.key, with_legend, language, land, repr(land_view))
            patch = LAND_PATCHES.get(key)
            if patch is None:
                patch = maker.patch(frame, land, land_view, centre)
                LAND_PATCHES.put(key, patch)
            if patch is not _DIRECT:
                if patch.image is not None and patch.mask is not None:
                    draw.stamp(patch.xy, patch.image, patch.mask)
                continue
        _draw_land(draw, land, land_view, centre, frame)
    for area, box in geo["offmap"].items():
        x0, y0 = frame.at((box[0], box[1]))
        x1, _ = frame.at((box[2], box[3]))
        _draw_units(
            draw,
            ((x0 + x1) / 2, y0 + frame.px(44)),
            view["offmap"][area]["units"],
            frame,
            x1 - x0 - frame.px(8),
        )


def _track_bar(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    label: str,
    value: int,
    colour: Colour,
    exact: bool = False,
    label_size: int = TEXT_SIZES["small"],
) -> None:
    """A 0-10 track: ten cells, the filled ones up to the value, the number (true value) after it."""
    size = TEXT_SIZES["small"]
    _text(draw, (x, y + 9), label, label_size, anchor="lm", exact=exact)
    left = x + 62
    for cell in range(10):
        cell_x = left + cell * 15
        filled = cell < min(value, 10)
        draw.rectangle(
            (cell_x, y + 2, cell_x + 12, y + 16),
            fill=colour if filled else COLOURS["background"],
            outline=INK,
        )
    _text(draw, (left + 154, y + 9), str(value), size, anchor="lm")


def _fit(text: str, width: float, size: int, exact: bool) -> tuple[str, int]:
    """Another language's ``text`` at ``size`` or smaller to fit ``width`` (``fit_text``: its words may be
    longer than English); English as it always was."""
    return fit_text(text, width, size) if exact else (text, size)


#: the track labels' width before the cells
TRACK_LABEL_WIDTH = 58


def _player_block(
    draw: ImageDraw.ImageDraw, x: int, y: int, inputs: tuple[str, dict[str, Any], bool, int, str, str]
) -> int:
    """A player's principality, tracks, gold, hand size, Prince, plan state and tiles; ``inputs`` is the code,
    the player's public record, whether they hold the Princeps token, their Might, the player's name and the
    reader's language."""
    code, player, princeps, might, player_name, language = inputs
    exact = language != DEFAULT
    data = catalog()
    colour = COLOURS[data.map["principalities"][code]["colour"]]
    name = data.map["principalities"][code]["name"]
    draw.rectangle((x, y, x + PANEL_WIDTH - 32, y + 26), fill=colour, outline=INK)
    marks = ("  * Princeps" if princeps else "") + (
        "  " + _t(language, "eliminated") if player.get("eliminated") else ""
    )
    title, size = fit_text(
        f"{faction_code(code)}  {name}  {player_name}{marks}", PANEL_WIDTH - 48, TEXT_SIZES["body"]
    )
    _text(draw, (x + 8, y + 13), title, size, text_colour_on(colour), "lm", exact=exact)
    y += 32
    tracks = {"might": might, "people": player["people"], "clergy": player["clergy"]}
    fills = {"might": COLOURS["highlight"], "people": COLOURS["green"], "clergy": COLOURS["purple"]}
    for index, (key, label) in enumerate(TRACK_NAMES):
        label, size = _fit(_t(language, label), TRACK_LABEL_WIDTH, TEXT_SIZES["small"], exact)
        _track_bar(draw, x, y + index * 20, label, tracks[key], fills[key], exact, size)
    side, small = x + 256, TEXT_SIZES["small"]
    room = PANEL_WIDTH - 40 - 256
    gold = _t(language, "Gold {gold}   Hand {hand}", gold=player["gold"], hand=player["hand_size"])
    _text(draw, (side, y), gold, small, exact=exact)
    prince = title_in(language, data.kind_of(player["prince"])["name"]) if player.get("prince") else None
    prince_text, prince_size = _fit(prince or _t(language, "no Prince"), room, small, exact)
    _text(draw, (side, y + 20), prince_text, prince_size, exact=exact)
    plan = _t(language, "plan sealed" if player.get("plan_sealed") else "no plan yet")
    _text(draw, (side, y + 40), plan, small, COLOURS["muted"], exact=exact)
    y += 62
    tiles = [tile for colour_tiles in player["progress"].values() for tile in colour_tiles]
    if tiles:
        y = _tile_chips(draw, x, y, tiles, language)
    else:
        _text(draw, (x, y), _t(language, "Progress: no tiles yet"), small, COLOURS["muted"], exact=exact)
        y += 22
    return y + 8


def _tile_chips(draw: ImageDraw.ImageDraw, x: int, y: int, tiles: list[str], language: str = DEFAULT) -> int:
    """Progress tiles as small chips in their colour with the tile's short title."""
    data, exact = catalog(), language != DEFAULT
    cursor = x
    for tile in tiles:
        record = data.kind_of(tile)
        label = short_title(language, record["title"])
        label, size = _fit(label, PANEL_WIDTH - 44, TEXT_SIZES["small"], exact)
        width = round(_text_width(label, size, exact)) + 12
        if cursor + width > x + PANEL_WIDTH - 32:
            cursor, y = x, y + 24
        fill = _colour(TILE_COLOURS[record["colour"]])
        draw.rounded_rectangle((cursor, y, cursor + width, y + 21), radius=4, fill=fill, outline=INK)
        _text(draw, (cursor + width / 2, y + 11), label, size, text_colour_on(fill), "mm", exact=exact)
        cursor += width + 6
    return y + 26


def _header_block(draw: ImageDraw.ImageDraw, x: int, y: int, view: dict[str, Any]) -> int:
    """Round, Period, the Princeps token's holder and direction, the turn order, the neutral principalities."""
    data = catalog()
    language = view.get("language", DEFAULT)
    exact = language != DEFAULT
    title = _t(
        language,
        "PRINCIPES   Round {round} of 6   Period {period}",
        round=view["round"],
        period=roman(view["period"]),
    )
    _text(draw, (x, y), title, TEXT_SIZES["title"], exact=exact)
    y += 34
    direction = _t(language, DIRECTIONS.get(view["princeps"]["direction"] or "", "direction not chosen yet"))
    holder = data.map["principalities"][view["princeps"]["holder"]]["name"]
    _princeps_token(draw, x + 12, y + 11)
    line, size = _fit(f"Princeps: {holder}, {direction}", PANEL_WIDTH - 56, TEXT_SIZES["body"], exact)
    _text(draw, (x + 30, y + 11), line, size, anchor="lm", exact=exact)
    y += 26
    order = " > ".join(faction_code(code) for code in view["turn_order"])
    neutral = ", ".join(data.map["principalities"][code]["name"] for code in view["neutral"]) or _t(
        language, "none"
    )
    line, size = _fit(
        _t(language, "Order {order}   Neutral: {neutral}", order=order, neutral=neutral),
        PANEL_WIDTH - 40,
        TEXT_SIZES["small"],
        exact,
    )
    _text(draw, (x, y), line, size, exact=exact)
    return y + 28


Painter = Callable[[ImageDraw.ImageDraw, int, int, Any], int]


def _panel_sections(view: dict[str, Any]) -> list[tuple[str, Any, Painter]]:
    """The side panel top to bottom: each section's painter with exactly the part of the view it draws (and the
    reader's language)."""
    language = _language(view)
    header = {key: view[key] for key in ("round", "period", "princeps", "turn_order", "neutral")}
    if language != DEFAULT:
        header["language"] = language
    sections: list[tuple[str, Any, Painter]] = [("header", header, _header_block)]
    for code in view["seats"]:
        holder = view["princeps"]["holder"] == code
        player = view["players"][code]
        fallback = _t(language, "(seat {seat})", seat=player["seat"] + 1)
        who = seat_label(view, player["seat"], fallback=fallback)
        sections.append(("player", (code, player, holder, view["might"][code], who, language), _player_block))
    sections.append(("history", (view["history"], _invader_status(view), language), _history_block))
    sections.append(("market", (view["market"], language), _market_block))
    sections.append(("supply", (view["supply"], language), _supply_block))
    if "you" in view:
        you = view["you"]
        sections.append(
            ("private", (you["principality"], you["hand"], you["plan"], language), _private_block)
        )
    return sections


#: a section is drawn on a scratch panel this far from its left and top edges (the private block's frame
#: starts 6 px up and left of its text), then pasted as a rectangle: the panel under it is one flat colour
SECTION_LEFT, SECTION_TOP = 8, 6
#: panel sections by name and inputs: one player's block changes at a time, the others are pasted as they were
PANEL_SECTIONS: Memo[tuple[str, str], tuple[Image.Image, int]] = Memo(512)


@cache
def _panel_scratch() -> Image.Image:
    """A blank stretch of panel, mapped to the palette as the base's panel is."""
    return to_palette(Image.new("RGB", (PANEL_WIDTH - SECTION_LEFT, HEIGHT + SECTION_TOP), COLOURS["panel"]))


def _section(draw: PaletteDraw, x: int, y: int, name: str, inputs: Any, paint: Painter) -> int:
    """Paste the section drawn for these inputs (drawing it on a scratch panel the first time); the y after it."""
    key = (name, repr(inputs))
    cached = PANEL_SECTIONS.get(key)
    if cached is None:
        scratch, scratch_draw = palette_canvas(_panel_scratch())
        end = paint(scratch_draw, SECTION_LEFT, SECTION_TOP, inputs)
        cached = (scratch.crop((0, 0, scratch.width, end)), end - SECTION_TOP)
        PANEL_SECTIONS.put(key, cached)
    patch, height = cached
    draw.image.paste(patch, (x - SECTION_LEFT, y - SECTION_TOP))
    return y + height


def _draw_panel(draw: ImageDraw.ImageDraw, view: dict[str, Any], x: int, sections: bool = True) -> None:
    """The side panel. On a palette board each section is pasted from its last drawing for the same inputs,
    which gives the very pixels drawing it would (the panel is flat); ``sections=False`` draws everything."""
    y = 12
    for name, inputs, paint in _panel_sections(view):
        if sections and isinstance(draw, PaletteDraw):
            y = _section(draw, x, y, name, inputs, paint)
        else:
            y = paint(draw, x, y, inputs)


def _princeps_token(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.ellipse((x - 10, y - 10, x + 10, y + 10), fill=COLOURS["highlight"], outline=INK, width=2)
    draw.polygon(
        [(x - 6, y + 4), (x - 6, y - 3), (x - 3, y), (x, y - 6), (x + 3, y), (x + 6, y - 3), (x + 6, y + 4)],
        fill=INK,
    )


def icons_in_turn(language: str, icons: Sequence[str]) -> str:
    """The icons' titles as they resolve: "Division then Urbanization"."""
    text = ""
    for icon in icons:
        title = icon_title(language, icon)
        text = _t(language, "{first} then {next}", first=text, next=title) if text else title
    return text


def _history_block(draw: ImageDraw.ImageDraw, x: int, y: int, inputs: tuple[dict[str, Any], str, str]) -> int:
    """The History deck, the revealed card (its year, title, end-of-round icons and text) and the invaders'
    status line; ``inputs`` is the view's ``history``, that line and the reader's language."""
    data = catalog()
    history, invaders, language = inputs
    exact, small = language != DEFAULT, TEXT_SIZES["small"]
    _text(
        draw,
        (x, y),
        _t(language, "History (deck {deck})", deck=history["deck"]),
        TEXT_SIZES["heading"],
        exact=exact,
    )
    y += 26
    if history["revealed"]:
        card = data.kind_of(history["revealed"])
        heading = f"{card['year']}: {title_in(language, card['title'])}"
        heading, size = _fit(heading, PANEL_WIDTH - 36, TEXT_SIZES["body"], exact)
        _text(draw, (x, y), heading, size, exact=exact)
        y += 24
        icons = _t(language, "End of Round: {icons}", icons=icons_in_turn(language, card["icons"]))
        _text(draw, (x, y), icons, small, exact=exact)
        y += 22
        line, size = _fit(invaders, PANEL_WIDTH - 36, small, exact)
        _text(draw, (x, y), line, size, COLOURS["muted"], exact=exact)
        y += 22
        for line in _wrap(title_in(language, card["text"]), small, PANEL_WIDTH - 36, exact)[:3]:
            _text(draw, (x, y), line, small, COLOURS["muted"], exact=exact)
            y += 20
    else:
        _text(
            draw, (x, y), _t(language, "No History card revealed yet."), small, COLOURS["muted"], exact=exact
        )
        y += 22
    return y + 8


def _invader_status(view: dict[str, Any]) -> str:
    """The icon being resolved now (if any), the Mongol invasions so far and whether the Teutons were called."""
    language = _language(view)
    play = view.get("play") or {}
    event = play.get("event") or {}
    icon = event.get("icon")
    now = _t(language, "Now: {icon}.", icon=icon_title(language, icon)) + " " if icon in ICON_TITLES else ""
    raids = (
        "Mongol raids: {n}. Teutons called."
        if play.get("teutons")
        else "Mongol raids: {n}. Teutons not called."
    )
    return now + _t(language, raids, n=view.get("mongol_invasions", 0))


def _market_block(draw: ImageDraw.ImageDraw, x: int, y: int, inputs: tuple[dict[str, Any], str]) -> int:
    data = catalog()
    market, language = inputs
    exact, small = language != DEFAULT, TEXT_SIZES["small"]
    _text(draw, (x, y), _t(language, "Market"), TEXT_SIZES["heading"], exact=exact)
    y += 26
    actions = data.setup["actions"]
    for colour, pile in market.items():
        fill = _colour(TILE_COLOURS[colour])
        draw.rounded_rectangle((x, y, x + 96, y + 21), radius=4, fill=fill, outline=INK)
        label, size = _fit(action_name(language, actions[colour]), 90, small, exact)
        _text(draw, (x + 48, y + 11), label, size, text_colour_on(fill), "mm", exact=exact)
        titles = " | ".join(short_title(language, data.kind_of(tile)["title"]) for tile in pile["face_up"])
        line, size = _fit(
            f"{titles or _t(language, 'empty')}  ({pile['stack']})", PANEL_WIDTH - 136, small, exact
        )
        _text(draw, (x + 104, y + 11), line, size, anchor="lm", exact=exact)
        y += 24
    return y + 8


def _supply_block(draw: ImageDraw.ImageDraw, x: int, y: int, inputs: tuple[dict[str, Any], str]) -> int:
    """Tokens left in the supply (each kind is limited) and the gold bank when the option limits it."""
    supply, language = inputs
    exact, small = language != DEFAULT, TEXT_SIZES["small"]
    tokens = supply["tokens"]
    # each line takes the counts it names from the supply's tokens
    cities = _t(language, "Cities left: capital {capital}, city {city}, civitas {civitas}", **tokens)
    gold = supply["gold"]
    buildings = _t(
        language, "Castles {castle}, Tiltyards {tiltyard}, Abbeys {abbey}, Division {division}", **tokens
    ) + ("" if gold is None else _t(language, ", bank {gold} gold", gold=gold))
    for row, text in enumerate((cities, buildings)):
        line, size = _fit(text, PANEL_WIDTH - 36, small, exact)
        _text(draw, (x, y + 20 * row), line, size, exact=exact)
    return y + 48


def _private_block(
    draw: ImageDraw.ImageDraw, x: int, y: int, inputs: tuple[str, list[str], list[str] | None, str]
) -> int:
    """The seat's hand and sealed plan; ``inputs`` is its principality, hand, plan and the reader's language."""
    data = catalog()
    principality, hand, plan, language = inputs
    exact, small = language != DEFAULT, TEXT_SIZES["small"]
    name = data.map["principalities"][principality]["name"]
    draw.rectangle((x - 6, y - 4, x + PANEL_WIDTH - 26, y + 24), fill=COLOURS["white"], outline=INK)
    heading, size = _fit(
        _t(language, "Private to {name}: your hand", name=name),
        PANEL_WIDTH - 40,
        TEXT_SIZES["heading"],
        exact,
    )
    _text(draw, (x, y + 10), heading, size, anchor="lm", exact=exact)
    y += 30
    for card_id in hand:
        card = data.kind_of(card_id)
        tag = _t(language, DECK_TAGS[card["deck"]])
        icon = card.get("support") or card.get("corner") or ""
        icon = card_icon(language, icon) if icon else ""
        # the id beside the title: it is what /moves lists and what /move accepts besides the title
        title = f"{short_title(language, card['title'])} ({card_id.lower()})"
        line, size = _fit(f"{tag}: {title} [{icon}]", PANEL_WIDTH - 36, small, exact)
        _text(draw, (x, y), line, size, exact=exact)
        y += 20
    actions = ", ".join(action_name(language, action) for action in plan) if plan else ""
    text = _t(language, "Plan: {actions}", actions=actions) if plan else _t(language, "Plan: not sealed yet")
    line, size = _fit(text, PANEL_WIDTH - 36, small, exact)
    _text(draw, (x, y + 4), line, size, exact=exact)
    return y + 28


def _wrap(text: str, size: int, width: int, exact: bool = False) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and _text_width(lines[-1] + " " + word, size, exact) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


# ---- public entry points ------------------------------------------------------------------------------------


def _full_frame() -> Frame:
    width, height = geometry()["size"]
    return Frame("full", 1.0, 0.0, 0.0, int(width), max(int(height), HEIGHT))


class _MapLayers:
    """The last few boards' map layers (static base + units, gords and buildings), by what they show.

    Most actions change the side panel only (plans, cards, gold, passes), and a seat's DM image shows the same
    map as the public image of the same moment: those renders copy the map layer instead of drawing it again.
    A memo like the base's: the image depends only on the view."""

    def __init__(self, size: int = 6) -> None:
        self._layers: Memo[tuple[str, str], Image.Image] = Memo(size)

    def canvas(
        self, view: dict[str, Any], frame: Frame, with_legend: bool
    ) -> tuple[Image.Image, PaletteDraw]:
        """A copy of the map layer for ``view`` (drawn now if no recent board showed the same map)."""
        language = _language(view)
        key = (f"{frame.key}:{with_legend}:{language}", repr((view["lands"], view["offmap"])))
        layer = self._layers.get(key)
        if layer is not None:
            return palette_canvas(layer)
        image, draw = palette_canvas(_palette_base(frame, with_legend, language))
        _draw_map_state(draw, view, frame, with_legend)
        self._layers.put(key, image.copy())
        return image, draw

    def clear(self) -> None:
        self._layers.clear()


MAP_LAYERS = _MapLayers()


def clear_caches() -> None:
    """Forget every drawing kept for reuse: static layers, map layers, land patches, panel sections, text,
    where lands' figures go (benchmarks and tests that measure or check drawing from nothing)."""
    for cached in (_base, _palette_base, _land_area, _stamp, _palette_stamp, _text_width, _units_place):
        cached.cache_clear()
    for memo in (MAP_LAYERS, LAND_PATCHES, PANEL_SECTIONS):
        memo.clear()


def render(view: dict[str, Any]) -> Image.Image:
    """The whole board with the side panel; a seat's view also shows its hand and sealed plan."""
    frame = _full_frame()
    image, draw = MAP_LAYERS.canvas(view, frame, True)
    _draw_panel(draw, view, frame.width + 16)
    return image


REGION_NAMES = {
    "polonia maior": "PMA",
    "greater poland": "PMA",
    "maior": "PMA",
    "pma": "PMA",
    "masovia": "MAS",
    "mazovia": "MAS",
    "mas": "MAS",
    "polonia minor": "PMI",
    "lesser poland": "PMI",
    "minor": "PMI",
    "pmi": "PMI",
    "silesia": "SIL",
    "sil": "SIL",
}
REGION_WIDTH = 1200


def region_lands(principality: str) -> set[str]:
    """A principality's lands and every land bordering them."""
    data = catalog()
    own = set(data.principality_lands(principality))
    return own | {near for land in own for near in data.adjacency[land]}


@cache
def _region_frame(principality: str) -> Frame:
    geo = geometry()
    points = [p for land in region_lands(principality) for p in geo["lands"][land]["polygon"]]
    x0, y0 = min(p[0] for p in points) - 10, min(p[1] for p in points) - 10
    x1, y1 = max(p[0] for p in points) + 10, max(p[1] for p in points) + 10
    scale = min(1.8, REGION_WIDTH / (x1 - x0))
    return Frame(f"region-{principality}", scale, x0, y0, REGION_WIDTH, round((y1 - y0) * scale) + 44, top=44)


def render_region(view: dict[str, Any], region: str) -> Image.Image:
    """One principality (``silesia``, ``polonia maior`` ...) and its neighbours, drawn larger for phones."""
    principality = REGION_NAMES.get(" ".join(region.strip().lower().split()))
    if principality is None:
        raise RenderError(
            f"There is no region {region!r}: try Polonia Maior, Masovia, Polonia Minor or Silesia."
        )
    frame = _region_frame(principality)
    image, draw = MAP_LAYERS.canvas(view, frame, False)
    name, language = catalog().map["principalities"][principality]["name"], _language(view)
    draw.rectangle((0, 0, frame.width, 40), fill=COLOURS["panel"])
    _text(
        draw,
        (12, 20),
        _t(language, "{name} and its neighbours   Round {round} of 6", name=name, round=view["round"]),
        TEXT_SIZES["title"],
        anchor="lm",
        exact=language != DEFAULT,
    )
    return image


__all__ = ["TEXT_SIZES", "clear_caches", "region_lands", "render", "render_region"]
