"""The shared part of the host service (``Games``): loading and storing games, and the messages a change causes.

It imports no discord. Every other part (``bot.host`` composes them) loads, locks and stores games through it.
Every change is one storage transaction: event(s), version bump, snapshot, timers and the outbox rows of the
messages it causes. Deliveries returned to the caller are those outbox rows.

Several processes may drive one database (one per group of gateway shards; Discord sends every DM interaction to
shard 0, so any process may act on any game). Nothing here belongs to a process: a change is accepted only if the
game's stored version is still the one it was computed from (``Store.bump_version``), so of two processes acting
on one game at once exactly one stores and the other answers ``StaleGame``. Each process has a *worker* name;
the outbox rows it writes are claimed for it (see ``Store.claim_outbox``) and the timers it fires are claimed for
it first (``Deadlines.fire_due_timers``).
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import logging
import random
import time
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from i18n import DEFAULT, language_of
from rules.engine import (
    Decision,
    Event,
    Game,
    Outcome,
    State,
    get_game,
)
from rules.engine.playout import replay_from, setup_state
from rules.engine.standing import Order

from ..leagues.scoring import score_league_game
from ..models import (
    CLOSE_KIND,
    Actor,
    Addressed,
    Attachment,
    Delivery,
    GameInfo,
    HostError,
    Prompt,
    Remembered,
    SeatInfo,
)
from ..ratings import record_result
from ..storage import CLAIM_LEASE_S, SNAPSHOT_EVERY, Connection, StaleVersion, Store
from ..storage import decisions as stored_decisions
from ..storage import games as stored_games
from ..storage import messages as stored_messages
from ..storage import settings as stored_settings
from ..storage import timers as stored_timers
from ..storage.base import Reader, Statement, run
from ..storage.settings import SettingsTable
from ..verify import commit_hash as commit_hash  # re-exported: the sealing code names it from here
from ..verify import commit_string
from . import live as telling
from . import notify
from . import step as turn_step
from .live import CARD_KEY, DM_PROMPT, RESULT_PREFIX, Change, Live, dm_prompt_key

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
#: (the largest game holds about 0.1 MB in memory: ``python -m bench memory`` measures the bound)
KNOWN_GAMES = 256
#: open lobbies one user may have at once, and how long a lobby may sit without anyone joining, leaving or
#: starting it before it closes by itself
MAX_OPEN_LOBBIES = 3
LOBBY_IDLE_S = 7 * 24 * 3600.0
#: the purpose under which front-ends remember a lobby's message (its buttons go when the lobby closes)
LOBBY_MESSAGE = "lobby"
#: the worker name of a process that runs alone (several processes each need their own, see ``bot.config``)
DEFAULT_WORKER = "main"
#: changes to remembered messages this process keeps for ``Games.message_to_edit``
PLACINGS_KEPT = 1024
#: how long sent deliveries stay in the outbox (for an operator looking at what was posted) before pruning
SENT_RETENTION_S = 7 * 24 * 3600.0


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


@dataclass(frozen=True)
class Placing:
    """A change this process made to a game's remembered messages: ``message_id`` remembered for ``purpose`` in
    ``channel_id``, or (``message_id`` None) a message posted in ``channel_id`` below the one for ``purpose``."""

    tick: int
    game_id: int
    purpose: str
    channel_id: str
    message_id: str | None


async def user_language_in(reader: Reader, user_id: str, interaction_locale: str | None = None) -> str:
    """The language ``user_id`` reads DMs and ephemeral answers in: their choice, else the locale of the
    interaction being answered, else the one of their last interaction, else English."""
    return user_language_from(await stored_settings.language_settings(reader, user_id), interaction_locale)


def user_language_from(settings: dict[str, str], interaction_locale: str | None = None) -> str:
    """``user_language_in`` from the player's ``language`` and ``discord_locale`` settings, read already."""
    chosen = settings.get("language")
    if chosen and chosen != notify.AUTO_LANGUAGE:
        return language_of(chosen)
    return language_of(interaction_locale or settings.get("discord_locale"))


