"""Stopping the bot as a service manager does (``systemctl stop``, ``docker stop``: SIGTERM) closes it as Ctrl-C
does: the click being answered at that moment is answered, then the process ends by itself with status 0,
leaving nothing to the resource tracker. Python's default for SIGTERM ended the process on the spot. A start and
stop like this one logs no warning at all (discord.py's about voice libraries included: the bot has no voice)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from tests.e2e.fake_discord import BOT_LAUNCHER, FakeDiscord

START_S = 60.0
STOP_S = 30.0


async def test_sigterm_answers_the_click_in_hand_then_ends_the_bot_cleanly(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    log_path = tmp_path / "bot.log"
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "DEV_GUILD_ID": "",
        "FAKE_DISCORD_REST": fake.rest_base,
        "FAKE_DISCORD_GATEWAY": fake.gateway_url,
        "PYTHONUNBUFFERED": "1",
    }
    with log_path.open("wb") as log_file:
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-c", BOT_LAUNCHER, cwd=tmp_path, env=env, stdout=log_file, stderr=log_file
        )
    try:
        await fake.wait_for(lambda: fake.identifies and "rules" in fake.commands, START_S)
        await asyncio.sleep(0.5)  # READY and GUILD_CREATE processed
        alice = fake.add_user("alice")
        fake.hold_callbacks = asyncio.Event()
        record = await fake.slash(alice, "rules", fake.general, game="babylone")
        await fake.wait_for(lambda: fake.callbacks_held == 1, START_S)  # the bot is answering the click

        bot.send_signal(signal.SIGTERM)
        await asyncio.sleep(0.5)
        bot.send_signal(signal.SIGTERM)  # impatient: the close under way goes on, once
        await asyncio.sleep(0.5)
        assert bot.returncode is None, "the bot ended while a click was still being answered"
        fake.hold_callbacks.set()  # Discord answers; the bot finishes the interaction, then closes
        status = await asyncio.wait_for(bot.wait(), STOP_S)
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
    log = log_path.read_text(errors="replace")
    print(log[-4000:])  # shown by pytest when the test failed
    assert status == 0
    assert record.responded.is_set()
    assert log.count("SIGTERM received: closing") == 1 and "SIGTERM received again: still closing" in log
    assert log.rstrip().endswith("closed")
    assert "Traceback" not in log and "leaked" not in log and "WARNING" not in log
