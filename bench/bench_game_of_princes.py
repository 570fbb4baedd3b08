"""Game of Princes: the level ladder head to head, the ``hard`` AI against the random player, decision times.

Goals: each level beats the level below it head to head, seats alternating (issue 17): ``hard`` vs ``medium``
at least 65% of the decided games over 40 games (a draw counts for neither side; draws are printed beside),
``medium`` vs ``easy`` and ``easy`` vs ``random`` more than half; ``expert`` vs ``hard`` is in
``python -m bench ai``. The ``hard`` AI wins at least 95% of 200 games against the random player and decides
within 1 s on the reference machine (2 cores). The decision times are compared with a floor measured in the
same run: generating the legal moves of the same positions. A full run rewrites the levels' figures in
``rules/game_of_princes/strength.json`` (what the lobby shows).

``python -m bench game_of_princes`` runs it; ``GOP_GAMES=40`` plays fewer games against random for a quick look,
``GOP_SEED=S`` plays games S, S+1, ... (default 10000) so several samples can be compared, ``AI_GAMES=N`` plays N
games per ladder match (then nothing is rewritten), ``GOP_PARTS=ladder`` or ``random`` runs one part.
"""

from __future__ import annotations

import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bench.bench_ai import Match, figures_of, report, run_match, store_strength
from bench.stats import line, time_ms
from rules.engine.playout import play
from rules.game_of_princes import GAME

#: the level measured against random play (``expert``, a second per move, is measured in ``bench ai``)
LEVEL = "hard"
#: the ladder, strongest first: each level against the one below it
LADDER = (
    Match("game-of-princes", 2, "hard", "medium", 40, 0.65, first_seed=60_000),
    Match("game-of-princes", 2, "medium", "easy", 40, 0.5, first_seed=60_000),
    Match("game-of-princes", 2, "easy", "random", 40, 0.5, first_seed=60_000),
)
GAMES = int(os.environ.get("GOP_GAMES", "200"))
FIRST_SEED = int(os.environ.get("GOP_SEED", "10000"))
WORKERS = 2
WIN_RATE_GOAL = 0.95
DECISION_GOAL_MS = 1000.0


def _one_game(number: int) -> tuple[bool, list[float], list[dict]]:
    """Play game ``number`` (the AI on seat ``number % 2``): whether it won, its decision times, and a few
    of the positions it faced (views) for the floor measurement."""
    seat = number % 2
    times: list[float] = []
    views: list[dict] = []

    def ai(game, view, seat_, legal, rng):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        action = game.choose_action(view, seat_, legal, LEVEL, rng)
        times.append((time.perf_counter() - started) * 1000)
        if len(times) % 8 == 1:
            views.append(view)
        return action

    playout = play(GAME, 2, FIRST_SEED + number, choosers={seat: ai})
    return GAME.outcome(playout.state).winners == (seat,), times, views


def run() -> None:
    parts = os.environ.get("GOP_PARTS", "ladder,random")
    if "ladder" in parts:
        _ladder()
    if "random" in parts:
        _against_random()


def _ladder() -> None:
    quick = os.environ.get("AI_GAMES")
    for match in LADDER:
        result = run_match(match, int(quick) if quick else None)
        for text in report(result):
            print(text, flush=True)
        if not quick:
            store_strength(match.game, match.level_a, figures_of(result, "python -m bench game_of_princes"))


def _against_random() -> None:
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(_one_game, range(GAMES)))
    wins = sum(won for won, _, _ in results)
    decisions = [ms for _, times, _ in results for ms in times]
    views = [view for _, _, sample in results for view in sample]
    rate = wins / GAMES
    print(
        f"{LEVEL} AI vs random: {wins}/{GAMES} wins ({rate:.1%}), seats alternating, goal >= "
        f"{WIN_RATE_GOAL:.0%}: {'met' if rate >= WIN_RATE_GOAL else 'NOT met'} "
        f"(seeds {FIRST_SEED}-{FIRST_SEED + GAMES - 1}, {time.perf_counter() - started:.0f} s on {WORKERS} workers)"
    )
    floor = _floor_ms(views)
    print(
        line(
            f"{LEVEL} decision ({len(decisions)} decisions, {WORKERS} games at once)",
            decisions,
            floor,
            DECISION_GOAL_MS,
        )
    )
    _single_decisions(views[:40], floor)


def _floor_ms(views: list[dict]) -> float:
    """Median time to list the legal moves of the sampled positions: the least any decision must do."""
    samples = []
    for view in views[:200]:
        seat = view["to_move"]
        samples.extend(time_ms(lambda view=view, seat=seat: GAME.legal_actions(view, seat), 3))
    samples.sort()
    return samples[len(samples) // 2] if samples else 0.0


def _single_decisions(views: list[dict], floor: float) -> None:
    """The same decisions again with nothing else running: the latency a lone game sees."""
    rng = random.Random(1)
    samples = []
    for view in views:
        seat = view["to_move"]
        legal = GAME.legal_actions(view, seat)
        samples.extend(
            time_ms(
                lambda view=view, seat=seat, legal=legal: GAME.choose_action(view, seat, legal, LEVEL, rng), 1
            )
        )
    if samples:
        print(
            line(
                f"{LEVEL} decision, one at a time ({len(samples)} positions)",
                samples,
                floor,
                DECISION_GOAL_MS,
            )
        )
