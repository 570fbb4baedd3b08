"""After the game: ``/stats``, ``/leaderboard`` and ``/game replay``, all answered to the asker only.

``/game replay`` belongs to the ``/game`` group of ``bot.discord.cogs.game``; this extension adds it to that group
when it loads (it is loaded after the game cog), so everything about finished games lives here.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.models import HostError
from bot.stats import game_report, leaderboard, leaderboard_text, player_records, records_text
from rules.engine import RulesError, get_game

from ..app import PrincesBot
from ..common import MAX_GAME_ID, Interaction, bot_of, channel_key, chunks, heavy, send, within_ack
from ..replays import answer_replay
from .game import game_key_autocomplete

#: the largest step a command accepts
MAX_STEP = 1_000_000


def _game_key(text: str) -> str:
    try:
        return get_game(text.strip().lower()).key
    except RulesError as error:
        raise HostError(str(error)) from None


class ResultsCog(commands.Cog):
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot

    @heavy("stats")
    @app_commands.command(
        name="stats",
        description="Games, wins, rating, favourite side, answer time; a game's own figures (only to you)",
    )
    @app_commands.describe(player="whose statistics (default: yours)", game="one game (default: every game)")
    @app_commands.autocomplete(game=game_key_autocomplete)
    async def stats(
        self, interaction: Interaction, player: discord.User | None = None, game: str | None = None
    ) -> None:
        who = player or interaction.user
        if who.bot:
            raise HostError("Bots have no statistics; AI levels are on /leaderboard.")
        kind = _game_key(game) if game else None
        records = await within_ack(interaction, player_records(self.bot.host.store, str(who.id), kind))
        name = records[-1].name if records else who.display_name
        if not records and kind:
            name = f"{who.display_name} in {get_game(kind).title}"
        text = records_text(name, records)
        report = await game_report(self.bot.host.store, kind) if kind else None  # over every stored game
        if report is not None:
            text += "\n\n" + report
        for part in chunks(text):
            await send(interaction, part)

    @heavy("leaderboard")
    @app_commands.command(
        name="leaderboard", description="A game's best ratings, on this server or everywhere"
    )
    @app_commands.describe(
        game="which game", scope="server: players of this server (default); global: everyone"
    )
    @app_commands.autocomplete(game=game_key_autocomplete)
    async def leaderboard(
        self, interaction: Interaction, game: str, scope: Literal["server", "global"] = "server"
    ) -> None:
        kind = _game_key(game)
        if scope == "server" and interaction.guild_id is None:
            raise HostError("In a direct message there is no server: ask for the global leaderboard.")
        guild = str(interaction.guild_id) if scope == "server" else None
        standings = await within_ack(interaction, leaderboard(self.bot.host.store, kind, guild))
        text = leaderboard_text(kind, standings, "this server" if guild else "all servers")
        for part in chunks(text):
            await send(interaction, part)


@heavy("replay")
@app_commands.command(
    name="replay", description="A finished game's animated replay and its boards step by step (only to you)"
)
@app_commands.describe(
    game="game number (default: this channel's latest finished game)", step="open the board at this step"
)
async def replay_command(
    interaction: Interaction,
    game: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
    step: app_commands.Range[int, 0, MAX_STEP] | None = None,
) -> None:
    game_id = game if game is not None else await _channel_game(interaction)
    interaction.extras["game_id"] = game_id
    await answer_replay(interaction, game_id, step)


async def _channel_game(interaction: Interaction) -> int:
    """The channel's latest game that is over (a game still running says so instead)."""
    host = bot_of(interaction).host
    over = await host.last_over_in_channel(channel_key(interaction))
    if over is not None:
        return over
    running = await host.game_in_channel(channel_key(interaction))
    if running is not None:
        raise HostError(
            f"{running.title} #{running.game_id} is still being played: its replay opens once it is over."
        )
    raise HostError("This channel has no finished game to replay. Name one with the game option.")


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, PrincesBot)
    await bot.add_cog(ResultsCog(bot))
    group = bot.tree.get_command("game")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("load bot.discord.cogs.game before bot.discord.cogs.results")
    group.add_command(replay_command)


async def teardown(bot: commands.Bot) -> None:
    group = bot.tree.get_command("game")
    if isinstance(group, app_commands.Group):
        group.remove_command("replay")
