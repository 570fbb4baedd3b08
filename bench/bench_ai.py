"""AI head-to-heads: each searching level against the level below it, and what its decisions cost.

One entry of ``MATCHES`` per match: the game, the number of players, the challenger's level, the level it
must beat, the number of games and the goal, which two shares must reach: the challenger's share of the
*decided* games (a draw counts for neither side) and its score (a draw counts half). The second keeps a match
of draws from passing on one win: 1 won and 39 drawn is 100% of the decided games but a 51% score. Seats
rotate: in game ``i`` the challenger sits on seat ``i % players``, every other seat plays the level it must
beat. Each AI decides from its seat's view only, through ``rules.engine.playout.play`` (the same contract the
host uses); a game's seed is its number, so a match replays exactly as long as no decision hits its wall-time
cap (the count of such decisions is printed).

Decision times: the wall time of every decision of each level, median and p99, the challenger's against its
goal (p99 <= 1 s) beside the level it plays against. The games of a match run in ``WORKERS`` processes at once
(the reference machine has 2 cores), so a decision's wall time includes sharing the machine.

``AI_GAMES=N`` plays N games per match for a quick look, ``AI_ONLY=word`` runs the matches whose game contains
the word. A full run (every match at its size) rewrites the games' ``strength.json`` (what ``/game ai`` and the
lobby show); a quick look does not.

``MATCHES`` comes from the registry: each game declares its match (``Game.exercise.strength``, a
``rules.engine.core.StrengthMatch``); a game without one has no ``strength.json``.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import random
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.stats import line, summary
from bot.host import Host
from bot.models import Actor
from rules.engine.playout import play
from rules.engine.registry import available_games, get_game

WORKERS = int(os.environ.get("AI_WORKERS", "2"))
DECISION_GOAL_MS = 1000.0
#: a decision this close to its second was cut by the wall-time cap (a search stops at 90% of it: thinking.py)
CAPPED_SHARE = 0.88


@dataclass(frozen=True)
class Match:
    game: str
    players: int
    level_a: str  # the challenger
    level_b: str  # the level it must beat
    games: int
    goal: float  # the challenger's share of the decided games and its score must both reach it
    options: Mapping[str, str] = field(default_factory=dict)
    #: game i uses seed first_seed + i
    first_seed: int = 50_000


def matches() -> tuple[Match, ...]:
    """Each available game's match (``Game.exercise.strength``), in the registry's order."""
    found = []
    for key in available_games():
        strength = get_game(key).exercise.strength
        if strength is not None:
            found.append(
                Match(
                    key,
                    strength.players,
                    strength.challenger,
                    strength.opponent,
                    strength.games,
                    strength.goal,
                )
            )
    return tuple(found)


MATCHES: tuple[Match, ...] = matches()


@dataclass
class GameResult:
    """One game of a match: the challenger's result and every decision's wall time, by level."""

    result: str  # "won", "lost" or "drawn", for the challenger
    times_ms: dict[str, list[float]]
    timed_out: int  # decisions that hit the wall-time cap (then the game may not replay exactly)


@dataclass
class MatchResult:
    match: Match
    won: int
    lost: int
    drawn: int
    times_ms: dict[str, list[float]]
    timed_out: int
    seconds: float

    @property
    def games(self) -> int:
        return self.won + self.lost + self.drawn

    @property
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def rate(self) -> float:
        return self.won / self.decided if self.decided else 0.0

    @property
    def score(self) -> float:
        """The challenger's points per game: a win 1, a draw 1/2."""
        return (self.won + self.drawn / 2) / self.games if self.games else 0.0

    @property
    def met(self) -> bool:
        return self.decided > 0 and self.rate >= self.match.goal and self.score >= self.match.goal


def play_one(match: Match, number: int) -> GameResult:
    """Game ``number`` of ``match``: the challenger on seat ``number % players``, the other seats its opponent."""
    game = get_game(match.game)
    hero = number % match.players
    times: dict[str, list[float]] = {match.level_a: [], match.level_b: []}
    timed_out = 0

    def chooser(level: str) -> Callable[..., str]:
        def choose(game_: Any, view: dict, seat: int, legal: list[str], rng: Any) -> str:
            nonlocal timed_out
            started = time.perf_counter()
            action = game_.choose_action(view, seat, legal, level, rng)
            elapsed = (time.perf_counter() - started) * 1000
            times[level].append(elapsed)
            timed_out += elapsed >= DECISION_GOAL_MS * CAPPED_SHARE and level == match.level_a
            return action

        return choose

    choosers = {
        seat: chooser(match.level_a if seat == hero else match.level_b) for seat in range(match.players)
    }
    playout = play(game, match.players, match.first_seed + number, match.options, choosers=choosers)
    outcome = game.outcome(playout.state)
    if outcome.draw or not outcome.finished:
        result = "drawn"
    else:
        result = "won" if hero in outcome.winners else "lost"
    return GameResult(result, times, timed_out)


