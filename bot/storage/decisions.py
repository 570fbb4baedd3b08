"""What players decide beside the event log: sealed choices, deadline offers, DM prompts, standing orders and
the decisions answered automatically."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import Connection, Reader, Row, Statement

#: a sealed choice of an imported game: decision, seat, action, nonce, commit, created
ImportedSeal = tuple[str, int, str, str, str, float]


# ---- sealed choices --------------------------------------------------------------------------------------
async def sealed_record(reader: Reader, game_id: int) -> list[dict[str, Any]]:
    """Every sealed choice of the game in the order sealed: decision, seat, action, nonce, commit."""
    rows = await reader.fetchall(
        "SELECT decision_id, seat, action, nonce, commit_hash FROM sealed WHERE game_id = ? "
        "ORDER BY created_at, seat",
        (game_id,),
    )
    return [dict(row) for row in rows]


async def unapplied(reader: Reader, game_id: int) -> list[Row]:
    """Sealed choices not applied yet: seat, decision, action, actor."""
    return await reader.fetchall(
        "SELECT seat, decision_id, action, actor FROM sealed WHERE game_id = ? AND applied = 0", (game_id,)
    )


async def sealing_times(reader: Reader, game_id: int) -> dict[tuple[str, int], float]:
    """When each (decision, seat) was sealed."""
    rows = await reader.fetchall(
        "SELECT decision_id, seat, created_at FROM sealed WHERE game_id = ?", (game_id,)
    )
    return {(row["decision_id"], row["seat"]): row["created_at"] for row in rows}


def seal(
    game_id: int, decision_id: str, seat: int, action: str, nonce: str, commit: str, now: float, actor: str
) -> Statement:
    return (
        "INSERT INTO sealed (game_id, decision_id, seat, action, nonce, commit_hash, created_at, actor) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, decision_id, seat, action, nonce, commit, now, actor),
    )


def apply_sealed(game_id: int) -> Statement:
    return "UPDATE sealed SET applied = 1 WHERE game_id = ? AND applied = 0", (game_id,)


def drop_unapplied(game_id: int) -> Statement:
    return "DELETE FROM sealed WHERE game_id = ? AND applied = 0", (game_id,)


async def import_sealed(db: Connection, game_id: int, seals: Sequence[ImportedSeal]) -> None:
    """An imported game's sealed choices, all applied."""
    await db.executemany(
        "INSERT INTO sealed (game_id, decision_id, seat, action, nonce, commit_hash, applied, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
        [(game_id, *seal) for seal in seals],
    )


# ---- deadline offers -------------------------------------------------------------------------------------
async def offers(reader: Reader, game_id: int) -> list[Row]:
    """The game's open offers: offer, seat, decision."""
    return await reader.fetchall(
        "SELECT offer_id, seat, decision_id FROM offers WHERE game_id = ?", (game_id,)
    )


async def offer(reader: Reader, game_id: int, offer_id: str) -> Row | None:
    """An open offer's seat and decision."""
    return await reader.fetchone(
        "SELECT seat, decision_id FROM offers WHERE game_id = ? AND offer_id = ?", (game_id, offer_id)
    )


def add_offer(game_id: int, offer_id: str, seat: int, decision_id: str, now: float) -> Statement:
    return (
        "INSERT INTO offers (game_id, offer_id, seat, decision_id, created_at) VALUES (?, ?, ?, ?, ?)",
        (game_id, offer_id, seat, decision_id, now),
    )


def close_offer(game_id: int, offer_id: str) -> Statement:
    return "DELETE FROM offers WHERE game_id = ? AND offer_id = ?", (game_id, offer_id)


# ---- decision prompts sent by DM -------------------------------------------------------------------------
async def remember_dm_prompt(db: Connection, game_id: int, seat: int, decision_id: str) -> None:
    await db.execute(
        "INSERT INTO dm_prompts (game_id, seat, decision_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (game_id, seat, decision_id),
    )


async def dm_prompts(reader: Reader, game_id: int) -> list[tuple[int, str]]:
    """The game's open DM prompts: (seat, decision)."""
    rows = await reader.fetchall("SELECT seat, decision_id FROM dm_prompts WHERE game_id = ?", (game_id,))
    return [(row["seat"], row["decision_id"]) for row in rows]


async def forget_dm_prompt(db: Connection, game_id: int, seat: int, decision_id: str) -> None:
    await db.execute(
        "DELETE FROM dm_prompts WHERE game_id = ? AND seat = ? AND decision_id = ?",
        (game_id, seat, decision_id),
    )


# ---- standing orders and answers given ahead -------------------------------------------------------------
async def standing_orders(reader: Reader, game_id: int) -> list[Row]:
    """Every player's standing orders in the game: user, topic, choice, names (JSON)."""
    return await reader.fetchall(
        "SELECT user_id, topic, choice, names FROM standing_orders WHERE game_id = ?", (game_id,)
    )


async def put_order(
    db: Connection, game_id: int, user_id: str, topic: str, choice: str, names: str, now: float
) -> None:
    """Keep a player's standing order on ``topic`` (``names``: JSON), replacing the one they had."""
    await db.execute(*put_order_row(game_id, user_id, topic, choice, names, now))


def put_order_row(game_id: int, user_id: str, topic: str, choice: str, names: str, now: float) -> Statement:
    """``put_order`` as a statement of a step's change (a turn answered ahead used up as it is played)."""
    return (
        "INSERT INTO standing_orders (game_id, user_id, topic, choice, names, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id, topic) DO UPDATE SET "
        "choice = excluded.choice, names = excluded.names, updated_at = excluded.updated_at",
        (game_id, user_id, topic, choice, names, now),
    )


def drop_order(game_id: int, user_id: str, topic: str) -> Statement:
    return (
        "DELETE FROM standing_orders WHERE game_id = ? AND user_id = ? AND topic = ?",
        (game_id, user_id, topic),
    )


# ---- decisions answered without their player's click -----------------------------------------------------
def note_automatic_answer(game_id: int, decision_id: str, seat: int) -> Statement:
    return (
        "INSERT INTO automatic_answers (game_id, decision_id, seat) VALUES (?, ?, ?) "
        "ON CONFLICT (game_id, decision_id, seat) DO NOTHING",
        (game_id, decision_id, seat),
    )


async def automatic_answers(reader: Reader, game_id: int) -> set[tuple[str, int]]:
    rows = await reader.fetchall(
        "SELECT decision_id, seat FROM automatic_answers WHERE game_id = ?", (game_id,)
    )
    return {(row["decision_id"], row["seat"]) for row in rows}
