"""The six actions: Progress, Taxes, Assembly, Building and Politics here (with the Council), Movement in
``movement``. ``begin`` opens an action, ``step`` poses its next prompt, ``options`` lists the answers and
``answer`` applies one (already checked against ``options``).

The action sub-state is ``state["play"]["action"] = {"who", "kind", "stage", ...}``; answering ``done`` at any
prompt ends the action (at the first prompt that skips it: the rules allow skipping or doing part of it).
"""

from __future__ import annotations

from typing import Any

from ..data import COLOURS, catalog, instance_kind
from ..state import controllers, land_might, might
from . import cards, movement, neighbours, neutrals, princes
from .common import (
    TRACK_MAX,
    Ctx,
    a,
    capital,
    card_id_from,
    card_title,
    change_track,
    draw,
    gain_gold,
    land_name,
    name,
    pay_gold,
    prince_land,
    prompt,
    round_order,
    support_tracks,
    to_deck_bottom,
)
from .effects_engine import effect_of, fire, has_rule, rule_number, rule_terms
from .ending import finish
from .history import begin_action, city_cost

BUILDINGS = ("castle", "tiltyard", "abbey")
DRAW_SPLITS = {
    "draw 3 court": (3, 0),
    "draw 2 court 1 neighbour": (2, 1),
    "draw 1 court 2 neighbour": (1, 2),
    "draw 3 neighbour": (0, 3),
}
TWO_GORD_LAND = "pomocc"  # Western Pomerania may hold two Cities (resolution 6)
SILESIA_TAX_BONUS = 2


def begin(ctx: Ctx, code: str, kind: str) -> None:
    ctx.play["action"] = {
        "who": code,
        "kind": kind,
        "stage": "main",
        "count": 0,
        "founded": False,
        "cities": 0,
        "tax_people": 1,
        "extra_units": 0,
        "free_knight": False,
        "extra_tile": False,
    }
    begin_action(ctx, code, kind)  # a History text of this Round (Privilege of Cienia)
    if kind == "movement":
        movement.begin(ctx, code)
    elif kind == "assembly":
        fire(ctx, code, "on_assembly")  # Wici: +2 units; Training Grounds: a Battle card per Tiltyard


def end(ctx: Ctx) -> None:
    ctx.play["private"][ctx.play["action"]["who"]].pop("drawn", None)
    ctx.play["action"] = neutrals.follow_up(ctx, ctx.play["action"])  # the active variant's Combined Action


def step(ctx: Ctx) -> None:
    """Pose the current action's next prompt (or finish it)."""
    action = ctx.play["action"]
    code, kind, stage = action["who"], action["kind"], action["stage"]
    if kind == "combined":
        neutrals.step(ctx, action)
    elif kind == "movement":
        movement.step(ctx)  # even after the mover's elimination: its battles are fought by neutral units
    elif ctx.state["players"][code]["eliminated"]:
        end(ctx)
    elif stage == "main" and options(ctx, code, kind) == ["done"]:
        if action["count"] == 0 and not action["founded"]:
            ctx.log("skip", f"{name(code)} can do nothing with its {kind.title()} action.")
        end(ctx)  # nothing left to do: no need to ask
    elif stage == "main":
        prompt(ctx, code, kind, _taxes_prompt(action) if kind == "taxes" else PROMPTS[kind])
    elif stage == "return" and not _return_options(ctx, code, action):
        end(ctx)  # the drawn cards were already sold or played: nothing is left to return
    elif stage == "return":
        prompt(ctx, code, "politics_return", "Return 1 of the 3 drawn cards to the bottom of its deck.")
    elif stage == "council":
        _council_step(ctx, action)
    elif stage == "neighbour":
        neighbours.step(ctx, action)


def tax_cost(people: int, track: str = "People") -> str:
    """What collecting costs now: Privilege of Cienia and Immunity Charter make it free, Renovatio Monetae 2."""
    return f"costs no {track}" if people <= 0 else f"costs {people} {track}"


def _taxes_prompt(action: dict[str, Any]) -> str:
    return f"Taxes: collect ({tax_cost(int(action['tax_people']))}) or done to skip."


PROMPTS = {
    "progress": "Progress: take face-up Market tiles (as many as the Period number), or done.",
    "assembly": "Assembly: bring up to 3 units from your pool (Knights cost 1 gold), then done.",
    "building": "Building: found 1 City and build up to 2 buildings (1 gold each), then done.",
    "politics": "Politics: draw 3 Court/Neighbour cards in a split you declare now, summon a Council, or done.",
}


