"""Invaders: the Balt Raid, the Teutonic Knights and the Mongol Invasion of the History icons (PRINCIPES IV).

Invaders (Prussians, Lithuanians, Teutonic Knights, Mongols) are moved like Neighbours: the army sub-state and
its moves are ``neighbours``' own (``begin_move``, ``move_options``, ``move_answer``), kept in
``play["event"]["army"]`` with ``"invader": True`` and the ``mover``. The differences (rulebook p. 28-29,
resolutions 23, 28-30):

- the mover may move every unit of the faction (Prussians are foot, 2 MP; Lithuanians, Teutons and Mongols
  cavalry, 3 MP); they may not end on a land the mover controlled when the move began, nor where
  ``neighbours.ending_banned`` forbids it (resolution 23); they never remove Division tokens (resolution 25);
- they may ask players to let them pass (``ask <land>``, resolution 49);
- after ``done`` they attack every land where they stand with other units, in the order the mover chooses
  (resolution 50; the mover decides their withdrawals: only Mongols withdraw, to an adjacent land without units
  or tokens, resolution 29); then the *devastation*:
  every City and building on a land where they stand alone (ended unopposed or won) is removed and a Princess
  there leaves the map (resolution 30); then they go home: Balts to their area, Teutons to Culmen (they wait
  in the supply while foreign units hold it, like the Pomeranians), Mongols stay for the next player and leave
  the map after the last one;
- Balt Raid: the Princeps moves the Prussians (not while Teutonic Knights stand on the map), then the
  Lithuanians; Teutonic Knights: without Knights on the map, whoever controls Culmen may call them (2 Knights, a
  Civitas and a Castle there; its building goes, the land is theirs at once and the caller's units withdraw
  to adjacent lands it controls, where it chooses: ``culmen_withdraw``; resolutions 28 and 53), else the
  Princeps moves them; Mongol Invasion: 4, 3, 2, then 1 riders enter the Rus Fiefdoms and each
  player in turn order moves the horde (resolution 29).

``play["teutons"]`` is True once the Teutonic Knights were called.
"""

from __future__ import annotations

from ..data import LITHUANIANS, MONGOLS, PRUSSIANS, TEUTONS, catalog
from ..schema import Army, Event, PState
from ..state import controllers
from .common import (
    FIGHTERS,
    Ctx,
    active,
    add_units,
    land_name,
    name,
    occupants,
    prompt,
    round_order,
    to_pool,
)
from .movement import pose_consent
from .neighbours import army_battle_step, army_of, begin_move, move_answer, move_options
from .princesses import remove_princess

MONGOL_AREA = "rus"
MONGOL_RIDERS = 4  # 4, then 3, 2, 1 riders (resolution 29)
TEUTON_KNIGHTS = 2
UNITS = ("knight", "footman")


def is_invader(faction: str) -> bool:
    """Balts, Teutonic Knights and Mongols (for the Prince cards that name Invaders)."""
    record = catalog().factions.get(faction)
    return record is not None and record["group"] == "invader"


def teuton_land() -> str:
    """The land with the Teutonic Knight symbol (Culmen)."""
    return next(land for land, record in catalog().lands.items() if "teutonic" in record["marks"])


def units_on_map(state: PState, faction: str) -> int:
    return sum(
        n
        for land in state["lands"].values()
        for unit, n in land["units"].get(faction, {}).items()
        if unit in UNITS
    )


def _army_size(state: PState, faction: str) -> dict[str, int]:
    """The faction's Knights and Footmen on the map and in the off-map areas (all of them may move)."""
    places = [area["units"] for area in state["offmap"].values()] + [
        land["units"] for land in state["lands"].values()
    ]
    return {unit: sum(units.get(faction, {}).get(unit, 0) for units in places) for unit in UNITS}


# ---- starting an icon --------------------------------------------------------------------------------------


