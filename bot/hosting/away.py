"""Away mode across every game: ``/away until:<date>`` and ``/away off``, with a yearly allowance per server.

While a player is away, the AI plays each of their seats (at the stand-in level: in a rated game the game's modest
level, ``Games.stand_in_level``), so no deadline waits for them; each game's channel is told when they leave and
when they are back. The end of an away period is a timer per game (timers live in the database), so a restart
in between changes nothing. ``/away off`` gives every seat back at once.

Away mode is for being away, not for help on a hard move (issue 42): a spell lasts at least ``MIN_AWAY_S`` (a day)
and counts in whole days against the allowance, however early the player comes back; a decision already waiting
for a seat when its player leaves stays theirs (its deadline and deadline default as usual: the seat is handed to
the AI once that decision is answered, ``step.hand_over_kept``), so only later decisions go to the stand-in.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any
from zoneinfo import ZoneInfo

from ..models import Actor, Delivery, HostError
from ..storage import games as stored_games
from ..storage import settings as stored_settings
from ..storage import timers as stored_timers
from . import live as telling
from .core import Change, Games, Live
from .play import Play

#: away days per calendar year (UTC) when the server's admin has not set another number
DEFAULT_AWAY_DAYS = 14.0
MAX_AWAY_DAYS = 366.0
DAY = 86400.0
#: the shortest away spell: away mode is for being away, not for one move
MIN_AWAY_S = DAY
#: the forms ``/away until:`` accepts: a date (the player is back at its start, in their time zone) or a date
#: and a time, or a Discord timestamp as ``<t:SECONDS>`` (what a pasted timestamp looks like)
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?")
_TIMESTAMP = re.compile(r"<t:(\d{1,12})(?::[tTdDfFR])?>")
UNTIL_FORMS = (
    "a date as 2026-12-24, a date and time as 2026-12-24 18:00, or a Discord timestamp <t:1798128000>"
)
#: away mode's rule in a sentence or two, as /away status says it (SECURITY.md and the README say it too)
AWAY_RULE = (
    "Away mode is for being away: a spell lasts at least a day and counts in whole days, even if you come back "
    "early. A decision already waiting for you when you leave stays yours (its deadline as usual); the AI plays "
    "the ones after it, in a rated game at a modest level, and a seat the AI played for more than 10% of its "
    "decisions is left out of the ratings."
)


def parse_until(text: str, zone: str) -> float:
    """The moment ``text`` names, strictly one of ``UNTIL_FORMS`` (a date or time in the player's zone)."""
    text = " ".join(text.split())
    stamp = _TIMESTAMP.fullmatch(text)
    if stamp:
        return float(stamp.group(1))
    match = _DATE.fullmatch(text)
    if match is None:
        raise HostError(f"I could not read {text[:40]!r} as a date. Write {UNTIL_FORMS}.")
    year, month, day, hour, minute = (int(part) if part else 0 for part in match.groups())
    try:
        moment = dt.datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(zone))
    except ValueError:
        raise HostError(f"{text} is not a real date and time. Write {UNTIL_FORMS}.") from None
    return moment.timestamp()


def _year_bounds(year: int) -> tuple[float, float]:
    start = dt.datetime(year, 1, 1, tzinfo=dt.UTC).timestamp()
    return start, dt.datetime(year + 1, 1, 1, tzinfo=dt.UTC).timestamp()


def _year_of(moment: float) -> int:
    return dt.datetime.fromtimestamp(moment, dt.UTC).year


def days_in_year(starts: float, ends: float, year: int) -> float:
    """How many whole days of the period ``starts``..``ends`` count in the calendar year ``year`` (UTC): a
    period counts whole days from its start, at least one however short (``ceil``), each in the year (UTC) in
    which it begins."""
    whole = max(1, math.ceil((ends - starts) / DAY - 1e-9))
    return float(sum(1 for day in range(whole) if _year_of(starts + day * DAY) == year))


def _days(value: float) -> str:
    return f"{round(value, 1):g}"


