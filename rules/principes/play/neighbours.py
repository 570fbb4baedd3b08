"""Neighbour cards: announced before the Politics action, blocked by the others, moved like own units.

After revealing the Politics token and before drawing or summoning a Council, the player may play Neighbour
cards one at a time (``neighbour <card> <faction>``; a joker names the Neighbour; a full-pool card costs 2 gold,
paid on play and kept if blocked, resolution 22; one card per Neighbour per Politics action). Every other active
player, in the Round's turn order, then gets the blocking window (``block <card>`` with a card of the same
Neighbour or a joker, subtracting the units it shows, or ``pass``) — offered whatever their hand, so the prompt
reveals nothing. The player then moves at most the remaining Knights and Footmen of that Neighbour from where
they stand (the off-map area or Polish lands), exactly as own units: 3/2 Movement Points, leaving the area costs
1, never onto off-map areas, entering a land with other units stops the unit unless their owners let it pass
(``ask <land>``; the mover's own units never stop it; resolution 49); a unit may not end on a land the mover
controlled when the move began, nor on a land of a player whose Princess is married to that Neighbour
(resolution 23). After ``done``: Division tokens on lands they occupy are removed, the mover may destroy Cities
and buildings on the lands they took (no track cost), then the battles are fought with the Neighbour as
attacker, in the order the mover chooses (resolution 50; a won battle offers the destruction too, 48; the mover
decides its withdrawals, to a land it holds or home, 51; it plays no cards for it). The units stay until
expelled.

The sub-state lives in the Politics action: ``action["neighbour"] = {"card", "faction", "knights", "footmen",
"queue", "stage": "block"|"move"|"consent"|"destroy"|"battles", "mover", "pieces", "log", "ops",
"start_control", "asking", "consent", "denied", "ended", "destroy"}`` and ``action["neighbours_done"]`` lists the
Neighbours already played this action.
"""

from __future__ import annotations

from ..data import catalog
from ..schema import Action, Army, Piece, PlayView, PState
from ..state import controllers
from .battle import start as start_battle
from .building import army_may_destroy, destruction_choices, raze
from .common import (
    Ctx,
    active,
    add_units,
    card_id_from,
    card_record,
    card_title,
    land_name,
    name,
    occupants,
    pay_gold,
    prompt,
    round_order,
    to_deck_bottom,
)
from .movement import (
    MOVEMENT_POINTS,
    ask,
    movement_bonus,
    pose_consent,
    resolve_answer,
    resolve_options,
    truce_lands,
)
from .princes import immune

NEIGHBOURS = ("GER", "BOH", "HUN", "RUS", "WPOM", "EPOM")
UNITS = ("knight", "footman")
#: moves per Neighbour movement: free mode with undo, but a playout must end
MAX_MOVES = 40


def _matches(card: str, faction: str) -> bool:
    record = card_record(card)
    return record["deck"] == "neighbour" and record["faction"] in (faction, "any")


def _home(faction: str) -> str:
    """The Neighbour's area ('' for a neutral principality's army, which has none: no Princess marries it)."""
    return str(catalog().factions[faction].get("home") or "")


# ---- playing a card ----------------------------------------------------------------------------------------


def card_options(ctx: Ctx, code: str, action: Action) -> list[str]:
    """``neighbour <card> <faction>`` for each Neighbour card in hand the player can pay for."""
    player = ctx.state["players"][code]
    done = action.get("neighbours_done", [])
    result = []
    for card in player["hand"]:
        record = card_record(card)
        if record["deck"] != "neighbour" or player["gold"] < record["cost"]:
            continue
        factions = NEIGHBOURS if record["faction"] == "any" else (record["faction"],)
        result += [
            f"neighbour {card.lower()} {faction.lower()}" for faction in factions if faction not in done
        ]
    return result


def play_card(ctx: Ctx, code: str, action: Action, words: list[str]) -> None:
    card = card_id_from(ctx.state, code, words[1])
    assert card is not None
    faction = words[2].upper()
    record = card_record(card)
    ctx.state["players"][code]["hand"].remove(card)
    to_deck_bottom(ctx.state, card)
    paid = pay_gold(ctx, code, int(record["cost"]))
    cost = f", paying {paid} gold" if paid else ""
    ctx.log(
        "neighbour_card",
        f"{name(code)} plays {card_title(card)}{cost}: {record['text']} "
        f"Announced: {name(faction)} ({record['knights']} Knight(s), {record['footmen']} Footman/men).",
    )
    action.setdefault("neighbours_done", []).append(faction)
    order = round_order(ctx.state)
    start = order.index(code) if code in order else 0
    others = [other for other in order[start + 1 :] + order[:start] if other != code]
    action["neighbour"] = {
        "card": card,
        "faction": faction,
        "knights": int(record["knights"]),
        "footmen": int(record["footmen"]),
        "queue": others,
        "stage": "block",
    }
    action["stage"] = "neighbour"


