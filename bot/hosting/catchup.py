"""The catch-up digest through the host: what happened in a game since a player last acted (``bot.digest``).

Two ways in: ``/catchup`` (asked: always answered, "nothing new" included) and a player's turn coming, when the
DM that asks them opens on the digest (``Delivery.catchup``: the front-end asks ``turn_digest`` as it posts,
so the digest covers everything up to that moment). A turn's digest is left out when it would only repeat what
the turn's own message shows: fewer than ``TURN_DIGEST_MIN_EVENTS`` events by others, and nothing taken for the
player by the AI or a deadline.

What it costs (issue 46): the digest starts from the stored snapshot nearest at or before the seat's last action
(one every ``SNAPSHOT_EVERY`` events) rather than from the setup, reads in full only the events from that
snapshot on (the earlier ones by number, seat and who acted alone, to find that last action), and takes the
seat's view now from the game's current state: only the events between the snapshot and the seat's last action
(and any the AI or a deadline played for the seat since) are replayed. Each seat's answer is then kept
(``CATCHUP_CACHE`` answers, least recently used first out) while the game stays at the version it was built
from: a repeated ``/catchup``, or a turn's DM asking after it, costs the reads that find the game. The words are
English here, as every host text (front-ends translate them); the boards are drawn, in the reader's language,
by the front-end (``render.digest.digest_pngs`` keeps the drawn PNGs by the views they show).
"""

from __future__ import annotations

import asyncio
import bisect
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.engine import State

from ..digest import Digest, EventLike, build_digest, digest_text, last_action_index
from ..leagues.digest import started_line
from ..models import Actor, HostError
from ..storage import EventHead, EventRow
from ..storage import games as stored_games
from .core import Games, Live, LruCache

#: a turn's DM opens on the digest from this many events by other players on (one event is the board the
#: turn's own message shows)
TURN_DIGEST_MIN_EVENTS = 2
#: seats' answers kept while their games stay at the version they were built from (the largest game's answer holds
#: its text and two views, some 65 kB: at most about 16 MB in all)
CATCHUP_CACHE = 256


@dataclass(frozen=True)
class CatchUp:
    """A digest ready for a front-end: its text (at most one message) and the seat's two views, named, for
    ``render.digest.digest_boards``; no views when nothing happened since. A kept answer is handed out again
    as it is: its views are shared, to be read, never changed."""

    game_key: str
    game_id: int
    text: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class _Answer:
    """A seat's ``/catchup`` answer as of one version of its game, and whether a turn's DM opens on it."""

    #: the game's (version, last event number) the digest was built at
    stamp: tuple[int, int]
    catch_up: CatchUp
    #: a turn's DM opens on it (``_worth_a_message``)
    for_a_turn: bool


#: a kept answer's key: game id, seat, the user whose last action it starts after, the seats' names
AnswerKey = tuple[int, int, str | None, tuple[str, ...]]
#: what ``build_digest`` replays: the records, the state it starts from (None: the setup), the setup's draws
Records = tuple[Sequence[EventLike], tuple[int, State] | None, list[int]]


