"""AI head-to-heads: each searching level against the level below it, and what its decisions cost.

One entry of ``MATCHES`` per match: the game, the number of players, the challenger's level, the level it
must beat, the number of games and the goal (the challenger's share of the *decided* games: a draw counts for
neither side, and the draws are printed beside). Seats rotate: in game ``i`` the challenger sits on seat
``i % players``, every other seat plays the level it must beat. Each AI decides from its seat's view only,
through ``rules.engine.playout.play`` (the same contract the host uses); a game's seed is its number, so a match
replays exactly as long as no decision hits its wall-time cap (the count of such decisions is printed).

Decision times: the wall time of every decision of each level, median and p99, the challenger's against its
goal (p99 <= 1 s) beside the level it plays against. The games of a match run in ``WORKERS`` processes at once
(the reference machine has 2 cores), so a decision's wall time includes sharing the machine.

``AI_GAMES=N`` plays N games per match for a quick look, ``AI_ONLY=word`` runs the matches whose game contains
the word. A full run (every match at its size) rewrites the games' ``strength.json`` (what ``/game ai`` and the
lobby show); a quick look does not.

To add a match, add a ``Match`` to ``MATCHES``.
"""

from __future__ import annotations

import inspect
import json
import os
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.stats import line, summary
from rules.engine.playout import play
from rules.engine.registry import get_game

WORKERS = int(os.environ.get("AI_WORKERS", "2"))
DECISION_GOAL_MS = 1000.0


@dataclass(frozen=True)
class Match:
    game: str
    players: int
    level_a: str  # the challenger
    level_b: str  # the level it must beat
    games: int
    goal: float  # the challenger's share of the decided games
    options: Mapping[str, str] = field(default_factory=dict)
    #: game i uses seed first_seed + i
    first_seed: int = 50_000


MATCHES: tuple[Match, ...] = (
    Match("game-of-princes", 2, "expert", "hard", 40, 0.65),
    Match("pharaoh", 2, "expert", "expectimax", 40, 0.60),
)


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
    def decided(self) -> int:
        return self.won + self.lost

    @property
    def rate(self) -> float:
        return self.won / self.decided if self.decided else 0.0

    @property
    def met(self) -> bool:
        return self.decided > 0 and self.rate >= self.match.goal


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
            timed_out += elapsed >= DECISION_GOAL_MS * 0.98 and level == match.level_a
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
    games = result.won + result.lost + result.drawn
    verdict = "met" if result.met else "NOT met"
    lines = [
        f"{match.game} {match.players}p {match.level_a} vs {match.level_b}, {games} games, seats rotating: "
        f"{match.level_a} won {result.won}, lost {result.lost}, drawn {result.drawn}; "
        f"{result.rate:.0%} of the decided games (draws count for neither; goal >= {match.goal:.0%}: {verdict}) "
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
