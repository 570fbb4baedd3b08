"""Shared helpers of the PRINCIPES rules of play: the play sub-state, prompts, tracks, decks, control sync.

Everything here works on a state that ``apply`` has already copied; the :class:`Ctx` carries that state, the
recorded ``Rng`` and the public events of one ``apply`` call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from rules.engine import Event as LogEvent
from rules.engine import Rng

from ..data import PRINCIPALITIES, catalog, instance_kind
from ..schema import Action, Battle, Board, Event, Play, PState, Track
from ..state import controllers, land_controller

#: the six Action tokens in the rulebook's order (the deadline default takes the first three)
ACTIONS = ("progress", "taxes", "movement", "assembly", "building", "politics")
ACTION_TITLES = {
    "progress": "Progress",
    "taxes": "Taxes",
    "movement": "Movement",
    "assembly": "Assembly",
    "building": "Building",
    "politics": "Politics",
}
TRACK_MAX = 10
CAVALRY = ("knight", "prince")
FIGHTERS = ("footman", "knight", "prince")
NAMES = {"PMA": "Polonia Maior", "MAS": "Masovia", "PMI": "Polonia Minor", "SIL": "Silesia"}
ROMAN = ("I", "II", "III")


@dataclass
class Ctx:
    """One ``apply`` call: the (already copied) state, its chance source and the public log lines."""

    state: PState
    rng: Rng
    events: list[LogEvent] = field(default_factory=list)

    @property
    def play(self) -> Play:
        return self.state["play"]

    @property
    def action(self) -> Action:
        """The action being performed (where the rules know one is)."""
        action = self.play["action"]
        assert action is not None, "no action is being performed"
        return action

    @property
    def battle(self) -> Battle:
        """The battle being fought (where the rules know one is)."""
        battle = self.play["battle"]
        assert battle is not None, "no battle is being fought"
        return battle

    @property
    def event(self) -> Event:
        """The History card's text or icons being resolved (where the rules know they are)."""
        event = self.play["event"]
        assert event is not None, "no History event is being resolved"
        return event

    def log(self, kind: str, text: str) -> None:
        self.events.append(LogEvent(kind, text))


def name(faction: str) -> str:
    """A faction's name for log lines."""
    if faction in NAMES:
        return NAMES[faction]
    record = catalog().factions.get(faction)
    return str(record["name"]) if record else faction