def _play_entry(entry: tuple[Match, int]) -> GameResult:
    return play_one(*entry)


def run_match(match: Match, games: int | None = None, workers: int = WORKERS) -> MatchResult:
    count = games or match.games
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_play_entry, [(match, number) for number in range(count)]))
    times: dict[str, list[float]] = {match.level_a: [], match.level_b: []}
    for result in results:
        for level, samples in result.times_ms.items():
            times[level] += samples
    return MatchResult(
        match,
        sum(r.result == "won" for r in results),
        sum(r.result == "lost" for r in results),
        sum(r.result == "drawn" for r in results),
        times,
        sum(r.timed_out for r in results),
        time.perf_counter() - started,
    )


def report(result: MatchResult) -> list[str]:
    match = result.match
    verdict = "met" if result.met else "NOT met"
    lines = [
        f"{match.game} {match.players}p {match.level_a} vs {match.level_b}, {result.games} games, seats rotating: "
        f"{match.level_a} won {result.won}, lost {result.lost}, drawn {result.drawn}; "
        f"{result.rate:.0%} of the decided games (draws count for neither), score {result.score:.0%} (a draw counts "
        f"half); goal both >= {match.goal:.0%}: {verdict} "
        f"({result.seconds:.0f} s on {WORKERS} workers)"
    ]
    heuristic = result.times_ms[match.level_b]
    beside = ""
    if heuristic:
        median, p99 = summary(heuristic)
        beside = f"; {match.level_b} beside it: median {median:.1f} ms, p99 {p99:.1f} ms"
    lines.append(
        line(
            f"{match.game} {match.level_a} decision ({len(result.times_ms[match.level_a])} decisions)",
            result.times_ms[match.level_a],
            goal_ms=DECISION_GOAL_MS,
        )
        + beside
        + f"; {result.timed_out} stopped by the wall-time cap"
    )
    return lines


def strength_file(game_key: str) -> Path:
    """The game package's ``strength.json``: the head-to-head figures the host shows beside each level."""
    return Path(inspect.getfile(type(get_game(game_key)))).parent / "strength.json"


def store_strength(game_key: str, level: str, figures: dict[str, Any]) -> None:
    """Write ``level``'s figures into the game's strength file, keeping the other levels' entries."""
    path = strength_file(game_key)
    data = json.loads(path.read_text()) if path.exists() else {}
    data[level] = figures
    path.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")


def figures_of(result: MatchResult, benchmark: str) -> dict[str, Any]:
    match = result.match
    return {
        "against": match.level_b,
        "players": match.players,
        "won": result.won,
        "lost": result.lost,
        "drawn": result.drawn,
        "benchmark": benchmark,
    }


def selected(matches: Iterable[Match]) -> list[Match]:
    only = os.environ.get("AI_ONLY", "")
    return [match for match in matches if only in match.game]


def run() -> None:
    quick = os.environ.get("AI_GAMES")
    for match in selected(MATCHES):
        result = run_match(match, int(quick) if quick else None)
        for text in report(result):
            print(text, flush=True)
        if not quick:
            store_strength(match.game, match.level_a, figures_of(result, "python -m bench ai"))
    for text in asyncio.run(_host_while_thinking()):
        print(text, flush=True)


# ---- the bot while AIs think ---------------------------------------------------------------------------------------
#: how long each phase of the latency measurement lasts, and how often the loop's lag is sampled
PHASE_SECONDS = float(os.environ.get("AI_LAG_SECONDS", "6"))
LAG_TICK_S = 0.01
#: a person's action: the host must answer it well inside Discord's 3 s; the loop's own goal is the render note's
ACTION_GOAL_MS, LAG_GOAL_MS = 100.0, 25.0


