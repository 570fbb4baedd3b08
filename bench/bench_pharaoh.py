"""Pharaoh: the AI's strength against random play and its decision time; the board image's cost.

- Strength: 200 two-player games, expectimax AI against a uniformly random player, seats rotating (the AI
  plays first in half the games by seat; the roll-off still decides who starts). Goal: >= 90% won.
- Decision time: every AI decision of those games, plus AI-only games at 4 players and with two dice (the
  largest searches). Goal p99 <= 1000 ms. Floor: the ``greedy`` level on a sample of the same decisions (the
  same turn search and scoring without the reply search), so the ratio is the price of the expectimax layer.
  Processor time is printed too: on a machine shared with other work, wall time is inflated, processor
  time is not.
- Image: render + palette PNG of a mid-game 4-player view. Floor: encoding a blank canvas of the same size.
"""

from __future__ import annotations

import random
import time
from typing import Any

from bench.stats import line, time_ms
from render import render_view
from render.common import encode_png, new_canvas
from rules.engine.playout import play, random_chooser
from rules.pharaoh import GAME

GAMES = 200
WIN_GOAL = 0.90
DECISION_GOAL_MS = 1000.0
#: AI-only games per heavy setting (every seat searches, so these dominate the run time)
HEAVY_GAMES = 2


class TimedAI:
    """An expectimax chooser that records each decision's time and the view it decided from."""

    def __init__(self) -> None:
        self.samples_ms: list[float] = []
        #: processor time of the same decisions: what a busy machine's scheduler cannot inflate
        self.cpu_ms: list[float] = []
        self.decisions: list[tuple[dict[str, Any], int, list[str]]] = []

    def __call__(
        self, game: Any, view: dict[str, Any], seat: int, legal: list[str], rng: random.Random
    ) -> str:
        started, cpu_started = time.perf_counter(), time.process_time()
        action = game.choose_action(view, seat, legal, "expectimax", rng)
        self.samples_ms.append((time.perf_counter() - started) * 1000)
        self.cpu_ms.append((time.process_time() - cpu_started) * 1000)
        if len(legal) > 1:
            self.decisions.append((view, seat, legal))
        return action


def _strength(chooser: TimedAI) -> tuple[int, int, int]:
    wins = draws = 0
    for game in range(GAMES):
        hero = game % 2
        playout = play(GAME, 2, 10_000 + game, choosers={hero: chooser, 1 - hero: random_chooser})
        outcome = GAME.outcome(playout.state)
        wins += outcome.winners == (hero,)
        draws += outcome.draw
    return wins, draws, GAMES - wins - draws


def _greedy_floor(decisions: list[tuple[dict[str, Any], int, list[str]]]) -> float:
    """Median time of the ``greedy`` level (the same turn search, no reply search) on a sample of them."""
    samples = []
    rng = random.Random(1)
    for view, seat, legal in decisions[:: max(1, len(decisions) // 300)]:
        samples.extend(time_ms(lambda v=view, s=seat, m=legal: GAME.choose_action(v, s, m, "greedy", rng), 1))
    samples.sort()
    return samples[len(samples) // 2]


def run() -> None:
    chooser = TimedAI()
    wins, draws, losses = _strength(chooser)
    rate = wins / GAMES
    verdict = "met" if rate >= WIN_GOAL else "NOT met"
    print(
        f"pharaoh expectimax vs random, {GAMES} two-player games, seats rotating: {wins} won, {draws} drawn, "
        f"{losses} lost ({rate:.1%}; goal >= {WIN_GOAL:.0%}: {verdict})"
    )
    print(
        line(
            "pharaoh AI decision, 2 players vs random",
            chooser.samples_ms,
            _greedy_floor(chooser.decisions),
            DECISION_GOAL_MS,
        )
    )
    print(
        line(
            "pharaoh AI decision, 2 players vs random (processor time)",
            chooser.cpu_ms,
            goal_ms=DECISION_GOAL_MS,
        )
    )
    for players, options in ((4, {}), (2, {"dice": "2"}), (4, {"dice": "2"})):
        heavy = TimedAI()
        for game in range(HEAVY_GAMES):
            play(GAME, players, 20_000 + game, options=options, choosers={s: heavy for s in range(players)})
        label = f"pharaoh AI decision, {players} AIs, {options.get('dice', '1')} dice"
        print(
            line(label, heavy.samples_ms, _greedy_floor(heavy.decisions), DECISION_GOAL_MS)
            + f", max {max(heavy.samples_ms):.1f} ms"
        )
        print(
            line(f"{label} (processor time)", heavy.cpu_ms, goal_ms=DECISION_GOAL_MS)
            + f", max {max(heavy.cpu_ms):.1f} ms"
        )
    _image()


def _image() -> None:
    playout = play(GAME, 4, 7, stop_after=60)
    view = GAME.view(playout.state, None)
    samples = time_ms(lambda: encode_png(render_view("pharaoh", view)), 30)
    blank, _ = new_canvas(*render_view("pharaoh", view).size)
    floor = sorted(time_ms(lambda: encode_png(blank), 30))[15]
    print(line("pharaoh render + palette PNG, 4 players", samples, floor))