# ---- the steps ---------------------------------------------------------------------------------------------


def moved_army(action: Action) -> Army:
    """The Neighbour's (or neutral principality's) army the action moves."""
    army = action.get("neighbour")
    assert army is not None, "the action moves an army"
    return army


def step(ctx: Ctx, action: Action) -> None:
    army = moved_army(action)
    code = action["who"]
    if army["stage"] == "block":
        _block_step(ctx, code, army)
    elif army["stage"] == "move":
        prompt(
            ctx,
            code,
            "neighbour_move",
            f"Move up to {army['knights']} Knight(s) and {army['footmen']} "
            f"Footman/men of {name(army['faction'])} (move <unit> <from> <to>, ask <land> for passage, "
            "undo), then done.",
        )
    elif army["stage"] == "consent":
        pose_consent(ctx, army)
    elif army["stage"] == "destroy":
        if army["destroy"]:
            prompt(
                ctx,
                code,
                "neighbour_destroy",
                f"{name(army['faction'])} took "
                f"{land_name(army['destroy'][0])}: destroy its City and/or building, or keep them?",
            )
        else:
            army["stage"] = "battles"
    else:
        _battle_step(ctx, action, army)


def _block_step(ctx: Ctx, code: str, army: Army) -> None:
    queue = army["queue"]
    while queue and ctx.state["players"][queue[0]]["eliminated"]:
        queue.pop(0)
    if army["knights"] + army["footmen"] == 0:
        ctx.log("neighbour_stopped", f"The whole {name(army['faction'])} force is blocked.")
        _finish(ctx, code)
        return
    if queue:
        prompt(
            ctx,
            queue[0],
            "neighbour_block",
            f"{name(code)} activates {name(army['faction'])} "
            f"({army['knights']} Knight(s), {army['footmen']} Footman/men): block them with a card of that "
            "Neighbour or a joker, or pass.",
            timing="window",
        )
        return
    begin_move(ctx, code, army)


def begin_move(ctx: Ctx, code: str, army: Army) -> None:
    """Every unit of the army's faction, wherever it stands, becomes a piece ``code`` may move (Invaders too)."""
    state, faction = ctx.state, army["faction"]
    bonus = movement_bonus(state, code)  # the Neighbour's units move with the mover's range
    places = [(area, data["units"]) for area, data in state["offmap"].items()]
    places += [(land, data["units"]) for land, data in sorted(state["lands"].items())]
    pieces: list[Piece] = [
        {
            "type": unit,
            "at": place,
            "mp": MOVEMENT_POINTS[unit] + bonus[unit],
            "moved": False,
            "stopped": False,
        }
        for place, units in places
        for unit in UNITS
        for _ in range(units.get(faction, {}).get(unit, 0))
    ]
    army.update(
        {
            "stage": "move",
            "mover": code,
            "pieces": pieces,
            "log": [],
            "ops": 0,
            "start_control": controllers(state),
            "asking": None,
            "consent": [],
            "denied": [],
        }
    )


def _finish(ctx: Ctx, code: str) -> None:
    action = ctx.action
    action["neighbour"] = None
    action["stage"] = "main"


# ---- blocking ----------------------------------------------------------------------------------------------


def block_options(ctx: Ctx, code: str) -> list[str]:
    army = moved_army(ctx.action)
    cards = [card for card in ctx.state["players"][code]["hand"] if _matches(card, army["faction"])]
    return [f"block {card.lower()}" for card in cards] + ["pass"]


def block_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    army = moved_army(ctx.action)
    if words == ["pass"]:
        army["queue"].pop(0)
        return
    card = card_id_from(ctx.state, code, words[1])
    assert card is not None
    record = card_record(card)
    ctx.state["players"][code]["hand"].remove(card)
    to_deck_bottom(ctx.state, card)
    army["knights"] = max(0, army["knights"] - int(record["knights"]))
    army["footmen"] = max(0, army["footmen"] - int(record["footmen"]))
    ctx.log(
        "neighbour_blocked",
        f"{name(code)} plays {card_title(card)} to block {name(army['faction'])}: "
        f"{record['text']} Left to move: {army['knights']} Knight(s), {army['footmen']} Footman/men.",
    )


# ---- moving ------------------------------------------------------------------------------------------------


def _allowance(army: Army, unit: str) -> int:
    used = sum(1 for piece in army["pieces"] if piece["type"] == unit and piece["moved"])
    return int(army["knights" if unit == "knight" else "footmen"]) - used


