"""The Prince's forms: landing tile, a phase-1 turn (compass + build site), hiding (step A), battle plan (step B).

Everything shown comes from the seat's own view and the decision's legal actions, so a form can never show
more than the player may know. Drafts (the ``state`` each component carries) are short texts:

- landing: the tile picked (``b5``) or empty
- turn: ``<direction>.<tile or empty>.<page of sites>`` (``ne.c5.0``)
- hiding: ``<prince castle><guard castle>``, ``0`` for not chosen yet (``31``)
- plan: the castle being edited, then one ``<castle><gold on offence, base 36><target, 0 = hold>`` triple
  per surviving castle; attackers in attack order (``3`` + ``321`` + ``101`` + ``500``)
"""

from __future__ import annotations

from typing import Any

import discord

from bot.models import HostError
from rules.the_prince.battle import Order, format_plan
from rules.the_prince.board import DIRECTION_WORDS, known_tiles, parse_tile, parse_tile_token, strength
from rules.the_prince.notation import describe_action

from .base import Form, FormContext, FormPage

SELECT_SIZE = 25
SELECTS_AT_MOST = 4
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: the compass as three rows of buttons, north on top
COMPASS = (("nw", "n", "ne"), ("w", "stay", "e"), ("sw", "s", "se"))
ARROWS = {"nw": "↖", "n": "↑", "ne": "↗", "w": "←", "stay": "·", "e": "→", "sw": "↙", "s": "↓", "se": "↘"}
NO_BUILD = "-"


class ThePrinceForm(Form):
    kinds = frozenset({"landing", "explore", "hide", "plan"})
    #: the battle plan keeps the AI's sample plans beside its "Plan…" button; the others open on the form
    inline_kinds = frozenset({"landing", "explore", "hide"})
    review_after = frozenset({"land"})

    def start(self, ctx: FormContext) -> str:
        if ctx.kind == "landing":
            return ""
        if ctx.kind == "explore":
            return "stay..0"
        if ctx.kind == "hide":
            return "00"
        alive = [castle["number"] for castle in _own(ctx) if castle["alive"]]
        return str(alive[0]) + "".join(f"{number}00" for number in alive)

    def page(self, ctx: FormContext, state: str) -> FormPage:
        if ctx.kind == "landing":
            return _landing_page(ctx)
        if ctx.kind == "explore":
            return _turn_page(ctx, state)
        if ctx.kind == "hide":
            return _hide_page(ctx, state)
        return _plan_page(ctx, state)

    def change(self, ctx: FormContext, op: str, state: str, value: str | None) -> str:
        if ctx.kind == "landing" and op == "land" and value:
            return value if f"land {value}" in ctx.choices else ""
        if ctx.kind == "explore":
            return _turn_change(ctx, op, state, value)
        if ctx.kind == "hide" and op in ("p", "g") and value and value.isdigit():
            return value + state[1] if op == "p" else state[0] + value
        if ctx.kind == "plan":
            return _plan_change(ctx, op, state, value)
        raise HostError("That control does not belong to this decision.")

    def action(self, ctx: FormContext, state: str) -> str | None:
        if ctx.kind == "landing":
            candidate = f"land {state}"
        elif ctx.kind == "explore":
            direction, tile, _ = _turn_state(state)
            candidate = direction + (f" build {tile}" if tile else "")
        elif ctx.kind == "hide":
            candidate = f"prince {state[0]} guard {state[1]}"
        else:
            return _plan_action(state)
        return candidate if candidate in ctx.choices else None

    def summary(self, ctx: FormContext, state: str) -> str:
        action = self.action(ctx, state)
        return describe_action(action) + "." if action else "Not complete yet."


# ---------------------------------------------------------------------------------------------- reading views
def _own(ctx: FormContext) -> list[dict[str, Any]]:
    return [castle for castle in ctx.view.get("castles", []) if castle["seat"] == ctx.seat]


def _enemy(ctx: FormContext) -> list[dict[str, Any]]:
    return [castle for castle in ctx.view.get("castles", []) if castle["seat"] != ctx.seat]


def _prince_tile(ctx: FormContext) -> str | None:
    mine = f"prince:{ctx.seat}@"
    return next((token[len(mine) :] for token in ctx.view.get("princes", []) if token.startswith(mine)), None)


def _castle_line(castle: dict[str, Any]) -> str:
    line = f"off {castle['offence']} def {castle['defence']} gold {castle['bonus']}"
    return line + (f", damage {castle['damage']}" if castle["damage"] else "")


