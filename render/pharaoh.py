"""Pharaoh board: the cross-shaped 5x5 grid seen from above, reserves beside each edge, the dice, goal lines.

North is at the top, so seat 1 (south) reads the board the right way up. Every cell carries its name (the
notation is ``M c3``), pyramids are squares sized by their pips with their colour letter and pip count on a flat
plate (the ridges stop at it), seats are named by their players (by their colour when the view has no names),
and the goal cells are tinted while a key in the top-left corner draws the goal lines: drawn across the board,
four lines through c3 hid the centre.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from PIL import Image, ImageDraw

from i18n import listing, ntranslate

from .alt import compose
from .common import (
    COLOUR_LETTERS,
    COLOURS,
    IMAGE,
    centred_text,
    fit_text,
    font,
    label_plate,
    new_canvas,
    seat_label,
    tint,
)
from .common import image_words as _t

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
#: text size of a small, medium and large pyramid's label
LABEL_PX = (16, 20, 20)
#: the goal lines' key, in the free square left of the north reserve band
GOAL_KEY_BOX = (8, HEADER + 4, BAND - 8, HEADER + BAND - 4)
KEY_CELL = 30


def render(view: dict[str, Any]) -> Image.Image:
    goal_lines = tuple(tuple(line) for line in view["goal_lines"])
    edge_cells = tuple(tuple(cells) for cells in view["edge_cells"])
    image = _static_board(goal_lines, edge_cells, tuple(view["colours"]), view.get("locale")).copy()
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
    goal_lines: tuple[tuple[str, ...], ...],
    edge_cells: tuple[tuple[str, ...], ...],
    colours: tuple[str, ...],
    locale: str | None = None,
) -> Image.Image:
    """What never changes during a game: cells, edges, names, goal lines (drawn once, copied per image)."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    fills = _cells(draw, goal_lines, edge_cells, colours)
    _cell_names(draw, fills)
    _goal_key(draw, goal_lines, locale)
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
                fill = tint(colours[edge_owner[cell]])
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


def _goal_key(
    draw: ImageDraw.ImageDraw, goal_lines: tuple[tuple[str, ...], ...], locale: str | None = None
) -> None:
    """The goal lines drawn on a small copy of the board's centre (b2-d4), beside the board."""
    left, top, right, _ = GOAL_KEY_BOX
    centred_text(draw, ((left + right) / 2, top + 10), _t(locale, "goal"), 16, fill=COLOURS["muted"])
    grid_left, grid_top = (left + right) / 2 - 1.5 * KEY_CELL, top + 26

    def centre(cell: str) -> tuple[float, float]:
        file, rank = FILES.index(cell[0]) - 1, int(cell[1]) - 2
        return grid_left + (file + 0.5) * KEY_CELL, grid_top + (2 - rank + 0.5) * KEY_CELL

    goal_cells = {cell for line in goal_lines for cell in line}
    for file in FILES[1:4]:
        for rank in range(2, 5):
            x, y = centre(f"{file}{rank}")
            half = KEY_CELL / 2
            fill = COLOURS["sand"] if f"{file}{rank}" in goal_cells else COLOURS["panel"]
            draw.rectangle((x - half, y - half, x + half, y + half), fill=fill, outline=COLOURS["ink"])
    for line in goal_lines:
        draw.line((*centre(line[0]), *centre(line[-1])), fill=COLOURS["brown"], width=4)


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
    size = LABEL_PX[piece]
    # a flat plate under the label: the ridges meet where the label sits, and crossing its letters they made
    # "Y1" unreadable on a phone
    plate, ink = label_plate(fill)
    left, top, right, bottom = font(size).getbbox(label, anchor="mm")
    draw.rounded_rectangle((x + left - 4, y + top - 4, x + right + 4, y + bottom + 4), radius=4, fill=plate)
    centred_text(draw, (x, y), label, size, fill=ink)


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
        centres: list[tuple[float, float]] = [(BOARD_X + CELL * (1.5 + i), slots_y) for i in range(3)]
        label_xy: tuple[float, float] = (WIDTH / 2, label_y)
    else:
        band_left = 0 if edge == "west" else BAND + BOARD
        centres = [(band_left + BAND / 2, BOARD_Y + CELL * (1.5 + i)) for i in range(3)]
        label_xy = (band_left + BAND / 2, BOARD_Y + CELL * 0.5)
    name = _name(view, seat)
    if view["to_move"] == seat and view.get("winner") is None and not view.get("draw"):
        name = f"> {name} <"
    width = BAND - 8 if edge in ("west", "east") else BOARD
    text, size = fit_text(name, width, 20)
    centred_text(draw, label_xy, text, size, fill=COLOURS[colour] if colour != "yellow" else COLOURS["ink"])
    for slot, piece in enumerate(sorted(waiting, reverse=True)):
        _pyramid(draw, centres[slot], piece, colour)


# ---- header and footer ------------------------------------------------------------------------------------------
def _name(view: dict[str, Any], seat: int) -> str:
    """The player's name, or the seat's colour ("Yellow") when the view carries no names."""
    colour = _t(view.get("locale"), str(view["colours"][seat]))
    return seat_label(view, seat, fallback=colour[:1].upper() + colour[1:])


