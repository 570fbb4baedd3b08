"""The core of the host service: loading and storing games, and the messages a change causes.

It imports no discord. The Discord cogs, the console and the tests all drive this one class, so no front-end
holds game logic. Every change is one storage transaction: event(s), version bump, snapshot, timers and the
outbox rows of the messages it causes. Deliveries returned to the caller are those outbox rows.

Several processes may drive one database (one per group of gateway shards; Discord sends every DM interaction to
shard 0, so any process may act on any game). Nothing here belongs to a process: a change is accepted only if the
game's stored version is still the one it was computed from (``Store.bump_version``), so of two processes acting
on one game at once exactly one stores and the other answers ``StaleGame``. Each process has a *worker* name;
the outbox rows it writes are claimed for it (see ``Store.claim_outbox``) and the timers it fires are claimed for
it first (``DeadlinesMixin.fire_due_timers``).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import random
import time
import weakref
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Self, TypeVar

from rules.engine import (
    Decision,
    Event,
    Game,
    Outcome,
    State,
    get_game,
    listing,
    name_seats,
)
from rules.engine.playout import replay_from, setup_state
from rules.engine.standing import AHEAD_KEYS, Order, Orders, standing_answer

from ..models import CLOSE_KIND, Actor, Attachment, Choice, Delivery, GameInfo, HostError, Prompt, SeatInfo
from ..ratings import record_result
from ..storage import CLAIM_LEASE_S, SNAPSHOT_EVERY, Connection, StaleVersion, Store
from ..verify import commit_hash as commit_hash  # re-exported: the sealing code names it from here
from ..verify import commit_string
from . import notify

log = logging.getLogger(__name__)
K = TypeVar("K")
V = TypeVar("V")

ACTIVE = ("lobby", "active", "paused")
MIN_DEADLINE_H, MAX_DEADLINE_H = 1.0, 7 * 24.0
#: seconds before an automatic pass, drawn uniformly (players with a card think about as long)
AUTOPASS_DELAY = (20.0, 120.0)
#: deadlines missed in a row before the AI stands in for a player
MISSES_BEFORE_AI = 2
MAX_AI_STEPS = 20_000
#: games whose last state this process keeps, so that loading a game it just stored needs one query
#: (a PRINCIPES game holds about 0.1 MB in memory: ``python -m bench memory`` measures the bound)
KNOWN_GAMES = 256
#: open lobbies one user may have at once, and how long a lobby may sit without anyone joining, leaving or
#: starting it before it closes by itself
MAX_OPEN_LOBBIES = 3
LOBBY_IDLE_S = 7 * 24 * 3600.0
#: the purpose under which front-ends remember a lobby's message (its buttons go when the lobby closes)
LOBBY_MESSAGE = "lobby"
#: the worker name of a process that runs alone (several processes each need their own, see ``bot.config``)
DEFAULT_WORKER = "main"
#: how the message saying who won begins (the rating changes and the replay join that message)
RESULT_PREFIX = "Game over:"
#: ``posts`` (a table option of /game new): one live card per game, edited as it goes (the default), or the
#: board posted after every move
POSTS_CARD, POSTS_EVERY_MOVE = "card", "every-move"
#: the edit key of a game's live card (``Delivery.edit_key``)
CARD_KEY = "card"
#: how long sent deliveries stay in the outbox (for an operator looking at what was posted) before pruning
SENT_RETENTION_S = 7 * 24 * 3600.0


#: how the edit key of a decision prompt sent by DM begins (``dm_prompt_key``)
DM_PROMPT = "dm:"


def dm_prompt_key(seat: int, decision_id: str) -> str:
    """The edit key of a decision prompt sent by DM: its buttons come off when the decision closes."""
    return f"{DM_PROMPT}{seat}:{decision_id}"


def offer_key(offer_id: str) -> str:
    """The edit key of a deadline offer's message (its buttons are taken off when the offer closes)."""
    return f"offer:{offer_id}"


