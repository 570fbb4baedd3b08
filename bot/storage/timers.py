"""Timers: reminders, deadlines, automatic passes and answers, lobby and away ends (claims: ``Store``)."""

from __future__ import annotations

from collections.abc import Sequence

from .base import Connection, Reader, Result, Row, Statement

#: a timer as ``add`` writes it: game, kind, seat, decision, due
TimerRow = tuple[int, str, int, str, float]


async def delete(db: Connection, timer_id: int) -> Result:
    """Delete one timer (it fired); the result says whether it was still there."""
    return await db.execute("DELETE FROM timers WHERE id = ?", (timer_id,))


async def delete_many(db: Connection, timer_ids: Sequence[int]) -> None:
    await db.executemany("DELETE FROM timers WHERE id = ?", [(timer_id,) for timer_id in timer_ids])


async def add(db: Connection, timers: Sequence[TimerRow]) -> None:
    await db.executemany(
        "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, ?, ?, ?, ?)", timers
    )


async def decision_timers(reader: Reader, game_id: int) -> list[Row]:
    """The game's timers that belong to an open decision: id, seat, decision, kind."""
    return await reader.fetchall(
        "SELECT id, seat, decision_id, kind FROM timers WHERE game_id = ? "
        "AND kind IN ('reminder', 'deadline', 'autopass', 'standing', 'standing_off')",
        (game_id,),
    )


async def deadlines(reader: Reader, game_id: int) -> list[Row]:
    """The game's deadlines, soonest first: seat, decision, due."""
    return await reader.fetchall(
        "SELECT seat, decision_id, due FROM timers WHERE game_id = ? AND kind = 'deadline' ORDER BY due",
        (game_id,),
    )


async def deadline_of(reader: Reader, game_id: int, seat: int) -> float | None:
    row = await reader.fetchone(
        "SELECT due FROM timers WHERE game_id = ? AND seat = ? AND kind = 'deadline'", (game_id, seat)
    )
    return float(row["due"]) if row is not None else None


# ---- statements a change stores --------------------------------------------------------------------------
def clear_all(game_id: int) -> Statement:
    return "DELETE FROM timers WHERE game_id = ?", (game_id,)


def lobby_idle(game_id: int, due: float) -> Statement:
    """The lobby closes by itself at ``due`` unless someone touches it."""
    return "INSERT INTO timers (game_id, kind, due) VALUES (?, 'lobby_idle', ?)", (game_id, due)


def clear_lobby_idle(game_id: int) -> Statement:
    return "DELETE FROM timers WHERE game_id = ? AND kind = 'lobby_idle'", (game_id,)


def reminder(game_id: int, seat: int, decision_id: str, due: float) -> Statement:
    """A reminder of one decision (a ping held by quiet hours waits in one too)."""
    return (
        "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, 'reminder', ?, ?, ?)",
        (game_id, seat, decision_id, due),
    )


def deadline(game_id: int, seat: int, decision_id: str, due: float) -> Statement:
    return (
        "INSERT INTO timers (game_id, kind, seat, decision_id, due) VALUES (?, 'deadline', ?, ?, ?)",
        (game_id, seat, decision_id, due),
    )


def away_end(game_id: int, seat: int, due: float) -> Statement:
    return "INSERT INTO timers (game_id, kind, seat, due) VALUES (?, 'away_end', ?, ?)", (game_id, seat, due)


def clear_away_end(game_id: int, seat: int) -> Statement:
    return "DELETE FROM timers WHERE game_id = ? AND seat = ? AND kind = 'away_end'", (game_id, seat)
