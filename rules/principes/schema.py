"""The shape of a PRINCIPES state, of the views a seat receives and of the decisions it is asked, as ``TypedDict``s.

They cost nothing at run time: a state is still plain JSON data (dicts, lists, str, int, bool, None) that the
engine copies and stores as it is; mypy checks that the rules read and write the keys declared here with the
types declared here. ``state.py`` (the starting position) and ``play`` (the rules of play) take and return these
types; the ``Game`` class's methods, which the engine calls with plain dicts, name them at the boundary.

Ids are strings: principality codes (``"PMA"``), land, gord and area ids (``"gnesna"``), card and tile
instance ids (``"B04a"``), faction ids (``"GER"``); unit types are ``"prince"``, ``"princess"``, ``"knight"``,
``"footman"``. A key marked ``NotRequired`` appears only once the rules that use it first ran (a Council, a
Princess's mission, a neutral Prince removed...).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

#: unit type -> how many
Units = dict[str, int]
#: the two tracks of a player's board
Track = Literal["people", "clergy"]


# ---- the position (PRINCIPES I: ``state.new_game``) -----------------------------------------------------------


class LandState(TypedDict):
    units: dict[str, Units]  # faction -> its units there
    cities: dict[str, str]  # gord id -> "capital" | "city" | "civitas" (founded Cities only)
    building: str | None  # "castle" | "tiltyard" | "abbey"
    division: bool  # a Division token lies there


class AreaState(TypedDict):
    """An area off the map (a Neighbour's home, the Balts', the Rus Fiefdoms of the Mongols)."""

    units: dict[str, Units]


class Supply(TypedDict):
    units: dict[str, Units]  # faction -> figures not on the map (pools, Teutons, Mongols)
    tokens: dict[str, int]  # "capital", "city", "civitas", "castle", "tiltyard", "abbey", "division"
    gold: int | None  # None: unlimited coins (option gold_supply)


class Princeps(TypedDict):
    holder: str
    direction: str | None  # "cw" | "ccw", chosen each Round


class HistoryDeck(TypedDict):
    deck: list[str]  # 2 cards per Period, Period I on top
    revealed: str | None
    icons: list[str]  # the revealed card's icons


class MarketPile(TypedDict):
    stack: list[str]
    face_up: list[str]


class PlayerState(TypedDict):
    seat: int
    gold: int
    people: int
    clergy: int
    prince: str | None  # the ruling Prince card (None: an heir rules, or eliminated)
    princes: list[str]  # living Prince cards not ruling, in Period order
    hand: list[str]
    plan: list[str] | None  # the sealed plan of the Round (3 actions)
    progress: dict[str, list[str]]  # colour -> Progress tiles held
    princess: str  # "home" | "removed" | a land or area id
    eliminated: bool
    heir: NotRequired[bool]  # the Heir card's young heir rules


class PState(TypedDict):
    """The whole state of a game of PRINCIPES."""

    num_players: int
    options: dict[str, str]  # resolved lobby options
    seats: list[str]  # seat index -> principality played
    neutral: list[str]  # principalities nobody plays (and eliminated ones)
    turn_cycle: list[str]  # fixed clockwise seat cycle
    round: int  # 1-6
    period: int  # (round + 1) // 2
    phase: str  # "setup", then "play"
    princeps: Princeps
    history: HistoryDeck
    players: dict[str, PlayerState]
    lands: dict[str, LandState]
    offmap: dict[str, AreaState]
    supply: Supply
    decks: dict[str, list[str]]  # "court" | "battle" | "neighbour" -> instance ids, top first
    market: dict[str, MarketPile]  # colour -> its stack
    mongol_invasions: int
    play: NotRequired[Play]  # the rules of play (PRINCIPES II-IV), from ``play.start_play`` on


# ---- the decisions ---------------------------------------------------------------------------------------------


class Prompt(TypedDict):
    """A decision posed to one player (``play["prompts"][principality]``)."""

    id: str  # shared by the seats of a sealed decision
    kind: str  # a kind of ``play.decisions.KINDS``
    text: str
    timing: str  # "turn" | "window"
    sealed: bool


# ---- the play sub-state (PRINCIPES II-IV: ``play.flow.start_play``) --------------------------------------------


class Piece(TypedDict):
    """A unit being moved (a Movement's, or an army's): its Movement Points left."""

    type: str
    at: str
    mp: int
    stopped: bool
    moved: bool


#: one move, to undo it ("from" is a keyword, hence this form)
MoveLog = TypedDict("MoveLog", {"piece": int, "from": str, "stopped": bool, "moved": bool})


class Asking(TypedDict):
    """A request to pass ``land``: the owners still to answer, in turn."""

    land: str
    owners: list[str]


class Army(TypedDict):
    """Units moved by a player that are not its own: a Neighbour's (Politics), a neutral principality's (Combined
    Actions) or the Invaders' (a History icon)."""

    faction: str
    knights: int
    footmen: int
    stage: str  # "block" | "move" | "consent" | "destroy" | "battles"
    card: NotRequired[str | None]  # the Neighbour card played
    queue: NotRequired[list[str]]  # players still to answer the blocking window
    invader: NotRequired[bool]
    mover: NotRequired[str]
    pieces: NotRequired[list[Piece]]
    log: NotRequired[list[MoveLog]]
    ops: NotRequired[int]
    start_control: NotRequired[dict[str, str | None]]
    asking: NotRequired[Asking | None]
    consent: NotRequired[list[str]]
    denied: NotRequired[list[str]]
    ended: NotRequired[list[str]]  # lands where moved units ended
    destroy: NotRequired[list[str]]  # taken lands where the mover may destroy


