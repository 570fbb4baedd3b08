"""PRINCIPES ``strong`` AI: a whole 4-AI game through the real host, and its win rate against random.

The game is played by ``bot.host.Host`` on a temporary SQLite database, as ``python -m bot selfplay`` does, so
every completed action goes through the rules, the event store and its outbox. Measured in the same run:

- the whole game's wall time (goal <= 60 s on 2 cores), including the board images a front-end would draw;
- each AI decision (goal p99 <= 1 s), beside the ``basic`` AI deciding on the same views as floor;
- per completed action, the host latency: rules + persist (the host call) + the public board image rendered
  and encoded when the action posts one (goal p99 <= 35 ms), beside the PNG encoding alone of a board as floor;
- each private (DM) image render + encode: the view of every seat asked to decide, replayed from the stored log
  (AI seats get no DMs, a person in their seat would), goal p99 <= 35 ms, same floor;
- then a win-rate run against ``random`` in 2-player games, seats (so principalities) rotating.

The process is set up as ``python -m bot run`` sets itself up after start-up (``bot.runtime.settle_heap``: what
start-up loaded frozen out of the garbage collector's way, full collections spaced out, large blocks kept for
reuse; ``render.warm_up``: each game's opening board drawn once).

Environment: BENCH_PRINCIPES_AI_GAMES (win-rate games, default 20), BENCH_PRINCIPES_AI_SEED (default 1).
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot.host import Actor, Host
from bot.runtime import settle_heap
from bot.selfplay import run_selfplay
from render import render_png, render_view, warm_up
from render.common import encode_png
from render.png import BANDS
from rules.engine import Rng, get_game
from rules.engine.playout import replay_steps, setup_state

from .stats import line, percentile, time_ms

GAMES = int(os.environ.get("BENCH_PRINCIPES_AI_GAMES", "20"))
SEED = int(os.environ.get("BENCH_PRINCIPES_AI_SEED", "1"))
LEVEL = "strong"
GOAL_GAME_S, GOAL_DECISION_MS, GOAL_IMAGE_MS = 60.0, 1000.0, 35.0
FLOOR_SAMPLES = 60
DM_SAMPLES = 400


class Timings:
    """Everything one host game measures."""

    def __init__(self) -> None:
        self.decision_ms: list[float] = []
        self.samples: list[tuple[dict[str, Any], int, list[str]]] = []
        self.host_ms: list[float] = []
        self.render_ms: list[float] = []
        self.dm_ms: list[float] = []
        #: CPU time of the calling thread: what the same work costs when no other process shares the cores
        self.cpu_ms: dict[str, list[float]] = {"decision": [], "public": [], "dm": []}
        self.wall_s = 0.0
        self.game_id = 0


def _timed_choices(game: Any, timings: Timings) -> None:
    """Wrap the game's AI entry point: each call timed, a sample of the views kept for the floor."""
    original = game.choose_action

    def choose(view: dict[str, Any], seat: int, legal: Sequence[str], level: str, rng: random.Random) -> str:
        started, cpu = time.perf_counter(), time.thread_time()
        action: str = original(view, seat, legal, level, rng)
        timings.decision_ms.append((time.perf_counter() - started) * 1000)
        timings.cpu_ms["decision"].append((time.thread_time() - cpu) * 1000)
        if len(timings.decision_ms) % 7 == 0:
            timings.samples.append((view, seat, list(legal)))
        return action

    game.choose_action = choose