def start(ctx: Ctx, event: Event, icon: str) -> None:
    """Queue the armies the icon activates (``event["movers"]``: [faction, mover] pairs)."""
    state = ctx.state
    princeps = state["princeps"]["holder"]
    event["movers"], event["army"] = [], None
    if icon == "balt_raid":
        if units_on_map(state, TEUTONS):
            ctx.log(
                "balt_blocked",
                "The Teutonic Knights stand on the map: the Prussians stay home, only the Lithuanians raid.",
            )
        else:
            event["movers"].append([PRUSSIANS, princeps])
        event["movers"].append([LITHUANIANS, princeps])
    elif icon == "teutonic":
        if units_on_map(state, TEUTONS):
            event["movers"].append([TEUTONS, princeps])
        else:
            owner = controllers(state)[teuton_land()]
            if owner is not None and active(state, owner):
                event["caller"] = owner
            else:
                ctx.log(
                    "teutons_uncalled",
                    f"No player controls {land_name(teuton_land())}: nobody calls the Teutonic Knights.",
                )
    elif icon == "mongols":
        _mongols_arrive(ctx, event)


def _mongols_arrive(ctx: Ctx, event: Event) -> None:
    state = ctx.state
    pool = state["supply"]["units"].get(MONGOLS, {})
    riders = min(MONGOL_RIDERS - state["mongol_invasions"], pool.get("knight", 0))
    state["mongol_invasions"] += 1
    if riders <= 0:
        ctx.log("mongols_spent", "The Mongol raids are spent: no rider comes.")
        return
    pool["knight"] -= riders
    area = state["offmap"][MONGOL_AREA]["units"].setdefault(MONGOLS, {})
    area["knight"] = area.get("knight", 0) + riders
    ctx.log(
        "mongols_arrive",
        f"{riders} Mongol riders gather in the Rus Fiefdoms; each player in turn may move the horde.",
    )
    event["movers"] = [[MONGOLS, code] for code in round_order(state)]
    event["mongols"] = True


# ---- the steps ---------------------------------------------------------------------------------------------


def step(ctx: Ctx, event: Event) -> bool:
    """Pose the next decision of an Invader icon or resolve its automatic part; True once the icon is over."""
    if event.get("withdrawing") and _withdrawal_step(ctx, event):
        return False
    if code := event.get("caller"):
        if active(ctx.state, code) and controllers(ctx.state)[teuton_land()] == code:
            prompt(
                ctx,
                code,
                "teutonic_call",
                f"You control {land_name(teuton_land())}: call the Teutonic "
                "Knights there (2 Knights, a Civitas and a Castle; your units there withdraw and you lose "
                "the land), or pass?",
            )
            return False
        event["caller"] = None
    army = event.get("army")
    if army is None:
        army = _next_army(ctx, event)
        if army is None:
            if event.pop("mongols", False):
                _mongols_leave(ctx)
            return True
    if army["stage"] == "move":
        prompt(
            ctx,
            army["mover"],
            "invader_move",
            f"Move the {name(army['faction'])} ({army['knights']} "
            f"Knight(s), {army['footmen']} Footman/men): move <unit> <from> <to>, ask <land> for passage, undo, "
            "then done. They may not end on lands you control.",
        )
        return False
    if army["stage"] == "consent":
        pose_consent(ctx, army)
        return False
    _battles_step(ctx, event, army)
    return False


def _next_army(ctx: Ctx, event: Event) -> Army | None:
    while event["movers"]:
        faction, mover = event["movers"].pop(0)
        size = _army_size(ctx.state, faction)
        if not active(ctx.state, mover) or not any(size.values()):
            continue
        army: Army = {
            "invader": True,
            "faction": faction,
            "mover": mover,
            "knights": size["knight"],
            "footmen": size["footman"],
            "stage": "move",  # begin_move sets it too
        }
        begin_move(ctx, mover, army)
        event["army"] = army
        ctx.log("invaders_activated", f"{name(mover)} moves the {name(faction)}.")
        return army
    return None


def options(ctx: Ctx, code: str, kind: str) -> list[str]:
    if kind == "teutonic_call":
        return ["call", "pass"]
    if kind == "culmen_withdraw":
        return culmen_withdraw_options(ctx.state, code)
    return move_options(ctx, code)


def answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    event = ctx.event
    if kind == "culmen_withdraw":
        _withdraw_from_culmen(ctx, code, words[1], words[2])
        return
    if kind == "teutonic_call":
        event["caller"] = None
        if words == ["call"]:
            call_teutons(ctx, code)
        else:
            ctx.log("teutons_declined", f"{name(code)} does not call the Teutonic Knights.")
        return
    if words != ["done"]:
        move_answer(ctx, code, words)
        return
    army = army_of(ctx)
    army.update(
        {
            "stage": "battles",
            "ended": sorted({p["at"] for p in army["pieces"] if p["moved"]}),
            "pieces": [],
            "log": [],
        }
    )
    ctx.log("invaders_moved", f"{name(code)} ends the move of the {name(army['faction'])}.")


def _battles_step(ctx: Ctx, event: Event, army: Army) -> None:
    """The Invaders attack where they stand with others; then devastation, then home (Mongols stay)."""
    faction = army["faction"]
    if army_battle_step(ctx, army):  # the player moving them chooses the order and their withdrawals
        return
    devastate(ctx, faction, army["ended"])
    if faction != MONGOLS:
        go_home(ctx, faction)
    event["army"] = None


# ---- devastation and going home (resolution 30) ------------------------------------------------------------


def devastate(ctx: Ctx, faction: str, lands: list[str]) -> None:
    """Every City and building on the lands where the Invaders stand alone is removed; so is a Princess."""
    state = ctx.state
    tokens = state["supply"]["tokens"]
    for land in lands:
        land_state = state["lands"][land]
        if occupants(state, land) != [faction]:
            continue
        razed = [
            gord["name"] for gord in catalog().lands[land]["gords"] if gord["id"] in land_state["cities"]
        ]
        for token in land_state["cities"].values():
            tokens[token] += 1
        land_state["cities"] = {}
        if land_state["building"] is not None:
            razed.append(f"the {land_state['building'].title()}")
            tokens[land_state["building"]] += 1
            land_state["building"] = None
        remove_princess(state, land, ctx)  # devastation sends her home until the next Period (30)
        if razed:
            ctx.log(
                "devastation",
                f"The {name(faction)} devastate {land_name(land)}: {', '.join(razed)} destroyed.",
            )


def go_home(ctx: Ctx, faction: str) -> None:
    """Balts return to their area; Teutonic Knights to Culmen, or to the supply while others hold it."""
    state = ctx.state
    home = catalog().factions[faction].get("home")
    culmen = teuton_land()
    moved = 0
    for land, land_state in state["lands"].items():
        units = {unit: n for unit, n in land_state["units"].get(faction, {}).items() if unit in UNITS}
        if faction == TEUTONS and land == culmen:
            continue
        for unit, count in units.items():
            add_units(state, land, faction, unit, -count)
            moved += count
            if home in state["offmap"]:
                area = state["offmap"][home]["units"].setdefault(faction, {})
                area[unit] = area.get(unit, 0) + count
            else:
                to_pool(state, faction, unit, count)
    if moved:
        ctx.log("invaders_home", f"The {name(faction)} return home with their plunder.")
    if faction == TEUTONS:
        return_teutons(ctx)


def return_teutons(ctx: Ctx) -> None:
    """Called Teutonic Knights waiting in the supply come back to Culmen once no other unit holds it."""
    state = ctx.state
    pool = state["supply"]["units"].get(TEUTONS, {})
    culmen = teuton_land()
    if not ctx.play.get("teutons") or not pool.get("knight"):
        return
    if any(faction != TEUTONS for faction in occupants(state, culmen)):
        return
    add_units(state, culmen, TEUTONS, "knight", pool.pop("knight"))
    ctx.log("teutons_return", f"The Teutonic Knights return to {land_name(culmen)}.")


def _mongols_leave(ctx: Ctx) -> None:
    """After the last player's move the surviving riders leave the map for the Kurultai."""
    state = ctx.state
    places = [state["offmap"][MONGOL_AREA]["units"]] + [land["units"] for land in state["lands"].values()]
    riders = 0
    for units in places:
        riders += units.pop(MONGOLS, {}).get("knight", 0)
    if riders:
        to_pool(state, MONGOLS, "knight", riders)
        ctx.log("mongols_leave", f"The {riders} surviving Mongol rider(s) ride back to the Kurultai.")


