"""Information and preferences: ``/rules``, ``/mygames``, ``/settings``, ``/help`` (all answered only to you)."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.hosting.rules_pages import ALL, RulesPage
from bot.leagues.digest import league_lines
from bot.models import GameInfo
from i18n import command_path, translate

from ..app import PrincesBot
from ..common import MAX_GAME_ID, Interaction, chunks, reader_language, send
from .game import game_key_autocomplete
from .play import keyed_choices

EMBED_LIMIT = 4096


def page_parts(pieces: tuple[str, ...], limit: int = EMBED_LIMIT) -> list[str]:
    """A page's pieces gathered into as few texts of at most ``limit`` characters as their order allows, each
    piece whole (a section read in the reader's language is not cut in two), one longer than ``limit`` cut at
    line ends."""
    parts: list[str] = []
    for piece in filter(None, pieces):
        if parts and len(parts[-1]) + 1 + len(piece) <= limit:
            parts[-1] = f"{parts[-1]}\n{piece}"
        else:
            parts += chunks(piece, limit)
    return parts or [""]


def page_embeds(page: RulesPage) -> list[discord.Embed]:
    """``/rules``' and ``/help``'s messages: the page (already in the reader's language) in embeds, each part
    of a long page titled with its number."""
    parts = page_parts(page.pieces)
    return [
        discord.Embed(
            title=page.title if len(parts) == 1 else f"{page.title} ({number}/{len(parts)})", description=part
        )
        for number, part in enumerate(parts, 1)
    ]


def section_choices(
    sections: list[tuple[str, str]], current: str, language: str
) -> list[app_commands.Choice[str]]:
    """The section autocomplete: ``all`` and each section (titles in the reader's language) whose key or title
    holds what was typed."""
    typed = current.strip().lower()
    every = [(ALL, translate(language, "every section")), *sections]
    shown = [(key, title) for key, title in every if typed in key or typed in title.lower()]
    return keyed_choices(shown[:25])


def help_lines(commands: list[app_commands.Command[Any, ..., Any]], language: str) -> list[str]:
    """``/help``: every command as the reader's Discord client names it, with its description, in ``language``."""
    lines = [translate(language, "**Princes' Table**: board games played over days, one game per channel.")]
    for command in commands:
        lines.append(
            translate(
                language,
                "`/{command}` — {text}",
                command=command_path(language, command.qualified_name),
                text=translate(language, command.description),
            )
        )
    lines.append(
        translate(
            language,
            "Buttons on turn messages answer your decision; /{command} lists your legal moves as you type.",
            command=command_path(language, "move"),
        )
    )
    return lines


def game_line(info: GameInfo, user_id: str) -> str:
    where = (
        f"https://discord.com/channels/{info.guild_id}/{info.channel_id}"
        if info.guild_id
        else f"<#{info.channel_id}>"
    )
    turn = " — **your turn**" if info.waiting_on_user(user_id) else ""
    return f"**{info.title}** #{info.game_id} ({info.status}){turn}: {where}"


class InfoCog(commands.Cog):
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="rules", description="A game's rules notes: how this bot settles open questions"
    )
    @app_commands.describe(
        game="which game (leave empty to list the games)",
        section="one section of the notes, or all (leave empty for the contents)",
    )
    @app_commands.autocomplete(game=game_key_autocomplete)
    async def rules(
        self, interaction: Interaction, game: str | None = None, section: str | None = None
    ) -> None:
        language = await reader_language(interaction)
        # read in the reader's language before it is cut into messages: each section is one catalog entry, read
        # whole; the embeds go out as they are (``send`` reads only the empty content)
        for embed in page_embeds(self.bot.host.rules_page(game, section, language)):
            await send(interaction, "", embed=embed)

    @rules.autocomplete("section")
    async def rules_section_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The sections of the game already chosen in the command (none before a game is chosen)."""
        game = getattr(interaction.namespace, "game", None)
        language = await reader_language(interaction)
        sections = self.bot.host.rules_sections(game if isinstance(game, str) else None, language)
        return section_choices(sections, current, language)

    @app_commands.command(name="mygames", description="Your games on every server, and where it is your turn")
    async def mygames(self, interaction: Interaction) -> None:
        user_id = str(interaction.user.id)
        games = await self.bot.host.my_games(user_id)
        if not games:
            await send(interaction, "You are not in any game. Start one with /game new or join a lobby.")
            return
        games.sort(key=lambda info: not info.waiting_on_user(user_id))
        leagues = await league_lines(self.bot.host.store, user_id)  # "league <name>, round 3" under its games
        lines = [
            game_line(info, user_id) + (f"\n{leagues[info.game_id]}" if info.game_id in leagues else "")
            for info in games
        ]
        for part in chunks("\n".join(lines)):
            await send(interaction, part)

    @app_commands.command(
        name="settings", description="Your preferences: pings, quiet hours, reminders, muted games, passes"
    )
    @app_commands.describe(
        turn_dms="on: get every turn of yours by DM with buttons (games with hidden "
        "information always DM you)",
        mentions="on: your turns mention you in the game's channel",
        autopass="on: take the automatic pass where a game offers one as your default",
        orders="on: begin each new game with its recommended standing orders (see /orders)",
        quiet_hours="no pings between these times in your time zone, e.g. 22:00-07:00, or off",
        time_zone="your time zone (IANA name), e.g. Europe/Paris, America/New_York, UTC",
        reminders="reminders at these shares of the time left, e.g. 50%,10%, or off",
        mute="a game number: no mentions or reminders from that game",
        unmute="a game number to hear from again",
        language="the language of your DMs and of the answers only you see (auto: your Discord's)",
    )
    async def settings(
        self,
        interaction: Interaction,
        turn_dms: Literal["on", "off"] | None = None,
        mentions: Literal["on", "off"] | None = None,
        autopass: Literal["on", "off"] | None = None,
        orders: Literal["on", "off"] | None = None,
        quiet_hours: app_commands.Range[str, 1, 20] | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
        reminders: app_commands.Range[str, 1, 20] | None = None,
        mute: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
        unmute: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
        language: Literal["auto", "en", "pl"] | None = None,
    ) -> None:
        user_id = str(interaction.user.id)
        changes = {
            "turn_dms": turn_dms,
            "mentions": mentions,
            "autopass": autopass,
            "orders": orders,
            "time_zone": time_zone,
            "quiet_hours": quiet_hours,
            "reminders": reminders,
            "mute": None if mute is None else str(mute),
            "unmute": None if unmute is None else str(unmute),
            "language": language,
        }
        for key, value in changes.items():
            if value is not None:
                await self.bot.host.set_setting(user_id, key, value)
        await send(interaction, await self.bot.host.settings_text(user_id))

    @app_commands.command(name="help", description="What every command does")
    async def help(self, interaction: Interaction) -> None:
        language = await reader_language(interaction)
        commands_ = [c for c in self.bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
        page = RulesPage(translate(language, "Commands"), tuple(help_lines(commands_, language)))
        # built in the reader's language (the command names their client shows); sent as embeds as they are
        for embed in page_embeds(page):
            await send(interaction, "", embed=embed)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, PrincesBot)
    await bot.add_cog(InfoCog(bot))
