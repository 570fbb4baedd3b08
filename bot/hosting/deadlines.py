"""Deadlines: reminders, the game's default on expiry, claim / wait / AI stand-in offers."""

from __future__ import annotations

import secrets
from typing import Any

from rules.engine import (
    Decision,
)
from rules.engine.standing import given_ahead

from ..models import Actor, Choice, Delivery, HostError, Prompt
from ..storage import decisions as stored_decisions
from ..storage import games as stored_games
from ..storage import timers as stored_timers
from ..storage.base import run
from . import live as telling
from .away import Away
from .core import (
    FIRING_TIMER,
    LOBBY_IDLE_S,
    LOBBY_MESSAGE,
    MISSES_BEFORE_AI,
    Change,
    Games,
    Live,
    StaleGame,
    TimerClaim,
    log,
    offer_key,
)
from .live import kind_words
from .play import Play


class Deadlines:
    """Timers: reminders, deadlines and their offers, automatic passes, standing orders' answers, idle lobbies."""

    def __init__(self, games: Games, play: Play, away: Away) -> None:
        self.games = games
        self.play = play
        self.away = away

    async def next_timer_due(self) -> float | None:
        return await self.games.store.next_timer_due(self.games.worker)

    async def fire_due_timers(self) -> list[Delivery]:
        """Apply every timer due by ``clock()``: reminders, deadline defaults, AI stand-ins, claim offers.

        The due timers are claimed for this process first (on PostgreSQL with ``FOR UPDATE SKIP LOCKED``), so
        processes firing at the same moment share them out; each timer's row is then deleted in the transaction
        that stores its effect, so even a claim that lapsed meanwhile cannot make a deadline fire twice."""
        deliveries: list[Delivery] = []
        for timer in await self.games.store.claim_due_timers(self.games.worker, self.games.clock()):
            try:
                deliveries += await self._fire(timer)
            except StaleGame:  # a move got in first: fire again next round, against the new state
                log.info(
                    "timer %s of game %s met a concurrent change; retried", timer["id"], timer["game_id"]
                )
                await self.games.store.release_timer(timer["id"])
            except HostError as error:  # the game moved on meanwhile; nothing to do
                log.info("timer %s of game %s skipped: %s", timer["id"], timer["game_id"], error)
        return deliveries

    async def _fire(self, timer: dict[str, Any]) -> list[Delivery]:
        game_id = timer["game_id"]
        claim = TimerClaim(timer["id"])
        token = FIRING_TIMER.set(claim)
        try:
            async with self.games.lock(game_id):
                deliveries, ai_may_move = await self._fire_locked(timer)
        except StaleGame:
            raise  # the timer stays, to be fired again
        except BaseException:
            await self._drop_unconsumed(claim)  # fire at most once even when its effect fails
            raise
        finally:
            FIRING_TIMER.reset(token)
        await self._drop_unconsumed(claim)  # a timer with nothing left to do
        return deliveries + (await self.play.run_ai(game_id) if ai_may_move else [])

    async def _drop_unconsumed(self, claim: TimerClaim) -> None:
        if not claim.consumed:
            async with self.games.store.transaction() as db:
                await stored_timers.delete(db, claim.timer_id)

    async def _fire_locked(self, timer: dict[str, Any]) -> tuple[list[Delivery], bool]:
        """The timer's effect, and whether AI seats may have to move after it."""
        live = await self.games.load(timer["game_id"])
        if timer["kind"] == "lobby_idle":
            return await self._close_idle_lobby(live), False
        if timer["kind"] == "away_end":
            return await self.away.away_ended(live, timer), False
        seat = timer["seat"]
        decision = live.game.pending(live.state).get(seat) if live.row["status"] == "active" else None
        if decision is None or decision.id != timer["decision_id"]:
            return [], False
        if decision.sealed and seat in await self.games.sealed_for(live):
            return [], False  # this seat has answered; the others' timers still run
        if timer["kind"] == "reminder":
            return await self._remind(live, seat, decision, timer), False
        if timer["kind"] == "autopass":
            return await self._autopass(live, seat), True
        if timer["kind"] == "standing_off":
            return [], False  # only a marker: the decision it silenced is still open
        if timer["kind"] == "standing":
            return await self._answer_by_order(live, seat, decision), True
        return await self._expire(live, seat, decision), True

    async def _close_idle_lobby(self, live: Live) -> list[Delivery]:
        """A lobby untouched (no join, leave or AI added) for ``LOBBY_IDLE_S`` closes; a lobby touched since
        its timer was set gets a new timer, counted from its last change."""
        if live.row["status"] != "lobby":
            return []
        idle_until = float(live.row["updated_at"]) + LOBBY_IDLE_S
        change = Change()
        if idle_until > self.games.clock():
            change.statements.append(stored_timers.lobby_idle(live.id, idle_until))
        else:
            days = LOBBY_IDLE_S / 86400
            change.statements.append(stored_games.abandon(live.id))
            closed = telling.public(
                live,
                f"The lobby of {live.game.title} #{live.id} closed after {days:g} days without a start. "
                "/game new opens another.",
                None,
            )
            closed.edit_key = LOBBY_MESSAGE  # the lobby message itself loses its Join / Leave / Start buttons
            change.deliveries.append(closed)
        await self.games.store_change(live, live, change)
        self.games.timers_changed.set()
        return change.deliveries

    async def _autopass(self, live: Live, seat: int) -> list[Delivery]:
        """The seat still has only one answer: give it, unless its player turned automatic passing off since."""
        action = live.game.auto_pass(live.state, seat)
        if action is None or live.seats[seat].user_id in live.autopass_off:
            return []
        return await self.play.act_locked(live, seat, "autopass", action, None, parsed=True)

    async def _answer_by_order(self, live: Live, seat: int, decision: Decision) -> list[Delivery]:
        """The seat's standing order answers its decision, exactly as the player's click would (the event is
        theirs, so /undo treats it as theirs); the order is read again now, so an order changed or withdrawn
        since the timer was set is honoured, and an order whose answer is no longer legal leaves the player
        asked. Only the owner is told that the order answered."""
        user = live.seats[seat].user_id
        orders = (await self.games.game_orders(self.games.store, live.id)).get(user or "")
        action = telling.standing_action(live, seat, decision, orders)
        if user is None or action is None:
            return []
        change = Change(automatic=True)
        ahead = given_ahead(orders) if orders else None
        from_ahead = telling.standing_action(live, seat, decision, ahead)
        described = f"{live.game.describe(live.state, action)}."
        if from_ahead == action:  # used up by this answer: nothing for /orders to change
            said = f"answered by your answer given ahead ({kind_words(decision.kind)}): {described}"
        else:
            said = f"answered by standing order ({kind_words(decision.kind)}): {described} /orders changes your orders."
        note = telling.private(live, seat, f"{live.game.title} #{live.id}: {said}", with_view=False)
        if note is not None:
            change.deliveries.append(note)
        # the event is the player's click; /game status' time to finish alone learns it was automatic (no wait)
        change.statements.append(stored_decisions.note_automatic_answer(live.id, decision.id, seat))
        try:
            return await self.play.act_locked(
                live, seat, user, action, decision.id, parsed=True, change=change
            )
        except HostError as error:  # refused after all: the player is asked as before
            log.info("standing order of game %s seat %s refused: %s", live.id, seat, error)
            return []

    async def _remind(
        self, live: Live, seat: int, decision: Decision, timer: dict[str, Any]
    ) -> list[Delivery]:
        """A reminder (or a ping held by quiet hours): in the player's quiet hours it waits for their end, if
        that is before the deadline (which never moves); a muted game reminds nobody."""
        deadline = await stored_timers.deadline_of(self.games.store, live.id, seat)
        user = live.seats[seat].user_id
        if self.games.muted(live, user):
            return []
        ends = self.games.quiet_until(live, user, self.games.clock())
        if ends is not None:
            if deadline is not None and ends < deadline:
                async with self.games.store.transaction() as db:
                    await run(db, stored_timers.reminder(live.id, seat, decision.id, ends))
                self.games.timers_changed.set()
            return []
        when = f"<t:{int(deadline)}:R>" if deadline is not None else "soon"
        text = (
            f"Reminder: {live.seats[seat].name}, {live.game.title} #{live.id} waits for you ({decision.kind}), "
            f"deadline {when}."
        )
        change = Change()
        change.deliveries.append(telling.public(live, text, None, [live.seats[seat].user_id or ""]))
        await self.games.store_change(live, live, change)
        return change.deliveries

    async def _expire(self, live: Live, seat: int, decision: Decision) -> list[Delivery]:
        name = live.seats[seat].name
        misses = await stored_games.missed_deadlines(self.games.store, live.id, seat) + 1
        change = Change()
        change.statements.append(stored_games.set_missed(live.id, seat, misses))
        if misses >= MISSES_BEFORE_AI:
            change.statements.append(self.games.hand_to_ai_sql(live, seat))
            change.deliveries.append(
                telling.public(
                    live,
                    f"{name} missed {misses} deadlines in a row: the AI plays the seat until they use "
                    "/game back.",
                    None,
                )
            )
            await self.games.store_change(live, live, change)
            return change.deliveries
        default = live.game.on_deadline(live.state, seat)
        if default is not None:
            change.deliveries.append(
                telling.public(
                    live,
                    f"{name}'s deadline passed: the default is applied ({live.game.describe(live.state, default)}).",
                    None,
                )
            )
            if decision.sealed:
                await self.games.store_change(live, live, change)
                live = await self.games.load(live.id)
                return change.deliveries + await self.play.seal(live, seat, decision, default, "deadline")
            return await self.play.apply_and_store(live, [(seat, default)], "deadline", change)
        others = [s for s in live.seats if s.seat != seat and s.user_id and not s.is_ai]
        # the offer's buttons carry an unguessable id bound to this deadline: the offer is closed (its row
        # deleted, its buttons taken off) the moment the turn changes or the seat gets a new deadline
        offer_id = secrets.token_hex(8)
        change.statements.append(
            stored_decisions.add_offer(live.id, offer_id, seat, decision.id, self.games.clock())
        )
        prompt = Prompt(
            live.id,
            seat,
            decision.id,
            "expired",
            f"{name} let the deadline pass. Claim the game, keep waiting, or let the AI play the seat?",
            False,
            [
                Choice("claim", "Claim the game"),
                Choice("wait", "Keep waiting"),
                Choice("ai", "Hand the seat to the AI"),
            ],
            expiry_id=offer_id,
        )
        change.offers.add(offer_id)
        offer = telling.public(live, prompt.text, None, [s.user_id or "" for s in others], prompt)
        offer.edit_key = offer_key(offer_id)
        change.deliveries.append(offer)
        await self.games.store_change(live, live, change)
        return change.deliveries

    async def answer_expiry(self, game_id: int, actor: Actor, offer_id: str, choice: str) -> list[Delivery]:
        """Claim / wait / AI on an open offer. An offer that is closed (the late seat moved, the game was paused,
        resumed or undone, the seat has a new deadline, or someone answered first) is refused: nothing changes."""
        if choice not in ("claim", "wait", "ai"):
            raise HostError("Answer claim, wait or ai.")
        async with self.games.lock(game_id):
            live = await self.games.load(game_id)
            self.games.require_active(live)
            me = self.games.seat_for(live, actor)
            row = await stored_decisions.offer(self.games.store, live.id, offer_id)
            decision = live.game.pending(live.state).get(row["seat"]) if row is not None else None
            if row is None or decision is None or decision.id != row["decision_id"]:
                raise HostError(
                    "That offer is closed: the player has acted or has a new deadline since. "
                    "/game status shows whom the game waits for now."
                )
            seat, decision_id = row["seat"], row["decision_id"]
            if me.seat == seat:
                raise HostError("This question is for the other players; you can simply make your move.")
            name = live.seats[seat].name
            change = Change()
            change.statements.append(stored_decisions.close_offer(live.id, offer_id))
            if choice == "claim":
                winners = [s.seat for s in live.seats if s.seat != seat]
                await self.games.end_with(
                    live,
                    change,
                    winners,
                    False,
                    f"{actor.name} claimed the game after {name}'s deadline passed.",
                )
            elif choice == "wait":
                span = live.row["deadline_seconds"]
                change.statements.append(
                    stored_timers.deadline(live.id, seat, decision_id, self.games.clock() + span)
                )
                change.deliveries.append(
                    telling.public(live, f"{actor.name} keeps waiting for {name}.", None)
                )
            else:
                change.statements.append(self.games.hand_to_ai_sql(live, seat))
                change.deliveries.append(
                    telling.public(
                        live,
                        f"{actor.name} hands {name}'s seat to the AI until {name} returns (/game back).",
                        None,
                    )
                )
            await self.games.store_change(live, live, change)
        return change.deliveries + await self.play.run_ai(game_id)
