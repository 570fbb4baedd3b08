"""Self-play through the host service on a temporary database, and a perft counter.

Seats rotate between games so each agent plays every position equally often. The statistics come from the
stored event logs (replayed through the rules), so they measure what the host really stored.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.engine import get_game
from rules.engine.playout import replay_steps, setup_state

from .host import Actor, Host, HostError


@dataclass
class SelfplayReport:
    game: str
    games: int = 0
    errors: int = 0
    draws: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    turns: int = 0
    seconds: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)
    error_messages: list[str] = field(default_factory=list)
    #: wins per agent by seat position, to check "wins every game in which it plays second"
    wins_by_seat: Counter[str] = field(default_factory=Counter)
    games_by_seat: Counter[str] = field(default_factory=Counter)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "errors": self.errors,
            "draws": self.draws,
            "wins": dict(self.wins),
            "turns": self.turns,
            "seconds": round(self.seconds, 3),
            "counts": dict(sorted(self.counts.items())),
            "wins_by_seat": dict(sorted(self.wins_by_seat.items())),
            "games_by_seat": dict(sorted(self.games_by_seat.items())),
        }


async def run_selfplay(
    game_key: str,
    games: int,
    seed: int,
    players: int | None = None,
    seats: list[str] | None = None,
    options: dict[str, str] | None = None,
    database: str | None = None,
) -> SelfplayReport:
    game = get_game(game_key)
    count = players or (len(seats) if seats else game.min_players)
    agents = list(seats or [game.ai_levels[0], *(["random"] * (count - 1))])
    if len(agents) != count:
        raise HostError(f"--seats names {len(agents)} agents for {count} players.")
    report = SelfplayReport(game.key)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        host = await Host.open(database or str(Path(folder) / "selfplay.sqlite3"))
        try:
            for index in range(games):
                rotation = index % count
                order = agents[rotation:] + agents[:rotation]
                try:
                    await _play_one(host, game.key, index, seed + index, order, options or {}, report)
                except Exception as error:  # counted and reported: self-play exists to find these
                    report.errors += 1
                    report.error_messages.append(f"game {index}: {type(error).__name__}: {error}")
                    traceback.print_exc(file=sys.stderr)  # the whole story, for whoever fixes it
                report.games += 1
        finally:
            await host.close()
    report.seconds = time.perf_counter() - started
    return report


async def _play_one(
    host: Host,
    key: str,
    index: int,
    seed: int,
    order: list[str],
    options: dict[str, str],
    report: SelfplayReport,
) -> None:
    director = Actor("selfplay", "selfplay", can_manage=True)
    channel = f"selfplay-{index}"
    info = await host.create_game(None, channel, director, key, options, seat_creator=False, seed=seed)
    for level in order:
        await host.add_ai(channel, director, level)
    await host.start(channel, director, order="given")
    info = await host.game_info(info.game_id)
    if info.status != "finished" or info.result is None:
        raise RuntimeError(f"the game stopped unfinished ({info.status})")
    await _count_log(host, info.game_id, report)
    if info.result["draw"]:
        report.draws += 1
    for position, agent in enumerate(order):
        report.games_by_seat[f"{agent}@{position + 1}"] += 1
        if position in info.result["winners"]:
            report.wins[agent] += 1
            report.wins_by_seat[f"{agent}@{position + 1}"] += 1


async def _count_log(host: Host, game_id: int, report: SelfplayReport) -> None:
    """Replay the stored log: count each decision kind answered and each event kind logged."""
    info = await host.game_info(game_id)
    game = get_game(info.key)
    events = await host.store.events(game_id, -1)
    state = setup_state(game, len(info.seats), info.options, events[0])
    for event, before, after in replay_steps(game, state, events[1:]):
        state = after
        decision = game.pending(before).get(event.seat or 0)
        report.counts[f"decision:{decision.kind}" if decision else "decision:free"] += 1
        for kind, _text in event.log:
            report.counts[f"event:{kind}"] += 1
        report.turns += 1
    if state != await host.replay_state(game_id):
        raise RuntimeError("replaying the stored log does not give the stored state")


def format_report(report: SelfplayReport, as_json: bool) -> str:
    if as_json:
        return json.dumps(report.as_json(), sort_keys=False)
    lines = [
        f"{report.game}: {report.games} games, {report.errors} errors, {report.draws} draws, "
        f"{report.turns} turns in {report.seconds:.1f} s"
    ]
    lines += [f"  {agent}: {wins} wins" for agent, wins in report.wins.most_common()]
    lines += [f"  error: {message}" for message in report.error_messages[:10]]
    return "\n".join(lines)