def options(ctx: Ctx, code: str, kind: str) -> list[str]:
    action = ctx.play["action"]
    listing = {
        "progress": _progress_options,
        "taxes": _taxes_options,
        "assembly": _assembly_options,
        "building": _building_options,
        "politics": _politics_options,
        "politics_return": _return_options,
        "council": _council_options,
    }
    return listing[kind](ctx, code, action)


def answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    action = ctx.play["action"]
    if words[0] == "play":
        cards.play(ctx, code, words)
        return
    if words[0] == "neighbour":
        neighbours.play_card(ctx, code, action, words)
        return
    if words[0] == "as":
        _as_other_action(ctx, code, words[1])
        return
    if words == ["done"] and kind != "politics_return":
        if kind == "council":
            action["queue"].pop(0)
        else:
            if action["count"] == 0 and not action["founded"]:
                ctx.log("skip", f"{name(code)} skips its {kind.title()} action.")
            end(ctx)
        return
    handlers = {
        "progress": _progress,
        "taxes": _taxes,
        "assembly": _assembly,
        "building": _building,
        "politics": _politics,
        "politics_return": _return,
        "council": _pledge,
    }
    handlers[kind](ctx, code, action, words)


# ---- Progress ----------------------------------------------------------------------------------------------


def _owned_kinds(player: dict[str, Any]) -> set[str]:
    return {instance_kind(tile) for tiles in player["progress"].values() for tile in tiles}


EXTRA_TILE_GOLD = 2


def _holds_rule(state: dict[str, Any], code: str, rule: str) -> bool:
    return any(term.args[0].name == rule for term in rule_terms(state, code, "progress_rule"))


def _slots(state: dict[str, Any], code: str, tile: str) -> int:
    """2 tiles per colour; German Settlers allows a third (also for itself: tiles act as soon as taken)."""
    settlers = _holds_rule(state, code, "third_slot") or any(
        term.name == "progress_rule" and term.args[0].name == "third_slot" for term in effect_of(tile)
    )
    return 3 if settlers else 2


def _progress_options(ctx: Ctx, code: str, action: dict[str, Any]) -> list[str]:
    state = ctx.state
    player = state["players"][code]
    result = []
    if action["count"] == 0 and _holds_rule(state, code, "wildcard_token"):
        result += [f"as {kind}" for kind in ("taxes", "movement", "assembly", "building", "politics")]
    extra = (
        action["count"] == state["period"]
        and not action["extra_tile"]
        and player["gold"] >= EXTRA_TILE_GOLD
        and any(term.args[0].name == "extra_tile" for term in rule_terms(state, code, "progress_rule"))
    )
    if action["count"] < state["period"] or extra:
        owned = _owned_kinds(player)
        for colour in COLOURS:
            for tile in state["market"][colour]["face_up"]:
                if instance_kind(tile) in owned:
                    continue
                if len(player["progress"][colour]) < _slots(state, code, tile):
                    result.append(f"take {tile.lower()}")
                else:
                    result += [f"exchange {own.lower()} {tile.lower()}" for own in player["progress"][colour]]
    return result + ["done"]


def _as_other_action(ctx: Ctx, code: str, kind: str) -> None:
    """New Mechanisms: the revealed Progress token is used as another action."""
    revealed = ctx.play["revealed"][code]
    revealed[-1:] = [kind]  # the token counts as the chosen action (Rent in Coin reads it)
    ctx.log("wildcard", f"{name(code)} uses its Progress action as {kind.title()} (New Mechanisms).")
    begin(ctx, code, kind)


def _find_tile(state: dict[str, Any], token: str) -> tuple[str, str]:
    for colour in COLOURS:
        for tile in state["market"][colour]["face_up"]:
            if tile.lower() == token:
                return colour, str(tile)
    raise KeyError(token)


def replenish(state: dict[str, Any], colour: str) -> None:
    """Refill a colour's two face-up tiles; an identical pair sends the newcomer under its stack (setup 16)."""
    pile = state["market"][colour]
    tries = len(pile["stack"])
    while len(pile["face_up"]) < 2 and pile["stack"]:
        tile = pile["stack"].pop(0)
        duplicate = any(instance_kind(tile) == instance_kind(shown) for shown in pile["face_up"])
        if duplicate and tries > 0:
            pile["stack"].append(tile)
            tries -= 1
            continue
        pile["face_up"].append(tile)  # no other tile left: both identical tiles stay revealed


