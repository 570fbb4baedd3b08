"""The league repository: every SQL statement of the leagues (issue 45, migration 0014), on SQLite or PostgreSQL.

Reads take the ``Store`` (or a ``Connection`` when they must see a transaction's own writes); writes take the
``Connection`` of the caller's transaction. Tasks are claimed as timers are (``Store.claim_due_timers``): a claim
names the process and ends with a lease, chosen with ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so processes
claiming at once get disjoint tasks and a crashed process's claim lapses.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import CLAIM_LEASE_S, Connection, Store

#: the steps of a league table, in order (see migration 0014); OPENING: its thread is being asked of Discord under
#: the table's unique name (a crash then leaves a thread to adopt, found by that name)
PAIRED, OPENING, THREAD, CREATED, STARTED, FINISHED = (
    "paired",
    "opening",
    "thread",
    "created",
    "started",
    "finished",
)
#: league statuses
SIGNUP, RUNNING, DONE, CANCELLED = "signup", "running", "finished", "cancelled"

Reader = Store | Connection


@dataclass(frozen=True)
class LeagueRow:
    id: int
    guild_id: str
    channel_id: str
    name: str
    kind: str
    format: str
    rounds: int
    pod: int
    deadline_seconds: int
    options: dict[str, str]
    status: str
    round: int
    creator_id: str
    parent_id: int | None
    division: int | None
    season: int = 1
    previous_id: int | None = None  # the season before this one
    signup_message_id: str | None = None
    announced_round: int = 0


@dataclass(frozen=True)
class EntrantRow:
    user_id: str
    name: str
    joined: int
    dropped: bool
    drop_reason: str | None
    dropped_round: int | None
    #: a new season's division kept for a player of the season before (None: a newcomer)
    division: int | None = None


@dataclass(frozen=True)
class TableRow:
    league_id: int
    round: int
    table_no: int
    seats: tuple[str, ...]
    step: str
    thread_id: str | None
    game_id: int | None
    points: tuple[float, ...] | None
    forfeit: bool
    #: the users seated in its game when fewer than ``seats`` (a player dropped before it was made)
    game_seats: tuple[str, ...] | None = None

    @property
    def played_seats(self) -> tuple[str, ...]:
        """The users seated in the table's game, in seat order."""
        return self.seats if self.game_seats is None else self.game_seats


@dataclass(frozen=True)
class ByeRow:
    round: int
    user_id: str
    points: float


@dataclass(frozen=True)
class NewLeague:
    guild_id: str
    channel_id: str
    name: str
    kind: str
    format: str
    rounds: int
    pod: int
    deadline_seconds: int
    options: dict[str, str]
    creator_id: str
    parent_id: int | None = None
    division: int | None = None
    season: int = 1
    previous_id: int | None = None


def _optional_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _league(row: Any) -> LeagueRow:
    return LeagueRow(
        int(row["id"]),
        row["guild_id"],
        row["channel_id"],
        row["name"],
        row["kind"],
        row["format"],
        int(row["rounds"]),
        int(row["pod"]),
        int(row["deadline_seconds"]),
        json.loads(row["options"]),
        row["status"],
        int(row["round"]),
        row["creator_id"],
        _optional_int(row["parent_id"]),
        _optional_int(row["division"]),
        int(row["season"]),
        _optional_int(row["previous_id"]),
        row["signup_message_id"],
        int(row["announced_round"]),
    )


def _table(row: Any) -> TableRow:
    points = None if row["points"] is None else tuple(float(p) for p in json.loads(row["points"]))
    return TableRow(
        int(row["league_id"]),
        int(row["round"]),
        int(row["table_no"]),
        tuple(json.loads(row["seats"])),
        row["step"],
        row["thread_id"],
        None if row["game_id"] is None else int(row["game_id"]),
        points,
        bool(row["forfeit"]),
        None if row["game_seats"] is None else tuple(json.loads(row["game_seats"])),
    )


# ---- leagues -------------------------------------------------------------------------------------------------
async def insert_league(db: Connection, league: NewLeague, now: float) -> int:
    return await Store.insert_returning_id(
        db,
        "INSERT INTO leagues (guild_id, channel_id, name, kind, format, rounds, pod, deadline_seconds, options, "
        "status, creator_id, parent_id, division, season, previous_id, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            league.guild_id,
            league.channel_id,
            league.name,
            league.kind,
            league.format,
            league.rounds,
            league.pod,
            league.deadline_seconds,
            json.dumps(league.options),
            league.creator_id,
            league.parent_id,
            league.division,
            league.season,
            league.previous_id,
            now,
        ),
    )


