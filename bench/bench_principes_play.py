"""PRINCIPES II-III rules of play: the time of one ``apply`` (plus listing the legal actions) in random 4-player
games, beside its floor measured in the same run: the pickle copy of the same state that every ``apply`` makes.
PRINCIPES III adds the effect interpreter: one component's effect applied to a copied state (every Battle,
Court and Neighbour card and Progress tile in turn), against the same copy as floor.
"""

from __future__ import annotations

import random
import time

from rules.engine import Game, Rng
from rules.principes import GAME
from rules.principes import play as rules

from .stats import line, time_ms

GAMES = 6
GOAL_P99_MS = 10.0


def _samples() -> tuple[list[float], list[float], list[float]]:
    apply_ms: list[float] = []
    legal_ms: list[float] = []
    states = []
    for seed in range(GAMES):
        rng = Rng.for_event(seed, 0)
        state = rules.start_play(GAME.setup(4, {}, rng), rng)
        chooser = random.Random(seed)
        for seq in range(1, 5000):
            decisions = rules.pending(state)
            if not decisions:
                break
            seat = min(decisions)
            started = time.perf_counter()
            legal = rules.legal_actions(state, seat)
            legal_ms.append((time.perf_counter() - started) * 1000)
            action = chooser.choice(legal)
            started = time.perf_counter()
            state = rules.apply(state, seat, action, Rng.for_event(seed, seq)).state
            apply_ms.append((time.perf_counter() - started) * 1000)
            if seq % 50 == 0:
                states.append(state)
    floor = [sample for state in states for sample in time_ms(lambda s=state: Game.copy_state(s), 5)]
    return apply_ms, legal_ms, floor


def _effect_samples() -> tuple[list[float], list[float]]:
    """Each component's effect run by the interpreter on a fresh copy of a mid-game state."""
    from rules.engine.rng import NoChance
    from rules.principes.data import catalog, instances
    from rules.principes.play.common import Ctx
    from rules.principes.play.effects_engine import Effect
    from rules.principes.play.effects_engine import run as run_effect

    state = GAME.setup(4, {}, Rng.for_event(0, 0))
    components = [
        instances(record)[0]
        for deck in ("battle", "court", "neighbour", "progress")
        for record in catalog().components[deck]
    ]
    effect_ms: list[float] = []
    for _ in range(20):
        for component in components:
            copy = Game.copy_state(state)
            started = time.perf_counter()
            run_effect(Effect(Ctx(copy, NoChance()), "PMA", component, target="MAS", land="gnesna"))
            effect_ms.append((time.perf_counter() - started) * 1000)
    floor = time_ms(lambda: Game.copy_state(state), 50)
    return effect_ms, floor


def run() -> None:
    apply_ms, legal_ms, floor = _samples()
    floor_ms = sorted(floor)[len(floor) // 2]
    print(line(f"principes apply ({len(apply_ms)} actions, 4 players)", apply_ms, floor_ms, GOAL_P99_MS))
    print(line("principes legal_actions", legal_ms, floor_ms))
    effect_ms, effect_floor = _effect_samples()
    print(
        line(
            f"principes card/tile effect ({len(effect_ms)} runs)",
            effect_ms,
            sorted(effect_floor)[len(effect_floor) // 2],
            GOAL_P99_MS,
        )
    )