def _timed_actions(host: Host, timings: Timings) -> None:
    """Wrap the host's completed-action call: its time plus the public board image it posts, if any."""
    original = host.play.act_locked

    async def act(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        deliveries = await original(*args, **kwargs)
        elapsed = time.perf_counter() - started
        for delivery in deliveries:
            if delivery.view is not None and delivery.user_id is None:
                image_started, cpu = time.perf_counter(), time.thread_time()
                render_png(delivery.game_key, delivery.view)
                image = time.perf_counter() - image_started
                timings.cpu_ms["public"].append((time.thread_time() - cpu) * 1000)
                timings.render_ms.append(image * 1000)
                elapsed += image
        timings.host_ms.append(elapsed * 1000)
        return deliveries

    host.play.act_locked = act  # type: ignore[method-assign]


async def _host_game(folder: str) -> tuple[Host, Timings]:
    timings = Timings()
    game = get_game("principes")
    host = await Host.open(str(Path(folder) / "bench.sqlite3"))
    _timed_choices(game, timings)
    _timed_actions(host, timings)
    director = Actor("bench", "bench", can_manage=True)
    started = time.perf_counter()
    try:
        info = await host.create_game(
            None, "bench-principes-ai", director, "principes", {}, seat_creator=False, seed=SEED
        )
        for _ in range(4):
            await host.add_ai("bench-principes-ai", director, LEVEL)
        await host.start("bench-principes-ai", director, order="given")
    finally:
        del game.choose_action  # the instance wrapper goes; the class method is back
    timings.wall_s = time.perf_counter() - started
    timings.game_id = info.game_id
    return host, timings


async def _dm_images(host: Host, timings: Timings) -> str:
    """Replay the stored log; render each seat's private view whenever it is asked a new decision."""
    info = await host.game_info(timings.game_id)
    game = get_game(info.key)
    events = await host.store.events(timings.game_id, -1)
    start = setup_state(game, len(info.seats), info.options, events[0])
    asked: dict[int, str] = {}
    for _event, _before, state in replay_steps(game, start, events[1:]):
        for seat, decision in game.pending(state).items():
            if asked.get(seat) != decision.id and len(timings.dm_ms) < DM_SAMPLES:
                asked[seat] = decision.id
                view = game.view(state, seat)
                started, cpu = time.perf_counter(), time.thread_time()
                render_png(info.key, view)
                timings.dm_ms.append((time.perf_counter() - started) * 1000)
                timings.cpu_ms["dm"].append((time.thread_time() - cpu) * 1000)
    outcome = game.outcome(state)
    return f"{len(events) - 1} events, {outcome.reason}"


def _floors(timings: Timings) -> tuple[float, float, float]:
    """The ``basic`` AI on the same views; the PNG encoding alone of a board image, again (its bands deflated
    already, as most of a board's are after the action before) and from nothing (empty band cache)."""
    game = get_game("principes")
    basic = [
        sample
        for view, seat, legal in timings.samples[:FLOOR_SAMPLES]
        for sample in time_ms(
            lambda v=view, s=seat, lg=legal: game.choose_action(v, s, lg, "basic", random.Random(0)), 1
        )
    ]
    view = (
        timings.samples[-1][0] if timings.samples else game.view(game.setup(4, {}, Rng.for_event(1, 0)), None)
    )
    image = render_view("principes", view)
    encode = statistics.median(time_ms(lambda: encode_png(image), 30))

    def from_nothing() -> None:
        BANDS.clear()
        encode_png(image)

    cold = statistics.median(time_ms(from_nothing, 30))
    return statistics.median(basic) if basic else 0.0, encode, cold


async def _measure() -> None:
    settle_heap()
    warm_up()
    with tempfile.TemporaryDirectory() as folder:
        host, timings = await _host_game(folder)
        try:
            summary = await _dm_images(host, timings)
        finally:
            await host.close()
    ai_floor, encode_floor, encode_cold = _floors(timings)
    goal = "met" if timings.wall_s <= GOAL_GAME_S else "NOT met"
    print(
        f"principes 4-AI game through the host ({LEVEL}): {timings.wall_s:.1f} s wall, {summary}; "
        f"goal <= {GOAL_GAME_S:g} s: {goal}"
    )
    print(
        line(
            f"principes {LEVEL} AI decision ({len(timings.decision_ms)} decisions; floor basic AI)",
            timings.decision_ms,
            ai_floor,
            GOAL_DECISION_MS,
        )
    )
    print(
        line(
            f"principes host latency per completed action ({len(timings.host_ms)}: rules + persist + "
            "public image)",
            timings.host_ms,
            encode_floor,
            GOAL_IMAGE_MS,
        )
    )
    if timings.render_ms:
        print(
            line(
                f"principes public image render+encode ({len(timings.render_ms)})",
                timings.render_ms,
                encode_floor,
                GOAL_IMAGE_MS,
            )
        )
    print(
        line(
            f"principes private (DM) image render+encode ({len(timings.dm_ms)})",
            timings.dm_ms,
            encode_floor,
            GOAL_IMAGE_MS,
        )
    )
    print(
        f"   floor: encoding a board again {encode_floor:.2f} ms (bands cached), from nothing {encode_cold:.2f} ms"
    )
    # wall times inflate when other processes share the cores; CPU times show the uncontended cost
    cpu = ", ".join(
        f"{name} median {statistics.median(values):.2f} ms p99 {percentile(values, 0.99):.2f} ms"
        for name, values in timings.cpu_ms.items()
        if values
    )
    print(f"   cpu: {cpu}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


async def _win_rate() -> None:
    report = await run_selfplay("principes", GAMES, SEED, players=2, seats=[LEVEL, "random"])
    by_seat = ", ".join(
        f"{key} {wins}/{report.games_by_seat[key]}"
        for key, wins in sorted(report.wins_by_seat.items())
        if key.startswith(LEVEL)
    )
    print(
        f"principes {LEVEL} vs random, 2 players, {report.games} games: {report.wins[LEVEL]} wins, "
        f"{report.errors} errors (by seat, 1 = Polonia Maior, 2 = Polonia Minor: {by_seat}) "
        f"in {report.seconds:.1f} s"
    )


def run() -> None:
    asyncio.run(_measure())
    asyncio.run(_win_rate())
