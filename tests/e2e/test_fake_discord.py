"""The fake Discord itself, driven by a tiny throwaway bot: login, sync, a command, a button, a DM, a file."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
import pytest
import yarl
from discord import app_commands
from discord.ext import commands

from tests.e2e.conftest import teardown_problems
from tests.e2e.fake_discord import FakeDiscord


class EchoButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"echo:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Echo {n}", custom_id=f"echo:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EchoButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(f"echo {self.n}", ephemeral=True)


class TinyBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned, intents=discord.Intents.none(), guild_ready_timeout=0.01
        )
        self.guild_id = guild_id
        self.errors: list[BaseException] = []

    async def setup_hook(self) -> None:
        self.add_dynamic_items(EchoButton)

        @app_commands.command(name="ping", description="Answer with a button, a DM and a file")
        async def ping(interaction: discord.Interaction[Any], n: int) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(EchoButton(n))
            await interaction.response.send_message(f"pong {n}", view=view)
            dm = await self.create_dm(interaction.user)
            await dm.send("psst", file=discord.File(io.BytesIO(b"\x89PNG fake"), "board.png"))
            await interaction.followup.send("done", ephemeral=True)

        @self.tree.error
        async def record(interaction: discord.Interaction[Any], error: Exception) -> None:
            self.errors.append(error)

        self.tree.add_command(ping)
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)


async def test_command_button_dm_file(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.rest_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    bot = TinyBot(fake.guild_id)
    try:
        await bot.login(fake.token)
        task = asyncio.create_task(bot.connect())
        await asyncio.wait_for(bot.wait_until_ready(), 5)
        assert "ping" in fake.commands
        alice = fake.add_user("alice")
        record = await fake.slash(alice, "ping", n=7)
        await fake.wait_for(lambda: len(fake.replies(record)) == 2)
        public, private = fake.replies(record)
        assert public.content == "pong 7" and not public.ephemeral
        assert private.ephemeral and private.visible_to == alice.id
        [dm] = fake.dm_messages(alice)
        assert dm.files == [("board.png", b"\x89PNG fake")]
        click = await fake.click(alice, public, "echo:7")
        await fake.wait_for(lambda: fake.replies(click))
        assert fake.replies(click)[0].content == "echo 7"
        assert not bot.errors
        # within Discord's contract and answered in time, as the ``fake`` fixture checks
        assert not teardown_problems(fake)
    finally:
        await bot.close()
        await fake.stop()
    task.cancel()
