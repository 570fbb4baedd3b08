"""Pharaoh board: the cross-shaped 5x5 grid seen from above, reserves beside each edge, the dice, goal lines.

North is at the top, so seat 1 (south) reads the board the right way up. Every cell carries its name (the
notation is ``M c3``), pyramids are squares sized by their pips with their colour letter and pip count, and the
goal lines are tinted cells joined by a dashed line through the centre.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from .common import COLOUR_LETTERS, COLOURS, centred_text, font, new_canvas, text_colour_on

CELL = 96
BAND = 132  # reserve band beside each edge
HEADER = 112
FOOTER = 48
BOARD = 5 * CELL
WIDTH = BAND + BOARD + BAND
HEIGHT = HEADER + BAND + BOARD + BAND + FOOTER
BOARD_X, BOARD_Y = BAND, HEADER + BAND
FILES = "abcde"
CORNERS = {"a1", "e1", "a5", "e5"}
PIECE_HALF = (19, 26, 32)  # half the side of a small, medium and large pyramid seen from above
#: pieces sit a little low in their cell so the cell's name stays readable above them
PIECE_DROP = 12
DIE = 58


def render(view: dict[str, Any]) -> Image.Image:
    goal_lines = tuple(tuple(line) for line in view["goal_lines"])
    edge_cells = tuple(tuple(cells) for cells in view["edge_cells"])
    image = _static_board(goal_lines, edge_cells, tuple(view["colours"])).copy()
    draw = ImageDraw.Draw(image)
    _header(draw, view)
    _last_step(draw, view)
    _win_line(draw, view)
    for seat, own in enumerate(view["pieces"]):
        for piece, cell in enumerate(own):
            if cell is not None:
                x, y = _cell_centre(cell)
                _pyramid(draw, (x, y + PIECE_DROP), piece, view["colours"][seat])
    for seat in range(view["players"]):
        _reserve(draw, view, seat)
    _footer(draw, view)
    return image


# ---- geometry ---------------------------------------------------------------------------------------------------
def _cell_box(cell: str) -> tuple[int, int, int, int]:
    file, rank = FILES.index(cell[0]), int(cell[1])
    left, top = BOARD_X + file * CELL, BOARD_Y + (5 - rank) * CELL
    return left, top, left + CELL, top + CELL


def _cell_centre(cell: str) -> tuple[float, float]:
    left, top, right, bottom = _cell_box(cell)
    return (left + right) / 2, (top + bottom) / 2


def _blend(colour: tuple[int, int, int], other: tuple[int, int, int], share: float) -> tuple[int, int, int]:
    r, g, b = (round(a * (1 - share) + c * share) for a, c in zip(colour, other, strict=True))
    return r, g, b


# ---- board ------------------------------------------------------------------------------------------------------
@cache
def _static_board(
    goal_lines: tuple[tuple[str, ...], ...], edge_cells: tuple[tuple[str, ...], ...], colours: tuple[str, ...]
) -> Image.Image:
    """What never changes during a game: cells, edges, names, goal lines (drawn once, copied per image)."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    fills = _cells(draw, goal_lines, edge_cells, colours)
    _goal_lines(draw, goal_lines)
    _cell_names(draw, fills)
    return image


def _cells(
    draw: ImageDraw.ImageDraw,
    goal_lines: tuple[tuple[str, ...], ...],
    edge_cells: tuple[tuple[str, ...], ...],
    colours: tuple[str, ...],
) -> dict[str, tuple[int, int, int]]:
    """Draws the grid; returns each open cell's fill."""
    fills = {}
    goal_cells = {cell for line in goal_lines for cell in line}
    edge_owner = {cell: seat for seat, cells in enumerate(edge_cells) for cell in cells}
    for file in FILES:
        for rank in range(1, 6):
            cell = f"{file}{rank}"
            box = _cell_box(cell)
            if cell in CORNERS:
                draw.rectangle(box, fill=COLOURS["grid"], outline=COLOURS["muted"], width=2)
                draw.line(box, fill=COLOURS["muted"], width=2)
                continue
            fill = COLOURS["sand"] if cell in goal_cells else COLOURS["panel"]
            if cell in edge_owner:
                fill = _blend(COLOURS[colours[edge_owner[cell]]], COLOURS["background"], 0.72)
            draw.rectangle(box, fill=fill, outline=COLOURS["ink"], width=2)
            fills[cell] = fill
    return fills


def _cell_names(draw: ImageDraw.ImageDraw, fills: dict[str, tuple[int, int, int]]) -> None:
    """Each open cell's name in its corner, clear of the last-step outline and of the pyramids.

    A halo in the cell's own colour keeps the name readable where a goal line crosses it.
    """
    for cell, fill in fills.items():
        left, top, _, _ = _cell_box(cell)
        draw.text(
            (left + 8, top + 6), cell, font=font(16), fill=COLOURS["muted"], stroke_width=3, stroke_fill=fill
        )


def _goal_lines(draw: ImageDraw.ImageDraw, goal_lines: tuple[tuple[str, ...], ...]) -> None:
    """A dashed line through each goal line's cells."""
    for line in goal_lines:
        start, end = _cell_centre(line[0]), _cell_centre(line[-1])
        for i in range(12):
            if i % 2:
                continue
            a, b = i / 12, (i + 1) / 12
            draw.line(
                (
                    start[0] + (end[0] - start[0]) * a,
                    start[1] + (end[1] - start[1]) * a,
                    start[0] + (end[0] - start[0]) * b,
                    start[1] + (end[1] - start[1]) * b,
                ),
                fill=COLOURS["brown"],
                width=4,
            )