# ---------------------------------------------------------------------------------------------- landing
def _landing_page(ctx: FormContext) -> FormPage:
    tiles = [action.split()[1] for action in ctx.choices if action.startswith("land ")]
    items: list[discord.ui.Item[Any]] = []
    for start in range(0, min(len(tiles), SELECT_SIZE * SELECTS_AT_MOST), SELECT_SIZE):
        group = tiles[start : start + SELECT_SIZE]
        options = [
            discord.SelectOption(label=tile, value=tile, description=_coast_words(tile)) for tile in group
        ]
        placeholder = (
            "Landing tile…" if len(tiles) <= SELECT_SIZE else f"Landing tiles {group[0]} … {group[-1]}"
        )
        items.append(ctx.select("land", "", options, placeholder))
    half = "west (columns a-e)" if ctx.seat == 0 else "east (columns f-j)"
    return FormPage(f"Choose where your Prince lands, on the {half} coast.", items)


def _coast_words(tile: str) -> str:
    return f"Your Prince will see {tile} and the 8 tiles around it"


# ---------------------------------------------------------------------------------------------- a turn
def _turn_state(state: str) -> tuple[str, str, int]:
    parts = state.split(".")
    if len(parts) != 3 or parts[0] not in DIRECTION_WORDS or not parts[2].isdigit():
        raise HostError("This form's draft is damaged; use the latest message or /move.")
    return parts[0], parts[1], int(parts[2])


def _turn_options(ctx: FormContext) -> tuple[list[str], list[str], bool]:
    """Directions open to the Prince, the build sites (best first), and whether a build is compulsory."""
    directions, sites = [], []
    forced = True
    for action in ctx.choices:
        words = action.split()
        if words[0] not in directions:
            directions.append(words[0])
        if len(words) == 3 and words[2] not in sites:
            sites.append(words[2])
        forced = forced and len(words) == 3
    known = known_tiles(ctx.view.get("tiles", []))
    sites.sort(key=lambda tile: -sum(strength(known, _index(tile)).values()))
    return directions, sites, forced and bool(sites)


def _index(tile: str) -> int:
    index = parse_tile(tile)
    if index is None:
        raise HostError(f"{tile} is not a tile of the island.")
    return index


