"""The Prince: the island as one viewer knows it, with a side panel of castles.

The renderer only reads a view, so fog is automatic: a seat's view lists the tiles that seat has seen, the
public view in phase 1 lists none (the image then shows only how many castles each side has built). In phase 2
the whole island is drawn with every castle, its offence/defence/bonus and damage, the Imperial Guards once
revealed and, after a battle, its attacks as arrows (dashed when a Guard stopped them).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from rules.engine import name_seats
from rules.the_prince.board import COLUMNS, SIZE, parse_tile, parse_tile_token, xy

from .common import COLOURS, centred_text, font, new_canvas, text_colour_on

CELL = 64
MARGIN = 34  # room for the column letters and row numbers
HEADER = 60
PANEL = 430
BOARD = CELL * SIZE
WIDTH = MARGIN + BOARD + 20 + PANEL
HEIGHT = HEADER + MARGIN + BOARD + 20
SEAT_COLOURS = ("red", "blue")
#: unseen tiles: a dark grey of the palette's grey ramp, far from every terrain colour
FOG_RGB = (64, 64, 64)
RESOURCE_BADGES = {"iron": ("I", "black"), "stone": ("S", "white"), "gold": ("G", "yellow")}
PHASE_NAMES = {
    "landing": "landing",
    "explore": "exploring",
    "hide": "hiding the Princes",
    "plan": "planning the battle",
    "over": "game over",
}

Draw = ImageDraw.ImageDraw


def render(view: dict[str, Any]) -> Image.Image:
    if "tiles" not in view:
        image, draw = new_canvas(WIDTH, HEIGHT)
        centred_text(draw, (WIDTH / 2, HEADER / 2), _title(view), 26)
        _draw_fogged_public(draw, view)
        return image
    image = _terrain_layer(tuple(view["tiles"])).copy()
    draw = ImageDraw.Draw(image)
    centred_text(draw, (WIDTH / 2, HEADER / 2), _title(view), 26)
    _draw_board(draw, view)
    _draw_panel(draw, view)
    return image


def _title(view: dict[str, Any]) -> str:
    result = view.get("result")
    if result:
        reason = name_seats(result["reason"], view.get("seat_names") or [])
        return "The Prince - " + (f"draw: {reason}" if result["draw"] else reason)
    phase = view["phase"]
    if phase in ("landing", "explore"):
        stage = f"turn {view['turn']}, {PHASE_NAMES[phase]}"
    else:
        stage = f"battle {view['battle']} of {view['max_battles']}, {PHASE_NAMES[phase]}"
    who = "public view" if view["seat"] is None else f"seat {view['seat'] + 1}'s view"
    return f"The Prince - {stage} ({who})"


def _cell_box(index: int) -> tuple[float, float, float, float]:
    x, y = xy(index)
    left, top = MARGIN + x * CELL, HEADER + MARGIN + y * CELL
    return left, top, left + CELL, top + CELL


def _castle_centre(index: int) -> tuple[float, float]:
    """Where a castle is drawn: the lower right of its tile (see :func:`_draw_castle`)."""
    _, _, right, bottom = _cell_box(index)
    return right - 19, bottom - 18


def _tile_index(place: str) -> int:
    index = parse_tile(place)
    if index is None:
        raise ValueError(f"bad tile {place!r} in a view")
    return index


# ---- the board ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _terrain_layer(tiles: tuple[str, ...]) -> Image.Image:
    """The island as these tile tokens show it, with coordinates: the same for every image of a phase 2 game
    (and for the three views of it), so it is drawn once and copied (notes/performance.md)."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    for index in range(SIZE * SIZE):
        draw.rectangle(_cell_box(index), fill=FOG_RGB, outline=COLOURS["grid"])
    for token in tiles:
        index, tile = parse_tile_token(token)
        draw.rectangle(_cell_box(index), fill=COLOURS[tile[0]], outline=COLOURS["grid"])
        if tile[1]:
            left, top, _, _ = _cell_box(index)
            sprite = _resource_sprite(tile[1], tile[2])
            image.paste(sprite, (int(left) + 3, int(top) + 3), sprite)
    for position in range(SIZE):
        centred_text(draw, (MARGIN + position * CELL + CELL / 2, HEADER + MARGIN / 2), COLUMNS[position], 18)
        centred_text(draw, (MARGIN / 2, HEADER + MARGIN + position * CELL + CELL / 2), str(position + 1), 18)
    return image