class Action(TypedDict):
    """The action being performed (``play["action"]``): its player, kind, stage and the counters and sub-states
    its rules keep."""

    who: str
    kind: str  # an Action token, or "combined" (the active variant's Combined Action)
    stage: str
    count: int  # answers taken (tiles, units, buildings, draws)
    founded: bool  # a City was founded (Building)
    cities: NotRequired[int]  # Cities founded (Building)
    tax_people: NotRequired[int]  # what collecting costs (Taxes)
    extra_units: NotRequired[int]  # Wici (Assembly)
    free_knight: NotRequired[bool]  # Knightly Fiefs used (Assembly)
    extra_tile: NotRequired[bool]  # Church Schools used (Progress)
    # Movement (``movement``)
    pieces: NotRequired[list[Piece]]
    log: NotRequired[list[MoveLog]]
    ops: NotRequired[int]
    consent: NotRequired[list[str]]
    denied: NotRequired[list[str]]
    asking: NotRequired[Asking | None]
    penalties: NotRequired[list[str]]
    destroy: NotRequired[list[str]]
    start_control: NotRequired[dict[str, str | None]]
    start_division: NotRequired[list[str]]
    # Politics (``politics``, ``council``, ``neighbours``)
    queue: NotRequired[list[str]]  # the Council's card phase, players still to play
    neighbour: NotRequired[Army | None]  # a Neighbour's (or neutral principality's) army being moved
    neighbours_done: NotRequired[list[str]]
    # Combined Actions (``neutrals``)
    follows: NotRequired[str]


class Battle(TypedDict):
    """The battle being fought (``play["battle"]``, ``battle``): side "A" attacks, side "D" defends."""

    no: int
    land: str
    sides: dict[str, str]  # "A" | "D" -> faction
    mover: str | None  # the player who moved the attacking units
    stage: str
    units: dict[str, Units]  # side -> the fighting units it brought
    cards: dict[str, list[str]]  # side -> 'before battle' cards played
    extra: dict[str, list[int]]  # side -> [extra swords, extra shields] from Battle cards' corners
    bonus: dict[str, list[int]]  # side -> [swords, shields] from card texts and tiles
    dice: dict[str, list[str] | None]  # side -> the face rolled
    rerolled: bool
    winner: str | None
    retreat: Units  # the loser's units still to withdraw
    deaths: list[str]  # players whose ruling Prince fell
    after_sealed: list[str]
    used: list[str]  # Battle cards played (under the deck after the battle)
    cancelled: list[str]
    blocked: dict[str, list[str]]  # side -> windows closed to it
    ignore: list[str]  # defender bonuses ignored ("settlement", "castle")
    order: dict[str, str]  # side -> damage order ("cavalry_first")
    people_lost: list[str]
    withdrawn: dict[str, list[str]]  # unit type -> lands it withdrew to
    flipped: list[str]  # sides that flipped their die


class Event(TypedDict):
    """A History card's text or icons being resolved (``play["event"]``, ``history``, ``invaders``)."""

    part: str  # "text" | "icons"
    card: str
    queue: list[str]  # players still to ask
    statements: NotRequired[list[int]]  # text statements still to ask
    icons: NotRequired[list[str]]  # icons left
    icon: NotRequired[str | None]
    army: NotRequired[Army | None]
    movers: NotRequired[list[list[str]]]  # [faction, mover] pairs still to move
    caller: NotRequired[str | None]  # who may call the Teutonic Knights
    withdrawing: NotRequired[str | None]  # the caller whose units leave Culmen
    mongols: NotRequired[bool]


class Succession(TypedDict):
    who: str
    why: str  # "period" | "death"
    stage: str | None  # None: choosing the Prince, "place": placing his figure
    candidates: NotRequired[list[str]]


