"""The Prince: the island as one viewer knows it, with the castles' panel under it (portrait, for phones).

The renderer only reads a view, so fog is automatic: a seat's view lists the tiles that seat has seen, the
public view in phase 1 lists none (the image then shows only how many castles each side has built). The outer
ring of the island is water in every game, so every seat's image draws it, and at the landing the coastal tiles
of the viewer's half, where the Prince may land, are framed. In phase 2 the whole island is drawn with every
castle, its offence/defence/bonus and damage, the Imperial Guards once revealed and, after a battle, its attacks
as arrows (dashed when a Guard stopped them) drawn under the castles and Princes, each with its strength on a
badge in the attacker's colour placed clear of every castle, Prince and Guard.

Every word drawn and the alt text are in the reader's language (``view["locale"]``, catalog context ``image``),
the letters too (Polish: resources Ż/K/Z, a castle's A/O/P, SC for the Guard, Ks for the Prince); the cached
resource badges are keyed by their letter, the cached terrain layer by the language.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from i18n import listing as say_listing
from i18n import localize
from rules.engine import name_seats
from rules.the_prince.board import (
    COLUMNS,
    SIZE,
    TERRAINS,
    TILES,
    landing_tiles,
    on_ring,
    parse_tile,
    parse_tile_token,
    xy,
)
from rules.the_prince.board import name as name_of

from .alt import compose, named, reason
from .common import COLOURS, centred_text, fit_text, font, new_canvas, seat_label, text_colour_on
from .common import image_words as _t

CELL = 64
MARGIN = 34  # room for the column letters and row numbers
HEADER = 56
BOARD = CELL * SIZE
BOARD_LEFT, BOARD_TOP = MARGIN, HEADER + MARGIN
WIDTH = MARGIN + BOARD + 16
PANEL_TOP = BOARD_TOP + BOARD + 16
PANEL_COLUMN = (WIDTH - 24) // 2
HEIGHT = PANEL_TOP + 356
#: text sizes of the panel: read on a phone with the image scaled to the screen's width (about 0.6)
TEXT = {"title": 24, "side": 22, "line": 20, "legend": 18}
SEAT_COLOURS = ("red", "blue")
#: unseen tiles: a dark grey of the palette's grey ramp, far from every terrain colour
FOG_RGB = (64, 64, 64)
#: a resource's badge: its letter (the initial of its name in the reader's language) and colour
RESOURCE_BADGES = {"iron": ("I", "black"), "stone": ("S", "white"), "gold": ("G", "yellow")}
PHASE_NAMES = {
    "landing": "landing",
    "explore": "exploring",
    "hide": "hiding the Princes",
    "plan": "planning the battle",
    "over": "game over",
}

Draw = ImageDraw.ImageDraw
Box = tuple[float, float, float, float]


def render(view: dict[str, Any]) -> Image.Image:
    if "tiles" not in view:
        image, draw = new_canvas(WIDTH, HEIGHT)
        _title(draw, view)
        _draw_fogged_public(draw, view)
        return image
    image = _terrain_layer(tuple(view["tiles"]), view.get("locale")).copy()
    draw = ImageDraw.Draw(image)
    _title(draw, view)
    _draw_board(draw, view)
    _draw_panel(draw, view)
    return image


def _name(view: dict[str, Any], seat: int) -> str:
    """The player's name, or the side's colour when the view carries no names."""
    return seat_label(view, seat, fallback=_t(view.get("locale"), SEAT_COLOURS[seat].capitalize()))


def _stage(view: dict[str, Any]) -> str:
    """ "turn 3, exploring", "battle 2 of 15, planning the battle" in the reader's language."""
    locale, phase = view.get("locale"), view["phase"]
    name = _t(locale, PHASE_NAMES[phase])
    if phase in ("landing", "explore"):
        return _t(locale, "turn {turn}, {phase}", turn=view["turn"], phase=name)
    return _t(
        locale,
        "battle {battle} of {total}, {phase}",
        battle=view["battle"],
        total=view["max_battles"],
        phase=name,
    )


def _whose_view(view: dict[str, Any]) -> str:
    if view.get("seat") is None:
        return _t(view.get("locale"), "public view")
    return _t(view.get("locale"), "{who}'s view", who=_name(view, view["seat"]))


