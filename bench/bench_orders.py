"""Standing orders against strength (issue 47): does a recommended order cost the player who sets it games?

Every order of PRINCIPES's recommended set (``Game.recommended_orders``), each alone, then the whole set, is
measured in 2-player games, strong against strong, paired on the same seeds. The player model:

- both seats are PRINCIPES's ``strong`` AI: it chooses every answer a player gives, one seat at a time (the
  lowest asked seat first), from the seat's own view, as ``rules.engine.pace.paced_play`` plays;
- the automatic pass is on for both seats, as shipped (a card window whose only answer is "pass" passes itself);
  nobody answers anything ahead;
- on each seed two games are played from the same setup: the **control** game, neither seat holding any
  standing order, and the **test** game, the order (or the whole set) held by one seat, seat 1 on odd seeds and
  seat 0 on even ones, so that the first player's advantage cancels. The order answers every decision of its
  topic it has an answer for, without asking the AI; everything else is the AI's. The test game is played
  ``paired``: the seats answer in the control game's order, and where the order answers, the AI still chooses
  (its choice dropped), so its random draws and the dice are the control game's as long as the order answered
  as the AI would have: a seed's two games differ only from the first answer the order changed. So the test
  game of a seed on which the order changes none of the AI's answers in the control game (``Changes`` watches
  it) is the control game, move for move, and is not played again: only the others are.

For each seed, whether the order's seat won each game (its return at the end, ``Outcome.returns``: a draw or an
unfinished game is no win). Printed per order: the games, the seat's win share with the order and the same seat's
in the control games, the discordant pairs (seeds won only without the order: "lost"; only with it: "gained") and
the one-sided exact paired test of a loss (McNemar's exact test, a sign test on the discordant pairs: the chance
of at least that many "lost" among them if the order changed nothing, ``loss_p_value``), with the verdict "no
significant loss" or "LOSS (p<0.05)". ``REFERENCE`` orders, not recommended (why: next to the recommended set,
``rules/principes/play/standing.py``), are measured the same way for the record.

Each line also says on how many seeds the order answered anything for its seat in the control game
("answered") and on how many it answered otherwise than the AI did ("changed"): an order for a rare decision
(Invader and Neighbour moves in 2-player games) is measured only on those seeds, whatever the sample's size.

``SEEDS`` seeds from 1 (``BENCH_ORDERS_SEEDS`` and ``BENCH_ORDERS_FIRST_SEED`` to change them), the games played
by two worker processes: 3 to 4 minutes on the 2-core machine. ``BENCH_ORDERS_TOPICS`` (topic keys, comma
separated) measures only the lines whose orders set one of those topics.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from rules.engine import Decision, Game, State, get_game
from rules.engine.pace import PacedGame, paced_play
from rules.engine.standing import Order, Orders, describe_orders, recommended_orders, standing_answer

GAME = "principes"
PLAYERS = 2
LEVEL = "strong"
#: seeds (paired games) per order: issue 47 asks for at least 120
SEEDS = int(os.environ.get("BENCH_ORDERS_SEEDS", "200"))
#: the first seed (a run on fresh seeds: the set chosen on seeds 1-400 was confirmed on 401-600)
FIRST_SEED = int(os.environ.get("BENCH_ORDERS_FIRST_SEED", "1"))
#: a loss is significant below this one-sided p-value
ALPHA = 0.05
WORKERS = 2
#: only the lines whose orders set one of these topics (all lines when empty)
TOPICS = tuple(key for key in os.environ.get("BENCH_ORDERS_TOPICS", "").split(",") if key.strip())
#: orders measured for the record, not recommended (the measured reason is next to the recommended set)
REFERENCE: dict[str, Orders] = {
    "council keep (not recommended)": {"council": Order("keep")},
    "council pledge (not recommended)": {"council": Order("pledge")},
    "release default (not recommended)": {"release": Order("default")},
    "division default (not recommended)": {"division": Order("default")},
    "invader_move default (not recommended)": {"invader_move": Order("default")},
    "hand_limit default (not recommended)": {"hand_limit": Order("default")},
    # replaced by ``decisive`` (issue 47): the windows and dice orders recommended before
    "windows pass unless battle (recommended before)": {"windows": Order("pass", ("battle",))},
    "dice default (recommended before)": {"dice": Order("default")},
    "clergy_penalty default (not recommended)": {"clergy_penalty": Order("default")},
    "withdraw default (not recommended)": {"withdraw": Order("default")},
    # the strong AI never plays a Neighbour card: these answer nothing here (their line says "answered on 0")
    "neighbour_move default (not measured: never asked)": {"neighbour_move": Order("default")},
    "neighbour_move leader (not measured: never asked)": {"neighbour_move": Order("leader")},
}


def loss_p_value(lost: int, gained: int) -> float:
    """The one-sided exact paired test of a loss (McNemar's exact test): the chance, among ``lost + gained``
    discordant pairs each as likely to fall either way, of at least ``lost`` pairs lost (1.0 with none)."""
    pairs = lost + gained
    return sum(math.comb(pairs, k) for k in range(lost, pairs + 1)) / 2**pairs


@dataclass(frozen=True)
class Paired:
    """One order's paired games: per seed, whether its seat won the control game and the test game."""

    name: str
    #: (won without the order, won with it), one per seed
    pairs: tuple[tuple[bool, bool], ...]
    #: the seeds on which the order changed an answer (the others' test game is the control game)
    changed: int = 0
    #: the seeds on which the order answered anything for its seat in the control game
    answered: int = 0

    @property
    def lost(self) -> int:
        return sum(control and not test for control, test in self.pairs)

    @property
    def gained(self) -> int:
        return sum(test and not control for control, test in self.pairs)

    @property
    def p_value(self) -> float:
        return loss_p_value(self.lost, self.gained)

    @property
    def loses(self) -> bool:
        return self.p_value < ALPHA

    def line(self) -> str:
        games = len(self.pairs)
        control = sum(won for won, _test in self.pairs) / games
        test = sum(won for _control, won in self.pairs) / games
        verdict = f"LOSS (p<{ALPHA:g})" if self.loses else "no significant loss"
        return (
            f"orders {GAME} {PLAYERS}p {self.name}: {games} games, the order's seat won {test:.1%} with it, "
            f"{control:.1%} without (control), answered on {self.answered} seeds, an answer changed on "
            f"{self.changed} seeds, discordant "
            f"{self.lost} lost / {self.gained} gained, p={self.p_value:.3f}: {verdict}"
        )


def holder(seed: int) -> int:
    """The seat that holds the order on a seed: seat 1 on odd seeds, 0 on even ones."""
    return seed % PLAYERS


@dataclass
class Changes:
    """Watches a control game (``paced_play``'s ``watch``) for the candidates that would change one of the
    holder's answers: an order that answers the holder's decision otherwise than the AI did. A candidate that
    changes none plays, paired, the control game itself, move for move: its test game need not be played. It
    notes too the candidates that answer anything (``answered``), up to the first answer they change."""

    game: Game
    seat: int
    candidates: Mapping[str, Orders]
    changed: set[str] = field(default_factory=set)
    answered: set[str] = field(default_factory=set)

    def __call__(self, state: State, seat: int, decision: Decision, action: str, source: str) -> None:
        unchanged = [name for name in self.candidates if name not in self.changed]
        if seat != self.seat or source != "ai" or not unchanged:
            return  # an automatic pass is the test game's too
        view, legal = self.game.view(state, seat), self.game.legal_actions(state, seat)
        for name in unchanged:
            answer = standing_answer(self.game, view, seat, decision, legal, self.candidates[name])
            if answer is not None:
                self.answered.add(name)
            if answer is not None and answer != action:
                self.changed.add(name)


def _won(game: Game, paced: PacedGame, seat: int) -> bool:
    return game.outcome(paced.playout.state).returns(PLAYERS)[seat] > 0


@dataclass(frozen=True)
class Control:
    """A seed's control game: whether the holder's seat won it, the candidates that change it and those that
    answer anything in it."""

    won: bool
    changed: frozenset[str]
    answered: frozenset[str]


def control_game(seed: int, candidates: Mapping[str, Orders]) -> Control:
    """The control game of a seed, watched for the candidates (``Changes``)."""
    game = get_game(GAME)
    changes = Changes(game, holder(seed), candidates)
    paced = paced_play(game, PLAYERS, seed, LEVEL, None, autopass=True, paired=True, watch=changes)
    return Control(_won(game, paced, holder(seed)), frozenset(changes.changed), frozenset(changes.answered))


def paired_game(seed: int, orders: Orders) -> bool:
    """Whether the holder's seat won the seed's test game, ``orders`` its standing orders (played paired)."""
    game = get_game(GAME)
    seat = holder(seed)
    return _won(
        game, paced_play(game, PLAYERS, seed, LEVEL, {seat: orders}, autopass=True, paired=True), seat
    )


def _control(task: tuple[int, Mapping[str, Orders]]) -> Control:
    return control_game(*task)


def _test(task: tuple[int, Orders]) -> bool:
    return paired_game(*task)


def measure(candidates: Mapping[str, Orders], seeds: range, workers: int = WORKERS) -> list[Paired]:
    """Each candidate's paired games on ``seeds``: the control games first (shared by every candidate), then
    the test games of the seeds whose control game the candidate would change (the others are that game)."""
    with ProcessPoolExecutor(workers) as pool:
        controls = dict(zip(seeds, pool.map(_control, [(seed, candidates) for seed in seeds]), strict=True))
        played = [(name, seed) for name in candidates for seed in seeds if name in controls[seed].changed]
        tested = pool.map(_test, [(seed, candidates[name]) for name, seed in played], chunksize=2)
        won = dict(zip(played, tested, strict=True))
    return [
        Paired(
            name,
            tuple((controls[seed].won, won.get((name, seed), controls[seed].won)) for seed in seeds),
            sum(name in controls[seed].changed for seed in seeds),
            sum(name in controls[seed].answered for seed in seeds),
        )
        for name in candidates
    ]


def candidates(game_key: str = GAME, topics: tuple[str, ...] = ()) -> dict[str, Orders]:
    """Each recommended order alone (named by its line of ``describe_orders``), the whole set, the references;
    with ``topics``, only the lines whose orders set one of them."""
    game = get_game(game_key)
    recommended = recommended_orders(game)
    alone: dict[str, Orders] = {}
    for key, order in recommended.items():
        alone[next(line for line in describe_orders(game, {key: order}) if f"({key})" in line)] = {key: order}
    every = {**alone, "the whole recommended set": recommended, **REFERENCE}
    return {name: orders for name, orders in every.items() if not topics or set(orders) & set(topics)}


def run(seeds: int = SEEDS) -> None:
    started = time.perf_counter()
    print(
        f"orders: {GAME} {PLAYERS}p, {LEVEL} against {LEVEL}, {seeds} paired seeds per order ({FIRST_SEED}-"
        f"{FIRST_SEED + seeds - 1}; the control game "
        "without orders shared), the order on seat 1 on odd seeds and seat 0 on even ones, the automatic pass on "
        "(the player model: bench/bench_orders.py)",
        flush=True,
    )
    results = measure(candidates(topics=TOPICS), range(FIRST_SEED, FIRST_SEED + seeds))
    for result in results:
        print(result.line())
    recommended = [result for result in results if result.name not in REFERENCE]
    losing = [result.name for result in recommended if result.loses]
    print(
        f"orders verdict: {len(recommended) - len(losing)} of {len(recommended)} recommended lines without a "
        f"significant loss{': LOSS in ' + '; '.join(losing) if losing else ''} "
        f"({time.perf_counter() - started:.0f} s)"
    )
