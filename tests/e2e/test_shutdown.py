"""Stopping the bot as a service manager does (``systemctl stop``, ``docker stop``: SIGTERM) or as a person at a
terminal does (Ctrl-C: SIGINT) closes it: the click being answered at that moment is answered, then the process
ends by itself with status 0, leaving nothing to the resource tracker. Python's defaults ended the process on the
spot (SIGTERM) or with tracebacks (Ctrl-C). A start and stop like these log no warning at all (discord.py's about
voice libraries included: the bot has no voice)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from tests.e2e.fake_discord import BOT_LAUNCHER, FakeDiscord, InteractionRecord

START_S = 60.0
STOP_S = 30.0


@asynccontextmanager
async def bot_answering_a_click(
    fake: FakeDiscord, tmp_path: Path
) -> AsyncIterator[tuple[asyncio.subprocess.Process, InteractionRecord]]:
    """A real bot process, connected, in the middle of answering /rules: Discord holds its response."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake.token,
        "DATABASE_PATH": str(tmp_path / "bot.sqlite3"),
        "DEV_GUILD_ID": "",
        "FAKE_DISCORD_REST": fake.rest_base,
        "FAKE_DISCORD_GATEWAY": fake.gateway_url,
        "PYTHONUNBUFFERED": "1",
    }
    with (tmp_path / "bot.log").open("wb") as log_file:
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-c", BOT_LAUNCHER, cwd=tmp_path, env=env, stdout=log_file, stderr=log_file
        )
    try:
        await fake.wait_for(lambda: fake.identifies and "rules" in fake.commands, START_S)
        await asyncio.sleep(0.5)  # READY and GUILD_CREATE processed
        fake.hold_callbacks = asyncio.Event()
        record = await fake.slash(fake.add_user("alice"), "rules", fake.general, game="babylone")
        await fake.wait_for(lambda: fake.callbacks_held == 1, START_S)
        yield bot, record
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()
        print(
            (tmp_path / "bot.log").read_text(errors="replace")[-4000:]
        )  # shown by pytest when the test failed


@pytest.mark.parametrize(
    ("number", "said"),
    [(signal.SIGTERM, "SIGTERM received: closing"), (signal.SIGINT, "Ctrl-C received: closing")],
)
async def test_a_stop_signal_answers_the_click_in_hand_then_ends_the_bot_cleanly(
    fake: FakeDiscord, tmp_path: Path, number: int, said: str
) -> None:
    async with bot_answering_a_click(fake, tmp_path) as (bot, record):
        bot.send_signal(number)
        await asyncio.sleep(0.5)
        if number == signal.SIGTERM:
            bot.send_signal(number)  # impatient: the close under way goes on, once
        await asyncio.sleep(0.5)
        assert bot.returncode is None, "the bot ended while a click was still being answered"
        assert fake.hold_callbacks is not None
        fake.hold_callbacks.set()  # Discord answers; the bot finishes the interaction, then closes
        status = await asyncio.wait_for(bot.wait(), STOP_S)
    log = (tmp_path / "bot.log").read_text(errors="replace")
    assert status == 0
    assert record.responded.is_set()
    assert log.count(said) == 1 and log.rstrip().endswith("closed")
    if number == signal.SIGTERM:
        assert "SIGTERM received again: still closing" in log
    assert "Traceback" not in log and "leaked" not in log and "WARNING" not in log


async def test_ctrl_c_pressed_twice_stops_at_once_without_a_traceback(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with bot_answering_a_click(fake, tmp_path) as (bot, _record):
        bot.send_signal(signal.SIGINT)
        await asyncio.sleep(0.5)
        assert bot.returncode is None  # draining the click in hand
        bot.send_signal(signal.SIGINT)
        status = await asyncio.wait_for(bot.wait(), STOP_S)
    log = (tmp_path / "bot.log").read_text(errors="replace")
    assert status == 130
    assert "press it again to stop at once" in log and log.rstrip().endswith("stopped")
    assert "Traceback" not in log
