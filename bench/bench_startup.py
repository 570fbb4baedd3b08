"""Start-up with 10,000 stored games in progress: open + migrations check, timers re-armed, the bot ready.

The database is built once: a few template games of every kind are played through the real host (people and
AI seats, random moves, far enough for snapshots), then copied row for row (games, seats, events, snapshots,
sealed choices, timers, outbox, remembered messages) under new game ids, channels and user ids until there are
``GAMES`` games in progress. The copies are what the host wrote, with their deadlines and reminders armed.

Each start-up runs in a fresh process and measures, from before ``Host.open``:

- ready: ``Host.open`` (schema version check; nothing to migrate) + ``PrincesBot.setup_hook`` without the
  network (buttons registered, cogs loaded) + the timer loop's first read of the next deadline;
- caught up: also the start-up catch-up (unsent outbox posted, AI turns a crash interrupted finished), which
  runs in the background while the bot already serves.

Environment: BENCH_STARTUP_GAMES (default 10000), BENCH_STARTUP_RUNS (5).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.stats import line
from bot.host import Host
from bot.storage import Connection
from tests.security.selfplay import scratch_directory, self_play

GAMES = int(os.environ.get("BENCH_STARTUP_GAMES", "10000"))
RUNS = int(os.environ.get("BENCH_STARTUP_RUNS", "5"))
GOAL_S = 2.0
ROOT = Path(__file__).resolve().parents[1]
#: (game, people, players, people's turns): templates of games in progress, people and AI seats mixed
TEMPLATES = (
    ("babylone", 2, 2, 8),
    ("babylone", 1, 2, 6),
    ("pharaoh", 2, 2, 30),
    ("pharaoh", 2, 3, 20),
    ("game-of-princes", 2, 2, 40),
    ("game-of-princes", 1, 2, 30),
    ("the-prince", 2, 2, 20),
    ("principes", 3, 3, 30),
)
#: copy statements: each takes (new game id, suffix for channel and user ids, template game id) and, for the
#: tables with no index on the game (timers, outbox), the last row id of the templates (?4), so the copy reads a
#: range of the templates' rows instead of the whole, growing table
COPIES = (
    "INSERT INTO games (id, guild_id, channel_id, kind, status, options, seed, version, rules_version, "
    "num_players, creator_id, deadline_seconds, window_seconds, result, paused_reason, created_at, updated_at) "
    "SELECT ?1, guild_id, channel_id || ?2, kind, status, options, seed, version, rules_version, num_players, "
    "creator_id || ?2, deadline_seconds, window_seconds, result, paused_reason, created_at, updated_at "
    "FROM games WHERE id = ?3",
    "INSERT INTO seats (game_id, seat, user_id, name, ai_level, away, missed) "
    "SELECT ?1, seat, user_id || ?2, name, ai_level, away, missed FROM seats WHERE game_id = ?3",
    "INSERT INTO events (game_id, seq, seat, action, draws, user_id, log, undone, created_at) "
    "SELECT ?1, seq, seat, action, draws, CASE WHEN user_id LIKE 'ai:%' THEN user_id ELSE user_id || ?2 END, "
    "log, undone, created_at FROM events WHERE game_id = ?3",
    "INSERT INTO snapshots (game_id, seq, state) SELECT ?1, seq, state FROM snapshots WHERE game_id = ?3",
    "INSERT INTO sealed (game_id, decision_id, seat, action, nonce, commit_hash, applied, created_at) "
    "SELECT ?1, decision_id, seat, action, nonce, commit_hash, applied, created_at FROM sealed WHERE game_id = ?3",
    "INSERT INTO timers (game_id, kind, seat, decision_id, due, payload) "
    "SELECT ?1, kind, seat, decision_id, due, payload FROM timers WHERE id <= ?4 AND game_id = ?3",
    "INSERT INTO outbox (game_id, payload, created_at, sent_at) "
    "SELECT ?1, payload, created_at, sent_at FROM outbox WHERE id <= ?4 AND game_id = ?3",
    "INSERT INTO messages (game_id, purpose, channel_id, message_id) "
    "SELECT ?1, purpose, channel_id || ?2, message_id FROM messages WHERE game_id = ?3",
)


async def _templates(host: Host, templates: Sequence[tuple[str, int, int, int]]) -> list[int]:
    """Template games in progress, played through the host; their outbox is marked sent as a bot would."""
    ids = []
    for number, (key, people, players, turns) in enumerate(templates):
        for attempt in range(8):  # a game that ended within the turns is no game in progress: play fewer
            played = await self_play(
                host,
                key,
                f"template-{number}-{attempt}",
                11 + number,
                people,
                players,
                max_turns=max(1, turns >> attempt),
                snapshot_every=10_000,
            )
            if (await host.game_info(played.game_id)).status == "active":
                ids.append(played.game_id)
                break
        else:
            raise RuntimeError(f"no {key} template stayed in progress")
    for delivery in await host.pending_deliveries():
        await host.mark_sent(delivery.id)
    return ids


async def _copy(db: Connection, template: int, new_id: int, last_row: int) -> None:
    suffix = f"-{new_id}"
    for statement in COPIES:
        await db.execute(statement, (new_id, suffix, template, *((last_row,) if "?4" in statement else ())))


async def build(
    database: str, games: int, templates: Sequence[tuple[str, int, int, int]] = TEMPLATES
) -> dict[str, int]:
    """A database with ``games`` games in progress (``templates`` included); returns row counts per table and
    ``active`` for the games in progress."""
    host = await Host.open(database)
    try:
        template_ids = await _templates(host, templates)
        row = await host.store.fetchone("SELECT MAX(id) FROM games")
        next_id = int(row[0]) + 1 if row else 1
        last_row = max(
            int(r[0] or 0)
            for r in await host.store.fetchall(
                "SELECT MAX(id) FROM outbox UNION ALL SELECT MAX(id) FROM timers"
            )
        )
        copies = games - len(template_ids)
        for start in range(0, copies, 500):  # a transaction per 500 games keeps each commit modest
            async with host.store.transaction() as db:
                for index in range(start, min(copies, start + 500)):
                    await _copy(db, template_ids[index % len(template_ids)], next_id + index, last_row)
        counts = {}
        for table in ("games", "events", "snapshots", "timers", "outbox"):
            counted = await host.store.fetchone(f"SELECT COUNT(*) FROM {table}")
            counts[table] = int(counted[0]) if counted else 0
        active = await host.store.fetchone("SELECT COUNT(*) FROM games WHERE status = 'active'")
        counts["active"] = int(active[0]) if active else 0
        return counts
    finally:
        await host.close()


@dataclass
class Startup:
    ready_s: float
    caught_up_s: float
    active_games: int
    next_due: float | None


async def start_once(database: str) -> Startup:
    """One start-up as ``run_bot`` does it, without the network: open, set up the bot, arm timers, catch up."""
    from bot.discord.app import PrincesBot  # part of what a start-up costs: importing it is not

    started = time.perf_counter()
    host = await Host.open(database)
    bot = PrincesBot(host, sync_commands=False, run_timers=False)
    try:
        await bot.setup_hook()
        next_due = await host.next_timer_due()  # what the timer loop reads first
        ready = time.perf_counter() - started
        assert bot._catch_up_task is not None
        await bot._catch_up_task
        caught_up = time.perf_counter() - started
        counted = await host.store.fetchone("SELECT COUNT(*) FROM games WHERE status = 'active'")
        return Startup(ready, caught_up, int(counted[0]) if counted else 0, next_due)
    finally:
        await host.close()


async def timer_lookup_ms(database: str, samples: int = 50) -> list[float]:
    """The timers query every stored action runs (``_arm_timers``), for games picked at random: the timers
    table has no index on ``game_id``, so this is a scan of every armed timer."""
    host = await Host.open(database)
    try:
        rows = await host.store.fetchall("SELECT id FROM games WHERE status = 'active'")
        picked = random.Random(3).sample([row["id"] for row in rows], min(samples, len(rows)))
        times = []
        for game_id in picked:
            started = time.perf_counter()
            await host.store.fetchall(
                "SELECT id, seat, decision_id, kind FROM timers WHERE game_id = ? "
                "AND kind IN ('reminder', 'deadline', 'autopass')",
                (game_id,),
            )
            times.append((time.perf_counter() - started) * 1000)
        return times
    finally:
        await host.close()


def _start_in_process(database: str) -> tuple[Startup, float]:
    """One start-up in a fresh process, and that process's whole life in seconds (interpreter, imports, exit)."""
    started = time.perf_counter()
    output = subprocess.run(
        [sys.executable, "-m", "bench.bench_startup", "--once", database],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return Startup(**json.loads(output.strip().splitlines()[-1])), time.perf_counter() - started


def run() -> None:
    with scratch_directory() as folder:  # in memory where possible: building writes a few GB
        database = str(Path(folder) / "startup.sqlite3")
        built = time.perf_counter()
        counts = asyncio.run(build(database, GAMES))
        size = sum(path.stat().st_size for path in Path(folder).iterdir()) / 1e6
        print(
            f"   built {counts['active']} games in progress of {counts['games']} ({counts['events']} events, {counts['snapshots']} "
            f"snapshots, {counts['timers']} timers, {counts['outbox']} outbox rows, {size:.0f} MB) in "
            f"{time.perf_counter() - built:.1f} s"
        )
        measured = [_start_in_process(database) for _ in range(RUNS)]
        startups = [startup for startup, _ in measured]
        lookups = asyncio.run(timer_lookup_ms(database))
    ready = statistics.median(s.ready_s for s in startups)
    caught_up = statistics.median(s.caught_up_s for s in startups)
    print(
        f"   start-up, median of {RUNS} fresh processes, {startups[0].active_games} games in progress: "
        f"ready (open + migration check + bot set-up + timers armed) {ready:.2f} s, "
        f"caught up (outbox + interrupted AI turns) {caught_up:.2f} s; "
        f"goal <= {GOAL_S:g} s: {'met' if caught_up <= GOAL_S else 'NOT met'}"
    )
    print(
        f"   every start-up: ready {', '.join(f'{s.ready_s:.2f}' for s in startups)} s; caught up "
        f"{', '.join(f'{s.caught_up_s:.2f}' for s in startups)} s"
    )
    print(
        f"   whole process, median (Python start, imports of discord.py and the games, exit): "
        f"{statistics.median(whole for _, whole in measured):.2f} s"
    )
    print(
        "   "
        + line(
            f"timers of one game (each action reads them; no index on timers.game_id, "
            f"{counts['timers']} timers)",
            lookups,
        )
    )


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--once":
        result = asyncio.run(start_once(sys.argv[2]))
        print(json.dumps(result.__dict__))
    else:
        run()
