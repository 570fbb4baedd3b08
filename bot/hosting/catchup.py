"""The catch-up digest through the host: what happened in a game since a player last acted (``bot.digest``).

Two ways in: ``/catchup`` (asked: always answered, "nothing new" included) and a player's turn coming, when the
DM that asks them opens on the digest (``Delivery.catchup``: the front-end asks ``turn_digest`` as it posts,
so the digest covers everything up to that moment). A turn's digest is left out when it would only repeat what
the turn's own message shows: fewer than ``TURN_DIGEST_MIN_EVENTS`` events by others, and nothing taken for the
player by the AI or a deadline.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from ..digest import Digest, build_digest, digest_text, last_action_index
from ..models import Actor, HostError
from .core import HostCore, Live

#: a turn's DM opens on the digest from this many events by other players on (one event is the board the
#: turn's own message shows)
TURN_DIGEST_MIN_EVENTS = 2


@dataclass(frozen=True)
class CatchUp:
    """A digest ready for a front-end: its text (at most one message) and the seat's two views, named, for
    ``render.digest.digest_boards``; no views when nothing happened since."""

    game_key: str
    game_id: int
    text: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


class CatchUpMixin(HostCore):
    async def catchup(self, channel_id: str, actor: Actor) -> CatchUp:
        """``/catchup``: the asker's digest of the game in this channel (or their last one)."""
        live = await self._live_in_channel_or_last(channel_id)
        seat = self._seat_for(live, actor)
        if not live.state:
            raise HostError("The game has not started yet: there is nothing to catch up on.")
        digest = await self._digest(live, seat.seat, actor.user_id)
        if digest is None or not digest.groups:
            text = f"{live.game.title} #{live.id}: nothing new since you last moved."
            return CatchUp(live.row["kind"], live.id, text, None, None)
        return self._catch_up(live, digest)

    async def turn_digest(self, game_id: int, seat: int) -> CatchUp | None:
        """The digest a turn's DM opens on, or None when it would say nothing the turn's message does not."""
        live = await self._load(game_id)
        if not live.state or not 0 <= seat < len(live.seats) or live.seats[seat].user_id is None:
            return None
        digest = await self._digest(live, seat, live.seats[seat].user_id)
        if digest is None or not _worth_a_message(digest):
            return None
        return self._catch_up(live, digest)

    async def _digest(self, live: Live, seat: int, user_id: str | None) -> Digest | None:
        events = await self.store.events(live.id, -1)
        if not events:
            return None
        setup, records = events[0], events[1:]
        last = last_action_index(records, seat, user_id)
        names = [s.name for s in live.seats]
        options = json.loads(live.row["options"])
        # replaying a long game takes up to a tenth of a second: off the event loop
        return await asyncio.to_thread(
            build_digest, live.game, options, setup.draws, records, names, seat, last
        )

    def _catch_up(self, live: Live, digest: Digest) -> CatchUp:
        heading = f"{live.game.title} #{live.id}: since your last move"
        return CatchUp(live.row["kind"], live.id, digest_text(digest, heading), digest.before, digest.after)


def _worth_a_message(digest: Digest) -> bool:
    by_others = sum(len(group.steps) for group in digest.groups if group.seat != digest.seat)
    taken_for_them = any(
        step.by for group in digest.groups if group.seat == digest.seat for step in group.steps
    )
    return by_others >= TURN_DIGEST_MIN_EVENTS or taken_for_them


__all__ = ["TURN_DIGEST_MIN_EVENTS", "CatchUp", "CatchUpMixin"]
