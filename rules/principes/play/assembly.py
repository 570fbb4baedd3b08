"""The ASSEMBLY ACTION (rulebook p. 16): bring up to 3 units from your pool (a Knight costs 1 gold) onto the
Prince's land or your Capital (else your richest land, resolution 7); a Prince off the map re-enters with it
(resolution 8). Wici (+2 units), Castle Garrisons (Castle lands too) and Knightly Fiefs (the first Knight free)
change it through the effect interpreter.
"""

from __future__ import annotations

from ..schema import Action, PState
from ..state import controllers, land_might
from .cards import plays
from .common import Ctx, capital, land_name, name, pay_gold, prince_land
from .effects_engine import has_rule, rule_terms

PROMPT = "Assembly: bring up to 3 units from your pool (Knights cost 1 gold), then done."
ASSEMBLY_LIMIT = 3


def assembly_targets(state: PState, code: str) -> list[str]:
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


def knight_cost(state: PState, code: str, action: Action) -> int:
    """1 gold; Knightly Fiefs makes the first Knight of each Assembly free."""
    free = any(term.args[0].name == "first_knight" for term in rule_terms(state, code, "cost_discount"))
    return 0 if free and not action["free_knight"] else 1


def options(ctx: Ctx, code: str, action: Action) -> list[str]:
    state = ctx.state
    result = plays(ctx, code, "own_action:assembly")
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


def answer(ctx: Ctx, code: str, action: Action, words: list[str]) -> bool:
    """``assemble <unit> <land>``; the action goes on (False) until ``done``."""
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
    return False
