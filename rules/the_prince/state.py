"""The shapes of The Prince's state, views and battle reports: TypedDicts, so plain JSON at run time that mypy
checks.

Tiles are numbered (``y * 10 + x``, see :mod:`.board`) in the state and named in the views (``c4``, or tokens
such as ``tile:c4:forest:iron2``), which are what secrets are checked against. Every decision is sealed: a
seat's answer waits in ``sealed`` (its canonical action text, a whole battle plan in step B) until both have
answered, and every answer is kept in ``submissions``, published when the game ends.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from .board import Tile

#: where the game stands: the landing and exploring make up phase 1; each battle is "hide" (step A) then
#: "plan" (step B); the decision posed in each phase has the phase's name as its kind
Phase = Literal["landing", "explore", "hide", "plan", "over"]
#: the lobby option: both halves of the island equal under a half turn, or every tile drawn on its own
MapKind = Literal["symmetric", "asymmetric"]


class Castle(TypedDict):
    #: the tile index it stands on
    tile: int
    #: damage taken over all battles so far
    damage: int
    alive: bool


class Result(TypedDict):
    winners: list[int]
    draw: bool
    reason: str


#: one attack of a battle, in its attacker's order: castle numbers (attacker's, target's), the offence it
#: carried and whether the enemy Guard stopped it
AttackOrder = TypedDict("AttackOrder", {"from": int, "to": int, "offence": int, "stopped": bool})
#: an attack in a battle report: the same, with the attacking seat
Attack = TypedDict("Attack", {"seat": int, "from": int, "to": int, "offence": int, "stopped": bool})


class CastleReport(TypedDict):
    """A standing castle's part in a battle: its allotment, its damage after the battle and its fate."""

    castle: int
    offence: int
    defence: int
    damage: int
    destroyed: bool


class BattleReport(TypedDict):
    battle: int
    #: the castle each seat's Imperial Guard stood in
    guard: list[int | None]
    attacks: list[Attack]
    #: seat -> a report of each of its castles that stood when the battle began
    castles: list[list[CastleReport]]


class ThePrinceState(TypedDict):
    map: MapKind
    #: tile index -> [terrain, resource, yield]
    tiles: list[Tile]
    phase: Phase
    #: phase 1 turn (1 is the landing) and the battle under way (0 before phase 2)
    turn: int
    battle: int
    #: seat -> tile index -> 1 once its Prince has seen the tile
    seen: list[list[int]]
    #: seat -> its Prince's tile in phase 1 (None before landing and after the fifth castle)
    prince: list[int | None]
    #: seat -> its castles, numbered 1-5 in the order they were built
    castles: list[list[Castle]]
    #: seat -> tiles where its build failed on an enemy castle (which it now knows of) / on a same-turn clash
    taken: list[list[int]]
    clashed: list[list[int]]
    #: seat -> its sealed answer to the decision now posed (None: not answered yet)
    sealed: list[str | None]
    #: seat -> the castle hiding its Prince, and the castle its Guard stands in, this battle
    hidden: list[int | None]
    guard: list[int | None]
    last_battle: BattleReport | None
    #: every sealed answer in order: [seat, decision id, action]
    submissions: list[list[int | str]]
    result: Result | None


class CastleView(TypedDict):
    """A castle as a viewer sees it, its strength summed over the tiles that viewer has seen."""

    #: ``castle:<seat>#<number>@<tile>``, distinctive for the secrets check
    token: str
    seat: int
    number: int
    tile: str
    alive: bool
    damage: int
    offence: int
    defence: int
    bonus: int


class ThePrinceView(TypedDict):
    """What a seat (or, with ``seat`` None, the public) knows. Fog of war: in phase 1 a seat sees the tiles its
    Prince has seen, its own castles and Prince, and the enemy's only within its Prince's sight; the public sees
    no terrain and no positions then. From phase 2 the island and every castle are open; the Princes' hiding
    places stay each seat's own until the game ends."""

    game: str
    seat: int | None
    phase: Phase
    map: MapKind
    turn: int
    battle: int
    max_battles: int
    forced_build_after: int
    castle_counts: list[int]
    #: which seats have sealed their answer (never what they sealed)
    sealed_seats: list[bool]
    result: Result | None
    # ---- not in the public view during phase 1
    #: tile tokens (``tile:c4:forest:iron2``) of the tiles the viewer knows
    tiles: NotRequired[list[str]]
    #: ``prince:<seat>@<tile>`` for each Prince the viewer sees on the map (never the public)
    princes: NotRequired[list[str]]
    castles: NotRequired[list[CastleView]]
    # ---- a seat's own, phase 1: its failed build sites (``taken:<seat>@<tile>``, ``clash:<seat>@<tile>``)
    taken: NotRequired[list[str]]
    clashed: NotRequired[list[str]]
    #: a seat's own sealed answer, ``sealed:<seat>:<action>``
    sealed: NotRequired[str]
    # ---- phase 2
    guards: NotRequired[list[int | None]]
    last_battle: NotRequired[BattleReport | None]
    #: ``prince-in:<seat>#<castle>``: the viewer's own hiding place, and both once the game is over
    prince_in: NotRequired[list[str]]
    # ---- once the game is over
    submissions: NotRequired[list[list[int | str]]]
