"""Pace (issues 18 and 47): how many times each game waits for a person, in self-play through the rules with the
AI choosers, counted as ``rules.engine.pace`` defines a wait (a seat asked a decision nobody answers for it, when
it was not being asked already: prompts that start together count once, several decisions in a row by one seat
count once, an automatic answer is no wait).

Each game and player count is played on the same seeds in the same run, the AI (PRINCIPES: ``strong``) choosing
every answer a simulated player gives, as the bot is shipped: the automatic pass on everywhere. The player model:

- **baseline**: every decision is asked and answered when asked, as the bot asked before issue 47: the
  automatic pass on (a default since before the pace work), the game's default options (PRINCIPES: ``together``
  off, each player asked after the one before, as the rulebook), and nothing else (no standing orders, no
  answers given ahead). The figure the others are divided by. The defaults, keen and orders lines play the
  default options too.
- **defaults**: nobody sets anything: a seat holds the standing orders the bot begins a game with for a player
  who changed nothing (``SHIPPED_ORDERS``: the game's recommended set, as ``/settings orders`` is on by
  default, ``bot.hosting.notify.DEFAULTS``; none for a game that recommends none), and a player answers only
  the decision the bot waits on, when asked: the messages that ask ahead (the later turns of a queue, the Taxes
  choice offered when a plan is sealed, a turn offered ahead) go unanswered. A game that begins with no orders
  plays the baseline's very games here (not played twice); so do the keen and orders lines of a game with no
  standing orders and nothing asked ahead (every game but PRINCIPES).
- **keen**: no standing orders, but every seat answers every message the bot offers the moment it arrives: the
  decision asked, each later turn of a queue asked ahead (``ask_ahead``: asked together with the first seat's
  turn, one wait; the AI gives its three first choices from the decision as posed then, the first still legal
  at the turn is given, none: the seat is asked again, a new wait), the Taxes choice offered with the sealing
  of a plan that has Taxes ("collect", answered with the seal: no wait of its own), and each own turn offered
  ahead (``collect_turns``, ``Game.turn_ahead``: PRINCIPES's next action of a seat, and its plan's own actions
  as it seals it, others still planning (the bench's state holds the plan at once; the host offers them from
  its state with that seat's own seal applied, ``turn_ahead.with_own_answer``: the same offer), a Movement's on
  past its moves into the mover's Clergy penalties, destruction and battle order, its pledges at a Council or a
  Common Council, the defender's card window, each other side's extra cards while Masovia is asked her reroll,
  its new Prince, its Princess's draw at home, the Princeps's next direction while the Round's last queued icons
  or the Prince changes are asked; offered as the host offers it, with the seat's own wait or at the public
  moment it comes in sight; the AI goes through the turn on the preview, answer after answer, until the preview
  stops at a draw, a die or someone else's decision; each answer is given in turn while still legal, the first
  one that is not, and whatever the preview did not reach, is asked: a wait).
- **orders**: every seat holds the recommended standing orders (``TYPICAL_ORDERS``: the game's own
  ``Game.recommended_orders``, the orders ``python -m bench orders`` measured not to cost strength; named in the
  output) and answers ahead as the keen seats do. The queued prompts (Division, Urbanization, Release, History
  texts, Princess missions) the orders leave to be asked are collected ahead too: each later seat answers when
  the first is asked.
- **together** (PRINCIPES): the keen line at a table that chose option ``together=on`` (``OPTION_LINES``):
  Division, Urbanization, Release to Home, the History texts' choices, a Period's Prince changes and the Princess
  missions asked of every player at once, sealed (one wait for all).

Goals (issue 47, PRINCIPES with 4 players, as ratios of the baseline's median waits): keen at most 0.50,
defaults at most 0.75, orders at most 0.35. They are printed with "met" or "NOT met"; nothing here is tuned to
them. ``SEEDS`` seeds per game and player count keep the whole run to about two minutes on the 2-core machine.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence

from bot.hosting.notify import DEFAULTS as NOTIFY_DEFAULTS
from rules.engine import Game, available_games, get_game
from rules.engine.pace import PacedGame, paced_play
from rules.engine.standing import Order, Orders, describe_orders, recommended_orders

#: seeds per game and player count (each played in every line of the player model)
SEEDS = 15
#: issue 47's goals for PRINCIPES with 4 players: each line's median waits at most this share of the baseline's
GOALS = {"keen": 0.50, "defaults": 0.75, "orders": 0.35}
#: (game, player counts, AI level) of every available game, from the registry: each game's sample player counts
#: and level (``Game.exercise``: PRINCIPES's strong level, its best heuristic level, under 5 ms a decision; for the
#: other games the cheapest searching level that plays every game to its end)
GAMES = tuple(
    (key, get_game(key).sample_players(), get_game(key).exercise.level) for key in available_games()
)
#: the recommended orders (the "orders" line): each game's own recommended set (``Game.recommended_orders``,
#: PRINCIPES's measured not to cost strength by ``python -m bench orders``), for the games that recommend any
TYPICAL_ORDERS: dict[str, dict[str, Order]] = {
    key: orders for key, _counts, _level in GAMES if (orders := recommended_orders(get_game(key)))
}
#: the standing orders a seat holds when its player sets nothing: the host begins every game with its recommended
#: set for a player whose ``/settings orders`` is on, the default (``bot.hosting.lobby``, ``shipped_orders``)
SHIPPED_ORDERS: dict[str, dict[str, Order]] = TYPICAL_ORDERS if NOTIFY_DEFAULTS["orders"] == "on" else {}
#: the lines of options a table may choose (line name -> the options), each played as the keen line: PRINCIPES's
#: ``together`` on (off, the default, is the other lines')
OPTION_LINES: dict[str, dict[str, dict[str, str]]] = {"principes": {"together": {"together": "on"}}}


def _median(games: list[PacedGame]) -> float:
    return statistics.median(game.waits.waits for game in games)


def _by_kind(games: list[PacedGame]) -> str:
    total: Counter[str] = Counter()
    for game in games:
        total.update(game.waits.by_kind)
    return ", ".join(f"{kind} {count / len(games):.1f}" for kind, count in total.most_common()) or "none"


def measure(key: str, players: int, level: str, seeds: range) -> dict[str, list[PacedGame]]:
    """The games of each line of the player model ("baseline", "defaults", "keen", "orders", then the game's
    ``OPTION_LINES``) on the same seeds, the automatic pass on in all of them."""
    game = get_game(key)

    def play(orders: Orders, ahead: bool, options: dict[str, str] | None = None) -> list[PacedGame]:
        every = {seat: orders for seat in range(players)} if orders else None
        return [
            paced_play(
                game,
                players,
                seed,
                level,
                every,
                autopass=True,
                collect_ahead=ahead,
                collect_turns=ahead,
                answer_plan=ahead,
                options=options,
            )
            for seed in seeds
        ]

    baseline = play({}, False)
    shipped: Orders = SHIPPED_ORDERS.get(key, {})
    # a game with no standing orders and nothing asked ahead plays the baseline's very games in every line
    asks_ahead = type(game).ahead is not Game.ahead or type(game).plan_ahead is not Game.plan_ahead
    keen = play({}, True) if asks_ahead else baseline
    return {
        "baseline": baseline,
        "defaults": play(shipped, False) if shipped else baseline,
        "keen": keen,
        "orders": play(TYPICAL_ORDERS.get(key, {}), True) if asks_ahead or key in TYPICAL_ORDERS else keen,
        **{name: play({}, True, options) for name, options in OPTION_LINES.get(key, {}).items()},
    }


def run(seeds: int = SEEDS, games: Sequence[tuple[str, tuple[int, ...], str]] = GAMES) -> None:
    """Every game's line (``games``: by default every available game's, ``GAMES``), ``seeds`` seeds each."""
    print(
        f"pace: {seeds} seeds per game and player count, the automatic pass on in every line, the AI choosing "
        "every answer (the player model: bench/bench_pace.py)"
    )
    for key, orders in TYPICAL_ORDERS.items():
        if key not in {game for game, _counts, _level in games}:
            continue
        set_orders = [line for line in describe_orders(get_game(key), orders) if not line.endswith("ask me")]
        print(
            f"pace orders line: answers given ahead as keen; every {key} seat's standing orders: "
            + "; ".join(set_orders)
        )
    goal: dict[str, float] = {}
    for key, counts, level in games:
        for players in counts:
            lines = measure(key, players, level, range(1, seeds + 1))
            base = _median(lines["baseline"])
            compared = [name for name in lines if name != "baseline"]
            ratios = {name: _median(lines[name]) / base if base else 1.0 for name in compared}
            shown = " ".join(
                f"{name} {ratios[name]:.2f} ({_median(lines[name]):g} waits)" for name in compared
            )
            print(f"pace {key} {players}p {shown} (baseline {base:g}, automatic pass on, {level})")
            for name in lines:
                if (
                    name != "defaults" or lines[name] is not lines["baseline"]
                ):  # not the baseline's games again
                    print(f"  {name} waits by kind (per game): {_by_kind(lines[name])}")
            if (key, players) == ("principes", 4):
                goal = ratios
    for name, limit in GOALS.items():
        if name in goal:
            verdict = "met" if goal[name] <= limit else "NOT met"
            print(f"pace goal: principes 4p {name} {goal[name]:.2f} <= {limit:.2f}: {verdict}")
