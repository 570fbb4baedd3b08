"""The command list the bot syncs with Discord, built without the network (the contract and glossary tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.discord.app import PrincesBot
from bot.host import Host


async def synced_commands(database: Path) -> list[dict[str, Any]]:
    """What ``tree.sync()`` sends: the bot set up as ``run_bot`` sets it up (its translator, its cogs), without
    the network, each command's payload translated as discord.py translates it."""
    host = await Host.open(database)
    bot = PrincesBot(host, sync_commands=False, run_timers=False)
    try:
        await bot.setup_hook()
        assert bot._catch_up_task is not None
        await bot._catch_up_task
        translator = bot.tree.translator
        assert translator is not None
        return [
            await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree._get_all_commands()
        ]
    finally:
        await host.close()
