"""Pace (issue 18): how many times each game waits for a person, in self-play through the rules with the AI
choosers, counted as ``rules.engine.pace`` defines a wait. Each game and player count is played twice on the same
seeds in the same run: the baseline (every decision asked: no standing orders, no automatic pass) and with the
pace features on (the automatic pass, every seat holding the standing orders a typical player sets, named in the
output, and the queued prompts collected ahead: ``rules.engine.pace.ask_ahead``). Goal: PRINCIPES with 4
players waits at most half as often as its baseline.
"""

from __future__ import annotations

import statistics
from collections import Counter

from rules.engine import get_game
from rules.engine.pace import PacedGame, paced_play
from rules.engine.standing import Order, Orders, describe_orders

#: seeds per game and player count (each played twice: baseline and pace features on)
SEEDS = 9
GOAL_RATIO = 0.5
#: (game, player counts, AI level): the cheapest searching level that plays every game to its end
GAMES = (
    ("principes", (2, 3, 4), "basic"),
    ("the-prince", (2,), "strategist"),
    ("game-of-princes", (2,), "easy"),
    ("pharaoh", (2, 3, 4), "greedy"),
    ("babylone", (2, 3, 4), "easy"),
)
#: the orders a typical PRINCIPES player sets: deny passage, pass card windows unless a Battle card could be
#: played, keep Council cards, collect Taxes at once, clockwise as the Princeps (the basic AI itself tosses a coin
#: for it), the Princess to their own Capital and back with a Court card, and the deadline's answer for Release,
#: Division, History choices, the Teutonic call, discards and dice. The queued prompts (Division, Urbanization,
#: Release, History texts, Princess missions) are also collected ahead: each later seat answers when the first is
#: asked.
TYPICAL_ORDERS: dict[str, dict[str, Order]] = {
    "principes": {
        "consent": Order("deny"),
        "windows": Order("pass", ("battle",)),
        "council": Order("keep"),
        "taxes": Order("collect"),
        "direction": Order("cw"),
        "princess_draw": Order("court"),
        **{
            key: Order("default")
            for key in (
                "princess",
                "release",
                "division",
                "history_choice",
                "teutonic_call",
                "princess_discard",
                "dice",
            )
        },
    },
}


def _median(games: list[PacedGame]) -> float:
    return statistics.median(game.waits.waits for game in games)


def _by_kind(games: list[PacedGame]) -> str:
    total: Counter[str] = Counter()
    for game in games:
        total.update(game.waits.by_kind)
    return ", ".join(f"{kind} {count / len(games):.1f}" for kind, count in total.most_common()) or "none"


def measure(key: str, players: int, level: str, seeds: range) -> tuple[list[PacedGame], list[PacedGame]]:
    """(baseline games, pace games) on the same seeds."""
    game = get_game(key)
    typical: Orders = TYPICAL_ORDERS.get(key, {})
    baseline = [paced_play(game, players, seed, level) for seed in seeds]
    paced = [
        paced_play(
            game,
            players,
            seed,
            level,
            {seat: typical for seat in range(players)},
            autopass=True,
            collect_ahead=True,
        )
        for seed in seeds
    ]
    return baseline, paced


def run(seeds: int = SEEDS) -> None:
    print(f"pace: {seeds} seeds per game and player count, AI choosers decide whatever is asked")
    for key, orders in TYPICAL_ORDERS.items():
        set_orders = [line for line in describe_orders(get_game(key), orders) if not line.endswith("ask me")]
        print(
            f"pace features on: automatic pass; answers collected ahead; every {key} seat's standing orders: "
            + "; ".join(set_orders)
        )
    goal = None
    for key, counts, level in GAMES:
        for players in counts:
            baseline, paced = measure(key, players, level, range(1, seeds + 1))
            base, now = _median(baseline), _median(paced)
            ratio = now / base if base else 1.0
            print(f"pace {key} {players}p: waits median {now:g} (baseline {base:g}, ratio {ratio:.2f})")
            print(f"  baseline waits by kind (per game): {_by_kind(baseline)}")
            print(f"  pace waits by kind (per game): {_by_kind(paced)}")
            if (key, players) == ("principes", 4):
                goal = ratio
    if goal is not None:
        verdict = "met" if goal <= GOAL_RATIO else "NOT met"
        print(f"pace goal: principes 4p ratio {goal:.2f} <= {GOAL_RATIO}: {verdict}")
