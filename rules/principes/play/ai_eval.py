"""What the ``strong`` PRINCIPES AI reads from its seat's view: track positions, Council arithmetic, the value
of lands, reachability on the map and the exact odds of a battle over the 36 rolls of the two battle dice.

Every function takes the view a seat receives (never the state): the map, the public tracks, the play
sub-state and the seat's own hand are all there; other hands are only counted.
"""

from __future__ import annotations

from collections import deque
from functools import cache, lru_cache
from typing import Any, cast

from ..data import catalog
from ..schema import Action, Army, Battle, PublicPlayer, PView, Track
from .battle import casualties, fortification
from .common import CAVALRY, FIGHTERS, capital
from .common import card_record as catalog_record

View = PView
TRACKS = ("might", "people", "clergy")
TRACK_MAX = 10
#: each land's own strategic weight beyond its Might: the seats of the principality powers
POWER_LANDS = {"cracovia": "PMI", "gnesna": "PMA"}


def acting(view: View) -> Action:
    """The action being performed: the decisions that read it are posed only during one."""
    action = view["play"]["action"]
    assert action is not None, "an action is being performed"
    return action


def fought(view: View) -> Battle:
    """The battle being fought: the decisions that read it are posed only during one."""
    battle = view["play"]["battle"]
    assert battle is not None, "a battle is being fought"
    return battle


def army_moved(army: Army | None) -> Army:
    """An army the decision moves (a Neighbour's, a neutral principality's, the Invaders')."""
    assert army is not None, "an army is being moved"
    return army


def track_of(player: PublicPlayer, word: str) -> int:
    """The People or Clergy track an answer names (``support <card> people``, ``pledge <card> clergy``)."""
    return player[cast(Track, word)]


def rivals(view: View, me: str) -> list[str]:
    return [code for code, player in view["players"].items() if code != me and not player["eliminated"]]


def positions(view: View, code: str) -> tuple[int, int, int]:
    """Might (the track shows at most 10), People, Clergy."""
    player = view["players"][code]
    return min(view["might"][code], TRACK_MAX), player["people"], player["clergy"]


def tracks_needed(view: View, code: str) -> int:
    """Two tracks; Polonia Minor holding Cracovia needs one (House of Princeps)."""
    return 1 if code == "PMI" and view["control"].get("cracovia") == "PMI" else 2


def qualifying(
    view: View,
    host: str,
    bonus: tuple[int, int, int] = (0, 0, 0),
    others: dict[str, tuple[int, int, int]] | None = None,
) -> int:
    """On how many tracks ``host`` (its positions raised by ``bonus``) is highest or tied-highest."""
    mine = tuple(
        min(TRACK_MAX, value + extra) for value, extra in zip(positions(view, host), bonus, strict=True)
    )
    table = others or {code: positions(view, code) for code in rivals(view, host)}
    return sum(1 for track in range(3) if all(mine[track] >= other[track] for other in table.values()))


def pledgeable(view: View, me: str) -> list[tuple[str, tuple[str, ...]]]:
    """The seat's hand cards that can raise a support track, with the tracks each may raise."""
    result: list[tuple[str, tuple[str, ...]]] = []
    for card in view["you"]["hand"]:
        record = card_record(card)
        if record["deck"] in ("court", "neighbour"):
            support = record.get("support")
            result.append((card, ("people", "clergy") if support == "either" else (str(support),)))
    return result


def best_council_bonus(view: View, me: str) -> tuple[int, int, int]:
    """The best track raise the seat's own cards give at a Council: +2 for a Council text on its track, +1
    per other Court/Neighbour card, spread to the tracks where it counts."""
    people = clergy = 0
    either = 0
    for card, tracks in pledgeable(view, me):
        text = _council_text_track(card)
        amount = 2 if text else 1
        track = text or (tracks[0] if len(tracks) == 1 else None)
        if track == "people":
            people += amount
        elif track == "clergy":
            clergy += amount
        else:
            either += amount
    mine = positions(view, me)
    for _ in range(either):
        if mine[1] + people <= mine[2] + clergy:
            people += 1
        else:
            clergy += 1
    return 0, people, clergy


def _council_text_track(card: str) -> str | None:
    """The track a Council-timed Court text raises by 2 (e.g. Blessing of the Archbishop), else None."""
    record = card_record(card)
    if record.get("timing") != "council":
        return None
    effect = str(record.get("effect", ""))
    for track in ("people", "clergy"):
        if f"gain_track(self, {track}, 2)" in effect:
            return track
    return None


@cache
def card_record(card: str) -> dict[str, Any]:
    """The catalog record of a card instance id (``C02b`` -> ``C02``)."""
    return catalog_record(card)


# ---- the map -------------------------------------------------------------------------------------------------