def _who(view: dict[str, Any], seat: int) -> str:
    """A player's name with the colour the pieces show ("alice (yellow)"), or just the colour."""
    name, colour = _name(view, seat), _t(view.get("locale"), str(view["colours"][seat]))
    return name if name.lower() == colour.lower() else f"{name} ({colour})"


def _header(draw: ImageDraw.ImageDraw, view: dict[str, Any]) -> None:
    seat, locale = view["to_move"], view.get("locale")
    if view.get("winner") is not None:
        status = _t(
            locale, "{who} wins on {line}", who=_who(view, view["winner"]), line="-".join(view["win_line"])
        )
    elif view.get("draw"):
        status = ntranslate(locale, "Draw after {n} turn", "Draw after {n} turns", view["turn_limit"], IMAGE)
    else:
        status = _t(locale, "Turn {turn}: {who} to move", turn=view["turn"], who=_who(view, seat))
    roll = view["roll"]
    first_left = WIDTH - 16 - len(roll) * DIE - (len(roll) - 1) * 12  # the dice read left to right
    text, size = fit_text(status, first_left - 32, 26)
    draw.text((16, 18), text, font=font(size), fill=COLOURS["ink"])
    points = ntranslate(
        locale,
        "Rolled {roll}: {left} of {n} point left",
        "Rolled {roll}: {left} of {n} points left",
        view["points"],
        IMAGE,
        roll=sum(roll),
        left=view["left"],
    )
    draw.text((16, 62), points, font=font(20), fill=COLOURS["ink"])
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
    locale = view.get("locale")
    text = _t(locale, "Roll-off: {rolls}", rolls=" / ".join(parts)) if parts else ""
    lines = _t(locale, "goal: {lines}", lines=", ".join("-".join(line) for line in view["goal_lines"]))
    draw.text((16, HEIGHT - FOOTER + 12), f"{text}   {lines}".strip(), font=font(18), fill=COLOURS["muted"])


# ---- alt text -----------------------------------------------------------------------------------------------------
PIECE_WORDS = ("small", "medium", "large")


def alt_text(view: dict[str, Any]) -> str:
    """The turn and the dice, the last step, the goal lines, then where each player's pyramids stand."""
    locale = view.get("locale")
    sentences = [
        ntranslate(
            locale,
            "Pharaoh, {n} player: {status}.",
            "Pharaoh, {n} players: {status}.",
            view["players"],
            IMAGE,
            status=_status(view),
        )
    ]
    if view.get("winner") is None and not view.get("draw"):
        sentences.append(
            ntranslate(
                locale,
                "Rolled {roll}: {left} of {n} movement point left.",
                "Rolled {roll}: {left} of {n} movement points left.",
                view["points"],
                IMAGE,
                roll=listing(locale, [str(value) for value in view["roll"]]),
                left=view["left"],
            )
        )
    if view.get("last"):
        sentences.append(_t(locale, "Last step: {step}.", step=_last_text(view, view["last"])))
    lines = listing(locale, ["-".join(line) for line in view["goal_lines"]])
    sentences.append(_t(locale, "Goal lines: {lines}.", lines=lines))
    sentences += [f"{_pieces_text(view, seat)}." for seat in range(view["players"])]
    return compose(sentences)


def player_label(view: dict[str, Any], seat: int) -> str:
    return _who(view, seat)


def _status(view: dict[str, Any]) -> str:
    locale = view.get("locale")
    if view.get("winner") is not None:
        return _t(
            locale, "{who} wins on {line}", who=_who(view, view["winner"]), line="-".join(view["win_line"])
        )
    if view.get("draw"):
        return ntranslate(
            locale, "a draw after {n} turn", "a draw after {n} turns", view["turn_limit"], IMAGE
        )
    return _t(locale, "turn {turn}, {who} to move", turn=view["turn"], who=_who(view, view["to_move"]))


def _pieces_text(view: dict[str, Any], seat: int) -> str:
    """A player's pyramids: alice (red, south edge): small on b1, medium on c3, large in reserve."""
    locale = view.get("locale")
    places = [
        _t(locale, f"{PIECE_WORDS[piece]} on {{cell}}", cell=cell)
        if cell
        else _t(locale, f"{PIECE_WORDS[piece]} in reserve")
        for piece, cell in enumerate(view["pieces"][seat])
    ]
    return _t(
        locale,
        "{name} ({colour}, {edge}): {places}",
        name=_name(view, seat),
        colour=_t(locale, str(view["colours"][seat])),
        edge=_t(locale, f"{view['edges'][seat]} edge"),
        places=", ".join(places),
    )


def _last_text(view: dict[str, Any], last: dict[str, Any]) -> str:
    locale = view.get("locale")
    piece = PIECE_WORDS[last["piece"]]
    who = _name(view, last["seat"])
    if last["from"] is None:
        text = _t(locale, f"{{who}}'s {piece} entered at {{cell}}", who=who, cell=last["to"])
    else:
        text = _t(
            locale,
            f"{{who}}'s {piece} moved {{here}} to {{there}}",
            who=who,
            here=last["from"],
            there=last["to"],
        )
    captured = last.get("captured")
    if captured:
        owner, lost = captured
        text += _t(locale, f", capturing {{who}}'s {PIECE_WORDS[lost]}", who=_name(view, owner))
    return text
