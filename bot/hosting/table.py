"""Table talk: resign, abandon, pause and resume (votes), draws, substitutes, lost channels."""

from __future__ import annotations

from rules.engine import (
    Event,
)

from ..models import Actor, Delivery, GameInfo, HostError
from ..storage import games as stored_games
from ..storage import timers as stored_timers
from . import live as telling
from .core import (
    Change,
    Games,
    Live,
)
from .play import Play
from .standing import shipped_orders, shipped_orders_notice


class Table:
    """Table talk: pause, resume, resign, draws, substitutes and AI seats joining a running game."""

    def __init__(self, games: Games, play: Play) -> None:
        self.games = games
        self.play = play

    async def resign(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self.games.live_in_channel(channel_id)
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            self.games.require_active(live)
            seat = self.games.seat_for(live, actor)
            change = Change()
            if len(live.seats) == 2:  # with more players the game goes on, the AI playing the seat
                winners = [s.seat for s in live.seats if s.seat != seat.seat]
                await self.games.end_with(live, change, winners, False, f"{actor.name} resigned.")
            else:
                change.statements.append(self.games.hand_to_ai_sql(live, seat.seat))
                change.deliveries.append(
                    telling.public(live, f"{actor.name} resigned: the AI plays their seat to the end.", None)
                )
            await self.games.store_change(live, live, change)
        return change.deliveries + await self.play.run_ai(live.id)

    async def _vote(
        self, live: Live, actor: Actor, kind: str, asks: str | None = None, how: str | None = None
    ) -> tuple[bool, Change]:
        """Record ``actor``'s agreement; True once every seated person agrees. ``asks`` and ``how`` word the
        request and the command that agrees (default: "to <kind> the game", "/game <kind>")."""
        self.games.seat_for(live, actor)
        humans = {s.user_id for s in live.seats if s.user_id}
        agreed = await stored_games.voters(self.games.store, live.id, kind) | {actor.user_id}
        change = Change()
        if agreed >= humans:
            change.statements.append(stored_games.clear_votes(live.id, kind))
            return True, change
        change.statements.append(stored_games.add_vote(live.id, kind, actor.user_id))
        missing = [s.name for s in live.seats if s.user_id and s.user_id not in agreed]
        change.deliveries.append(
            telling.public(
                live,
                f"{actor.name} asks {asks or f'to {kind} the game'}. Waiting for: {', '.join(missing)} "
                f"(each uses {how or f'/game {kind}'}).",
                None,
            )
        )
        return False, change

    async def abandon(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self.games.live_in_channel(channel_id)
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            if live.row["status"] == "lobby":
                self.games.require_seated_or_creator(live, actor)
                done, change = True, Change()
            elif actor.can_manage:  # a moderator may end any game in their channel
                done, change = True, Change()
            else:
                done, change = await self._vote(live, actor, "abandon")
            if done:
                change.statements += [stored_games.abandon(live.id), stored_timers.clear_all(live.id)]
                change.deliveries.append(
                    telling.public(live, f"{live.game.title} #{live.id} was abandoned.", None)
                )
                if live.state:
                    change.deliveries += await self.games.reveal_deliveries(live)
            await self.games.store_change(live, live, change)
        return change.deliveries

    async def pause(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self.games.live_in_channel(channel_id)
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            self.games.require_active(live)
            done, change = await self._vote(live, actor, "pause")
            if done:
                change.statements += [stored_games.pause_agreed(live.id), stored_timers.clear_all(live.id)]
                change.deliveries.append(
                    telling.public(
                        live,
                        "The game is paused; deadlines are stopped. /game resume when everyone agrees.",
                        None,
                    )
                )
            await self.games.store_change(live, live, change)
        return change.deliveries

    async def resume(self, channel_id: str, actor: Actor, guild_id: str | None = None) -> list[Delivery]:
        """Resume a paused game; from another channel of the same server (``guild_id``), a game whose channel
        was lost."""
        info = await self.games.game_in_channel(channel_id)
        moved_from_lost = False
        if info is None:
            info = await self._lost_game_of(actor, guild_id)
            moved_from_lost = True
        async with self.games.lock(info.game_id):
            live = await self.games.load(info.game_id)
            if live.row["status"] != "paused":
                raise HostError("The game is not paused.")
            self.games.seat_for(live, actor)
            if moved_from_lost and not actor.can_manage:
                # moving a game to another channel takes every player's agreement, or a moderator
                done, change = await self._vote(
                    live, actor, f"move:{channel_id}", "to move the game to this channel", "/game resume here"
                )
                for delivery in change.deliveries:  # the game's own channel is gone: ask where it would go
                    delivery.channel_id = channel_id
            elif moved_from_lost or live.row["paused_reason"] == "channel-lost":
                done, change = True, Change()
            else:
                done, change = await self._vote(live, actor, "resume")
            if done:
                change.statements.append(stored_games.resume_in(live.id, channel_id))
                live.row = {**live.row, "status": "active", "channel_id": channel_id}
                self.games.turn_deliveries(live, {}, [Event("resume", "The game continues.")], change)
            await self.games.store_change(live, live, change)
        return change.deliveries + await self.play.run_ai(live.id)

    async def _lost_game_of(self, actor: Actor, guild_id: str | None) -> GameInfo:
        """The actor's most recent game paused because its channel was lost, on this server only."""
        game_id = await stored_games.lost_game_of(self.games.store, actor.user_id, guild_id)
        if game_id is None:
            raise HostError("There is no paused game of yours on this server to resume here.")
        return await self.games.game_info(game_id)

    async def channel_lost(self, channel_id: str) -> list[Delivery]:
        info = await self.games.game_in_channel(channel_id)
        if info is None or info.status == "paused":
            return []
        async with self.games.lock(info.game_id):
            live = await self.games.load(info.game_id)
            change = Change()
            change.statements += [stored_games.pause_channel_lost(live.id), stored_timers.clear_all(live.id)]
            for seat in live.seats:
                text = (
                    f"The channel of {live.game.title} #{live.id} is gone or no longer reachable: the game is "
                    "paused. Use /game resume in another channel of the server to continue it there."
                )
                private = telling.private(live, seat.seat, text, with_view=False)
                if private:
                    change.deliveries.append(private)
            await self.games.store_change(live, live, change)
        return change.deliveries

    async def offer_draw(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self.games.live_in_channel(channel_id)
        if not live.game.draw_by_agreement:
            raise HostError(f"{live.game.title} has no draw by agreement.")
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            self.games.require_active(live)
            done, change = await self._vote(live, actor, "draw")
            if done:
                await self.games.end_with(live, change, [], True, "drawn by agreement")
            await self.games.store_change(live, live, change)
        return change.deliveries

    async def sub(self, channel_id: str, actor: Actor, new: Actor, seat: int | None = None) -> list[Delivery]:
        live = await self.games.live_in_channel(channel_id)
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            if seat is None:
                target = self.games.seat_for(live, actor)
            elif not actor.can_manage:
                raise HostError("Only a member with Manage Channels can hand someone else's seat over.")
            elif not 0 <= seat < len(live.seats):
                raise HostError(f"There is no seat {seat + 1}.")
            else:
                target = live.seats[seat]
                if target.vacation:  # away with an allowance: the AI keeps the seat for its player
                    raise HostError(
                        f"{target.name} is away (/away) and the AI plays for them until they are back: "
                        "their seat is not handed over."
                    )
                present = target.user_id is not None and not target.away and not target.missed
                if present and target.user_id != actor.user_id:
                    raise HostError(
                        f"{target.name} is playing (no missed deadline, not away): a moderator can hand over "
                        f"only an absent player's seat. {target.name} can hand it over with /game sub."
                    )
            if any(s.user_id == new.user_id for s in live.seats):
                raise HostError(f"{new.name} already holds a seat in this game.")
            change = Change()
            change.statements.append(stored_games.substitute(live.id, target.seat, new.user_id, new.name))
            await self._shipped_orders(live, target.seat, new, change)
            change.deliveries.append(
                telling.public(
                    live,
                    f"{new.name} takes over seat {target.seat + 1} from {target.name}.",
                    None,
                    [new.user_id],
                )
            )
            await self.games.store_change(live, live, change)
        return change.deliveries + await self._after_seat_change(live.id, target.seat)

    async def _shipped_orders(self, live: Live, seat: int, new: Actor, change: Change) -> None:
        """A player taking a seat over begins with the game's recommended orders, as at a game's start
        (``standing.shipped_orders``), unless they hold orders of their own in this game already."""
        if live.orders.get(new.user_id):
            return
        rows, given = await shipped_orders(
            self.games.store, live.game, live.id, [new.user_id], self.games.clock()
        )
        change.statements += rows
        if new.user_id in given:
            text = shipped_orders_notice(live.game, live.id, given[new.user_id])
            change.deliveries.append(
                Delivery(0, live.id, live.row["kind"], "private", text, user_id=new.user_id, seat=seat)
            )

    async def back(self, channel_id: str, actor: Actor) -> list[Delivery]:
        live = await self.games.live_in_channel(channel_id)
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            seat = self.games.seat_for(live, actor)
            if seat.vacation:
                raise HostError("You are away: /away off gives you all your seats back at once.")
            if not seat.away:
                raise HostError("You are already playing your seat yourself.")
            change = Change()
            change.statements.append(stored_games.back_to_seat(live.id, seat.seat))
            change.deliveries.append(
                telling.public(live, f"{actor.name} is back and plays their seat again.", None)
            )
            await self.games.store_change(live, live, change)
        return change.deliveries + await self._after_seat_change(live.id, seat.seat)

    async def _after_seat_change(self, game_id: int, seat: int) -> list[Delivery]:
        """A person took a seat: arm their deadlines and send them their view and open decision."""
        async with self.games.lock(game_id):
            live = await self.games.load(game_id)
            if live.row["status"] != "active":
                return []
            decision = live.game.pending(live.state).get(seat)
            change = Change()
            prompt = self.games.prompt_for(live, seat, decision) if decision else None
            private = telling.private(
                live, seat, f"{live.game.title} #{live.id}: you hold seat {seat + 1}.", prompt=prompt
            )
            if private:
                change.deliveries.append(private)
            await self.games.store_change(live, live, change)
        return change.deliveries
