"""Lost places: a game whose channel is deleted (or whose server removed the bot) pauses, its players hear by
DM, and ``/game resume`` in another channel of the server continues it there. Posting into a channel the bot
can no longer reach is detected by the sender the same way."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from ..app import PrincesBot

log = logging.getLogger(__name__)


class PlacesCog(commands.Cog):
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot

    async def lost(self, channel_ids: list[int]) -> None:
        async with self.bot.busy():
            for channel_id in channel_ids:
                try:
                    deliveries = await self.bot.host.channel_lost(str(channel_id))
                    await self.bot.sender.deliver(deliveries)
                except Exception:
                    log.exception("channel %s lost: pausing its game failed", channel_id)

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.lost([channel.id])

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        # the raw event: ``on_thread_delete`` only fires for a thread in discord.py's cache, and an archived
        # thread (a game's thread archives itself after 7 days without a message) or one unseen since a restart
        # is not in it (issue 42: such a thread deleted left its game waiting in a place that no longer exists)
        await self.lost([payload.thread_id])

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.lost([channel.id for channel in guild.channels])


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, PrincesBot)
    await bot.add_cog(PlacesCog(bot))
