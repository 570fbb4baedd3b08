"""Which language each person and each server reads (issue 23): a player's ``/settings language`` (else the
locale of their Discord client, remembered from their last interaction), a server's ``/game language``.

Public channel messages use the server's language (English until an admin sets one); DMs and ephemeral answers
use the player's. Both are kept in the key/value settings tables of migration 0009 (``user_settings`` keys
``language`` and ``discord_locale``, ``guild_settings`` key ``language``), so no new table is needed.
"""

from __future__ import annotations

from i18n import DEFAULT, LANGUAGES

from ..models import Actor, HostError
from ..storage import games as stored_games
from ..storage import settings as stored_settings
from .core import Games, guild_language_in, user_language_in
from .notify import AUTO_LANGUAGE as AUTO
from .notify import normalise_language


class Language:
    """Nothing is cached: another process may change a setting, and one indexed query per message is cheap next
    to posting it."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def user_language(self, user_id: str | None, interaction_locale: str | None = None) -> str:
        """The language ``user_id`` reads DMs and ephemeral answers in: their choice, else the locale of the
        interaction being answered, else the one of their last interaction, else English."""
        if user_id is None:
            return DEFAULT
        return await user_language_in(self.games.store, user_id, interaction_locale)

    async def note_locale(self, user_id: str, locale: str) -> None:
        """Remember the locale of the user's Discord client (from an interaction) for the DMs sent them later;
        stored only when it changed."""
        await self.games.remember_locale(
            user_id, await stored_settings.language_settings(self.games.store, user_id), locale
        )

    async def guild_language(self, guild_id: str | None) -> str:
        """The language of a server's public messages (``/game language``), English until set."""
        return await guild_language_in(self.games.store, guild_id)

    async def game_language(self, game_id: int) -> str:
        """The language of a game's channel messages: its server's."""
        return await self.guild_language(await stored_games.guild_of(self.games.store, game_id))

    async def set_guild_language(self, guild_id: str | None, actor: Actor, code: str) -> str:
        """``/game language``: the server's language for public messages (Manage Server)."""
        if guild_id is None:
            raise HostError("A server's language is set in a channel of that server.")
        if not actor.can_manage_server:
            raise HostError("Only a member with Manage Server can change the server's language.")
        code = normalise_language(code)
        if code == AUTO:
            code = DEFAULT
        await self.games.put_setting("guild_settings", guild_id, "language", code)
        return f"Public messages on this server are now in {LANGUAGES[code]}."