def _progress(ctx: Ctx, code: str, action: dict[str, Any], words: list[str]) -> None:
    state = ctx.state
    player = state["players"][code]
    colour, tile = _find_tile(state, words[-1])
    state["market"][colour]["face_up"].remove(tile)
    if words[0] == "exchange":
        own = next(t for t in player["progress"][colour] if t.lower() == words[1])
        player["progress"][colour].remove(own)
        state["market"][colour]["face_up"].append(own)
        ctx.log("progress", f"{name(code)} exchanges {_tile_title(own)} for {_tile_title(tile)}.")
    else:
        ctx.log("progress", f"{name(code)} takes the Progress tile {_tile_title(tile)} ({colour}).")
    player["progress"][colour].append(tile)
    replenish(state, colour)
    if action["count"] >= state["period"]:  # Church Schools: the additional tile costs 2 gold
        action["extra_tile"] = True
        pay_gold(ctx, code, EXTRA_TILE_GOLD)
        ctx.log(
            "church_schools",
            f"{name(code)} pays {EXTRA_TILE_GOLD} gold for an additional tile (Church Schools).",
        )
    action["count"] += 1
    cards.tile_taken(ctx, code, tile)


def _tile_title(tile: str) -> str:
    return str(catalog().kind_of(tile)["title"])


# ---- Taxes -------------------------------------------------------------------------------------------------


def tax_income(state: dict[str, Any], code: str) -> int:
    """Might of the controlled lands (a Division token's land pays nothing); Silesia's Colour of Gold adds 2."""
    income = might(state)[code]
    return income + (SILESIA_TAX_BONUS if code == "SIL" else 0)


def _taxes_options(ctx: Ctx, code: str, action: dict[str, Any]) -> list[str]:
    if ctx.state["players"][code]["people"] <= 0:
        return ["done"]  # 0 People forbids Taxes, whatever the cards (Immunity Charter's own words)
    clergy = ["collect clergy"] if princes.clergy_taxes(ctx.state, code) else []  # Spindleshanks
    return ["collect", *clergy, *cards.plays(ctx, code, "own_action:taxes"), "done"]


def _taxes(ctx: Ctx, code: str, action: dict[str, Any], words: list[str]) -> None:
    track = "clergy" if words == ["collect", "clergy"] else "people"
    change_track(ctx, code, track, -action["tax_people"], "Taxes")
    income = tax_income(ctx.state, code)
    got = gain_gold(ctx, code, income)
    bonus = " (Colour of Gold: +2)" if code == "SIL" else ""
    ctx.log("taxes", f"{name(code)} collects {got} gold in Taxes{bonus}.")
    fire(ctx, code, "on_tax")  # Ducal Mint, Market Rights
    action["count"] += 1
    end(ctx)


# ---- Assembly ----------------------------------------------------------------------------------------------


def assembly_targets(state: dict[str, Any], code: str) -> list[str]:
    """The Prince's land and the controlled Capital; if either is missing, also the richest controlled
    land(s) (resolution 7)."""
    control = controllers(state)
    targets = []
    where = prince_land(state, code)
    if where is not None:
        targets.append(where)
    home = capital(code)
    if control.get(home) == code and home not in targets:
        targets.append(home)
    if where is None or control.get(home) != code:
        owned = [land for land, owner in control.items() if owner == code]
        if owned:
            best = max(land_might(state, land) for land in owned)
            targets += [land for land in owned if land_might(state, land) == best and land not in targets]
    if has_rule(state, code, "assembly", "sites"):  # Castle Garrisons
        targets += sorted(
            land
            for land, owner in control.items()
            if owner == code and state["lands"][land]["building"] == "castle" and land not in targets
        )
    return targets


def knight_cost(state: dict[str, Any], code: str, action: dict[str, Any]) -> int:
    """1 gold; Knightly Fiefs makes the first Knight of each Assembly free."""
    free = any(term.args[0].name == "first_knight" for term in rule_terms(state, code, "cost_discount"))
    return 0 if free and not action["free_knight"] else 1


ASSEMBLY_LIMIT = 3


def _assembly_options(ctx: Ctx, code: str, action: dict[str, Any]) -> list[str]:
    state = ctx.state
    result = cards.plays(ctx, code, "own_action:assembly")
    if action["count"] < ASSEMBLY_LIMIT + action["extra_units"]:
        pool = state["supply"]["units"].get(code, {})
        player = state["players"][code]
        units = [unit for unit in ("footman", "knight") if pool.get(unit, 0) > 0]
        if "knight" in units and player["gold"] < knight_cost(state, code, action):
            units.remove("knight")
        if pool.get("prince", 0) > 0 and player["prince"] is not None:
            units.append("prince")  # a Prince off the map re-enters with an Assembly (resolution 8)
        for land in assembly_targets(state, code):
            result += [f"assemble {unit} {land}" for unit in units]
    return result + ["done"]