# ---- calling the Teutonic Knights (resolution 28) ----------------------------------------------------------


def call_teutons(ctx: Ctx, code: str) -> None:
    """2 Knights, a Civitas (if the gord has no City) and a Castle (if one is left) on Culmen; its building is
    removed; the caller loses the land at once and its units there must withdraw as after a battle: one at a
    time to the adjacent lands it controls, where it chooses (``culmen_withdraw``, resolution 53), or to its
    pool when it controls none."""
    state = ctx.state
    land = teuton_land()
    land_state = state["lands"][land]
    tokens = state["supply"]["tokens"]
    if land_state["building"] is not None:
        tokens[land_state["building"]] += 1
        land_state["building"] = None
    gord = catalog().lands[land]["gords"][0]["id"]
    if not land_state["cities"] and tokens["civitas"] > 0:
        tokens["civitas"] -= 1
        land_state["cities"][gord] = "civitas"
    if tokens["castle"] > 0:
        tokens["castle"] -= 1
        land_state["building"] = "castle"
    pool = state["supply"]["units"].setdefault(TEUTONS, {})
    knights = min(TEUTON_KNIGHTS, pool.get("knight", 0))
    pool["knight"] = pool.get("knight", 0) - knights
    if not pool["knight"]:
        del pool["knight"]
    add_units(state, land, TEUTONS, "knight", knights)
    if "contested" in ctx.play and land in ctx.play["contested"]:
        ctx.play["contested"][land] = (
            None  # "After calling upon the Teutonic Knights, the player loses control"
        )
    ctx.play["teutons"] = True
    ctx.event["withdrawing"] = code
    ctx.log(
        "teutons_called",
        f"{name(code)} calls the Teutonic Knights to {land_name(land)}: "
        f"{knights} Knights, a Civitas and a Castle; the land is theirs now.",
    )


def _culmen_units(state: PState, code: str) -> dict[str, int]:
    units = state["lands"][teuton_land()]["units"].get(code, {})
    return {unit: n for unit, n in units.items() if unit in FIGHTERS and n}


def _refuges(state: PState, code: str) -> list[str]:
    control = controllers(state)
    return sorted(near for near in catalog().adjacency[teuton_land()] if control[near] == code)


def culmen_withdraw_options(state: PState, code: str) -> list[str]:
    """``withdraw <unit> <land>``: the caller's units on Culmen to the adjacent lands it controls."""
    return [
        f"withdraw {unit} {land}"
        for unit in sorted(_culmen_units(state, code))
        for land in _refuges(state, code)
    ]


def _withdrawal_step(ctx: Ctx, event: Event) -> bool:
    """The caller's units leave Culmen: a prompt while it may choose; none left, or nowhere to go (they are
    removed to its pool, as after a battle): the withdrawal is over. True when a prompt was posed."""
    code = event.get("withdrawing")
    assert code is not None, "a caller's units are withdrawing"
    units = _culmen_units(ctx.state, code)
    if units and active(ctx.state, code) and _refuges(ctx.state, code):
        prompt(
            ctx,
            code,
            "culmen_withdraw",
            f"Your units leave {land_name(teuton_land())} to the Teutonic Knights: withdraw them one at a time "
            "to adjacent lands you control.",
        )
        return True
    for unit, count in units.items():
        add_units(ctx.state, teuton_land(), code, unit, -count)
        to_pool(ctx.state, code, unit, count)
    if units:
        ctx.log(
            "withdrawal",
            f"{name(code)} has nowhere to withdraw from {land_name(teuton_land())}: its units there are removed.",
        )
    event["withdrawing"] = None
    return False


def _withdraw_from_culmen(ctx: Ctx, code: str, unit: str, land: str) -> None:
    add_units(ctx.state, teuton_land(), code, unit, -1)
    add_units(ctx.state, land, code, unit, 1)
    ctx.log(
        "withdrawal",
        f"{name(code)} withdraws a {unit.title()} from {land_name(teuton_land())} to {land_name(land)}.",
    )


KINDS = ("teutonic_call", "invader_move", "culmen_withdraw")