def _draw_board(draw: Draw, view: dict[str, Any]) -> None:
    for castle in view["castles"]:
        _draw_castle(draw, view, castle)
    for token in view.get("taken", []):
        _draw_known_site(draw, _tile_index(token.split("@")[1]), 1 - int(token.split(":")[1].split("@")[0]))
    for token in view.get("princes", []):
        owner, place = token.split(":")[1].split("@")
        _draw_prince(draw, _tile_index(place), int(owner))
    if view.get("last_battle") and view["phase"] in ("hide", "plan", "over"):
        _draw_attacks(draw, view)


@lru_cache(maxsize=16)
def _resource_sprite(resource: str, amount: int) -> Image.Image:
    """A resource badge (``I2``: iron, yield 2), drawn once: text is most of a board's drawing time."""
    letter, colour = RESOURCE_BADGES[resource]
    sprite = Image.new("RGBA", (31, 23), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    draw.rounded_rectangle((0, 0, 30, 22), radius=5, fill=COLOURS[colour], outline=COLOURS["ink"])
    centred_text(draw, (15, 11.5), f"{letter}{amount}", 16, fill=text_colour_on(COLOURS[colour]))
    return sprite


def _castle_tile(view: dict[str, Any], owner: int, number: int) -> int | None:
    for castle in view["castles"]:
        if castle["seat"] == owner and castle["number"] == number:
            return _tile_index(castle["tile"])
    return None


def _draw_castle(draw: Draw, view: dict[str, Any], castle: dict[str, Any]) -> None:
    """A crenellated block in the lower right of its tile (the resource badge keeps the upper left)."""
    index = _tile_index(castle["tile"])
    left, top, right, bottom = _cell_box(index)
    colour = COLOURS[SEAT_COLOURS[castle["seat"]]] if castle["alive"] else COLOURS["grey"]
    box = (right - 33, bottom - 30, right - 5, bottom - 6)
    draw.rectangle(box, fill=colour, outline=COLOURS["ink"], width=2)
    for tower in (0, 10, 20):  # crenellations, so a castle reads as a castle at a glance
        draw.rectangle(
            (box[0] + tower, box[1] - 7, box[0] + tower + 8, box[1]), fill=colour, outline=COLOURS["ink"]
        )
    centred_text(
        draw,
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1),
        str(castle["number"]),
        18,
        fill=text_colour_on(colour),
    )
    if not castle["alive"]:
        draw.line((box[0], box[1], box[2], box[3]), fill=COLOURS["ink"], width=3)
        draw.line((box[0], box[3], box[2], box[1]), fill=COLOURS["ink"], width=3)
    guards = view.get("guards") or [None, None]
    if guards[castle["seat"]] == castle["number"]:
        _badge(draw, (right - 18, top + 14), "IG", "highlight")
    if f"prince-in:{castle['seat']}#{castle['number']}" in view.get("prince_in", []):
        _draw_prince(draw, index, castle["seat"])


def _draw_known_site(draw: Draw, index: int, owner: int) -> None:
    """An enemy castle out of sight that a failed build revealed: an outline with a question mark."""
    _, _, right, bottom = _cell_box(index)
    box = (right - 33, bottom - 30, right - 5, bottom - 6)
    draw.rectangle(box, outline=COLOURS[SEAT_COLOURS[owner]], width=3)
    centred_text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), "?", 18, fill=COLOURS["white"])