class Away:
    """Away mode: the AI stands in for a player while they are away, within the server's yearly allowance."""

    def __init__(self, games: Games, play: Play) -> None:
        self.games = games
        self.play = play

    # ---- questions ------------------------------------------------------------------------------------------
    async def away_until(self, user_id: str) -> float | None:
        """When the player's running away period ends, or None when they are not away."""
        return await stored_settings.away_until(self.games.store, user_id, self.games.clock())

    async def away_days_used(self, user_id: str, year: int) -> float:
        low, high = _year_bounds(year)
        periods = await stored_settings.away_periods_between(self.games.store, user_id, low, high)
        return sum(days_in_year(starts, ends, year) for starts, ends in periods)

    async def away_allowance(self, guild_id: str | None) -> float:
        if guild_id is None:
            return DEFAULT_AWAY_DAYS
        days = await self.games.guild_setting(guild_id, "away_days")
        return float(days) if days is not None else DEFAULT_AWAY_DAYS

    async def _strictest_allowance(self, user_id: str, guild_id: str | None) -> tuple[float, str | None]:
        """The smallest allowance among the servers of the player's games in progress (and the server asked
        from): away mode covers every game, so it must fit every server's rule."""
        guilds = await stored_games.guilds_in_progress_of(self.games.store, user_id) | {guild_id}
        allowances = [(await self.away_allowance(guild), guild) for guild in guilds]
        return min(allowances, key=lambda pair: (pair[0], pair[1] != guild_id))

    async def away_text(self, user_id: str) -> str:
        """What ``/away`` with no option answers: whether the player is away, and their days left this year."""
        until = await self.away_until(user_id)
        year = _year_of(self.games.clock())
        allowance, _guild = await self._strictest_allowance(user_id, None)
        used = await self.away_days_used(user_id, year)
        state = f"You are away until <t:{int(until)}:f>." if until else "You are not away."
        return (
            f"{state} Away days used in {year}: {_days(used)} of {_days(allowance)}. "
            f"/away until date:<when> ({UNTIL_FORMS}) or /away off. {AWAY_RULE}"
        )

    # ---- commands -------------------------------------------------------------------------------------------
    async def set_away_allowance(self, guild_id: str | None, actor: Actor, days: float) -> str:
        if guild_id is None:
            raise HostError("The away allowance is a server's rule: set it in a channel of that server.")
        if not actor.can_manage_server:
            raise HostError("Only a member with Manage Server can change the away allowance.")
        if not 0 <= days <= MAX_AWAY_DAYS:
            raise HostError(f"The away allowance is between 0 and {MAX_AWAY_DAYS:g} days a year.")
        await self.games.put_setting("guild_settings", guild_id, "away_days", str(days))
        return f"Players of this server may now be away {_days(days)} days a calendar year."

    async def go_away(self, actor: Actor, until_text: str, guild_id: str | None = None) -> list[Delivery]:
        """Start (or change) the player's away period; the AI takes each of their seats until ``until`` (a date
        is read in the player's time zone, /settings time_zone)."""
        now = self.games.clock()
        zone = await stored_settings.time_zone(self.games.store, actor.user_id)
        until = parse_until(until_text, zone or "UTC")
        if until <= now + 60:
            raise HostError("That moment has passed: /away until takes a moment in the future.")
        running = await stored_settings.running_away_period(self.games.store, actor.user_id, now)
        starts = float(running["starts"]) if running else now  # a second /away until moves the running end
        if until < starts + MIN_AWAY_S:
            raise HostError(
                "Away mode is for being away: a spell lasts at least a day. Choose a moment at least 24 hours "
                "after it begins."
            )
        allowance, guild = await self._strictest_allowance(actor.user_id, guild_id)
        for year in range(_year_of(starts), _year_of(until) + 1):
            used = await self.away_days_used(actor.user_id, year)
            if running is not None:  # the running spell is counted again below, to its new end
                used -= days_in_year(float(running["starts"]), float(running["ends"]), year)
            wanted = days_in_year(starts, until, year)
            if used + wanted > allowance + 1e-9:
                where = "this server" if guild == guild_id else "a server where you play"
                raise HostError(
                    f"You have {_days(max(0.0, allowance - used))} away days left in {year} "
                    f"({_days(allowance)} a year on {where}); until <t:{int(until)}:f> needs {_days(wanted)}. "
                    "Choose an earlier date."
                )
        async with self.games.store.transaction() as db:
            if running is not None:
                await stored_settings.move_away_end(db, running["id"], until)
            else:
                await stored_settings.add_away_period(db, actor.user_id, now, until)
        deliveries: list[Delivery] = []
        for game_id in await self._games_of(actor.user_id):
            deliveries += await self._leave_seat(game_id, actor, until, keep=True)
        return deliveries

    async def come_back(self, actor: Actor) -> list[Delivery]:
        """``/away off``: the away period ends now and every seat the AI took for it is the player's again."""
        now = self.games.clock()
        if await self.away_until(actor.user_id) is None:
            raise HostError("You are not away. /away until date:<when> starts an away period.")
        async with self.games.store.transaction() as db:
            await stored_settings.end_away_periods(db, actor.user_id, now)
        deliveries: list[Delivery] = []
        for game_id in await self._games_of(actor.user_id):
            deliveries += await self._return_seat(game_id, actor.user_id)
        return deliveries

    async def cover_away_seats(self, game_id: int) -> list[Delivery]:
        """A game just started: the AI takes the seats of players who are away now."""
        info = await self.games.game_info(game_id)
        deliveries: list[Delivery] = []
        for seat in info.seats:
            if seat.user_id and not seat.is_ai:
                until = await self.away_until(seat.user_id)
                if until is not None:
                    deliveries += await self._leave_seat(game_id, Actor(seat.user_id, seat.name), until)
        return deliveries

    # ---- per game -------------------------------------------------------------------------------------------
    async def _games_of(self, user_id: str) -> list[int]:
        return await stored_games.games_in_progress_of(self.games.store, user_id)

    async def _leave_seat(
        self, game_id: int, actor: Actor, until: float, keep: bool = False
    ) -> list[Delivery]:
        """The player is away until ``until``: the AI takes their seat in this game. With ``keep`` (a player
        leaving, not a game starting while they are away), a decision already waiting for the seat stays
        theirs, and the AI takes the seat once it is answered (``step.hand_over_kept``)."""
        async with self.games.lock(game_id):
            live = await self.games.load(game_id)
            seat = next((s for s in live.seats if s.user_id == actor.user_id), None)
            if seat is None or live.row["status"] not in ("active", "paused"):
                return []
            waiting = live.game.pending(live.state).get(seat.seat) if live.state else None
            kept = keep and not seat.vacation and not seat.is_ai and waiting is not None
            level = self.games.stand_in_level(live)
            change = Change()
            if kept:  # the seat stays theirs for this one decision
                change.statements.append(stored_games.keep_seat_while_away(live.id, seat.seat))
                text = (
                    f"{seat.name} is away until <t:{int(until)}:f>. The decision waiting for them stays theirs; "
                    f"the AI (`{level}`) plays the ones after it."
                )
            elif seat.vacation:  # away already: only the end moves
                text = f"{seat.name} is away until <t:{int(until)}:f>."
            else:
                change.statements.append(self.games.hand_to_ai_sql(live, seat.seat, vacation=True))
                text = f"{seat.name} is away until <t:{int(until)}:f>: the AI ({level}) plays for them."
            change.statements += [
                stored_timers.clear_away_end(live.id, seat.seat),
                stored_timers.away_end(live.id, seat.seat, until),
            ]
            change.deliveries.append(telling.public(live, text, None))
            await self.games.store_change(live, live, change)
            self.games.timers_changed.set()
        return change.deliveries + await self.play.run_ai(game_id)

    async def _return_seat(self, game_id: int, user_id: str) -> list[Delivery]:
        async with self.games.lock(game_id):
            live = await self.games.load(game_id)
            change = self._return_change(live, user_id)
            if change is None:
                return []
            await self.games.store_change(live, live, change)
            seat = next(s.seat for s in live.seats if s.user_id == user_id)
        return change.deliveries + await self._prompt_returning(game_id, seat)

    def _return_change(self, live: Live, user_id: str) -> Change | None:
        seat = next((s for s in live.seats if s.user_id == user_id and s.vacation), None)
        if seat is None:
            return None
        change = Change()
        change.statements += [
            stored_games.return_from_away(live.id, seat.seat),
            stored_timers.clear_away_end(live.id, seat.seat),
        ]
        change.deliveries.append(
            telling.public(live, f"{seat.name} is back and plays their seat again.", None)
        )
        return change

    async def away_ended(self, live: Live, timer: dict[str, Any]) -> list[Delivery]:
        """The ``away_end`` timer of one game: the period is over, the seat is the player's again."""
        seat = live.seats[timer["seat"]] if 0 <= timer["seat"] < len(live.seats) else None
        change = self._return_change(live, seat.user_id) if seat and seat.user_id else None
        if change is None:
            return []
        await self.games.store_change(live, live, change)
        return change.deliveries

    async def _prompt_returning(self, game_id: int, seat: int) -> list[Delivery]:
        """The returning player's open decision, by DM, as for anyone taking a seat."""
        async with self.games.lock(game_id):
            live = await self.games.load(game_id)
            decision = live.game.pending(live.state).get(seat) if live.row["status"] == "active" else None
            if decision is None:
                return []
            change = Change()
            private = telling.private(
                live,
                seat,
                f"{live.game.title} #{live.id}: welcome back, the game waits for you.",
                prompt=self.games.prompt_for(live, seat, decision),
            )
            if private:
                change.deliveries.append(private)
            await self.games.store_change(live, live, change)
        return change.deliveries