class LruCache(OrderedDict[K, V]):
    """A dict that forgets its least recently used entries beyond ``size`` (a read counts as a use)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get(self, key: K, default: Any = None) -> Any:
        if key not in self:
            return default
        self.move_to_end(key)
        return super().__getitem__(key)

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


class StaleGame(HostError):
    """Another writer (this process or another one) changed the game first: nothing was stored."""


@dataclass
class TimerClaim:
    """The timer whose firing is being stored: its row is deleted in the same transaction as its effect."""

    timer_id: int
    consumed: bool = False


#: set while a timer fires (per task, so other games' actions running meanwhile never see it)
FIRING_TIMER: contextvars.ContextVar[TimerClaim | None] = contextvars.ContextVar("firing_timer", default=None)


def kind_words(kind: str) -> str:
    """A decision kind as words: "clergy_penalty" reads "clergy penalty", "choose-order" "choose order"."""
    return kind.replace("_", " ").replace("-", " ")


@dataclass
class Live:
    """A loaded game: its row, seats, current state and the last event number."""

    row: dict[str, Any]
    seats: list[SeatInfo]
    game: Game
    state: State
    seq: int
    #: seated users who asked for turn DMs, and those who turned automatic passing off (/settings)
    dm_users: set[str] = field(default_factory=set)
    autopass_off: set[str] = field(default_factory=set)
    #: user id -> that player's standing orders in this game (``rules.engine.standing``); never shown to others
    orders: dict[str, dict[str, Order]] = field(default_factory=dict)
    #: seated users' notification settings that differ from the defaults (``notify.DEFAULTS``), and this
    #: game's mute as ``mute`` = "on"
    prefs: dict[str, dict[str, str]] = field(default_factory=dict)
    #: after a store that changed more than the state: the new state, until the row and seats are re-read
    pending_state: State | None = None
    pending_seq: int = -1

    @property
    def id(self) -> int:
        return int(self.row["id"])

    @property
    def version(self) -> int:
        return int(self.row["version"])

    def with_state(self, state: State) -> Live:
        return replace(self, state=state)


@dataclass
class Change:
    """What one stored step does: events to append, messages to send, extra SQL to run, all in one commit."""

    events: list[tuple[int | None, str, list[int], str | None, list[list[str]]]] = field(default_factory=list)
    deliveries: list[Delivery] = field(default_factory=list)
    statements: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    #: deadline offers this change makes (a deadline armed in the same change does not close them)
    offers: set[str] = field(default_factory=set)
    #: the statements end the game (resignation, claim, agreed draw): its result is recorded with them
    finishes: bool = False
    #: seats whose standing orders must not answer their current decision (they just took an answer back)
    orders_off: set[int] = field(default_factory=set)


class HostCore(ABC):
    """Loading, storing and delivering; the mixins in this package add the commands front-ends call.

    The parts call one another only through what this class holds or declares: the turn flow below is
    declared here and defined by ``PlayMixin``, so a part that needs it (deadlines, table talk, the lobby) says
    so through its base and mypy checks every call. ``Host`` is abstract until every declared step is defined.
    """

    # ---- the turn flow, defined by ``PlayMixin`` ------------------------------------------------------------
    @abstractmethod
    async def _act_locked(
        self,
        live: Live,
        seat: int,
        who: str,
        text: str,
        decision_id: str | None,
        parsed: bool = False,
        change: Change | None = None,
    ) -> list[Delivery]:
        """Parse and apply (or seal) one seat's action; the caller holds the game's lock."""

    @abstractmethod
    async def _apply_and_store(
        self, live: Live, moves: list[tuple[int, str]], who: str, change: Change | None = None
    ) -> list[Delivery]:
        """Apply moves in order, then store them with their deliveries in one transaction."""

    @abstractmethod
    async def _seal(
        self, live: Live, seat: int, decision: Decision, action: str, who: str, change: Change | None = None
    ) -> list[Delivery]:
        """Store a sealed choice with its commit; when it is the last one, apply them all."""

    @abstractmethod
    async def _run_ai(self, game_id: int) -> list[Delivery]:
        """Let the AI play every pending AI seat until a person must act."""

    # ---- away mode, defined by ``AwayMixin`` ----------------------------------------------------------------
    @abstractmethod
    async def _away_ended(self, live: Live, timer: dict[str, Any]) -> list[Delivery]:
        """An ``away_end`` timer fired: the player's seat in this game is theirs again."""

    @abstractmethod
    async def cover_away_seats(self, game_id: int) -> list[Delivery]:
        """A game just started: the AI takes the seats of players who are away now."""

    def __init__(
        self, store: Store, clock: Callable[[], float] = time.time, worker: str = DEFAULT_WORKER
    ) -> None:
        self.store = store
        self.clock = clock
        #: this process's name in the claims on timers and outbox rows (unique among running processes)
        self.worker = worker
        #: one lock per game while anyone holds or awaits it: a lock nobody refers to any more is dropped
        #: (``async with`` keeps a reference for as long as it holds or waits), so the map stays small
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        #: game id -> the game as last loaded or stored by this process, valid while its version matches; the
        #: least recently used are forgotten beyond ``KNOWN_GAMES`` (a forgotten game is rebuilt from its
        #: snapshot on its next load)
        self._known: LruCache[int, Live] = LruCache(KNOWN_GAMES)
        #: draws the delay before an automatic pass (tests seed it)
        self.autopass_rng = random.Random()
        #: game id -> (seat, status message key, log lines) of a multi-step action in progress
        self._steps: LruCache[int, tuple[int, str, list[str]]] = LruCache(KNOWN_GAMES)
        #: set when a timer is added, so a front-end's timer loop can wake up early
        self.timers_changed = asyncio.Event()

    @classmethod
    async def open(
        cls, database: str | Path, clock: Callable[[], float] = time.time, worker: str = DEFAULT_WORKER
    ) -> Self:
        return cls(await Store.open(database), clock, worker)

    async def close(self) -> None:
        await self.store.close()

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # ---- the key/value settings of a server and of a player (migration 0009) ---------------------------------
    async def _guild_setting(self, guild_id: str, key: str) -> str | None:
        row = await self.store.fetchone(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
        )
        return str(row["value"]) if row else None

    async def _set_setting(self, table: str, owner: str, key: str, value: str) -> None:
        """Store one setting of a server (``guild_settings``) or of a player (``user_settings``)."""
        column = {"guild_settings": "guild_id", "user_settings": "user_id"}[table]
        async with self.store.transaction() as db:
            await db.execute(
                f"INSERT INTO {table} ({column}, key, value) VALUES (?, ?, ?) "
                f"ON CONFLICT ({column}, key) DO UPDATE SET value = excluded.value",
                (owner, key, value),
            )

    async def _row(self, game_id: int) -> dict[str, Any]:
        if not 0 < game_id < 2**63:  # a forged or corrupted button id: no database integer can hold it
            raise HostError(f"There is no game #{game_id}.")
        row = await self.store.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise HostError(f"There is no game #{game_id}.")
        return dict(row)

    async def _seats(self, game_id: int) -> list[SeatInfo]:
        rows = await self.store.fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [
            SeatInfo(
                r["seat"],
                r["user_id"],
                r["name"],
                r["ai_level"],
                bool(r["away"]),
                r["missed"],
                bool(r["vacation"]),
            )
            for r in rows
        ]

    async def _load(self, game_id: int) -> Live:
        """The game at its stored version: one query when this process stored that version itself."""
        row = await self._row(game_id)
        known = self._known.get(game_id)
        if known and known.version == row["version"]:
            return replace(known, row=row)
        game = get_game(row["kind"])
        seats = await self._seats(game_id)
        if row["num_players"] is None:  # never started: a lobby, open or abandoned
            live = Live(row, seats, game, {}, -1)
        elif known and known.version + 1 == row["version"] and known.pending_state is not None:
            live = Live(row, seats, game, known.pending_state, known.pending_seq)  # our own last write
        else:
            live = Live(row, seats, game, *await self._rebuild(game, row))
        rows = await self.store.fetchall(
            "SELECT s.user_id, u.key, u.value FROM seats s JOIN user_settings u ON u.user_id = s.user_id "
            "WHERE s.game_id = ? AND (u.key IN ('turn_dms', 'autopass', 'mentions', 'quiet_hours', "
            "'time_zone', 'reminders') OR u.key = ?)",
            (game_id, f"{notify.MUTE_PREFIX}{game_id}"),
        )
        live.dm_users = {row["user_id"] for row in rows if row["key"] == "turn_dms" and row["value"] == "on"}
        live.autopass_off = {
            row["user_id"] for row in rows if row["key"] == "autopass" and row["value"] == "off"
        }
        live.orders = await self._game_orders(self.store, game_id)
        live.prefs = {}
        for row in rows:
            key = "mute" if row["key"].startswith(notify.MUTE_PREFIX) else row["key"]
            live.prefs.setdefault(row["user_id"], {})[key] = row["value"]
        self._known[game_id] = live
        return live

    @staticmethod
    async def _game_orders(db: Connection | Store, game_id: int) -> dict[str, dict[str, Order]]:
        """Every player's standing orders in the game, by user id."""
        rows = await db.fetchall(
            "SELECT user_id, topic, choice, names FROM standing_orders WHERE game_id = ?", (game_id,)
        )
        found: dict[str, dict[str, Order]] = {}
        for row in rows:
            names = tuple(str(name) for name in json.loads(row["names"]))
            found.setdefault(row["user_id"], {})[row["topic"]] = Order(row["choice"], names)
        return found

    @staticmethod
    def _standing_action(live: Live, seat: int, decision: Decision, orders: Orders | None) -> str | None:
        """The answer the seat's standing orders give for its decision now (from the seat's view and legal
        actions only; an order that would give an illegal answer gives none: the player is asked)."""
        if not orders or live.seats[seat].is_ai:
            return None
        return HostCore._order_answer(live, seat, decision, orders)

    @staticmethod
    def _order_answer(live: Live, seat: int, decision: Decision, orders: Orders) -> str | None:
        game, state = live.game, live.state
        legal = game.legal_actions(state, seat)
        return standing_answer(game, game.view(state, seat), seat, decision, legal, orders)

    async def _rebuild(self, game: Game, row: dict[str, Any]) -> tuple[State, int]:
        """Latest snapshot, then the events after it, each with the chance results it recorded."""
        snapshot = await self.store.latest_snapshot(row["id"])
        options = json.loads(row["options"])
        if snapshot is None:
            setup = (await self.store.events(row["id"], -1))[0]
            state, seq = setup_state(game, row["num_players"], options, setup), 0
        else:
            seq, state = snapshot
            if row["rules_version"] != game.rules_version:
                state = game.upgrade(state, row["rules_version"])
        state = replay_from(game, state, await self.store.events(row["id"], seq))
        last = await self.store.fetchone("SELECT MAX(seq) FROM events WHERE game_id = ?", (row["id"],))
        assert last is not None  # an aggregate always has a row
        return state, int(last[0])  # undone events keep their numbers: the next event comes after them

    async def replay_state(self, game_id: int) -> State:
        """The state rebuilt from the setup and every event, ignoring snapshots (for checks and tests)."""
        row = await self._row(game_id)
        game = get_game(row["kind"])
        events = await self.store.events(game_id, -1)
        start = setup_state(game, row["num_players"], json.loads(row["options"]), events[0])
        return replay_from(game, start, events[1:])

    def _info(self, live: Live) -> GameInfo:
        row = live.row
        pending_users: list[str] = []
        if row["status"] == "active":
            for seat in live.game.pending(live.state):
                user = live.seats[seat].user_id if seat < len(live.seats) else None
                if user:
                    pending_users.append(user)
        return GameInfo(
            game_id=live.id,
            key=row["kind"],
            title=live.game.title,
            status=row["status"],
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            creator_id=row["creator_id"],
            seats=live.seats,
            options=json.loads(row["options"]),
            min_players=live.game.min_players,
            max_players=live.game.max_players,
            deadline_seconds=row["deadline_seconds"],
            result=json.loads(row["result"]) if row["result"] else None,
            pending_users=pending_users,
            rated=bool(row.get("rated", 1)),
            replay=bool(row.get("post_replay", 1)),
        )

    async def game_info(self, game_id: int) -> GameInfo:
        return self._info(await self._load(game_id))

    async def game_in_channel(self, channel_id: str) -> GameInfo | None:
        row = await self.store.fetchone(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active', 'paused')",
            (channel_id,),
        )
        return await self.game_info(row["id"]) if row else None

    async def _live_in_channel(self, channel_id: str) -> Live:
        info = await self.game_in_channel(channel_id)
        if info is None:
            raise HostError(await self.no_game_text(channel_id))
        return await self._load(info.game_id)

    async def _last_started(self, channel_id: str | None = None, user_id: str | None = None) -> Live | None:
        """The most recent game of the channel (or of the user's seats) that got past its lobby."""
        if channel_id is not None:
            row = await self.store.fetchone(
                "SELECT id FROM games WHERE channel_id = ? AND status != 'lobby' ORDER BY id DESC LIMIT 1",
                (channel_id,),
            )
        else:
            row = await self.store.fetchone(
                "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id "
                "WHERE s.user_id = ? AND g.status != 'lobby' ORDER BY g.id DESC LIMIT 1",
                (user_id,),
            )
        return await self._load(row["id"]) if row else None

    async def no_game_text(self, channel_id: str | None = None, user_id: str | None = None) -> str:
        """What to answer when a command finds no game in progress: the result of the channel's last game (in
        a DM, of the user's last game) when there is one, else how to start one."""
        last = await self._last_started(channel_id, user_id)
        if last is not None and last.row["status"] in ("finished", "abandoned"):
            return f"{self._over_text(last)} Start another with /game new."
        if channel_id is None:
            return "You are not playing any game. Start one with /game new."
        return "There is no game in this channel. Start one with /game new."

    def _over_text(self, live: Live) -> str:
        """A finished or abandoned game in one sentence or two: "Babylone #4 is over: alice wins. ..."."""
        title = f"{live.game.title} #{live.id}"
        result = json.loads(live.row["result"]) if live.row["result"] else None
        if live.row["status"] == "abandoned" or result is None:
            return f"{title} was abandoned."
        words = self._result_words(live, result["winners"], result["draw"], result["reason"])
        return f"{title} is over: {words}"

    @staticmethod
    def ai_levels(game: Game) -> list[str]:
        return list(dict.fromkeys([*game.ai_levels, "random"]))

    def _seat_for(self, live: Live, actor: Actor) -> SeatInfo:
        seat = next((s for s in live.seats if s.user_id == actor.user_id), None)
        if seat is None:
            raise HostError("You are not playing in this game.")
        return seat

    @staticmethod
    def _require_seated_or_creator(live: Live, actor: Actor) -> None:
        if actor.user_id != live.row["creator_id"] and not any(
            s.user_id == actor.user_id for s in live.seats
        ):
            raise HostError("Only a player of this game can do that.")

    def _require_active(self, live: Live) -> None:
        status = live.row["status"]
        if status == "paused":
            raise HostError("The game is paused. Its players can /game resume it.")
        if status == "lobby":
            raise HostError("The game has not started yet: /game start.")
        if status != "active":
            raise HostError(self._over_text(live))

    async def _store(self, live: Live, after: Live, change: Change) -> None:
        now = self.clock()
        try:
            async with self.store.transaction() as db:
                await self.store.bump_version(db, live.id, live.version, now)
                await self._write_change(db, after, change, now)
        except StaleVersion:
            self._known.pop(live.id, None)
            raise StaleGame(
                "The game changed at the same moment; look at the latest message and try again."
            ) from None
        self._remember(after, change)

    def _remember(self, after: Live, change: Change) -> None:
        """Keep what was just stored, so the next load needs no replay (and, for a plain move, no seat query)."""
        seq = after.seq + len(change.events)
        finished = bool(after.state) and after.game.outcome(after.state).finished
        if change.statements or finished:  # seats or status may have changed: re-read them, keep the state
            self._known[after.id] = replace(after, pending_state=after.state, pending_seq=seq)
        else:
            self._known[after.id] = replace(after, row={**after.row, "version": after.version + 1}, seq=seq)

    async def _write_change(self, db: Connection, live: Live, change: Change, now: float) -> None:
        """Events, snapshot, result, timers and outbox of one step (the caller holds the transaction)."""
        await self._consume_firing_timer(db)
        seq = live.seq
        rows = []
        for seat, action, draws, who, log_lines in change.events:
            seq += 1
            rows.append((live.id, seq, seat, action, draws, who, log_lines, now))
        await self.store.append_events(db, rows)
        if change.events and (seq == 0 or seq // SNAPSHOT_EVERY > live.seq // SNAPSHOT_EVERY):
            await self.store.save_snapshot(db, live.id, seq, live.state)
        for sql, params in change.statements:
            await db.execute(sql, params)
        outcome = live.game.outcome(live.state) if live.state else Outcome()
        if outcome.finished:
            await self._finish(db, live.id, outcome.winners, outcome.draw, outcome.reason)
            rows = await db.fetchall(
                "SELECT decision_id, seat, action, nonce, commit_hash FROM sealed WHERE game_id = ? "
                "ORDER BY created_at, seat",
                (live.id,),
            )
            names = ("decision_id", "seat", "action", "nonce", "commit_hash")
            change.deliveries += self._reveal(live, [dict(zip(names, row, strict=True)) for row in rows])
        if outcome.finished or change.finishes:
            await self._record_result(db, live, change, now)
        armed = await self._arm_timers(db, live, change, now)
        await self._close_stale_offers(db, live, change, armed)
        await self._close_dm_prompts(db, live, change)
        await self._hold_pings(db, live, change, now)
        for delivery in change.deliveries:  # claimed for this process, which posts them after the commit
            delivery.id = await self.store.add_outbox(
                db, live.id, delivery.to_payload(), now, self.worker, now + CLAIM_LEASE_S
            )

    async def _record_result(self, db: Connection, live: Live, change: Change, now: float) -> None:
        """The game ends in this transaction: its result and ratings are stored with it (``bot.ratings``). The
        message that says who won also gets the rating changes and, unless the table chose replay=no, the
        animated replay (drawn by the front-end when it posts the message)."""
        view = live.game.view(live.state, None) if live.state else {}
        sides = live.game.seat_sides(view, len(live.seats))
        recorded = await record_result(db, live.id, sides, now)
        if recorded is None:
            return
        text = recorded.text(f"{live.game.title} #{live.id}")
        told = [d for d in change.deliveries if d.kind == "public" and RESULT_PREFIX in d.text]
        if not told:
            told = [self._public(live, "", None)]
            change.deliveries.append(told[0])
        told[-1].text = f"{told[-1].text}\n{text}".strip()
        told[-1].replay = recorded.post_replay

    @staticmethod
    async def _consume_firing_timer(db: Connection) -> None:
        """When this change is a timer's effect, delete the timer in the same transaction: the effect is stored
        once even if two processes fire the timer (the second finds no row and stores nothing), and a crash
        before the commit leaves the timer to fire again."""
        claim = FIRING_TIMER.get()
        if claim is None or claim.consumed:
            return
        deleted = await db.execute("DELETE FROM timers WHERE id = ?", (claim.timer_id,))
        if deleted.rowcount != 1:
            raise StaleVersion(f"timer {claim.timer_id} has fired already")
        claim.consumed = True

    @staticmethod
    async def _finish(
        db: Connection, game_id: int, winners: tuple[int, ...] | list[int], draw: bool, reason: str
    ) -> None:
        result = json.dumps({"winners": list(winners), "draw": draw, "reason": reason})
        await db.execute("UPDATE games SET status = 'finished', result = ? WHERE id = ?", (result, game_id))
        await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

    async def _sealed_for(self, live: Live) -> dict[int, str]:
        """Sealed, not yet applied submissions that answer the seats' current decisions."""
        pending = live.game.pending(live.state)
        rows = await self.store.fetchall(
            "SELECT seat, decision_id, action FROM sealed WHERE game_id = ? AND applied = 0", (live.id,)
        )
        return {
            r["seat"]: r["action"]
            for r in rows
            if r["seat"] in pending and pending[r["seat"]].id == r["decision_id"]
        }

    async def sealed_record(self, game_id: int) -> list[dict[str, Any]]:
        """Every sealed submission with its nonce and commit, for checking; published when the game ends."""
        rows = await self.store.fetchall(
            "SELECT decision_id, seat, action, nonce, commit_hash FROM sealed WHERE game_id = ? "
            "ORDER BY created_at, seat",
            (game_id,),
        )
        return [dict(row) for row in rows]

    @staticmethod
    def _named(live: Live, text: str) -> str:
        """The one place where the rules' seat references (``rules.engine.seat_ref``) become the players'
        display names: every text the host delivers or answers with passes through here. Stored event texts
        keep their references (so /log and exports show today's names); old texts without any read unchanged."""
        return name_seats(text, [seat.name for seat in live.seats])

    def _named_prompt(self, live: Live, prompt: Prompt | None) -> Prompt | None:
        if prompt is None:
            return None
        prompt.text = self._named(live, prompt.text)
        prompt.choices = [  # ``name_seats`` returns a text without references as it is: most choices stay
            c if (label := self._named(live, c.label)) is c.label else Choice(c.action, label)
            for c in prompt.choices
        ]
        return prompt

    @staticmethod
    def _view(live: Live, seat: int | None) -> dict[str, Any]:
        """The rules' view for an image, with the players' names added (public knowledge at the table)."""
        view = live.game.view(live.state, seat)
        view["seat_names"] = [s.name for s in live.seats]
        return view

    def _public(
        self,
        live: Live,
        text: str,
        view: dict[str, Any] | None,
        mentions: list[str] | None = None,
        prompt: Prompt | None = None,
    ) -> Delivery:
        return Delivery(
            0,
            live.id,
            live.row["kind"],
            "public",
            self._named(live, text),
            channel_id=live.row["channel_id"],
            view=view,
            mentions=mentions or [],
            prompt=self._named_prompt(live, prompt),
        )

    def _private(
        self, live: Live, seat: int, text: str, with_view: bool = True, prompt: Prompt | None = None
    ) -> Delivery | None:
        user = live.seats[seat].user_id
        if user is None:
            return None
        view = self._view(live, seat) if with_view and live.state else None
        return Delivery(
            0,
            live.id,
            live.row["kind"],
            "private",
            self._named(live, text),
            user_id=user,
            seat=seat,
            view=view,
            prompt=self._named_prompt(live, prompt),
        )

    def prompt_for(self, live: Live, seat: int, decision: Decision) -> Prompt:
        game, state = live.game, live.state
        choices = [
            Choice(action, self._named(live, game.describe(state, action)))
            for action in game.legal_actions(state, seat)
            if not game.is_free(state, seat, action)
        ]
        deadline = None
        if live.row["status"] == "active" and not live.seats[seat].is_ai:
            span = live.row["window_seconds"] if decision.timing == "window" else live.row["deadline_seconds"]
            deadline = self.clock() + span
        return Prompt(
            live.id,
            seat,
            decision.id,
            decision.kind,
            self._named(live, decision.prompt),
            decision.sealed,
            choices,
            deadline,
        )

    def _turn_deliveries(
        self,
        live: Live,
        before: dict[int, Decision],
        events: list[Event],
        change: Change,
        acting: int | None = None,
    ) -> None:
        """What the table sees after an action.

        A completed action or turn: the public board, its log and a mention of whoever must act now (once), plus
        private views and prompts by DM for seats with hidden information or turn DMs on. A step of a multi-step
        action (the same seat alone decides the same kind of thing before and after, and no die was rolled)
        edits one status message instead of posting a board; a free action (by someone not asked) posts its log
        line alone.
        """
        game, state = live.game, live.state
        pending = game.pending(state)
        fresh = {s: d for s, d in pending.items() if before.get(s) is None or before[s].id != d.id}
        finished = game.outcome(state).finished
        texts = [event.text for event in events]
        used_chance = any(draws for _seat, _action, draws, _who, _log in change.events)
        if (
            acting is not None
            and not finished
            and not used_chance
            and set(before) == set(pending) == {acting}
            and not pending[acting].sealed
            and before[acting].kind == pending[acting].kind
        ):
            self._step_delivery(live, acting, pending[acting], texts, change)
        elif acting is not None and acting not in before and not fresh and not finished:
            change.deliveries.append(self._public(live, "\n".join(texts), None))
        else:
            self._board_delivery(live, pending, fresh, texts, change, acting)
        for seat, decision in sorted(fresh.items()):
            wants_dm = game.hidden_information or decision.sealed or live.seats[seat].user_id in live.dm_users
            if live.seats[seat].is_ai or not wants_dm:
                continue
            text = f"{game.title} #{live.id}: {decision.prompt}"
            orders = live.orders.get(live.seats[seat].user_id or "")
            standing = self._standing_action(live, seat, decision, orders)
            if standing is not None and seat not in change.orders_off:  # taken back: the orders stay silent
                text += self._standing_notice(live, seat, decision, orders or {}, standing)
            private = self._private(live, seat, text, prompt=self.prompt_for(live, seat, decision))
            if private:
                private.catchup = True
                private.edit_key = dm_prompt_key(seat, decision.id)  # its buttons come off when it closes
                change.deliveries.append(private)

    def _standing_notice(
        self, live: Live, seat: int, decision: Decision, orders: Orders, standing: str
    ) -> str:
        """The line a prompt's DM gets when the seat's orders will answer it: an answer the player gave ahead
        (``/ahead``, or when sealing their plan) is named as such, not as a standing order."""
        ahead = {key: orders[key] for key in AHEAD_KEYS if key in orders}
        if ahead and self._standing_action(live, seat, decision, ahead) == standing:
            source, change = "Your answer given ahead", "/ahead changes it"
        else:
            source, change = "Your standing order", "/orders changes your orders"
        described = live.game.describe(live.state, standing)
        return (
            f"\n{source} answers this in a moment: {described} "
            f"(answer yourself first to choose otherwise; {change})."
        )

    def _step_delivery(
        self, live: Live, seat: int, decision: Decision, texts: list[str], change: Change
    ) -> None:
        """A step of a multi-step action edits one status message: the action's lines so far (each step adds
        its own) and what the seat decides next. A front-end that cannot edit shows only the added lines."""
        run = self._steps.get(live.id)
        if run is None or run[0] != seat:
            run = (seat, f"status:{live.seq + 1}", [])
        run = (seat, run[1], run[2] + texts)
        self._steps[live.id] = run
        prompt = None
        if not live.game.hidden_information and not live.seats[seat].is_ai:
            prompt = self.prompt_for(live, seat, decision)
        text = "\n".join([*run[2], self._waiting_line(live, seat, decision)])
        delivery = self._public(live, text, None, None, prompt)
        delivery.edit_key = run[1]
        change.deliveries.append(delivery)

    def _close_steps(self, live: Live, change: Change) -> None:
        """The multi-step action is over: its status message keeps its lines and loses its "Now:" line and
        buttons (the board posted next says what follows, without repeating those lines)."""
        run = self._steps.pop(live.id, None)
        if run is None:
            return
        seat, key, lines = run
        closing = self._public(live, "\n".join(lines) or f"{live.seats[seat].name} is done.", None)
        closing.edit_key = key
        change.deliveries.append(closing)

    def _board_delivery(
        self,
        live: Live,
        pending: dict[int, Decision],
        fresh: dict[int, Decision],
        texts: list[str],
        change: Change,
        acting: int | None,
    ) -> None:
        """The board image with this change's log lines and the mention of who acts now; at the end of the
        game, the result instead (an event that says just what the result's reason says is left out)."""
        game, state = live.game, live.state
        self._close_steps(live, change)
        lines = list(texts)
        outcome = game.outcome(state)
        if outcome.finished:
            lines = [line for line in lines if line != outcome.reason]
            lines.append(self._result_text(live, outcome.winners, outcome.draw, outcome.reason))
        else:
            lines += self._waiting_lines(live, pending)
        mentions = [u for s in sorted(fresh) if (u := live.seats[s].user_id) and not live.seats[s].is_ai]
        public_prompt = None
        if len(fresh) == 1 and not game.hidden_information:
            seat, decision = next(iter(fresh.items()))
            if not decision.sealed and not live.seats[seat].is_ai:
                public_prompt = self.prompt_for(live, seat, decision)
        board = self._public(live, "\n".join(lines), self._view(live, None), mentions, public_prompt)
        if live.row["posts"] != POSTS_CARD:  # posts=every-move: the board after every move, as it always was
            change.deliveries.append(board)
            return
        # the live card: one message per game (status, board, the buttons of the moment), edited as the game
        # goes; the channel gets this change's lines and the mention alone, so it keeps a short history. The
        # line comes first: a card that has sunk under the newer lines is posted again under this one (issue
        # 47, ``keep_in_reach``). The result still comes as its own message with the final board.
        card = self._public(
            live, self._card_text(live, pending, outcome.finished), board.view, None, public_prompt
        )
        card.edit_key = CARD_KEY
        if outcome.finished:
            change.deliveries.append(card)
            board.prompt = None
            change.deliveries.append(board)
        else:
            change.deliveries.append(self._public(live, "\n".join(lines), None, mentions))
            card.keep_in_reach = True
            change.deliveries.append(card)

    def _card_text(self, live: Live, pending: dict[int, Decision], finished: bool) -> str:
        """The live card's text: the game, its round where it has rounds, and who it waits for."""
        head = f"**{live.game.title} #{live.id}**"
        facts = live.game.round_status(live.state) if live.state else None
        if facts is not None:
            head += f" · Round {facts.round}" + (f" · Period {facts.period}" if facts.period else "")
        if finished:
            return f"{head}\nThe game is over: the result is below."
        return "\n".join([head, *self._waiting_lines(live, pending)])

    def _waiting_line(self, live: Live, seat: int, decision: Decision) -> str:
        """Whom the game waits for, as "Now: alice decides (move): <the prompt>"; an AI seat's line has no
        prompt (a prompt speaks to a person)."""
        who = live.seats[seat].label
        verb = "seals" if decision.sealed else "decides"
        line = f"Now: {who} {verb} ({kind_words(decision.kind)})"
        return f"{line}." if live.seats[seat].is_ai else f"{line}: {decision.prompt}"

    def _waiting_lines(
        self, live: Live, pending: dict[int, Decision], sealed: Collection[int] = ()
    ) -> list[str]:
        """Who the game waits for: a "Now:" line per open decision, then one line for the seats that have
        sealed theirs and wait for the others."""
        lines = [self._waiting_line(live, s, d) for s, d in sorted(pending.items()) if s not in sealed]
        done = [s for s in sorted(pending) if s in sealed]
        if done:
            lines.append(self._sealed_line(live, pending, done))
        return lines

    @staticmethod
    def _sealed_line(live: Live, pending: dict[int, Decision], done: list[int]) -> str:
        """One line for the seats that sealed while others decide: "alice: sealed (plan), waiting for bob"."""
        names = listing([live.seats[s].name for s in done])
        others = listing([live.seats[s].name for s in sorted(pending) if s not in done]) or "the reveal"
        return f"{names}: sealed ({kind_words(pending[done[0]].kind)}), waiting for {others}."

    def _result_words(self, live: Live, winners: tuple[int, ...] | list[int], draw: bool, reason: str) -> str:
        """The result as words, with the players' names, ending as a sentence: "alice wins. <reason>" or
        "a draw. <reason>"."""
        names = listing([live.seats[w].name for w in winners])
        words = f"a draw. {reason}" if draw else f"{names} {'win' if len(winners) > 1 else 'wins'}. {reason}"
        words = words.strip()
        return self._named(live, words if words.endswith((".", "!", "?")) else f"{words}.")

    def _result_text(self, live: Live, winners: tuple[int, ...] | list[int], draw: bool, reason: str) -> str:
        return f"{RESULT_PREFIX} {self._result_words(live, winners, draw, reason)}"

    async def pending_deliveries(self) -> list[Delivery]:
        """Unsent deliveries this process may post: its own and those no live process holds, claimed for it."""
        claimed = await self.store.claim_outbox(self.worker, self.clock())
        return [Delivery.from_payload(i, payload) for i, payload in claimed]

    async def claim_delivery(self, delivery_id: int) -> bool:
        """Renew this process's claim on an unsent delivery before posting it; False if it is no longer ours."""
        return await self.store.renew_outbox_claim(delivery_id, self.worker, self.clock())

    async def mark_sent(self, delivery_id: int, posted: tuple[int, str] | None = None) -> None:
        """Delivery ``delivery_id`` is out. ``posted``: the game and channel where it posted a new message, which
        stands below the game's live card: counted (with the mark, so once) for ``find_card``."""
        if posted is None:
            await self.store.mark_sent(delivery_id, self.clock())
            return
        async with self.store.transaction() as db:
            marked = await db.execute(
                "UPDATE outbox SET sent_at = ? WHERE id = ? AND sent_at IS NULL", (self.clock(), delivery_id)
            )
            if marked.rowcount:
                await db.execute(
                    "UPDATE messages SET below = below + 1 WHERE game_id = ? AND purpose = ? AND channel_id = ?",
                    (posted[0], CARD_KEY, posted[1]),
                )

    async def prune_sent_deliveries(self, keep_s: float = SENT_RETENTION_S) -> int:
        """Delete deliveries sent more than ``keep_s`` ago (they hold board views: ~170 KB a game otherwise
        kept forever); returns how many. Unsent rows are never touched."""
        return await self.store.prune_outbox(self.clock() - keep_s)

    @staticmethod
    async def _status_after(db: Connection, live: Live, change: Change) -> str:
        if not change.statements:
            return str(live.row["status"])
        rows = await db.fetchall(
            "SELECT status FROM games WHERE id = ?", (live.id,)
        )  # they may end or pause it
        return str(list(rows)[0][0])

    async def _arm_timers(self, db: Connection, live: Live, change: Change, now: float) -> set[int]:
        """Keep one reminder and one deadline per open human decision; drop those of answered decisions.
        Returns the seats that got a new deadline."""
        if not live.state or await self._status_after(db, live, change) != "active":
            return set()
        pending = live.game.pending(live.state)
        rows = await db.fetchall(
            "SELECT id, seat, decision_id, kind FROM timers WHERE game_id = ? "
            "AND kind IN ('reminder', 'deadline', 'autopass', 'standing', 'standing_off')",
            (live.id,),
        )
        armed, stale = set(), []
        for timer_id, seat, decision_id, kind in rows:
            decision = pending.get(seat)
            if decision is None or decision.id != decision_id or live.seats[seat].is_ai:
                stale.append((timer_id,))
            else:
                armed.add((seat, kind))
        if stale:
            await db.executemany("DELETE FROM timers WHERE id = ?", stale)
        new = []
        orders = await self._game_orders(db, live.id) if pending else {}
        for seat, decision in pending.items():
            if not live.seats[seat].is_ai:
                new += self._seat_timers(live, seat, decision, armed, change, orders, now)
        if new:
            await db.executemany(
                "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, ?, ?, ?, ?)", new
            )
            self.timers_changed.set()
        return {seat for _game, kind, seat, _decision, _due in new if kind == "deadline"}

    def _seat_timers(
        self,
        live: Live,
        seat: int,
        decision: Decision,
        armed: set[tuple[int, str]],
        change: Change,
        orders: dict[str, Any],
        now: float,
    ) -> list[tuple[int, str, int, str, float]]:
        """The timers a person's open decision still needs: reminder and deadline, the auto-pass, the standing
        order's answer (or the marker that keeps their orders silent after an undo)."""
        new = []
        if (seat, "deadline") not in armed:
            span = live.row["window_seconds"] if decision.timing == "window" else live.row["deadline_seconds"]
            user_id = live.seats[seat].user_id
            schedule = [] if self._muted(live, user_id) else self._reminder_fractions(live, user_id)
            new += [(live.id, "reminder", seat, decision.id, now + span * (1 - share)) for share in schedule]
            new.append((live.id, "deadline", seat, decision.id, now + span))
        wants_autopass = live.seats[seat].user_id not in live.autopass_off
        passes = wants_autopass and live.game.auto_pass(live.state, seat) is not None
        if (seat, "autopass") not in armed and passes:
            # a random moment, so that being passed at once does not tell the table the hand is empty
            delay = self.autopass_rng.uniform(*AUTOPASS_DELAY)
            new.append((live.id, "autopass", seat, decision.id, now + delay))
        user = live.seats[seat].user_id or ""
        if seat in change.orders_off and (seat, "standing_off") not in armed:
            # a marker that lives as long as the decision: its orders stay silent until the next one
            new.append((live.id, "standing_off", seat, decision.id, now + live.row["deadline_seconds"]))
            armed.add((seat, "standing_off"))
        silenced = (seat, "standing_off") in armed
        if (seat, "standing") not in armed and not passes and not silenced and user in orders:
            if self._standing_action(live, seat, decision, orders[user]) is not None:
                # the auto-pass's random moment: an order's answer tells the table nothing by its timing
                delay = self.autopass_rng.uniform(*AUTOPASS_DELAY)
                new.append((live.id, "standing", seat, decision.id, now + delay))
        return new

    # ---- notification settings (see ``notify``) --------------------------------------------------------------
    @staticmethod
    def _pref(live: Live, user: str | None, key: str) -> str:
        return live.prefs.get(user or "", {}).get(key, notify.DEFAULTS.get(key, ""))

    def _muted(self, live: Live, user: str | None) -> bool:
        return self._pref(live, user, "mute") == "on"

    def _reminder_fractions(self, live: Live, user: str | None) -> list[float]:
        return notify.reminder_fractions(self._pref(live, user, "reminders"))

    def _quiet_until(self, live: Live, user: str | None, now: float) -> float | None:
        """The end of the user's quiet hours when ``now`` falls in them."""
        return notify.quiet_until(
            now, self._pref(live, user, "quiet_hours"), self._pref(live, user, "time_zone")
        )

    async def _hold_pings(self, db: Connection, live: Live, change: Change, now: float) -> None:
        """Take out the mentions players do not want: a muted game, mentions turned off, or quiet hours. A ping
        of a player in their quiet hours whose decision is open waits: a reminder at the end of the quiet hours
        (if that is before the deadline, which never moves)."""
        held: set[str] = set()
        for delivery in change.deliveries:
            kept = []
            for user in delivery.mentions:
                if self._muted(live, user) or self._pref(live, user, "mentions") == "off":
                    continue
                if self._quiet_until(live, user, now) is not None:
                    held.add(user)
                    continue
                kept.append(user)
            delivery.mentions = kept
        if not held or not live.state:
            return
        pending = live.game.pending(live.state)
        deadlines = {
            seat: due
            for seat, due in await db.fetchall(
                "SELECT seat, due FROM timers WHERE game_id = ? AND kind = 'deadline'", (live.id,)
            )
        }
        for seat, decision in pending.items():
            holder = live.seats[seat].user_id
            ends = self._quiet_until(live, holder, now)
            if holder in held and ends is not None and ends < deadlines.get(seat, ends):
                await db.execute(
                    "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, 'reminder', ?, ?, ?)",
                    (live.id, seat, decision.id, ends),
                )
                self.timers_changed.set()

    async def _close_stale_offers(self, db: Connection, live: Live, change: Change, armed: set[int]) -> None:
        """Close every deadline offer this change makes stale, and take its buttons off: the late seat's turn
        changed, the game is no longer running (paused, over), or the seat got a new deadline (a resume, an
        undone move, "keep waiting"). A closed offer's row is gone, so its old buttons are refused."""
        rows = await db.fetchall(
            "SELECT offer_id, seat, decision_id FROM offers WHERE game_id = ?", (live.id,)
        )
        if not rows:
            return
        running = bool(live.state) and await self._status_after(db, live, change) == "active"
        pending = live.game.pending(live.state) if running else {}
        sealed = {  # a late seat that has sealed its answer since is late no more
            (seat, decision_id)
            for seat, decision_id in await db.fetchall(
                "SELECT seat, decision_id FROM sealed WHERE game_id = ? AND applied = 0", (live.id,)
            )
        }
        for offer_id, seat, decision_id in rows:
            decision = pending.get(seat)
            fresh_deadline = seat in armed and offer_id not in change.offers
            answered = (seat, decision_id) in sealed
            if decision is not None and decision.id == decision_id and not fresh_deadline and not answered:
                continue
            await db.execute("DELETE FROM offers WHERE game_id = ? AND offer_id = ?", (live.id, offer_id))
            name = live.seats[seat].name if 0 <= seat < len(live.seats) else "the player"
            closed = self._public(
                live, f"{name} let a deadline pass. This offer is closed: the game moved on.", None
            )
            closed.edit_key = offer_key(offer_id)
            change.deliveries.append(closed)

    async def _close_dm_prompts(self, db: Connection, live: Live, change: Change) -> None:
        """Remember each decision prompt this change sends by DM (``dm_prompts``), and close every one whose
        decision this change closes, however it closed (answered by the player, an order, an answer given ahead,
        the automatic pass, a deadline, an AI stand-in; an undo, a pause, the game's end), or that its seat has
        sealed: a delivery edits the DM (``dm_prompt_key``) to take its buttons off. Only the seat is told."""
        for delivery in change.deliveries:
            key, prompt = delivery.edit_key, delivery.prompt
            if delivery.kind == "private" and prompt and key and key.startswith(DM_PROMPT):
                await db.execute(
                    "INSERT INTO dm_prompts (game_id, seat, decision_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    (live.id, prompt.seat, prompt.decision_id),
                )
        rows = await db.fetchall("SELECT seat, decision_id FROM dm_prompts WHERE game_id = ?", (live.id,))
        if not rows:
            return
        running = bool(live.state) and await self._status_after(db, live, change) == "active"
        pending = live.game.pending(live.state) if running else {}
        sealed = {
            (seat, decision_id)
            for seat, decision_id in await db.fetchall(
                "SELECT seat, decision_id FROM sealed WHERE game_id = ? AND applied = 0", (live.id,)
            )
        }
        for seat, decision_id in rows:
            decision = pending.get(seat)
            if decision is not None and decision.id == decision_id and (seat, decision_id) not in sealed:
                continue
            await db.execute(
                "DELETE FROM dm_prompts WHERE game_id = ? AND seat = ? AND decision_id = ?",
                (live.id, seat, decision_id),
            )
            if not 0 <= seat < len(live.seats):
                continue
            closed = self._private(live, seat, "", with_view=False)
            if closed is not None:  # posts nothing: the DM keeps its text and loses its buttons
                closed.kind, closed.edit_key = CLOSE_KIND, dm_prompt_key(seat, decision_id)
                change.deliveries.append(closed)

    @staticmethod
    def stand_in_level(live: Live) -> str:
        """The AI level that stands in for an absent player: in a rated game the game's modest level (its weakest
        AI level that is not random), so a stand-in never lends a player a stronger move than their own (issue
        42); in an unrated game its first, strongest level."""
        levels = [level for level in live.game.ai_levels if level != "random"]
        if not levels:
            return "random"
        return levels[-1] if live.row.get("rated", 1) else levels[0]

    def _hand_to_ai_sql(self, live: Live, seat: int, vacation: bool = False) -> tuple[str, tuple[Any, ...]]:
        """The AI stands in for an absent player (after missed deadlines, or ``vacation``: while they are
        away) at the stand-in level (``stand_in_level``)."""
        level = self.stand_in_level(live)
        return (
            "UPDATE seats SET ai_level = COALESCE(ai_level, ?), away = 1, vacation = CASE WHEN ? = 1 THEN 1 ELSE vacation END "
            "WHERE game_id = ? AND seat = ?",
            (level, int(vacation), live.id, seat),
        )

    def _hand_over_kept(self, live: Live, after: Live, before: dict[int, Decision], change: Change) -> Live:
        """Away players' kept decisions (issue 42): a player who went away while a decision waited for their seat
        keeps that one decision (``SeatInfo.vacation`` without an AI level); once it is answered or gone, the
        AI stands in for the seat's later decisions. ``before``: the decisions pending before this change;
        returns ``after`` with the seats the AI took (the change stores them)."""
        if not any(seat.vacation and not seat.is_ai for seat in after.seats):
            return after
        pending = after.game.pending(after.state) if after.state else {}
        seats = list(after.seats)
        for seat in after.seats:
            if not seat.vacation or seat.is_ai:
                continue
            kept, now = before.get(seat.seat), pending.get(seat.seat)
            if kept is not None and now is not None and kept.id == now.id:
                continue  # still the decision that was waiting when they left
            change.statements.append(self._hand_to_ai_sql(live, seat.seat, vacation=True))
            seats[seat.seat] = replace(seat, ai_level=self.stand_in_level(live), away=True)
        return replace(after, seats=seats)

    async def _standing_order(self, live: Live, seat: int) -> str | None:
        """The action a player's standing orders give for this decision of their seat, tried before the AI
        answers for an away player. None: no order applies (the AI decides)."""
        decision = live.game.pending(live.state).get(seat) if live.state else None
        orders = live.orders.get(live.seats[seat].user_id or "")
        if decision is None or not orders:
            return None
        return self._order_answer(live, seat, decision, orders)

    async def _live_in_channel_or_last(self, channel_id: str) -> Live:
        """The active game of the channel, else the most recent finished one (to look at its end)."""
        info = await self.game_in_channel(channel_id)
        if info is None:
            last = await self._last_started(channel_id)
            if last is None:
                raise HostError(await self.no_game_text(channel_id))
            return last
        return await self._load(info.game_id)

    async def _reveal_deliveries(self, live: Live) -> list[Delivery]:
        return self._reveal(live, await self.sealed_record(live.id))

    def _reveal(self, live: Live, record: list[dict[str, Any]]) -> list[Delivery]:
        """The game is over: publish every sealed choice with its nonce so anyone can check each commit.

        All of them, however many (The Prince seals 16-72): a short message with an attached text file that lists
        each choice, the exact text its commit is the SHA-256 of, and the commit posted when it was sealed."""
        if not record:
            return []
        name = f"sealed-choices-{live.row['kind']}-{live.id}.txt"
        counts: dict[int, int] = {}
        for r in record:
            counts[r["seat"]] = counts.get(r["seat"], 0) + 1
        per_seat = ", ".join(f"{live.seats[seat].name} {n}" for seat, n in sorted(counts.items()))
        text = (
            f"Sealed choices, for checking: all {len(record)} ({per_seat}), each with its nonce, are in the "
            f"attached {name}. Each commit posted during the game is the SHA-256 of "
            "`nonce|game|decision|seat|action`; /game verify checks every one, and the whole game from its seed."
        )
        delivery = self._public(live, text, None)
        delivery.attachments = [Attachment(name, self._reveal_file(live, record))]
        return [delivery]

    @staticmethod
    def _reveal_file(live: Live, record: list[dict[str, Any]]) -> str:
        game_number = live.row.get("origin_id") or live.id  # an imported game's commits name its first number
        lines = [
            f"Sealed choices of {live.game.title} #{live.id}, published when the game ended.",
            "Each commit was posted in the channel when its choice was sealed. It is the SHA-256 (hex) of the text",
            f"nonce|game|decision|seat|action (game {game_number}, seats numbered from 0), so anyone can check it,",
            'in Python: hashlib.sha256("<text>".encode()).hexdigest() == "<commit>"',
            "",
        ]
        for number, r in enumerate(record, start=1):
            lines += [
                f"{number}. {live.seats[r['seat']].name} (seat {r['seat']}), decision {r['decision_id']}: "
                f"{r['action']}",
                "   text:   "
                + commit_string(r["nonce"], game_number, r["decision_id"], r["seat"], r["action"]),
                f"   commit: {r['commit_hash']}",
            ]
        return "\n".join(lines) + "\n"

    async def _end_with(
        self, live: Live, change: Change, winners: list[int], draw: bool, reason: str
    ) -> None:
        change.statements.append(
            (
                "UPDATE games SET status = 'finished', result = ? WHERE id = ?",
                (json.dumps({"winners": winners, "draw": draw, "reason": reason}), live.id),
            )
        )
        change.statements.append(("DELETE FROM timers WHERE game_id = ?", (live.id,)))
        change.finishes = True
        change.deliveries.append(self._public(live, self._result_text(live, winners, draw, reason), None))
        change.deliveries += await self._reveal_deliveries(live)