def _badge(draw: Draw, centre: tuple[float, float], text: str, colour: str) -> None:
    x, y = centre
    half = 4 + 5 * len(text)
    draw.rounded_rectangle(
        (x - half, y - 11, x + half, y + 11), radius=8, fill=COLOURS[colour], outline=COLOURS["ink"], width=2
    )
    centred_text(draw, centre, text, 16, fill=text_colour_on(COLOURS[colour]))


def _draw_prince(draw: Draw, index: int, owner: int) -> None:
    """A ringed P in the lower left of the tile: the explorer in phase 1, your hidden Prince in phase 2."""
    left, _, _, bottom = _cell_box(index)
    x, y = left + 15, bottom - 16
    fill = COLOURS[SEAT_COLOURS[owner]]
    draw.ellipse((x - 13, y - 13, x + 13, y + 13), fill=fill, outline=COLOURS["highlight"], width=3)
    centred_text(draw, (x, y), "P", 18, fill=text_colour_on(fill))


def _draw_attacks(draw: Draw, view: dict[str, Any]) -> None:
    report = view["last_battle"]
    for attack in report["attacks"]:
        start = _castle_tile(view, attack["seat"], attack["from"])
        end = _castle_tile(view, 1 - attack["seat"], attack["to"])
        if start is None or end is None:
            continue
        colour = COLOURS[SEAT_COLOURS[attack["seat"]]]
        shift = 6 if attack["seat"] == 0 else -6  # two opposite attacks on the same pair stay apart
        (x0, y0), (x1, y1) = _castle_centre(start), _castle_centre(end)
        _arrow(draw, (x0 + shift, y0 + shift), (x1 + shift, y1 + shift), colour, dashed=attack["stopped"])
        mx, my = (x0 + x1) / 2 + shift, (y0 + y1) / 2 + shift
        _badge(draw, (mx, my), "x" if attack["stopped"] else str(attack["offence"]), "white")


