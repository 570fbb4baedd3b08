"""Replays of a game that is over: its steps (the start, then each completed action), the public board at any
step, and the animated replay that fits Discord's upload limit.

A game that is over has its whole log public, and a replay still shows only public views (``view(state, None)``),
so hidden information appears exactly when the rules made it public during the game. The captions use the public
log lines, never the notation of a hidden move. Everything here is synchronous and pure over a ``GameLog``
(from an export file or the database): the bot draws an animation in a worker process (``draw_animation``).

Frames: one per completed action when the game has at most ``MAX_ACTION_FRAMES`` of them and the file fits
``REPLAY_BUDGET``; else one per round (games that number rounds) or per turn (a seat's run of actions); else every
second frame of that, and so on, until the file fits.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from i18n import localize
from render import in_language, render_png, render_view
from render.alt import name_seats
from render.replay import GifWriter, captioned
from rules.engine import ReplayRng, RulesError, get_game

from .models import HostError
from .storage import Store
from .storage import games as stored_games
from .verify import OVER, ExportError, check_shape

#: Discord's upload limit is 10 MiB; leave room for the rest of the message
REPLAY_BUDGET = 9 * 1024 * 1024
#: more completed actions than this and the replay shows rounds or turns (drawing a frame takes up to ~35 ms)
MAX_ACTION_FRAMES = 600
#: how long a frame shows, by what a frame is
FRAME_MS = {"action": 700, "turn": 1000, "round": 1600}
FIRST_FRAME_MS = 2000
LAST_FRAME_MS = 6000
#: what the report and captions call each kind of frame
FRAME_WORDS = {"action": "completed action", "turn": "turn", "round": "round"}

Progress = Callable[[int, int], None]

#: the actor of an automatic pass (the seat's only answer, given by the host after a random delay)
AUTOPASS = "autopass"
#: what a line of ``/log`` or a replay's caption adds for a move a stand-in made for a person's seat (the AI or a
#: deadline's default), and, once the game is over, for an automatic pass (both "phrases" in the catalogs)
STAND_IN_MARK = " (stand-in)"
AUTOPASS_MARK = " (automatic pass)"


def actor_mark(actor: str | None, person_seat: bool, over: bool) -> str:
    """The mark a log line of an event gets from who acted (issue 42): a stand-in's move on a person's seat says
    so; an automatic pass looks exactly like the seat's own answer until the game is over (the table must not
    learn, window by window, that a player held no playable card), then says so."""
    if actor == AUTOPASS:
        return AUTOPASS_MARK if over else ""
    if person_seat and actor is not None and (actor.startswith("ai:") or actor == "deadline"):
        return STAND_IN_MARK
    return ""


class ReplayError(HostError):
    """The game cannot be replayed (not over, not found, a malformed file); ``str(error)`` is the sentence."""


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    seat: int | None
    action: str
    draws: list[int]
    lines: tuple[str, ...]
    #: who acted, as a mark for its lines (``actor_mark``): "" for the seat's own move
    mark: str = ""


@dataclass(frozen=True)
class GameLog:
    """What a replay needs of a game that is over: who sat where, its options and every event not taken back."""

    game_id: int
    kind: str
    num_players: int
    options: dict[str, str]
    seat_names: tuple[str, ...]
    setup_draws: list[int]
    events: tuple[LoggedEvent, ...]
    result: Mapping[str, Any] | None
    guild_id: str | None = None

    @property
    def title(self) -> str:
        return f"{get_game(self.kind).title} #{self.game_id}"

    @classmethod
    def from_export(cls, data: Any) -> GameLog:
        """The log of a complete ``/game export`` file (``ReplayError`` with the file's first problem else)."""
        try:
            check_shape(data)
            get_game(data["game"]["kind"])
        except (ExportError, RulesError) as error:
            raise ReplayError(str(error)) from None
        game, events = data["game"], data["events"]
        people = {seat["seat"] for seat in data["seats"] if seat.get("user_id") is not None}
        return cls(
            game_id=int(game["id"]),
            kind=str(game["kind"]),
            num_players=int(game["num_players"]),
            options=dict(game["options"]),
            seat_names=tuple(str(seat["name"]) for seat in data["seats"]),
            setup_draws=list(events[0]["draws"]),
            events=tuple(
                LoggedEvent(
                    e["seq"],
                    e["seat"],
                    e["action"],
                    list(e["draws"]),
                    tuple(t for _k, t in e["log"]),
                    actor_mark(e.get("actor"), e["seat"] in people, True),
                )
                for e in events[1:]
                if not e["undone"]
            ),
            result=game["result"],
            guild_id=game["guild_id"],
        )


async def load_log(store: Store, game_id: int) -> GameLog:
    """A stored game's log, once it is over (``ReplayError`` with the reason otherwise)."""
    if not 0 < game_id < 2**63:
        raise ReplayError(f"There is no game #{game_id}.")
    row = await stored_games.replay_row(store, game_id)
    if row is None:
        raise ReplayError(f"There is no game #{game_id}.")
    title = f"{get_game(row['kind']).title} #{game_id}"
    if row["num_players"] is None:
        raise ReplayError(f"{title} never started: there is nothing to replay.")
    if row["status"] not in OVER:
        raise ReplayError(f"{title} is still being played: its replay opens once it is over.")
    seats = await stored_games.replay_seats(store, game_id)
    people = {seat["seat"] for seat in seats if seat["user_id"] is not None}
    events = await store.events(game_id, -1)
    return GameLog(
        game_id=game_id,
        kind=str(row["kind"]),
        num_players=int(row["num_players"]),
        options=json.loads(row["options"]),
        seat_names=tuple(str(seat["name"]) for seat in seats),
        setup_draws=list(events[0].draws),
        events=tuple(
            LoggedEvent(
                e.seq,
                e.seat,
                e.action,
                e.draws,
                tuple(text for _kind, text in e.log),
                actor_mark(e.user_id, e.seat in people, True),
            )
            for e in events[1:]
        ),
        result=json.loads(row["result"]) if row["result"] else None,
        guild_id=row["guild_id"],
    )


# ---------------------------------------------------------------------------------------------- steps
@dataclass(frozen=True)
class Step:
    """The board after the setup (index 0) or after a completed action (index 1..n)."""

    index: int
    total: int
    seat: int | None
    round: int | None
    period: Any
    turn: int | None
    #: what happened at this step, from the public log
    line: str
    #: the texts ``line`` joins (each log line of the step), each read on its own in another language
    parts: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        parts = []
        if self.round is not None:
            parts.append(f"Round {self.round}")
        if self.period is not None and not isinstance(self.period, bool):
            parts.append(f"Period {self.period}")
        if self.turn is not None:
            parts.append(f"Turn {self.turn}")
        parts.append("Start" if self.index == 0 else f"action {self.index} of {self.total}")
        return " · ".join(parts)

    def caption(self, locale: str | None) -> str:
        """``title`` in ``locale``'s language."""
        return localize(self.title, locale)

    def said(self, locale: str | None) -> str:
        """``line`` in ``locale``'s language: each of its texts localised on its own (joined, a sentence of one
        could be read as part of another's)."""
        return " ".join(localize(part, locale) for part in self.parts or (self.line,))


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def result_line(log: GameLog) -> str:
    result = log.result or {}
    reason = str(result.get("reason") or "")
    if result.get("draw") or not result.get("winners"):
        return f"Game over: a draw. {reason}".strip()
    names = " and ".join(log.seat_names[w] for w in result["winners"] if 0 <= w < len(log.seat_names))
    verb = "win" if len(result["winners"]) > 1 else "wins"
    return f"Game over: {names} {verb}. {reason}".strip()


def walk(log: GameLog) -> Iterator[tuple[Step, dict[str, Any]]]:
    """Each step with its public view (player names added), replaying the log from the setup."""
    game = get_game(log.kind)
    total = len(log.events)
    try:
        state = game.setup(log.num_players, log.options, ReplayRng(log.setup_draws))
    except RulesError as error:
        raise ReplayError(f"The setup cannot be replayed: {error}") from None
    seats = ", ".join(f"{n + 1}. {name}" for n, name in enumerate(log.seat_names))
    parts: tuple[str, ...] = (f"{get_game(log.kind).title} begins. Seats: {seats}.",)
    seat: int | None = None
    for index in range(total + 1):
        if index:
            event = log.events[index - 1]
            seat = event.seat
            try:
                state = game.apply(state, event.seat or 0, event.action, ReplayRng(event.draws)).state
            except RulesError as error:
                raise ReplayError(f"Event {event.seq} cannot be replayed: {error}") from None
            parts = tuple(  # the log refers to seats ({seat:1}): a replay names its players
                name_seats(line, log.seat_names) for line in _event_lines(log, game.hidden_information, event)
            )
        if index == total:
            parts = (name_seats(result_line(log), log.seat_names),)
        view = game.view(state, None)
        view["seat_names"] = list(log.seat_names)
        step = Step(
            index,
            total,
            seat,
            _number(view.get("round")),
            view.get("period"),
            _number(view.get("turn")),
            " ".join(parts),
            parts,
        )
        yield step, view


def _event_lines(log: GameLog, hidden: bool, event: LoggedEvent) -> tuple[str, ...]:
    if event.lines:
        return tuple(line + event.mark for line in event.lines)
    name = log.seat_names[event.seat] if event.seat is not None and event.seat < len(log.seat_names) else "?"
    return (f"{name} acts.{event.mark}" if hidden else f"{name}: {event.action}{event.mark}",)


def steps(log: GameLog) -> list[Step]:
    return [step for step, _view in walk(log)]


def board_at(log: GameLog, index: int, locale: str | None = None) -> tuple[Step, bytes, list[Step]]:
    """The step ``index`` (clamped to the game), its public board as a PNG (its words in ``locale``'s language),
    and every step (one replay)."""
    index = max(0, min(index, len(log.events)))
    all_steps, shown = [], None
    for step, view in walk(log):
        all_steps.append(step)
        if step.index == index:
            shown = (step, view)
    assert shown is not None, "walk yields every step"
    return shown[0], render_png(log.kind, in_language(shown[1], locale)), all_steps


def rounds(all_steps: list[Step]) -> list[tuple[int, int]]:
    """(round, its first step) for a game that numbers rounds; empty otherwise."""
    firsts: dict[int, int] = {}
    for step in all_steps:
        if step.round is not None:
            firsts.setdefault(step.round, step.index)
    return sorted(firsts.items()) if len(firsts) > 1 else []


# ---------------------------------------------------------------------------------------------- animation
def frame_plan(all_steps: list[Step], granularity: str) -> list[int]:
    """The steps shown as frames: every one (``action``), or the last of each round or turn, with the start and
    the end always included."""
    last = len(all_steps) - 1
    if granularity == "action" or last < 2:
        return list(range(last + 1))
    if granularity == "round":
        ends = [i for i in range(1, last) if all_steps[i].round != all_steps[i + 1].round]
    else:
        ends = [i for i in range(1, last) if all_steps[i].seat != all_steps[i + 1].seat]
    return [0, *ends, last]


def _thinned(plan: list[int]) -> list[int]:
    """Every second frame of a plan, keeping its first and last."""
    kept = plan[:-1:2]
    return kept + [plan[-1]] if kept[-1] != plan[-1] else kept


@dataclass
class Animation:
    data: bytes
    frames: int
    granularity: str
    steps: int
    thinned: int = 0
    width: int = 0
    height: int = 0
    tried: list[str] = field(default_factory=list)

    def describe(self) -> str:
        every = FRAME_WORDS[self.granularity]
        per = f"one per {every}" if not self.thinned else f"one per {2**self.thinned} {every}s"
        size = self.data.__len__() / (1024 * 1024)
        frames = f"{self.frames} frame{'s' if self.frames != 1 else ''}"
        actions = f"{self.steps} completed action{'s' if self.steps != 1 else ''}"
        return f"{frames} ({per}) over {actions}, {size:.2f} MiB, {self.width}x{self.height} GIF"


def animate(
    log: GameLog, progress: Progress | None = None, budget: int = REPLAY_BUDGET, locale: str | None = None
) -> Animation:
    """The animated replay, as detailed as fits ``budget`` bytes (see the module docstring); its captions and
    boards in ``locale``'s language."""
    all_steps = steps(log)
    coarse = "round" if rounds(all_steps) else "turn"
    plans: list[tuple[str, list[int]]] = []
    if len(all_steps) - 1 <= MAX_ACTION_FRAMES:
        plans.append(("action", frame_plan(all_steps, "action")))
    plans.append((coarse, frame_plan(all_steps, coarse)))
    tried: list[str] = []
    thinned = 0
    while True:
        for granularity, plan in plans:
            encoded = _encode(log, plan, granularity, progress, budget, locale)
            tried.append(f"{granularity} x{len(plan)}: {'fits' if encoded else 'too large'}")
            if encoded is not None:
                data, width, height = encoded
                return Animation(
                    data, len(plan), granularity, len(all_steps) - 1, thinned, width, height, tried
                )
        granularity, plan = plans[-1]
        if len(plan) <= 2:
            raise ReplayError("Even two frames of this game do not fit in a file Discord accepts.")
        plans, thinned = [(granularity, _thinned(plan))], thinned + 1


def _encode(
    log: GameLog,
    plan: list[int],
    granularity: str,
    progress: Progress | None,
    budget: int,
    locale: str | None = None,
) -> tuple[bytes, int, int] | None:
    """The GIF of ``plan``'s steps, or None as soon as it outgrows ``budget``."""
    wanted = set(plan)
    last = plan[-1]
    writer = GifWriter()
    width = height = 0
    for step, view in walk(log):
        if step.index not in wanted:
            continue
        title = f"{log.title} · {step.caption(locale)}"
        frame = captioned(render_view(log.kind, in_language(view, locale)), title, step.said(locale))
        width, height = max(width, frame.width), max(height, frame.height)
        duration = (
            LAST_FRAME_MS
            if step.index == last
            else FIRST_FRAME_MS
            if step.index == 0
            else FRAME_MS[granularity]
        )
        writer.add(frame, duration)
        if progress is not None:
            progress(writer.frames, len(plan))
        if writer.size > budget:
            return None
        if step.index == last:
            break
    data = writer.data()
    return (data, width, height) if len(data) <= budget else None


# ---------------------------------------------------------------------------------------------- in a worker
#: [frames drawn, frames] of the animation being drawn: memory the drawing process shares with the bot
_drawn: Any = None


def share_progress(cells: Any) -> None:
    """Where ``draw_animation`` reports its frames (run in each drawing process as it starts, and in the bot)."""
    global _drawn
    _drawn = cells


def _report_drawn(done: int, total: int) -> None:
    if _drawn is not None:
        _drawn[0], _drawn[1] = done, total


def draw_animation(draw: Callable[..., Animation], log: GameLog, locale: str | None) -> Animation:
    """``draw`` (``animate``) where the drawing happens, a worker process (``bot.workers``) or a thread,
    reporting its frames to the cells ``share_progress`` gave."""
    return draw(log, _report_drawn, locale=locale)
