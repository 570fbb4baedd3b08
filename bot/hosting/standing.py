"""Standing orders (issue 18): a player's answers given in advance, per game (``rules.engine.standing``).

``/orders`` sets one (``set_order``) or lists them (``orders_text``); both answer only the player. The host gives
an order's answer, as the player's own click, a random moment after the decision arises (the auto-pass's delay:
``DeadlinesMixin._answer_by_order``); the player is asked as usual meanwhile and may answer first.
"""

from __future__ import annotations

import json

from rules.engine import IllegalAction, OptionError, get_game
from rules.engine.standing import (
    AHEAD,
    AHEAD_CHOICES,
    ASK,
    ahead_action,
    ahead_order,
    check_order,
    describe_orders,
    topics_of,
)

from ..models import Actor, HostError
from .core import Change, HostCore, Live, kind_words


class StandingMixin(HostCore):
    async def _seated_live(self, channel_id: str, actor: Actor) -> Live:
        live = await self._live_in_channel(channel_id)
        self._seat_for(live, actor)
        if not live.game.standing_topics:
            raise HostError(f"{live.game.title} has no standing orders: every decision is yours to take.")
        if live.row["status"] not in ("active", "paused"):
            raise HostError("Standing orders are set once the game has started.")
        return live

    async def orders_text(self, channel_id: str, actor: Actor) -> str:
        """The caller's standing orders in the channel's game (only ever shown to them)."""
        live = await self._seated_live(channel_id, actor)
        return self._orders_lines(live, actor.user_id)

    @staticmethod
    def _orders_lines(live: Live, user_id: str) -> str:
        orders = live.orders.get(user_id, {})
        lines = [f"Your standing orders in {live.game.title} #{live.id} (only you see them):"]
        lines += [f"- {line}" for line in describe_orders(live.game, orders)]
        return "\n".join(lines)

    def order_topics(self, game_key: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
        """(key, title, choices) of a game's standing-order topics, for front-ends' menus and autocomplete."""
        game = get_game(game_key)
        return [(topic.key, topic.title, list(topic.choices)) for topic in game.standing_topics]

    async def set_order(self, channel_id: str, actor: Actor, topic: str, choice: str, names: str = "") -> str:
        """Set (``ask``: withdraw) one of the caller's standing orders; ``names`` is a comma-separated list
        (principalities allowed through, cards marked). Every field is checked: bad input is a sentence."""
        live = await self._seated_live(channel_id, actor)
        try:
            order = check_order(live.game, topic, choice, names.split(","))
        except OptionError as error:
            raise HostError(str(error)) from None
        key = topic.strip().lower()
        async with self._lock(live.id):
            live = await self._load(live.id)
            async with self.store.transaction() as db:
                if order.choice == ASK:
                    await db.execute(
                        "DELETE FROM standing_orders WHERE game_id = ? AND user_id = ? AND topic = ?",
                        (live.id, actor.user_id, key),
                    )
                else:
                    await db.execute(
                        "INSERT INTO standing_orders (game_id, user_id, topic, choice, names, updated_at) "
                        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id, topic) DO UPDATE SET "
                        "choice = excluded.choice, names = excluded.names, updated_at = excluded.updated_at",
                        (
                            live.id,
                            actor.user_id,
                            key,
                            order.choice,
                            json.dumps(list(order.names)),
                            self.clock(),
                        ),
                    )
                live.orders = await self._game_orders(db, live.id)
                # a decision open now that the new order answers gets its answer at the usual random moment
                await self._arm_timers(db, live, Change(), self.clock())
            self._known[live.id] = live
        title = topics_of(live.game)[key].title
        return f"Standing order set: {title}.\n" + self._orders_lines(live, actor.user_id)

    # ---- answers given ahead (issue 18) ------------------------------------------------------------------------

    async def ahead_text(self, channel_id: str, actor: Actor) -> str:
        """The caller's upcoming decision they may answer ahead (``Game.ahead``: a later turn of a queue the
        rules order), its answers now, and the answer they gave ahead for it (only ever shown to them)."""
        live = await self._seated_live(channel_id, actor)
        seat = self._seat_for(live, actor).seat
        decision = live.game.ahead(live.state).get(seat)
        if decision is None:
            return (
                "Nothing to answer ahead now: /ahead works while an earlier player is asked a turn of yours."
            )
        preview = live.game.ahead_state(live.state, seat)
        assert preview is not None  # the seat has an upcoming decision
        answers = [
            a for a in live.game.legal_actions(preview, seat) if not live.game.is_free(preview, seat, a)
        ]
        given = ahead_action(live.orders.get(actor.user_id, {}), decision.id, answers)
        lines = [
            f"{live.game.title} #{live.id}, coming to you (only you see this): {decision.prompt}",
            "Answers now: " + ", ".join(answers),
            f"Your answer given ahead: {given}" if given else "No answer given ahead yet.",
            f"/ahead ANSWER[, SECOND CHOICE, THIRD CHOICE] (up to {AHEAD_CHOICES}): the first still allowed when "
            "your turn comes is given as your click; none allowed then: you are asked as usual.",
        ]
        return "\n".join(lines)

    async def answer_ahead(self, channel_id: str, actor: Actor, text: str) -> str:
        """Give answers ahead for the caller's upcoming decision: comma-separated, first choice first (untrusted
        input: each is read as a move of the decision posed now and must be one of its answers)."""
        live = await self._seated_live(channel_id, actor)
        seat = self._seat_for(live, actor).seat
        decision = live.game.ahead(live.state).get(seat)
        preview = live.game.ahead_state(live.state, seat)
        if decision is None or preview is None:
            raise HostError("Nothing to answer ahead now: /ahead works while an earlier player is asked.")
        parts = [part.strip() for part in text.split(",") if part.strip()]
        if not parts or len(parts) > AHEAD_CHOICES:
            raise HostError(f"Give 1 to {AHEAD_CHOICES} answers, first choice first, separated by commas.")
        chosen = []
        for part in parts:
            try:
                action = live.game.parse(preview, seat, part)
            except (OptionError, IllegalAction) as error:
                raise HostError(f"'{part}': {error}") from None
            if live.game.is_free(preview, seat, action) or action not in live.game.legal_actions(
                preview, seat
            ):
                raise HostError(f"'{part}' does not answer {kind_words(decision.kind)} ({decision.prompt}).")
            chosen.append(action)
        order = ahead_order(decision.id, chosen)
        async with self._lock(live.id):
            live = await self._load(live.id)
            async with self.store.transaction() as db:
                await db.execute(
                    "INSERT INTO standing_orders (game_id, user_id, topic, choice, names, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id, topic) DO UPDATE SET "
                    "choice = excluded.choice, names = excluded.names, updated_at = excluded.updated_at",
                    (
                        live.id,
                        actor.user_id,
                        AHEAD,
                        order.choice,
                        json.dumps(list(order.names)),
                        self.clock(),
                    ),
                )
                live.orders = await self._game_orders(db, live.id)
            self._known[live.id] = live
        described = "; else ".join(live.game.describe(preview, action) for action in chosen)
        return (
            f"Answered ahead (only you see it): {described}. It is given as your click when your turn comes, "
            "if allowed then; /ahead again changes it."
        )