def _assembly(ctx: Ctx, code: str, action: dict[str, Any], words: list[str]) -> None:
    unit, land = words[1], words[2]
    state = ctx.state
    pool = state["supply"]["units"][code]
    pool[unit] -= 1
    if not pool[unit]:
        del pool[unit]
    cost = knight_cost(state, code, action) if unit == "knight" else 0
    if unit == "knight":
        action["free_knight"] = True
        pay_gold(ctx, code, cost)
    pieces = state["lands"][land]["units"].setdefault(code, {})
    pieces[unit] = pieces.get(unit, 0) + 1
    action["count"] += 1
    paid = f" for {cost} gold" if unit == "knight" else ""
    ctx.log("assembly", f"{name(code)} assembles a {unit.title()}{paid} on {land_name(land)}.")


# ---- Building ----------------------------------------------------------------------------------------------


def _gord_index() -> dict[str, tuple[str, dict[str, Any]]]:
    return {gord["id"]: (land, gord) for land, record in catalog().lands.items() for gord in record["gords"]}


def city_token(land: str, gord: dict[str, Any]) -> str:
    """Capital gords take a capital token, the other Might gords their named token, small gords a Civitas."""
    if catalog().lands[land]["capital"] and gord["might"] == 2:
        return "capital"
    return "city" if gord["might"] else "civitas"


def _building_options(ctx: Ctx, code: str, action: dict[str, Any]) -> list[str]:
    state = ctx.state
    player = state["players"][code]
    tokens = state["supply"]["tokens"]
    owned = sorted(land for land, owner in controllers(state).items() if owner == code)
    result = cards.plays(ctx, code, "own_action:building")
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
    if action["count"] < 2 + rule_number(state, code, "build_limit", "building"):
        for building in BUILDINGS:
            if tokens[building] > 0 and player["gold"] >= princes.build_cost(state, code, building, 1):
                result += [
                    f"build {building} {land}" for land in owned if state["lands"][land]["building"] is None
                ]
    return result + ["done"]


def _building(ctx: Ctx, code: str, action: dict[str, Any], words: list[str]) -> None:
    state = ctx.state
    tokens = state["supply"]["tokens"]
    if words[0] == "found":
        land, gord = _gord_index()[words[1]]
        cost = city_cost(state, code, gord)
        pay_gold(ctx, code, cost)
        token = city_token(land, gord)
        tokens[token] -= 1
        state["lands"][land]["cities"][gord["id"]] = token
        action["founded"] = True
        action["cities"] += 1
        ctx.log("found_city", f"{name(code)} founds the City of {gord['name']} for {cost} gold (+1 Might).")
        fire(ctx, code, "on_found")  # Przemysł I
        return
    building, land = words[1], words[2]
    cost = princes.build_cost(state, code, building, 1)
    pay_gold(ctx, code, cost)
    tokens[building] -= 1
    state["lands"][land]["building"] = building
    action["count"] += 1
    ctx.log("build", f"{name(code)} builds {a(building.title())} on {land_name(land)} for {cost} gold.")
    built(ctx, code, building)


def built(ctx: Ctx, code: str, building: str) -> None:
    """After a building is placed: the 'on build' tiles (French Style: +1 Clergy more for an Abbey)."""
    ctx.play["last_built"] = building
    fire(ctx, code, "on_build")
    ctx.play["last_built"] = None


# ---- Politics ----------------------------------------------------------------------------------------------


def _politics_options(ctx: Ctx, code: str, action: dict[str, Any]) -> list[str]:
    plays = cards.plays(ctx, code, "own_action:politics") + neighbours.card_options(ctx, code, action)
    return [*DRAW_SPLITS, "council", *plays, "done"]


def _politics(ctx: Ctx, code: str, action: dict[str, Any], words: list[str]) -> None:
    if words == ["council"]:
        summon_council(ctx, code, action)
        return
    court, neighbour = DRAW_SPLITS[" ".join(words)]
    drawn = [
        card
        for deck, count in (("court", court), ("neighbour", neighbour))
        for _ in range(count)
        if (card := draw(ctx.state, code, deck)) is not None
    ]
    action["count"] += 1
    ctx.log(
        "politics_draw",
        f"{name(code)} draws {court} Court and {neighbour} Neighbour card(s)"
        + ("" if len(drawn) == 3 else f" (only {len(drawn)} were left)")
        + ".",
    )
    if len(drawn) == 3:
        ctx.play["private"][code]["drawn"] = drawn
        action["stage"] = "return"
    else:
        end(ctx)


