"""The messages front-ends posted for a game and edit later in place (its live card, a lobby, a prompt)."""

from __future__ import annotations

from collections.abc import Collection

from .base import Connection, Reader


async def remember(db: Connection, game_id: int, purpose: str, channel_id: str, message_id: str) -> None:
    """The message posted for ``purpose``; nothing stands below a message just posted."""
    await db.execute(
        "INSERT INTO messages (game_id, purpose, channel_id, message_id, below) VALUES (?, ?, ?, ?, 0) "
        "ON CONFLICT (game_id, purpose) DO UPDATE SET channel_id = excluded.channel_id, "
        "message_id = excluded.message_id, below = 0",
        (game_id, purpose, channel_id, message_id),
    )


async def find(reader: Reader, game_id: int, purpose: str) -> tuple[str, str, int] | None:
    """The message posted for ``purpose``: its channel, its id and how many messages were posted below it."""
    row = await reader.fetchone(
        "SELECT channel_id, message_id, below FROM messages WHERE game_id = ? AND purpose = ?",
        (game_id, purpose),
    )
    return (row["channel_id"], row["message_id"], int(row["below"])) if row else None


async def of_purposes(
    reader: Reader, game_id: int, purposes: Collection[str]
) -> dict[str, tuple[str, str, int]]:
    """The messages remembered for ``purposes``, by purpose: channel, id and messages posted below each."""
    if not purposes:
        return {}
    marks = ", ".join("?" for _ in purposes)
    rows = await reader.fetchall(
        "SELECT purpose, channel_id, message_id, below FROM messages WHERE game_id = ? "
        f"AND purpose IN ({marks})",
        (game_id, *purposes),
    )
    return {row["purpose"]: (row["channel_id"], row["message_id"], int(row["below"])) for row in rows}


async def mark_sent(
    db: Connection,
    outbox_id: int,
    now: float,
    game_id: int,
    remembering: tuple[str, str, str] | None = None,
    below: tuple[str, str] | None = None,
) -> bool:
    """An outbox row is sent; False when it was marked already. With it: the message it posted, remembered as
    ``remembering`` = (purpose, channel, message); and ``below`` = (purpose, channel): it posted a new message in
    that channel under the game's message for that purpose, counted once (with the mark)."""
    marked = await db.execute(
        "UPDATE outbox SET sent_at = ? WHERE id = ? AND sent_at IS NULL", (now, outbox_id)
    )
    if remembering is not None:
        await remember(db, game_id, *remembering)
    if marked.rowcount and below is not None:
        await db.execute(
            "UPDATE messages SET below = below + 1 WHERE game_id = ? AND purpose = ? AND channel_id = ?",
            (game_id, *below),
        )
    return bool(marked.rowcount)