async def league(db: Reader, league_id: int) -> LeagueRow | None:
    row = await db.fetchone("SELECT * FROM leagues WHERE id = ?", (league_id,))
    return None if row is None else _league(row)


async def leagues_in_channel(db: Reader, channel_id: str, statuses: Sequence[str]) -> list[LeagueRow]:
    """The channel's leagues in these statuses, newest first."""
    marks = ", ".join("?" for _ in statuses)
    rows = await db.fetchall(
        f"SELECT * FROM leagues WHERE channel_id = ? AND status IN ({marks}) ORDER BY id DESC",
        (channel_id, *statuses),
    )
    return [_league(row) for row in rows]


async def league_count_in_guild(db: Reader, guild_id: str) -> int:
    row = await db.fetchone("SELECT COUNT(*) FROM leagues WHERE guild_id = ?", (guild_id,))
    return int(row[0]) if row else 0


async def children(db: Reader, league_id: int) -> list[LeagueRow]:
    rows = await db.fetchall("SELECT * FROM leagues WHERE parent_id = ? ORDER BY division, id", (league_id,))
    return [_league(row) for row in rows]


async def set_status(db: Connection, league_id: int, status: str, expected: str | None = None) -> bool:
    """Change the league's status (only from ``expected`` when given); False when it was not in that status."""
    if expected is None:
        result = await db.execute("UPDATE leagues SET status = ? WHERE id = ?", (status, league_id))
    else:
        result = await db.execute(
            "UPDATE leagues SET status = ? WHERE id = ? AND status = ?", (status, league_id, expected)
        )
    return result.rowcount == 1


async def begin_round(db: Connection, league_id: int, round_number: int) -> bool:
    """Move the league to ``round_number`` from the round before it; False when another process did it first."""
    result = await db.execute(
        "UPDATE leagues SET round = ?, status = 'running' WHERE id = ? AND round = ?",
        (round_number, league_id, round_number - 1),
    )
    return result.rowcount == 1


async def set_signup_message(db: Connection, league_id: int, message_id: str) -> None:
    """Remember the sign-up message, edited as players join and leave and when the league starts."""
    await db.execute("UPDATE leagues SET signup_message_id = ? WHERE id = ?", (message_id, league_id))


async def announce_round(db: Connection, league_id: int, round_number: int) -> bool:
    """Mark the round's opening announced; False when it was already (its notice is written once)."""
    result = await db.execute(
        "UPDATE leagues SET announced_round = ? WHERE id = ? AND announced_round < ?",
        (round_number, league_id, round_number),
    )
    return result.rowcount == 1


async def next_season(db: Reader, league_id: int) -> LeagueRow | None:
    """The season that follows this league (``/league season``), if one was opened."""
    row = await db.fetchone("SELECT * FROM leagues WHERE previous_id = ? ORDER BY id LIMIT 1", (league_id,))
    return None if row is None else _league(row)


async def set_rounds(db: Connection, league_id: int, rounds: int) -> None:
    """The rounds the format needs, fixed at the start (a round robin's, an elimination's)."""
    await db.execute("UPDATE leagues SET rounds = ? WHERE id = ?", (rounds, league_id))


# ---- entrants ------------------------------------------------------------------------------------------------
async def entrants(db: Reader, league_id: int) -> list[EntrantRow]:
    rows = await db.fetchall(
        "SELECT user_id, name, joined, dropped, drop_reason, dropped_round, division FROM league_entrants "
        "WHERE league_id = ? ORDER BY joined",
        (league_id,),
    )
    return [
        EntrantRow(
            row["user_id"],
            row["name"],
            int(row["joined"]),
            bool(row["dropped"]),
            row["drop_reason"],
            row["dropped_round"],
            _optional_int(row["division"]),
        )
        for row in rows
    ]


async def add_entrant(
    db: Connection, league_id: int, user_id: str, name: str, division: int | None = None
) -> bool:
    """Sign a player up (last in the sign-up order), in ``division`` when a season placed them; False when they
    were signed up already."""
    row = await db.fetchone("SELECT MAX(joined) FROM league_entrants WHERE league_id = ?", (league_id,))
    joined = (int(row[0]) if row and row[0] is not None else 0) + 1
    result = await db.execute(
        "INSERT INTO league_entrants (league_id, user_id, name, joined, division) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT (league_id, user_id) DO NOTHING",
        (league_id, user_id, name, joined, division),
    )
    return result.rowcount == 1