class CatchUps:
    """The digests of what happened since a player last acted (``/catchup`` and a turn DM's opening), kept per game version."""

    def __init__(self, games: Games) -> None:
        self.games = games
        #: seats' answers, each valid while its game is at the version in its stamp (``_answer``)
        self._catchups: LruCache[AnswerKey, _Answer] = LruCache(CATCHUP_CACHE)

    async def catchup(self, channel_id: str, actor: Actor) -> CatchUp:
        """``/catchup``: the asker's digest of the game in this channel (or their last one)."""
        live = await self.games.live_in_channel_or_last(channel_id)
        seat = self.games.seat_for(live, actor)
        if not live.state:
            raise HostError("The game has not started yet: there is nothing to catch up on.")
        return (await self._answer(live, seat.seat, actor.user_id)).catch_up

    async def turn_digest(self, game_id: int, seat: int) -> CatchUp | None:
        """The digest a turn's DM opens on, or None when it would say nothing the turn's message does not."""
        live = await self.games.load(game_id)
        if not live.state or not 0 <= seat < len(live.seats) or live.seats[seat].user_id is None:
            return None
        answer = await self._answer(live, seat, live.seats[seat].user_id)
        return answer.catch_up if answer.for_a_turn else None

    async def _answer(self, live: Live, seat: int, user_id: str | None) -> _Answer:
        """The seat's digest and ``/catchup`` answer: the kept one while the game has not changed since it was
        built (every change to a game's events bumps its version), else built now and kept."""
        key = (live.id, seat, user_id, tuple(s.name for s in live.seats))
        stamp = (live.version, live.seq)
        known = self._catchups.get(key)
        if known is not None and known.stamp == stamp:
            return known
        digest, current = await self._digest(live, seat, user_id)
        if digest is None or not digest.groups:
            text = f"{live.game.title} #{live.id}: nothing new since you last moved."
            caught = CatchUp(live.row["kind"], live.id, text, None, None)
        else:
            caught = self._catch_up(live, digest)
        names = [s.name for s in live.seats]
        league_line = await started_line(
            self.games.store, live.id, seat, names
        )  # a league game (bot/leagues)
        if league_line:
            caught = replace(caught, text=f"{league_line}\n{caught.text}")
        answer = _Answer(stamp, caught, digest is not None and _worth_a_message(digest))
        if current:
            self._catchups[key] = answer
        return answer

    async def _digest(self, live: Live, seat: int, user_id: str | None) -> tuple[Digest | None, bool]:
        """The seat's digest (None when nothing happened since its last action), and whether it shows the game
        exactly at ``live``'s version (else another change was stored while it was read: it is still right for
        the events it read, but not to be kept under that version).

        Read: every event's number, seat and who acted (to find the seat's last action), the snapshot nearest
        at or before that action, and the events after the snapshot in full."""
        heads = await self.games.store.event_heads(live.id)
        if not heads:
            return None, False
        last = last_action_index(heads[1:], seat, user_id)  # heads[0] is the setup: records are heads[1:]
        first = 0 if last is None else last + 1
        if first == len(heads) - 1:  # the seat acted last: nothing to tell
            return None, await self._still_at(live)
        read = await self._records_from_snapshot(live, heads, first)
        current = read is not None and await self._still_at(live)
        if read is None:  # the game moved between the reads: the whole game, read at once, from the setup
            events = await self.games.store.events(live.id, -1)
            read = events[1:], None, events[0].draws
            last = last_action_index(events[1:], seat, user_id)
        records, start, setup_draws = read
        names = [s.name for s in live.seats]
        options = json.loads(live.row["options"])
        end = live.state if current else None
        # replaying tens of events takes milliseconds, a game from its setup up to half a second: off the loop
        digest = await asyncio.to_thread(
            build_digest, live.game, options, setup_draws, records, names, seat, last, start, False, end
        )
        return digest, current

    async def _records_from_snapshot(self, live: Live, heads: list[EventHead], first: int) -> Records | None:
        """The records for ``build_digest``, its start and the setup's draws: the snapshot stored at or before
        the event after which the digest begins (``heads[first]``; the setup's own at the latest), the events
        after it read in full and those before it as stand-ins (seat and who acted, all that is read of them).
        With no snapshot (a game imported, or stored before snapshots began), every event in full from the
        setup. None when the events read do not match ``heads`` (someone stored a change meanwhile)."""
        snapshot = await self.games.store.snapshot_at_or_before(live.id, heads[first].seq)
        if snapshot is None:
            events = await self.games.store.events(live.id, -1)
            if [event.seq for event in events] != [head.seq for head in heads]:
                return None
            return events[1:], None, events[0].draws
        seq, state = snapshot
        if live.row["rules_version"] != live.game.rules_version:
            state = live.game.upgrade(state, live.row["rules_version"])
        applied = bisect.bisect_right([head.seq for head in heads], seq) - 1  # records up to the snapshot
        tail = await self.games.store.events(live.id, seq)
        if [event.seq for event in tail] != [head.seq for head in heads[applied + 1 :]]:
            return None
        return [*map(_stand_in, heads[1 : applied + 1]), *tail], (applied, state), []

    async def _still_at(self, live: Live) -> bool:
        """Whether the game is still at ``live``'s version: then nothing was stored since it was loaded, and
        what was read since is the game at that version, ``live.state`` its state after the last event."""
        return await stored_games.version(self.games.store, live.id) == live.version

    def _catch_up(self, live: Live, digest: Digest) -> CatchUp:
        heading = f"{live.game.title} #{live.id}: since your last move"
        return CatchUp(live.row["kind"], live.id, digest_text(digest, heading), digest.before, digest.after)


def _stand_in(head: EventHead) -> EventRow:
    """An event before the digest's start snapshot: never replayed, so its action, draws and log are left out."""
    return EventRow(head.seq, head.seat, "", [], head.user_id, [], 0.0)


def _worth_a_message(digest: Digest) -> bool:
    # a move and its takeback are no news: the digest shows neither (``Step.cancelled``)
    by_others = sum(
        not step.cancelled for group in digest.groups if group.seat != digest.seat for step in group.steps
    )
    taken_for_them = any(
        step.by for group in digest.groups if group.seat == digest.seat for step in group.steps
    )
    return by_others >= TURN_DIGEST_MIN_EVENTS or taken_for_them


__all__ = ["TURN_DIGEST_MIN_EVENTS", "CatchUp", "CatchUps"]