def _title(draw: Draw, view: dict[str, Any]) -> None:
    result, locale = view.get("result"), view.get("locale")
    if result:
        reason = localize(name_seats(result["reason"], view.get("seat_names") or []), locale)
        text = (
            _t(locale, "The Prince - draw: {reason}", reason=reason)
            if result["draw"]
            else _t(locale, "The Prince - {reason}", reason=reason)
        )
    else:
        text = _t(locale, "The Prince - {stage} ({whose})", stage=_stage(view), whose=_whose_view(view))
    fitted, size = fit_text(text, WIDTH - 24, TEXT["title"])
    centred_text(draw, (WIDTH / 2, HEADER / 2), fitted, size)


def _cell_box(index: int) -> Box:
    x, y = xy(index)
    left, top = BOARD_LEFT + x * CELL, BOARD_TOP + y * CELL
    return left, top, left + CELL, top + CELL


def castle_box(index: int) -> Box:
    """Where a castle is drawn, crenellations included: the lower right of its tile."""
    _, _, right, bottom = _cell_box(index)
    return right - 33, bottom - 37, right - 5, bottom - 6


def prince_box(index: int) -> Box:
    """Where a Prince marker is drawn, its ring included: the lower left of its tile."""
    left, _, _, bottom = _cell_box(index)
    return left + 1, bottom - 30, left + 29, bottom - 2


def guard_box(index: int) -> Box:
    """Where the Imperial Guard's badge is drawn: the upper right of its castle's tile."""
    _, top, right, _ = _cell_box(index)
    return right - 33, top + 2, right - 3, top + 26


def _resource_box(index: int) -> Box:
    left, top, _, _ = _cell_box(index)
    return left + 3, top + 3, left + 34, top + 26