class Reaction(TypedDict):
    """A Court card's text waiting for the Papal Legates' answers."""

    who: str
    card: str
    words: list[str]
    waiting: list[str]
    cancelled: NotRequired[str]


class RoundEffect(TypedDict):
    """A ``this_round(...)`` text in force until the Round ends."""

    who: str
    source: str
    effect: Any  # the statement as plain data (``effects.Term.to_data``)
    land: str | None


class PrincessRecord(TypedDict):
    last: str | None  # the previous mission's area
    host: str | None  # the controller of her land when she arrived


class PrincessStep(TypedDict):
    do: str  # "send" | "draw" | "discard"
    who: str
    by: str


class RespawnEntry(TypedDict):
    faction: str
    by: str | None


class Result(TypedDict):
    winners: list[int]  # seats
    draw: bool
    reason: str


class Private(TypedDict, total=False):
    """What only its player sees (``play["private"][principality]``)."""

    drawn: list[str]  # Politics: the 3 cards drawn, one to return
    after: list[str]  # the sealed 'after battle' cards
    peek: list[str]  # cards seen with a peek
    together: dict[str, list[str]]  # kind -> [slot, answer] sealed together (option together), for its turn


class PlayView(TypedDict):
    """The play sub-state as every view shows it (without the private parts)."""

    seq: int  # decision id counter
    phase: str  # "direction" | "reveal" | "plan" | "actions" | "end" | "over"
    prompts: dict[str, Prompt]
    order: list[str]  # the Round's turn order
    slot: int  # which Action token (0..2)
    turn: int  # of which player in the order
    revealed: dict[str, list[str]]  # actions revealed this Round
    action: Action | None
    battle: Battle | None
    succession: list[Succession]
    last_round: int
    assets: dict[str, list[int]]  # [Tiltyards, Abbeys + Lancicia] held at the last sync
    pomerania_out: dict[str, Units]
    battles: int
    result: Result | None
    event: Event | None
    council: NotRequired[str | None]  # the host of a Council's card phase ("common": a Common Council)
    contested: NotRequired[dict[str, str | None]]  # land fought over -> its controller before
    reaction: NotRequired[Reaction | None]
    round_effects: NotRequired[list[RoundEffect]]
    pairs: NotRequired[dict[str, list[str]]]  # colours scored by Chronicle
    last_built: NotRequired[str | None]
    princesses: NotRequired[dict[str, PrincessRecord]]
    princess_queue: NotRequired[list[PrincessStep]]
    respawn: NotRequired[list[RespawnEntry]]
    icons_round: NotRequired[int]
    teutons: NotRequired[bool]
    together: NotRequired[dict[str, str]]  # kind -> the last slot asked together (option together)
    sealing: NotRequired[list[str]]  # players asked together who have not sealed their answer yet


class Play(PlayView):
    private: dict[str, Private]
    standing: dict[str, dict[str, str]]  # player -> other player -> "allow" | "deny"


# ---- the views -------------------------------------------------------------------------------------------------


class PublicPlayer(TypedDict):
    """A player as everyone sees them: the hand as a count, the plan only as sealed or not."""

    seat: int
    gold: int
    people: int
    clergy: int
    prince: str | None
    princes: list[str]
    progress: dict[str, list[str]]
    princess: str
    eliminated: bool
    hand_size: int
    plan_sealed: bool
    heir: NotRequired[bool]


class HistoryView(TypedDict):
    deck: int
    revealed: str | None
    icons: list[str]


class MarketView(TypedDict):
    stack: int
    face_up: list[str]


class You(TypedDict):
    """What a seat's view adds for its own player."""

    seat: int
    principality: str
    hand: list[str]
    plan: list[str] | None
    private: NotRequired[Private]
    hand_labels: NotRequired[list[str]]
    standing: NotRequired[dict[str, str]]
    secrets: NotRequired[list[str]]


class PView(TypedDict):
    """What a seat (or the public) may know: the state without hands, decks and plans, with control and Might."""

    num_players: int
    options: dict[str, str]
    seats: list[str]
    neutral: list[str]
    turn_cycle: list[str]
    round: int
    period: int
    phase: str
    princeps: Princeps
    lands: dict[str, LandState]
    offmap: dict[str, AreaState]
    supply: Supply
    mongol_invasions: int
    players: dict[str, PublicPlayer]
    decks: dict[str, int]
    market: dict[str, MarketView]
    history: HistoryView
    control: dict[str, str | None]
    might: dict[str, int]
    turn_order: list[str]
    viewer: int | None
    you: NotRequired[You]
    play: NotRequired[PlayView]


#: what the rules read alike in a state and in a seat's view (control, Might, rule texts in force, a battle's
#: strength), for the AI and the forms that work from a view
Board = PState | PView
