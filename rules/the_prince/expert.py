"""The ``expert`` AI of The Prince: determinized (information-set) Monte Carlo search over the battles.

The expert is handed a seat's view only. In phase 2 the island and every castle are public; what the view hides
is where the enemy Prince hides and what the enemy seals. Each round of the search samples one such hidden
state *consistent with the view* (:func:`determinize`): the enemy Prince in one of its standing castles, drawn
from a model of how a player hides (mostly in the toughest castle, sometimes anywhere) and weighed by where the
enemy's Guard, once revealed, was seen to stand (a Guard mostly stands with its Prince). Every legal action is
then played on that sampled state with the game's own ``apply``, the enemy answering as the ``strategist``
would from its own view of the sampled state, the battle is played out (``strategist`` for both sides) and the
position valued: a win 1, a loss -1, a tie 0, otherwise a small material balance. The action with the best mean
over the rounds is chosen. Every action meets the same samples (common random numbers), so rounds compare fairly.

Phase 1 (landing and exploring) is the ``strategist``'s: the search is for the battles, where games are won.

Thinking is counted in simulated actions (:class:`~rules.engine.thinking.Budget`), so a given view, rng and budget
give the same action on any machine; the wall time (1 s, or a level such as ``expert:3s``) only caps it in play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from rules.engine import Rng
from rules.engine.thinking import DEFAULT_SECONDS, Budget

from . import ai
from .battle import format_plan
from .board import TILES, Tile, known_tiles, parse_tile, strength
from .state import Castle, CastleView, ThePrinceState, ThePrinceView

#: the search's work per decision at most, counted in actions applied by the simulations (a battle plan's
#: simulation applies one, a hiding's three); about a third of a second on the reference machine, so that the
#: wall-time cap seldom decides even on a busy machine
EXPERT_BUDGET = Budget(1_000, DEFAULT_SECONDS)
#: how often the sampled enemy hides as the strategist does (its toughest castle); otherwise anywhere
MODEL_SHARE = 0.7
#: how often a sampled enemy Guard stands with its Prince
GUARD_WITH_PRINCE = 0.8
#: the value of a position the search stops in before the game ends lies within +-this
MATERIAL_SCALE = 0.3
#: castle points (offence + defence + gold - damage) worth one standing castle in the material balance
POINTS_PER_CASTLE = 6.0


def _no_draws() -> Rng:
    """The Prince draws no chance after its setup: a simulated apply gets a fixed (and unused) source."""
    return Rng.for_event(0, 0)


def choose(
    view: ThePrinceView, seat: int, legal: list[str], rng: random.Random, budget: Budget = EXPERT_BUDGET
) -> str:
    """The expert's action among ``legal``: searched in the battles, the strategist's in phase 1."""
    if view["phase"] not in ("hide", "plan") or len(legal) == 1:
        return ai.choose(view, seat, legal, rng)
    from . import GAME  # late: the package imports this module

    search = random.Random(rng.getrandbits(64))
    totals = dict.fromkeys(legal, 0.0)
    counts = dict.fromkeys(legal, 0)
    watch = budget.stopwatch()
    while not watch.spent():
        sample = determinize(view, seat, search)
        answer = enemy_answer(view, sample, 1 - seat, search)
        sealed = GAME.apply(sample, 1 - seat, answer, _no_draws()).state
        for action in legal:
            score, applied = simulate(view, sealed, seat, action)
            totals[action] += score
            counts[action] += 1
            if watch.tick(applied):
                break
    return max(legal, key=lambda action: totals[action] / counts[action] if counts[action] else -2.0)


# ---- the hidden state, sampled from the view ----------------------------------------------------------------
def determinize(view: ThePrinceView, seat: int, rng: random.Random) -> ThePrinceState:
    """A full phase 2 state the view could come from, the enemy's hiding place drawn (see the module notes)."""
    tiles: list[Tile] = [tile or ["water", "", 0] for tile in known_tiles(view.get("tiles", []))]
    castles: list[list[Castle]] = [[], []]
    for castle in sorted(view.get("castles", []), key=lambda c: (c["seat"], c["number"])):
        index = parse_tile(castle["tile"])
        assert index is not None
        castles[castle["seat"]].append({"tile": index, "damage": castle["damage"], "alive": castle["alive"]})
    guards = list(view.get("guards") or [None, None])
    hidden: list[int | None] = [None, None]
    hidden[seat] = ai.own_hidden(view, seat)
    if view["phase"] == "plan":
        hidden[1 - seat] = sample_prince(view, 1 - seat, guards[1 - seat], rng)
    return {
        "map": view["map"],
        "tiles": tiles,
        "phase": view["phase"],
        "turn": view["turn"],
        "battle": view["battle"],
        "seen": [[1] * TILES, [1] * TILES],
        "prince": [None, None],
        "castles": castles,
        "taken": [[], []],
        "clashed": [[], []],
        "sealed": [None, None],
        "hidden": hidden,
        "guard": guards,
        "last_battle": view.get("last_battle"),
        "submissions": [],
        "result": None,
    }


