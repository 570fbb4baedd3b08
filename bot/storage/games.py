"""Games, their seats, votes and the event rows a game's commands touch beyond the event log (``Store``).

Reads take a ``Reader`` (the store, or the connection of the caller's transaction); writes either run at once on
a transaction's connection, or are built as a ``Statement`` that the change storing them runs in its commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import timers
from .base import Connection, Reader, Row, Statement, insert_returning_id, run

_IN_PROGRESS = "('active', 'paused')"
#: a seat as ``replace_seats`` and ``insert_seats`` write it: user, name, AI level, away
SeatRow = tuple[str | None, str, str | None, bool]


# ---- one game ------------------------------------------------------------------------------------------------
async def game_row(reader: Reader, game_id: int) -> dict[str, Any] | None:
    row = await reader.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
    return dict(row) if row else None


async def seat_rows(reader: Reader, game_id: int) -> list[Row]:
    return await reader.fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))


async def last_event_seq(reader: Reader, game_id: int) -> int:
    """The number of the game's last event, undone or not (undone events keep their numbers)."""
    last = await reader.fetchone("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,))
    assert last is not None  # an aggregate always has a row
    return int(last[0])


async def status(reader: Reader, game_id: int) -> str:
    rows = await reader.fetchall("SELECT status FROM games WHERE id = ?", (game_id,))
    return str(list(rows)[0][0])


async def version(reader: Reader, game_id: int) -> int | None:
    row = await reader.fetchone("SELECT version FROM games WHERE id = ?", (game_id,))
    return int(row["version"]) if row is not None else None


async def guild_of(reader: Reader, game_id: int) -> str | None:
    """The server of the game (None for a game in a DM or no such game)."""
    row = await reader.fetchone("SELECT guild_id FROM games WHERE id = ?", (game_id,))
    return row["guild_id"] if row else None


async def kind_of(reader: Reader, game_id: int) -> str | None:
    row = await reader.fetchone("SELECT kind FROM games WHERE id = ?", (game_id,))
    return str(row["kind"]) if row else None


async def replay_row(reader: Reader, game_id: int) -> Row | None:
    """The columns a replay reads of a game."""
    return await reader.fetchone(
        "SELECT id, kind, status, num_players, options, result, guild_id FROM games WHERE id = ?", (game_id,)
    )


async def replay_seats(reader: Reader, game_id: int) -> list[Row]:
    return await reader.fetchall(
        "SELECT seat, name, user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    )


async def is_seated(reader: Reader, game_id: int, user_id: str) -> bool:
    row = await reader.fetchone("SELECT 1 FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))
    return row is not None


async def missed_deadlines(reader: Reader, game_id: int, seat: int) -> int:
    row = await reader.fetchone("SELECT missed FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
    return int(row["missed"]) if row else 0


async def last_mover(reader: Reader, game_id: int) -> str | None:
    """Who made the game's last move that was not undone (the setup is no move)."""
    row = await reader.fetchone(
        "SELECT user_id FROM events WHERE game_id = ? AND seq > 0 AND undone = 0 ORDER BY seq DESC LIMIT 1",
        (game_id,),
    )
    return row["user_id"] if row else None


async def undone_seqs(reader: Reader, game_id: int) -> set[int]:
    rows = await reader.fetchall("SELECT seq FROM events WHERE game_id = ? AND undone = 1", (game_id,))
    return {row["seq"] for row in rows}


# ---- finding games ---------------------------------------------------------------------------------------
async def open_game_in_channel(reader: Reader, channel_id: str) -> int | None:
    """The channel's game in its lobby, running or paused."""
    row = await reader.fetchone(
        "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active', 'paused')", (channel_id,)
    )
    return int(row["id"]) if row else None


async def last_started_in_channel(reader: Reader, channel_id: str) -> int | None:
    row = await reader.fetchone(
        "SELECT id FROM games WHERE channel_id = ? AND status != 'lobby' ORDER BY id DESC LIMIT 1",
        (channel_id,),
    )
    return int(row["id"]) if row else None


async def last_started_of_user(reader: Reader, user_id: str | None) -> int | None:
    row = await reader.fetchone(
        "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id "
        "WHERE s.user_id = ? AND g.status != 'lobby' ORDER BY g.id DESC LIMIT 1",
        (user_id,),
    )
    return int(row["id"]) if row else None


async def last_over_in_channel(reader: Reader, channel_id: str) -> int | None:
    """The channel's latest game that is over after it started (what a replay shows)."""
    row = await reader.fetchone(
        "SELECT id FROM games WHERE channel_id = ? AND status IN ('finished', 'abandoned') "
        "AND num_players IS NOT NULL ORDER BY id DESC LIMIT 1",
        (channel_id,),
    )
    return int(row["id"]) if row else None


async def over_games(reader: Reader) -> list[int]:
    """Every game that is over after it started, oldest first."""
    rows = await reader.fetchall(
        "SELECT id FROM games WHERE status IN ('finished', 'abandoned') AND num_players IS NOT NULL ORDER BY id"
    )
    return [int(row["id"]) for row in rows]


async def earlier_tables(
    reader: Reader,
    game_id: int,
    like: Row | dict[str, Any],
    people: Sequence[str] | None,
    limit: int,
) -> list[tuple[int, str, set[str]]]:
    """The finished games begun before game ``game_id`` on the server of ``like`` (a game's row), of its kind,
    rules version (so that today's rules replay them) and player count, where one of ``people`` sat (None: anyone),
    the latest first (at most ``limit``): (game, its options as stored, the people who sat at it)."""
    if people is not None and not people:
        return []
    guild = like["guild_id"]
    same_guild = "g.guild_id = ?" if guild is not None else "g.guild_id IS NULL"
    seated = f" AND s.user_id IN ({', '.join('?' for _ in people)})" if people is not None else ""
    rows = await reader.fetchall(
        "SELECT DISTINCT g.id, g.options FROM games g JOIN seats s ON s.game_id = g.id "
        "WHERE g.kind = ? AND g.rules_version = ? AND g.num_players = ? AND g.status = 'finished' AND g.id < ? "
        f"AND {same_guild}{seated} ORDER BY g.id DESC LIMIT ?",
        (
            like["kind"],
            like["rules_version"],
            like["num_players"],
            game_id,
            *([guild] if guild is not None else []),
            *(people or ()),
            limit,
        ),
    )
    if not rows:
        return []
    ids = [int(row["id"]) for row in rows]
    sat_rows = await reader.fetchall(
        f"SELECT game_id, user_id FROM seats WHERE game_id IN ({', '.join('?' for _ in ids)}) "
        "AND user_id IS NOT NULL",
        tuple(ids),
    )
    sat: dict[int, set[str]] = {game: set() for game in ids}
    for row in sat_rows:
        sat[int(row["game_id"])].add(str(row["user_id"]))
    return [(int(row["id"]), str(row["options"]), sat[int(row["id"])]) for row in rows]


async def games_awaiting_ai(reader: Reader) -> list[int]:
    """Running games with a seat the AI plays and no timer but away ends (see ``hosting.queries``)."""
    rows = await reader.fetchall(
        "SELECT g.id FROM games g WHERE g.status = 'active' "
        "AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.ai_level IS NOT NULL) "
        "AND g.id NOT IN (SELECT t.game_id FROM timers t WHERE t.kind <> 'away_end') ORDER BY g.id"
    )
    return [row["id"] for row in rows]


async def open_lobbies_of(reader: Reader, user_id: str) -> list[tuple[int, str]]:
    """The lobbies ``user_id`` opened that are still open: (game, channel), oldest first."""
    rows = await reader.fetchall(
        "SELECT id, channel_id FROM games WHERE creator_id = ? AND status = 'lobby' ORDER BY id", (user_id,)
    )
    return [(int(row["id"]), str(row["channel_id"])) for row in rows]


async def games_in_progress_of(reader: Reader, user_id: str) -> list[int]:
    """The running or paused games where ``user_id`` holds a seat."""
    rows = await reader.fetchall(
        "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
        f"WHERE s.user_id = ? AND g.status IN {_IN_PROGRESS} ORDER BY g.id",
        (user_id,),
    )
    return [int(row["id"]) for row in rows]


async def guilds_in_progress_of(reader: Reader, user_id: str) -> set[str | None]:
    """The servers of the running or paused games where ``user_id`` holds a seat."""
    rows = await reader.fetchall(
        "SELECT DISTINCT g.guild_id FROM games g JOIN seats s ON s.game_id = g.id "
        f"WHERE s.user_id = ? AND g.status IN {_IN_PROGRESS}",
        (user_id,),
    )
    return {row["guild_id"] for row in rows}


async def open_games_of(reader: Reader, user_id: str) -> list[int]:
    """The games in their lobby, running or paused where ``user_id`` holds a seat."""
    rows = await reader.fetchall(
        "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
        "WHERE s.user_id = ? AND g.status IN ('lobby', 'active', 'paused') ORDER BY g.id",
        (user_id,),
    )
    return [int(row["id"]) for row in rows]


async def lost_game_of(reader: Reader, user_id: str, guild_id: str | None) -> int | None:
    """``user_id``'s latest game paused because its channel was lost, on the server ``guild_id``."""
    same_guild = "g.guild_id = ?" if guild_id is not None else "g.guild_id IS NULL"
    params = (user_id, guild_id) if guild_id is not None else (user_id,)
    row = await reader.fetchone(
        "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id WHERE s.user_id = ? AND g.status = 'paused' "
        f"AND g.paused_reason = 'channel-lost' AND {same_guild} ORDER BY g.id DESC LIMIT 1",
        params,
    )
    return int(row["id"]) if row else None


# ---- creating games and seats (inside a transaction) ---------------------------------------------------------
async def create_lobby(db: Connection, values: Sequence[Any]) -> int:
    """A new game in its lobby; ``values``: guild, channel, kind, options, seed, rules version, creator,
    deadline and window seconds, created and updated times, rated, post_replay, posts. Returns its id."""
    return await insert_returning_id(
        db,
        "INSERT INTO games (guild_id, channel_id, kind, status, options, seed, rules_version, creator_id, "
        "deadline_seconds, window_seconds, created_at, updated_at, rated, post_replay, posts) "
        "VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        values,
    )


async def create_imported(db: Connection, values: Sequence[Any]) -> int:
    """A game read from an export; ``values``: guild, channel, kind, status, options, seed, rules version, number
    of players, creator, deadline and window seconds, result, created and updated times, origin. Returns its id."""
    return await insert_returning_id(
        db,
        "INSERT INTO games (guild_id, channel_id, kind, status, options, seed, rules_version, num_players, "
        "creator_id, deadline_seconds, window_seconds, result, created_at, updated_at, origin_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        values,
    )


async def seat_creator(db: Connection, game_id: int, user_id: str, name: str) -> None:
    await db.execute(
        "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)", (game_id, user_id, name)
    )


async def add_seat(
    db: Connection, game_id: int, seat: int, user_id: str | None, name: str, ai_level: str | None
) -> None:
    await db.execute(
        "INSERT INTO seats (game_id, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
        (game_id, seat, user_id, name, ai_level),
    )


async def replace_seats(db: Connection, game_id: int, seats: Sequence[SeatRow]) -> None:
    """The lobby's seats are now ``seats``, numbered in order from 0."""
    await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
    for number, (user_id, name, ai_level, away) in enumerate(seats):
        await db.execute(
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level, away) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, number, user_id, name, ai_level, int(away)),
        )


async def insert_seats(db: Connection, game_id: int, seats: Sequence[tuple[int, SeatRow]]) -> None:
    """Seats of an imported game: (seat number, seat)."""
    await db.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, ai_level, away) VALUES (?, ?, ?, ?, ?, ?)",
        [
            (game_id, number, user_id, name, level, int(away))
            for number, (user_id, name, level, away) in seats
        ],
    )


