"""Results and ratings (``bot.ratings`` computes them; this module reads and writes their rows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Connection, Reader, Row

#: a player's stored rating: mu, sigma, rated games, wins
StoredRating = tuple[float, float, int, int]


async def next_result_number(db: Connection) -> int:
    """The next result number. The UPDATE locks the one clock row until the transaction ends, so games finishing
    at the same moment in several processes (PostgreSQL) record, and rate, one after the other."""
    row = await db.fetchone("UPDATE rating_clock SET last = last + 1 WHERE id = 1 RETURNING last")
    if row is None:
        raise RuntimeError("the rating_clock row is missing (migration 0006)")
    return int(row[0])


async def lock_clock(db: Connection) -> None:
    """Hold the clock row's lock to the end of the transaction: no game finishes (and rates) meanwhile."""
    await db.execute("UPDATE rating_clock SET last = last WHERE id = 1")


async def rating_of(reader: Reader, kind: str, player: str) -> StoredRating | None:
    row = await reader.fetchone(
        "SELECT mu, sigma, games, wins FROM ratings WHERE kind = ? AND player = ?", (kind, player)
    )
    if row is None:
        return None
    return float(row["mu"]), float(row["sigma"]), int(row["games"]), int(row["wins"])


async def put_rating(db: Connection, kind: str, player: str, rating: StoredRating, now: float) -> None:
    await db.execute(
        "INSERT INTO ratings (kind, player, mu, sigma, games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT (kind, player) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
        "games = excluded.games, wins = excluded.wins, updated_at = excluded.updated_at",
        (kind, player, *rating, now),
    )


async def clear_ratings(db: Connection) -> None:
    await db.execute("DELETE FROM ratings")


async def has_result(reader: Reader, game_id: int) -> bool:
    return await reader.fetchone("SELECT 1 FROM results WHERE game_id = ?", (game_id,)) is not None


async def insert_result(db: Connection, result: Sequence[Any], seats: Sequence[Sequence[Any]]) -> None:
    """A game's result and its seats' rows. ``result``: game, number, kind, guild, number of players, draw,
    rated, unrated reason, finished at. Each seat: game, seat, player, name, side, rank, won, decisions, answer
    seconds, mu and sigma before, mu and sigma after, unrated reason."""
    await db.execute(
        "INSERT INTO results (game_id, number, kind, guild_id, num_players, draw, rated, unrated_reason, "
        "finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        result,
    )
    await db.executemany(
        "INSERT INTO result_seats (game_id, seat, player, name, side, rank, won, decisions, answer_seconds, "
        "mu_before, sigma_before, mu_after, sigma_after, unrated_reason) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        seats,
    )


