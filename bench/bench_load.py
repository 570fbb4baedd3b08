"""Load: 1,000 concurrent games through the fake Discord with the real client and bot (``bench_discord``'s tables).

Every table opens its lobby, is joined and started, then plays a few turns: each turn a think, /move's
autocomplete, and /move; latency is from pushing the /move interaction to the bot's last request about that
channel. All 1,000 games are open at once (their tables open over the first two think times); a game plays
``BENCH_LOAD_TURNS`` turns rather than to its end, so the run measures 1,000 open games at an offered load of
about GAMES / THINK_S turns per second without taking a Babylone game's 25 turns of thinking.

Environment: BENCH_LOAD_GAMES (default 1000), BENCH_LOAD_THINK_S (mean think time, default 20),
BENCH_LOAD_TURNS (turns per game, default 3).
"""

from __future__ import annotations

import asyncio
import os

from bench.bench_discord import Load, measure

GAMES = int(os.environ.get("BENCH_LOAD_GAMES", "1000"))
THINK_S = float(os.environ.get("BENCH_LOAD_THINK_S", "20"))
TURNS = int(os.environ.get("BENCH_LOAD_TURNS", "3"))


def run() -> None:
    asyncio.run(measure(Load(GAMES, THINK_S, TURNS)))


if __name__ == "__main__":
    run()