async def remove_entrant(db: Connection, league_id: int, user_id: str) -> bool:
    result = await db.execute(
        "DELETE FROM league_entrants WHERE league_id = ? AND user_id = ?", (league_id, user_id)
    )
    return result.rowcount == 1


async def drop_entrant(db: Connection, league_id: int, user_id: str, reason: str, round_number: int) -> bool:
    """Mark a player dropped; False when they were not in (or dropped already): a drop happens once."""
    result = await db.execute(
        "UPDATE league_entrants SET dropped = 1, drop_reason = ?, dropped_round = ? "
        "WHERE league_id = ? AND user_id = ? AND dropped = 0",
        (reason, round_number, league_id, user_id),
    )
    return result.rowcount == 1


# ---- tables and byes -----------------------------------------------------------------------------------------
async def insert_round(
    db: Connection,
    league_id: int,
    round_number: int,
    tables: Sequence[Sequence[str]],
    byes: Sequence[tuple[str, float]],
) -> None:
    await db.executemany(
        "INSERT INTO league_tables (league_id, round, table_no, seats) VALUES (?, ?, ?, ?)",
        [
            (league_id, round_number, number, json.dumps(list(seats)))
            for number, seats in enumerate(tables, 1)
        ],
    )
    await db.executemany(
        "INSERT INTO league_byes (league_id, round, user_id, points) VALUES (?, ?, ?, ?)",
        [(league_id, round_number, user, points) for user, points in byes],
    )


async def tables(db: Reader, league_id: int, round_number: int | None = None) -> list[TableRow]:
    """The league's tables (of one round when given), by round and number."""
    if round_number is None:
        rows = await db.fetchall(
            "SELECT * FROM league_tables WHERE league_id = ? ORDER BY round, table_no", (league_id,)
        )
    else:
        rows = await db.fetchall(
            "SELECT * FROM league_tables WHERE league_id = ? AND round = ? ORDER BY table_no",
            (league_id, round_number),
        )
    return [_table(row) for row in rows]


async def table_of_game(db: Reader, game_id: int) -> TableRow | None:
    row = await db.fetchone("SELECT * FROM league_tables WHERE game_id = ?", (game_id,))
    return None if row is None else _table(row)


async def byes(db: Reader, league_id: int) -> list[ByeRow]:
    rows = await db.fetchall(
        "SELECT round, user_id, points FROM league_byes WHERE league_id = ? ORDER BY round, user_id",
        (league_id,),
    )
    return [ByeRow(int(row["round"]), row["user_id"], float(row["points"])) for row in rows]


async def table_opening(db: Connection, table: TableRow) -> None:
    """Record that the table's thread is being opened (before Discord is asked): after a crash, the thread found
    under the table's name is adopted instead of opening another."""
    await db.execute(
        "UPDATE league_tables SET step = 'opening' "
        "WHERE league_id = ? AND round = ? AND table_no = ? AND step = 'paired'",
        (table.league_id, table.round, table.table_no),
    )


async def table_opened(db: Connection, table: TableRow, thread_id: str) -> bool:
    """Record the table's thread; False when another process recorded one first (its thread is kept)."""
    result = await db.execute(
        "UPDATE league_tables SET step = 'thread', thread_id = ? "
        "WHERE league_id = ? AND round = ? AND table_no = ? AND step IN ('paired', 'opening')",
        (thread_id, table.league_id, table.round, table.table_no),
    )
    return result.rowcount == 1


async def table_created(
    db: Connection, table: TableRow, game_id: int, game_seats: Sequence[str] | None = None
) -> None:
    """Record the table's game; ``game_seats``: its users when fewer than the pairing's seats."""
    await db.execute(
        "UPDATE league_tables SET step = 'created', game_id = ?, game_seats = ? "
        "WHERE league_id = ? AND round = ? AND table_no = ? AND step = 'thread'",
        (
            game_id,
            None if game_seats is None else json.dumps(list(game_seats)),
            table.league_id,
            table.round,
            table.table_no,
        ),
    )