def land_value(view: View, land: str, me: str) -> float:
    """What holding ``land`` is worth to ``me``: its Might (the track, which Councils compare, and taxes), its
    gold and the principality powers it carries."""
    info = catalog().lands[land]
    land_state = view["lands"][land]
    if land_state["division"]:
        return 0.3
    value = sum(g["might"] + (1 if g["id"] in land_state["cities"] else 0) for g in info["gords"]) * 2.0
    value += 0.2 * len(info["gords"])
    if land_state["building"] in ("abbey", "tiltyard"):
        value += 1.0
    if "clergy_point" in info["marks"]:
        value += 1.0
    power = POWER_LANDS.get(land)
    if power is not None and power != me and power in view["players"]:
        value += 3.0  # taking it away switches off a rival's principality power
    if power == me:
        value += 2.0
    if land == capital(me):
        value += 3.0
    return value


def penalty_land(view: View, land: str, me: str) -> bool:
    """Ending a move there costs 1 Clergy or 1 gold: a land of another principality's borders."""
    owner = catalog().lands[land]["principality"]
    return owner is not None and owner != me and owner in ("PMA", "MAS", "PMI", "SIL")


def foreign(view: View, land: str, me: str) -> list[str]:
    """Factions other than ``me`` with fighting units on ``land``."""
    return [
        faction
        for faction, units in view["lands"][land]["units"].items()
        if faction != me and any(n for unit, n in units.items() if unit in FIGHTERS)
    ]


def distances(view: View, origin: str, me: str, reach: int) -> dict[str, tuple[int, str]]:
    """Lands a unit at ``origin`` can reach with ``reach`` Movement Points: land -> (steps, first step).
    A unit stops on a land with foreign units, so paths go through free lands only."""
    adjacency = catalog().adjacency
    found: dict[str, tuple[int, str]] = {origin: (0, origin)}
    queue = deque([origin])
    while queue:
        land = queue.popleft()
        steps, first = found[land]
        if steps >= reach or (land != origin and foreign(view, land, me)):
            continue
        for near in sorted(adjacency[land]):
            if near in found or near not in view["lands"]:
                continue
            found[near] = (steps + 1, near if land == origin else first)
            queue.append(near)
    return found


def can_reach(view: View, origin: str, target: str, me: str, reach: int) -> bool:
    return target in distances(view, origin, me, reach)


def strength(units: dict[str, int]) -> int:
    return sum(n * (2 if unit in CAVALRY else 1) for unit, n in units.items() if unit in FIGHTERS)


# ---- battle odds ---------------------------------------------------------------------------------------------


def _faces() -> list[list[str]]:
    return [list(face) for face in catalog().setup["die"]["faces"]]


def battle_odds(
    view: View,
    land: str,
    attackers: dict[str, int],
    defenders: dict[str, int],
    extra: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> tuple[float, float, float]:
    """Attacker's chance to win, and the expected Might-weighted losses (attacker, defender) over every roll of
    the two dice; ``extra`` adds (attacker swords, attacker shields, defender swords, defender shields)."""
    return _odds(
        fortification(view, land), tuple(sorted(attackers.items())), tuple(sorted(defenders.items())), extra
    )


@lru_cache(maxsize=65536)  # bounded: a bot process runs for months
def _odds(
    fort: int,
    attacking: tuple[tuple[str, int], ...],
    defending: tuple[tuple[str, int], ...],
    extra: tuple[int, int, int, int],
) -> tuple[float, float, float]:
    """``battle_odds`` for a fortification and two forces (a search asks the same ones many times)."""
    attackers, defenders = dict(attacking), dict(defending)
    a_swords = strength(attackers) + extra[0]
    d_swords = strength(defenders) + extra[2]
    wins = 0.0
    a_loss = d_loss = 0.0
    faces = _faces()
    for a_face in faces:
        for d_face in faces:
            to_d = max(0, a_swords + a_face.count("sword") - (fort + extra[3] + d_face.count("shield")))
            to_a = max(0, d_swords + d_face.count("sword") - (extra[1] + a_face.count("shield")))
            lost_d, _, _ = casualties(defenders, to_d)
            lost_a, _, _ = casualties(attackers, to_a)
            n_d, n_a = sum(lost_d.values()), sum(lost_a.values())
            wiped_d = n_d == sum(defenders.values())
            wiped_a = n_a == sum(attackers.values())
            if (wiped_d and not wiped_a) or (not wiped_a and not wiped_d and n_d > n_a):
                wins += 1
            a_loss += strength(lost_a)
            d_loss += strength(lost_d)
    total = len(faces) ** 2
    return wins / total, a_loss / total, d_loss / total


def fighters_of(units: dict[str, int]) -> dict[str, int]:
    return {unit: n for unit, n in units.items() if unit in FIGHTERS and n}
