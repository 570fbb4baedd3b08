"""The BUILDING ACTION (rulebook p. 22): founding Cities, raising buildings, their prices, and the DESTRUCTION OF
CITIES AND BUILDINGS on a land taken (by a Movement, p. 22, or by a Neighbour's units, p. 25).

- A City stands on a gord of a land the player controls; one City per land, two in Western Pomerania (resolution
  6); it takes its gord's token (``data.city_token``) and costs the gord's Might + 1 gold (:func:`city_cost`).
- A Castle, Tiltyard or Abbey costs 1 gold; one building per land.
- ``cost_discount(item, n|free, min)`` of the ruling Prince and the held tiles, and a History text of this Round,
  lower a price (:func:`build_cost`); ``build_limit`` raises how many Cities or buildings one action allows.
- The ``build`` primitive of card texts (a free City, Civitas or building; "the City's usual price") is this
  module's too (:func:`_build`, registered with the effect interpreter).

The Building action's answers (``options``/``answer``) are read by ``actions``; the action sub-state keeps the
counters ``cities`` (Cities founded) and ``count`` (buildings raised).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..data import catalog, city_token
from ..effects import Term
from ..schema import Action, Army, Board, PState
from ..state import controllers
from .cards import plays
from .common import Ctx, a, active, card_title, change_track, land_name, name, occupants, pay_gold
from .effects_engine import Effect, fire, register_primitive, rule_number, rule_terms

BUILDINGS = ("castle", "tiltyard", "abbey")
TWO_GORD_LAND = "pomocc"  # Western Pomerania may hold two Cities (resolution 6)
PROMPT = "Building: found 1 City and build up to 2 buildings (1 gold each), then done."
BUILDINGS_PER_ACTION = 2


# ---- prices ------------------------------------------------------------------------------------------------


def build_cost(state: Board, code: str, item: str, base: int) -> int:
    """The gold ``item`` (city, abbey, tiltyard, castle) costs the player: ``cost_discount(item, free|n, min)``
    of the ruling Prince and held tiles lower it, never below its minimum."""
    cost = base
    for term in rule_terms(state, code, "cost_discount"):
        if term.args[0].name != item or len(term.args) < 2:
            continue
        if term.args[1].name == "free":
            cost = 0
            continue
        floor = term.args[2].number or 0 if len(term.args) > 2 else 0
        cost = max(min(cost, floor), cost - (term.args[1].number or 0))
    return cost


def city_cost(state: Board, code: str, gord: dict[str, Any]) -> int:
    """A City costs its Might (gord Might + 1), lowered by every ``cost_discount(city, n, min)`` in force: a
    History text this Round, a held tile, the ruling Prince (``build_cost`` reads them all)."""
    return build_cost(state, code, "city", int(gord["might"]) + 1)


# ---- where ---------------------------------------------------------------------------------------------------


def gord_site(gord_id: str) -> tuple[str, dict[str, Any]]:
    """The land a gord stands on, and the gord's record."""
    return next(
        (land, gord)
        for land, record in catalog().lands.items()
        for gord in record["gords"]
        if gord["id"] == gord_id
    )