def a(word: str) -> str:
    """The word with its indefinite article: "a Castle", "an Abbey"."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def land_name(land: str) -> str:
    return str(catalog().lands[land]["name"])


# ---- players ----------------------------------------------------------------------------------------------


def active(state: PState, principality: str) -> bool:
    """A principality played by someone who is still in the game."""
    player = state["players"].get(principality)
    return player is not None and not player["eliminated"]


def active_players(state: PState) -> list[str]:
    return [code for code in state["seats"] if active(state, code)]


def seat_of(state: PState, principality: str) -> int:
    return int(state["players"][principality]["seat"])


def principality_of(state: Board, seat: int) -> str:
    return str(state["seats"][seat])


def round_order(state: PState) -> list[str]:
    """Active players in the turn order fixed at the start of the Round (the Princeps first)."""
    return [code for code in state["play"]["order"] if active(state, code)]


# ---- prompts ----------------------------------------------------------------------------------------------


def new_id(ctx: Ctx, prefix: str = "d") -> str:
    """A decision id unique in the game: a counter in the state."""
    ctx.play["seq"] += 1
    return f"{prefix}{ctx.play['seq']}"


def prompt(
    ctx: Ctx,
    principality: str,
    kind: str,
    text: str,
    timing: str = "turn",
    sealed: bool = False,
    decision_id: str | None = None,
) -> None:
    """Pose a decision to one player (``decision_id`` shared by a sealed decision's seats)."""
    ctx.play["prompts"][principality] = {
        "id": decision_id or new_id(ctx),
        "kind": kind,
        "text": text,
        "timing": timing,
        "sealed": sealed,
    }


def clear_prompt(ctx: Ctx, principality: str) -> None:
    ctx.play["prompts"].pop(principality, None)


# ---- tracks and gold --------------------------------------------------------------------------------------


def change_track(ctx: Ctx, principality: str, track: str, amount: int, why: str) -> int:
    """Move People or Clergy within 0..10 (resolution 4); returns the change that really happened."""
    if not active(ctx.state, principality) or amount == 0:
        return 0
    player = ctx.state["players"][principality]
    key = cast(Track, track)  # the answers and texts that move a track name one of the two
    before = player[key]
    player[key] = max(0, min(TRACK_MAX, before + amount))
    done = player[key] - before
    if done:
        ctx.log(
            f"track_{track}",
            f"{name(principality)} {'gains' if done > 0 else 'loses'} {abs(done)} "
            f"{track.title()} ({why}): now {player[key]}.",
        )
    return int(done)


def gain_gold(ctx: Ctx, principality: str, amount: int) -> int:
    """Gold from the general pool; a limited pool (option gold_supply) pays what it holds."""
    supply = ctx.state["supply"]
    if supply["gold"] is not None:
        amount = min(amount, supply["gold"])
        supply["gold"] -= amount
    ctx.state["players"][principality]["gold"] += amount
    return amount


def pay_gold(ctx: Ctx, principality: str, amount: int) -> int:
    """Gold back to the general pool (as much as the player has)."""
    player = ctx.state["players"][principality]
    amount = min(amount, player["gold"])
    player["gold"] -= amount
    if ctx.state["supply"]["gold"] is not None:
        ctx.state["supply"]["gold"] += amount
    return amount


# ---- cards --------------------------------------------------------------------------------------------------


def card_record(card: str) -> dict[str, Any]:
    return catalog().kind_of(card)


def card_deck(card: str) -> str:
    return str(card_record(card)["deck"])


def card_title(card: str) -> str:
    record = card_record(card)
    return str(record.get("title") or record.get("name") or instance_kind(card))


def to_deck_bottom(state: PState, card: str) -> None:
    """Played and discarded cards go face down under their deck (resolution 41)."""
    state["decks"][card_deck(card)].append(card)


def draw(state: PState, principality: str, deck: str) -> str | None:
    """The top card of ``deck`` into the hand; an empty deck draws nothing (resolution 41)."""
    cards = state["decks"][deck]
    if not cards:
        return None
    card = cards.pop(0)
    state["players"][principality]["hand"].append(card)
    return str(card)


def support_tracks(card: str) -> tuple[str, ...]:
    """The tracks a Court or Neighbour card's support icon may raise (resolution 42); () for other cards."""
    record = card_record(card)
    if record["deck"] not in ("court", "neighbour"):
        return ()
    support = record.get("support")
    return ("people", "clergy") if support == "either" else (str(support),)


def card_id_from(state: PState, principality: str, token: str) -> str | None:
    """The hand card whose id matches the lower-case notation token."""
    for card in state["players"][principality]["hand"]:
        if card.lower() == token:
            return str(card)
    return None


# ---- units on the map ---------------------------------------------------------------------------------------


def units_at(state: PState, land: str, faction: str) -> dict[str, int]:
    units: dict[str, int] = state["lands"][land]["units"].get(faction, {})
    return units


def add_units(state: PState, land: str, faction: str, unit: str, count: int) -> None:
    """Put ``count`` units on a land (a negative count takes them off). A land where a second side arrives
    keeps its controller until the fight is decided (``state.controllers``, resolution 47): the controller it
    had is noted in ``play["contested"]`` as long as two sides stand there."""
    fighting = unit in FIGHTERS
    holder = land_controller(state, land) if fighting and count > 0 else None
    before = len(occupants(state, land)) if fighting else 0
    pieces = state["lands"][land]["units"].setdefault(faction, {})
    pieces[unit] = pieces.get(unit, 0) + count
    if pieces[unit] <= 0:
        del pieces[unit]
    if not pieces:
        del state["lands"][land]["units"][faction]
    play = state.get("play")
    if not fighting or play is None:
        return
    after = len(occupants(state, land))
    if after > 1 and before <= 1:
        play.setdefault("contested", {})[land] = holder
    elif after <= 1 and before > 1:
        play.get("contested", {}).pop(land, None)


def to_pool(state: PState, faction: str, unit: str, count: int) -> None:
    pool = state["supply"]["units"].setdefault(faction, {})
    pool[unit] = pool.get(unit, 0) + count


def fighters(units: dict[str, int]) -> dict[str, int]:
    """Fighting units only (a Princess is an agent, not a combatant)."""
    return {unit: count for unit, count in units.items() if unit in FIGHTERS and count > 0}


def occupants(state: PState, land: str) -> list[str]:
    """Factions with fighting units on a land."""
    return [faction for faction, units in state["lands"][land]["units"].items() if fighters(units)]


def prince_land(state: PState, principality: str) -> str | None:
    for land, land_state in state["lands"].items():
        if land_state["units"].get(principality, {}).get("prince"):
            return str(land)
    return None


def controlled_lands(state: PState, principality: str) -> list[str]:
    return [land for land, owner in controllers(state).items() if owner == principality]


def capital(principality: str) -> str:
    return str(catalog().map["principalities"][principality]["capital"])


def is_neutral_faction(state: PState, faction: str) -> bool:
    """Units nobody plays: unplayed or eliminated principalities, Neighbours, Balts and Invaders."""
    return not active(state, faction)


# ---- assets: Tiltyards, Abbeys and Lancicia (resolutions 1 and 5) ------------------------------------------


def assets(state: PState) -> dict[str, list[int]]:
    """Per principality: [Tiltyards, Abbeys + Lancicia] it controls; their changes move People and Clergy."""
    held = {code: [0, 0] for code in PRINCIPALITIES}
    for land, owner in controllers(state).items():
        if owner is None:
            continue
        building = state["lands"][land]["building"]
        held[owner][0] += building == "tiltyard"
        held[owner][1] += (building == "abbey") + ("clergy_point" in catalog().lands[land]["marks"])
    return held


def sync_assets(ctx: Ctx) -> None:
    """Gain or lose People/Clergy for every Tiltyard, Abbey and Lancicia gained or lost since the last sync."""
    now = assets(ctx.state)
    before = ctx.play["assets"]
    for code in PRINCIPALITIES:
        change_track(ctx, code, "people", now[code][0] - before[code][0], "Tiltyards held")
        change_track(ctx, code, "clergy", now[code][1] - before[code][1], "Abbeys and Lancicia held")
    ctx.play["assets"] = now