async def mark_undone(db: Connection, game_id: int, seqs: Sequence[int]) -> None:
    await db.executemany(
        "UPDATE events SET undone = 1 WHERE game_id = ? AND seq = ?", [(game_id, seq) for seq in seqs]
    )


async def abandon_now(db: Connection, game_id: int) -> None:
    await run(db, abandon(game_id))


async def finish_now(db: Connection, game_id: int, result: str) -> None:
    """The game is over with ``result`` (JSON) and has no timers left."""
    await run(db, finish(game_id, result), timers.clear_all(game_id))


# ---- statements a change stores --------------------------------------------------------------------------
def start(game_id: int, num_players: int) -> Statement:
    return "UPDATE games SET status = 'active', num_players = ? WHERE id = ?", (num_players, game_id)


def finish(game_id: int, result: str) -> Statement:
    return "UPDATE games SET status = 'finished', result = ? WHERE id = ?", (result, game_id)


def abandon(game_id: int) -> Statement:
    return "UPDATE games SET status = 'abandoned' WHERE id = ?", (game_id,)


def pause_agreed(game_id: int) -> Statement:
    return "UPDATE games SET status = 'paused', paused_reason = 'agreed' WHERE id = ?", (game_id,)


def pause_channel_lost(game_id: int) -> Statement:
    return "UPDATE games SET status = 'paused', paused_reason = 'channel-lost' WHERE id = ?", (game_id,)


