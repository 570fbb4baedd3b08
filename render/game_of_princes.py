"""Game of Princes board, seen from above: carpets as coloured squares, servitors and Princes as pyramids.

The picture shows the carpets' bounding box plus one cell all round (where carpets may move next), labelled
with the column and row numbers the notation uses, Red's row 1 at the bottom. The original 5x5 grid is
outlined so players keep their bearings when carpets wander off it. The last move is framed in yellow, with a
bold arrow over the pieces from the cell left to the piece that arrived, its head showing the direction.
"""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from i18n import listing, localize, ntranslate
from rules.engine import name_seats

from .alt import compose, named, reason
from .common import COLOURS, IMAGE, centred_text, draw_pyramid_top, fit_text, new_canvas, seat_label
from .common import image_words as _t

#: the largest and smallest cell, in pixels; the image stays under ``MAX_WIDTH`` for any box
MAX_CELL, MIN_CELL = 96, 40
MAX_WIDTH = 1600
GRID_SPAN = 1300
HEADER, FOOTER, SIDE = 64, 56, 44
SEAT_COLOURS = ("red", "blue")
SEAT_NAMES = ("Red", "Blue")


CARPET_FILL = {"red": (232, 150, 146), "blue": (150, 176, 232), "neutral": COLOURS["sand"]}
CARPET_EDGE = {"red": COLOURS["red"], "blue": COLOURS["blue"], "neutral": COLOURS["brown"]}

Box = tuple[int, int, int, int]


def layout(view: dict[str, Any]) -> tuple[_Geometry, int, int]:
    """Where the table's cells go, and the image's width and height."""
    box = _box(view)
    low_x, low_y, high_x, high_y = box
    columns, rows = high_x - low_x + 1, high_y - low_y + 1
    cell = max(MIN_CELL, min(MAX_CELL, GRID_SPAN // max(columns, rows)))
    width = min(MAX_WIDTH, max(2 * SIDE + columns * cell, 560))
    left = (width - columns * cell) // 2
    height = HEADER + 2 * SIDE + rows * cell + FOOTER
    return _Geometry(box, cell, left, HEADER + SIDE), width, height


def render(view: dict[str, Any]) -> Image.Image:
    geometry, width, height = layout(view)
    image, draw = new_canvas(width, height)
    _header(draw, view, width)
    _grid(draw, geometry)
    _carpets(draw, view, geometry)
    _last_move_frames(draw, view, geometry)
    _pyramids(draw, view, geometry)
    _last_move_arrow(draw, view, geometry)
    _labels(draw, geometry)
    centred_text(
        draw,
        (width / 2, height - FOOTER / 2),
        _t(view.get("locale"), "big square: servitor   small square with P: Prince   cells: column,row"),
        18,
        fill=COLOURS["muted"],
    )
    return image


class _Geometry:
    """Where a cell of the table lands on the image (row numbers grow upwards)."""

    def __init__(self, box: Box, cell: int, left: int, top: int) -> None:
        self.low_x, self.low_y, self.high_x, self.high_y = box
        self.cell, self.left, self.top = cell, left, top

    def corner(self, x: int, y: int) -> tuple[int, int]:
        return self.left + (x - self.low_x) * self.cell, self.top + (self.high_y - y) * self.cell

    def centre(self, x: int, y: int) -> tuple[float, float]:
        cx, cy = self.corner(x, y)
        return cx + self.cell / 2, cy + self.cell / 2

    def square(self, x: int, y: int, inset: float = 0) -> tuple[float, float, float, float]:
        cx, cy = self.corner(x, y)
        return cx + inset, cy + inset, cx + self.cell - inset, cy + self.cell - inset


def _box(view: dict[str, Any]) -> Box:
    """The carpets' bounding box with a margin of one cell (the original grid when confined)."""
    if view.get("confined"):
        return 1, 1, 5, 5
    xs = [x for x, _, _ in view["carpets"]] + [1, 5]
    ys = [y for _, y, _ in view["carpets"]] + [1, 5]
    return min(xs) - 1, min(ys) - 1, max(xs) + 1, max(ys) + 1


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any], width: int) -> None:
    result, locale = view.get("result"), view.get("locale")
    if result is None:
        seat = view["to_move"]
        side = _t(locale, SEAT_NAMES[seat])
        name = seat_label(view, seat, fallback=side)
        who = name if name == side else f"{name} ({side})"
        text = _t(locale, "{who} to move  |  move {n}", who=who, n=view["moves"] + 1)
        colour = COLOURS[SEAT_COLOURS[seat]]
    else:
        winner = result["winner"]
        text = localize(name_seats(result["reason"], view.get("seat_names") or []), locale)
        text = text if winner is not None else _t(locale, "Draw: {reason}", reason=text)
        colour = COLOURS[SEAT_COLOURS[winner]] if winner is not None else COLOURS["ink"]
    fitted, size = fit_text(text, width - 24, 24)
    centred_text(draw, (width / 2, HEADER / 2), fitted, size, fill=colour)


