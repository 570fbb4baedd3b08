"""Searching AIs think in worker processes beside the bot's loop (which leave with the bot); a seat may set its
AI's time; the lobby shows what each level measured head to head."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.host import Host, HostError
from bot.hosting import lobby
from bot.hosting.play import AI_WORKERS, AIWorkers
from rules.engine import get_game
from rules.engine.playout import play
from tests.conftest import ALICE

CHANNEL = "chan-ai"


async def test_a_searching_ai_answers_from_a_worker_process(host: Host) -> None:
    await host.create_game("guild", CHANNEL, ALICE, "game-of-princes", {})
    await host.add_ai(CHANNEL, ALICE, "hard")
    deliveries = await host.start(CHANNEL, ALICE, order="given")
    game_id = deliveries[0].game_id
    await host.act(game_id, ALICE, "S1,1>2,2")
    info = await host.game_info(game_id)
    assert info.pending_users == [ALICE.user_id]  # the AI has moved: Red is to move again
    assert AI_WORKERS._pool is not None  # and it thought in the worker pool


async def test_the_loop_stays_free_while_an_ai_thinks() -> None:
    """A second of search in a worker: the loop meanwhile wakes up on time (a thread would hold the
    interpreter's lock for most of that second)."""
    game = get_game("game-of-princes")
    state = play(game, 2, 3, stop_after=20).state
    seat = state["to_move"]
    legal = game.legal_actions(state, seat)
    workers = AIWorkers(1)
    try:
        await workers.decide(game, game.view(state, seat), seat, legal, "easy", random.Random(1))
        thinking = asyncio.ensure_future(
            workers.decide(game, game.view(state, seat), seat, legal, "expert:1s", random.Random(1))
        )
        lags = []
        while not thinking.done():
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - started - 0.01)
        assert await thinking in legal
        assert len(lags) > 20  # the loop ran all along (no timing bound here: see bench ai for the lag)
    finally:
        workers.shutdown()


async def test_a_seat_may_set_its_ai_time(host: Host) -> None:
    await host.create_game("guild", CHANNEL, ALICE, "pharaoh", {})
    info = await host.add_ai(CHANNEL, ALICE, "Expert 2.5s")
    assert info.seats[-1].ai_level == "expert:2.5s"
    with pytest.raises(HostError, match="from 0.1 to 10 seconds"):
        await host.add_ai(CHANNEL, ALICE, "expert:30s")
    with pytest.raises(HostError, match="AI levels for Pharaoh: expectimax, expert, greedy, random"):
        await host.add_ai(CHANNEL, ALICE, "wizard:2s")


async def test_the_lobby_shows_each_levels_measured_strength(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    figures = {"expert": {"against": "hard", "won": 9, "lost": 3, "drawn": 28, "players": 2}, "hard": "junk"}
    monkeypatch.setattr(lobby, "_strength_figures", lambda game_class: figures)
    info = await host.create_game("guild", CHANNEL, ALICE, "game-of-princes", {})
    text = lobby.lobby_message(info)
    assert "`expert`: against `hard`: won 9, lost 3, drawn 28 of 40 games (75% of the decided games)" in text
    assert "AI hard" not in text  # an unreadable entry shows nothing rather than failing the lobby
    game = get_game("game-of-princes")
    assert lobby.level_strength(game, "expert:3s") == lobby.level_strength(game, "expert")
    assert lobby.level_strength(game, "medium") is None


def _gone(pid: int) -> bool:
    """The process has ended (no longer listed, or a zombie nobody has reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_leaves_once_its_bot_is_killed_outright() -> None:
    """A bot killed with ``kill -9`` cannot shut its pool down: its workers notice and end (they used to wait
    for jobs for ever, one more process left behind by every restart)."""
    script = textwrap.dedent(
        """
        import asyncio, os, time
        from bot.workers import Workers

        async def main():
            print(await Workers(1).run(os.getpid), flush=True)
            time.sleep(60)

        asyncio.run(main())
        """
    )
    root = Path(__file__).resolve().parents[2]
    bot = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, cwd=root, text=True)
    assert bot.stdout is not None
    try:
        worker = int(bot.stdout.readline())
        assert worker != bot.pid and not _gone(worker)
    finally:
        bot.kill()
        bot.wait()
        bot.stdout.close()
    deadline = time.monotonic() + 10
    while not _gone(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _gone(worker)