def resume_in(game_id: int, channel_id: str) -> Statement:
    return (
        "UPDATE games SET status = 'active', paused_reason = NULL, channel_id = ? WHERE id = ?",
        (channel_id, game_id),
    )


def hand_seat_to_ai(game_id: int, seat: int, level: str, vacation: bool) -> Statement:
    """The AI plays the seat at ``level`` (unless it already does); ``vacation``: while its player is away."""
    return (
        "UPDATE seats SET ai_level = COALESCE(ai_level, ?), away = 1, vacation = CASE WHEN ? = 1 THEN 1 ELSE vacation END "
        "WHERE game_id = ? AND seat = ?",
        (level, int(vacation), game_id, seat),
    )


def keep_seat_while_away(game_id: int, seat: int) -> Statement:
    """The player is away but keeps the decision waiting for their seat (the AI takes the later ones)."""
    return "UPDATE seats SET vacation = 1 WHERE game_id = ? AND seat = ?", (game_id, seat)


def return_from_away(game_id: int, seat: int) -> Statement:
    return (
        "UPDATE seats SET ai_level = NULL, away = 0, vacation = 0, missed = 0 WHERE game_id = ? AND seat = ?",
        (game_id, seat),
    )


def back_to_seat(game_id: int, seat: int) -> Statement:
    """``/game back``: the player plays their seat again after the AI stood in."""
    return "UPDATE seats SET ai_level = NULL, away = 0, missed = 0 WHERE game_id = ? AND seat = ?", (
        game_id,
        seat,
    )