def _grid(draw: ImageDraw.ImageDraw, geometry: _Geometry) -> None:
    for x in range(geometry.low_x, geometry.high_x + 1):
        for y in range(geometry.low_y, geometry.high_y + 1):
            draw.rectangle(geometry.square(x, y), outline=COLOURS["grid"], width=1)
    # the original 5x5 grid, so the numbering stays easy to follow
    x0, y0, _, _ = geometry.square(1, 5)
    _, _, x1, y1 = geometry.square(5, 1)
    draw.rectangle((x0 - 2, y0 - 2, x1 + 2, y1 + 2), outline=COLOURS["muted"], width=2)


def _carpets(draw: ImageDraw.ImageDraw, view: dict[str, Any], geometry: _Geometry) -> None:
    inset = max(2, geometry.cell // 24)
    for x, y, colour in view["carpets"]:
        draw.rectangle(
            geometry.square(x, y, inset), fill=CARPET_FILL[colour], outline=CARPET_EDGE[colour], width=3
        )


def _last_move_frames(draw: ImageDraw.ImageDraw, view: dict[str, Any], geometry: _Geometry) -> None:
    last = view.get("last_move")
    if not last or last.get("from") is None:
        return
    for x, y in (last["from"], last["to"]):
        draw.rectangle(geometry.square(x, y, 1), outline=COLOURS["highlight"], width=5)


def _footprint(view: dict[str, Any], geometry: _Geometry, cell: tuple[int, int]) -> float:
    """Half the side of what shows on top of a cell: a servitor's ring (a Prince always stands on one), else a
    fifth of the cell, so an arrow ends on a bare carpet's face."""
    if any((x, y) == tuple(cell) for x, y, _ in view["servitors"]):
        return geometry.cell * 0.31 + 3
    return geometry.cell * 0.2


def last_move_arrow(view: dict[str, Any]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The last move's arrow, from the centre of the cell left to the tip, at the edge of what the moved piece
    now stands on (it never covers the piece)."""
    last = view.get("last_move")
    if not last or last.get("from") is None:
        return None
    geometry, _, _ = layout(view)
    (x0, y0), (x1, y1) = geometry.centre(*last["from"]), geometry.centre(*last["to"])
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    reach = length - _footprint(view, geometry, last["to"]) - 2
    return (x0, y0), (x0 + (x1 - x0) * reach / length, y0 + (y1 - y0) * reach / length)


def _last_move_arrow(draw: ImageDraw.ImageDraw, view: dict[str, Any], geometry: _Geometry) -> None:
    """A bold ink-edged arrow on top of the pieces: its head says which way the piece went (a dot at the end,
    under the piece that arrived, did not show)."""
    arrow = last_move_arrow(view)
    if arrow is None:
        return
    (x0, y0), (x1, y1) = arrow
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = min(length * 0.6, max(14.0, geometry.cell * 0.34))
    spread = max(9.0, geometry.cell * 0.22)
    shaft = max(3.0, geometry.cell * 0.06)
    bx, by = x1 - ux * head, y1 - uy * head
    outline = [
        (x0 - uy * shaft, y0 + ux * shaft),
        (bx - uy * shaft, by + ux * shaft),
        (bx - uy * spread, by + ux * spread),
        (x1, y1),
        (bx + uy * spread, by - ux * spread),
        (bx + uy * shaft, by - ux * shaft),
        (x0 + uy * shaft, y0 - ux * shaft),
    ]
    draw.polygon(outline, fill=COLOURS["highlight"])
    draw.line([*outline, outline[0]], fill=COLOURS["ink"], width=2, joint="curve")


def _pyramids(draw: ImageDraw.ImageDraw, view: dict[str, Any], geometry: _Geometry) -> None:
    servitor_half = geometry.cell * 0.31
    prince_half = max(12.0, geometry.cell * 0.17)
    for x, y, seat in view["servitors"]:
        centre = geometry.centre(x, y)
        ring = servitor_half + 3  # a pale ring keeps a servitor apart from a carpet of its own colour
        draw.rectangle(
            (centre[0] - ring, centre[1] - ring, centre[0] + ring, centre[1] + ring), fill=COLOURS["white"]
        )
        draw_pyramid_top(draw, centre, servitor_half, SEAT_COLOURS[seat])
    for seat, (x, y) in enumerate(view["princes"]):
        centre = geometry.centre(x, y)
        ring = prince_half + 4
        draw.rectangle(
            (centre[0] - ring, centre[1] - ring, centre[0] + ring, centre[1] + ring),
            fill=COLOURS["highlight"],
            outline=COLOURS["ink"],
            width=2,
        )
        draw_pyramid_top(draw, centre, prince_half, SEAT_COLOURS[seat], label="P")


def _labels(draw: ImageDraw.ImageDraw, geometry: _Geometry) -> None:
    size = 18 if geometry.cell >= 48 else 16
    top = geometry.top - SIDE / 2
    bottom = geometry.top + (geometry.high_y - geometry.low_y + 1) * geometry.cell + SIDE / 2
    for x in range(geometry.low_x, geometry.high_x + 1):
        centre_x = geometry.centre(x, geometry.low_y)[0]
        for label_y in (top, bottom):
            centred_text(draw, (centre_x, label_y), str(x), size, fill=COLOURS["ink"])
    left = geometry.left - SIDE / 2
    right = geometry.left + (geometry.high_x - geometry.low_x + 1) * geometry.cell + SIDE / 2
    for y in range(geometry.low_y, geometry.high_y + 1):
        centre_y = geometry.centre(geometry.low_x, y)[1]
        for label_x in (left, right):
            centred_text(draw, (label_x, centre_y), str(y), size, fill=COLOURS["ink"])


# ---- alt text -----------------------------------------------------------------------------------------------------
PIECE_WORDS = {"C": "carpet", "S": "servitor", "P": "Prince"}


def alt_text(view: dict[str, Any]) -> str:
    """Who moves (or the result), the last move, where the Princes ride, the servitors, then the carpets.
    Cells are written column,row as on the image and in the notation."""
    locale = view.get("locale")
    sentences = [_t(locale, "Game of Princes: {status}.", status=_status(view))]
    last = view.get("last_move")
    if last and last.get("from") is not None:
        piece = PIECE_WORDS.get(str(last.get("action", ""))[:1], "piece")
        (x0, y0), (x1, y1) = last["from"], last["to"]
        sentences.append(
            _t(
                locale,
                f"Last move: {{who}} moved the {piece} on {{here}} to {{there}}.",
                who=_who(view, last["seat"]),
                here=f"{x0},{y0}",
                there=f"{x1},{y1}",
            )
        )
    elif last:
        sentences.append(_t(locale, "Last move: {who} passed.", who=_who(view, last["seat"])))
    princes = []
    for seat, (x, y) in enumerate(view["princes"]):
        carpet = next((colour for cx, cy, colour in view["carpets"] if (cx, cy) == (x, y)), None)
        where = {"who": _who(view, seat), "cell": f"{x},{y}"}
        princes.append(
            _t(locale, f"{{who}} on {{cell}}, a {carpet} carpet", **where)
            if carpet
            else _t(locale, "{who} on {cell}", **where)
        )
    sentences.append(_t(locale, "Princes, each riding a servitor: {princes}.", princes="; ".join(princes)))
    for seat, colour in enumerate(SEAT_NAMES):
        cells = [f"{x},{y}" for x, y, owner in view["servitors"] if owner == seat]
        sentences.append(_t(locale, f"{colour} servitors: {{cells}}.", cells=_cells(cells, locale)))
    for colour in ("red", "blue", "neutral"):
        cells = [f"{x},{y}" for x, y, carpet in view["carpets"] if carpet == colour]
        sentences.append(
            _t(locale, f"{colour.capitalize()} carpets: {{cells}}.", cells=_cells(cells, locale))
        )
    rules = [
        _t(locale, text)
        for flag, text in (
            ("confined", "carpets stay in the 5 by 5 grid"),
            ("long_jump", "long jumps allowed"),
        )
        if view.get(flag)
    ]
    if rules:
        sentences.append(_t(locale, "Options: {options}.", options=listing(locale, rules)))
    return compose(sentences)


def _cells(cells: list[str], locale: str | None = None) -> str:
    """Cells apart by semicolons: a cell's own comma must not read as a separator."""
    return "; ".join(cells) or _t(locale, "none")


def player_label(view: dict[str, Any], seat: int) -> str:
    return _who(view, seat)


def _who(view: dict[str, Any], seat: int) -> str:
    """A player as the header names them: alice (Red), or Red when the view carries no names."""
    return named(view, seat, _t(view.get("locale"), SEAT_NAMES[seat]))


def _status(view: dict[str, Any]) -> str:
    result, locale = view.get("result"), view.get("locale")
    if result is not None:
        return localize(reason(view, result["reason"]) + ".", locale).removesuffix(".")
    who = _who(view, view["to_move"])
    if view.get("passes"):
        return ntranslate(
            locale,
            "move {move}, {who} to move, {n} pass in a row",
            "move {move}, {who} to move, {n} passes in a row",
            view["passes"],
            IMAGE,
            move=view["moves"] + 1,
            who=who,
        )
    return _t(locale, "move {move}, {who} to move", move=view["moves"] + 1, who=who)