def _centre(box: Box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _tile_index(place: str) -> int:
    index = parse_tile(place)
    if index is None:
        raise ValueError(f"bad tile {place!r} in a view")
    return index


# ---- the board ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=16)
def _terrain_layer(tiles: tuple[str, ...], locale: str | None = None) -> Image.Image:
    """The island as these tile tokens show it, with coordinates: the same for every image of a phase 2 game
    (and for the three views of it), so it is drawn once and copied (docs/notes/performance.md). The outer ring is
    water in every game, so it is drawn as water even where the viewer has not looked. The resource badges'
    letters are the reader's language's (the language is part of the cache key)."""
    image, draw = new_canvas(WIDTH, HEIGHT)
    for index in range(TILES):
        fill = COLOURS["water"] if on_ring(index) else FOG_RGB
        draw.rectangle(_cell_box(index), fill=fill, outline=COLOURS["grid"])
    for token in tiles:
        index, tile = parse_tile_token(token)
        draw.rectangle(_cell_box(index), fill=COLOURS[tile[0]], outline=COLOURS["grid"])
        if tile[1]:
            left, top, _, _ = _cell_box(index)
            sprite = _resource_sprite(tile[1], tile[2], _t(locale, RESOURCE_BADGES[tile[1]][0]))
            image.paste(sprite, (int(left) + 3, int(top) + 3), sprite)
    for position in range(SIZE):
        centred_text(
            draw, (BOARD_LEFT + position * CELL + CELL / 2, HEADER + MARGIN / 2), COLUMNS[position], 18
        )
        centred_text(draw, (MARGIN / 2, BOARD_TOP + position * CELL + CELL / 2), str(position + 1), 18)
    return image


def landing_marks(view: dict[str, Any]) -> list[int]:
    """The tiles a seat's landing image frames: the coastal tiles of its half. Every seat knows them before
    seeing anything, since only the outer ring is water, so they follow from the ring alone."""
    if view.get("seat") is None or view.get("phase") != "landing":
        return []
    known = [["water", "", 0] if on_ring(index) else ["land", "", 0] for index in range(TILES)]
    return landing_tiles(known, view["seat"])


def _chosen_landing(view: dict[str, Any]) -> int | None:
    """The tile this seat has sealed its landing on (its own view shows its own sealed choice)."""
    sealed = str(view.get("sealed") or "")
    words = sealed.rsplit(":", 1)[-1].split()
    return parse_tile(words[1]) if len(words) == 2 and words[0] == "land" else None


def _draw_landing(draw: Draw, view: dict[str, Any]) -> None:
    """A highlighted frame on every tile the Prince may land on; a thicker one with a P on the sealed choice."""
    chosen = _chosen_landing(view)
    for index in landing_marks(view):
        left, top, right, bottom = _cell_box(index)
        width = 7 if index == chosen else 4
        draw.rectangle((left + 3, top + 3, right - 3, bottom - 3), outline=COLOURS["highlight"], width=width)
    if chosen is not None:
        _draw_prince(draw, chosen, view["seat"], view.get("locale"))


def _draw_board(draw: Draw, view: dict[str, Any]) -> None:
    _draw_landing(draw, view)
    attacks = _attacks(view) if view.get("last_battle") and view["phase"] in ("hide", "plan", "over") else []
    for attack in attacks:  # under the castles and Princes: an arrow never hides what it points at
        _arrow(draw, attack.start, attack.end, attack.colour, attack.dashed)
    for castle in view["castles"]:
        _draw_castle(draw, view, castle)
    for token in view.get("taken", []):
        _draw_known_site(draw, _tile_index(token.split("@")[1]), 1 - int(token.split(":")[1].split("@")[0]))
    for token in view.get("princes", []):
        owner, place = token.split(":")[1].split("@")
        _draw_prince(draw, _tile_index(place), int(owner), view.get("locale"))
    for attack, centre in zip(attacks, attack_label_centres(view, attacks), strict=True):
        _badge(draw, centre, attack.label, SEAT_COLOURS[attack.seat])


@lru_cache(maxsize=32)
def _resource_sprite(resource: str, amount: int, letter: str) -> Image.Image:
    """A resource badge (``I2``: iron, yield 2; ``letter`` is the resource's initial in the reader's language),
    drawn once: text is most of a board's drawing time."""
    colour = RESOURCE_BADGES[resource][1]
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
    colour = COLOURS[SEAT_COLOURS[castle["seat"]]] if castle["alive"] else COLOURS["grey"]
    left, top, right, bottom = castle_box(index)
    box = (left, top + 7, right, bottom)
    draw.rectangle(box, fill=colour, outline=COLOURS["ink"], width=2)
    for tower in (0, 10, 20):  # crenellations, so a castle reads as a castle at a glance
        draw.rectangle((left + tower, top, left + tower + 8, top + 7), fill=colour, outline=COLOURS["ink"])
    centred_text(draw, _centre(box), str(castle["number"]), 18, fill=text_colour_on(colour))
    if not castle["alive"]:
        draw.line((box[0], box[1], box[2], box[3]), fill=COLOURS["ink"], width=3)
        draw.line((box[0], box[3], box[2], box[1]), fill=COLOURS["ink"], width=3)
    guards = view.get("guards") or [None, None]
    if guards[castle["seat"]] == castle["number"]:
        _badge(draw, _centre(guard_box(index)), _t(view.get("locale"), "IG"), "highlight")
    if f"prince-in:{castle['seat']}#{castle['number']}" in view.get("prince_in", []):
        _draw_prince(draw, index, castle["seat"], view.get("locale"))


def _draw_known_site(draw: Draw, index: int, owner: int) -> None:
    """An enemy castle out of sight that a failed build revealed: an outline with a question mark."""
    left, top, right, bottom = castle_box(index)
    box = (left, top + 7, right, bottom)
    draw.rectangle(box, outline=COLOURS[SEAT_COLOURS[owner]], width=3)
    centred_text(draw, _centre(box), "?", 18, fill=COLOURS["white"])


def _badge_half(text: str) -> float:
    return 4 + 5 * len(text)


def _badge(draw: Draw, centre: tuple[float, float], text: str, colour: str) -> None:
    x, y = centre
    half = _badge_half(text)
    fill = COLOURS[colour]
    draw.rounded_rectangle(
        (x - half, y - 11, x + half, y + 11), radius=8, fill=fill, outline=COLOURS["ink"], width=2
    )
    centred_text(draw, centre, text, 16, fill=text_colour_on(fill))


def _draw_prince(draw: Draw, index: int, owner: int, locale: str | None = None) -> None:
    """A ringed P in the lower left of the tile: the explorer in phase 1, your hidden Prince in phase 2."""
    x, y = _centre(prince_box(index))
    fill = COLOURS[SEAT_COLOURS[owner]]
    draw.ellipse((x - 13, y - 13, x + 13, y + 13), fill=fill, outline=COLOURS["highlight"], width=3)
    centred_text(draw, (x, y), _t(locale, "P"), 18, fill=text_colour_on(fill))


# ---- the last battle's attacks -------------------------------------------------------------------------------
class _Attack:
    """One attack as drawn: from the edge of the attacker's castle to the edge of the target's."""

    def __init__(
        self, seat: int, start: tuple[float, float], end: tuple[float, float], label: str, dashed: bool
    ):
        self.seat, self.start, self.end, self.label, self.dashed = seat, start, end, label, dashed
        self.colour = COLOURS[SEAT_COLOURS[seat]]


def _exit_distance(box: Box, ux: float, uy: float) -> float:
    """How far a ray from the box's centre along the unit vector (ux, uy) runs before it leaves the box."""
    half_width, half_height = (box[2] - box[0]) / 2, (box[3] - box[1]) / 2
    limits = [half_width / abs(ux)] if ux else []
    limits += [half_height / abs(uy)] if uy else []
    return min(limits)


def _attacks(view: dict[str, Any]) -> list[_Attack]:
    drawn = []
    pairs = {(a["seat"], a["from"], a["to"]) for a in view["last_battle"]["attacks"]}
    for attack in view["last_battle"]["attacks"]:
        start_tile = _castle_tile(view, attack["seat"], attack["from"])
        end_tile = _castle_tile(view, 1 - attack["seat"], attack["to"])
        if start_tile is None or end_tile is None:
            continue
        source, target = castle_box(start_tile), castle_box(end_tile)
        (x0, y0), (x1, y1) = _centre(source), _centre(target)
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        # an attack answered by one the other way between the same castles keeps to its own lane (the same
        # shift to the side of opposite directions puts the two arrows on opposite sides)
        shift = 9 if (1 - attack["seat"], attack["to"], attack["from"]) in pairs else 0
        sx, sy = -uy * shift, ux * shift
        leave = _exit_distance(source, ux, uy) + 3
        arrive = length - _exit_distance(target, ux, uy) - 3
        start = (x0 + ux * leave + sx, y0 + uy * leave + sy)
        end = (x0 + ux * arrive + sx, y0 + uy * arrive + sy)
        label = "x" if attack["stopped"] else str(attack["offence"])
        drawn.append(_Attack(attack["seat"], start, end, label, attack["stopped"]))
    return drawn


def _markers(view: dict[str, Any]) -> list[Box]:
    """Every castle, known site, Guard and Prince marker the image shows: no attack badge may cover one."""
    boxes = [castle_box(_tile_index(castle["tile"])) for castle in view["castles"]]
    boxes += [castle_box(_tile_index(token.split("@")[1])) for token in view.get("taken", [])]
    guards = view.get("guards") or [None, None]
    for castle in view["castles"]:
        index = _tile_index(castle["tile"])
        if guards[castle["seat"]] == castle["number"]:
            boxes.append(guard_box(index))
        if f"prince-in:{castle['seat']}#{castle['number']}" in view.get("prince_in", []):
            boxes.append(prince_box(index))
    boxes += [prince_box(_tile_index(token.split("@")[1])) for token in view.get("princes", [])]
    return boxes


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


#: where along an arrow (share of its length) and how far beside it (px) a badge may go, best first
_BADGE_ALONG = (0.5, 0.35, 0.65, 0.2, 0.8)
_BADGE_BESIDE = (0, 16, -16, 28, -28, 40, -40, 52, -52)
#: what a badge's spot costs when its box covers each kind of thing: a marker or another badge must stay
#: visible; an arrowhead shows an attack's direction; a resource badge can be read in the panel's numbers
_COVER_COST = {"marker": 1000, "off board": 1000, "arrowhead": 100, "resource": 10}


def _head_box(attack: _Attack) -> Box:
    (x0, y0), (x1, y1) = attack.start, attack.end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    head = min(14.0, length * 0.6)
    bx, by = x1 - (x1 - x0) / length * head, y1 - (y1 - y0) / length * head
    return min(x1, bx) - 8, min(y1, by) - 8, max(x1, bx) + 8, max(y1, by) + 8


def attack_label_centres(
    view: dict[str, Any], attacks: list[_Attack] | None = None
) -> list[tuple[float, float]]:
    """Where each attack's badge goes: the spot along or beside its arrow that covers the least (no castle,
    Guard, Prince marker or earlier badge where any spot allows, then no arrowhead, then no resource badge),
    the earliest of equal ones (on the arrow's middle first)."""
    if attacks is None:
        attacks = _attacks(view) if view.get("last_battle") else []
    markers = _markers(view)
    heads = [_head_box(attack) for attack in attacks]
    resources = [
        _resource_box(parse_tile_token(token)[0])
        for token in view.get("tiles", [])
        if token.split(":")[3] != "-"
    ]
    board = (BOARD_LEFT, BOARD_TOP, BOARD_LEFT + BOARD, BOARD_TOP + BOARD)
    placed: list[Box] = []
    centres = []
    for attack in attacks:
        (x0, y0), (x1, y1) = attack.start, attack.end
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        half = _badge_half(attack.label) + 1
        best: tuple[float, float, Box] | None = None
        best_cost = math.inf
        for beside in _BADGE_BESIDE:
            for along in _BADGE_ALONG:
                x, y = x0 + (x1 - x0) * along + nx * beside, y0 + (y1 - y0) * along + ny * beside
                box = (x - half, y - 12, x + half, y + 12)
                cost = _COVER_COST["off board"] * (
                    not _overlaps(box, board)
                    or box[0] < board[0]
                    or box[2] > board[2]
                    or box[1] < board[1]
                    or box[3] > board[3]
                )
                cost += _COVER_COST["marker"] * any(_overlaps(box, other) for other in markers + placed)
                cost += _COVER_COST["arrowhead"] * sum(_overlaps(box, other) for other in heads)
                cost += _COVER_COST["resource"] * sum(_overlaps(box, other) for other in resources)
                if cost < best_cost:
                    best, best_cost = (x, y, box), cost
        assert best is not None
        placed.append(best[2])
        centres.append((best[0], best[1]))
    return centres


def _arrow(
    draw: Draw,
    start: tuple[float, float],
    end: tuple[float, float],
    colour: tuple[int, int, int],
    dashed: bool,
) -> None:
    """A line from ``start`` with its head's tip at ``end``, ink-edged so it shows on every terrain."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = min(14.0, length * 0.6)
    base = (x1 - ux * head, y1 - uy * head)
    if dashed:
        step = 10
        for a in range(0, int(length - head), 2 * step):
            b = min(a + step, length - head)
            draw.line((x0 + ux * a, y0 + uy * a, x0 + ux * b, y0 + uy * b), fill=colour, width=4)
    else:
        draw.line((x0, y0, *base), fill=colour, width=4)
    left = (base[0] - uy * 7, base[1] + ux * 7)
    right = (base[0] + uy * 7, base[1] - ux * 7)
    draw.polygon([end, left, right], fill=colour, outline=COLOURS["ink"])


# ---- the panel under the board --------------------------------------------------------------------------------
def _draw_panel(draw: Draw, view: dict[str, Any]) -> None:
    """Each side's castles and last attacks in a column, then the key across the width."""
    bottoms = []
    for owner in (0, 1):
        x = 12 + owner * (PANEL_COLUMN + 8)
        y = _panel_side(draw, view, owner, x, float(PANEL_TOP))
        if view.get("last_battle") and view["phase"] in ("hide", "plan", "over"):
            y = _panel_attacks(draw, view, owner, x, y)
        bottoms.append(y)
    _key(draw, view, 12, max(bottoms) + 8)


def _wrap(words: list[str], width: float, size: int, first: str) -> list[str]:
    lines = [first]
    for word in words:
        joined = f"{lines[-1]} {word}" if lines[-1] else word
        if lines[-1] and font(size).getlength(joined) > width:
            lines.append(word)
        else:
            lines[-1] = joined
    return lines


def _key(draw: Draw, view: dict[str, Any], x: float, y: float) -> None:
    size, locale = TEXT["legend"], view.get("locale")
    lines = [
        _t(locale, "I iron = offence, S stone = defence, G gold = bonus (split each battle)."),
        _t(locale, "IG Imperial Guard, P Prince."),
    ]
    if view.get("last_battle") and view["phase"] in ("hide", "plan", "over"):
        battle = view["last_battle"]["battle"]
        lines.append(
            _t(locale, "Arrows: battle {battle}'s attacks (dashed, x: stopped by the Guard).", battle=battle)
        )
    if view["phase"] in ("landing", "explore"):
        lines.append(_t(locale, "Dark tiles: not seen yet (the outer ring is always water)."))
        if landing_marks(view):
            lines.append(_t(locale, "Yellow frames: the coast of your half, where you may land."))
        if view.get("taken"):
            lines.append(_t(locale, "?: an enemy castle your failed build found."))
        lines.append(
            _t(
                locale,
                "From turn {turn} a player short of castles must build.",
                turn=view["forced_build_after"] + 1,
            )
        )
    for sentence in lines:
        for line in _wrap(sentence.split(), WIDTH - 2 * x, size, ""):
            draw.text((x, y), line, font=font(size), fill=COLOURS["muted"])
            y += 23
    _terrain_legend(draw, x, y + 4, locale)


def _terrain_legend(draw: Draw, x: float, y: float, locale: str | None = None) -> None:
    size = TEXT["legend"]
    for terrain in ("plains", "forest", "hills", "mountains", "water"):
        word = _t(locale, terrain)
        draw.rectangle((x, y + 2, x + 18, y + 20), fill=COLOURS[terrain], outline=COLOURS["ink"])
        draw.text((x + 24, y), word, font=font(size), fill=COLOURS["muted"])
        x += 24 + font(size).getlength(word) + 22


def _panel_attacks(draw: Draw, view: dict[str, Any], owner: int, x: float, y: float) -> float:
    """The side's attacks of the last battle in order, ``5>3 8`` (castle 5 hit castle 3 for 8), wrapped."""
    report, locale = view["last_battle"], view.get("locale")
    size = TEXT["line"]
    entries = [
        f"{a['from']}>{a['to']} " + ("x" if a["stopped"] else str(a["offence"]))
        for a in report["attacks"]
        if a["seat"] == owner
    ] or [_t(locale, "none")]
    items = [f"{entry}," for entry in entries[:-1]] + entries[-1:]
    for line in _wrap(items, PANEL_COLUMN - 8, size, _t(locale, "Battle {battle}:", battle=report["battle"])):
        draw.text((x, y), line, font=font(size), fill=COLOURS[SEAT_COLOURS[owner]])
        y += 26
    return y


def _panel_side(draw: Draw, view: dict[str, Any], owner: int, x: float, y: float) -> float:
    colour, locale = SEAT_COLOURS[owner], view.get("locale")
    draw.rectangle((x, y + 3, x + 18, y + 21), fill=COLOURS[colour], outline=COLOURS["ink"])
    built = view["castle_counts"][owner]
    if view["seat"] == owner:
        title = _t(locale, "{who} (you): {built}/5 castles", who=_name(view, owner), built=built)
    else:
        title = _t(locale, "{who}: {built}/5 castles", who=_name(view, owner), built=built)
    if view["sealed_seats"][owner]:
        title += _t(locale, ", sealed")
    text, size = fit_text(title, PANEL_COLUMN - 30, TEXT["side"])
    draw.text((x + 26, y), text, font=font(size), fill=COLOURS["ink"])
    y += 32
    phase_one = view["phase"] in ("landing", "explore")
    for castle in view["castles"]:
        if castle["seat"] != owner:
            continue
        text = _t(locale, "#{number} {tile}: O{offence} D{defence} B{bonus}", **castle)
        if (view.get("guards") or [None, None])[owner] == castle["number"]:
            text += " " + _t(locale, "IG")
        if phase_one:
            text += " " + _t(locale, "(so far)")
        elif not castle["alive"]:
            text += " " + _t(locale, "destroyed")
        elif castle["damage"]:
            text += " " + _t(locale, "dmg {damage}", damage=castle["damage"])
        draw.text(
            (x + 4, y),
            text,
            font=font(TEXT["line"]),
            fill=COLOURS["ink"] if castle["alive"] else COLOURS["muted"],
        )
        y += 26
    return y + 4


# ---- phase 1, public ---------------------------------------------------------------------------------------
def _draw_fogged_public(draw: Draw, view: dict[str, Any]) -> None:
    """No terrain and no positions: only who has built how many castles and who has sealed."""
    locale = view.get("locale")
    centred_text(draw, (WIDTH / 2, HEADER + 70), _t(locale, "The island lies in fog:"), 24)
    centred_text(draw, (WIDTH / 2, HEADER + 104), _t(locale, "the Princes explore in secret."), 24)
    for owner in (0, 1):
        top = HEADER + 200 + owner * 230
        built = view["castle_counts"][owner]
        line = _t(locale, "{who}: {built} of 5 castles built", who=_name(view, owner), built=built)
        if view["sealed_seats"][owner]:
            line += _t(locale, ", sealed this turn")
        text, size = fit_text(line, WIDTH - 24, 24)
        centred_text(draw, (WIDTH / 2, top), text, size)
        for slot in range(5):
            cx = WIDTH / 2 + (slot - 2) * 110
            fill = COLOURS[SEAT_COLOURS[owner]] if slot < built else COLOURS["background"]
            draw.rectangle(
                (cx - 34, top + 56, cx + 34, top + 124), fill=fill, outline=COLOURS["ink"], width=3
            )
            for tower in (-34, -7, 20):
                draw.rectangle(
                    (cx + tower, top + 40, cx + tower + 14, top + 56),
                    fill=fill,
                    outline=COLOURS["ink"],
                    width=2,
                )
            centred_text(draw, (cx, top + 90), str(slot + 1), 24, fill=text_colour_on(fill))


# ---- alt text -----------------------------------------------------------------------------------------------------
def alt_text(view: dict[str, Any]) -> str:
    """The stage and whose view it is, who has sealed, each side's castles, the Princes and Guards, the last
    battle's attacks, then the terrain the viewer knows, grouped by terrain. Nothing the image does not show.
    In the reader's language (``view["locale"]``)."""
    locale = view.get("locale")
    sentences = [_stage_text(view) + ".", _sealed_text(view)]
    sentences += _landing_sentences(view)
    sentences += [_castles_text(view, owner) for owner in (0, 1)]
    sentences += _prince_sentences(view)
    if view.get("last_battle") and view["phase"] in ("hide", "plan", "over"):
        sentences.append(_battle_text(view))
    if "tiles" not in view:
        sentences.append(_t(locale, "The island lies in fog: the Princes explore in secret."))
    else:
        sentences.append(_terrain_text(view))
    return compose(sentences)


def player_label(view: dict[str, Any], seat: int) -> str:
    """ "alice (red)": the side's colour is what the image and its arrows show."""
    return named(view, seat, _t(view.get("locale"), SEAT_COLOURS[seat]))


def _who(view: dict[str, Any], owner: int) -> str:
    """ "alice (red)", with "you" added in the seat's own view."""
    locale = view.get("locale")
    you = view.get("seat") == owner
    name = _name(view, owner)
    colour = _t(locale, SEAT_COLOURS[owner])
    if name.lower() == colour.lower() or name == _t(locale, SEAT_COLOURS[owner].capitalize()):
        return _t(locale, "{who} (you)", who=name) if you else name
    if you:
        return _t(locale, "{who} ({colour}, you)", who=name, colour=colour)
    return f"{name} ({colour})"


def _stage_text(view: dict[str, Any]) -> str:
    locale = view.get("locale")
    if view.get("result"):
        said = localize(reason(view, view["result"]["reason"]) + ".", locale).removesuffix(".")
        return _t(locale, "The Prince, game over ({whose}): {reason}", whose=_whose_view(view), reason=said)
    return _t(locale, "The Prince, {stage} ({whose})", stage=_stage(view), whose=_whose_view(view))


def _sealed_text(view: dict[str, Any]) -> str:
    if view.get("result"):
        return ""
    locale = view.get("locale")
    sealed = view["sealed_seats"]
    done = [_name(view, owner) for owner in (0, 1) if sealed[owner]]
    waiting = [_name(view, owner) for owner in (0, 1) if not sealed[owner]]
    parts = ([_t(locale, "sealed: {names}", names=say_listing(locale, done))] if done else []) + (
        [_t(locale, "to seal: {names}", names=say_listing(locale, waiting))] if waiting else []
    )
    return _t(locale, "Choices this turn, {parts}.", parts="; ".join(parts))


def _landing_sentences(view: dict[str, Any]) -> list[str]:
    marks = landing_marks(view)
    if not marks:
        return []
    locale = view.get("locale")
    chosen = _chosen_landing(view)
    tiles = ", ".join(name_of(index) for index in marks)
    sentences = [
        _t(locale, "Framed: the coast of your half, where your Prince may land: {tiles}.", tiles=tiles)
    ]
    if chosen is not None:
        sentences.insert(0, _t(locale, "You have chosen to land on {tile}.", tile=name_of(chosen)))
    return sentences


def _castle_entry(view: dict[str, Any], castle: dict[str, Any], guard: int | None) -> str:
    locale = view.get("locale")
    number, tile = castle["number"], castle["tile"]
    if not castle["alive"]:
        return _t(locale, "castle {number} on {tile} destroyed", number=number, tile=tile)
    text = _t(
        locale,
        "castle {number} on {tile} offence {offence} defence {defence} bonus {bonus}",
        number=number,
        tile=tile,
        offence=castle["offence"],
        defence=castle["defence"],
        bonus=castle["bonus"],
    )
    if view["phase"] in ("landing", "explore"):
        text += " " + _t(locale, "so far")
    elif castle["damage"]:
        text += _t(locale, ", damage {damage}", damage=castle["damage"])
    if guard == number:
        text += _t(locale, ", Imperial Guard here")
    return text


def _castles_text(view: dict[str, Any], owner: int) -> str:
    locale = view.get("locale")
    built = view["castle_counts"][owner]
    own = [castle for castle in view.get("castles", []) if castle["seat"] == owner]
    head = _t(locale, "{who}: {built} of 5 castles built", who=_who(view, owner), built=built)
    if not own:
        if "castles" in view and built and view.get("seat") is not None and view["seat"] != owner:
            return _t(locale, "{head}, none in sight.", head=head)
        return f"{head}."
    guard = (view.get("guards") or [None, None])[owner]
    entries = "; ".join(_castle_entry(view, castle, guard) for castle in own)
    if len(own) == built:
        return f"{head}: {entries}."
    return _t(locale, "{head} ({n} in sight): {entries}.", head=head, n=len(own), entries=entries)


def _prince_sentences(view: dict[str, Any]) -> list[str]:
    locale = view.get("locale")
    sentences = []
    for token in view.get("princes", []):
        owner, place = token.split(":")[1].split("@")
        if view.get("seat") == int(owner):
            sentences.append(_t(locale, "Your Prince stands on {tile}.", tile=place))
        else:
            sentences.append(
                _t(locale, "{who}'s Prince stands on {tile}.", who=_name(view, int(owner)), tile=place)
            )
    for token in view.get("prince_in", []):
        owner, number = token.split(":")[1].split("#")
        if view.get("seat") == int(owner):
            sentences.append(_t(locale, "Your Prince hides in castle {castle}.", castle=number))
        else:
            sentences.append(
                _t(
                    locale,
                    "{who}'s Prince hides in castle {castle}.",
                    who=_name(view, int(owner)),
                    castle=number,
                )
            )
    for token in view.get("taken", []):
        owner = 1 - int(token.split(":")[1].split("@")[0])
        sentences.append(
            _t(
                locale,
                "{who} has a castle on {tile}, found by a failed build.",
                who=_name(view, owner),
                tile=token.split("@")[1],
            )
        )
    return sentences


def _battle_text(view: dict[str, Any]) -> str:
    locale = view.get("locale")
    report = view["last_battle"]
    sides = []
    for owner in (0, 1):
        attacks = [
            _t(locale, "{castle} on {target} (stopped by the Guard)", castle=a["from"], target=a["to"])
            if a["stopped"]
            else _t(
                locale,
                "{castle} on {target} for {offence}",
                castle=a["from"],
                target=a["to"],
                offence=a["offence"],
            )
            for a in report["attacks"]
            if a["seat"] == owner
        ]
        said = say_listing(locale, attacks) if attacks else _t(locale, "none")
        sides.append(_t(locale, "{who}'s castles attacked {attacks}", who=_name(view, owner), attacks=said))
    return _t(locale, "Battle {battle}: {sides}.", battle=report["battle"], sides="; ".join(sides))


def _terrain_text(view: dict[str, Any]) -> str:
    """Land tiles by terrain, each with its resource: "plains: b2 gold 1, g2; forest: ..."."""
    locale = view.get("locale")
    by_terrain: dict[str, list[str]] = {}
    for token in view["tiles"]:
        index, (terrain, resource, amount) = parse_tile_token(token)
        if terrain != "water":
            by_terrain.setdefault(terrain, []).append(
                name_of(index) + (f" {_t(locale, resource)} {amount}" if resource else "")
            )
    if not by_terrain:
        return _t(locale, "No land seen yet; the outer ring is water.")
    groups = "; ".join(
        f"{_t(locale, terrain)}: {', '.join(by_terrain[terrain])}"
        for terrain in TERRAINS
        if terrain in by_terrain
    )
    if view.get("seat") is None:
        return _t(locale, "Terrain (the outer ring is water), {groups}.", groups=groups)
    return _t(
        locale,
        "Terrain ({n} of {total} tiles seen; the outer ring is water), {groups}.",
        n=len(view["tiles"]),
        total=TILES,
        groups=groups,
    )
