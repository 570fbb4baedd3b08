"""The Prince: strategist vs random over 200 games (seats rotating), and the latency of rules, AI and images.

Floors measured in the same run: a state copy (the least any ``apply`` does), and encoding a blank canvas of
the board image's size (the least any image costs).
"""

from __future__ import annotations

import json
import random
import time
import traceback
from collections import Counter

from bench.stats import line, time_ms
from render import render_png
from render.common import encode_png, new_canvas
from render.the_prince import HEIGHT, WIDTH
from rules.engine import Rng, State
from rules.engine.playout import Playout, play
from rules.the_prince import GAME

GAMES = 200
GOAL_WIN_RATE = 0.90


def _strategist(game, view, seat, legal, rng):  # noqa: ANN001, ANN202 - the playout chooser signature
    return game.choose_action(view, seat, legal, "strategist", rng)


def win_rate(games: int = GAMES) -> dict[str, object]:
    """Strategist against random play, the strategist's seat alternating; errors are counted, not raised."""
    results: Counter[str] = Counter()
    battles = []
    started = time.perf_counter()
    for seed in range(games):
        seat = seed % 2
        try:
            state = play(GAME, 2, seed, choosers={seat: _strategist}).state
        except Exception:  # a crash is a result to report, the other games still count
            traceback.print_exc()
            results["errors"] += 1
            continue
        outcome = GAME.outcome(state)
        results["draws" if outcome.draw else "strategist" if outcome.winners == (seat,) else "random"] += 1
        battles.append(state["battle"])
    played = games - results["errors"]
    return {
        "games": games,
        "errors": results["errors"],
        "strategist_wins": results["strategist"],
        "random_wins": results["random"],
        "draws": results["draws"],
        "win_rate": round(results["strategist"] / played, 3) if played else 0.0,
        "mean_battles": round(sum(battles) / len(battles), 2) if battles else 0.0,
        "seconds": round(time.perf_counter() - started, 1),
    }


def _positions() -> tuple[State, State, Playout]:
    """A late exploration state, a battle-planning state and a finished game, from one seeded game."""
    full = play(GAME, 2, 42, choosers={0: _strategist})
    explore = plan = None
    for stop in range(len(full.records)):
        state = play(GAME, 2, 42, choosers={0: _strategist}, stop_after=stop).state
        if state["phase"] == "explore" and not any(state["sealed"]):
            explore = state  # the last one: the most tiles seen, the most actions
        if state["phase"] == "plan" and not state["sealed"][0]:
            plan = state
            break
    assert explore is not None and plan is not None
    return explore, plan, full


def run() -> None:
    result = win_rate()
    print(json.dumps(result))
    rate = float(result["win_rate"])  # type: ignore[arg-type]
    verdict = "met" if result["errors"] == 0 and rate >= GOAL_WIN_RATE else "NOT met"
    print(f"strategist vs random: {rate:.1%} of {GAMES} games, goal >= {GOAL_WIN_RATE:.0%}: {verdict}")

    explore, plan, full = _positions()
    floor_copy = min(time_ms(lambda: GAME.copy_state(plan), 50))
    mover = min(GAME.pending(explore))
    turns = GAME.legal_actions(explore, mover)
    print(
        line(
            f"explore: legal_actions ({len(turns)} actions)",
            time_ms(lambda: GAME.legal_actions(explore, mover), 100),
            floor_copy,
        )
    )
    print(
        line(
            "explore: apply a sealed turn (resolves it)",
            time_ms(lambda: GAME.apply(explore, mover, turns[-1], Rng.for_event(1, 1)), 200),
            floor_copy,
            goal_ms=5,
        )
    )
    legal = GAME.legal_actions(plan, 0)
    view = GAME.view(plan, 0)
    agent = random.Random(1)
    print(
        line(
            "battle: strategist plan",
            time_ms(lambda: GAME.choose_action(view, 0, legal, "strategist", agent), 100),
            floor_copy,
            goal_ms=20,
        )
    )
    print(
        line(
            "battle: legal plans (strategic + sample)",
            time_ms(lambda: GAME.legal_actions(plan, 0), 100),
            floor_copy,
        )
    )

    blank, _ = new_canvas(WIDTH, HEIGHT)
    floor_png = min(time_ms(lambda: encode_png(blank), 20))
    for label, image_view in (
        ("public, phase 1", GAME.view(explore, None)),
        ("seat, phase 1", GAME.view(explore, 0)),
        ("public, battle", GAME.view(plan, None)),
        ("public, final", GAME.view(full.state, None)),
    ):
        samples = time_ms(lambda image_view=image_view: render_png("the-prince", image_view), 30)
        print(line(f"image {label} (render + palette PNG)", samples, floor_png, goal_ms=60))