def _exits(place: str) -> list[str]:
    data = catalog()
    if place in data.offmap:
        return sorted(data.offmap[place]["touches"])
    return sorted(data.adjacency[place])


def army_of(ctx: Ctx) -> Army:
    """The army being moved: a History event's Invaders (``history``), else the Politics action's Neighbour."""
    event = ctx.play.get("event")
    if event is not None:
        army = event.get("army")
        if army is not None:
            return army
    return moved_army(ctx.action)


def forbidden(state: PState, code: str, army: Army, land: str) -> bool:
    """Neighbours and Invaders may not end on a land the mover controlled when the move began (resolution 23),
    nor where ``ending_banned`` says so."""
    owner = army["start_control"].get(land)
    if owner == code or land in truce_lands(state, code) or land in truce_lands(state, army["faction"]):
        return True
    return ending_banned(state, army["faction"], land, owner)


def ending_banned(state: PState, faction: str, land: str, owner: str | None) -> bool:
    """Whether units of ``faction`` (a Neighbour or an Invader, whoever moves them) may not end a move on
    ``land``, which ``owner`` controlled when the move began: a land of a player whose Princess is married to
    that Neighbour (resolution 23), or of a player whose Prince's rule bars that faction (Siemowit I: the Rus;
    Bolesław II of Masovia: the Lithuanians). The one place where such immunities are decided, for both kinds
    of army."""
    married = [p for p, player in state["players"].items() if player["princess"] == _home(faction)]
    return owner in married or immune(state, owner, faction)


def _blockers(state: PState, army: Army, code: str, land: str) -> list[str]:
    """Whose units stop the army on ``land``: every other side's but the mover's own (the mover lets the
    army it moves pass its units, resolution 49)."""
    return [f for f in occupants(state, land) if f not in (army["faction"], code)]


def move_options(ctx: Ctx, code: str) -> list[str]:
    army = army_of(ctx)
    result = []
    if army["ops"] < MAX_MOVES:
        groups = sorted(
            {
                (p["type"], p["at"])
                for p in army["pieces"]
                if p["mp"] > 0 and not p["stopped"] and (p["moved"] or _allowance(army, p["type"]) > 0)
            }
        )
        asked = set(army.get("consent", [])) | set(army.get("denied", []))
        askable: set[str] = set()
        for unit, place in groups:
            for near in _exits(place):
                result.append(f"move {unit} {place} {near}")
                others = _blockers(ctx.state, army, code, near)
                if others and near not in asked and all(active(ctx.state, o) for o in others):
                    askable.add(near)  # neutral units never let anyone pass (resolution 9)
        result += [f"ask {land}" for land in sorted(askable)]
    if army["log"]:
        result.append("undo")
    if not any(forbidden(ctx.state, code, army, p["at"]) for p in army["pieces"] if p["moved"]):
        result.append("done")
    return result


def _place_units(state: PState, place: str, faction: str, unit: str, count: int) -> None:
    if place in state["offmap"]:
        units = state["offmap"][place]["units"].setdefault(faction, {})
        units[unit] = units.get(unit, 0) + count
        if units[unit] <= 0:
            del units[unit]
        if not units:
            del state["offmap"][place]["units"][faction]
    else:
        add_units(state, place, faction, unit, count)


def move_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    army = army_of(ctx)
    faction = army["faction"]
    if words == ["undo"]:
        last = army["log"].pop()
        piece = army["pieces"][last["piece"]]
        _place_units(ctx.state, piece["at"], faction, piece["type"], -1)
        _place_units(ctx.state, last["from"], faction, piece["type"], 1)
        piece.update(
            {"at": last["from"], "mp": piece["mp"] + 1, "moved": last["moved"], "stopped": last["stopped"]}
        )
        ctx.log("undo", f"{name(code)} takes back a move of {name(faction)}.")
        return
    if words == ["done"]:
        _end_moves(ctx, code, army)
        return
    if words[0] == "ask":
        ask(ctx, code, words[1], army, _blockers(ctx.state, army, code, words[1]))
        return
    unit, origin, target = words[1], words[2], words[3]
    index = max(
        (
            i
            for i, p in enumerate(army["pieces"])
            if p["type"] == unit
            and p["at"] == origin
            and p["mp"] > 0
            and not p["stopped"]
            and (p["moved"] or _allowance(army, unit) > 0)
        ),
        key=lambda i: (army["pieces"][i]["moved"], army["pieces"][i]["mp"]),
    )
    piece = army["pieces"][index]
    army["log"].append({"piece": index, "from": origin, "moved": piece["moved"], "stopped": piece["stopped"]})
    piece.update({"at": target, "mp": piece["mp"] - 1, "moved": True})
    if _blockers(ctx.state, army, code, target) and target not in army.get("consent", []):
        piece["stopped"] = True  # other units stop the move unless their owners let it pass (resolution 49)
    _place_units(ctx.state, origin, faction, unit, -1)
    _place_units(ctx.state, target, faction, unit, 1)
    army["ops"] += 1
    ctx.log(
        "neighbour_move",
        f"{name(code)} moves a {name(faction)} {unit.title()} from "
        f"{_place_name(origin)} to {land_name(target)}.",
    )


