"""The catch-up digest: what happened in a game since a player last acted, as that player may know it.

Pure (no discord, no database): the host passes what it stores (the game, its options, the setup's chance
results, the event records with their public log lines, the seats' names) and which seat asks. The digest is
built by replaying the records with their recorded chance results, and everything in it comes from two
sources that player may see:

- the events' log lines, which are public texts: the events table holds only the public log (``/log`` shows
  it to anyone; private texts reach a seat only by DM and are never stored with an event). Another seat's
  action text is never shown, since it may be a sealed choice (a plan) that only its log line reveals;
- ``game.view(state, seat)``: the seat's own view as it was when it last acted and as it is now (what the
  host renders as the two boards), and the changes between them that the game calls out (``render.
  view_changes``: a game's lands, tracks and hand, say).

The log lines show their net effect within a run of one player's events (``_net_effect``, with the game's
reader of its move lines, ``render.move_reader``): a unit's move and its takeback show as neither, moves that
bring a unit back where it was show nothing, and A to B then B to C shows as A to C (issue 47). Events the host's
``/undo`` took back are never among the records: the store leaves them out.

Replaying a long game takes a while (a 400-event game about 0.1 s): ``start`` lets the host begin
from a stored snapshot at or before the seat's last action, and ``end`` (the host's current state) spares
replaying the events since, but for the seat's own ones played for it (whose actions the digest puts in words).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from render import MovedLine, MoveReader, TakenBackLine, move_reader, player_label, view_changes
from render.alt import name_seats
from rules.engine import Game, ReplayRng, State, View
from rules.engine.playout import replay_from, replay_steps

#: what a DM may hold (Discord's message limit)
MESSAGE_LIMIT = 2000
_MARKDOWN = re.compile(r"([\\*_~`|])")


class Acted(Protocol):
    """Who acted in one stored event (``bot.storage.EventHead`` fits): what finding a seat's last action needs."""

    @property
    def seat(self) -> int | None: ...
    @property
    def user_id(self) -> str | None: ...


class EventLike(Protocol):
    """One stored event as the host reads it (``bot.storage.EventRow`` fits)."""

    @property
    def seat(self) -> int | None: ...
    @property
    def action(self) -> str: ...
    @property
    def draws(self) -> list[int]: ...
    @property
    def log(self) -> list[list[str]]: ...
    @property
    def user_id(self) -> str | None: ...


@dataclass(frozen=True)
class EventRecord:
    """An event for the digest: who, what, its chance results, its public log lines (kind, text), and who
    acted (the player's user id, ``ai:<level>`` or ``deadline``)."""

    seat: int | None
    action: str
    draws: list[int] = field(default_factory=list)
    log: list[list[str]] = field(default_factory=list)
    user_id: str | None = None


@dataclass(frozen=True)
class Step:
    """One event since the seat last acted."""

    #: its position in the records the digest was built from
    index: int
    #: its public log lines, players named
    lines: tuple[str, ...]
    #: "" when the seat's player acted, else who acted for them ("the AI", "the deadline")
    by: str
    #: the asking seat's own action in words, for its own events only (played for it while it was away)
    own_action: str | None = None
    #: its log lines as the digest shows them, net of the unit moves its group takes back or moves back
    #: (``_net_effect``): ``lines`` less a move and its takeback, a chain A to B to C said once as A to C
    shown: tuple[str, ...] = ()

    @property
    def cancelled(self) -> bool:
        """Whether all its log lines cancel out with others of its group (a move and its takeback)."""
        return bool(self.lines) and not self.shown


@dataclass(frozen=True)
class Group:
    """Consecutive events of one player."""

    seat: int | None
    who: str
    steps: tuple[Step, ...]
    #: the asking seat's view right after the group (None unless asked for with ``step_views``)
    view: View | None = None


@dataclass(frozen=True)
class Digest:
    game_key: str
    seat: int
    #: the asking player as the game names them ("bob (Masovia)")
    who: str
    #: index of the first record covered (the one after the seat's last action)
    since: int
    groups: tuple[Group, ...]
    #: the seat's view when it last acted and now, with the players' names, ready for the renderer
    before: View
    after: View
    #: the seat's own changes between the two views, one sentence each (a game's tracks, hand, lands)
    changes: tuple[str, ...]

    @property
    def event_count(self) -> int:
        return sum(len(group.steps) for group in self.groups)


def last_action_index(records: Sequence[Acted], seat: int, user_id: str | None = None) -> int | None:
    """The index of the seat's last event (with ``user_id``: the last one its player took themself, so that
    what the AI or a deadline did for them while they were away is part of the digest); None if none."""
    for index in range(len(records) - 1, -1, -1):
        record = records[index]
        if record.seat == seat and (user_id is None or record.user_id == user_id):
            return index
    return None


