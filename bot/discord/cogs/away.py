"""Away mode: ``/away until``, ``/away off``, ``/away status`` and a server's ``/away allowance``.

Discord offers no date-time picker for slash command options (the option types are text, numbers, booleans,
users, channels, roles, mentionables and attachments), so the date is typed and the host reads it strictly.
"""

from __future__ import annotations

from discord import app_commands
from discord.ext import commands

from ..app import PrincesBot
from ..common import Interaction, actor_of, send, within_ack


class AwayCog(
    commands.GroupCog, group_name="away", group_description="Away mode: the AI plays all your games"
):
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="until",
        description="Be away a day or more (whole days count): the AI plays your next decisions in every game",
    )
    @app_commands.describe(date="when you are back: 2026-12-24, 2026-12-24 18:00 (your /settings time zone)")
    async def until(self, interaction: Interaction, date: app_commands.Range[str, 1, 40]) -> None:
        guild = str(interaction.guild_id) if interaction.guild_id else None
        work = self.bot.host.go_away(actor_of(interaction), date, guild)
        deliveries = await within_ack(interaction, work, at_once=True)  # the AI takes seats in every game
        await send(interaction, await self.bot.host.away_text(str(interaction.user.id)))
        await self.bot.sender.deliver(deliveries)

    @app_commands.command(name="off", description="Back now: play all your seats yourself again")
    async def off(self, interaction: Interaction) -> None:
        deliveries = await within_ack(interaction, self.bot.host.come_back(actor_of(interaction)))
        await send(interaction, "Welcome back: your seats are yours again.")
        await self.bot.sender.deliver(deliveries)

    @app_commands.command(
        name="status", description="Whether you are away, and your away days left this year"
    )
    async def status(self, interaction: Interaction) -> None:
        await send(interaction, await self.bot.host.away_text(str(interaction.user.id)))

    @app_commands.command(name="allowance", description="Away days a year on this server (Manage Server)")
    @app_commands.describe(days="away days per calendar year, 0 to 366 (default 14)")
    async def allowance(self, interaction: Interaction, days: app_commands.Range[float, 0, 366]) -> None:
        guild = str(interaction.guild_id) if interaction.guild_id else None
        await send(interaction, await self.bot.host.set_away_allowance(guild, actor_of(interaction), days))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, PrincesBot)
    await bot.add_cog(AwayCog(bot))
