"""Which language each person and each server reads (issue 23): a player's ``/settings language`` (else the
locale of their Discord client, remembered from their last interaction), a server's ``/game language``.

Public channel messages use the server's language (English until an admin sets one); DMs and ephemeral answers
use the player's. Both are kept in the key/value settings tables of migration 0009 (``user_settings`` keys
``language`` and ``discord_locale``, ``guild_settings`` key ``language``), so no new table is needed.
"""

from __future__ import annotations

from i18n import DEFAULT, LANGUAGES, language_of

from ..models import Actor, HostError
from .core import HostCore
from .notify import AUTO_LANGUAGE as AUTO
from .notify import normalise_language


class LanguageMixin(HostCore):
    """Nothing is cached: another process may change a setting, and one indexed query per message is cheap next
    to posting it."""

    async def _user_entry(self, user_id: str) -> tuple[str | None, str | None]:
        rows = await self.store.fetchall(
            "SELECT key, value FROM user_settings WHERE user_id = ? AND key IN ('language', 'discord_locale')",
            (user_id,),
        )
        values = {row["key"]: row["value"] for row in rows}
        return values.get("language"), values.get("discord_locale")

    async def user_language(self, user_id: str | None, interaction_locale: str | None = None) -> str:
        """The language ``user_id`` reads DMs and ephemeral answers in: their choice, else the locale of the
        interaction being answered, else the one of their last interaction, else English."""
        if user_id is None:
            return DEFAULT
        chosen, seen = await self._user_entry(user_id)
        if chosen and chosen != AUTO:
            return language_of(chosen)
        return language_of(interaction_locale or seen)

    async def note_locale(self, user_id: str, locale: str) -> None:
        """Remember the locale of the user's Discord client (from an interaction) for the DMs sent them later;
        stored only when it changed."""
        _chosen, seen = await self._user_entry(user_id)
        if seen == locale:
            return
        await self._set_setting("user_settings", user_id, "discord_locale", locale)

    async def guild_language(self, guild_id: str | None) -> str:
        """The language of a server's public messages (``/game language``), English until set."""
        if guild_id is None:
            return DEFAULT
        chosen = await self._guild_setting(guild_id, "language")
        return language_of(chosen) if chosen else DEFAULT

    async def game_language(self, game_id: int) -> str:
        """The language of a game's channel messages: its server's."""
        row = await self.store.fetchone("SELECT guild_id FROM games WHERE id = ?", (game_id,))
        return await self.guild_language(row["guild_id"] if row else None)

    async def set_guild_language(self, guild_id: str | None, actor: Actor, code: str) -> str:
        """``/game language``: the server's language for public messages (Manage Server)."""
        if guild_id is None:
            raise HostError("A server's language is set in a channel of that server.")
        if not actor.can_manage_server:
            raise HostError("Only a member with Manage Server can change the server's language.")
        code = normalise_language(code)
        if code == AUTO:
            code = DEFAULT
        await self._set_setting("guild_settings", guild_id, "language", code)
        return f"Public messages on this server are now in {LANGUAGES[code]}."
