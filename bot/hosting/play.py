"""Turn flow: moves, sealed decisions (commit and reveal), AI seats, undo."""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import random
import secrets

from rules.engine import (
    Decision,
    Event,
    Game,
    State,
)
from rules.engine.playout import replay_from, setup_state
from rules.engine.thinking import LevelError, split_level

from ..models import Actor, Delivery, HostError
from ..storage import decisions as stored_decisions
from ..storage import games as stored_games
from ..storage import timers as stored_timers
from ..workers import Workers
from . import step
from .core import (
    MAX_AI_STEPS,
    Change,
    Games,
    Live,
)
from .queries import games_awaiting_ai


def _decide(game: Game, view: State, seat: int, legal: list[str], level: str, rng: random.Random) -> str:
    """An AI decision, run in a worker process (the game object travels by reference to its class)."""
    return game.choose_action(view, seat, legal, level, rng)


class AIWorkers(Workers):
    """The processes that think for every AI seat of every game (``bot.workers``: a search in a thread would
    stall the event loop's own Python work for its whole second)."""

    async def decide(
        self, game: Game, view: State, seat: int, legal: list[str], level: str, rng: random.Random
    ) -> str:
        if vars(game):  # a game object changed at run time (a benchmark's timer) would lose it on the way
            return await asyncio.to_thread(_decide, game, view, seat, legal, level, rng)
        return await self.run(_decide, game, view, seat, legal, level, rng)


#: one pool per bot process, shared by every game it hosts (the reference machine has 2 cores)
AI_WORKERS = AIWorkers(max(1, min(2, os.cpu_count() or 1)))
atexit.register(AI_WORKERS.shutdown)