def _place_name(place: str) -> str:
    data = catalog()
    return str(data.offmap[place]["name"]) if place in data.offmap else land_name(place)


def _end_moves(ctx: Ctx, code: str, army: Army) -> None:
    state, faction = ctx.state, army["faction"]
    ended = sorted({p["at"] for p in army["pieces"] if p["moved"]})
    for land in ended:
        if state["lands"][land]["division"]:  # Neighbour occupation removes the Division token
            state["lands"][land]["division"] = False
            state["supply"]["tokens"]["division"] += 1
            ctx.log(
                "division_removed",
                f"{name(faction)} occupies {land_name(land)}: its Division token is removed.",
            )
    army["destroy"] = [land for land in ended if army_may_destroy(state, code, faction, land)]
    army.update({"stage": "destroy", "ended": ended, "pieces": [], "log": []})


# ---- destruction and battles -------------------------------------------------------------------------------


def destroy_options(ctx: Ctx, code: str) -> list[str]:
    return destruction_choices(ctx.state, moved_army(ctx.action)["destroy"][0])


def destroy_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    """Tokens back to the pool; a Neighbour's destruction costs the mover no track point (rulebook p. 25)."""
    army = moved_army(ctx.action)
    land = army["destroy"].pop(0)
    if words[0] != "destroy":
        return
    raze(ctx.state, land, words[2:])
    ctx.log(
        "destruction",
        f"{name(code)} has {name(army['faction'])} destroy {', '.join(words[2:])} on {land_name(land)}.",
    )


def _battle_step(ctx: Ctx, action: Action, army: Army) -> None:
    faction = army["faction"]
    if army_battle_step(ctx, army):
        return
    ctx.log("neighbour_done", f"{name(faction)}'s move is over; its units stay where they stand.")
    _finish(ctx, action["who"])


def army_battle_step(ctx: Ctx, army: Army) -> bool:
    """The army's next battle, the army attacking: with several to fight, the mover chooses which comes next
    (``battle_order``, resolution 50). False when none is left."""
    contested = contested_lands(ctx.state, army)
    if not contested:
        return False
    mover = army.get("mover") or ctx.action["who"]
    if len(contested) > 1 and active(ctx.state, mover):
        places = ", ".join(land_name(land) for land in contested)
        prompt(
            ctx, mover, "battle_order", f"Choose the next battle of the {name(army['faction'])}: {places}."
        )
        return True
    start_army_battle(ctx, army, contested[0])
    return True


def start_army_battle(ctx: Ctx, army: Army, land: str) -> None:
    start_battle(ctx, land, army["faction"])
    ctx.battle["mover"] = army.get("mover") or ctx.action["who"]  # decides its withdrawals


def battling_army(play: PlayView) -> Army | None:
    """The army whose battles are being fought: the Invaders of a History icon, else a Neighbour's or a
    neutral principality's army of the action."""
    event, action = play.get("event"), play.get("action")
    for army in (event.get("army") if event else None, action.get("neighbour") if action else None):
        if army is not None and army.get("stage") == "battles":
            return army
    return None


def battle_order_options(ctx: Ctx, code: str) -> list[str]:
    army = battling_army(ctx.play)
    if army is None:
        return resolve_options(ctx, code, "battle_order")
    return [f"battle {land}" for land in contested_lands(ctx.state, army)]


def battle_order_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    army = battling_army(ctx.play)
    if army is None:
        resolve_answer(ctx, code, "battle_order", words)
    else:
        start_army_battle(ctx, army, words[1])


def options(ctx: Ctx, code: str, kind: str) -> list[str]:
    if kind == "neighbour_block":
        return block_options(ctx, code)
    if kind == "neighbour_move":
        return move_options(ctx, code)
    return destroy_options(ctx, code)


def answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    if kind == "neighbour_block":
        block_answer(ctx, code, words)
    elif kind == "neighbour_move":
        move_answer(ctx, code, words)
    else:
        destroy_answer(ctx, code, words)


KINDS = ("neighbour_block", "neighbour_move", "neighbour_destroy")


def contested_lands(state: PState, army: Army) -> list[str]:
    """The lands where the army's moved units ended beside other units: each is a battle, the army attacking."""
    faction = army["faction"]
    return [
        land
        for land in army["ended"]
        if faction in occupants(state, land) and len(occupants(state, land)) > 1
    ]
