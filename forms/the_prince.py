"""The Prince's forms: landing tile, a phase-1 turn (compass + build site), hiding (step A), battle plan (step B).

Everything shown comes from the seat's own view and the decision's legal actions, so a form can never show
more than the player may know. Drafts (the ``state`` each component carries) are short texts:

- landing: the tile picked (``b5``) or empty
- turn: ``<direction>.<tile or empty>.<page of sites>`` (``ne.c5.0``)
- hiding: ``<prince castle><guard castle>``, ``0`` for not chosen yet (``31``)
- plan: the castle being edited, then one ``<castle><gold on offence, base 36><target, 0 = hold>`` triple
  per surviving castle; attackers in attack order (``3`` + ``321`` + ``101`` + ``500``)

Every word shown is in the reader's language (``FormContext.t``); the terrain and resource names are the ones
the board's legend writes (catalog context ``image``). A label, placeholder or description is fitted to Discord's
limit (``forms.labels.fit``) once translated, since a translation may be longer than the English. The
compass buttons show an arrow and the notation's direction (``nw``), as ``/move`` takes it.
"""

from __future__ import annotations

from typing import Any

from i18n import translate_in
from rules.engine import InvalidAction
from rules.the_prince.battle import Order, format_plan, parse_plan
from rules.the_prince.board import DIRECTION_WORDS, known_tiles, parse_tile, parse_tile_token, strength
from rules.the_prince.notation import describe_action

from .base import FORM as FORM_CONTEXT
from .base import Form, FormContext, FormError, FormItem, FormOption, FormPage, Style
from .labels import OPTION_DESCRIPTION, OPTION_LABEL, fit

SELECT_SIZE = 25
SELECTS_AT_MOST = 4
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: the compass as three rows of buttons, north on top
COMPASS = (("nw", "n", "ne"), ("w", "stay", "e"), ("sw", "s", "se"))
ARROWS = {"nw": "↖", "n": "↑", "ne": "↗", "w": "←", "stay": "·", "e": "→", "sw": "↙", "s": "↓", "se": "↘"}
NO_BUILD = "-"
#: a battle plan's short label (``plan_label``), one order after another, and the description beneath it
PLAN_ATTACKS = "{castle}→{target} ({gold} gold)"
PLAN_HOLDS = "{castle} holds ({gold} gold)"
PLAN_LEGEND = "castle→target (gold on offence), in attack order · {action}"
DAMAGED = "This form's draft is damaged; use the latest message or /move."


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
        raise FormError("That control does not belong to this decision.")

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
        return ctx.localized(describe_action(action)) + "." if action else ctx.t("Not complete yet.")

    def choice_label(self, language: str, action: str) -> tuple[str, str] | None:
        """A battle plan (the sample plans beside "Plan…", ``/move``'s list) as each castle's target and gold on
        offence, in attack order (``4→1 (0 gold), 3→3 (3 gold), 2 holds (4 gold)``), with the notation beneath:
        the rules' sentence for a plan runs to 300 characters, and cut at 100 two plans read alike."""
        if not action[:1].isdigit():
            return None
        try:
            orders = parse_plan(action)
        except InvalidAction:
            return None
        legend = translate_in(FORM_CONTEXT, language, PLAN_LEGEND, action=action)
        return plan_label(language, orders), fit(legend, OPTION_DESCRIPTION)


# ---------------------------------------------------------------------------------------------- reading views
def _own(ctx: FormContext) -> list[dict[str, Any]]:
    return [castle for castle in ctx.view.get("castles", []) if castle["seat"] == ctx.seat]


def _enemy(ctx: FormContext) -> list[dict[str, Any]]:
    return [castle for castle in ctx.view.get("castles", []) if castle["seat"] != ctx.seat]


def _prince_tile(ctx: FormContext) -> str | None:
    mine = f"prince:{ctx.seat}@"
    return next((token[len(mine) :] for token in ctx.view.get("princes", []) if token.startswith(mine)), None)


def _word(ctx: FormContext, word: str) -> str:
    """A terrain's or a resource's name as the board's legend writes it."""
    return translate_in("image", ctx.language, word)


def _castle_line(ctx: FormContext, castle: dict[str, Any]) -> str:
    line = ctx.t(
        "off {offence} def {defence} gold {gold}",
        offence=castle["offence"],
        defence=castle["defence"],
        gold=castle["bonus"],
    )
    return line + (ctx.t(", damage {damage}", damage=castle["damage"]) if castle["damage"] else "")