class Play:
    """The turn flow: moves, sealed decisions (commit and reveal), AI seats, undo. Each move is one pure turn step (``step``) between loading the game and storing its change."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def act(
        self, game_id: int, actor: Actor, text: str, decision_id: str | None = None
    ) -> list[Delivery]:
        """A player's move (typed notation or a button's action). Bad input raises ``HostError``; nothing is
        stored then."""
        async with self.games.lock(game_id):
            live = await self.games.load(game_id)
            self.games.require_active(live)
            seat = self.games.seat_for(live, actor)
            if seat.vacation and seat.is_ai:  # away: only the decision waiting when they left is still theirs
                raise HostError(
                    "You are away: the AI plays for you. /away off gives you your seats back at once."
                )
            change = Change()
            if seat.missed or seat.away:  # acting resets the missed deadlines and ends an AI stand-in
                change.statements.append(stored_games.seat_acted(game_id, seat.seat))
            deliveries = await self.act_locked(
                live, seat.seat, actor.user_id, text, decision_id, change=change
            )
            # a seat whose player is away may pass to the AI with this answer (``step.hand_over_kept``)
            any_ai = any(s.is_ai or s.vacation for s in live.seats)
        return deliveries + (await self.run_ai(game_id) if any_ai else [])

    async def act_locked(
        self,
        live: Live,
        seat: int,
        who: str,
        text: str,
        decision_id: str | None,
        parsed: bool = False,
        change: Change | None = None,
    ) -> list[Delivery]:
        if parsed:
            action, decision = text, step.open_decision(live, seat, text, decision_id)
        else:
            action, decision = step.parse_move(live, seat, text, decision_id)
        if decision is not None and decision.sealed and not live.game.is_free(live.state, seat, action):
            return await self.seal(live, seat, decision, action, who, change)
        return await self.apply_and_store(live, [(seat, action)], who, change)

    async def apply_and_store(
        self,
        live: Live,
        moves: list[tuple[int, str]],
        who: str,
        change: Change | None = None,
    ) -> list[Delivery]:
        """Apply moves in order (the pure ``step.turn_step``), then store them with their deliveries in one
        transaction."""
        stepped = step.turn_step(live, moves, who, await self._turn(live), change)
        return await self._store_step(live, stepped)

    async def _turn(self, live: Live) -> step.Turn:
        """What a turn step of the game reads besides the game: now, its multi-step action in progress, and
        (for a game with a round status message) its armed deadlines."""
        deadlines: tuple[tuple[int, str, float], ...] = ()
        if step.has_rounds(live):
            rows = await stored_timers.deadlines(self.games.store, live.id)
            deadlines = tuple((row["seat"], row["decision_id"], row["due"]) for row in rows)
        return step.Turn(self.games.clock(), self.games.steps.get(live.id), deadlines)

    async def _store_step(self, live: Live, stepped: step.Stepped) -> list[Delivery]:
        """Store a step's change; once stored, keep its multi-step action in progress."""
        await self.games.store_change(live, stepped.live, stepped.change)
        if stepped.run is None:
            self.games.steps.pop(live.id, None)
        else:
            self.games.steps[live.id] = stepped.run
        return stepped.change.deliveries

    async def seal(
        self, live: Live, seat: int, decision: Decision, action: str, who: str, change: Change | None = None
    ) -> list[Delivery]:
        """Seal one seat's choice (``step.seal_step``), read with the seats' sealed choices that answer the open
        decisions, each with who sealed it."""
        pending = live.game.pending(live.state)
        sealed, sealers = {}, {}
        for row in await stored_decisions.unapplied(self.games.store, live.id):
            if row["seat"] in pending and pending[row["seat"]].id == row["decision_id"]:
                sealed[row["seat"]] = row["action"]
                if row["actor"]:
                    sealers[row["seat"]] = row["actor"]
        sealing = step.Sealing(seat, action, who, secrets.token_hex(16), sealed, sealers)
        stepped = step.seal_step(live, decision, sealing, await self._turn(live), change)
        return await self._store_step(live, stepped)

    async def has_sealed(self, game_id: int, user_id: str) -> bool:
        live = await self.games.load(game_id)
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        return seat is not None and seat in await self.games.sealed_for(live)

    async def run_ai(self, game_id: int) -> list[Delivery]:
        """Let the AI play every pending AI seat (and absent players' seats) until a person must act."""
        deliveries: list[Delivery] = []
        for _ in range(MAX_AI_STEPS):
            async with self.games.lock(game_id):
                live = await self.games.load(game_id)
                if live.row["status"] != "active":
                    return deliveries
                pending = live.game.pending(live.state)
                sealed = await self.games.sealed_for(live)
                todo = [s for s in sorted(pending) if live.seats[s].is_ai and s not in sealed]
                if not todo:
                    return deliveries
                seat = todo[0]
                order = await self.games.standing_order(live, seat) if live.seats[seat].away else None
                action = order or await self._ai_choice(live, seat)
                # an order's answer is the player's own (as when the order answers while they are here)
                who = (order and live.seats[seat].user_id) or f"ai:{live.seats[seat].ai_level}"
                deliveries += await self.act_locked(live, seat, who, action, None, parsed=True)
        raise RuntimeError(
            f"game {game_id}: the AI did not reach a person's decision in {MAX_AI_STEPS} steps"
        )

    async def _ai_choice(self, live: Live, seat: int) -> str:
        game, state = live.game, live.state
        legal = game.legal_actions(state, seat)
        view = game.view(state, seat)
        level = live.seats[seat].ai_level or "random"
        rng = random.Random(f"{live.row['seed']}:{live.seq}:{seat}")
        try:
            known = split_level(level)[0] in game.ai_levels
        except LevelError:
            known = False
        if level == "random" or not known or len(legal) == 1:
            return rng.choice(legal)
        # a searching AI thinks for up to its second: in a worker process, so the bot's loop stays free
        return await AI_WORKERS.decide(game, view, seat, legal, level, rng)

    async def resume_all(self) -> list[Delivery]:
        """At start-up: finish AI turns that a crash interrupted. Timers live in the database already."""
        deliveries: list[Delivery] = []
        for game_id in await games_awaiting_ai(self.games.store):
            deliveries += await self.run_ai(game_id)
        return deliveries

    async def undo(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self.games.live_in_channel(channel_id)
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            self.games.require_active(live)
            seat = self.games.seat_for(live, actor)
            if seat.vacation:  # the stand-in's moves are not theirs to take back and play again themselves
                raise HostError(
                    "You are away: the AI plays for you. /away off gives you your seats back at once."
                )
            events = await self.games.store.events(live.id, 0)
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
            # the player is here and took an answer back: their standing orders do not give it again
            change.orders_off.add(seat.seat)
            change.statements += [
                stored_games.undo_event(live.id, last.seq),
                stored_games.drop_snapshots_from(live.id, last.seq),
                stored_decisions.drop_unapplied(live.id),
            ]
            before_live = step.hand_over_kept(
                live, live.with_state(state_before), live.game.pending(live.state), change
            )
            self.games.turn_deliveries(
                before_live, {}, [Event("undo", f"{actor.name} takes back {last.action}.")], change
            )
            await self.games.store_change(live, before_live, change)
        return change.deliveries

    async def _state_before(self, live: Live, seq: int) -> State:
        events = await self.games.store.events(live.id, -1)
        start = setup_state(live.game, live.row["num_players"], json.loads(live.row["options"]), events[0])
        return replay_from(live.game, start, (event for event in events[1:] if event.seq < seq))
