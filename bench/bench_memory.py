"""Memory of a long-running process: touch 10,000 stored PRINCIPES games through the host, measure RSS growth.

A bot that runs for months loads every game someone acts in. Each loaded game's state is kept so the next
load of a game this process just stored costs one query (``Games.known``); PRINCIPES states are the largest
(about 0.1 MB in memory each). The cache is bounded (least recently used, ``KNOWN_GAMES``) and the per-game
locks are dropped when nobody holds them, so touching many games must not grow the process without bound.

The database is built as ``bench_startup`` builds its own (PRINCIPES games in progress, played through the host
and copied), then, in a fresh process, the host loads each game once (``game_info``: row, seats, snapshot and
the events after it) and the resident set size is compared with what it was after the first few loads (so the
imports, the rules' data and SQLite's page cache warming up are not counted).

Environment: BENCH_MEMORY_GAMES (default 10000). Goal: growth <= 64 MB.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.bench_startup import build
from bot.host import Host
from bot.hosting.core import KNOWN_GAMES
from tests.security.selfplay import scratch_directory

GAMES = int(os.environ.get("BENCH_MEMORY_GAMES", "10000"))
GOAL_MB = 64.0
ROOT = Path(__file__).resolve().parents[1]
#: PRINCIPES games in progress with 2, 3 and 4 players (people and AI seats), far enough for snapshots
TEMPLATES = (("principes", 2, 2, 30), ("principes", 3, 3, 30), ("principes", 2, 4, 40))
WARM_UP = 50


def rss_mb() -> float:
    """This process's resident set size (Linux), in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def touch_all(database: str) -> dict[str, float]:
    host = await Host.open(database)
    try:
        rows = await host.store.fetchall("SELECT id FROM games WHERE kind = 'principes' ORDER BY id")
        ids = [int(row["id"]) for row in rows]
        for game_id in ids[:WARM_UP]:
            await host.game_info(game_id)
        gc.collect()
        before = rss_mb()
        started = time.perf_counter()
        for game_id in ids:
            await host.game_info(game_id)
        seconds = time.perf_counter() - started
        gc.collect()
        return {
            "touched": len(ids),
            "growth_mb": rss_mb() - before,
            "seconds": seconds,
            "cached": len(host.games.known),  # noqa: SLF001 - what the bound leaves in memory
            "locks": len(host.games._locks),  # noqa: SLF001
        }
    finally:
        await host.close()


def run() -> None:
    with scratch_directory() as directory:
        database = str(Path(directory) / "memory.sqlite3")
        counts = asyncio.run(build(database, GAMES, TEMPLATES))
        print(
            f"   database: {counts['games']} games ({counts['active']} in progress), {counts['events']} events"
        )
        output = subprocess.run(
            [sys.executable, "-m", "bench.bench_memory", "--once", database],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    result = json.loads(output.strip().splitlines()[-1])
    touched, growth = int(result["touched"]), result["growth_mb"]
    per_game_kb = growth * 1024 / touched
    print(
        f"memory principes: {touched} games touched, rss growth {growth:.1f} MB "
        f"(per game {per_game_kb:.1f} KB, cache holds {int(result['cached'])})"
    )
    verdict = "met" if growth <= GOAL_MB else "NOT met"
    print(
        f"   {result['seconds']:.1f} s to load them all ({result['seconds'] * 1000 / touched:.2f} ms a game), "
        f"locks left {int(result['locks'])}, cache bound {KNOWN_GAMES}; goal growth <= {GOAL_MB:g} MB: {verdict}"
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--once":
        print(json.dumps(asyncio.run(touch_all(sys.argv[2]))))
    else:
        run()