def foundable(state: PState, lands: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """(land, gord) where a City may be founded: one City per land (two in Western Pomerania), tokens left."""
    tokens = state["supply"]["tokens"]
    found = []
    for land in sorted(lands):
        cities = state["lands"][land]["cities"]
        if cities and land != TWO_GORD_LAND:
            continue
        found += [
            (land, gord)
            for gord in catalog().lands[land]["gords"]
            if gord["id"] not in cities and tokens[city_token(land, gord)] > 0
        ]
    return found


# ---- the Building action -------------------------------------------------------------------------------------


def options(ctx: Ctx, code: str, action: Action) -> list[str]:
    state = ctx.state
    player = state["players"][code]
    tokens = state["supply"]["tokens"]
    owned = sorted(land for land, owner in controllers(state).items() if owner == code)
    result = plays(ctx, code, "own_action:building")
    if action["cities"] < 1 + rule_number(state, code, "build_limit", "city"):
        for land in owned:
            cities = state["lands"][land]["cities"]
            if cities and land != TWO_GORD_LAND:
                continue
            for gord in catalog().lands[land]["gords"]:
                if gord["id"] in cities or tokens[city_token(land, gord)] <= 0:
                    continue
                if player["gold"] >= city_cost(state, code, gord):
                    result.append(f"found {gord['id']}")
    if action["count"] < BUILDINGS_PER_ACTION + rule_number(state, code, "build_limit", "building"):
        for building in BUILDINGS:
            if tokens[building] > 0 and player["gold"] >= build_cost(state, code, building, 1):
                result += [
                    f"build {building} {land}" for land in owned if state["lands"][land]["building"] is None
                ]
    return result + ["done"]


def answer(ctx: Ctx, code: str, action: Action, words: list[str]) -> bool:
    """``found <gord>`` or ``build <building> <land>``; the action goes on (False) until ``done``."""
    state = ctx.state
    tokens = state["supply"]["tokens"]
    if words[0] == "found":
        land, gord = gord_site(words[1])
        cost = city_cost(state, code, gord)
        pay_gold(ctx, code, cost)
        token = city_token(land, gord)
        tokens[token] -= 1
        state["lands"][land]["cities"][gord["id"]] = token
        action["founded"] = True
        action["cities"] += 1
        ctx.log("found_city", f"{name(code)} founds the City of {gord['name']} for {cost} gold (+1 Might).")
        fire(ctx, code, "on_found")  # Przemysł I
        return False
    building, land = words[1], words[2]
    cost = build_cost(state, code, building, 1)
    pay_gold(ctx, code, cost)
    tokens[building] -= 1
    state["lands"][land]["building"] = building
    action["count"] += 1
    ctx.log("build", f"{name(code)} builds {a(building.title())} on {land_name(land)} for {cost} gold.")
    built(ctx, code, building)
    return False


def built(ctx: Ctx, code: str, building: str) -> None:
    """After a building is placed: the 'on build' tiles (French Style: +1 Clergy more for an Abbey)."""
    ctx.play["last_built"] = building
    fire(ctx, code, "on_build")
    ctx.play["last_built"] = None


@register_primitive("build")
def _build(effect: Effect, args: tuple[Term, ...]) -> bool:
    """A City, Civitas or building for free (or at a cost) on the chosen (or battle) land, if legal there."""
    state, kind, where = effect.state, args[1].name, args[2].name
    land = effect.battle["land"] if where == "battle_land" and effect.battle else effect.land
    if land is None or controllers(state).get(land) != effect.who:
        return False
    land_state, tokens = state["lands"][land], state["supply"]["tokens"]
    cost = 0 if args[3].name in ("free",) else (args[3].number or 0)
    if kind in ("civitas", "city"):
        gord = next(
            (
                g
                for g in catalog().lands[land]["gords"]
                if g["id"] not in land_state["cities"] and (kind != "civitas" or g["might"] == 0)
            ),
            None,
        )
        if gord is None or land_state["cities"] or tokens[city_token(land, gord)] <= 0:
            return False
        if args[3].name == "normal":  # the City's usual price (Kraków under Magdeburg Law)
            cost = city_cost(state, effect.who, gord)
        pay_gold(effect.ctx, effect.who, cost)
        tokens[city_token(land, gord)] -= 1
        land_state["cities"][gord["id"]] = city_token(land, gord)
        effect.ctx.log(
            "effect_build", f"{name(effect.who)} founds {gord['name']} ({card_title(effect.source)})."
        )
        fire(effect.ctx, effect.who, "on_found")  # Przemysł I: a City founded by any means
        return True
    if land_state["building"] is not None or tokens[kind] <= 0:
        return False
    pay_gold(effect.ctx, effect.who, cost)
    tokens[kind] -= 1
    land_state["building"] = kind
    effect.ctx.log(
        "effect_build",
        f"{name(effect.who)} builds {a(kind.title())} on {land_name(land)} ({card_title(effect.source)}).",
    )
    built(effect.ctx, effect.who, kind)  # French Style counts Abbeys built by a card too
    return True


# ---- destruction (resolutions 12 and 48) ---------------------------------------------------------------------


def destruction_choices(state: PState, land: str) -> list[str]:
    """``keep <land>``, or ``destroy <land>`` with any non-empty set of its Cities and its building."""
    land_state = state["lands"][land]
    items = sorted(land_state["cities"]) + ([land_state["building"]] if land_state["building"] else [])
    subsets = [" ".join(c) for size in range(1, len(items) + 1) for c in combinations(items, size)]
    return [f"keep {land}"] + [f"destroy {land} {subset}" for subset in subsets]


def raze(state: PState, land: str, items: list[str]) -> None:
    """The named Cities and building of ``land`` go back to the supply as tokens."""
    land_state = state["lands"][land]
    tokens = state["supply"]["tokens"]
    for item in items:
        if item in land_state["cities"]:
            tokens[land_state["cities"].pop(item)] += 1
        else:
            tokens[item] += 1
            land_state["building"] = None


def queue_destruction(ctx: Ctx, action: Action, land: str) -> None:
    """A land taken by a Movement with a City or building offers destruction, never of the taker's own
    (rulebook p. 22)."""
    land_state = ctx.state["lands"][land]
    own = catalog().lands[land]["principality"] == action["who"]
    if not own and (land_state["cities"] or land_state["building"]) and active(ctx.state, action["who"]):
        action["destroy"].append(land)


def destroy(ctx: Ctx, code: str, land: str, items: list[str]) -> None:
    """The player destroys what it took: tokens back to the pool; -1 People and -1 Clergy once for the land
    (resolution 12)."""
    raze(ctx.state, land, items)
    ctx.log("destruction", f"{name(code)} destroys {', '.join(items)} on {land_name(land)}.")
    change_track(ctx, code, "people", -1, "destruction")
    change_track(ctx, code, "clergy", -1, "destruction")


def army_may_destroy(state: PState, code: str, faction: str, land: str) -> bool:
    """A land an army moved by ``code`` took (its units alone there) with a City or building, outside the mover's
    borders."""
    land_state = state["lands"][land]
    return (
        occupants(state, land) == [faction]
        and catalog().lands[land]["principality"] != code
        and bool(land_state["cities"] or land_state["building"])
    )


def queue_army_destruction(ctx: Ctx, army: Army | None, land: str) -> None:
    """The army won its battle on ``land``: the mover may destroy there as on a land taken unopposed ("When
    Neighbor's units take control of a land, the player who moved them may decide to destroy", resolution
    48)."""
    if army is None or army.get("stage") != "battles":
        return
    code = ctx.action["who"]
    if active(ctx.state, code) and army_may_destroy(ctx.state, code, army["faction"], land):
        army["destroy"].append(land)
        army["stage"] = "destroy"
