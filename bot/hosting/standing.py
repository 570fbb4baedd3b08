"""Standing orders (issue 18): a player's answers given in advance, per game (``rules.engine.standing``).

``/orders`` sets one (``set_order``) or lists them (``orders_text``); both answer only the player. The host gives
an order's answer, as the player's own click, a random moment after the decision arises (the auto-pass's delay:
``DeadlinesMixin._answer_by_order``); the player is asked as usual meanwhile and may answer first.
"""

from __future__ import annotations

import json

from rules.engine import OptionError, get_game
from rules.engine.standing import ASK, check_order, describe_orders, topics_of

from ..models import Actor, HostError
from .core import Change, HostCore, Live


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