async def table_started(db: Connection, table: TableRow) -> None:
    await db.execute(
        "UPDATE league_tables SET step = 'started' WHERE league_id = ? AND round = ? AND table_no = ? "
        "AND step = 'created'",
        (table.league_id, table.round, table.table_no),
    )


async def table_finished(db: Connection, table: TableRow, points: Sequence[float], forfeit: bool) -> bool:
    """Score the table once: False when it was scored already."""
    result = await db.execute(
        "UPDATE league_tables SET step = 'finished', points = ?, forfeit = ? "
        "WHERE league_id = ? AND round = ? AND table_no = ? AND step <> 'finished'",
        (json.dumps(list(points)), int(forfeit), table.league_id, table.round, table.table_no),
    )
    return result.rowcount == 1


async def unfinished_tables(db: Reader, league_id: int, round_number: int) -> int:
    row = await db.fetchone(
        "SELECT COUNT(*) FROM league_tables WHERE league_id = ? AND round = ? AND step <> 'finished'",
        (league_id, round_number),
    )
    return int(row[0]) if row else 0


# ---- facts of the host's tables the league reads (never writes) ---------------------------------------------
async def game_result(db: Reader, game_id: int) -> dict[str, Any] | None:
    """The stored result of a game ({winners, draw, reason}), None while it runs."""
    row = await db.fetchone("SELECT result FROM games WHERE id = ?", (game_id,))
    if row is None or row["result"] is None:
        return None
    result: dict[str, Any] = json.loads(row["result"])
    return result


async def game_status(db: Reader, game_id: int) -> str | None:
    row = await db.fetchone("SELECT status FROM games WHERE id = ?", (game_id,))
    return None if row is None else str(row["status"])


async def seat_misses(db: Reader, league_id: int) -> dict[str, int]:
    """Deadlines each player missed in the league's games: per game and seat, the larger of the defaults the
    deadline applied for the seat (events by ``deadline``) and the seat's misses in a row (which also counts
    a miss that ended in a claim offer or an AI stand-in), summed over the games. Counted anew from the stored
    games each time, so a recount never counts a miss twice."""
    rows = await db.fetchall(
        "SELECT s.user_id, s.missed, (SELECT COUNT(*) FROM events e WHERE e.game_id = s.game_id "
        "AND e.seat = s.seat AND e.user_id = 'deadline' AND e.undone = 0) AS defaults "
        "FROM league_tables t JOIN seats s ON s.game_id = t.game_id "
        "WHERE t.league_id = ? AND s.user_id IS NOT NULL",
        (league_id,),
    )
    misses: dict[str, int] = {}
    for row in rows:
        misses[row["user_id"]] = misses.get(row["user_id"], 0) + max(int(row["missed"]), int(row["defaults"]))
    return misses


async def ratings(db: Reader, kind: str, players: Sequence[str]) -> dict[str, float]:
    """The players' conservative ratings in the game (mu - 3 sigma), for those who have one."""
    if not players:
        return {}
    marks = ", ".join("?" for _ in players)
    rows = await db.fetchall(
        f"SELECT player, mu, sigma FROM ratings WHERE kind = ? AND player IN ({marks})", (kind, *players)
    )
    return {row["player"]: float(row["mu"]) - 3 * float(row["sigma"]) for row in rows}


async def league_games_of(db: Reader, user_id: str) -> dict[int, tuple[str, int]]:
    """The user's running league games: game id -> (league name, round); for /mygames and the digest."""
    rows = await db.fetchall(
        "SELECT t.game_id, t.seats, t.round, l.name FROM league_tables t JOIN leagues l ON l.id = t.league_id "
        "JOIN seats s ON s.game_id = t.game_id WHERE s.user_id = ? AND t.step IN ('created', 'started')",
        (user_id,),
    )
    return {int(row["game_id"]): (row["name"], int(row["round"])) for row in rows}


async def league_of_game(db: Reader, game_id: int) -> tuple[str, int] | None:
    """(league name, round) of a league game, None for any other game."""
    row = await db.fetchone(
        "SELECT l.name, t.round FROM league_tables t JOIN leagues l ON l.id = t.league_id WHERE t.game_id = ?",
        (game_id,),
    )
    return None if row is None else (row["name"], int(row["round"]))


