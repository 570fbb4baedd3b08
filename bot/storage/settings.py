"""The key/value settings of servers and players (migration 0009), and players' away periods."""

from __future__ import annotations

from typing import Literal

from .base import Connection, Reader, Row

SettingsTable = Literal["guild_settings", "user_settings"]
_OWNER_COLUMN = {"guild_settings": "guild_id", "user_settings": "user_id"}
#: the per-player settings a loaded game keeps (``seat_settings``), beside each seat's mutes of the game
GAME_SETTINGS = "('turn_dms', 'autopass', 'mentions', 'quiet_hours', 'time_zone', 'reminders')"


async def guild_setting(reader: Reader, guild_id: str, key: str) -> str | None:
    row = await reader.fetchone(
        "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
    )
    return str(row["value"]) if row else None


async def put(db: Connection, table: SettingsTable, owner: str, key: str, value: str) -> None:
    """Store one setting of a server (``guild_settings``) or of a player (``user_settings``)."""
    column = _OWNER_COLUMN[table]
    await db.execute(
        f"INSERT INTO {table} ({column}, key, value) VALUES (?, ?, ?) "
        f"ON CONFLICT ({column}, key) DO UPDATE SET value = excluded.value",
        (owner, key, value),
    )


async def user_settings(reader: Reader, user_id: str) -> dict[str, str]:
    rows = await reader.fetchall("SELECT key, value FROM user_settings WHERE user_id = ?", (user_id,))
    return {row["key"]: row["value"] for row in rows}


async def language_settings(reader: Reader, user_id: str) -> dict[str, str]:
    """The player's chosen ``language`` and the ``discord_locale`` of their last interaction, those set."""
    rows = await reader.fetchall(
        "SELECT key, value FROM user_settings WHERE user_id = ? AND key IN ('language', 'discord_locale')",
        (user_id,),
    )
    return {row["key"]: row["value"] for row in rows}


async def time_zone(reader: Reader, user_id: str) -> str | None:
    row = await reader.fetchone(
        "SELECT value FROM user_settings WHERE user_id = ? AND key = 'time_zone'", (user_id,)
    )
    return str(row["value"]) if row else None


async def seat_settings(reader: Reader, game_id: int, mute_key: str) -> list[Row]:
    """The game's seated players' notification settings and their mute of this game (``mute_key``): user, key,
    value."""
    return await reader.fetchall(
        "SELECT s.user_id, u.key, u.value FROM seats s JOIN user_settings u ON u.user_id = s.user_id "
        f"WHERE s.game_id = ? AND (u.key IN {GAME_SETTINGS} OR u.key = ?)",
        (game_id, mute_key),
    )


async def drop_user_setting(db: Connection, user_id: str, key: str) -> None:
    await db.execute("DELETE FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key))


async def switch_on(db: Connection, user_id: str, key: str) -> None:
    """A player setting that is only ever "on" (a game's mute): its absence is "off"."""
    await db.execute("INSERT INTO user_settings (user_id, key, value) VALUES (?, ?, 'on')", (user_id, key))


# ---- away periods ----------------------------------------------------------------------------------------
async def away_until(reader: Reader, user_id: str, now: float) -> float | None:
    """When the player's away period running at ``now`` ends."""
    row = await reader.fetchone(
        "SELECT MAX(ends) FROM away_periods WHERE user_id = ? AND starts <= ? AND ends > ?",
        (user_id, now, now),
    )
    return float(row[0]) if row and row[0] is not None else None


async def away_periods_between(
    reader: Reader, user_id: str, low: float, high: float
) -> list[tuple[float, float]]:
    """The player's away periods that overlap ``low``..``high``: (starts, ends)."""
    rows = await reader.fetchall(
        "SELECT starts, ends FROM away_periods WHERE user_id = ? AND ends > ? AND starts < ?",
        (user_id, low, high),
    )
    return [(float(row["starts"]), float(row["ends"])) for row in rows]


async def running_away_period(reader: Reader, user_id: str, now: float) -> Row | None:
    """The away period running at ``now`` that ends last: id, starts, ends."""
    return await reader.fetchone(
        "SELECT id, starts, ends FROM away_periods WHERE user_id = ? AND starts <= ? AND ends > ? "
        "ORDER BY ends DESC LIMIT 1",
        (user_id, now, now),
    )


async def move_away_end(db: Connection, period_id: int, ends: float) -> None:
    await db.execute("UPDATE away_periods SET ends = ? WHERE id = ?", (ends, period_id))


async def add_away_period(db: Connection, user_id: str, starts: float, ends: float) -> None:
    await db.execute(
        "INSERT INTO away_periods (user_id, starts, ends) VALUES (?, ?, ?)", (user_id, starts, ends)
    )


async def end_away_periods(db: Connection, user_id: str, now: float) -> None:
    """Every away period of the player still running ends ``now``."""
    await db.execute("UPDATE away_periods SET ends = ? WHERE user_id = ? AND ends > ?", (now, user_id, now))
