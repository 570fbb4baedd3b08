"""Load: many concurrent games through the fake Discord with the real client and bot (``bench_discord``'s tables).

Every table opens its lobby, is joined and started, then plays a few turns: each turn a think, /move's
autocomplete, and /move; latency is from pushing the /move interaction to the bot's last request about that
channel. All games are open at once (their tables open over the first two think times); a game plays
``BENCH_LOAD_TURNS`` turns rather than to its end, so the run measures many open games at an offered load of
about GAMES / THINK_S turns per second without waiting through a Babylone game's 25 turns of thinking.

The default keeps ``make bench`` short: 300 games. The full 1,000-game run is
``BENCH_LOAD_GAMES=1000 BENCH_LOAD_THINK_S=120 python -m bench load`` (about 12 minutes: the tables open over four
minutes). On the shared 2-core machine (load average 13) it gave 0 errors, /move p50 1.1 s and p99 11 s, the bot
process using about 30 ms of CPU per turn: the time is waiting for a core, not work. With a 20 s think time the
same 1,000 tables (50 turns/s offered) overran that machine: 766 interactions timed out after 60 s.

Environment: BENCH_LOAD_GAMES (default 300), BENCH_LOAD_THINK_S (mean think time, default 30),
BENCH_LOAD_TURNS (turns per game, default 1).
"""

from __future__ import annotations

import asyncio
import os

from bench.bench_discord import Load, measure

GAMES = int(os.environ.get("BENCH_LOAD_GAMES", "300"))
THINK_S = float(os.environ.get("BENCH_LOAD_THINK_S", "30"))
TURNS = int(os.environ.get("BENCH_LOAD_TURNS", "1"))


def run() -> None:
    asyncio.run(measure(Load(GAMES, THINK_S, TURNS)))


if __name__ == "__main__":
    run()
