"""The active variant for 2 and 3 players (option ``neutrals=active``; rulebook ACTIVE VARIANT, resolution 38).

Each time a player ends an Assembly, Movement or Building action, they may perform the Combined Actions tile's
action for one neutral principality (prompt ``combined``; deadline default and AI fallback ``done``):

- Assembly: ``combined assemble <faction>``: up to 3 of its pool units (Knights first) into its Capital, free,
  if no foreign unit stands there;
- Movement: ``combined move <faction>``: its Knights and Footmen move exactly as a Neighbour army moved by the
  player (``neighbours``: free mode with undo, stop on other units, the mover decides battles and withdrawals);
  they can never end on the mover's own lands (resolution 23's rule for Neighbours);
- Building: ``combined castle <land>``: 1 Castle on a land the neutral principality controls, free.

The follow-up is an action of kind ``combined`` that ``actions.step`` hands to :func:`step`; a neutral army
lives in ``action["neighbour"]`` like a Neighbour's.
"""

from __future__ import annotations

from ..schema import Action, Army, PState
from ..state import controllers
from . import neighbours
from .common import Ctx, capital, land_name, name, occupants, prompt

FOLLOWS = ("assembly", "movement", "building")
ASSEMBLY_UNITS = 3


def follow_up(ctx: Ctx, ended: Action | None) -> Action | None:
    """The Combined Action offered after ``ended`` (None when the variant is off or nothing is possible)."""
    state = ctx.state
    if ended is None or ended["kind"] not in FOLLOWS or state["options"].get("neutrals") != "active":
        return None
    if not state["players"][ended["who"]]["eliminated"] and _options(state, ended["kind"]):
        return {
            "who": ended["who"],
            "kind": "combined",
            "follows": ended["kind"],
            "stage": "choose",
            "count": 0,
            "founded": False,
            "neighbour": None,
        }
    return None


def _neutral_principalities(state: PState) -> list[str]:
    return [code for code in state["neutral"] if code not in state["players"]]


def _options(state: PState, follows: str) -> list[str]:
    result: list[str] = []
    control = controllers(state)
    for faction in _neutral_principalities(state):
        if follows == "assembly":
            pool = state["supply"]["units"].get(faction, {})
            home = capital(faction)
            if (pool.get("knight", 0) or pool.get("footman", 0)) and all(
                f == faction for f in occupants(state, home)
            ):
                result.append(f"combined assemble {faction.lower()}")
        elif follows == "movement":
            if any(
                land["units"].get(faction, {}).get(unit)
                for land in state["lands"].values()
                for unit in ("knight", "footman")
            ):
                result.append(f"combined move {faction.lower()}")
        elif state["supply"]["tokens"]["castle"] > 0:
            result += [
                f"combined castle {land}"
                for land, owner in sorted(control.items())
                if owner == faction and state["lands"][land]["building"] is None
            ]
    return result


def options(ctx: Ctx, code: str) -> list[str]:
    return [*_options(ctx.state, ctx.action["follows"]), "done"]


def step(ctx: Ctx, action: Action) -> None:
    if action["stage"] == "choose":
        prompt(
            ctx,
            action["who"],
            "combined",
            f"Combined Actions: perform a neutral principality's {action['follows'].title()} (or done).",
        )
    elif action["stage"] == "neighbour":
        neighbours.step(ctx, action)
    else:
        ctx.play["action"] = None  # the neutral army's move is over


def answer(ctx: Ctx, code: str, words: list[str]) -> None:
    if words == ["done"]:
        ctx.play["action"] = None
        return
    if words[1] == "assemble":
        _assemble(ctx, code, words[2].upper())
        ctx.play["action"] = None
    elif words[1] == "castle":
        _castle(ctx, code, words[2])
        ctx.play["action"] = None
    else:
        _start_move(ctx, code, ctx.action, words[2].upper())


def _assemble(ctx: Ctx, code: str, faction: str) -> None:
    state = ctx.state
    pool = state["supply"]["units"][faction]
    placed: dict[str, int] = {}
    for _ in range(ASSEMBLY_UNITS):
        unit = next((u for u in ("knight", "footman") if pool.get(u, 0) > 0), None)
        if unit is None:
            break
        pool[unit] -= 1
        if not pool[unit]:
            del pool[unit]
        placed[unit] = placed.get(unit, 0) + 1
    pieces = state["lands"][capital(faction)]["units"].setdefault(faction, {})
    for unit, count in placed.items():
        pieces[unit] = pieces.get(unit, 0) + count
    text = ", ".join(f"{count} {unit}" for unit, count in placed.items())
    ctx.log(
        "combined_assembly",
        f"{name(code)} has {name(faction)} assemble {text} in "
        f"{land_name(capital(faction))} (Combined Actions).",
    )


def _castle(ctx: Ctx, code: str, land: str) -> None:
    ctx.state["supply"]["tokens"]["castle"] -= 1
    ctx.state["lands"][land]["building"] = "castle"
    ctx.log(
        "combined_building",
        f"{name(code)} has {name(controllers(ctx.state)[land] or '')} build a Castle "
        f"on {land_name(land)} (Combined Actions).",
    )


def _start_move(ctx: Ctx, code: str, action: Action, faction: str) -> None:
    """A neutral army moved as a Neighbour's: all its Knights and Footmen may move."""
    units = [land["units"].get(faction, {}) for land in ctx.state["lands"].values()]
    army: Army = {
        "card": None,
        "faction": faction,
        "knights": sum(u.get("knight", 0) for u in units),
        "footmen": sum(u.get("footman", 0) for u in units),
        "queue": [],
        "stage": "move",
    }
    action["neighbour"] = army
    action["stage"] = "neighbour"
    ctx.log("combined_movement", f"{name(code)} moves the units of {name(faction)} (Combined Actions).")
    neighbours.begin_move(ctx, code, army)
