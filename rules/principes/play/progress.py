"""The PROGRESS ACTION (rulebook p. 15): take face-up Market tiles, as many as the Period number, or exchange one
of your tiles for a face-up tile of its colour (EXCHANGING PROGRESS TILES); two tiles per colour, never two of
the same kind.

The tiles' texts (EFFECTS OF PROGRESS TILES, CLARIFICATION FOR CERTAIN PROGRESS TILES) reach this action through
the effect interpreter: German Settlers (a third slot), Church Schools (an additional tile for 2 gold), New
Mechanisms (the token used as another action: ``as <action>``, performed by ``actions``) and Chronicle (``cards.
tile_taken``).
"""

from __future__ import annotations

from ..data import COLOURS, catalog, instance_kind
from ..schema import Action, PlayerState, PState
from .cards import tile_taken
from .common import Ctx, name, pay_gold
from .effects_engine import effect_of, rule_terms

PROMPT = "Progress: take face-up Market tiles (as many as the Period number), or done."
EXTRA_TILE_GOLD = 2
#: the actions New Mechanisms lets the Progress token stand for
WILDCARD_ACTIONS = ("taxes", "movement", "assembly", "building", "politics")


def _owned_kinds(player: PlayerState) -> set[str]:
    return {instance_kind(tile) for tiles in player["progress"].values() for tile in tiles}


def _holds_rule(state: PState, code: str, rule: str) -> bool:
    return any(term.args[0].name == rule for term in rule_terms(state, code, "progress_rule"))


def _slots(state: PState, code: str, tile: str) -> int:
    """2 tiles per colour; German Settlers allows a third (also for itself: tiles act as soon as taken)."""
    settlers = _holds_rule(state, code, "third_slot") or any(
        term.name == "progress_rule" and term.args[0].name == "third_slot" for term in effect_of(tile)
    )
    return 3 if settlers else 2


def options(ctx: Ctx, code: str, action: Action) -> list[str]:
    state = ctx.state
    player = state["players"][code]
    result = []
    if action["count"] == 0 and _holds_rule(state, code, "wildcard_token"):
        result += [f"as {kind}" for kind in WILDCARD_ACTIONS]
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


def _find_tile(state: PState, token: str) -> tuple[str, str]:
    for colour in COLOURS:
        for tile in state["market"][colour]["face_up"]:
            if tile.lower() == token:
                return colour, str(tile)
    raise KeyError(token)


def replenish(state: PState, colour: str) -> None:
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


def answer(ctx: Ctx, code: str, action: Action, words: list[str]) -> bool:
    """``take <tile>`` or ``exchange <own tile> <tile>``; the action goes on (False) until ``done``."""
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
    tile_taken(ctx, code, tile)
    return False


def _tile_title(tile: str) -> str:
    return str(catalog().kind_of(tile)["title"])