def _win_line(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """The winning line, bright and solid; the names it crosses are written again on top."""
    if view.get("win_line"):
        start, end = _cell_centre(view["win_line"][0]), _cell_centre(view["win_line"][-1])
        draw.line((*start, *end), fill=COLOURS["highlight"], width=10)
        _cell_names(draw, {cell: COLOURS["sand"] for cell in view["win_line"]})


def _last_step(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    last = view.get("last")
    if not last:
        return
    for cell in (last["from"], last["to"]):
        if cell is not None:
            left, top, right, bottom = _cell_box(cell)
            draw.rectangle((left + 1, top + 1, right - 1, bottom - 1), outline=COLOURS["highlight"], width=4)


def _pyramid(draw: ImageDraw.ImageDraw, centre: tuple[float, float], piece: int, colour: str) -> None:
    """A pyramid from above: a square with its ridges, sized by pips, labelled colour letter + pips."""
    x, y = centre
    half = PIECE_HALF[piece]
    fill = COLOURS[colour]
    draw.rectangle((x - half, y - half, x + half, y + half), fill=fill, outline=COLOURS["ink"], width=2)
    shade = _blend(fill, COLOURS["black"], 0.3)
    for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        draw.line((x, y, x + dx * half, y + dy * half), fill=shade, width=2)
    label = f"{COLOUR_LETTERS.get(colour, '?')}{piece + 1}"
    size = 16 if piece == 0 else 20
    centred_text(draw, (x, y), label, size, fill=text_colour_on(fill), stroke=shade)


# ---- reserves -----------------------------------------------------------------------------------------------------
def _reserve(draw: ImageDraw.ImageDraw, view: dict[str, Any], seat: int) -> None:
    """The seat's name and its pyramids off the board, in the band beside its edge."""
    edge = view["edges"][seat]
    colour = view["colours"][seat]
    waiting = [piece for piece, cell in enumerate(view["pieces"][seat]) if cell is None]
    if edge in ("south", "north"):
        band_top = BOARD_Y + BOARD if edge == "south" else HEADER
        label_y = band_top + (BAND - 22 if edge == "south" else 18)
        slots_y = band_top + (50 if edge == "south" else BAND - 52)
        centres = [(BOARD_X + CELL * (1.5 + i), slots_y) for i in range(3)]
        label_xy = (WIDTH / 2, label_y)
    else:
        band_left = 0 if edge == "west" else BAND + BOARD
        centres = [(band_left + BAND / 2, BOARD_Y + CELL * (1.5 + i)) for i in range(3)]
        label_xy = (band_left + BAND / 2, BOARD_Y + CELL * 0.5)
    name = f"Seat {seat + 1}"
    if view["to_move"] == seat and view.get("winner") is None and not view.get("draw"):
        name = f"> {name} <"
    centred_text(draw, label_xy, name, 20, fill=COLOURS[colour] if colour != "yellow" else COLOURS["ink"])
    for slot, piece in enumerate(sorted(waiting, reverse=True)):
        _pyramid(draw, centres[slot], piece, colour)


# ---- header and footer ------------------------------------------------------------------------------------------
def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    seat = view["to_move"]
    who = f"Seat {seat + 1} ({view['colours'][seat]})"
    if view.get("winner") is not None:
        winner = view["winner"]
        status = f"Seat {winner + 1} ({view['colours'][winner]}) wins on {'-'.join(view['win_line'])}"
    elif view.get("draw"):
        status = f"Draw after {view['turn_limit']} turns"
    else:
        status = f"Turn {view['turn']}: {who} to move"
    draw.text((16, 18), status, font=font(26), fill=COLOURS["ink"])
    roll = view["roll"]
    points = f"rolled {sum(roll)}: {view['left']} of {view['points']} points left"
    draw.text((16, 62), f"{who} {points}", font=font(20), fill=COLOURS["ink"])
    first_left = WIDTH - 16 - len(roll) * DIE - (len(roll) - 1) * 12  # the dice read left to right
    for index, value in enumerate(roll):
        _die(draw, first_left + index * (DIE + 12), 26, value, COLOURS[view["colours"][seat]])


def _die(
    draw: ImageDraw.ImageDraw, left: float, top: float, value: int, colour: tuple[int, int, int]
) -> None:
    draw.rounded_rectangle(
        (left, top, left + DIE, top + DIE), radius=10, fill=COLOURS["white"], outline=colour, width=5
    )
    spots = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (0, 2), (2, 0), (2, 2)],
        5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
        6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)],
    }
    step = DIE / 4
    for column, row in spots[value]:
        x, y = left + step * (column + 1), top + step * (row + 1)
        draw.ellipse((x - 5, y - 5, x + 5, y + 5), fill=COLOURS["ink"])


def _footer(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    """Who won the roll-off for first player, so the order of play can be checked."""
    rounds = view.get("rolloff") or []
    parts = [
        " ".join(f"{COLOUR_LETTERS.get(view['colours'][seat], '?')}{value}" for seat, value in rolls)
        for rolls in rounds
    ]
    text = "Roll-off: " + " / ".join(parts) if parts else ""
    lines = "goal: " + ", ".join("-".join(line) for line in view["goal_lines"])
    draw.text((16, HEIGHT - FOOTER + 12), f"{text}   {lines}".strip(), font=font(18), fill=COLOURS["muted"])