# ---------------------------------------------------------------------------------------------- landing
def _landing_page(ctx: FormContext) -> FormPage:
    tiles = [action.split()[1] for action in ctx.choices if action.startswith("land ")]
    items: list[FormItem] = []
    for start in range(0, min(len(tiles), SELECT_SIZE * SELECTS_AT_MOST), SELECT_SIZE):
        group = tiles[start : start + SELECT_SIZE]
        options = [
            FormOption(label=tile, value=tile, description=fit(_coast_words(ctx, tile), OPTION_DESCRIPTION))
            for tile in group
        ]
        placeholder = (
            ctx.t("Landing tile…")
            if len(tiles) <= SELECT_SIZE
            else ctx.t("Landing tiles {first} … {last}", first=group[0], last=group[-1])
        )
        items.append(ctx.select("land", "", options, placeholder))
    text = (
        "Choose where your Prince lands, on the west coast (columns a-e)."
        if ctx.seat == 0
        else "Choose where your Prince lands, on the east coast (columns f-j)."
    )
    return FormPage(ctx.t(text), items)


def _coast_words(ctx: FormContext, tile: str) -> str:
    return ctx.t("Your Prince will see {tile} and the 8 tiles around it", tile=tile)


# ---------------------------------------------------------------------------------------------- a turn
def _turn_state(state: str) -> tuple[str, str, int]:
    parts = state.split(".")
    if len(parts) != 3 or parts[0] not in DIRECTION_WORDS or not parts[2].isdigit():
        raise FormError(DAMAGED)
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
        raise FormError(f"{tile} is not a tile of the island.")
    return index