async def _host_while_thinking() -> list[str]:
    """Event-loop lag and a person's move latency (``Host.act`` in a two-person Game of Princes) with nobody
    thinking (the floor), then while two ``expert`` AIs think without pause: in the host's worker processes
    (what the bot does) and, for comparison, in threads (what it did)."""
    from bot.hosting.play import AIWorkers

    lines = []
    with tempfile.TemporaryDirectory() as folder:
        host = await Host.open(Path(folder) / "lag.sqlite")
        try:
            idle_lag, idle_act = await _measure_phase(host, None)
            workers = AIWorkers(2)
            try:
                await _think(workers.decide, 0)  # the pool's processes start before the clock runs
                lag, act = await _measure_phase(host, workers.decide)
            finally:
                workers.shutdown()
            thread_lag, thread_act = await _measure_phase(host, _decide_in_thread)
        finally:
            await host.close()
    lines.append(line("event-loop lag, nobody thinking", idle_lag))
    lines.append(
        line(
            "event-loop lag while 2 expert AIs think in worker processes", lag, _median(idle_lag), LAG_GOAL_MS
        )
    )
    lines.append(
        line("event-loop lag while 2 expert AIs think in threads (before)", thread_lag, _median(idle_lag))
    )
    lines.append(line("a person's move (Host.act), nobody thinking", idle_act))
    lines.append(
        line(
            "a person's move (Host.act) while 2 expert AIs think in worker processes",
            act,
            _median(idle_act),
            ACTION_GOAL_MS,
        )
    )
    lines.append(line("a person's move (Host.act) while 2 expert AIs think in threads (before)", thread_act))
    return lines


def _median(samples: list[float]) -> float:
    return summary(samples)[0]


async def _decide_in_thread(*arguments: Any) -> str:
    game, view, seat, legal, level, rng = arguments
    return await asyncio.to_thread(game.choose_action, view, seat, legal, level, rng)


async def _think(decide: Callable[..., Any], number: int) -> str:
    """One ``expert`` decision of Game of Princes (a second of search) from a mid-game position."""
    game = get_game("game-of-princes")
    state = play(game, 2, 900 + number, stop_after=20 + number).state
    seat = state["to_move"]
    legal = game.legal_actions(state, seat)
    action: str = await decide(game, game.view(state, seat), seat, legal, "expert", random.Random(number))
    return action


async def _measure_phase(host: Host, decide: Callable[..., Any] | None) -> tuple[list[float], list[float]]:
    """Loop lag samples and person's move latencies (ms) over ``PHASE_SECONDS``, with two AIs thinking
    back to back through ``decide`` (None: nobody thinking)."""
    stop = time.perf_counter() + PHASE_SECONDS
    lags: list[float] = []
    acts: list[float] = []

    def going() -> bool:
        """The phase lasts its seconds and until a person's move was measured: on a loaded machine, with the AIs
        in threads, setting the people's game up alone can take the whole phase."""
        return time.perf_counter() < stop or not acts

    thinkers = []
    if decide is not None:

        async def keep_thinking(number: int) -> None:
            while going():
                await _think(decide, number)

        thinkers = [asyncio.create_task(keep_thinking(number)) for number in (0, 1)]

    async def sample_lag() -> None:
        while going():
            started = time.perf_counter()
            await asyncio.sleep(LAG_TICK_S)
            lags.append((time.perf_counter() - started - LAG_TICK_S) * 1000)

    async def play_person() -> None:
        number = 0
        while going():
            number += 1
            await _people_game(host, f"lag-{id(acts)}-{number}", going, acts)

    await asyncio.gather(sample_lag(), play_person(), *thinkers)
    return lags, acts


async def _people_game(host: Host, channel: str, going: Callable[[], bool], samples: list[float]) -> None:
    """Two people play Game of Princes (each move the first legal one) while the phase is ``going`` and the game
    lasts; each move's latency (ms) goes to ``samples``."""
    alice, bob = Actor("1", "alice"), Actor("2", "bob")
    info = await host.create_game("guild", channel, alice, "game-of-princes", {})
    await host.join(channel, bob)
    await host.start(channel, alice, order="given")
    game = get_game("game-of-princes")
    while going():
        live = await host.games.load(info.game_id)
        pending = game.pending(live.state)
        if not pending:
            break
        seat = min(pending)
        action = game.legal_actions(live.state, seat)[0]
        started = time.perf_counter()
        await host.act(info.game_id, (alice, bob)[seat], action)
        samples.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.02)  # people do not answer in the same millisecond
