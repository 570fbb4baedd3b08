"""The Movement action: free-mode moves step by step, consent to pass, the Clergy penalty, control, destruction
and the battles in the order the mover chooses.

Each unit is a *piece* with its Movement Points (cavalry 3, infantry 2); ``move knight posnania gnesna`` moves
the piece of that type on that land with the most points left across one border (1 point). Entering a land with
units of another colour stops the piece unless its owner consented (``ask <land>``; neutral units never
consent; resolution 9; the same request serves the armies a player moves, resolution 49). Moves can be undone
until ``done`` (resolution 10). Then, in this order: Division tokens where a move ended are removed (resolution
25), the Clergy penalty per land (resolution 11), control changes, optional destruction (resolution 12), battles
(resolution 13).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..data import PRINCIPALITIES, catalog
from ..schema import Action, Army, Asking, Piece, PlayerState, PlayView, PState
from ..state import controllers, land_controller
from .battle import start as start_battle
from .building import destroy, destruction_choices, queue_destruction
from .common import (
    CAVALRY,
    Ctx,
    active,
    add_units,
    change_track,
    land_name,
    name,
    occupants,
    pay_gold,
    prompt,
)
from .effects_engine import rule_terms
from .princes import waive_penalties

MOVEMENT_POINTS = {"knight": 3, "prince": 3, "footman": 2}
#: the answers to a request to pass
CONSENT = ["allow", "deny", "allow always", "deny always"]
#: moves and undos per Movement action: free mode, but a playout must end
MAX_OPERATIONS = 40


def begin(ctx: Ctx, code: str) -> None:
    state = ctx.state
    action = ctx.action
    pieces: list[Piece] = []
    bonus = movement_bonus(state, code)
    for land, land_state in sorted(state["lands"].items()):
        for unit in ("prince", "knight", "footman"):
            for _ in range(land_state["units"].get(code, {}).get(unit, 0)):
                pieces.append(
                    {
                        "type": unit,
                        "at": land,
                        "mp": MOVEMENT_POINTS[unit] + bonus[unit],
                        "stopped": False,
                        "moved": False,
                    }
                )
    action.update(
        {
            "stage": "move",
            "pieces": pieces,
            "log": [],
            "ops": 0,
            "consent": [],
            "denied": [],
            "asking": None,
            "penalties": [],
            "destroy": [],
            "start_control": controllers(state),
            "start_division": [land for land, ls in state["lands"].items() if ls["division"]],
        }
    )


def movement_bonus(state: PState, code: str) -> dict[str, int]:
    """Extra Movement Points per unit type from held tiles (Mounts for Infantry: Footmen +1)."""
    bonus = dict.fromkeys(MOVEMENT_POINTS, 0)
    for term in rule_terms(state, code, "movement_bonus"):
        kinds = {"all": tuple(MOVEMENT_POINTS), "infantry": ("footman",), "cavalry": CAVALRY}[
            term.args[0].name
        ]
        for unit in kinds:
            bonus[unit] += term.args[1].number or 0
    return bonus


def border_guard(state: PState, land: str, code: str) -> str | None:
    """The player other than ``code`` whose Border Guards watch ``land`` (a land that player controls)."""
    # one land's controller, as ``controllers`` finds it (this is asked for every border a Movement offers)
    owner = land_controller(state, land) if land in state["lands"] else None
    if owner is None or owner == code or not active(state, owner):
        return None
    return owner if rule_terms(state, owner, "stop_at_border") else None


def step(ctx: Ctx) -> bool:
    """Pose the Movement's next prompt or resolve its next automatic part; True once it is over (no penalty,
    destruction or battle left)."""
    action = ctx.action
    code = action["who"]
    stage = action["stage"]
    if stage == "move":
        if not active(ctx.state, code):
            finish_moves(ctx)
            return False
        prompt(
            ctx,
            code,
            "movement",
            "Movement: move your units one border at a time (undo allowed), ask for passage, then done.",
        )
        return False
    if stage == "consent":
        pose_consent(ctx, action)
        return False
    return _resolve_step(ctx, action)


# ---- moving ------------------------------------------------------------------------------------------------


def _enemy_players(state: PState, land: str, code: str) -> list[str]:
    """Who stops a unit entering ``land``: foreign occupants, and a Border Guards holder controlling it."""
    found = [faction for faction in occupants(state, land) if faction != code]
    guard = border_guard(state, land, code)
    return found + [guard] if guard is not None and guard not in found else found


def options(ctx: Ctx, code: str) -> list[str]:
    action = ctx.action
    state = ctx.state
    result: list[str] = []
    asked = set(action["consent"]) | set(action["denied"])
    if action["ops"] < MAX_OPERATIONS:
        groups = sorted({(p["type"], p["at"]) for p in action["pieces"] if p["mp"] > 0 and not p["stopped"]})
        askable: set[str] = set()
        for unit, land in groups:
            for near in sorted(catalog().adjacency[land]):
                result.append(f"move {unit} {land} {near}")
                others = _enemy_players(state, near, code)
                if others and near not in asked and all(active(state, other) for other in others):
                    askable.add(near)
        result += [f"ask {land}" for land in sorted(askable)]
        if action["log"]:
            result.append("undo")
    if any(p["moved"] and p["at"] in truce_lands(state, code) for p in action["pieces"]):
        return result if "undo" in result else result + ["undo"]  # Truce of God: undo before done
    return result + ["done"]


def answer(ctx: Ctx, code: str, words: list[str]) -> None:
    """``move <unit> <from> <to>``, ``ask <land>``, ``undo`` or ``done``."""
    if words[0] == "move":
        move(ctx, code, words[1], words[2], words[3])
    elif words[0] == "ask":
        ask(ctx, code, words[1])
    elif words[0] == "undo":
        undo(ctx, code)
    else:
        finish_moves(ctx)


def truce_lands(state: PState, code: str) -> set[str]:
    """Lands where ``code``'s units (or the Neighbour units it moves) may not end a move this Round: the land
    chosen with a Truce of God by another player."""
    effects = state["play"].get("round_effects", [])
    return {
        entry["land"]
        for entry in effects
        if entry["effect"].get("op") == "immunity" and entry["who"] != code and entry["land"]
    }


def move(ctx: Ctx, code: str, unit: str, origin: str, target: str) -> None:
    action = ctx.action
    index = max(
        (
            i
            for i, p in enumerate(action["pieces"])
            if p["type"] == unit and p["at"] == origin and p["mp"] > 0 and not p["stopped"]
        ),
        key=lambda i: action["pieces"][i]["mp"],
    )
    piece = action["pieces"][index]
    action["log"].append(
        {"piece": index, "from": origin, "stopped": piece["stopped"], "moved": piece["moved"]}
    )
    piece["at"], piece["mp"], piece["moved"] = target, piece["mp"] - 1, True
    if _enemy_players(ctx.state, target, code) and target not in action["consent"]:
        piece["stopped"] = True  # a land with units of another colour stops the move (resolution 9)
    add_units(ctx.state, origin, code, unit, -1)
    add_units(ctx.state, target, code, unit, 1)
    action["ops"] += 1
    ctx.log("move", f"{name(code)} moves a {unit.title()} from {land_name(origin)} to {land_name(target)}.")


def undo(ctx: Ctx, code: str) -> None:
    action = ctx.action
    last = action["log"].pop()
    piece = action["pieces"][last["piece"]]
    add_units(ctx.state, piece["at"], code, piece["type"], -1)
    add_units(ctx.state, last["from"], code, piece["type"], 1)
    ctx.log(
        "undo", f"{name(code)} takes back the move of a {piece['type'].title()} to {land_name(piece['at'])}."
    )
    piece["at"], piece["mp"] = last["from"], piece["mp"] + 1
    piece["stopped"], piece["moved"] = last["stopped"], last["moved"]
    action["ops"] += 1


# ---- consent to pass (resolutions 10 and 49) ---------------------------------------------------------------
# The record asking is the Movement action, or an army being moved (a Neighbour's, a neutral principality's or
# the Invaders'): each keeps ``asking`` ({"land", "owners"}), the lands it may pass (``consent``) and those
# refused (``denied``); its stage is "consent" while an owner is asked.


def passage_record(play: PlayView) -> Action | Army | None:
    """The Movement or army whose request to pass waits for an answer (``play`` may be a view's)."""
    event, action = play.get("event"), play.get("action")
    records: tuple[Action | Army | None, ...] = (
        event.get("army") if event else None,
        action.get("neighbour") if action else None,
        action,
    )
    for record in records:
        if record is not None and record.get("stage") == "consent":
            return record
    return None


def _fields(record: Action | Army) -> Mapping[str, object]:
    """A record read by keys only one of the two kinds has (an army's ``mover`` and ``faction``)."""
    return record


def _asking(record: Action | Army) -> Asking:
    """The request waiting for answers (the record's stage is "consent")."""
    asking = record.get("asking")
    assert asking is not None, "a request to pass waits"
    return asking


def asker(play: PlayView, record: Action | Army) -> str:
    """The player who asks: the mover of an army, else the player performing the Movement."""
    fields = _fields(record)
    mover = fields.get("mover") or fields.get("who")
    if mover:
        return str(mover)
    action = play["action"]
    assert action is not None, "a Movement asks"
    return action["who"]


def pose_consent(ctx: Ctx, record: Action | Army) -> None:
    """Ask the first owner who has not answered yet."""
    code = asker(ctx.play, record)
    owner = _asking(record)["owners"][0]
    land = land_name(_asking(record)["land"])
    faction = _fields(record).get("faction")
    whose = f"the {name(str(faction))} units it moves" if faction else "its units"
    prompt(
        ctx,
        owner,
        "consent",
        f"{name(code)} asks to let {whose} pass through {land}, where your units stand: allow or deny?",
    )


def ask(
    ctx: Ctx, code: str, land: str, record: Action | Army | None = None, owners: list[str] | None = None
) -> None:
    """``ask <land>``: the owners of the units there are asked in turn (standing answers decide at once)."""
    record = ctx.action if record is None else record
    owners = _enemy_players(ctx.state, land, code) if owners is None else owners
    record["asking"] = {"land": land, "owners": owners}
    ctx.log(
        "consent_asked",
        f"{name(code)} asks {', '.join(name(o) for o in owners)} for passage through {land_name(land)}.",
    )
    record["stage"] = "consent"
    _apply_standing(ctx, record)


def _apply_standing(ctx: Ctx, record: Action | Army) -> None:
    """Standing answers decide at once; the first owner without one is asked."""
    code = asker(ctx.play, record)
    while _asking(record)["owners"]:
        owner = _asking(record)["owners"][0]
        standing = ctx.play["standing"][owner].get(code)
        if standing is None:
            return
        ctx.log("standing", f"{name(owner)}'s standing answer to {name(code)}: {standing}.")
        _consent(ctx, record, owner, standing == "allow")
        if record["stage"] != "consent":
            return


def _consent(ctx: Ctx, record: Action | Army, owner: str, allowed: bool) -> None:
    land = _asking(record)["land"]
    if not allowed:
        record.setdefault("denied", []).append(land)
        ctx.log("consent_denied", f"{name(owner)} denies passage through {land_name(land)}.")
        _end_asking(record)
        return
    _asking(record)["owners"].pop(0)
    if not _asking(record)["owners"]:
        record.setdefault("consent", []).append(land)
        ctx.log("consent_allowed", f"Passage through {land_name(land)} is allowed.")
        _end_asking(record)


def _end_asking(record: Action | Army) -> None:
    record["asking"] = None
    record["stage"] = "move"


def consent_options(ctx: Ctx, code: str) -> list[str]:
    return CONSENT


def consent_answer(ctx: Ctx, owner: str, words: list[str]) -> None:
    record = passage_record(ctx.play)
    assert record is not None  # the consent prompt exists only while a request waits
    allowed = words[0] == "allow"
    if words[1:] == ["always"]:
        ctx.play["standing"][owner][asker(ctx.play, record)] = "allow" if allowed else "deny"
    _consent(ctx, record, owner, allowed)
    if record["stage"] == "consent":
        _apply_standing(ctx, record)


# ---- after the moves ---------------------------------------------------------------------------------------


def finish_moves(ctx: Ctx) -> None:
    """``done``: Division tokens, the Clergy penalty lands, control changes and destruction are worked out."""
    state = ctx.state
    action = ctx.action
    code = action["who"]
    action["stage"] = "resolve"
    ended = sorted({p["at"] for p in action["pieces"] if p["moved"]})
    for land in ended:
        land_state = state["lands"][land]
        if land_state["division"] and occupants(state, land) == [code]:
            land_state["division"] = False  # resolution 25: no battle, the single penalty below
            state["supply"]["tokens"]["division"] += 1
            ctx.log("division_removed", f"{name(code)} removes the Division token from {land_name(land)}.")
    start = action["start_control"]
    for land in ended:
        owner = catalog().lands[land]["principality"]
        inside = owner in PRINCIPALITIES and (owner != code or land in action["start_division"])
        if inside and start[land] != code:
            action["penalties"].append(land)
    now = controllers(state)
    for land in ended:
        if now[land] == code and start[land] != code:
            ctx.log("control", f"{name(code)} takes control of {land_name(land)}.")
            queue_destruction(ctx, action, land)
    action["pieces"], action["log"] = [], []


def _resolve_step(ctx: Ctx, action: Action) -> bool:
    """The penalties, then the destruction, then the battles; True when nothing is left."""
    code = action["who"]
    player = ctx.state["players"][code]
    if not active(ctx.state, code):  # eliminated in its own battle: no penalty, no destruction any more
        action["penalties"], action["destroy"] = [], []
    if action["penalties"]:
        waive_penalties(ctx, code, action)  # Henry III of Głogów
    cap = penalty_cap(ctx.state, code)
    if cap is not None and len(action["penalties"]) > cap:
        waived = action["penalties"][cap:]
        action["penalties"] = action["penalties"][:cap]
        ctx.log(
            "penalty_waived",
            f"{name(code)} pays no Clergy penalty for "
            f"{', '.join(land_name(land) for land in waived)} (Bishops' Safe-Conduct).",
        )
    if action["penalties"]:
        land = action["penalties"][0]
        choices = penalty_choices(player)
        if len(choices) == 2:
            prompt(
                ctx,
                code,
                "clergy_penalty",
                f"The Church frowns on your army in {land_name(land)}: lose 1 Clergy or pay 1 gold.",
            )
            return False
        action["penalties"].pop(0)
        if choices:
            pay_penalty(ctx, code, land, choices[0])
        return False
    if action["destroy"]:
        prompt(
            ctx,
            code,
            "destroy",
            f"You took {land_name(action['destroy'][0])}: destroy its City and/or "
            "building (costs 1 People and 1 Clergy) or keep them?",
        )
        return False
    contested = battle_lands(ctx, code)
    if not contested:
        return True
    if len(contested) == 1 or not active(ctx.state, code):
        start_battle(ctx, contested[0], code)
        return False
    prompt(
        ctx,
        code,
        "battle_order",
        "Choose the next battle: " + ", ".join(land_name(land) for land in contested) + ".",
    )
    return False


def battle_lands(ctx: Ctx, code: str) -> list[str]:
    return sorted(
        land
        for land in ctx.state["lands"]
        if code in occupants(ctx.state, land) and len(occupants(ctx.state, land)) > 1
    )


def penalty_cap(state: PState, code: str) -> int | None:
    """At most this many Clergy penalty lands (a held ``penalty_waiver(cap(n))`` tile), else no cap."""
    caps = [
        term.args[0].args[0].number or 0
        for term in rule_terms(state, code, "penalty_waiver")
        if term.args[0].name == "cap"
    ]
    return min(caps) if caps else None


def penalty_choices(player: PlayerState) -> list[str]:
    """-1 Clergy or 1 gold; nothing at 0 Clergy and 0 gold (resolution 11)."""
    return [choice for choice, can in (("clergy", player["clergy"] > 0), ("gold", player["gold"] > 0)) if can]


def pay_penalty(ctx: Ctx, code: str, land: str, choice: str) -> None:
    if choice == "clergy":
        change_track(ctx, code, "clergy", -1, f"Clergy penalty for {land_name(land)}")
    else:
        pay_gold(ctx, code, 1)
        ctx.log("clergy_penalty", f"{name(code)} pays 1 gold to the Church for {land_name(land)}.")


def resolve_options(ctx: Ctx, code: str, kind: str) -> list[str]:
    action = ctx.action
    if kind == "clergy_penalty":
        land = action["penalties"][0]
        return [f"penalty {land} {choice}" for choice in penalty_choices(ctx.state["players"][code])]
    if kind == "destroy":
        return destruction_choices(ctx.state, action["destroy"][0])
    return [f"battle {land}" for land in battle_lands(ctx, code)]


def resolve_answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    action = ctx.action
    if kind == "clergy_penalty":
        action["penalties"].pop(0)
        pay_penalty(ctx, code, words[1], words[2])
    elif kind == "destroy":
        land = action["destroy"].pop(0)
        if words[0] == "destroy":
            destroy(ctx, code, land, words[2:])
    else:
        start_battle(ctx, words[1], code)


__all__ = ["CAVALRY", "MOVEMENT_POINTS", "begin", "step"]