def build_digest(
    game: Game,
    options: dict[str, str],
    setup_draws: Iterable[int],
    records: Sequence[EventLike],
    seat_names: Sequence[str],
    seat: int,
    last_acted: int | None,
    start: tuple[int, State] | None = None,
    step_views: bool = False,
    end: State | None = None,
) -> Digest:
    """The digest for ``seat`` of everything after ``records[last_acted]`` (everything, when None).

    ``start`` is ``(n, state)``: the state after the first ``n`` records (a stored snapshot), to replay from
    there instead of from the setup; ``n`` may not be after the seat's last action. The first ``n`` records are
    then only counted, never read: a caller may pass stand-ins for them that hold only the seat and who acted
    (what ``last_action_index`` reads). ``end`` is the state after all the records (the host's current
    state): the events since the seat's last action are then replayed only up to the seat's own last one among
    them, and the seat's view now is ``end``'s. The digest is the same with or without ``start`` and ``end``.
    ``step_views`` adds the seat's view after each group, for a front-end that steps through the events (it
    replays them all).
    """
    names = [str(name) for name in seat_names]
    first = 0 if last_acted is None else last_acted + 1
    if not 0 <= first <= len(records):
        raise ValueError(f"last action {last_acted} is not among the {len(records)} records")
    if start is None:
        start = (0, game.setup(len(names), options, ReplayRng(list(setup_draws))))
    applied, state = start
    if applied > first:
        raise ValueError(f"the start state (after {applied} records) is after the seat's last action")
    state = replay_from(game, state, records[applied:first])
    before = _seat_view(game, state, seat, names)
    replayed = len(records)  # the records replayed one by one: all, unless ``end`` spares the last ones
    if end is not None and not step_views:
        own = [index for index in range(first, len(records)) if records[index].seat == seat]
        replayed = own[-1] + 1 if own else first
    played = replay_steps(game, state, records[first:replayed])
    read = move_reader(game.key)
    groups: list[Group] = []
    steps: list[Step] = []
    for index in range(first, len(records)):
        record, own_action = records[index], None
        if index < replayed:
            _record, earlier, state = next(played)
            own_action = game.describe(earlier, record.action) if record.seat == seat else None
        steps.append(Step(index, _lines(record, names), _by(record), own_action))
        following = records[index + 1].seat if index + 1 < len(records) else None
        if index + 1 == len(records) or following != record.seat:
            view = _seat_view(game, state, seat, names) if step_views else None
            shown = _net_effect(read, records, steps, names)
            groups.append(Group(record.seat, _who(game, before, record.seat, names), shown, view))
            steps = []
    after = _seat_view(game, state if end is None or step_views else end, seat, names)
    return Digest(
        game.key,
        seat,
        _who(game, after, seat, names),
        first,
        tuple(groups),
        before,
        after,
        tuple(view_changes(game.key, before, after)),
    )


def _seat_view(game: Game, state: State, seat: int, names: list[str]) -> View:
    """The seat's view with the players' names, exactly as the host hands it to the renderer."""
    view = game.view(state, seat)
    view["seat_names"] = list(names)
    return view


def _who(game: Game, view: View, seat: int | None, names: list[str]) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "The game"
    return player_label(game.key, view, seat)


def _by(record: EventLike) -> str:
    who = record.user_id or ""
    if who.startswith("ai:"):
        return "the AI"
    if who == "deadline":
        return "the deadline"
    return ""


def _lines(record: EventLike, names: list[str]) -> tuple[str, ...]:
    return tuple(name_seats(text, names) for _kind, text in _entries(record))


def _entries(record: EventLike) -> list[tuple[str, str]]:
    """The event's public log lines as (kind, text), those with a text only."""
    return [(str(entry[0]), str(entry[1])) for entry in record.log if len(entry) >= 2 and entry[1]]


@dataclass
class _Chain:
    """Moves of one mover's unit that follow on from each other, shown as one line (``_net_effect``)."""

    first: MovedLine
    #: where the unit is after the chain's last move
    at: str
    #: (step, line) of the group's line that shows the chain
    shown_at: tuple[int, int]


def _net_effect(
    read: MoveReader | None, records: Sequence[EventLike], steps: list[Step], names: list[str]
) -> tuple[Step, ...]:
    """A group's steps with the lines the digest shows (``Step.shown``): the net effect of its unit moves, as
    the game's ``read`` reads its log lines (``render.move_reader``).

    A takeback and the move it takes back (the mover's latest one still shown) both go. Then the moves left of
    one mover's unit chain, from a move to the next one that leaves where it arrived, as long as no other line
    shows between them: a chain that ends where it began goes, any other says once where it began and ended, in
    the first move's words, where its last move was. Without a reader, every line shows."""
    lines: list[list[str | None]] = [list(step.lines) for step in steps]
    if read is not None:
        readings = [
            (number, place, read(kind, text))
            for number, step in enumerate(steps)
            for place, (kind, text) in enumerate(_entries(records[step.index]))
        ]
        _take_back(readings, lines)
        _chain(readings, lines, names)
    return tuple(
        replace(step, shown=tuple(line for line in kept if line is not None))
        for step, kept in zip(steps, lines, strict=True)
    )


