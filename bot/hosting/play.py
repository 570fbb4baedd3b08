"""Turn flow: moves, sealed decisions (commit and reveal), AI seats, undo."""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import random
import secrets
from collections.abc import Collection

from rules.engine import (
    Decision,
    Event,
    Game,
    InvalidAction,
    Rng,
    RulesError,
    State,
)
from rules.engine.playout import replay_from, setup_state
from rules.engine.standing import AHEAD_PLAN, ASK
from rules.engine.thinking import LevelError, split_level

from ..models import AHEAD_KIND, Actor, Choice, Delivery, HostError, Prompt
from ..workers import Workers
from .core import (
    MAX_AI_STEPS,
    Change,
    HostCore,
    Live,
    commit_hash,
    kind_words,
)
from .queries import games_awaiting_ai
from .standing import plan_choices, queued_choices


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


class PlayMixin(HostCore):
    async def act(
        self, game_id: int, actor: Actor, text: str, decision_id: str | None = None
    ) -> list[Delivery]:
        """A player's move (typed notation or a button's action). Bad input raises ``HostError``; nothing is
        stored then."""
        async with self._lock(game_id):
            live = await self._load(game_id)
            self._require_active(live)
            seat = self._seat_for(live, actor)
            if seat.vacation and seat.is_ai:  # away: only the decision waiting when they left is still theirs
                raise HostError(
                    "You are away: the AI plays for you. /away off gives you your seats back at once."
                )
            change = Change()
            if seat.missed or seat.away:  # acting resets the missed deadlines and ends an AI stand-in
                change.statements.append(
                    (
                        "UPDATE seats SET missed = 0, ai_level = CASE WHEN away = 1 THEN NULL ELSE ai_level END, "
                        "away = 0 WHERE game_id = ? AND seat = ?",
                        (game_id, seat.seat),
                    )
                )
            deliveries = await self._act_locked(
                live, seat.seat, actor.user_id, text, decision_id, change=change
            )
            # a seat whose player is away may pass to the AI with this answer (``_hand_over_kept``)
            any_ai = any(s.is_ai or s.vacation for s in live.seats)
        return deliveries + (await self._run_ai(game_id) if any_ai else [])

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

    async def _apply_and_store(
        self,
        live: Live,
        moves: list[tuple[int, str]],
        who: str,
        change: Change | None = None,
        actors: dict[int, str] | None = None,
        sealer: int | None = None,
    ) -> list[Delivery]:
        """Apply moves in order, then store them with their deliveries in one transaction. Each event names its
        actor: ``who``, or for sealed choices played together the seat's own sealer (``actors``); ``sealer``, the
        seat whose sealing revealed them, is offered to answer what its plan implies (``_plan_offer``)."""
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
            change.events.append((seat, action, list(rng.draws), (actors or {}).get(seat, who), log_lines))
        after = self._hand_over_kept(live, live.with_state(state), before, change)
        acting = moves[0][0] if len({seat for seat, _ in moves}) == 1 else None
        self._turn_deliveries(after, before, events, change, acting)
        self._ahead_deliveries(live, after, change)
        if sealer is not None and not after.game.outcome(after.state).finished:
            self._plan_offer(
                after, sealer, None, change
            )  # from the revealed plan, if its decision is to come
        await self._round_status(live, after, change)
        await self._store(live, after, change)
        return change.deliveries

    def _ahead_deliveries(self, live: Live, after: Live, change: Change) -> None:
        """Ask each seat whose queued turn just came in sight (``Game.ahead``) at the same moment as the seat
        asked first: a private message with what its turn will ask and the answers now (``/ahead`` answers)."""
        if not after.state or after.game.outcome(after.state).finished:
            return
        seen = {decision.id for decision in live.game.ahead(live.state).values()} if live.state else set()
        for seat, decision in sorted(after.game.ahead(after.state).items()):
            if decision.id in seen or after.seats[seat].is_ai:
                continue
            preview = after.game.ahead_state(after.state, seat)
            if preview is None:
                continue
            answers = [
                a for a in after.game.legal_actions(preview, seat) if not after.game.is_free(preview, seat, a)
            ]
            notation = ", ".join(f"`{answer}`" for answer in answers)  # what /ahead takes, as typed
            text = (
                f"{after.game.title} #{after.id}, coming to you after the players before you: {decision.prompt}\n"
                f"Answers now: {notation}. /ahead ANSWER[, SECOND, THIRD] answers it now (only you see "
                "it), or pick one below; otherwise you are asked when your turn comes."
            )
            self._ahead_offer(after, seat, decision.id, text, queued_choices(after, preview, answers), change)

    def _ahead_offer(
        self, live: Live, seat: int, slot: str, text: str, choices: list[Choice], change: Change
    ) -> None:
        """A private message offering to answer the upcoming decision of ``slot`` now, its answers as buttons
        (an ``AHEAD_KIND`` prompt, answered with ``answer_ahead_slot``); only its seat's player gets it."""
        prompt = Prompt(live.id, seat, slot, AHEAD_KIND, text, False, choices)
        private = self._private(live, seat, text, with_view=False, prompt=prompt)
        if private is not None:
            change.deliveries.append(private)

    def _plan_offer(self, live: Live, seat: int, sealed: str | None, change: Change) -> None:
        """The seat has just sealed its plan: offer it, privately, to answer now what the plan implies
        (``Game.plan_ahead``: PRINCIPES's Taxes choice). Each new plan starts from "ask me": an answer given for
        an earlier sealing is withdrawn."""
        user = live.seats[seat].user_id
        if not live.state or user is None or live.seats[seat].is_ai:
            return
        offers = live.game.plan_ahead(live.state, seat, sealed)
        if offers:
            change.statements.append(
                (
                    "DELETE FROM standing_orders WHERE game_id = ? AND user_id = ? AND topic = ?",
                    (live.id, user, AHEAD_PLAN),
                )
            )
        for offer in offers:
            first = offer.answers[0][0]
            text = (
                f"{live.game.title} #{live.id}: your plan has {offer.title}. Answer it now (only you see "
                f"this)? Your answer is given as your click when it comes, if allowed then; otherwise you are "
                f"asked. /ahead {first} or /ahead {ASK} changes it until then."
            )
            self._ahead_offer(live, seat, offer.slot, text, plan_choices(offer), change)

    @staticmethod
    def _waiting(live: Live) -> tuple[tuple[int, str, bool], ...]:
        """Who the game waits for and for what kind of decision (what the round status shows of the turn)."""
        pending = sorted(live.game.pending(live.state).items()) if live.state else []
        return tuple((seat, decision.kind, decision.sealed) for seat, decision in pending)

    async def _round_status(
        self, live: Live, after: Live, change: Change, sealed: Collection[int] = ()
    ) -> None:
        """Keep one status message per round up to date (round, Period, History card, whose decision, deadline):
        a delivery with the edit key ``round:<n>`` each time the awaited decisions change (a new round, Period or
        History card always comes with new decisions, so an unchanged wait needs no look at the view), and each
        time a seat seals its choice (``sealed``: the seats whose sealed choice is in)."""
        waiting = self._waiting(after)
        if waiting == self._waiting(live) and not sealed:
            return
        finished = after.game.outcome(after.state).finished
        shown = live if finished else after  # the game's end closes the last round's message
        facts = shown.game.round_status(shown.state) if shown.state else None
        if facts is None:
            return
        round_number, period, card = facts.round, facts.period, facts.card
        head = f"**{after.game.title} #{after.id} · Round {round_number}** · Period {period}"
        lines = [head + (f" · History card: {card}" if card else "")]
        if finished:
            lines.append("The game is over.")
            waiting = ()
        pending = after.game.pending(after.state)
        rows = await self.store.fetchall(
            "SELECT seat, decision_id, due FROM timers WHERE game_id = ? AND kind = 'deadline'", (after.id,)
        )
        due = {  # timers of decisions still open (those of answered ones are dropped when this change is stored)
            row["seat"]: row["due"]
            for row in rows
            if row["seat"] in pending and pending[row["seat"]].id == row["decision_id"]
        }
        for seat, kind, is_sealed in waiting:
            if seat in sealed:
                continue
            who = after.seats[seat]
            deadline = due.get(seat)
            if deadline is None and not who.is_ai:  # a fresh decision: its deadline is armed with this change
                window = pending[seat].timing == "window"
                deadline = self.clock() + after.row["window_seconds" if window else "deadline_seconds"]
            verb = "seals" if is_sealed else "decides"
            until = f", deadline <t:{int(deadline)}:R>" if deadline is not None else ""
            lines.append(f"Now: {who.label} {verb} ({kind_words(kind)}){until}")
        done = [seat for seat, _kind, _sealed in waiting if seat in sealed]
        if done:
            lines.append(self._sealed_line(after, pending, done))
        delivery = self._public(after, "\n".join(lines), None)
        delivery.edit_key = f"round:{round_number}"
        change.deliveries.append(delivery)

    async def _seal(
        self, live: Live, seat: int, decision: Decision, action: str, who: str, change: Change | None = None
    ) -> list[Delivery]:
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
        change.statements.append(
            (
                "INSERT INTO sealed (game_id, decision_id, seat, action, nonce, commit_hash, created_at, actor) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (live.id, decision.id, seat, action, nonce, digest, self.clock(), who),
            )
        )
        name = live.seats[seat].name
        waiting = [
            s for s, d in game.pending(live.state).items() if d.sealed and s not in sealed and s != seat
        ]
        if waiting:
            text = f"{name} has sealed ({kind_words(decision.kind)}). Commit: `{digest}`."
            change.deliveries.append(self._public(live, text, view=None))
            self._plan_offer(live, seat, action, change)
            await self._round_status(live, live, change, sealed={*sealed, seat})
            await self._store(live, live, change)
            return change.deliveries
        change.deliveries.append(
            self._public(
                live,
                f"{name} has sealed ({kind_words(decision.kind)}). Commit: `{digest}`. "
                "All choices are sealed: revealing.",
                view=None,
            )
        )
        sealed[seat] = action
        pending = game.pending(live.state)
        rows = await self.store.fetchall(
            "SELECT seat, decision_id, actor FROM sealed WHERE game_id = ? AND applied = 0", (live.id,)
        )
        actors = {  # each choice played under whoever sealed it
            r["seat"]: r["actor"]
            for r in rows
            if r["seat"] in sealed and r["actor"] and pending.get(r["seat"], decision).id == r["decision_id"]
        }
        actors[seat] = who
        change.statements.append(
            ("UPDATE sealed SET applied = 1 WHERE game_id = ? AND applied = 0", (live.id,))
        )
        moves = sorted(sealed.items())
        return await self._apply_and_store(live, moves, who, change, actors, sealer=seat)

    async def has_sealed(self, game_id: int, user_id: str) -> bool:
        live = await self._load(game_id)
        seat = next((s.seat for s in live.seats if s.user_id == user_id), None)
        return seat is not None and seat in await self._sealed_for(live)

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
                order = await self._standing_order(live, seat) if live.seats[seat].away else None
                action = order or await self._ai_choice(live, seat)
                # an order's answer is the player's own (as when the order answers while they are here)
                who = (order and live.seats[seat].user_id) or f"ai:{live.seats[seat].ai_level}"
                deliveries += await self._act_locked(live, seat, who, action, None, parsed=True)
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
        for game_id in await games_awaiting_ai(self.store):
            deliveries += await self._run_ai(game_id)
        return deliveries

    async def undo(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self._live_in_channel(channel_id)
        async with self._lock(live.id):
            live = await self._load(live.id)
            self._require_active(live)
            seat = self._seat_for(live, actor)
            if seat.vacation:  # the stand-in's moves are not theirs to take back and play again themselves
                raise HostError(
                    "You are away: the AI plays for you. /away off gives you your seats back at once."
                )
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
            # the player is here and took an answer back: their standing orders do not give it again
            change.orders_off.add(seat.seat)
            change.statements += [
                ("UPDATE events SET undone = 1 WHERE game_id = ? AND seq = ?", (live.id, last.seq)),
                ("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (live.id, last.seq)),
                ("DELETE FROM sealed WHERE game_id = ? AND applied = 0", (live.id,)),
            ]
            before_live = self._hand_over_kept(
                live, live.with_state(state_before), live.game.pending(live.state), change
            )
            self._turn_deliveries(
                before_live, {}, [Event("undo", f"{actor.name} takes back {last.action}.")], change
            )
            await self._store(live, before_live, change)
        return change.deliveries

    async def _state_before(self, live: Live, seq: int) -> State:
        events = await self.store.events(live.id, -1)
        start = setup_state(live.game, live.row["num_players"], json.loads(live.row["options"]), events[0])
        return replay_from(live.game, start, (event for event in events[1:] if event.seq < seq))
