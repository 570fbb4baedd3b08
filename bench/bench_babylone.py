"""Babylone through the host: per-turn latency (apply + persist + render + encode) beside its floors.

The renderer is warmed up first, as the bot does at start-up (``render.warm_up`` in a worker thread): without
it the run's first boards (fonts, palette and PNG bands not yet cached: about 20 ms, then 6 ms for a few turns)
are among its slowest few and so set the p99 of a few hundred turns, which measured start-up, not turns.

Floors measured in the same run: encoding the same board image alone, and one raw SQLite insert + commit.
Also the exact solver deciding the standard start from a cold cache (goal < 0.5 s).
"""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
import time
from pathlib import Path

from bot.host import Host
from bot.models import Actor
from render import render_png, render_view, warm_up
from render.common import encode_png
from rules.babylone import COLOURS
from rules.babylone.solver import canonical, is_win

from .stats import line, time_ms

GAMES = 40
GOAL_P99_MS = 10.0


async def _turn_latencies(folder: Path) -> tuple[list[float], dict]:
    await asyncio.to_thread(warm_up)  # as the bot does once it is up (bot/discord/app.py)
    host = await Host.open(folder / "bench.sqlite3")
    players = [Actor("1", "alice"), Actor("2", "bob")]
    samples: list[float] = []
    last_view: dict = {}
    try:
        for index in range(GAMES):
            channel = f"bench-{index}"
            info = await host.create_game(None, channel, players[0], "babylone", {"first": "1"}, seed=index)
            await host.join(channel, players[1])
            await host.start(channel, players[0], order="given")
            while True:
                game = await host.game_info(info.game_id)
                if game.status != "active":
                    break
                actor = players[0] if game.pending_users == [players[0].user_id] else players[1]
                choice = (await host.suggestions(info.game_id, actor.user_id, ""))[0]
                started = time.perf_counter()
                deliveries = await host.act(info.game_id, actor, choice.action)
                public = next(d for d in deliveries if d.kind == "public")
                await asyncio.to_thread(render_png, "babylone", public.view)  # as the front-end does
                for delivery in deliveries:
                    await host.mark_sent(delivery.id)
                samples.append((time.perf_counter() - started) * 1000)
                last_view = public.view or last_view
    finally:
        await host.close()
    return samples, last_view


def _sqlite_insert_floor(folder: Path) -> list[float]:
    connection = sqlite3.connect(folder / "floor.sqlite3", isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("CREATE TABLE t (game INTEGER, seq INTEGER, action TEXT)")
    counter = iter(range(10**9))

    def insert() -> None:
        connection.execute("BEGIN")
        connection.execute("INSERT INTO t VALUES (1, ?, '3>7')", (next(counter),))
        connection.execute("COMMIT")

    samples = time_ms(insert, 300)
    connection.close()
    return samples


def run() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        turns, view = asyncio.run(_turn_latencies(folder))
        image = render_view("babylone", view)
        encode_floor = time_ms(lambda: encode_png(image), 100)
        render_only = time_ms(lambda: render_png("babylone", view), 100)
        insert_floor = _sqlite_insert_floor(folder)
    median = sorted(encode_floor)[len(encode_floor) // 2]
    print(line(f"babylone turn via host ({len(turns)} turns)", turns, median, GOAL_P99_MS))
    print(line("  render + encode alone", render_only))
    print(line("  floor: encode the same image", encode_floor))
    print(line("  floor: one raw sqlite insert + commit", insert_floor))
    is_win.cache_clear()
    started = time.perf_counter()
    second_wins = not is_win(canonical([[c] for c in COLOURS for _ in range(3)]))
    seconds = time.perf_counter() - started
    print(
        f"babylone solver, standard start from a cold cache: {seconds * 1000:.1f} ms "
        f"(goal < 500 ms: {'met' if seconds < 0.5 else 'NOT met'}); second player wins: {second_wins}"
    )