def _return_options(ctx: Ctx, code: str, action: dict[str, Any]) -> list[str]:
    hand = ctx.state["players"][code]["hand"]
    return [f"return {card.lower()}" for card in ctx.play["private"][code].get("drawn", []) if card in hand]


def _return(ctx: Ctx, code: str, action: dict[str, Any], words: list[str]) -> None:
    card = card_id_from(ctx.state, code, words[1])
    assert card is not None
    ctx.state["players"][code]["hand"].remove(card)
    to_deck_bottom(ctx.state, card)
    ctx.play["private"][code].pop("drawn", None)
    ctx.log("politics_return", f"{name(code)} returns a card to the bottom of its deck.")
    end(ctx)


# ---- the Council (resolutions 35, 36 and 46) ---------------------------------------------------------------

ELDER_BLOOD_CLERGY = 2


def summon_council(ctx: Ctx, code: str, action: dict[str, Any]) -> None:
    ctx.log("council", f"{name(code)} summons a Council.")
    if code == "PMA" and controllers(ctx.state).get("gnesna") == "PMA":
        change_track(ctx, code, "clergy", ELDER_BLOOD_CLERGY, "Elder Blood: the Archbishop of Gnesna")
    fire(ctx, code, "council_host")  # Przemysł II: before the card phase
    action["count"] += 1
    action["stage"] = "council"
    action["queue"] = list(round_order(ctx.state))
    ctx.play["council"] = code
    for player in round_order(ctx.state):
        fire(ctx, player, "council_start")  # Knightly Culture: every Council, not only one's own


def _council_step(ctx: Ctx, action: dict[str, Any]) -> None:
    queue = action["queue"]
    while queue and ctx.state["players"][queue[0]]["eliminated"]:
        queue.pop(0)
    if queue:
        prompt(
            ctx, queue[0], "council", "Council: play Court and Neighbour cards for their support, then done."
        )
        return
    ctx.play["council"] = None
    council_verdict(ctx, action["who"])
    if ctx.play["result"] is None:
        end(ctx)


def _council_options(ctx: Ctx, code: str, action: dict[str, Any]) -> list[str]:
    result = [
        f"pledge {card.lower()} {track}"
        for card in ctx.state["players"][code]["hand"]
        for track in support_tracks(card)
    ]
    return result + cards.plays(ctx, code, "council") + ["done"]


def _pledge(ctx: Ctx, code: str, action: dict[str, Any], words: list[str]) -> None:
    card = card_id_from(ctx.state, code, words[1])
    assert card is not None
    ctx.state["players"][code]["hand"].remove(card)
    to_deck_bottom(ctx.state, card)
    ctx.log("council_card", f"{name(code)} plays {card_title(card)} at the Council.")
    change_track(ctx, code, words[2], 1, "Council card")


def positions(state: dict[str, Any], code: str) -> tuple[int, int, int]:
    """Might (the track shows at most 10), People, Clergy."""
    player = state["players"][code]
    return min(might(state)[code], TRACK_MAX), player["people"], player["clergy"]


def qualifying_tracks(table: dict[str, tuple[int, int, int]], code: str) -> int:
    """On how many tracks ``code`` is highest or tied-highest in ``table`` (positions of the active players;
    resolution 36)."""
    mine = table[code]
    return sum(1 for track in range(3) if all(mine[track] >= other[track] for other in table.values()))


def tracks_needed(state: dict[str, Any], code: str) -> int:
    """Two tracks; Polonia Minor holding Cracovia needs one (House of Princeps)."""
    return 1 if code == "PMI" and controllers(state).get("cracovia") == "PMI" else 2


def council_verdict(ctx: Ctx, host: str) -> None:
    """Coronation with all three tracks at 10 beats claiming the token (resolution 35)."""
    state = ctx.state
    if state["players"][host]["eliminated"]:
        return
    if all(value >= TRACK_MAX for value in positions(state, host)):
        ctx.log(
            "coronation", f"{name(host)} has all three tracks at 10 and crowns its Prince King of Poland!"
        )
        finish(ctx, [host], f"{name(host)} is crowned at the Council and wins.")
        return
    table = {code: positions(state, code) for code in round_order(state)}
    if qualifying_tracks(table, host) >= tracks_needed(state, host):
        if state["princeps"]["holder"] == host:
            ctx.log("princeps_kept", f"{name(host)} leads the Council and keeps the Princeps token.")
        else:
            state["princeps"]["holder"] = host
            ctx.log(
                "princeps_claimed",
                f"{name(host)} leads the Council and claims the Princeps token "
                "(the turn order of this Round is unchanged).",
            )
    else:
        ctx.log("council_failed", f"{name(host)} does not lead the Council: the Princeps token stays.")