def _turn_change(ctx: FormContext, op: str, state: str, value: str | None) -> str:
    direction, tile, page = _turn_state(state)
    directions, sites, forced = _turn_options(ctx)
    if op.startswith("d") and op[1:] in directions:
        return f"{op[1:]}.{tile}.{page}"
    if op == "b" and value is not None:
        chosen = "" if value == NO_BUILD else value
        if chosen and chosen not in sites:
            raise HostError(f"You cannot build on {chosen} this turn.")
        return f"{direction}.{chosen}.{page}"
    if op == "more":
        pages = max(1, -(-len(sites) // _sites_per_page(forced)))
        return f"{direction}.{tile}.{(page + 1) % pages}"
    raise HostError("That control does not belong to this turn.")


def _sites_per_page(forced: bool) -> int:
    return SELECT_SIZE if forced else SELECT_SIZE - 1  # one option is "build nothing" when building is free


def _turn_page(ctx: FormContext, state: str) -> FormPage:
    direction, tile, page = _turn_state(state)
    directions, sites, forced = _turn_options(ctx)
    items: list[discord.ui.Item[Any]] = []
    for row, line in enumerate(COMPASS):
        for word in line:
            style = discord.ButtonStyle.success if word == direction else discord.ButtonStyle.secondary
            label = f"{ARROWS[word]} {word}" if word != "stay" else "Stay"
            items.append(
                ctx.button(label, f"d{word}", state, style=style, disabled=word not in directions, row=row)
            )
    items.extend(_site_select(ctx, state, sites, forced, tile, page))
    items.append(ctx.review_button(state, _complete_turn(ctx, direction, tile), row=4))
    if len(sites) > _sites_per_page(forced):
        items.append(ctx.button("More sites…", "more", state, row=4))
    return FormPage(_turn_text(ctx, direction, tile, forced), items)


def _complete_turn(ctx: FormContext, direction: str, tile: str) -> bool:
    return (direction + (f" build {tile}" if tile else "")) in ctx.choices


def _site_select(
    ctx: FormContext, state: str, sites: list[str], forced: bool, tile: str, page: int
) -> list[discord.ui.Item[Any]]:
    if not sites:
        return []
    size = _sites_per_page(forced)
    shown = sites[page * size : (page + 1) * size] or sites[:size]
    known = known_tiles(ctx.view.get("tiles", []))
    options = (
        [] if forced else [discord.SelectOption(label="Build nothing", value=NO_BUILD, default=not tile)]
    )
    for site in shown:
        power = strength(known, _index(site))
        terrain = _terrain_words(ctx, site)
        options.append(
            discord.SelectOption(
                label=f"Build on {site}",
                value=site,
                description=f"{terrain}; castle: off {power['offence']} def {power['defence']} "
                f"gold {power['bonus']}"[:100],
                default=site == tile,
            )
        )
    first, last = page * size + 1, page * size + len(shown)
    placeholder = "Build a castle (compulsory now)…" if forced else "Build a castle? (optional)"
    if len(sites) > size:
        placeholder += f" sites {first}-{last} of {len(sites)}, best first"
    return [ctx.select("b", state, options, placeholder, row=3)]


def _terrain_words(ctx: FormContext, site: str) -> str:
    for token in ctx.view.get("tiles", []):
        if token.startswith(f"tile:{site}:"):
            _, tile = parse_tile_token(token)
            return f"{tile[0]}, {tile[1]} {tile[2]}" if tile[1] else f"{tile[0]}, no resource"
    return "unknown ground"


def _turn_text(ctx: FormContext, direction: str, tile: str, forced: bool) -> str:
    built = sum(1 for castle in _own(ctx))
    where = _prince_tile(ctx) or "?"
    move = "stay" if direction == "stay" else f"move {DIRECTION_WORDS[direction]}"
    build = (
        f"build on {tile}" if tile else ("choose a site (you must build now)" if forced else "build nothing")
    )
    return (
        f"Turn {ctx.view.get('turn', '?')}: your Prince is on {where}; castles built {built} of 5.\n"
        f"Draft: {move}, {build}. Sites are the seen tiles you may build on, the richest first."
    )


# ---------------------------------------------------------------------------------------------- hiding
def _hide_page(ctx: FormContext, state: str) -> FormPage:
    alive = [castle for castle in _own(ctx) if castle["alive"]]
    items: list[discord.ui.Item[Any]] = []
    for op, what, current in (("p", "Hide the Prince in", state[0]), ("g", "Imperial Guard in", state[1])):
        options = [
            discord.SelectOption(
                label=f"{what} castle {castle['number']} ({castle['tile']})",
                value=str(castle["number"]),
                description=_castle_line(castle),
                default=str(castle["number"]) == current,
            )
            for castle in alive
        ]
        items.append(ctx.select(op, state, options, f"{what}…"))
    items.append(ctx.review_button(state, "0" not in state[:2]))
    prince = f"castle {state[0]}" if state[0] != "0" else "not chosen"
    guard = f"castle {state[1]}" if state[1] != "0" else "not chosen"
    text = (
        f"Battle {ctx.view.get('battle', '?')}, step A. Prince: {prince}; Imperial Guard: {guard}.\n"
        "The Guards are revealed when both have sealed; the Princes stay hidden."
    )
    return FormPage(text, items)


# ---------------------------------------------------------------------------------------------- battle plan
def _plan_state(state: str) -> tuple[int, list[Order]]:
    """The castle being edited and the orders, attackers first in attack order (as drafted)."""
    body = state[1:]
    if not state or not state[0].isdigit() or len(body) % 3:
        raise HostError("This form's draft is damaged; use the latest message or /move.")
    orders = []
    for start in range(0, len(body), 3):
        castle, gold, target = body[start], body[start + 1], body[start + 2]
        if not (castle.isdigit() and gold in DIGITS and target.isdigit()):
            raise HostError("This form's draft is damaged; use the latest message or /move.")
        orders.append(Order(int(castle), DIGITS.index(gold), int(target) or None))
    return int(state[0]), orders


def _plan_text_state(focus: int, orders: list[Order]) -> str:
    return str(focus) + "".join(f"{o.castle}{DIGITS[o.offence_gold]}{o.target or 0}" for o in orders)


def _plan_action(state: str) -> str:
    return format_plan(_plan_state(state)[1])


def _plan_change(ctx: FormContext, op: str, state: str, value: str | None) -> str:
    focus, orders = _plan_state(state)
    index = next((i for i, order in enumerate(orders) if order.castle == focus), None)
    if index is None:
        raise HostError("That castle is not in your plan.")
    order = orders[index]
    if op == "f" and value and value.isdigit() and any(o.castle == int(value) for o in orders):
        return _plan_text_state(int(value), orders)
    if op == "g" and value and value.isdigit():
        orders[index] = Order(order.castle, min(int(value), _bonus(ctx, order.castle)), order.target)
    elif op == "t" and value and value.isdigit():
        orders = _retarget(orders, index, int(value) or None)
    elif op in ("up", "dn"):
        orders = _reorder(orders, index, -1 if op == "up" else 1)
    else:
        raise HostError("That control does not belong to this plan.")
    return _plan_text_state(focus, orders)


def _bonus(ctx: FormContext, number: int) -> int:
    return next((castle["bonus"] for castle in _own(ctx) if castle["number"] == number), 0)


def _retarget(orders: list[Order], index: int, target: int | None) -> list[Order]:
    """A castle that starts attacking joins the end of the attack order; one that holds leaves it."""
    order = orders.pop(index)
    changed = Order(order.castle, order.offence_gold, target)
    if order.target is not None and target is not None:
        orders.insert(index, changed)  # a new target keeps the castle's place in the order
        return orders
    attackers = [o for o in orders if o.target is not None]
    holders = [o for o in orders if o.target is None]
    return [*attackers, changed, *holders] if target is not None else [*attackers, *holders, changed]


def _reorder(orders: list[Order], index: int, step: int) -> list[Order]:
    other = index + step
    if orders[index].target is None or not (0 <= other < len(orders)) or orders[other].target is None:
        raise HostError("Only an attacking castle moves in the attack order, and not past either end.")
    orders[index], orders[other] = orders[other], orders[index]
    return orders


def _plan_page(ctx: FormContext, state: str) -> FormPage:
    focus, orders = _plan_state(state)
    own = {castle["number"]: castle for castle in _own(ctx)}
    ranks = _ranks(orders)
    items: list[discord.ui.Item[Any]] = [
        ctx.select(
            "f",
            state,
            [
                discord.SelectOption(
                    label=f"Castle {o.castle} ({own[o.castle]['tile']})",
                    value=str(o.castle),
                    description=_order_words(o, ranks)[:100],
                    default=o.castle == focus,
                )
                for o in orders
            ],
            "Castle to set…",
        )
    ]
    order = next(o for o in orders if o.castle == focus)
    items.append(
        ctx.select("g", state, _gold_options(own[focus], order), f"Castle {focus}: gold to offence…")
    )
    items.append(ctx.select("t", state, _target_options(ctx, order), f"Castle {focus}: target…"))
    rank = ranks.get(focus)
    attacking = rank is not None
    items.append(ctx.button("Attack earlier", "up", state, disabled=not attacking or rank == 1, row=3))
    items.append(ctx.button("Attack later", "dn", state, disabled=not attacking or rank == len(ranks), row=3))
    items.append(ctx.review_button(state, True, row=3))
    return FormPage(_plan_text(ctx, orders, own, ranks), items)


def _ranks(orders: list[Order]) -> dict[int, int]:
    attackers = [o.castle for o in orders if o.target is not None]
    return {castle: rank for rank, castle in enumerate(attackers, 1)}


def _order_words(order: Order, ranks: dict[int, int]) -> str:
    gold = f"{order.offence_gold} gold to offence"
    if order.target is None:
        return f"{gold}, holds"
    return f"{gold}, attacks enemy castle {order.target} (#{ranks[order.castle]} in order)"


def _gold_options(castle: dict[str, Any], order: Order) -> list[discord.SelectOption]:
    bonus = castle["bonus"]
    values = list(range(bonus + 1))
    if len(values) > SELECT_SIZE:  # more gold than a select holds: even steps, always 0 and everything
        values = sorted(
            {round(i * bonus / (SELECT_SIZE - 1)) for i in range(SELECT_SIZE)} | {order.offence_gold}
        )
        values = values[:SELECT_SIZE]
    return [
        discord.SelectOption(
            label=f"{gold} to offence, {bonus - gold} to defence",
            value=str(gold),
            description=f"offence {castle['offence'] + gold}, defence "
            f"{castle['defence'] + bonus - gold - castle['damage']} after damage",
            default=gold == order.offence_gold,
        )
        for gold in values
    ]


def _target_options(ctx: FormContext, order: Order) -> list[discord.SelectOption]:
    guards = ctx.view.get("guards") or [None, None]
    enemy_guard = guards[1 - ctx.seat]
    options = [discord.SelectOption(label="Hold (no attack)", value="0", default=order.target is None)]
    for castle in _enemy(ctx):
        if not castle["alive"]:
            continue
        number = castle["number"]
        guard = "; the Guard stops the first attack here" if number == enemy_guard else ""
        options.append(
            discord.SelectOption(
                label=f"Attack enemy castle {number} ({castle['tile']})",
                value=str(number),
                description=(
                    f"def {castle['defence']}-{castle['defence'] + castle['bonus']}, "
                    f"damage {castle['damage']}{guard}"
                )[:100],
                default=order.target == number,
            )
        )
    return options


def _plan_text(
    ctx: FormContext, orders: list[Order], own: dict[int, dict[str, Any]], ranks: dict[int, int]
) -> str:
    lines = [f"Battle {ctx.view.get('battle', '?')}, step B: your plan so far."]
    for order in orders:
        castle = own[order.castle]
        bonus = castle["bonus"]
        offence = castle["offence"] + order.offence_gold
        defence = castle["defence"] + bonus - order.offence_gold - castle["damage"]
        head = f"#{ranks[order.castle]} " if order.castle in ranks else ""
        lines.append(
            f"- {head}castle {order.castle}: offence {offence}, defence {defence}; "
            + (f"attacks enemy castle {order.target}" if order.target is not None else "holds")
        )
    lines.append("Pick a castle, then its gold split and target; attackers strike in the order shown.")
    return "\n".join(lines)


FORM = ThePrinceForm()
