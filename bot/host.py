"""The host service: lobby, seats, turn flow, sealed decisions, AI seats, deadlines and the outbox.

It imports no discord. The Discord cogs, the console and the tests all drive this one class, so no front-end
holds game logic. Every change is one storage transaction: event(s), version bump, snapshot, timers and the
outbox rows of the messages it causes. Deliveries returned to the caller are those outbox rows.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import aiosqlite

from rules.engine import (
    Decision,
    Event,
    Game,
    InvalidAction,
    Outcome,
    ReplayRng,
    Rng,
    RulesError,
    State,
    available_games,
    get_game,
)

from .models import Actor, Choice, Delivery, GameInfo, HostError, Prompt, SeatInfo, Snapshot
from .storage import SNAPSHOT_EVERY, StaleVersion, Store

log = logging.getLogger(__name__)

ACTIVE = ("lobby", "active", "paused")
MIN_DEADLINE_H, MAX_DEADLINE_H = 1.0, 7 * 24.0
#: a reminder goes out when this fraction of the decision's time is left
REMINDER_FRACTION = 0.25
#: deadlines missed in a row before the AI stands in for a player
MISSES_BEFORE_AI = 2
MAX_AI_STEPS = 20_000

__all__ = ["Actor", "Choice", "Delivery", "GameInfo", "Host", "HostError", "Prompt", "SeatInfo", "Snapshot"]


def commit_hash(nonce: str, game_id: int, decision_id: str, seat: int, action: str) -> str:
    """The public commitment to a sealed choice: anyone can recompute it once nonce and action are published."""
    return hashlib.sha256(f"{nonce}|{game_id}|{decision_id}|{seat}|{action}".encode()).hexdigest()


@dataclass
class Live:
    """A loaded game: its row, seats, current state and the last event number."""

    row: dict[str, Any]
    seats: list[SeatInfo]
    game: Game
    state: State
    seq: int
    #: seated users who asked for turn DMs (/settings)
    dm_users: set[str] = field(default_factory=set)
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


class Host:
    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        #: game id -> the game as last loaded or stored by this process, valid while its version matches
        self._known: dict[int, Live] = {}
        #: set when a timer is added, so a front-end's timer loop can wake up early
        self.timers_changed = asyncio.Event()

    @classmethod
    async def open(cls, database: str | Path, clock: Callable[[], float] = time.time) -> Host:
        return cls(await Store.open(database), clock)

    async def close(self) -> None:
        await self.store.close()

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    # =========================================================================================== loading
    async def _row(self, game_id: int) -> dict[str, Any]:
        row = await self.store.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise HostError(f"There is no game #{game_id}.")
        return dict(row)

    async def _seats(self, game_id: int) -> list[SeatInfo]:
        rows = await self.store.fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatInfo(r["seat"], r["user_id"], r["name"], r["ai_level"], bool(r["away"]), r["missed"])
                for r in rows]

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
            "SELECT s.user_id FROM seats s JOIN user_settings u ON u.user_id = s.user_id "
            "WHERE s.game_id = ? AND u.key = 'turn_dms' AND u.value = 'on'", (game_id,))
        live.dm_users = {row["user_id"] for row in rows}
        self._known[game_id] = live
        return live

    async def _rebuild(self, game: Game, row: dict[str, Any]) -> tuple[State, int]:
        """Latest snapshot, then the events after it, each with the chance results it recorded."""
        snapshot = await self.store.latest_snapshot(row["id"])
        options = json.loads(row["options"])
        if snapshot is None:
            setup = (await self.store.events(row["id"], -1))[0]
            state, seq = game.setup(row["num_players"], options, ReplayRng(setup.draws)), 0
        else:
            seq, state = snapshot
            if row["rules_version"] != game.rules_version:
                state = game.upgrade(state, row["rules_version"])
        for event in await self.store.events(row["id"], seq):
            state = game.apply(state, event.seat or 0, event.action, ReplayRng(event.draws)).state
        last = await self.store.fetchone("SELECT MAX(seq) FROM events WHERE game_id = ?", (row["id"],))
        return state, int(last[0])  # undone events keep their numbers: the next event comes after them

    async def replay_state(self, game_id: int) -> State:
        """The state rebuilt from the setup and every event, ignoring snapshots (for checks and tests)."""
        row = await self._row(game_id)
        game = get_game(row["kind"])
        events = await self.store.events(game_id, -1)
        state = game.setup(row["num_players"], json.loads(row["options"]), ReplayRng(events[0].draws))
        for event in events[1:]:
            state = game.apply(state, event.seat or 0, event.action, ReplayRng(event.draws)).state
        return state

    def _info(self, live: Live) -> GameInfo:
        row = live.row
        pending_users: list[str] = []
        if row["status"] == "active":
            for seat in live.game.pending(live.state):
                user = live.seats[seat].user_id if seat < len(live.seats) else None
                if user:
                    pending_users.append(user)
        return GameInfo(
            game_id=live.id, key=row["kind"], title=live.game.title, status=row["status"],
            guild_id=row["guild_id"], channel_id=row["channel_id"], creator_id=row["creator_id"],
            seats=live.seats, options=json.loads(row["options"]), min_players=live.game.min_players,
            max_players=live.game.max_players, deadline_seconds=row["deadline_seconds"],
            result=json.loads(row["result"]) if row["result"] else None, pending_users=pending_users)

    async def game_info(self, game_id: int) -> GameInfo:
        return self._info(await self._load(game_id))

    async def game_in_channel(self, channel_id: str) -> GameInfo | None:
        row = await self.store.fetchone(
            "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active', 'paused')", (channel_id,))
        return await self.game_info(row["id"]) if row else None

    async def _live_in_channel(self, channel_id: str) -> Live:
        info = await self.game_in_channel(channel_id)
        if info is None:
            raise HostError("There is no game in this channel. Start one with /game new.")
        return await self._load(info.game_id)

    # =========================================================================================== lobby
    async def create_game(self, guild_id: str | None, channel_id: str, actor: Actor, game_key: str,
                          options: dict[str, str] | None = None, deadline_hours: float = 24.0,
                          seat_creator: bool = True, seed: int | None = None) -> GameInfo:
        """Open a lobby; the creator takes the first seat unless ``seat_creator`` is False (self-play)."""
        try:
            game = get_game(game_key)
            resolved = game.resolve_options(options or {})
        except RulesError as error:
            raise HostError(str(error)) from None
        if not MIN_DEADLINE_H <= deadline_hours <= MAX_DEADLINE_H:
            raise HostError("The decision deadline must be between 1 hour and 7 days (168 hours).")
        if await self.game_in_channel(channel_id):
            raise HostError("This channel already has a game. Finish or abandon it first (/game status).")
        now = self.clock()
        window = min(7200, int(deadline_hours * 3600))
        async with self.store.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO games (guild_id, channel_id, kind, status, options, seed, rules_version, creator_id, "
                "deadline_seconds, window_seconds, created_at, updated_at) "
                "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, game.key, json.dumps(resolved), secrets.randbits(48) if seed is None else seed,
                 game.rules_version, actor.user_id, int(deadline_hours * 3600), window, now, now))
            game_id = int(cursor.lastrowid or 0)
            if seat_creator:
                await db.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                                 (game_id, actor.user_id, actor.name))
        return await self.game_info(game_id)

    async def _lobby(self, channel_id: str) -> Live:
        live = await self._live_in_channel(channel_id)
        if live.row["status"] != "lobby":
            raise HostError("The game has already started.")
        return live

    async def join(self, channel_id: str, actor: Actor) -> GameInfo:
        live = await self._lobby(channel_id)
        if any(seat.user_id == actor.user_id for seat in live.seats):
            raise HostError("You have already joined this game.")
        await self._add_seat(live, actor.user_id, actor.name, None)
        return await self.game_info(live.id)

    async def add_ai(self, channel_id: str, actor: Actor, level: str | None = None) -> GameInfo:
        live = await self._lobby(channel_id)
        self._require_seated_or_creator(live, actor)
        level = (level or live.game.ai_levels[0]).lower()
        if level not in self.ai_levels(live.game):
            raise HostError(f"AI levels for {live.game.title}: {', '.join(self.ai_levels(live.game))}.")
        await self._add_seat(live, None, f"AI {level}", level)
        return await self.game_info(live.id)

    @staticmethod
    def ai_levels(game: Game) -> list[str]:
        return list(dict.fromkeys([*game.ai_levels, "random"]))

    async def _add_seat(self, live: Live, user_id: str | None, name: str, level: str | None) -> None:
        if len(live.seats) >= live.game.max_players:
            raise HostError(f"{live.game.title} is full ({live.game.max_players} players).")
        async with self.store.transaction() as db:
            await self.store.bump_version(db, live.id, live.version, self.clock())
            await db.execute("INSERT INTO seats (game_id, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
                             (live.id, len(live.seats), user_id, name, level))

    async def leave(self, channel_id: str, actor: Actor) -> GameInfo:
        live = await self._lobby(channel_id)
        if not any(seat.user_id == actor.user_id for seat in live.seats):
            raise HostError("You are not in this game.")
        remaining = [seat for seat in live.seats if seat.user_id != actor.user_id]
        async with self.store.transaction() as db:
            await self.store.bump_version(db, live.id, live.version, self.clock())
            await self._write_seats(db, live.id, remaining)
            if not any(seat.user_id for seat in remaining):
                await db.execute("UPDATE games SET status = 'abandoned' WHERE id = ?", (live.id,))
        return await self.game_info(live.id)

    @staticmethod
    async def _write_seats(db: aiosqlite.Connection, game_id: int, seats: list[SeatInfo]) -> None:
        await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        for number, seat in enumerate(seats):
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, name, ai_level, away) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, number, seat.user_id, seat.name, seat.ai_level, int(seat.away)))

    @staticmethod
    def _require_seated_or_creator(live: Live, actor: Actor) -> None:
        if actor.user_id != live.row["creator_id"] and not any(s.user_id == actor.user_id for s in live.seats):
            raise HostError("Only a player of this game can do that.")

    async def start(self, channel_id: str, actor: Actor, order: str = "random") -> list[Delivery]:
        live = await self._lobby(channel_id)
        self._require_seated_or_creator(live, actor)
        game, row = live.game, live.row
        if len(live.seats) < game.min_players:
            raise HostError(f"{game.title} needs at least {game.min_players} players; "
                            f"{len(live.seats)} joined. Others can /game join, or add an AI with /game ai.")
        seats = list(live.seats)
        if order == "random":
            random.Random(row["seed"]).shuffle(seats)
        elif order != "given":
            raise HostError("Seat order is `random` or `given`.")
        rng = Rng.for_event(row["seed"], 0)
        try:
            state = game.setup(len(seats), json.loads(row["options"]), rng)
        except RulesError as error:
            raise HostError(str(error)) from None
        now = self.clock()
        seats = [SeatInfo(i, s.user_id, s.name, s.ai_level, s.away) for i, s in enumerate(seats)]
        change = Change()
        change.events.append((None, "setup", list(rng.draws), actor.user_id, []))
        change.statements.append(("UPDATE games SET status = 'active', num_players = ? WHERE id = ?",
                                  (len(seats), live.id)))
        started = replace(live, row={**row, "status": "active", "num_players": len(seats)}, seats=seats,
                          state=state, seq=-1)
        order_text = ", ".join(f"{s.seat + 1}. {s.label}" for s in seats)
        self._turn_deliveries(started, {}, [Event("start", f"{game.title} begins. Seats: {order_text}.")], change)
        async with self._lock(live.id):
            async with self.store.transaction() as db:
                await self.store.bump_version(db, live.id, live.version, now)
                await self._write_seats(db, live.id, seats)
                await self._write_change(db, started, change, now)
        self._known[live.id] = replace(started, pending_state=state, pending_seq=0)
        return change.deliveries + await self._run_ai(live.id)

    # =========================================================================================== play
    def _seat_for(self, live: Live, actor: Actor) -> SeatInfo:
        seat = next((s for s in live.seats if s.user_id == actor.user_id), None)
        if seat is None:
            raise HostError("You are not playing in this game.")
        return seat

    @staticmethod
    def _require_active(live: Live) -> None:
        status = live.row["status"]
        if status == "paused":
            raise HostError("The game is paused. Its players can /game resume it.")
        if status == "lobby":
            raise HostError("The game has not started yet: /game start.")
        if status != "active":
            raise HostError("This game is over.")

    async def act(self, game_id: int, actor: Actor, text: str, decision_id: str | None = None) -> list[Delivery]:
        """A player's move (typed notation or a button's action). Bad input raises ``HostError``; nothing is
        stored then."""
        async with self._lock(game_id):
            live = await self._load(game_id)
            self._require_active(live)
            seat = self._seat_for(live, actor)
            change = Change()
            if seat.missed or seat.away:  # acting resets the missed deadlines and ends an AI stand-in
                change.statements.append((
                    "UPDATE seats SET missed = 0, ai_level = CASE WHEN away = 1 THEN NULL ELSE ai_level END, "
                    "away = 0 WHERE game_id = ? AND seat = ?", (game_id, seat.seat)))
            deliveries = await self._act_locked(live, seat.seat, actor.user_id, text, decision_id, change=change)
            any_ai = any(s.is_ai for s in live.seats)
        return deliveries + (await self._run_ai(game_id) if any_ai else [])

    async def _act_locked(self, live: Live, seat: int, who: str, text: str, decision_id: str | None,
                          parsed: bool = False, change: Change | None = None) -> list[Delivery]:
        game, state = live.game, live.state
        try:
            action = text if parsed else game.parse(state, seat, text)
        except InvalidAction as error:
            raise HostError(str(error)) from None
        decision = game.pending(state).get(seat)
        free = decision is None and game.is_free(state, seat, action)
        if decision_id is not None and not free and (decision is None or decision.id != decision_id):
            raise HostError("That choice is no longer open: the game has moved on. Use the latest message.")
        if decision is None and not free:
            raise HostError("It is not your turn. /game status shows whom the game waits for.")
        if decision is not None and decision.sealed and not game.is_free(state, seat, action):
            return await self._seal(live, seat, decision, action, who, change)
        return await self._apply_and_store(live, [(seat, action)], who, change)

    async def _apply_and_store(self, live: Live, moves: list[tuple[int, str]], who: str,
                               change: Change | None = None) -> list[Delivery]:
        """Apply moves in order, then store them with their deliveries in one transaction."""
        change = change or Change()
        before = live.game.pending(live.state)
        state, seq, events = live.state, live.seq, []
        for seat, action in moves:
            seq += 1
            rng = Rng.for_event(live.row["seed"], seq)
            try:
                applied = live.game.apply(state, seat, action, rng)
            except RulesError as error:
                raise HostError(str(error)) from None
            state = applied.state
            events += applied.events
            log_lines = [[e.kind, e.text] for e in applied.events]
            change.events.append((seat, action, list(rng.draws), who, log_lines))
        after = live.with_state(state)
        self._turn_deliveries(after, before, events, change)
        await self._store(live, after, change)
        return change.deliveries

    async def _store(self, live: Live, after: Live, change: Change) -> None:
        now = self.clock()
        try:
            async with self.store.transaction() as db:
                await self.store.bump_version(db, live.id, live.version, now)
                await self._write_change(db, after, change, now)
        except StaleVersion:
            self._known.pop(live.id, None)
            raise HostError("The game changed at the same moment; look at the latest message and try again.")\
                from None
        self._remember(after, change)

    def _remember(self, after: Live, change: Change) -> None:
        """Keep what was just stored, so the next load needs no replay (and, for a plain move, no seat query)."""
        seq = after.seq + len(change.events)
        finished = bool(after.state) and after.game.outcome(after.state).finished
        if change.statements or finished:  # seats or status may have changed: re-read them, keep the state
            self._known[after.id] = replace(after, pending_state=after.state, pending_seq=seq)
        else:
            self._known[after.id] = replace(after, row={**after.row, "version": after.version + 1}, seq=seq)

    async def _write_change(self, db: aiosqlite.Connection, live: Live, change: Change, now: float) -> None:
        """Events, snapshot, result, timers and outbox of one step (the caller holds the transaction)."""
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
            rows = await db.execute_fetchall(
                "SELECT decision_id, seat, action, nonce, commit_hash FROM sealed WHERE game_id = ? "
                "ORDER BY created_at, seat", (live.id,))
            change.deliveries += self._reveal(live, [dict(row) for row in rows])
        await self._arm_timers(db, live, change, now)
        for delivery in change.deliveries:
            delivery.id = await self.store.add_outbox(db, live.id, delivery.to_payload(), now)

    @staticmethod
    async def _finish(db: aiosqlite.Connection, game_id: int, winners: tuple[int, ...] | list[int], draw: bool,
                      reason: str) -> None:
        result = json.dumps({"winners": list(winners), "draw": draw, "reason": reason})
        await db.execute("UPDATE games SET status = 'finished', result = ? WHERE id = ?", (result, game_id))
        await db.execute("DELETE FROM timers WHERE game_id = ?", (game_id,))

    # ---- sealed decisions ----------------------------------------------------------------------------------
    async def _seal(self, live: Live, seat: int, decision: Decision, action: str, who: str,
                    change: Change | None = None) -> list[Delivery]:
        game = live.game
        try:  # judged now, on a copy: a sealed choice must be legal when it is revealed
            game.apply(live.state, seat, action, Rng.for_event(live.row["seed"], live.seq + 1))
        except RulesError as error:
            raise HostError(str(error)) from None
        sealed = await self._sealed_for(live)
        if seat in sealed:
            raise HostError("You have already sealed this decision; a sealed choice cannot be changed.")
        nonce = secrets.token_hex(16)
        digest = commit_hash(nonce, live.id, decision.id, seat, action)
        change = change or Change()
        change.statements.append((
            "INSERT INTO sealed (game_id, decision_id, seat, action, nonce, commit_hash, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)", (live.id, decision.id, seat, action, nonce, digest, self.clock())))
        name = live.seats[seat].name
        waiting = [s for s, d in game.pending(live.state).items() if d.sealed and s not in sealed and s != seat]
        if waiting:
            text = f"{name} has sealed ({decision.kind}). Commit: `{digest}`."
            change.deliveries.append(self._public(live, text, view=None))
            await self._store(live, live, change)
            return change.deliveries
        change.deliveries.append(self._public(live, f"{name} has sealed ({decision.kind}). Commit: `{digest}`. "
                                                    "All choices are sealed: revealing.", view=None))
        sealed[seat] = action
        change.statements.append(("UPDATE sealed SET applied = 1 WHERE game_id = ? AND applied = 0", (live.id,)))
        moves = sorted(sealed.items())
        return await self._apply_and_store(live, moves, who, change)

    async def _sealed_for(self, live: Live) -> dict[int, str]:
        """Sealed, not yet applied submissions that answer the seats' current decisions."""
        pending = live.game.pending(live.state)
        rows = await self.store.fetchall(
            "SELECT seat, decision_id, action FROM sealed WHERE game_id = ? AND applied = 0", (live.id,))
        return {r["seat"]: r["action"] for r in rows
                if r["seat"] in pending and pending[r["seat"]].id == r["decision_id"]}

    async def sealed_record(self, game_id: int) -> list[dict[str, Any]]:
        """Every sealed submission with its nonce and commit, for checking; published when the game ends."""
        rows = await self.store.fetchall(
            "SELECT decision_id, seat, action, nonce, commit_hash FROM sealed WHERE game_id = ? "
            "ORDER BY created_at, seat", (game_id,))
        return [dict(row) for row in rows]

    async def has_sealed(self, game_id: int, user_id: str) -> bool:
        live = await self._load(game_id)
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        return seat is not None and seat in await self._sealed_for(live)

    # ---- AI seats ------------------------------------------------------------------------------------------
    async def _run_ai(self, game_id: int) -> list[Delivery]:
        """Let the AI play every pending AI seat (and absent players' seats) until a person must act."""
        deliveries: list[Delivery] = []
        for _ in range(MAX_AI_STEPS):
            async with self._lock(game_id):
                live = await self._load(game_id)
                if live.row["status"] != "active":
                    return deliveries
                pending = live.game.pending(live.state)
                sealed = await self._sealed_for(live)
                todo = [s for s in sorted(pending) if live.seats[s].is_ai and s not in sealed]
                if not todo:
                    return deliveries
                seat = todo[0]
                action = await self._ai_choice(live, seat)
                deliveries += await self._act_locked(live, seat, f"ai:{live.seats[seat].ai_level}", action,
                                                     None, parsed=True)
        raise RuntimeError(f"game {game_id}: the AI did not reach a person's decision in {MAX_AI_STEPS} steps")

    async def _ai_choice(self, live: Live, seat: int) -> str:
        game, state = live.game, live.state
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        level = live.seats[seat].ai_level or "random"
        rng = random.Random(f"{live.row['seed']}:{live.seq}:{seat}")
        if level == "random" or level not in game.ai_levels:
            return rng.choice(legal)
        # a strong AI may think for up to a second: keep the event loop free meanwhile
        return await asyncio.to_thread(game.choose_action, view, seat, legal, level, rng)

    async def resume_all(self) -> list[Delivery]:
        """At start-up: finish AI turns that a crash interrupted. Timers live in the database already."""
        rows = await self.store.fetchall("SELECT id FROM games WHERE status = 'active'")
        deliveries: list[Delivery] = []
        for row in rows:
            deliveries += await self._run_ai(row["id"])
        return deliveries

    # ---- deliveries ----------------------------------------------------------------------------------------
    def _public(self, live: Live, text: str, view: dict[str, Any] | None, mentions: list[str] | None = None,
                prompt: Prompt | None = None) -> Delivery:
        return Delivery(0, live.id, live.row["kind"], "public", text, channel_id=live.row["channel_id"],
                        view=view, mentions=mentions or [], prompt=prompt)

    def _private(self, live: Live, seat: int, text: str, with_view: bool = True,
                 prompt: Prompt | None = None) -> Delivery | None:
        user = live.seats[seat].user_id
        if user is None:
            return None
        view = live.game.view(live.state, seat) if with_view and live.state else None
        return Delivery(0, live.id, live.row["kind"], "private", text, user_id=user, seat=seat, view=view,
                        prompt=prompt)

    def prompt_for(self, live: Live, seat: int, decision: Decision) -> Prompt:
        game, state = live.game, live.state
        choices = [Choice(action, game.describe(state, action))
                   for action in game.legal_actions(state, seat) if not game.is_free(state, seat, action)]
        deadline = None
        if live.row["status"] == "active" and not live.seats[seat].is_ai:
            span = live.row["window_seconds"] if decision.timing == "window" else live.row["deadline_seconds"]
            deadline = self.clock() + span
        return Prompt(live.id, seat, decision.id, decision.kind, decision.prompt, decision.sealed, choices,
                      deadline)

    def _turn_deliveries(self, live: Live, before: dict[int, Decision], events: list[Event],
                         change: Change) -> None:
        """After a completed action: the public board + log + mention of whoever must act now (once), and
        private views and prompts by DM for seats with hidden information or turn DMs on."""
        game, state = live.game, live.state
        pending = game.pending(state)
        fresh = {s: d for s, d in pending.items() if before.get(s) is None or before[s].id != d.id}
        lines = [event.text for event in events]
        outcome = game.outcome(state)
        if outcome.finished:
            lines.append(self._result_text(live, outcome.winners, outcome.draw, outcome.reason))
        else:
            lines += [self._waiting_line(live, s, d) for s, d in sorted(pending.items())]
        mentions = [u for s in sorted(fresh) if (u := live.seats[s].user_id) and not live.seats[s].is_ai]
        public_prompt = None
        if len(fresh) == 1 and not game.hidden_information:
            seat, decision = next(iter(fresh.items()))
            if not decision.sealed and not live.seats[seat].is_ai:
                public_prompt = self.prompt_for(live, seat, decision)
        change.deliveries.append(self._public(live, "\n".join(lines), game.view(state, None), mentions,
                                              public_prompt))
        for seat, decision in sorted(fresh.items()):
            wants_dm = game.hidden_information or decision.sealed or live.seats[seat].user_id in live.dm_users
            if live.seats[seat].is_ai or not wants_dm:
                continue
            private = self._private(live, seat, f"{game.title} #{live.id}: {decision.prompt}",
                                    prompt=self.prompt_for(live, seat, decision))
            if private:
                change.deliveries.append(private)

    def _waiting_line(self, live: Live, seat: int, decision: Decision) -> str:
        who = live.seats[seat].label
        verb = "seals" if decision.sealed else "decides"
        return f"Now: {who} {verb} ({decision.kind}): {decision.prompt}"

    def _result_text(self, live: Live, winners: tuple[int, ...] | list[int], draw: bool, reason: str) -> str:
        if draw:
            return f"Game over: a draw. {reason}".strip()
        names = " and ".join(live.seats[w].name for w in winners)
        return f"Game over: {names} {'win' if len(winners) > 1 else 'wins'}. {reason}".strip()

    async def pending_deliveries(self) -> list[Delivery]:
        return [Delivery.from_payload(i, payload) for i, payload in await self.store.unsent_outbox()]

    async def mark_sent(self, delivery_id: int) -> None:
        await self.store.mark_sent(delivery_id, self.clock())

    # =========================================================================================== timers
    async def _arm_timers(self, db: aiosqlite.Connection, live: Live, change: Change, now: float) -> None:
        """Keep one reminder and one deadline per open human decision; drop those of answered decisions."""
        status = live.row["status"]
        if change.statements:  # they may have ended or paused the game
            rows = await db.execute_fetchall("SELECT status FROM games WHERE id = ?", (live.id,))
            status = list(rows)[0][0]
        if not live.state or status != "active":
            return
        pending = live.game.pending(live.state)
        rows = await db.execute_fetchall(
            "SELECT id, seat, decision_id FROM timers WHERE game_id = ? AND kind IN ('reminder', 'deadline')",
            (live.id,))
        armed, stale = set(), []
        for timer_id, seat, decision_id in rows:
            decision = pending.get(seat)
            if decision is None or decision.id != decision_id or live.seats[seat].is_ai:
                stale.append((timer_id,))
            else:
                armed.add(seat)
        if stale:
            await db.executemany("DELETE FROM timers WHERE id = ?", stale)
        new = []
        for seat, decision in pending.items():
            if seat in armed or live.seats[seat].is_ai:
                continue
            span = live.row["window_seconds"] if decision.timing == "window" else live.row["deadline_seconds"]
            new += [(live.id, "reminder", seat, decision.id, now + span * (1 - REMINDER_FRACTION)),
                    (live.id, "deadline", seat, decision.id, now + span)]
        if new:
            await db.executemany(
                "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, ?, ?, ?, ?)", new)
            self.timers_changed.set()

    async def next_timer_due(self) -> float | None:
        row = await self.store.fetchone("SELECT MIN(due) FROM timers")
        return float(row[0]) if row and row[0] is not None else None

    async def fire_due_timers(self) -> list[Delivery]:
        """Apply every timer due by ``clock()``: reminders, deadline defaults, AI stand-ins, claim offers."""
        deliveries: list[Delivery] = []
        rows = await self.store.fetchall("SELECT * FROM timers WHERE due <= ? ORDER BY due", (self.clock(),))
        for row in rows:
            try:
                deliveries += await self._fire(dict(row))
            except HostError as error:  # the game moved on meanwhile; nothing to do
                log.info("timer %s of game %s skipped: %s", row["id"], row["game_id"], error)
        return deliveries

    async def _fire(self, timer: dict[str, Any]) -> list[Delivery]:
        game_id = timer["game_id"]
        async with self._lock(game_id):
            async with self.store.transaction() as db:  # claim it: a timer fires once
                cursor = await db.execute("DELETE FROM timers WHERE id = ?", (timer["id"],))
                if cursor.rowcount != 1:
                    return []
            live = await self._load(game_id)
            seat = timer["seat"]
            decision = live.game.pending(live.state).get(seat) if live.row["status"] == "active" else None
            if decision is None or decision.id != timer["decision_id"]:
                return []
            if decision.sealed and seat in await self._sealed_for(live):
                return []  # this seat has answered; the others' timers still run
            if timer["kind"] == "reminder":
                return await self._remind(live, seat, decision, timer)
            deliveries = await self._expire(live, seat, decision)
        return deliveries + await self._run_ai(game_id)

    async def _remind(self, live: Live, seat: int, decision: Decision, timer: dict[str, Any]) -> list[Delivery]:
        deadline = await self.store.fetchone(
            "SELECT due FROM timers WHERE game_id = ? AND seat = ? AND kind = 'deadline'", (live.id, seat))
        when = f"<t:{int(deadline['due'])}:R>" if deadline else "soon"
        text = f"Reminder: {live.seats[seat].name}, {live.game.title} #{live.id} waits for you ({decision.kind}), " \
               f"deadline {when}."
        change = Change()
        change.deliveries.append(self._public(live, text, None, [live.seats[seat].user_id or ""]))
        await self._store(live, live, change)
        return change.deliveries

    async def _expire(self, live: Live, seat: int, decision: Decision) -> list[Delivery]:
        name = live.seats[seat].name
        missed = await self.store.fetchone("SELECT missed FROM seats WHERE game_id = ? AND seat = ?",
                                           (live.id, seat))
        misses = (missed["missed"] if missed else 0) + 1
        change = Change()
        change.statements.append(("UPDATE seats SET missed = ? WHERE game_id = ? AND seat = ?",
                                  (misses, live.id, seat)))
        if misses >= MISSES_BEFORE_AI:
            change.statements.append(self._hand_to_ai_sql(live, seat))
            change.deliveries.append(self._public(
                live, f"{name} missed {misses} deadlines in a row: the AI plays the seat until they use "
                      "/game back.", None))
            await self._store(live, live, change)
            return change.deliveries
        default = live.game.on_deadline(live.state, seat)
        if default is not None:
            change.deliveries.append(self._public(
                live, f"{name}'s deadline passed: the default is applied ({live.game.describe(live.state, default)}).",
                None))
            if decision.sealed:
                await self._store(live, live, change)
                live = await self._load(live.id)
                return change.deliveries + await self._seal(live, seat, decision, default, "deadline")
            return await self._apply_and_store(live, [(seat, default)], "deadline", change)
        others = [s for s in live.seats if s.seat != seat and s.user_id and not s.is_ai]
        prompt = Prompt(live.id, seat, decision.id, "expired",
                        f"{name} let the deadline pass. Claim the game, keep waiting, or let the AI play the seat?",
                        False, [Choice("claim", "Claim the game"), Choice("wait", "Keep waiting"),
                                Choice("ai", "Hand the seat to the AI")],
                        expiry_id=f"{seat}:{decision.id}")
        change.deliveries.append(self._public(live, prompt.text, None, [s.user_id or "" for s in others], prompt))
        await self._store(live, live, change)
        return change.deliveries

    def _hand_to_ai_sql(self, live: Live, seat: int) -> tuple[str, tuple[Any, ...]]:
        level = live.game.ai_levels[0] if live.game.ai_levels else "random"
        return ("UPDATE seats SET ai_level = ?, away = 1 WHERE game_id = ? AND seat = ?", (level, live.id, seat))

    async def answer_expiry(self, game_id: int, actor: Actor, expiry_id: str, choice: str) -> list[Delivery]:
        seat_text, _, decision_id = expiry_id.partition(":")
        async with self._lock(game_id):
            live = await self._load(game_id)
            self._require_active(live)
            me = self._seat_for(live, actor)
            seat = int(seat_text)
            decision = live.game.pending(live.state).get(seat)
            if me.seat == seat:
                raise HostError("This question is for the other players; you can simply make your move.")
            if decision is None or decision.id != decision_id:
                raise HostError("That player has acted since: nothing to decide.")
            name = live.seats[seat].name
            change = Change()
            if choice == "claim":
                winners = [s.seat for s in live.seats if s.seat != seat]
                text = self._result_text(live, winners, False, f"{actor.name} claimed the game after {name}'s "
                                                                "deadline passed.")
                change.statements.append(("UPDATE games SET status = 'finished', result = ? WHERE id = ?", (
                    json.dumps({"winners": winners, "draw": False, "reason": "claimed after a deadline"}),
                    live.id)))
                change.statements.append(("DELETE FROM timers WHERE game_id = ?", (live.id,)))
                change.deliveries.append(self._public(live, text, None))
                change.deliveries += await self._reveal_deliveries(live)
            elif choice == "wait":
                span = live.row["deadline_seconds"]
                change.statements.append((
                    "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, 'deadline', ?, ?, ?)",
                    (live.id, seat, decision_id, self.clock() + span)))
                change.deliveries.append(self._public(live, f"{actor.name} keeps waiting for {name}.", None))
            elif choice == "ai":
                change.statements.append(self._hand_to_ai_sql(live, seat))
                change.deliveries.append(self._public(
                    live, f"{actor.name} hands {name}'s seat to the AI until {name} returns (/game back).", None))
            else:
                raise HostError("Answer claim, wait or ai.")
            await self._store(live, live, change)
        return change.deliveries + await self._run_ai(game_id)

    # =========================================================================================== queries
    async def suggestions(self, game_id: int, user_id: str, typed: str = "", limit: int = 25) -> list[Choice]:
        live = await self._load(game_id)
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        if seat is None or live.row["status"] != "active":
            return []
        typed = typed.strip().lower()
        choices = []
        for action in live.game.legal_actions(live.state, seat):
            label = live.game.describe(live.state, action)
            if typed in action.lower() or typed in label.lower():
                choices.append(Choice(action, label if label == action else f"{action} — {label}"))
                if len(choices) >= limit:
                    break
        return choices

    async def is_sealed_input(self, game_id: int, user_id: str) -> bool:
        live = await self._load(game_id)
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        if seat is None or live.row["status"] != "active":
            return False
        decision = live.game.pending(live.state).get(seat)
        return bool(decision and decision.sealed) or live.game.hidden_information

    async def board(self, channel_id: str, region: str | None = None) -> Snapshot:
        live = await self._live_in_channel_or_last(channel_id)
        if not live.state:
            raise HostError("The game has not started yet.")
        return Snapshot(live.row["kind"], self._status_text(live), live.game.view(live.state, None))

    async def hand(self, channel_id: str, actor: Actor) -> Snapshot:
        live = await self._live_in_channel_or_last(channel_id)
        seat = self._seat_for(live, actor)
        if not live.state:
            raise HostError("The game has not started yet.")
        decision = live.game.pending(live.state).get(seat.seat)
        text = f"{live.game.title} #{live.id}, seat {seat.seat + 1} ({seat.name})."
        if decision:
            text += f" Your decision: {decision.prompt}"
        return Snapshot(live.row["kind"], text, live.game.view(live.state, seat.seat))

    async def prompt_of(self, game_id: int, user_id: str) -> Prompt | None:
        """The caller's open decision as a prompt (for the "Open my hand" fallback and /game status)."""
        live = await self._load(game_id)
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        if seat is None or live.row["status"] != "active":
            return None
        decision = live.game.pending(live.state).get(seat)
        return self.prompt_for(live, seat, decision) if decision else None

    async def _live_in_channel_or_last(self, channel_id: str) -> Live:
        """The active game of the channel, else the most recent finished one (to look at its end)."""
        info = await self.game_in_channel(channel_id)
        if info is None:
            row = await self.store.fetchone(
                "SELECT id FROM games WHERE channel_id = ? AND status != 'lobby' ORDER BY id DESC LIMIT 1",
                (channel_id,))
            if row is None:
                raise HostError("There is no game in this channel. Start one with /game new.")
            return await self._load(row["id"])
        return await self._load(info.game_id)

    def _status_text(self, live: Live) -> str:
        head = f"{live.game.title} #{live.id} ({live.row['status']})"
        if live.row["status"] in ("finished", "abandoned"):
            result = json.loads(live.row["result"]) if live.row["result"] else None
            if result:
                return head + "\n" + self._result_text(live, result["winners"], result["draw"], result["reason"])
            return head
        lines = [head] + [self._waiting_line(live, s, d) for s, d in sorted(live.game.pending(live.state).items())]
        return "\n".join(lines)

    async def status(self, channel_id: str) -> str:
        live = await self._live_in_channel(channel_id)
        if live.row["status"] == "lobby":
            return self._info(live).lobby_text()
        lines = [self._status_text(live)]
        timers = await self.store.fetchall(
            "SELECT seat, due FROM timers WHERE game_id = ? AND kind = 'deadline' ORDER BY due", (live.id,))
        for timer in timers:
            lines.append(f"Deadline for {live.seats[timer['seat']].name}: <t:{int(timer['due'])}:R>")
        since = live.row["updated_at"]
        lines.append(f"Waiting since <t:{int(since)}:R>.")
        lines.append("Seats: " + ", ".join(f"{s.seat + 1}. {s.label}" for s in live.seats))
        return "\n".join(lines)

    async def log(self, channel_id: str, n: int = 20) -> str:
        live = await self._live_in_channel_or_last(channel_id)
        events = await self.store.events(live.id, 0)
        lines = [f"{e.seq}. {text}" for e in events for _kind, text in e.log] or ["(nothing has happened yet)"]
        text = "\n".join(lines[-max(1, min(n, 200)):])
        if live.row["status"] in ("finished", "abandoned") and live.game.has_chance:
            all_events = await self.store.events(live.id, -1)
            rolls = "; ".join(f"{e.seq}: {e.draws}" for e in all_events if e.draws)
            text += f"\nSeed {live.row['seed']}. Chance results by event: {rolls}"
        return text

    @staticmethod
    def rules_text(game_key: str | None = None) -> str:
        if not game_key:
            names = ", ".join(f"`{key}` ({get_game(key).title})" for key in available_games())
            return f"Games: {names}. Use /rules <game> for one game's rules notes."
        try:
            game = get_game(game_key, include_unplayable=True)
        except RulesError as error:
            raise HostError(str(error)) from None
        options = "\n".join(f"- `{o.name}` ({'/'.join(o.choices)}, default {o.default}): {o.help}"
                            for o in game.options)
        levels = ", ".join(Host.ai_levels(game))
        return f"{game.rules_notes}\nOptions:\n{options or '- none'}\nAI levels: {levels}."

    async def my_games(self, user_id: str) -> list[GameInfo]:
        rows = await self.store.fetchall(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE s.user_id = ? AND g.status IN ('lobby', 'active', 'paused') ORDER BY g.id", (user_id,))
        return [await self.game_info(row["id"]) for row in rows]

    # =========================================================================================== table talk
    async def undo(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self._live_in_channel(channel_id)
        async with self._lock(live.id):
            live = await self._load(live.id)
            self._require_active(live)
            seat = self._seat_for(live, actor)
            events = await self.store.events(live.id, 0)
            if not events:
                raise HostError("There is nothing to undo.")
            last = events[-1]
            if last.seat != seat.seat or last.user_id != actor.user_id:
                raise HostError("You can only take back your own last move, before anyone else acts.")
            if last.draws:
                raise HostError("That move used chance (a die or a draw): it cannot be taken back.")
            state_before = await self._state_before(live, last.seq)
            if not live.game.can_undo(state_before, seat.seat, last.action):
                raise HostError(f"{live.game.title} does not allow taking that move back.")
            change = Change()
            change.statements += [
                ("UPDATE events SET undone = 1 WHERE game_id = ? AND seq = ?", (live.id, last.seq)),
                ("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (live.id, last.seq)),
                ("DELETE FROM sealed WHERE game_id = ? AND applied = 0", (live.id,))]
            before_live = live.with_state(state_before)
            self._turn_deliveries(before_live, {}, [Event("undo", f"{actor.name} takes back {last.action}.")],
                                  change)
            await self._store(live, before_live, change)
        return change.deliveries

    async def _state_before(self, live: Live, seq: int) -> State:
        events = await self.store.events(live.id, -1)
        state = live.game.setup(live.row["num_players"], json.loads(live.row["options"]), ReplayRng(events[0].draws))
        for event in events[1:]:
            if event.seq >= seq:
                break
            state = live.game.apply(state, event.seat or 0, event.action, ReplayRng(event.draws)).state
        return state

    async def resign(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self._live_in_channel(channel_id)
        async with self._lock(live.id):
            live = await self._load(live.id)
            self._require_active(live)
            seat = self._seat_for(live, actor)
            change = Change()
            humans_left = [s for s in live.seats if s.seat != seat.seat]
            if len(live.seats) == 2:
                winners = [s.seat for s in humans_left]
                change.statements.append(("UPDATE games SET status = 'finished', result = ? WHERE id = ?", (
                    json.dumps({"winners": winners, "draw": False, "reason": f"{actor.name} resigned"}), live.id)))
                change.statements.append(("DELETE FROM timers WHERE game_id = ?", (live.id,)))
                change.deliveries.append(self._public(
                    live, self._result_text(live, winners, False, f"{actor.name} resigned."), None))
                change.deliveries += await self._reveal_deliveries(live)
            else:
                change.statements.append(self._hand_to_ai_sql(live, seat.seat))
                change.deliveries.append(self._public(
                    live, f"{actor.name} resigned: the AI plays their seat to the end.", None))
            await self._store(live, live, change)
        return change.deliveries + await self._run_ai(live.id)

    async def _reveal_deliveries(self, live: Live) -> list[Delivery]:
        return self._reveal(live, await self.sealed_record(live.id))

    def _reveal(self, live: Live, record: list[dict[str, Any]]) -> list[Delivery]:
        """The game is over: publish every sealed choice with its nonce so anyone can check each commit."""
        if not record:
            return []
        lines = ["Sealed choices, for checking (sha256 of nonce|game|decision|seat|action):"]
        lines += [f"- {live.seats[r['seat']].name}, {r['decision_id']}: `{r['action']}` nonce `{r['nonce']}` "
                  f"commit `{r['commit_hash']}`" for r in record]
        return [self._public(live, "\n".join(lines), None)]

    async def _vote(self, live: Live, actor: Actor, kind: str) -> tuple[bool, Change]:
        """Record ``actor``'s agreement; True once every seated person agrees."""
        self._seat_for(live, actor)
        humans = {s.user_id for s in live.seats if s.user_id}
        rows = await self.store.fetchall("SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (live.id, kind))
        agreed = {r["user_id"] for r in rows} | {actor.user_id}
        change = Change()
        if agreed >= humans:
            change.statements.append(("DELETE FROM votes WHERE game_id = ? AND kind = ?", (live.id, kind)))
            return True, change
        change.statements.append(("INSERT OR IGNORE INTO votes (game_id, kind, user_id) VALUES (?, ?, ?)",
                                  (live.id, kind, actor.user_id)))
        missing = [s.name for s in live.seats if s.user_id and s.user_id not in agreed]
        change.deliveries.append(self._public(
            live, f"{actor.name} asks to {kind} the game. Waiting for: {', '.join(missing)} "
                  f"(each uses /game {kind}).", None))
        return False, change

    async def abandon(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self._live_in_channel(channel_id)
        async with self._lock(live.id):
            live = await self._load(live.id)
            if live.row["status"] == "lobby":
                self._require_seated_or_creator(live, actor)
                done, change = True, Change()
            elif actor.can_manage:  # a moderator may end any game in their channel
                done, change = True, Change()
            else:
                done, change = await self._vote(live, actor, "abandon")
            if done:
                change.statements.append(("UPDATE games SET status = 'abandoned' WHERE id = ?", (live.id,)))
                change.statements.append(("DELETE FROM timers WHERE game_id = ?", (live.id,)))
                change.deliveries.append(self._public(live, f"{live.game.title} #{live.id} was abandoned.", None))
                if live.state:
                    change.deliveries += await self._reveal_deliveries(live)
            await self._store(live, live, change)
        return change.deliveries

    async def pause(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self._live_in_channel(channel_id)
        async with self._lock(live.id):
            live = await self._load(live.id)
            self._require_active(live)
            done, change = await self._vote(live, actor, "pause")
            if done:
                change.statements.append(("UPDATE games SET status = 'paused', paused_reason = 'agreed' WHERE id = ?",
                                          (live.id,)))
                change.statements.append(("DELETE FROM timers WHERE game_id = ?", (live.id,)))
                change.deliveries.append(self._public(live, "The game is paused; deadlines are stopped. "
                                                            "/game resume when everyone agrees.", None))
            await self._store(live, live, change)
        return change.deliveries

    async def resume(self, channel_id: str, actor: Actor) -> list[Delivery]:
        """Resume a paused game; from another channel of the same server, a game whose channel was lost."""
        info = await self.game_in_channel(channel_id)
        moved_from_lost = False
        if info is None:
            info = await self._lost_game_of(actor, channel_id)
            moved_from_lost = True
        async with self._lock(info.game_id):
            live = await self._load(info.game_id)
            if live.row["status"] != "paused":
                raise HostError("The game is not paused.")
            self._seat_for(live, actor)
            if moved_from_lost or live.row["paused_reason"] == "channel-lost":
                done, change = True, Change()
            else:
                done, change = await self._vote(live, actor, "resume")
            if done:
                change.statements.append((
                    "UPDATE games SET status = 'active', paused_reason = NULL, channel_id = ? WHERE id = ?",
                    (channel_id, live.id)))
                live.row = {**live.row, "status": "active", "channel_id": channel_id}
                self._turn_deliveries(live, {}, [Event("resume", "The game continues.")], change)
            await self._store(live, live, change)
        return change.deliveries + await self._run_ai(live.id)

    async def _lost_game_of(self, actor: Actor, channel_id: str) -> GameInfo:
        row = await self.store.fetchone(
            "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status = 'paused' "
            "AND g.paused_reason = 'channel-lost' ORDER BY g.id DESC LIMIT 1", (actor.user_id,))
        if row is None:
            raise HostError("There is no paused game here to resume.")
        return await self.game_info(row["id"])

    async def channel_lost(self, channel_id: str) -> list[Delivery]:
        info = await self.game_in_channel(channel_id)
        if info is None or info.status == "paused":
            return []
        async with self._lock(info.game_id):
            live = await self._load(info.game_id)
            change = Change()
            change.statements.append((
                "UPDATE games SET status = 'paused', paused_reason = 'channel-lost' WHERE id = ?", (live.id,)))
            change.statements.append(("DELETE FROM timers WHERE game_id = ?", (live.id,)))
            for seat in live.seats:
                text = (f"The channel of {live.game.title} #{live.id} is gone or no longer reachable: the game is "
                        "paused. Use /game resume in another channel of the server to continue it there.")
                private = self._private(live, seat.seat, text, with_view=False)
                if private:
                    change.deliveries.append(private)
            await self._store(live, live, change)
        return change.deliveries

    async def offer_draw(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self._live_in_channel(channel_id)
        if not live.game.draw_by_agreement:
            raise HostError(f"{live.game.title} has no draw by agreement.")
        async with self._lock(live.id):
            live = await self._load(live.id)
            self._require_active(live)
            done, change = await self._vote(live, actor, "draw")
            if done:
                await self._end_with(live, change, [], True, "drawn by agreement")
            await self._store(live, live, change)
        return change.deliveries

    async def _end_with(self, live: Live, change: Change, winners: list[int], draw: bool, reason: str) -> None:
        change.statements.append(("UPDATE games SET status = 'finished', result = ? WHERE id = ?", (
            json.dumps({"winners": winners, "draw": draw, "reason": reason}), live.id)))
        change.statements.append(("DELETE FROM timers WHERE game_id = ?", (live.id,)))
        change.deliveries.append(self._public(live, self._result_text(live, winners, draw, reason), None))
        change.deliveries += await self._reveal_deliveries(live)

    async def sub(self, channel_id: str, actor: Actor, new: Actor, seat: int | None = None) -> list[Delivery]:
        live = await self._live_in_channel(channel_id)
        async with self._lock(live.id):
            live = await self._load(live.id)
            if seat is None:
                target = self._seat_for(live, actor)
            elif not actor.can_manage:
                raise HostError("Only a member with Manage Channels can hand someone else's seat over.")
            elif not 0 <= seat < len(live.seats):
                raise HostError(f"There is no seat {seat + 1}.")
            else:
                target = live.seats[seat]
            if any(s.user_id == new.user_id for s in live.seats):
                raise HostError(f"{new.name} already holds a seat in this game.")
            change = Change()
            change.statements.append((
                "UPDATE seats SET user_id = ?, name = ?, ai_level = NULL, away = 0, missed = 0 "
                "WHERE game_id = ? AND seat = ?", (new.user_id, new.name, live.id, target.seat)))
            change.deliveries.append(self._public(live, f"{new.name} takes over seat {target.seat + 1} from "
                                                        f"{target.name}.", None, [new.user_id]))
            await self._store(live, live, change)
        return change.deliveries + await self._after_seat_change(live.id, target.seat)

    async def back(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self._live_in_channel(channel_id)
        async with self._lock(live.id):
            live = await self._load(live.id)
            seat = self._seat_for(live, actor)
            if not seat.away:
                raise HostError("You are already playing your seat yourself.")
            change = Change()
            change.statements.append(("UPDATE seats SET ai_level = NULL, away = 0, missed = 0 "
                                      "WHERE game_id = ? AND seat = ?", (live.id, seat.seat)))
            change.deliveries.append(self._public(live, f"{actor.name} is back and plays their seat again.", None))
            await self._store(live, live, change)
        return change.deliveries + await self._after_seat_change(live.id, seat.seat)

    async def _after_seat_change(self, game_id: int, seat: int) -> list[Delivery]:
        """A person took a seat: arm their deadlines and send them their view and open decision."""
        async with self._lock(game_id):
            live = await self._load(game_id)
            if live.row["status"] != "active":
                return []
            decision = live.game.pending(live.state).get(seat)
            change = Change()
            prompt = self.prompt_for(live, seat, decision) if decision else None
            private = self._private(live, seat, f"{live.game.title} #{live.id}: you hold seat {seat + 1}.",
                                    prompt=prompt)
            if private:
                change.deliveries.append(private)
            await self._store(live, live, change)
        return change.deliveries

    # =========================================================================================== settings
    async def get_settings(self, user_id: str) -> dict[str, str]:
        rows = await self.store.fetchall("SELECT key, value FROM user_settings WHERE user_id = ?", (user_id,))
        settings = {"turn_dms": "off"}
        settings.update({row["key"]: row["value"] for row in rows})
        return settings

    async def set_setting(self, user_id: str, key: str, value: str) -> None:
        allowed = {"turn_dms": ("on", "off"), "autopass": ("on", "off")}
        if key not in allowed or value not in allowed[key]:
            described = ", ".join(f"{name} ({'/'.join(values)})" for name, values in allowed.items())
            raise HostError(f"Settings: {described}.")
        async with self.store.transaction() as db:
            await db.execute("INSERT OR REPLACE INTO user_settings (user_id, key, value) VALUES (?, ?, ?)",
                             (user_id, key, value))
        self._known.clear()  # turn-DM preferences are part of each loaded game

    async def remember_message(self, game_id: int, purpose: str, channel_id: str, message_id: str) -> None:
        async with self.store.transaction() as db:
            await db.execute("INSERT OR REPLACE INTO messages (game_id, purpose, channel_id, message_id) "
                             "VALUES (?, ?, ?, ?)", (game_id, purpose, channel_id, message_id))

    async def find_message(self, game_id: int, purpose: str) -> tuple[str, str] | None:
        row = await self.store.fetchone("SELECT channel_id, message_id FROM messages WHERE game_id = ? AND purpose = ?",
                                        (game_id, purpose))
        return (row["channel_id"], row["message_id"]) if row else None