def _arrow(
    draw: Draw,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: tuple[int, int, int],
    dashed: bool,
) -> None:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tip = (x1 - ux * 18, y1 - uy * 18)  # stop short of the castle's centre so its number stays readable
    if dashed:
        steps = int(length // 14)
        for i in range(0, steps, 2):
            a, b = i * 14, min((i + 1) * 14, length - 18)
            if a < b:
                draw.line((x0 + ux * a, y0 + uy * a, x0 + ux * b, y0 + uy * b), fill=colour, width=4)
    else:
        draw.line((x0, y0, *tip), fill=colour, width=4)
    left = (tip[0] - ux * 14 - uy * 8, tip[1] - uy * 14 + ux * 8)
    right = (tip[0] - ux * 14 + uy * 8, tip[1] - uy * 14 - ux * 8)
    draw.polygon([tip, left, right], fill=colour, outline=COLOURS["ink"])


# ---- the side panel ----------------------------------------------------------------------------------------
def _draw_panel(draw: Draw, view: dict[str, Any]) -> None:
    x = MARGIN + BOARD + 20
    y = float(HEADER + MARGIN)
    for owner in (0, 1):
        y = _panel_side(draw, view, owner, x, y) + 12
    if view.get("last_battle") and view["phase"] in ("hide", "plan", "over"):
        y = _panel_attacks(draw, view["last_battle"], x, y) + 8
    lines = [
        "I iron = offence, S stone = defence,",
        "G gold = bonus (split each battle)",
        "IG Imperial Guard, P Prince",
    ]
    if view["phase"] in ("landing", "explore"):
        if view.get("taken"):
            lines.append("?: an enemy castle your failed build found")
        lines += [
            "Dark tiles: not seen yet.",
            f"From turn {view['forced_build_after'] + 1} a player short of castles must build.",
        ]
    for text in lines:
        draw.text((x, y), text, font=font(17), fill=COLOURS["muted"])
        y += 22
    _terrain_legend(draw, x, y + 6)


def _terrain_legend(draw: Draw, x: float, y: float) -> None:
    for number, terrain in enumerate(("plains", "forest", "hills", "mountains", "water")):
        left = x + (number % 3) * 140
        top = y + (number // 3) * 26
        draw.rectangle((left, top + 2, left + 18, top + 20), fill=COLOURS[terrain], outline=COLOURS["ink"])
        draw.text((left + 24, top), terrain, font=font(17), fill=COLOURS["muted"])


def _panel_attacks(draw: Draw, report: dict[str, Any], x: float, y: float) -> float:
    """The last battle's attacks in each side's order, ``5>3 8`` (castle 5 hit castle 3 for 8), wrapped."""
    draw.text(
        (x, y),
        f"Battle {report['battle']} attacks (x = stopped by the Guard):",
        font=font(18),
        fill=COLOURS["ink"],
    )
    y += 24
    for owner in (0, 1):
        entries = [
            f"{a['from']}>{a['to']} " + ("x" if a["stopped"] else str(a["offence"]))
            for a in report["attacks"]
            if a["seat"] == owner
        ] or ["none"]
        rows = [entries[i : i + 4] for i in range(0, len(entries), 4)]
        for number, row in enumerate(rows):
            lead = f"Seat {owner + 1}: " if number == 0 else "        "
            draw.text((x + 8, y), lead + ", ".join(row), font=font(18), fill=COLOURS[SEAT_COLOURS[owner]])
            y += 24
    return y


def _panel_side(draw: Draw, view: dict[str, Any], owner: int, x: float, y: float) -> float:
    colour = SEAT_COLOURS[owner]
    you = " (you)" if view["seat"] == owner else ""
    sealed = "  sealed" if view["sealed_seats"][owner] else ""
    draw.rectangle((x, y + 2, x + 18, y + 20), fill=COLOURS[colour], outline=COLOURS["ink"])
    draw.text(
        (x + 26, y),
        f"Seat {owner + 1}{you}: {view['castle_counts'][owner]}/5 castles{sealed}",
        font=font(20),
        fill=COLOURS["ink"],
    )
    y += 30
    phase_one = view["phase"] in ("landing", "explore")
    for castle in view["castles"]:
        if castle["seat"] != owner:
            continue
        text = (
            f"#{castle['number']} {castle['tile']}: O{castle['offence']} D{castle['defence']} "
            f"B{castle['bonus']}"
        )
        if (view.get("guards") or [None, None])[owner] == castle["number"]:
            text += " IG"
        if phase_one:
            text += "  (seen so far)"
        elif not castle["alive"]:
            text += f"  destroyed (dmg {castle['damage']})"
        elif castle["damage"]:
            text += f"  dmg {castle['damage']}"
        draw.text(
            (x + 8, y), text, font=font(18), fill=COLOURS["ink"] if castle["alive"] else COLOURS["muted"]
        )
        y += 24
    return y


# ---- phase 1, public ---------------------------------------------------------------------------------------
def _draw_fogged_public(draw: Draw, view: dict[str, Any]) -> None:
    """No terrain and no positions: only who has built how many castles and who has sealed."""
    centred_text(draw, (WIDTH / 2, HEADER + 70), "The island lies in fog: the Princes explore in secret.", 24)
    for owner in (0, 1):
        top = HEADER + 160 + owner * 190
        built = view["castle_counts"][owner]
        sealed = ", sealed this turn" if view["sealed_seats"][owner] else ""
        centred_text(draw, (WIDTH / 2, top), f"Seat {owner + 1}: {built} of 5 castles built{sealed}", 24)
        for slot in range(5):
            cx = WIDTH / 2 + (slot - 2) * 90
            fill = COLOURS[SEAT_COLOURS[owner]] if slot < built else COLOURS["background"]
            draw.rectangle(
                (cx - 30, top + 50, cx + 30, top + 110), fill=fill, outline=COLOURS["ink"], width=3
            )
            for tower in (-30, -6, 18):
                draw.rectangle(
                    (cx + tower, top + 36, cx + tower + 12, top + 50),
                    fill=fill,
                    outline=COLOURS["ink"],
                    width=2,
                )
            centred_text(draw, (cx, top + 80), str(slot + 1), 22, fill=text_colour_on(fill))