def _turn_change(ctx: FormContext, op: str, state: str, value: str | None) -> str:
    direction, tile, page = _turn_state(state)
    directions, sites, forced = _turn_options(ctx)
    if op.startswith("d") and op[1:] in directions:
        return f"{op[1:]}.{tile}.{page}"
    if op == "b" and value is not None:
        chosen = "" if value == NO_BUILD else value
        if chosen and chosen not in sites:
            raise FormError(f"You cannot build on {chosen} this turn.")
        return f"{direction}.{chosen}.{page}"
    if op == "more":
        pages = max(1, -(-len(sites) // _sites_per_page(forced)))
        return f"{direction}.{tile}.{(page + 1) % pages}"
    raise FormError("That control does not belong to this turn.")


def _sites_per_page(forced: bool) -> int:
    return SELECT_SIZE if forced else SELECT_SIZE - 1  # one option is "build nothing" when building is free


def _turn_page(ctx: FormContext, state: str) -> FormPage:
    direction, tile, page = _turn_state(state)
    directions, sites, forced = _turn_options(ctx)
    items: list[FormItem] = []
    for row, line in enumerate(COMPASS):
        for word in line:
            style: Style = "success" if word == direction else "secondary"
            label = f"{ARROWS[word]} {word}" if word != "stay" else ctx.t("Stay")
            items.append(
                ctx.button(label, f"d{word}", state, style=style, disabled=word not in directions, row=row)
            )
    items.extend(_site_select(ctx, state, sites, forced, tile, page))
    items.append(ctx.review_button(state, _complete_turn(ctx, direction, tile), row=4))
    if len(sites) > _sites_per_page(forced):
        items.append(ctx.button(ctx.t("More sites…"), "more", state, row=4))
    return FormPage(_turn_text(ctx, direction, tile, forced), items)


def _complete_turn(ctx: FormContext, direction: str, tile: str) -> bool:
    return (direction + (f" build {tile}" if tile else "")) in ctx.choices


def _site_select(
    ctx: FormContext, state: str, sites: list[str], forced: bool, tile: str, page: int
) -> list[FormItem]:
    if not sites:
        return []
    size = _sites_per_page(forced)
    shown = sites[page * size : (page + 1) * size] or sites[:size]
    known = known_tiles(ctx.view.get("tiles", []))
    options = (
        []
        if forced
        else [FormOption(label=fit(ctx.t("Build nothing"), OPTION_LABEL), value=NO_BUILD, default=not tile)]
    )
    for site in shown:
        power = strength(known, _index(site))
        description = ctx.t(
            "{terrain}; castle: off {offence} def {defence} gold {gold}",
            terrain=_terrain_words(ctx, site),
            offence=power["offence"],
            defence=power["defence"],
            gold=power["bonus"],
        )
        options.append(
            FormOption(
                label=fit(ctx.t("Build on {tile}", tile=site), OPTION_LABEL),
                value=site,
                description=fit(description, OPTION_DESCRIPTION),
                default=site == tile,
            )
        )
    first, last = page * size + 1, page * size + len(shown)
    placeholder = ctx.t("Build a castle (compulsory now)…" if forced else "Build a castle? (optional)")
    if len(sites) > size:
        placeholder += " " + ctx.t(
            "sites {first}-{last} of {total}, best first", first=first, last=last, total=len(sites)
        )
    return [ctx.select("b", state, options, placeholder, row=3)]


def _terrain_words(ctx: FormContext, site: str) -> str:
    for token in ctx.view.get("tiles", []):
        if token.startswith(f"tile:{site}:"):
            _, tile = parse_tile_token(token)
            terrain = _word(ctx, tile[0])
            if not tile[1]:
                return ctx.t("{terrain}, no resource", terrain=terrain)
            return f"{terrain}, {_word(ctx, tile[1])} {tile[2]}"
    return ctx.t("unknown ground")


def _turn_text(ctx: FormContext, direction: str, tile: str, forced: bool) -> str:
    built = sum(1 for castle in _own(ctx))
    where = _prince_tile(ctx) or "?"
    move = ctx.t("stay") if direction == "stay" else ctx.t(f"move {DIRECTION_WORDS[direction]}")
    if tile:
        build = ctx.t("build on {tile}", tile=tile)
    else:
        build = ctx.t("choose a site (you must build now)" if forced else "build nothing")
    return "\n".join(
        (
            ctx.t(
                "Turn {turn}: your Prince is on {tile}; castles built {built} of 5.",
                turn=ctx.view.get("turn", "?"),
                tile=where,
                built=built,
            ),
            ctx.t(
                "Draft: {move}, {build}. Sites are the seen tiles you may build on, the richest first.",
                move=move,
                build=build,
            ),
        )
    )


# ---------------------------------------------------------------------------------------------- hiding
def _hide_page(ctx: FormContext, state: str) -> FormPage:
    alive = [castle for castle in _own(ctx) if castle["alive"]]
    items: list[FormItem] = []
    for op, label, placeholder, current in (
        ("p", "Hide the Prince in castle {castle} ({tile})", "Hide the Prince in…", state[0]),
        ("g", "Imperial Guard in castle {castle} ({tile})", "Imperial Guard in…", state[1]),
    ):
        options = [
            FormOption(
                label=fit(ctx.t(label, castle=castle["number"], tile=castle["tile"]), OPTION_LABEL),
                value=str(castle["number"]),
                description=fit(_castle_line(ctx, castle), OPTION_DESCRIPTION),
                default=str(castle["number"]) == current,
            )
            for castle in alive
        ]
        items.append(ctx.select(op, state, options, ctx.t(placeholder)))
    items.append(ctx.review_button(state, "0" not in state[:2]))
    prince = ctx.t("castle {castle}", castle=state[0]) if state[0] != "0" else ctx.t("not chosen")
    guard = ctx.t("castle {castle}", castle=state[1]) if state[1] != "0" else ctx.t("not chosen")
    text = "\n".join(
        (
            ctx.t(
                "Battle {battle}, step A. Prince: {prince}; Imperial Guard: {guard}.",
                battle=ctx.view.get("battle", "?"),
                prince=prince,
                guard=guard,
            ),
            ctx.t("The Guards are revealed when both have sealed; the Princes stay hidden."),
        )
    )
    return FormPage(text, items)


# ---------------------------------------------------------------------------------------------- battle plan
def plan_label(language: str, orders: list[Order]) -> str:
    """A plan in a few words, its orders as listed (a canonical plan lists its attackers in attack order, then
    the castles that hold): every castle's target and gold on offence, so two plans never read alike. Five
    orders with two-digit gold take at most 93 characters in English and 98 in Polish."""
    parts = [
        translate_in(
            FORM_CONTEXT,
            language,
            PLAN_HOLDS if order.target is None else PLAN_ATTACKS,
            castle=order.castle,
            target=order.target,
            gold=order.offence_gold,
        )
        for order in orders
    ]
    return fit(", ".join(parts), OPTION_LABEL)


def _plan_state(state: str) -> tuple[int, list[Order]]:
    """The castle being edited and the orders, attackers first in attack order (as drafted)."""
    body = state[1:]
    if not state or not state[0].isdigit() or len(body) % 3:
        raise FormError(DAMAGED)
    orders = []
    for start in range(0, len(body), 3):
        castle, gold, target = body[start], body[start + 1], body[start + 2]
        if not (castle.isdigit() and gold in DIGITS and target.isdigit()):
            raise FormError(DAMAGED)
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
        raise FormError("That castle is not in your plan.")
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
        raise FormError("That control does not belong to this plan.")
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
        raise FormError("Only an attacking castle moves in the attack order, and not past either end.")
    orders[index], orders[other] = orders[other], orders[index]
    return orders


def _plan_page(ctx: FormContext, state: str) -> FormPage:
    focus, orders = _plan_state(state)
    own = {castle["number"]: castle for castle in _own(ctx)}
    ranks = _ranks(orders)
    items: list[FormItem] = [
        ctx.select(
            "f",
            state,
            [
                FormOption(
                    label=fit(
                        ctx.t("Castle {castle} ({tile})", castle=o.castle, tile=own[o.castle]["tile"]),
                        OPTION_LABEL,
                    ),
                    value=str(o.castle),
                    description=fit(_order_words(ctx, o, ranks), OPTION_DESCRIPTION),
                    default=o.castle == focus,
                )
                for o in orders
            ],
            ctx.t("Castle to set…"),
        )
    ]
    order = next(o for o in orders if o.castle == focus)
    items.append(
        ctx.select(
            "g",
            state,
            _gold_options(ctx, own[focus], order),
            ctx.t("Castle {castle}: gold to offence…", castle=focus),
        )
    )
    items.append(
        ctx.select("t", state, _target_options(ctx, order), ctx.t("Castle {castle}: target…", castle=focus))
    )
    rank = ranks.get(focus)
    attacking = rank is not None
    earlier, later = ctx.t("Attack earlier"), ctx.t("Attack later")
    items.append(ctx.button(earlier, "up", state, disabled=not attacking or rank == 1, row=3))
    items.append(ctx.button(later, "dn", state, disabled=not attacking or rank == len(ranks), row=3))
    items.append(ctx.review_button(state, True, row=3))
    return FormPage(_plan_text(ctx, orders, own, ranks), items)


def _ranks(orders: list[Order]) -> dict[int, int]:
    attackers = [o.castle for o in orders if o.target is not None]
    return {castle: rank for rank, castle in enumerate(attackers, 1)}


def _order_words(ctx: FormContext, order: Order, ranks: dict[int, int]) -> str:
    if order.target is None:
        return ctx.t("{gold} gold to offence, holds", gold=order.offence_gold)
    return ctx.t(
        "{gold} gold to offence, attacks enemy castle {target} (#{rank} in order)",
        gold=order.offence_gold,
        target=order.target,
        rank=ranks[order.castle],
    )


def _gold_options(ctx: FormContext, castle: dict[str, Any], order: Order) -> list[FormOption]:
    bonus = castle["bonus"]
    values = list(range(bonus + 1))
    if len(values) > SELECT_SIZE:  # more gold than a select holds: even steps, always 0 and everything
        values = sorted(
            {round(i * bonus / (SELECT_SIZE - 1)) for i in range(SELECT_SIZE)} | {order.offence_gold}
        )
        values = values[:SELECT_SIZE]
    return [
        FormOption(
            label=fit(
                ctx.t("{gold} to offence, {rest} to defence", gold=gold, rest=bonus - gold), OPTION_LABEL
            ),
            value=str(gold),
            description=fit(
                ctx.t(
                    "offence {offence}, defence {defence} after damage",
                    offence=castle["offence"] + gold,
                    defence=castle["defence"] + bonus - gold - castle["damage"],
                ),
                OPTION_DESCRIPTION,
            ),
            default=gold == order.offence_gold,
        )
        for gold in values
    ]


def _target_options(ctx: FormContext, order: Order) -> list[FormOption]:
    guards = ctx.view.get("guards") or [None, None]
    enemy_guard = guards[1 - ctx.seat]
    hold = fit(ctx.t("Hold (no attack)"), OPTION_LABEL)
    options = [FormOption(label=hold, value="0", default=order.target is None)]
    for castle in _enemy(ctx):
        if not castle["alive"]:
            continue
        number = castle["number"]
        description = ctx.t(
            "def {low}-{high}, damage {damage}",
            low=castle["defence"],
            high=castle["defence"] + castle["bonus"],
            damage=castle["damage"],
        )
        if number == enemy_guard:
            description += ctx.t("; the Guard stops the first attack here")
        options.append(
            FormOption(
                label=fit(
                    ctx.t("Attack enemy castle {castle} ({tile})", castle=number, tile=castle["tile"]),
                    OPTION_LABEL,
                ),
                value=str(number),
                description=fit(description, OPTION_DESCRIPTION),
                default=order.target == number,
            )
        )
    return options


def _plan_text(
    ctx: FormContext, orders: list[Order], own: dict[int, dict[str, Any]], ranks: dict[int, int]
) -> str:
    lines = [ctx.t("Battle {battle}, step B: your plan so far.", battle=ctx.view.get("battle", "?"))]
    for order in orders:
        castle = own[order.castle]
        bonus = castle["bonus"]
        offence = castle["offence"] + order.offence_gold
        defence = castle["defence"] + bonus - order.offence_gold - castle["damage"]
        head = f"#{ranks[order.castle]} " if order.castle in ranks else ""
        does = (
            ctx.t("attacks enemy castle {target}", target=order.target)
            if order.target is not None
            else ctx.t("holds")
        )
        line = ctx.t(
            "castle {castle}: offence {offence}, defence {defence}; {does}",
            castle=order.castle,
            offence=offence,
            defence=defence,
            does=does,
        )
        lines.append(f"- {head}{line}")
    lines.append(ctx.t("Pick a castle, then its gold split and target; attackers strike in the order shown."))
    return "\n".join(lines)


FORM = ThePrinceForm()