async def guild_language_in(reader: Reader, guild_id: str | None) -> str:
    """The language of a server's public messages (``/game language``), English until set."""
    if guild_id is None:
        return DEFAULT
    chosen = await stored_settings.guild_setting(reader, guild_id, "language")
    return language_of(chosen) if chosen else DEFAULT


class StaleGame(HostError):
    """Another writer (this process or another one) changed the game first: nothing was stored."""


@dataclass
class TimerClaim:
    """The timer whose firing is being stored: its row is deleted in the same transaction as its effect."""

    timer_id: int
    consumed: bool = False


#: set while a timer fires (per task, so other games' actions running meanwhile never see it)
FIRING_TIMER: contextvars.ContextVar[TimerClaim | None] = contextvars.ContextVar("firing_timer", default=None)


class Games:
    """The shared part every other part of the host is built on: loading games (``Live``, cached per version),
    the per-game locks, storing a change in one transaction (events, snapshot, timers, outbox), the outbox
    itself, and the texts and checks every part uses. The other parts are composed around it (``bot.host``).
    """

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
        self.known: LruCache[int, Live] = LruCache(KNOWN_GAMES)
        #: draws the delay before an automatic pass (tests seed it)
        self.autopass_rng = random.Random()
        #: game id -> (seat, status message key, log lines) of a multi-step action in progress
        self.steps: LruCache[int, tuple[int, str, list[str]]] = LruCache(KNOWN_GAMES)
        #: set when a timer is added, so a front-end's timer loop can wake up early
        self.timers_changed = asyncio.Event()
        #: set when a league round's last game ended here, so the front-end's league loop runs at once
        self.league_work = asyncio.Event()
        #: orders commits and this process's changes to remembered messages (``message_to_edit``); the oldest
        #: changes are forgotten beyond ``PLACINGS_KEPT`` (a delivery addressed before them is looked up)
        self._ticks = itertools.count(1)
        self._placings: deque[Placing] = deque()
        self._forgotten_tick = 0

    async def close(self) -> None:
        await self.store.close()

    def lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # ---- the key/value settings of a server and of a player (migration 0009) ---------------------------------
    async def guild_setting(self, guild_id: str, key: str) -> str | None:
        return await stored_settings.guild_setting(self.store, guild_id, key)

    async def put_setting(self, table: SettingsTable, owner: str, key: str, value: str) -> None:
        """Store one setting of a server (``guild_settings``) or of a player (``user_settings``)."""
        async with self.store.transaction() as db:
            await stored_settings.put(db, table, owner, key, value)

    async def remember_locale(self, user_id: str, settings: dict[str, str], locale: str) -> None:
        """Store the locale of the user's client unless their ``settings`` (read already) hold it."""
        if settings.get("discord_locale") != locale:
            await self.put_setting("user_settings", user_id, "discord_locale", locale)

    async def row(self, game_id: int) -> dict[str, Any]:
        if not 0 < game_id < 2**63:  # a forged or corrupted button id: no database integer can hold it
            raise HostError(f"There is no game #{game_id}.")
        row = await stored_games.game_row(self.store, game_id)
        if row is None:
            raise HostError(f"There is no game #{game_id}.")
        return row

    async def _seats(self, game_id: int) -> list[SeatInfo]:
        rows = await stored_games.seat_rows(self.store, game_id)
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

    async def load(self, game_id: int) -> Live:
        """The game at its stored version: one query when this process stored that version itself."""
        row = await self.row(game_id)
        known = self.known.get(game_id)
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
        rows = await stored_settings.seat_settings(self.store, game_id, f"{notify.MUTE_PREFIX}{game_id}")
        live.dm_users = {row["user_id"] for row in rows if row["key"] == "turn_dms" and row["value"] == "on"}
        live.autopass_off = {
            row["user_id"] for row in rows if row["key"] == "autopass" and row["value"] == "off"
        }
        live.orders = await self.game_orders(self.store, game_id)
        live.prefs = {}
        for row in rows:
            key = "mute" if row["key"].startswith(notify.MUTE_PREFIX) else row["key"]
            live.prefs.setdefault(row["user_id"], {})[key] = row["value"]
        self.known[game_id] = live
        return live

    @staticmethod
    async def game_orders(reader: Reader, game_id: int) -> dict[str, dict[str, Order]]:
        """Every player's standing orders in the game, by user id."""
        rows = await stored_decisions.standing_orders(reader, game_id)
        found: dict[str, dict[str, Order]] = {}
        for row in rows:
            names = tuple(str(name) for name in json.loads(row["names"]))
            found.setdefault(row["user_id"], {})[row["topic"]] = Order(row["choice"], names)
        return found

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
        last = await stored_games.last_event_seq(self.store, row["id"])
        return state, last  # undone events keep their numbers: the next event comes after them

    async def replay_state(self, game_id: int) -> State:
        """The state rebuilt from the setup and every event, ignoring snapshots (for checks and tests)."""
        row = await self.row(game_id)
        game = get_game(row["kind"])
        events = await self.store.events(game_id, -1)
        start = setup_state(game, row["num_players"], json.loads(row["options"]), events[0])
        return replay_from(game, start, events[1:])

    def info(self, live: Live) -> GameInfo:
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
        return self.info(await self.load(game_id))

    async def game_in_channel(self, channel_id: str) -> GameInfo | None:
        game_id = await stored_games.open_game_in_channel(self.store, channel_id)
        return await self.game_info(game_id) if game_id is not None else None

    async def live_in_channel(self, channel_id: str) -> Live:
        info = await self.game_in_channel(channel_id)
        if info is None:
            raise HostError(await self.no_game_text(channel_id))
        return await self.load(info.game_id)

    async def _last_started(self, channel_id: str | None = None, user_id: str | None = None) -> Live | None:
        """The most recent game of the channel (or of the user's seats) that got past its lobby."""
        if channel_id is not None:
            game_id = await stored_games.last_started_in_channel(self.store, channel_id)
        else:
            game_id = await stored_games.last_started_of_user(self.store, user_id)
        return await self.load(game_id) if game_id is not None else None

    async def no_game_text(self, channel_id: str | None = None, user_id: str | None = None) -> str:
        """What to answer when a command finds no game in progress: the result of the channel's last game (in
        a DM, of the user's last game) when there is one, else how to start one."""
        last = await self._last_started(channel_id, user_id)
        if last is not None and last.row["status"] in ("finished", "abandoned"):
            return f"{self.over_text(last)} Start another with /game new."
        if channel_id is None:
            return "You are not playing any game. Start one with /game new."
        return "There is no game in this channel. Start one with /game new."

    def over_text(self, live: Live) -> str:
        """A finished or abandoned game in one sentence or two: "<title> #4 is over: alice wins. ..."."""
        title = f"{live.game.title} #{live.id}"
        result = json.loads(live.row["result"]) if live.row["result"] else None
        if live.row["status"] == "abandoned" or result is None:
            return f"{title} was abandoned."
        words = telling.result_words(live, result["winners"], result["draw"], result["reason"])
        return f"{title} is over: {words}"

    @staticmethod
    def ai_levels(game: Game) -> list[str]:
        return list(dict.fromkeys([*game.ai_levels, "random"]))

    def seat_for(self, live: Live, actor: Actor) -> SeatInfo:
        seat = next((s for s in live.seats if s.user_id == actor.user_id), None)
        if seat is None:
            raise HostError("You are not playing in this game.")
        return seat

    @staticmethod
    def require_seated_or_creator(live: Live, actor: Actor) -> None:
        if actor.user_id != live.row["creator_id"] and not any(
            s.user_id == actor.user_id for s in live.seats
        ):
            raise HostError("Only a player of this game can do that.")

    def require_active(self, live: Live) -> None:
        status = live.row["status"]
        if status == "paused":
            raise HostError("The game is paused. Its players can /game resume it.")
        if status == "lobby":
            raise HostError("The game has not started yet: /game start.")
        if status != "active":
            raise HostError(self.over_text(live))

    async def store_change(self, live: Live, after: Live, change: Change) -> None:
        now = self.clock()
        try:
            async with self.store.transaction() as db:
                await self.store.bump_version(db, live.id, live.version, now)
                await self.write_change(db, after, change, now)
        except StaleVersion:
            self.known.pop(live.id, None)
            raise StaleGame(
                "The game changed at the same moment; look at the latest message and try again."
            ) from None
        self._remember(after, change)

    def _remember(self, after: Live, change: Change) -> None:
        """Keep what was just stored, so the next load needs no replay (and, for a plain move, no seat query)."""
        seq = after.seq + len(change.events)
        finished = bool(after.state) and after.game.outcome(after.state).finished
        if change.statements or finished:  # seats or status may have changed: re-read them, keep the state
            self.known[after.id] = replace(after, pending_state=after.state, pending_seq=seq)
        else:
            self.known[after.id] = replace(after, row={**after.row, "version": after.version + 1}, seq=seq)

    async def write_change(self, db: Connection, live: Live, change: Change, now: float) -> None:
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
        await run(db, *change.statements)
        outcome = live.game.outcome(live.state) if live.state else Outcome()
        if outcome.finished:
            await self._finish(db, live.id, outcome.winners, outcome.draw, outcome.reason)
            change.deliveries += self._reveal(live, await stored_decisions.sealed_record(db, live.id))
        if outcome.finished or change.finishes:
            await self._record_result(db, live, change, now)
        armed = await self.arm_timers(db, live, change, now)
        await self._close_stale_offers(db, live, change, armed)
        await self._close_dm_prompts(db, live, change)
        await self._hold_pings(db, live, change, now)
        await self._address(db, live, change.deliveries)
        for delivery in change.deliveries:  # claimed for this process, which posts them after the commit
            delivery.id = await self.store.add_outbox(
                db, live.id, delivery.to_payload(), now, self.worker, now + CLAIM_LEASE_S
            )

    async def _record_result(self, db: Connection, live: Live, change: Change, now: float) -> None:
        """The game ends in this transaction: its result and ratings are stored with it (``bot.ratings``). The
        message that says who won also gets the rating changes and, unless the table chose replay=no, the
        animated replay (drawn by the front-end when it posts the message)."""
        # a league game's end scores its league (bot/leagues); the end of a round wakes this process's league
        # loop, which pairs and opens the next round at once (its task is claimed for this process)
        if await score_league_game(db, live.id, now, self.worker):
            self.league_work.set()
        view = live.game.view(live.state, None) if live.state else {}
        sides = live.game.seat_sides(view, len(live.seats))
        recorded = await record_result(db, live.id, sides, now)
        if recorded is None:
            return
        text = recorded.text(f"{live.game.title} #{live.id}")
        told = [d for d in change.deliveries if d.kind == "public" and RESULT_PREFIX in d.text]
        if not told:
            told = [telling.public(live, "", None)]
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
        deleted = await stored_timers.delete(db, claim.timer_id)
        if deleted.rowcount != 1:
            raise StaleVersion(f"timer {claim.timer_id} has fired already")
        claim.consumed = True

    @staticmethod
    async def _finish(
        db: Connection, game_id: int, winners: tuple[int, ...] | list[int], draw: bool, reason: str
    ) -> None:
        result = json.dumps({"winners": list(winners), "draw": draw, "reason": reason})
        await stored_games.finish_now(db, game_id, result)

    async def sealed_for(self, live: Live) -> dict[int, str]:
        """Sealed, not yet applied submissions that answer the seats' current decisions."""
        pending = live.game.pending(live.state)
        rows = await stored_decisions.unapplied(self.store, live.id)
        return {
            r["seat"]: r["action"]
            for r in rows
            if r["seat"] in pending and pending[r["seat"]].id == r["decision_id"]
        }

    async def sealed_record(self, game_id: int) -> list[dict[str, Any]]:
        """Every sealed submission with its nonce and commit, for checking; published when the game ends."""
        return await stored_decisions.sealed_record(self.store, game_id)

    def prompt_for(self, live: Live, seat: int, decision: Decision) -> Prompt:
        """The seat's decision with its choices, its deadline counted from now."""
        return telling.prompt_for(live, seat, decision, self.clock())

    def turn_deliveries(
        self,
        live: Live,
        before: dict[int, Decision],
        events: list[Event],
        change: Change,
        acting: int | None = None,
    ) -> None:
        """What the table sees after a change that is not a turn step (a start, a resume, an undo): see
        ``step.turn_deliveries``; a multi-step action in progress is closed."""
        run = self.steps.pop(live.id, None)
        run = turn_step.turn_deliveries(live, before, events, change, self.clock(), run, acting)
        if run is not None:
            self.steps[live.id] = run

    async def pending_deliveries(self) -> list[Delivery]:
        """Unsent deliveries this process may post: its own and those no live process holds, claimed for it."""
        claimed = await self.store.claim_outbox(self.worker, self.clock())
        return [Delivery.from_payload(i, payload) for i, payload in claimed]

    async def claim_delivery(self, delivery_id: int) -> bool:
        """Renew this process's claim on an unsent delivery before posting it; False if it is no longer ours."""
        return await self.store.renew_outbox_claim(delivery_id, self.worker, self.clock())

    async def mark_sent(
        self,
        delivery_id: int,
        posted: tuple[int, str] | None = None,
        remember: tuple[int, str, str, str] | None = None,
    ) -> None:
        """Delivery ``delivery_id`` is out. ``posted``: the game and channel where it posted a new message, which
        stands below the game's live card: counted (with the mark, so once) for ``find_card``. ``remember``:
        the game, purpose, channel and id of the message it posted, remembered with the mark (one transaction
        for both, see ``remember_message``)."""
        if posted is None and remember is None:
            await self.store.mark_sent(delivery_id, self.clock())
            return
        game_id = remember[0] if remember else posted[0] if posted else 0
        below = (CARD_KEY, posted[1]) if posted else None
        async with self.store.transaction() as db:
            marked = await stored_messages.mark_sent(
                db, delivery_id, self.clock(), game_id, remember[1:] if remember else None, below
            )
        if remember:
            self.placed(game_id, remember[1], remember[2], remember[3])
        if marked and posted:
            self.placed(game_id, CARD_KEY, posted[1], None)

    def placed(self, game_id: int, purpose: str, channel_id: str, message_id: str | None) -> None:
        """Note a change this process made to a game's remembered messages (``message_to_edit`` applies it to
        the deliveries addressed before it)."""
        self._placings.append(Placing(next(self._ticks), game_id, purpose, channel_id, message_id))
        if len(self._placings) > PLACINGS_KEPT:
            self._forgotten_tick = self._placings.popleft().tick

    async def message_to_edit(self, delivery: Delivery) -> Remembered | None:
        """The message remembered under the delivery's edit key (for the live card, with the count of the game's
        messages posted below it). A delivery this process just stored carries it from its commit
        (``Delivery.addressed``), brought up to date with what this process remembered since: no query. A row
        posted later (a sweep, a restart) is looked up."""
        assert delivery.edit_key is not None
        addressed = delivery.addressed
        if addressed is None or addressed.tick < self._forgotten_tick:
            found = await stored_messages.find(self.store, delivery.game_id, delivery.edit_key)
            return Remembered(*found) if found else None
        remembered = addressed.remembered
        for placing in self._placings:
            if placing.tick <= addressed.tick or placing.game_id != delivery.game_id:
                continue
            if placing.purpose != delivery.edit_key:
                continue
            if placing.message_id is not None:
                remembered = Remembered(placing.channel_id, placing.message_id)
            elif remembered is not None and remembered.channel_id == placing.channel_id:
                remembered = replace(remembered, below=remembered.below + 1)
        return remembered

    async def _address(self, db: Connection, live: Live, deliveries: list[Delivery]) -> None:
        """Read, in the commit that makes them, what posting the deliveries needs (``Delivery.addressed``): the
        server's language for the channel, each player's for their DMs, the messages their edit keys name."""
        if not deliveries:
            return
        tick = next(self._ticks)  # before the reads: anything this process remembers later has a later tick
        keys = {delivery.edit_key for delivery in deliveries if delivery.edit_key}
        remembered = await stored_messages.of_purposes(db, live.id, keys)
        public = DEFAULT
        if any(delivery.kind == "public" for delivery in deliveries):
            public = await guild_language_in(db, live.row["guild_id"])
        readers: dict[str, str] = {}
        for delivery in deliveries:
            language = public
            if delivery.kind == "private" and delivery.user_id is not None:
                if delivery.user_id not in readers:
                    readers[delivery.user_id] = await user_language_in(db, delivery.user_id)
                language = readers[delivery.user_id]
            found = remembered.get(delivery.edit_key) if delivery.edit_key else None
            delivery.addressed = Addressed(tick, language, Remembered(*found) if found else None)

    async def prune_sent_deliveries(self, keep_s: float = SENT_RETENTION_S) -> int:
        """Delete deliveries sent more than ``keep_s`` ago (they hold board views: ~170 KB a game otherwise
        kept forever); returns how many. Unsent rows are never touched."""
        return await self.store.prune_outbox(self.clock() - keep_s)

    @staticmethod
    async def _status_after(db: Connection, live: Live, change: Change) -> str:
        if not change.statements:
            return str(live.row["status"])
        return await stored_games.status(db, live.id)  # the statements may end or pause it

    async def arm_timers(self, db: Connection, live: Live, change: Change, now: float) -> set[int]:
        """Keep one reminder and one deadline per open human decision; drop those of answered decisions.
        Returns the seats that got a new deadline."""
        if not live.state or await self._status_after(db, live, change) != "active":
            return set()
        pending = live.game.pending(live.state)
        rows = await stored_timers.decision_timers(db, live.id)
        armed, stale = set(), []
        for timer_id, seat, decision_id, kind in rows:
            decision = pending.get(seat)
            if decision is None or decision.id != decision_id or live.seats[seat].is_ai:
                stale.append(timer_id)
            else:
                armed.add((seat, kind))
        if stale:
            await stored_timers.delete_many(db, stale)
        new = []
        orders = await self.game_orders(db, live.id) if pending else {}
        for seat, decision in pending.items():
            if not live.seats[seat].is_ai:
                new += self._seat_timers(live, seat, decision, armed, change, orders, now)
        if new:
            await stored_timers.add(db, new)
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
            schedule = [] if self.muted(live, user_id) else self._reminder_fractions(live, user_id)
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
            if telling.standing_action(live, seat, decision, orders[user]) is not None:
                # the auto-pass's random moment: an order's answer tells the table nothing by its timing
                delay = self.autopass_rng.uniform(*AUTOPASS_DELAY)
                new.append((live.id, "standing", seat, decision.id, now + delay))
        return new

    # ---- notification settings (see ``notify``) --------------------------------------------------------------
    @staticmethod
    def _pref(live: Live, user: str | None, key: str) -> str:
        return live.prefs.get(user or "", {}).get(key, notify.DEFAULTS.get(key, ""))

    def muted(self, live: Live, user: str | None) -> bool:
        return self._pref(live, user, "mute") == "on"

    def _reminder_fractions(self, live: Live, user: str | None) -> list[float]:
        return notify.reminder_fractions(self._pref(live, user, "reminders"))

    def quiet_until(self, live: Live, user: str | None, now: float) -> float | None:
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
                if self.muted(live, user) or self._pref(live, user, "mentions") == "off":
                    continue
                if self.quiet_until(live, user, now) is not None:
                    held.add(user)
                    continue
                kept.append(user)
            delivery.mentions = kept
        if not held or not live.state:
            return
        pending = live.game.pending(live.state)
        deadlines = {row["seat"]: row["due"] for row in await stored_timers.deadlines(db, live.id)}
        for seat, decision in pending.items():
            holder = live.seats[seat].user_id
            ends = self.quiet_until(live, holder, now)
            if holder in held and ends is not None and ends < deadlines.get(seat, ends):
                await run(db, stored_timers.reminder(live.id, seat, decision.id, ends))
                self.timers_changed.set()

    async def _close_stale_offers(self, db: Connection, live: Live, change: Change, armed: set[int]) -> None:
        """Close every deadline offer this change makes stale, and take its buttons off: the late seat's turn
        changed, the game is no longer running (paused, over), or the seat got a new deadline (a resume, an
        undone move, "keep waiting"). A closed offer's row is gone, so its old buttons are refused."""
        rows = await stored_decisions.offers(db, live.id)
        if not rows:
            return
        running = bool(live.state) and await self._status_after(db, live, change) == "active"
        pending = live.game.pending(live.state) if running else {}
        sealed = await self._unapplied_seals(db, live.id)  # a seat that has sealed its answer is late no more
        for offer_id, seat, decision_id in rows:
            decision = pending.get(seat)
            fresh_deadline = seat in armed and offer_id not in change.offers
            answered = (seat, decision_id) in sealed
            if decision is not None and decision.id == decision_id and not fresh_deadline and not answered:
                continue
            await run(db, stored_decisions.close_offer(live.id, offer_id))
            name = live.seats[seat].name if 0 <= seat < len(live.seats) else "the player"
            closed = telling.public(
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
                await stored_decisions.remember_dm_prompt(db, live.id, prompt.seat, prompt.decision_id)
        rows = await stored_decisions.dm_prompts(db, live.id)
        if not rows:
            return
        running = bool(live.state) and await self._status_after(db, live, change) == "active"
        pending = live.game.pending(live.state) if running else {}
        sealed = await self._unapplied_seals(db, live.id)
        for seat, decision_id in rows:
            decision = pending.get(seat)
            if decision is not None and decision.id == decision_id and (seat, decision_id) not in sealed:
                continue
            await stored_decisions.forget_dm_prompt(db, live.id, seat, decision_id)
            if not 0 <= seat < len(live.seats):
                continue
            closed = telling.private(live, seat, "", with_view=False)
            if closed is not None:  # posts nothing: the DM keeps its text and loses its buttons
                closed.kind, closed.edit_key = CLOSE_KIND, dm_prompt_key(seat, decision_id)
                change.deliveries.append(closed)

    @staticmethod
    async def _unapplied_seals(reader: Reader, game_id: int) -> set[tuple[int, str]]:
        """(seat, decision) of each sealed choice not applied yet."""
        return {
            (row["seat"], row["decision_id"]) for row in await stored_decisions.unapplied(reader, game_id)
        }

    @staticmethod
    def stand_in_level(live: Live) -> str:
        return telling.stand_in_level(live)

    def hand_to_ai_sql(self, live: Live, seat: int, vacation: bool = False) -> Statement:
        """The AI stands in for an absent player (after missed deadlines, or ``vacation``: while they are
        away) at the stand-in level (``stand_in_level``)."""
        return stored_games.hand_seat_to_ai(live.id, seat, self.stand_in_level(live), vacation)

    async def standing_order(self, live: Live, seat: int) -> str | None:
        """The action a player's standing orders give for this decision of their seat, tried before the AI
        answers for an away player. None: no order applies (the AI decides)."""
        decision = live.game.pending(live.state).get(seat) if live.state else None
        orders = live.orders.get(live.seats[seat].user_id or "")
        if decision is None or not orders:
            return None
        return telling.order_answer(live, seat, decision, orders)

    async def live_in_channel_or_last(self, channel_id: str) -> Live:
        """The active game of the channel, else the most recent finished one (to look at its end)."""
        info = await self.game_in_channel(channel_id)
        if info is None:
            last = await self._last_started(channel_id)
            if last is None:
                raise HostError(await self.no_game_text(channel_id))
            return last
        return await self.load(info.game_id)

    async def reveal_deliveries(self, live: Live) -> list[Delivery]:
        return self._reveal(live, await self.sealed_record(live.id))

    def _reveal(self, live: Live, record: list[dict[str, Any]]) -> list[Delivery]:
        """The game is over: publish every sealed choice with its nonce so anyone can check each commit.

        All of them, however many (a game may seal 16-72): a short message with an attached text file that lists
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
        delivery = telling.public(live, text, None)
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

    async def end_with(self, live: Live, change: Change, winners: list[int], draw: bool, reason: str) -> None:
        result = json.dumps({"winners": winners, "draw": draw, "reason": reason})
        change.statements += [stored_games.finish(live.id, result), stored_timers.clear_all(live.id)]
        change.finishes = True
        change.deliveries.append(telling.public(live, telling.result_text(live, winners, draw, reason), None))
        change.deliveries += await self.reveal_deliveries(live)
