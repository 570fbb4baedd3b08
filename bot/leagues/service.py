"""The league service over the host (issue 45): sign-up, start, rounds, drops, standings. No discord here.

A league lives in one server channel. ``/league new`` opens its sign-up; players join (a button or
``/league join``) and may leave until the start. ``start`` pairs round 1 (``bot.leagues.pairing``) and schedules
the round's ``open`` task; the league loop (``run_tasks``, driven by the Discord cog's loop or by tests) opens
every table of the round at once: a thread of the league's channel (opened by the front-end through the
``ThreadOpener`` it passes), a game in it with the table's players seated in the pairing's order, the league's
deadline and options, started and rated as usual. Each table's step is stored as it is done
(paired -> thread -> created -> started), so a restart halfway resumes each table where it stopped: a game
already in a table's thread is adopted, never created twice.

A game's end scores its table (``bot.leagues.scoring``, the host's one hook); the round's last score schedules
the ``advance`` task, which pairs and opens the next round or, after the last round, ends the league. Tasks
are claimed as timers are (``bot.storage.leagues.claim_tasks``): several processes never do one task at once.

Withdrawals and drops: a player who drops (``/league drop``), or misses two deadlines in the league's games
(counted from the stored games, ``bot.storage.leagues.seat_misses``), is out of later pairings and resigns
every league game of theirs still running through the host's resign path (a two-player game ends, the others
go on with the AI in the seat); such a game scores 0 for them and the win for their opponents. A player who
drops before their table's game exists is left out of it: the others play if they are still at least the
game's ``min_players`` (seated in the pairing's order), else they score the table as a win without playing.

Threads: before Discord is asked for a table's thread, the table records that it is opening one under a name
unique to the league, round and table (``thread_name``); a crash before the thread's id was stored leaves the
table in that step, and the next attempt asks the front-end to adopt the active thread of that name in the
channel instead of opening a second one.

Notices: every message a league posts in its channel ("round 2 is open", "the league is over", the sign-up
message's edit when the league starts) is an outbox row (``bot.storage.leagues.add_notice``) written in the
transaction that makes it true, and posted by the front-end's sender like the games' messages: a crash between
the commit and the post leaves it to be posted once after the restart.

Seasons: ``new_season`` opens the next season of a finished ``divisions`` league: the same game, format, options
and rounds, its divisions from the finished season's final standings through ``promote_relegate`` (the top of
each division up one, the bottom down one), its entrants those of the last season who did not drop, and sign-up
open for newcomers, who start in the bottom division (``season_divisions``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from i18n import DEFAULT, localize, translate
from render.standings import StandingsView
from rules.engine import Game, RulesError, get_game

from ..host import Host
from ..hosting.core import MAX_DEADLINE_H, MIN_DEADLINE_H
from ..models import LEAGUE_KIND, Actor, Delivery, HostError
from ..ratings import pop_table_flags
from ..storage import Connection, Store
from ..storage import leagues as repo
from .pairing import (
    Bye,
    Pairing,
    Played,
    divisions,
    pair_elimination,
    pair_swiss,
    promote_relegate,
    round_robin,
    round_robin_rounds,
)
from .scoring import finish_table, table_points
from .standings import Standing, standing_row, standings

log = logging.getLogger(__name__)

SWISS, ROUND_ROBIN, ELIMINATION, DIVISIONS = "swiss", "round-robin", "elimination", "divisions"
FORMATS = (SWISS, ROUND_ROBIN, ELIMINATION, DIVISIONS)
#: the kind of the task that opens a round's tables
OPEN = "open"
MAX_ROUNDS = 30
MAX_ENTRANTS = 256
#: deadline misses in a league's games after which a player is dropped
MISSES_BEFORE_DROP = 2
#: players per division (``divisions`` format); each division plays a round robin (or Swiss pods)
DIVISION_SIZE = 8
#: after a table failed to open (Discord refused a thread, say), try again this much later
RETRY_S = 60.0
#: why a player left a running league
WITHDREW, REMOVED, DEADLINES = "withdrew", "removed", "deadlines"

#: a dropped player's line in /league status, by why they left
DROP_LINES = {
    WITHDREW: "{name} withdrew in round {round}.",
    REMOVED: "{name} was dropped by a manager in round {round}.",
    DEADLINES: "{name} was dropped for two missed deadlines in round {round}.",
}
#: Discord's longest thread name
THREAD_NAME = 100
#: a season's number at the end of its league's name
#: the longest league name (Discord's thread names, which hold it with the round and table, stop at 100)
NAME_LIMIT = 60


def league_name(given: str | None) -> str | None:
    """A name a manager gave, on one line and within ``NAME_LIMIT`` (None when blank).

    >>> league_name("  Autumn\\n cup ")
    'Autumn cup'
    """
    if given is None:
        return None
    return " ".join(given.split())[:NAME_LIMIT] or None


#: opens a thread in a channel (id, name) and returns its id (the front-end's job: Discord in the bot); with
#: ``adopt`` true, a thread of that name may have been opened before a crash: an active one in the channel is
#: returned instead of opening another
ThreadOpener = Callable[[str, str, bool], Awaitable[str]]

#: ``/league help``: how leagues are played (the README's "Leagues" section says the same at more length)
LEAGUE_HELP = """**Leagues**
Formats: `swiss` (players with equal scores meet, no rematch while one can be avoided; 3-4 player games in pods), `round-robin` (everyone meets everyone once), `elimination` (winners go on), `divisions` (by rating, each of them a league of its own).
Each round's games open at once, each in its own thread, with the league's deadline and options, rated as usual. A bye scores as a win.
Standings: points, then Buchholz (the sum of your opponents' points), then Sonneborn-Berger (the points of the opponents you beat, and half of those you drew with), then wins.
A player who misses two deadlines is dropped; a player who withdraws (/league drop) forfeits their running games. When a player drops before their table's game exists, the others play without them if the game allows that few players; otherwise they score the table as a win.
After a `divisions` league, /league season opens the next season: the best player of each of the divisions goes up, the last one down; newcomers start in the lowest of the divisions."""


@dataclass
class LeagueWork:
    """What a pass of the league loop did: deliveries to post (the games' messages and the league's notices,
    all outbox rows already stored)."""

    deliveries: list[Delivery] = field(default_factory=list)

    def add(self, other: LeagueWork) -> None:
        self.deliveries += other.deliveries


@dataclass(frozen=True)
class LeagueInfo:
    league: repo.LeagueRow
    entrants: tuple[repo.EntrantRow, ...]
    title: str  # the game's title

    @property
    def id(self) -> int:
        return self.league.id

    def signup_text(self) -> str:
        """The sign-up message: what the league is and who is in."""
        league = self.league
        hours = league.deadline_seconds / 3600
        lines = [
            f"**{league.name}**: {self.title}, `{league.format}`",
            f"Rounds: {league.rounds}",
            f"Players at a table: {league.pod}",
            f"Decision deadline: {hours:g} h",
        ]
        if league.options:
            lines.append("Options: " + ", ".join(f"`{k}={v}`" for k, v in league.options.items()))
        if league.previous_id is not None:
            lines.append(
                f"Season {league.season}: divisions from the last season's standings (the best of each go up, "
                "the last down); newcomers start in the lowest of the divisions."
            )
        names = [entrant.name for entrant in self.entrants if not entrant.dropped]
        lines.append(f"Signed up ({len(names)}): {', '.join(names)}" if names else "Signed up: nobody yet")
        if league.status == repo.SIGNUP:
            lines.append("Join with the button or /league join; a manager starts it with /league start.")
        elif league.status == repo.RUNNING:
            lines.append("The league has started: /league pairings shows the round's games.")
        return "\n".join(lines)


def parse_deadline(text: str) -> float:
    """A deadline typed as hours (``36``, ``36h``) or days (``2d``), in hours; refused outside 1 h to 7 days."""
    value = text.strip().lower().replace(" ", "")
    scale = 24.0 if value.endswith("d") else 1.0
    number = value.rstrip("dh")
    try:
        hours = float(number) * scale
    except ValueError:
        raise HostError("Write the deadline in hours or days, for example `24`, `36h` or `2d`.") from None
    if not math.isfinite(hours) or not MIN_DEADLINE_H <= hours <= MAX_DEADLINE_H:
        raise HostError("The decision deadline must be between 1 hour and 7 days (168 hours).")
    return hours


def _check_options(game: Game, options: dict[str, str]) -> None:
    """Refuse options the game's tables would refuse, now rather than at the first round."""
    rules = dict(options)
    rules.pop("window", None)
    rules.pop("posts", None)
    pop_table_flags(rules)
    try:
        game.resolve_options(rules)
    except RulesError as error:
        raise HostError(str(error)) from None


def _check_shape(game: Game, format_: str, rounds: int, pod: int) -> None:
    if format_ not in FORMATS:
        formats = ", ".join(f"`{name}`" for name in FORMATS)
        raise HostError(f"The format is one of {formats}.")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise HostError(f"Rounds in a league: 1 to {MAX_ROUNDS}.")
    if not game.min_players <= pod <= game.max_players:
        raise HostError(
            f"{game.title}: players at a table from {game.min_players} to {game.max_players}; "
            "choose a table size between them."
        )
    if format_ == ROUND_ROBIN and pod != 2:
        raise HostError("A `round-robin` pairs two-player games; play a game of 3 or more seats as `swiss`.")


def thread_name(league: repo.LeagueRow, table: repo.TableRow) -> str:
    """The table's thread name, unique to the league, round and table (a thread found by it after a crash is
    the table's), within Discord's limit: the league's name is what gets cut.

    >>> row = repo.LeagueRow(3, "g", "c", "Some game swiss league #3", "some-game", "swiss", 3, 2, 3600, {},
    ...                      "running", 2, "u", None, None)
    >>> thread_name(row, repo.TableRow(3, 2, 1, ("a", "b"), "paired", None, None, None, False))
    'Some game swiss league #3: round 2, table 1'
    """
    suffix = f": round {table.round}, table {table.table_no}"
    return league.name[: THREAD_NAME - len(suffix)] + suffix


def season_divisions(
    entrants: Sequence[repo.EntrantRow], ratings: Mapping[str, float], smallest: int
) -> list[list[str]]:
    """A later season's divisions, best first: each returning player in the division the season before placed
    them in (``promote_relegate``), in sign-up order; newcomers (no division) by rating into the bottom
    division, or, when they fill half a division (``DIVISION_SIZE``) or more, into divisions of their own below
    it. A division left with fewer than ``smallest`` players (returning players who left) joins the one above.

    >>> E = lambda user, division: repo.EntrantRow(user, user, 0, False, None, None, division)
    >>> season_divisions([E("a", 1), E("b", 1), E("c", 2), E("d", 2), E("n", None)], {}, 2)
    [['a', 'b'], ['c', 'd', 'n']]
    """
    placed: dict[int, list[str]] = {}
    for entrant in entrants:
        if entrant.division is not None:
            placed.setdefault(entrant.division, []).append(entrant.user_id)
    groups = [placed[number] for number in sorted(placed)]
    newcomers = [entrant.user_id for entrant in entrants if entrant.division is None]
    if newcomers:
        below = divisions(newcomers, ratings, max(2, DIVISION_SIZE)) if len(newcomers) > 1 else [newcomers]
        if groups and len(below[0]) * 2 < DIVISION_SIZE:
            groups[-1].extend(below.pop(0))
        groups += below
    merged: list[list[str]] = []
    for group in groups:
        if merged and len(group) < smallest:
            merged[-1].extend(group)
        else:
            merged.append(list(group))
    if len(merged) > 1 and len(merged[0]) < smallest:
        merged[1][:0] = merged.pop(0)
    return merged


class LeagueService:
    """Leagues over one ``Host`` (see the module docstring). Every method takes untrusted input and refuses
    it with a ``HostError`` sentence."""

    def __init__(self, host: Host) -> None:
        self.host = host

    @property
    def store(self) -> Store:
        return self.host.store

    # ---- sign-up -------------------------------------------------------------------------------------------
    async def new(
        self,
        guild_id: str,
        channel_id: str,
        actor: Actor,
        game_key: str,
        format_: str,
        rounds: int,
        deadline: str,
        pod: int | None = None,
        options: dict[str, str] | None = None,
        name: str | None = None,
        language: str = DEFAULT,
    ) -> LeagueInfo:
        """Open a league's sign-up in the channel (the caller checked the actor may manage leagues). Its name is
        ``name`` or, when none is given, made in the server's ``language`` (a name is shown as it is stored, like a
        player's): "Nim swiss league #3"."""
        try:
            game = get_game(game_key)
        except RulesError as error:
            raise HostError(str(error)) from None
        pod = pod or game.min_players
        _check_shape(game, format_, rounds, pod)
        _check_options(game, dict(options or {}))
        hours = parse_deadline(deadline)
        if await repo.leagues_in_channel(self.store, channel_id, (repo.SIGNUP, repo.RUNNING)):
            raise HostError("This channel already has a league running or signing up (/league status).")
        number = await repo.league_count_in_guild(self.store, guild_id) + 1
        name = league_name(name) or translate(
            language, "{title} {format} league #{number}", title=game.title, format=format_, number=number
        )
        new = repo.NewLeague(
            guild_id,
            channel_id,
            name,
            game.key,
            format_,
            rounds,
            pod,
            int(hours * 3600),
            dict(options or {}),
            actor.user_id,
        )
        async with self.store.transaction() as db:
            league_id = await repo.insert_league(db, new, self.host.clock())
        return await self.info(league_id)

    async def set_signup_message(self, league_id: int, message_id: str) -> None:
        """Remember the sign-up message the front-end posted (refreshed on joins, edited when it starts)."""
        async with self.store.transaction() as db:
            await repo.set_signup_message(db, league_id, message_id)

    async def new_season(self, channel_id: str, actor: Actor, language: str = DEFAULT) -> LeagueInfo:
        """``/league season``: the next season of the channel's finished ``divisions`` league, its sign-up open
        (the caller checked the actor may manage leagues); see the module docstring."""
        league = await self.in_channel(channel_id)
        if league.previous_id is not None and league.status == repo.SIGNUP:
            raise HostError("The next season of this league is open already.")
        if league.format != DIVISIONS or league.status != repo.DONE:
            raise HostError("A new season follows a `divisions` league that has finished (/league status).")
        if await repo.next_season(self.store, league.id) is not None:
            raise HostError("The next season of this league is open already.")
        names: dict[str, str] = {}
        orders = []
        for child in await repo.children(self.store, league.id):
            names.update(await self._names(child.id))
            orders.append([line.player for line in await self.standings(child.id) if not line.dropped])
        season = league.season + 1
        new = repo.NewLeague(
            league.guild_id,
            league.channel_id,
            translate(
                language, "{name}, season {season}", name=await self._first_name(league), season=season
            ),
            league.kind,
            league.format,
            league.rounds,
            league.pod,
            league.deadline_seconds,
            dict(league.options),
            actor.user_id,
            season=season,
            previous_id=league.id,
        )
        async with self.store.transaction() as db:
            league_id = await repo.insert_league(db, new, self.host.clock())
            for number, group in enumerate(promote_relegate(orders), 1):
                for user in group:
                    await repo.add_entrant(db, league_id, user, names[user], number)
        return await self.info(league_id)

    async def _first_name(self, league: repo.LeagueRow) -> str:
        """The name of the league's first season (every later season is named after it)."""
        while league.previous_id is not None:
            previous = await repo.league(self.store, league.previous_id)
            if previous is None:
                break
            league = previous
        return league.name

    async def info(self, league_id: int) -> LeagueInfo:
        league = await repo.league(self.store, league_id)
        if league is None:
            raise HostError(f"There is no league #{league_id}.")
        entrants = await repo.entrants(self.store, league_id)
        return LeagueInfo(league, tuple(entrants), get_game(league.kind).title)

    async def in_channel(self, channel_id: str) -> repo.LeagueRow:
        """The channel's league: the one signing up or running, else the last one that ended."""
        found = await repo.leagues_in_channel(
            self.store, channel_id, (repo.SIGNUP, repo.RUNNING, repo.DONE, repo.CANCELLED)
        )
        found = [league for league in found if league.parent_id is None]  # divisions answer through theirs
        live = [league for league in found if league.status in (repo.SIGNUP, repo.RUNNING)]
        if not found:
            raise HostError("This channel has no league. A manager opens one with /league new.")
        return (live or found)[0]

    async def join(self, channel_id: str, actor: Actor) -> LeagueInfo:
        return await self.join_league((await self.in_channel(channel_id)).id, actor)

    async def join_league(self, league_id: int, actor: Actor) -> LeagueInfo:
        """Sign up (the sign-up button carries the league's id)."""
        league = await repo.league(self.store, league_id)
        if league is None or league.status != repo.SIGNUP:
            raise HostError("This league's sign-up is closed.")
        if len(await repo.entrants(self.store, league_id)) >= MAX_ENTRANTS:
            raise HostError(f"This league is full (players at most: {MAX_ENTRANTS}).")
        async with self.store.transaction() as db:
            added = await repo.add_entrant(db, league_id, actor.user_id, actor.name)
        if not added:
            raise HostError("You have already signed up for this league.")
        return await self.info(league_id)

    async def leave(self, channel_id: str, actor: Actor) -> LeagueInfo:
        league = await self.in_channel(channel_id)
        if league.status != repo.SIGNUP:
            raise HostError("The league has started: /league drop withdraws you from it.")
        async with self.store.transaction() as db:
            removed = await repo.remove_entrant(db, league.id, actor.user_id)
        if not removed:
            raise HostError("You have not signed up for this league.")
        return await self.info(league.id)

    # ---- start and rounds ----------------------------------------------------------------------------------
    async def start(self, channel_id: str) -> tuple[LeagueInfo, list[Delivery]]:
        """Close the sign-up and pair round 1 (the caller checked the actor may manage leagues); the round's
        tables open on the league loop's next pass. Returns the league and the sign-up message's edit (an
        outbox row stored with the start: its Join button goes, it says the league started)."""
        league = await self.in_channel(channel_id)
        if league.status != repo.SIGNUP:
            raise HostError("This league has started already.")
        players = [entrant.user_id for entrant in await repo.entrants(self.store, league.id)]
        if len(players) < max(2, league.pod):
            raise HostError(
                f"Too few players for the league: at least {max(2, league.pod)} needed, signed up: {len(players)}."
            )
        notices = await self._signup_closed(league)
        if league.format == DIVISIONS:
            await self._start_divisions(league, players, notices)
            return await self.info(league.id), notices
        rounds = await self._rounds(league, players)
        pairing = await self._pair(league, 1, players, [], [])
        if not await self._store_round(league, pairing, rounds=rounds, notices=notices):
            notices = []
        return await self.info(league.id), notices

    async def _signup_closed(self, league: repo.LeagueRow) -> list[Delivery]:
        """The sign-up message's edit once the league starts (none when its message is unknown)."""
        if league.signup_message_id is None:
            return []
        info = await self.info(league.id)
        started = replace(info, league=replace(info.league, status=repo.RUNNING))
        return [await self._notice(league, started.signup_text(), edit_message=league.signup_message_id)]

    async def _notice(self, league: repo.LeagueRow, text: str, edit_message: str | None = None) -> Delivery:
        """A league message for its channel, in the server's language; stored by ``_store_notices``."""
        language = await self.host.guild_language(league.guild_id)
        return Delivery(
            0,
            0,
            league.kind,
            LEAGUE_KIND,
            localize(text, language),
            channel_id=league.channel_id,
            edit_key=edit_message,
        )

    async def _store_notices(self, db: Connection, notices: Sequence[Delivery]) -> None:
        """Write the notices as outbox rows in the caller's transaction (each gets its row's id)."""
        for notice in notices:
            notice.id = await repo.add_notice(db, notice.to_payload(), self.host.clock(), self.host.worker)

    async def _rounds(self, league: repo.LeagueRow, players: Sequence[str]) -> int:
        """Rounds the format needs: a round robin's every pair once, an elimination's way to one champion."""
        if league.format == ROUND_ROBIN:
            return round_robin_rounds(len(players))
        if league.format == ELIMINATION:
            return max(1, math.ceil(math.log(len(players), league.pod)))
        return league.rounds

    async def _start_divisions(
        self, league: repo.LeagueRow, players: list[str], notices: Sequence[Delivery] = ()
    ) -> None:
        """Divisions by rating (a later season: by the season before, ``season_divisions``): each is a league of
        its own (round robin for two-player games, else Swiss pods) under this one, started at once; this one
        ends when they all have."""
        entrants = await repo.entrants(self.store, league.id)
        ratings = await repo.ratings(self.store, league.kind, players)
        if league.previous_id is None:
            groups = divisions(players, ratings, DIVISION_SIZE)
        else:
            groups = season_divisions(entrants, ratings, max(2, league.pod))
        names = {entrant.user_id: entrant.name for entrant in entrants}
        format_ = ROUND_ROBIN if league.pod == 2 else SWISS
        async with self.store.transaction() as db:
            if not await repo.set_status(db, league.id, repo.RUNNING, repo.SIGNUP):
                raise HostError("This league has started already.")
            await self._store_notices(db, notices)
            for number, group in enumerate(groups, 1):
                child = repo.NewLeague(
                    league.guild_id,
                    league.channel_id,
                    f"{league.name}, division {number}",
                    league.kind,
                    format_,
                    league.rounds,
                    league.pod,
                    league.deadline_seconds,
                    league.options,
                    league.creator_id,
                    league.id,
                    number,
                )
                child_id = await repo.insert_league(db, child, self.host.clock())
                for user in group:
                    await repo.add_entrant(db, child_id, user, names[user])
        for child_row in await repo.children(self.store, league.id):
            players_in = [entrant.user_id for entrant in await repo.entrants(self.store, child_row.id)]
            rounds = await self._rounds(child_row, players_in)
            await self._store_round(
                child_row, await self._pair(child_row, 1, players_in, [], []), rounds=rounds
            )

    async def _history(self, league_id: int) -> tuple[list[Played], list[Bye]]:
        played = [
            Played(table.round, table.seats, table.points, table.forfeit)
            for table in await repo.tables(self.store, league_id)
            if table.points is not None
        ]
        byes = [Bye(bye.round, bye.user_id, bye.points) for bye in await repo.byes(self.store, league_id)]
        return played, byes

    async def _pair(
        self,
        league: repo.LeagueRow,
        round_number: int,
        players: Sequence[str],
        played: Sequence[Played],
        byes: Sequence[Bye],
    ) -> Pairing:
        """The round's pairing by the league's format, from the players still in and the league so far."""
        ratings = await repo.ratings(self.store, league.kind, players)
        if league.format == ROUND_ROBIN:
            everyone = [entrant.user_id for entrant in await repo.entrants(self.store, league.id)]
            return round_robin(
                everyone, round_number
            )  # the fixed schedule; a dropped player's games are forfeits
        if league.format == ELIMINATION:
            return pair_elimination(players, played, round=round_number, pod=league.pod, ratings=ratings)
        minimum = get_game(league.kind).min_players if league.pod > 2 else None
        return pair_swiss(
            players, played, byes, round=round_number, pod=league.pod, min_pod=minimum, ratings=ratings
        )

    async def _store_round(
        self,
        league: repo.LeagueRow,
        pairing: Pairing,
        rounds: int | None = None,
        notices: Sequence[Delivery] = (),
    ) -> bool:
        """Store a round's tables and byes (and ``notices``) and schedule their opening, claimed for this process
        (which opens them at once), once: False when another process stored this round first."""
        now = self.host.clock()
        async with self.store.transaction() as db:
            if not await repo.begin_round(db, league.id, pairing.round):
                return False
            if rounds is not None:
                await repo.set_rounds(db, league.id, rounds)
            await repo.insert_round(
                db, league.id, pairing.round, pairing.tables, [(p, 1.0) for p in pairing.byes]
            )
            await repo.add_task(db, league.id, OPEN, pairing.round, now, claimed_by=self.host.worker)
            await self._store_notices(db, notices)
        return True

    # ---- the league loop -----------------------------------------------------------------------------------
    async def run_tasks(self, open_thread: ThreadOpener) -> LeagueWork:
        """Do every due league task this process can claim: open a round's tables, pair the next round.
        Tasks a pass schedules (the next round's opening) are done in the same call."""
        work = LeagueWork()
        for _ in range(8):  # a bound: each pass may schedule the next step of a league
            claimed = await repo.claim_tasks(self.store, self.host.worker, self.host.clock())
            if not claimed:
                break
            for task in claimed:
                work.add(await self._run_task(task, open_thread))
        return work

    async def _run_task(self, task: dict[str, object], open_thread: ThreadOpener) -> LeagueWork:
        task_id, league_id, round_number = (
            int(str(task["id"])),
            int(str(task["league_id"])),
            int(str(task["round"])),
        )
        league = await repo.league(self.store, league_id)
        try:
            if league is None or league.status != repo.RUNNING:
                work = LeagueWork()
            elif task["kind"] == OPEN:
                work = await self._open_round(league, round_number, open_thread)
            else:
                work = await self._advance(league, round_number)
        except Exception:
            log.exception("league %s task %s failed; retried in %.0f s", league_id, task["kind"], RETRY_S)
            await repo.release_task(self.store, task_id, self.host.clock() + RETRY_S)
            return LeagueWork()
        await repo.finish_task(self.store, task_id, self.host.worker)
        return work

    async def _open_round(
        self, league: repo.LeagueRow, round_number: int, open_thread: ThreadOpener
    ) -> LeagueWork:
        work = LeagueWork()
        for table in await repo.tables(self.store, league.id, round_number):
            work.deliveries += await self._open_table(league, table, open_thread)
        waiting = (repo.PAIRED, repo.OPENING, repo.THREAD)
        if any(table.step in waiting for table in await repo.tables(self.store, league.id, round_number)):
            raise RuntimeError("a table of the round is still without its game")
        opened = await self._pairings(league, round_number)
        notice = await self._notice(league, f"{opened}\nThe round's games are open.")
        async with self.store.transaction() as db:
            if await repo.announce_round(db, league.id, round_number):  # once, whoever gets here again
                await self._store_notices(db, [notice])
                work.deliveries.append(notice)
        return work

    async def _open_table(
        self, league: repo.LeagueRow, table: repo.TableRow, open_thread: ThreadOpener
    ) -> list[Delivery]:
        """Take one table through its steps from wherever it stopped (see the module docstring)."""
        dropped = await self._dropped(league.id)
        before_game = (repo.PAIRED, repo.OPENING, repo.THREAD)
        if table.step in before_game and not self._playable(league, table, dropped):
            await self._forfeit_unplayed(table, dropped)
            return []
        if table.step in (repo.PAIRED, repo.OPENING):
            table = await self._open_thread(league, table, open_thread)
        if table.step == repo.THREAD:
            await self._create_game(league, table, dropped)
            table = await self._table(table)
        if table.step == repo.CREATED:
            return await self._start_game(table, dropped)
        return []

    @staticmethod
    def _playable(league: repo.LeagueRow, table: repo.TableRow, dropped: set[str]) -> bool:
        """Whether the table's players still in are enough for its game."""
        left = [user for user in table.seats if user not in dropped]
        return len(left) >= get_game(league.kind).min_players

    async def _open_thread(
        self, league: repo.LeagueRow, table: repo.TableRow, open_thread: ThreadOpener
    ) -> repo.TableRow:
        """The table's thread: recorded as opening before Discord is asked, so that a crash in between leaves a
        thread the next attempt adopts (found by its name) rather than an empty one beside a second."""
        resuming = table.step == repo.OPENING
        if not resuming:
            async with self.store.transaction() as db:
                await repo.table_opening(db, table)
        thread = await open_thread(league.channel_id, thread_name(league, table), resuming)
        async with self.store.transaction() as db:
            await repo.table_opened(db, table, thread)
        return await self._table(table)

    async def _table(self, table: repo.TableRow) -> repo.TableRow:
        """The table as stored now (another process may have taken a step meanwhile)."""
        for fresh in await repo.tables(self.store, table.league_id, table.round):
            if fresh.table_no == table.table_no:
                return fresh
        raise RuntimeError("the league table is gone")

    async def _names(self, league_id: int) -> dict[str, str]:
        return {entrant.user_id: entrant.name for entrant in await repo.entrants(self.store, league_id)}

    async def _dropped(self, league_id: int) -> set[str]:
        return {entrant.user_id for entrant in await repo.entrants(self.store, league_id) if entrant.dropped}

    async def _create_game(self, league: repo.LeagueRow, table: repo.TableRow, dropped: set[str]) -> None:
        """The table's game in its thread, its players seated in the pairing's order (without those who dropped
        before it was made); a game found there (made before a restart) is adopted and its missing seats
        filled."""
        assert table.thread_id is not None
        names = await self._names(league.id)
        players = [user for user in table.seats if user not in dropped]
        actors = [Actor(user, names.get(user, user)) for user in players]
        info = await self.host.game_in_channel(table.thread_id)
        if info is None:
            info = await self.host.create_game(
                league.guild_id,
                table.thread_id,
                actors[0],
                league.kind,
                dict(league.options),
                league.deadline_seconds / 3600,
            )
        for actor in actors:
            if info.seat_of(actor.user_id) is None and info.status == "lobby":
                info = await self.host.join(table.thread_id, actor)
        fewer = players if len(players) < len(table.seats) else None
        async with self.store.transaction() as db:
            await repo.table_created(db, table, info.game_id, fewer)

    async def _start_game(self, table: repo.TableRow, dropped: set[str]) -> list[Delivery]:
        assert table.thread_id is not None and table.game_id is not None
        info = await self.host.game_info(table.game_id)
        deliveries: list[Delivery] = []
        if info.status == "lobby":
            first = info.seats[0]
            deliveries += await self.host.start(
                table.thread_id, Actor(first.user_id or "", first.name), "given"
            )
        async with self.store.transaction() as db:
            await repo.table_started(db, table)
        for user in table.played_seats:  # dropped while the table was opening: their seat is resigned at once
            if user in dropped:
                deliveries += await self._resign(table, user)
        return deliveries

    async def _forfeit_unplayed(self, table: repo.TableRow, dropped: set[str]) -> None:
        """A table left with too few players for its game (players dropped before it was made) is scored without
        a game: the players still in share the win."""
        forfeited = [seat for seat, user in enumerate(table.seats) if user in dropped]
        points = table_points(len(table.seats), [], False, forfeited)
        async with self.store.transaction() as db:
            await finish_table(db, table, points, True, self.host.clock(), self.host.worker)

    async def _advance(self, league: repo.LeagueRow, round_number: int) -> LeagueWork:
        """The round is scored: drop players over the deadline limit, then pair the next round or end."""
        work = LeagueWork()
        work.deliveries += await self.check_misses(league)
        if league.round != round_number or await repo.unfinished_tables(self.store, league.id, round_number):
            return work
        played, byes = await self._history(league.id)
        players = [e.user_id for e in await repo.entrants(self.store, league.id) if not e.dropped]
        pairing = None
        if round_number < league.rounds and len(players) >= 2:
            pairing = await self._pair(league, round_number + 1, players, played, byes)
        if pairing is None or not pairing.tables:
            work.deliveries += await self._finish(league)
            return work
        await self._store_round(league, pairing)
        return work

    async def _finish(self, league: repo.LeagueRow) -> list[Delivery]:
        notices = [await self._notice(league, f"{league.name} is over. /league standings")]
        async with self.store.transaction() as db:
            if not await repo.set_status(db, league.id, repo.DONE, repo.RUNNING):
                return []
            await self._store_notices(db, notices)
        if league.parent_id is not None:
            siblings = await repo.children(self.store, league.parent_id)
            if all(child.status != repo.RUNNING for child in siblings):
                async with self.store.transaction() as db:
                    await repo.set_status(db, league.parent_id, repo.DONE, repo.RUNNING)
        return notices

    # ---- drops ---------------------------------------------------------------------------------------------
    async def drop(
        self, channel_id: str, actor: Actor, target: Actor | None = None, may_manage: bool = False
    ) -> list[Delivery]:
        """``/league drop``: withdraw oneself, or (a manager) someone else; their running games are resigned."""
        league = await self._running_league_of(channel_id, (target or actor).user_id)
        if target is not None and target.user_id != actor.user_id and not may_manage:
            raise HostError("Only a league manager may drop another player.")
        who = target or actor
        reason = WITHDREW if who.user_id == actor.user_id else REMOVED
        return await self._drop(league, who.user_id, reason)

    async def _running_league_of(self, channel_id: str, user_id: str) -> repo.LeagueRow:
        league = await self.in_channel(channel_id)
        if league.format == DIVISIONS:
            for child in await repo.children(self.store, league.id):
                if any(e.user_id == user_id for e in await repo.entrants(self.store, child.id)):
                    league = child
        if league.status != repo.RUNNING:
            raise HostError(
                "The league is not running: before the start, /league leave takes you off the list."
            )
        if not any(
            e.user_id == user_id and not e.dropped for e in await repo.entrants(self.store, league.id)
        ):
            raise HostError("That player is not in this league (or has been dropped already).")
        return league

    async def _drop(self, league: repo.LeagueRow, user_id: str, reason: str) -> list[Delivery]:
        async with self.store.transaction() as db:
            if not await repo.drop_entrant(db, league.id, user_id, reason, league.round):
                return []
        deliveries: list[Delivery] = []
        for table in await repo.tables(self.store, league.id, league.round):
            if user_id in table.seats and table.step == repo.STARTED:
                deliveries += await self._resign(table, user_id)
        return deliveries

    async def _resign(self, table: repo.TableRow, user_id: str) -> list[Delivery]:
        """Resign the player's seat through the host (its game scores the forfeit when it ends)."""
        assert table.thread_id is not None
        names = await self._names(table.league_id)
        try:
            return await self.host.resign(table.thread_id, Actor(user_id, names.get(user_id, user_id)))
        except HostError as error:  # the game has ended meanwhile, or the seat was resigned already
            log.info("league %s: no resignation of %s: %s", table.league_id, user_id, error)
            return []

    async def check_misses(self, league: repo.LeagueRow) -> list[Delivery]:
        """Drop every player of a running league who missed ``MISSES_BEFORE_DROP`` deadlines in its games."""
        misses = await repo.seat_misses(self.store, league.id)
        deliveries: list[Delivery] = []
        for entrant in await repo.entrants(self.store, league.id):
            if not entrant.dropped and misses.get(entrant.user_id, 0) >= MISSES_BEFORE_DROP:
                deliveries += await self._drop(league, entrant.user_id, DEADLINES)
        return deliveries

    async def sweep(self) -> list[Delivery]:
        """``check_misses`` and ``score_abandoned`` over every running league (the league loop runs it now and
        then)."""
        deliveries: list[Delivery] = []
        for league in await repo.running_leagues(self.store):
            deliveries += await self.check_misses(league)
            await self.score_abandoned(league)
        return deliveries

    async def score_abandoned(self, league: repo.LeagueRow) -> None:
        """A league game its players abandoned (``/game abandon``) records no result: it scores as a draw, so the
        round can end."""
        for table in await repo.tables(self.store, league.id, league.round):
            if table.step != repo.STARTED or table.game_id is None:
                continue
            if await repo.game_status(self.store, table.game_id) != "abandoned":
                continue
            absent = [seat for seat, user in enumerate(table.seats) if user not in table.played_seats]
            points = table_points(len(table.seats), [], True, absent)
            async with self.store.transaction() as db:
                ended = await finish_table(
                    db, table, points, bool(absent), self.host.clock(), self.host.worker
                )
            if ended:  # the round's last table: the league loop goes on at once
                self.host.league_work.set()

    # ---- what players see ----------------------------------------------------------------------------------
    async def standings(self, league_id: int) -> list[Standing]:
        played, byes = await self._history(league_id)
        entrants = await repo.entrants(self.store, league_id)
        dropped = {entrant.user_id for entrant in entrants if entrant.dropped}
        return standings([entrant.user_id for entrant in entrants], played, byes, dropped)

    async def rounds_done(self, league: repo.LeagueRow) -> int:
        """Rounds whose every table is scored."""
        if league.round and not await repo.unfinished_tables(self.store, league.id, league.round):
            return league.round
        return max(0, league.round - 1)

    async def standings_view(self, channel_id: str) -> StandingsView:
        """The channel's league standings with display names (``render.standings`` draws it); a league in
        divisions shows its first division here (``standings_views`` has them all)."""
        views = await self.standings_views(channel_id)
        return views[0]

    async def standings_views(self, channel_id: str) -> list[StandingsView]:
        league = await self.in_channel(channel_id)
        leagues = await repo.children(self.store, league.id) if league.format == DIVISIONS else []
        return [await self._view(row) for row in leagues or [league]]

    async def _view(self, league: repo.LeagueRow) -> StandingsView:
        names = await self._names(league.id)
        rows = tuple(
            standing_row(line, names.get(line.player, line.player))
            for line in await self.standings(league.id)
        )
        return StandingsView(league.name, await self.rounds_done(league), league.rounds, rows)

    async def pairings_text(self, channel_id: str, round_number: int | None = None) -> str:
        """``/league pairings [round]``: the round's tables with their threads and results, and its byes."""
        league = await self.in_channel(channel_id)
        leagues = await repo.children(self.store, league.id) if league.format == DIVISIONS else [league]
        parts = [await self._pairings(row, round_number) for row in leagues]
        return "\n\n".join(parts) if parts else f"{league.name}: not paired yet."

    async def _pairings(self, league: repo.LeagueRow, round_number: int | None) -> str:
        number = round_number or league.round
        if not 1 <= number <= max(league.round, 0):
            return f"{league.name}: round {number} is not paired yet."
        names = await self._names(league.id)
        lines = [f"**{league.name}**, round {number}:"]
        for table in await repo.tables(self.store, league.id, number):
            lines.append(self._table_line(table, names))
        round_byes = [
            names.get(b.user_id, b.user_id)
            for b in await repo.byes(self.store, league.id)
            if b.round == number
        ]
        if round_byes:
            lines.append("Bye: " + ", ".join(round_byes))
        return "\n".join(lines)

    @staticmethod
    def _table_line(table: repo.TableRow, names: dict[str, str]) -> str:
        players = " – ".join(names.get(user, user) for user in table.seats)
        where = f"<#{table.thread_id}>" if table.thread_id else "–"
        if table.points is None:
            return f"{table.table_no}. {players} {where}"
        score = " – ".join(f"{points:g}" for points in table.points)
        if table.forfeit:
            return f"{table.table_no}. {players}: {score} (forfeit) {where}"
        return f"{table.table_no}. {players}: {score} {where}"

    async def status_text(self, channel_id: str) -> str:
        """``/league status``: the league, its round, who is still playing, who has dropped."""
        league = await self.in_channel(channel_id)
        info = await self.info(league.id)
        lines = [info.signup_text()]
        if league.status != repo.SIGNUP:
            done = await self.rounds_done(league)
            lines.append(f"Round {league.round} of {league.rounds}; rounds complete: {done}.")
            if league.status == repo.DONE:
                lines.append("The league is over.")
        for entrant in info.entrants:
            if entrant.dropped:
                lines.append(
                    DROP_LINES[entrant.drop_reason or REMOVED].format(
                        name=entrant.name, round=entrant.dropped_round
                    )
                )
        return "\n".join(lines)

    async def may_manage(self, league_id: int, actor: Actor) -> bool:
        """The league's creator manages it too (the front-end adds Manage Server and the server's league role)."""
        league = await repo.league(self.store, league_id)
        return league is not None and league.creator_id == actor.user_id

    # ---- who manages leagues -------------------------------------------------------------------------------
    async def league_role(self, guild_id: str) -> str | None:
        """The role whose members manage the server's leagues besides those with Manage Server (``/league role``)."""
        return await repo.league_role(self.store, guild_id)

    async def set_league_role(self, guild_id: str, actor: Actor, role_id: str | None) -> str:
        if not actor.can_manage_server:
            raise HostError("Only someone with Manage Server may choose the league role.")
        async with self.store.transaction() as db:
            await repo.set_league_role(db, guild_id, role_id)
        if role_id is None:
            return "Leagues are managed by members with Manage Server only."
        return f"Members with the role <@&{role_id}> may manage leagues (new, start, drop a player)."