# ---- tasks ---------------------------------------------------------------------------------------------------
async def add_task(
    db: Connection,
    league_id: int,
    kind: str,
    round_number: int,
    due: float,
    claimed_by: str | None = None,
    lease: float = CLAIM_LEASE_S,
) -> None:
    """Schedule work once: a task already there for (league, kind, round) stays as it is. ``claimed_by``: the
    process that does it right after the commit (a crash leaves it to any process once the lease ends)."""
    await db.execute(
        "INSERT INTO league_tasks (league_id, kind, round, due, claimed_by, claimed_until) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (league_id, kind, round) DO NOTHING",
        (league_id, kind, round_number, due, claimed_by, None if claimed_by is None else due + lease),
    )


# ---- the league's notices: outbox rows of no game, posted by the same sender as the games' --------------------
async def add_notice(
    db: Connection, payload: dict[str, Any], now: float, worker: str, lease: float = CLAIM_LEASE_S
) -> int:
    """A league message to post (``payload``: a ``Delivery``'s), in the caller's transaction: claimed for the
    process that writes it, which posts it after the commit; another process's outbox sweep posts it once the
    claim lapses (a crash in between)."""
    return await Store.insert_returning_id(
        db,
        "INSERT INTO outbox (game_id, payload, created_at, claimed_by, claimed_until) "
        "VALUES (NULL, ?, ?, ?, ?) RETURNING id",
        (json.dumps(payload), now, worker, now + lease),
    )


async def claim_tasks(
    store: Store, worker: str, now: float, lease: float = CLAIM_LEASE_S
) -> list[dict[str, Any]]:
    """Due tasks no other worker holds, claimed for ``worker`` until ``now + lease`` (its own claims included:
    it was restarted, or retries)."""
    lock = " FOR UPDATE SKIP LOCKED" if store.dialect == "postgresql" else ""
    sql = (
        "UPDATE league_tasks SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT id FROM league_tasks "
        "WHERE due <= ? AND (claimed_until IS NULL OR claimed_until <= ? OR claimed_by = ?) "
        f"ORDER BY due, id LIMIT 50{lock}) RETURNING id, league_id, kind, round"
    )
    async with store.transaction() as db:
        rows = await db.fetchall(sql, (worker, now + lease, now, now, worker))
    return sorted((dict(row) for row in rows), key=lambda task: int(task["id"]))


async def finish_task(store: Store, task_id: int, worker: str) -> bool:
    """Delete a task this worker holds once its work is done; False when its claim had passed to another."""
    async with store.transaction() as db:
        result = await db.execute(
            "DELETE FROM league_tasks WHERE id = ? AND claimed_by = ?", (task_id, worker)
        )
    return result.rowcount == 1


async def release_task(store: Store, task_id: int, due: float) -> None:
    """Give a task back, to be tried again at ``due`` (by any worker)."""
    async with store.transaction() as db:
        await db.execute(
            "UPDATE league_tasks SET claimed_by = NULL, claimed_until = NULL, due = ? WHERE id = ?",
            (due, task_id),
        )


async def next_task_due(store: Store) -> float | None:
    row = await store.fetchone("SELECT MIN(COALESCE(claimed_until, due)) FROM league_tasks")
    return None if row is None or row[0] is None else float(row[0])


async def running_leagues(store: Store) -> list[LeagueRow]:
    rows = await store.fetchall("SELECT * FROM leagues WHERE status = 'running' ORDER BY id")
    return [_league(row) for row in rows]


# ---- the server's league role (a guild_settings key, migration 0009) ----------------------------------------
#: the ``guild_settings`` key naming the role whose members manage leagues besides Manage Server
LEAGUE_ROLE = "league_role"


async def league_role(db: Reader, guild_id: str) -> str | None:
    row = await db.fetchone(
        "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, LEAGUE_ROLE)
    )
    return None if row is None else str(row["value"])


async def set_league_role(db: Connection, guild_id: str, role_id: str | None) -> None:
    """Name the server's league role, or (None) clear it."""
    if role_id is None:
        await db.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, LEAGUE_ROLE))
        return
    await db.execute(
        "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
        "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
        (guild_id, LEAGUE_ROLE, role_id),
    )


async def seat_has_acted(db: Reader, game_id: int, seat: int) -> bool:
    """Whether the seat has made a move of its own in the game yet (the catch-up digest's league line)."""
    row = await db.fetchone(
        "SELECT 1 FROM events WHERE game_id = ? AND seat = ? AND seq > 0 LIMIT 1", (game_id, seat)
    )
    return row is not None