def sample_prince(view: ThePrinceView, owner: int, guard: int | None, rng: random.Random) -> int:
    """The castle ``owner``'s Prince hides in, drawn from the hiding model given where its Guard stands."""
    standing = [castle for castle in view.get("castles", []) if castle["seat"] == owner and castle["alive"]]
    while True:  # rejection: draw a hiding place, keep it as often as it explains the Guard
        castle = _model_prince(standing, rng)
        if guard is None or len(standing) == 1:
            return castle
        likely = GUARD_WITH_PRINCE if castle == guard else (1 - GUARD_WITH_PRINCE) / (len(standing) - 1)
        if rng.random() * GUARD_WITH_PRINCE < likely:
            return castle


def _model_prince(standing: Sequence[CastleView], rng: random.Random) -> int:
    if rng.random() >= MODEL_SHARE:
        return int(rng.choice(standing)["number"])
    return int(max(standing, key=lambda castle: _toughness(castle) + rng.random() * 0.5)["number"])


def _toughness(castle: CastleView) -> float:
    return float(castle["defence"] + castle["bonus"] - castle["damage"])


# ---- one simulation -----------------------------------------------------------------------------------------
def enemy_answer(view: ThePrinceView, sample: ThePrinceState, enemy: int, rng: random.Random) -> str:
    """What the enemy seals on the sampled state: its hiding drawn from the model (as ``sample_prince``), or
    the strategist's plan from the enemy's view of the sample."""
    if sample["phase"] == "plan":
        return _plan(view, enemy, sample)
    standing = [c for c in view.get("castles", []) if c["seat"] == enemy and c["alive"]]
    prince = _model_prince(standing, rng)
    others = [c["number"] for c in standing if c["number"] != prince]
    guard = prince if not others or rng.random() < GUARD_WITH_PRINCE else rng.choice(others)
    return f"prince {prince} guard {guard}"


def _plan(view: ThePrinceView, seat: int, state: ThePrinceState) -> str:
    """The strategist's plan for ``seat`` in a sampled state of this battle: in phase 2 every castle is public,
    so ``seat``'s view is ours with the Guards now placed and ``seat``'s own hiding place."""
    seen = view.copy()
    seen["guards"] = list(state["guard"])
    seen["prince_in"] = [f"prince-in:{seat}#{state['hidden'][seat]}"]
    return format_plan(ai.plan_battle(seen, seat, cautious=True))


def simulate(view: ThePrinceView, sealed: ThePrinceState, seat: int, action: str) -> tuple[float, int]:
    """``action`` on the sampled state (the enemy's answer sealed), and this battle to its end, strategist
    plans for both sides after a hiding: the value reached and the number of actions applied (the work)."""
    from . import GAME

    state = GAME.apply(sealed, seat, action, _no_draws()).state
    if state["phase"] != "plan" or state["battle"] != sealed["battle"]:
        return value(state, seat), 1
    for player in (seat, 1 - seat):
        state = GAME.apply(state, player, _plan(view, player, state), _no_draws()).state
    return value(state, seat), 3


def value(state: ThePrinceState, seat: int) -> float:
    """1 won, -1 lost, 0 tied; before the end, the material balance squeezed within +-``MATERIAL_SCALE``."""
    result = state["result"]
    if result is not None:
        return 0.0 if result["draw"] else (1.0 if seat in result["winners"] else -1.0)
    balance = _material(state, seat) - _material(state, 1 - seat)
    return MATERIAL_SCALE * math.tanh(balance / (4 * POINTS_PER_CASTLE))


def _material(state: ThePrinceState, seat: int) -> float:
    total = 0.0
    for castle in state["castles"][seat]:
        if castle["alive"]:
            power = strength(state["tiles"], castle["tile"])
            total += POINTS_PER_CASTLE + sum(power.values()) - castle["damage"]
    return total