#: a group's log line read by the game's reader: (step, line, what it reads as)
Reading = tuple[int, int, "MovedLine | TakenBackLine | None"]


def _take_back(readings: list[Reading], lines: list[list[str | None]]) -> None:
    """Hide each takeback with the move it takes back: the mover's latest move still shown (if it matches)."""
    moves: list[tuple[int, int, MovedLine]] = []  # the moves still shown, latest last
    for number, place, reading in readings:
        if isinstance(reading, MovedLine):
            moves.append((number, place, reading))
        elif isinstance(reading, TakenBackLine):
            latest = next((move for move in reversed(moves) if move[2].mover == reading.mover), None)
            if latest is not None and reading.takes_back(latest[2]):
                moves.remove(latest)
                lines[latest[0]][latest[1]] = lines[number][place] = None


def _chain(readings: list[Reading], lines: list[list[str | None]], names: list[str]) -> None:
    """Show each run of one mover's unit's moves that follow on from each other as one move, or none."""
    chains: dict[tuple[str, str], list[_Chain]] = {}  # by (mover, unit)
    for number, place, reading in readings:
        if lines[number][place] is None:
            continue
        if not isinstance(reading, MovedLine):
            chains.clear()  # another line shows between: what follows is not the same run of moves
            continue
        run = chains.setdefault((reading.mover, reading.unit), [])
        chain = next((c for c in reversed(run) if c.at == reading.origin), None)
        if chain is None:
            run.append(_Chain(reading, reading.target, (number, place)))
            continue
        lines[chain.shown_at[0]][chain.shown_at[1]] = None
        if reading.target == chain.first.origin:  # back where it began: neither shows
            run.remove(chain)
            lines[number][place] = None
        else:
            chain.at, chain.shown_at = reading.target, (number, place)
            lines[number][place] = name_seats(chain.first.to(reading.target), names)


# ---- the digest as a DM -------------------------------------------------------------------------------------------
def digest_text(digest: Digest, heading: str | None = None, limit: int = MESSAGE_LIMIT) -> str:
    """The digest as one Discord message: a heading, the seat's own changes, then the events grouped by
    player, latest last. When it does not all fit, the earliest events are left out and the message says how
    many and where to read them ("… and 34 earlier events: /log"), so the latest ones always show."""
    count = digest.event_count
    since = "your last move" if digest.since else "the game began"
    heading = heading or f"**Since {since}** ({_events(count)})"
    head = [heading, *(f"• {change}" for change in digest.changes)]
    if not count:
        head.append(f"Nothing has happened since {since}.")
    steps = [
        (number, _step_lines(group, step))
        for number, group in enumerate(digest.groups)
        for step in group.steps
    ]
    headers = [_header(group) for group in digest.groups]
    low, high = 0, len(steps)  # the most steps, latest first, that fit: the length grows with their number
    while low < high:
        middle = (low + high + 1) // 2
        if len(_compose(head, headers, steps, middle)) <= limit:
            low = middle
        else:
            high = middle - 1
    text = _compose(head, headers, steps, low)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _events(count: int, earlier: str = "") -> str:
    return f"{count} {earlier}event" + ("" if count == 1 else "s")


def _header(group: Group) -> str:
    """The group's player in bold, with who played for them when it was the AI or the deadline throughout."""
    bys = {step.by for step in group.steps}
    played = f" (played by {next(iter(bys))})" if len(bys) == 1 and "" not in bys else ""
    return f"**{escape(group.who)}**{played}"


def _step_lines(group: Group, step: Step) -> list[str]:
    """The event's log lines as shown (none for a move taken back); for the seat's own event without one, its
    action. Who acted for the player is written on the line when it changed within the group."""
    texts = list(step.shown) if step.lines else ([f"you: {step.own_action}"] if step.own_action else [])
    mixed = len({other.by for other in group.steps}) > 1
    marker = f"({step.by}) " if mixed and step.by else ""
    return [f"- {marker}{escape(text)}" for text in texts]


def _compose(head: list[str], headers: list[str], steps: list[tuple[int, list[str]]], shown: int) -> str:
    """The head, how many earlier events are left out, then the last ``shown`` steps under their groups'
    headers (a group whose steps show only in part still has its header; one that shows no line, its moves all
    taken back, has none)."""
    lines = list(head)
    if shown < len(steps):
        lines.append(f"… and {_events(len(steps) - shown, 'earlier ')}: /log")
    current = None
    for number, texts in steps[len(steps) - shown :]:
        if number != current and texts:
            current = number
            lines.append(headers[number])
        lines += texts
    return "\n".join(lines)


def escape(text: str) -> str:
    """A name as plain text in Discord markdown (a name such as ``*bob*`` must not turn bold)."""
    return _MARKDOWN.sub(r"\\\1", text)