def seat_acted(game_id: int, seat: int) -> Statement:
    """The seat's player acted: missed deadlines are forgiven and an AI stand-in ends."""
    return (
        "UPDATE seats SET missed = 0, ai_level = CASE WHEN away = 1 THEN NULL ELSE ai_level END, "
        "away = 0 WHERE game_id = ? AND seat = ?",
        (game_id, seat),
    )


def substitute(game_id: int, seat: int, user_id: str, name: str) -> Statement:
    return (
        "UPDATE seats SET user_id = ?, name = ?, ai_level = NULL, away = 0, vacation = 0, missed = 0 "
        "WHERE game_id = ? AND seat = ?",
        (user_id, name, game_id, seat),
    )


def set_missed(game_id: int, seat: int, misses: int) -> Statement:
    return "UPDATE seats SET missed = ? WHERE game_id = ? AND seat = ?", (misses, game_id, seat)


def undo_event(game_id: int, seq: int) -> Statement:
    return "UPDATE events SET undone = 1 WHERE game_id = ? AND seq = ?", (game_id, seq)


def drop_snapshots_from(game_id: int, seq: int) -> Statement:
    return "DELETE FROM snapshots WHERE game_id = ? AND seq >= ?", (game_id, seq)


# ---- votes (abandon, pause, resume, move) ----------------------------------------------------------------
async def voters(reader: Reader, game_id: int, kind: str) -> set[str]:
    rows = await reader.fetchall("SELECT user_id FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind))
    return {row["user_id"] for row in rows}


def clear_votes(game_id: int, kind: str) -> Statement:
    return "DELETE FROM votes WHERE game_id = ? AND kind = ?", (game_id, kind)


def add_vote(game_id: int, kind: str, user_id: str) -> Statement:
    return (
        "INSERT INTO votes (game_id, kind, user_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (game_id, kind, user_id),
    )