async def game_for_result(reader: Reader, game_id: int) -> tuple[Row | None, list[Row], list[Row], list[Row]]:
    """What a game's result is computed from: its row, seats, events (with the undone ones) and sealed
    choices."""
    game = await reader.fetchone(
        "SELECT id, kind, guild_id, status, result, num_players, rated, post_replay, origin_id, updated_at "
        "FROM games WHERE id = ?",
        (game_id,),
    )
    seats = await reader.fetchall(
        "SELECT seat, user_id, name, ai_level FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    )
    events = await reader.fetchall(
        "SELECT seq, seat, action, user_id, created_at, undone FROM events WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    sealed = await reader.fetchall(
        "SELECT seat, action, actor, created_at, applied FROM sealed WHERE game_id = ?", (game_id,)
    )
    return game, list(seats), list(events), list(sealed)


async def finished_without_result(reader: Reader) -> list[int]:
    """Finished games that have no result yet (finished before results were recorded, or imported), oldest
    first."""
    rows = await reader.fetchall(
        "SELECT id FROM games WHERE status = 'finished' AND result IS NOT NULL "
        "AND id NOT IN (SELECT game_id FROM results) ORDER BY updated_at, id"
    )
    return [int(row["id"]) for row in rows]


async def game_setup(reader: Reader, game_id: int) -> Row | None:
    """What replaying a game to its end needs of its row: kind, number of players, options."""
    return await reader.fetchone("SELECT kind, num_players, options FROM games WHERE id = ?", (game_id,))


async def results_in_order(reader: Reader) -> list[Row]:
    """Every result in the order recorded: game, kind, rated, finished at."""
    return await reader.fetchall("SELECT game_id, kind, rated, finished_at FROM results ORDER BY number")


async def rated_seats(reader: Reader, game_id: int) -> list[Row]:
    """A result's seats that count in its ratings: seat, player, rank, won."""
    return await reader.fetchall(
        "SELECT seat, player, rank, won FROM result_seats WHERE game_id = ? AND unrated_reason IS NULL "
        "ORDER BY seat",
        (game_id,),
    )


async def set_seat_ratings(
    db: Connection, game_id: int, seat: int, before: tuple[float, float], after: tuple[float, float]
) -> None:
    await db.execute(
        "UPDATE result_seats SET mu_before = ?, sigma_before = ?, mu_after = ?, sigma_after = ? "
        "WHERE game_id = ? AND seat = ?",
        (*before, *after, game_id, seat),
    )


# ---- statistics (``bot.stats``) --------------------------------------------------------------------------
async def player_seats(reader: Reader, player: str, kind: str | None) -> list[Row]:
    """The player's seats in finished games (of ``kind`` alone, if given), in result order: kind, rated, name,
    side, won, decisions, answer seconds."""
    params: tuple[str, ...] = (player, kind) if kind else (player,)
    return await reader.fetchall(
        "SELECT r.kind, CASE WHEN r.rated = 1 AND s.unrated_reason IS NULL THEN 1 ELSE 0 END AS rated, s.name, "
        "s.side, s.won, s.decisions, s.answer_seconds FROM result_seats s "
        "JOIN results r ON r.game_id = s.game_id WHERE s.player = ?"
        + (" AND r.kind = ?" if kind else "")
        + " ORDER BY r.number",
        params,
    )


async def ratings_of_kind(reader: Reader, kind: str, guild_id: str | None = None) -> list[Row]:
    """Every rating of a game: player, mu, sigma, games, wins; with ``guild_id``, of the players who finished a
    game of it on that server."""
    if guild_id is None:
        return await reader.fetchall(
            "SELECT player, mu, sigma, games, wins FROM ratings WHERE kind = ?", (kind,)
        )
    return await reader.fetchall(
        "SELECT player, mu, sigma, games, wins FROM ratings WHERE kind = ? AND player IN ("
        "SELECT s.player FROM result_seats s JOIN results r ON r.game_id = s.game_id "
        "WHERE r.kind = ? AND r.guild_id = ?)",
        (kind, kind, guild_id),
    )


async def latest_name(reader: Reader, player: str) -> str | None:
    """The name the player had in their latest finished game."""
    row = await reader.fetchone(
        "SELECT s.name FROM result_seats s JOIN results r ON r.game_id = s.game_id WHERE s.player = ? "
        "ORDER BY r.number DESC LIMIT 1",
        (player,),
    )
    return str(row["name"]) if row else None


async def rated_kinds(reader: Reader) -> list[str]:
    rows = await reader.fetchall("SELECT DISTINCT kind FROM ratings ORDER BY kind")
    return [str(row["kind"]) for row in rows]


async def duel_seats(reader: Reader, kind: str) -> list[Row]:
    """The seats of two-player games of ``kind`` that had a winner: game, player, won."""
    return await reader.fetchall(
        "SELECT s.game_id, s.player, s.won FROM result_seats s JOIN results r ON r.game_id = s.game_id "
        "WHERE r.kind = ? AND r.num_players = 2 AND r.draw = 0 ORDER BY s.game_id, s.seat",
        (kind,),
    )


async def result_seats_of_kind(reader: Reader, kind: str) -> list[Row]:
    """Every result seat of ``kind``: game, number of players, draw, seat, side, won, player."""
    return await reader.fetchall(
        "SELECT r.game_id, r.num_players, r.draw, s.seat, s.side, s.won, s.player FROM result_seats s "
        "JOIN results r ON r.game_id = s.game_id WHERE r.kind = ? ORDER BY r.number, s.seat",
        (kind,),
    )
