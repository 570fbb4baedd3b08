"""The ``expert`` PRINCIPES AI: determinized Monte Carlo search over the last Rounds, where games are decided.

The expert is handed its seat's view only. What the view hides is the rivals' hands, the order of the Court,
Battle and Neighbour decks, the Progress stacks, the History deck and a rival's sealed plan. Each round of the
search samples one such hidden state *consistent with the view* (:func:`determinize`; the seat would see its
very view in it): the cards of each deck that are not in the seat's hand are shuffled, the deck keeps its
counted size and the rest fills the rivals' hands to their counted sizes; each Progress stack and the History
deck are drawn from the tiles and cards not shown; a rival's sealed plan is the ``strong`` plan of that rival's
view of the sample (among the plans that begin with the actions it revealed).

Every candidate answer is then applied to that sample with the game's own ``apply`` and the game is played out
to its end by ``strong`` on every seat, each deciding from its own view of the sample: a win is worth 1, a loss
-1, a draw 0. The candidate with the best mean over the rounds wins (ties go to ``strong``'s own answer, the
first candidate). Every candidate meets the same samples and the same dice (common random numbers), so rounds
compare fairly; when the first ``SETTLED`` rounds end alike whatever the answer, the search stops.

Where: games between good players are decided in the last two Rounds (the Council that takes the Princeps token
before the end, or a coronation), and a position before them says little about the winner (the token holder at
the start of the last Round wins less often than not: the other player keeps its Council for last). So the
expert plays as ``strong`` until the Round before the last; from there it searches its plan (the ``strong``
ranking's best sets of three actions), the turn order direction, Politics, its Council cards and the choices of
its actions (the Movement's moves ``strong`` ranks best, and stopping), a playout being short enough there to
compare every candidate on several samples within the second. Battle card windows stay ``strong``'s (exact odds).

Thinking is counted in simulated decisions (:class:`~rules.engine.thinking.Budget`), so a given view, rng and
budget give the same action on any machine; the wall time (1 s, or a level such as ``expert:3s``) only caps it
in play. The rules it simulates with are handed in (:class:`Rules`): this layer may not import them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import cast

from rules.engine import Applied, Decision, Game, IllegalAction, Rng
from rules.engine.thinking import DEFAULT_SECONDS, Budget, Stopwatch

from ..data import COLOURS, DECK_KINDS, catalog, instances
from ..schema import HistoryDeck, MarketPile, PState, PView
from . import ai_strong
from .currency import FREE_VERBS
from .flow import PLANS

#: the search's work per decision at most, counted in simulated decisions (one ``strong`` decision on a seat's
#: view of the sample and its ``apply``, about a millisecond on the reference machine): about half a second, so
#: that the wall-time cap seldom decides even on a busy machine (``python -m bench ai``: p99 0.6 s, 1 decision of
#: 4,827 capped, two games at once)
EXPERT_BUDGET = Budget(700, DEFAULT_SECONDS)
#: the prompt kinds the expert searches; every other decision is ``strong``'s
SEARCHED = (
    "plan",
    "direction",
    "politics",
    "politics_return",
    "council",
    "common_council",
    "taxes",
    "assembly",
    "building",
    "progress",
    "movement",
    "clergy_penalty",
    "history_choice",
    "princess",
    "princess_draw",
    "after_battle",
)
#: the search plays the game out to its end: it searches in the last Round and the ``LATE`` ones before it
LATE = 1
#: plans the search compares: the ``strong`` ranking's best sets of three actions
PLAN_CANDIDATES = 6
#: after this many samples that every answer ended alike, the search stops (and ``strong``'s answer stands)
SETTLED = 4
#: the most answers a searched decision compares (beyond it, the first ones in ``strong``'s order)
MAX_CANDIDATES = 8


@dataclass(frozen=True)
class Rules:
    """The rules a simulation plays by, handed in by the entry points (``play``), which this layer may not
    import: ``apply``, ``pending``, ``legal_actions`` and a seat's view of a state (``views.seat_view``)."""

    apply: Callable[[PState, int, str, Rng], Applied[PState]]
    pending: Callable[[PState], dict[int, Decision]]
    legal_actions: Callable[[PState, int], list[str]]
    view: Callable[[PState, int], PView]


def choose(
    view: PView, seat: int, legal: list[str], rng: random.Random, rules: Rules, budget: Budget = EXPERT_BUDGET
) -> str:
    """The expert's action among ``legal``: searched for the decisions in ``SEARCHED``, else ``strong``'s."""
    default = ai_strong.choose(view, seat, legal, rng)
    me = view["you"]["principality"]
    prompt = view["play"]["prompts"].get(me)
    if prompt is None or prompt["kind"] not in SEARCHED or view["round"] < view["play"]["last_round"] - LATE:
        return default
    answers = [a for a in legal if a.split()[0] not in FREE_VERBS]
    candidates = _candidates(view, me, prompt["kind"], answers, default)
    if len(candidates) < 2:
        return default
    search = random.Random(rng.getrandbits(64))
    return search_best(view, seat, candidates, search, rules, budget.stopwatch())


def _candidates(view: PView, me: str, kind: str, answers: list[str], default: str) -> list[str]:
    """The answers the search compares, ``strong``'s own first."""
    if kind == "plan":
        score = ai_strong.plan_scores(view, me)
        ranked = sorted(combinations(ai_strong.PLAN_ORDER, 3), key=lambda trio: -sum(score[a] for a in trio))
        plans = [f"plan {' '.join(trio)}" for trio in ranked]
        found = [default] + [plan for plan in plans if plan in answers and plan != default]
        return found[:PLAN_CANDIDATES]
    if kind == "movement":  # the moves strong ranks best, and stopping
        gains = sorted(ai_strong._candidate_moves(view, me), reverse=True)
        moves = [move for _gain, move in gains if move in answers]
        answers = [*dict.fromkeys([*moves, *(["done"] if "done" in answers else [])])]
    rest = [answer for answer in answers if answer != default]
    return ([default] + rest)[:MAX_CANDIDATES] if default in answers else rest[:MAX_CANDIDATES]


def search_best(
    view: PView, seat: int, candidates: Sequence[str], search: random.Random, rules: Rules, watch: Stopwatch
) -> str:
    """The candidate with the best mean value over determinized simulations (common samples and dice)."""
    totals = dict.fromkeys(candidates, 0.0)
    counts = dict.fromkeys(candidates, 0)
    samples = 0
    while not watch.spent():
        sample = determinize(view, seat, search, rules)
        seed = search.getrandbits(48)
        scores: dict[str, float] = {}
        for candidate in candidates:
            try:
                applied = rules.apply(sample, seat, candidate, Rng.for_event(seed, 0)).state
            except IllegalAction:  # an answer the sample does not allow (the real game does): not compared
                continue
            score = simulate(applied, seat, seed, rules, watch)
            if score is None:  # the time cap came first: this sample counts for no candidate
                break
            scores[candidate] = score
        else:
            for candidate, score in scores.items():
                totals[candidate] += score
                counts[candidate] += 1
            samples += 1
            if samples == SETTLED and len(set(totals.values())) == 1:
                break  # every sample so far ends alike whatever the answer: the answer hardly matters
    return max(candidates, key=lambda c: (totals[c] / counts[c] if counts[c] else -2.0, -candidates.index(c)))


# ---- the hidden state, sampled from the view ----------------------------------------------------------------
def determinize(view: PView, seat: int, rng: random.Random, rules: Rules) -> PState:
    """A full state the view could come from: hidden cards, tiles and rival plans drawn (see the module notes)."""
    me = view["you"]["principality"]
    hidden = ("control", "might", "turn_order", "viewer", "you")
    state = cast(PState, Game.copy_state({key: value for key, value in view.items() if key not in hidden}))
    decks, hands = _cards(view, rng)
    players = {}
    for code, public in view["players"].items():
        player = {key: value for key, value in public.items() if key not in ("hand_size", "plan_sealed")}
        player["hand"] = list(view["you"]["hand"]) if code == me else hands[code]
        player["plan"] = list(view["you"]["plan"] or []) or None if code == me else None
        players[code] = Game.copy_state(player)
    state["players"] = cast(dict, players)
    state["decks"] = decks
    state["market"] = _market(view, rng)
    state["history"] = _history(view, rng)
    _private(state, view, me)
    for code in players:  # a rival's sealed plan: the strong plan of its view of the sample
        if code != me and view["players"][code]["plan_sealed"]:
            state["players"][code]["plan"] = _rival_plan(state, view, code, rng, rules)
    return state


def _cards(view: PView, rng: random.Random) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The decks and the rivals' hands: the cards of each deck not in my hand, shuffled, fill the deck to its
    counted size; the rest, shuffled together, the rivals' hands to theirs."""
    data = catalog()
    mine = set(view["you"]["hand"])
    spare: list[str] = []
    decks: dict[str, list[str]] = {}
    for deck in DECK_KINDS:
        unseen = [card for record in data.components[deck] for card in instances(record) if card not in mine]
        if deck == "court" and view["options"].get("elimination") == "off":  # the variant removes the Heir
            unseen = [card for card in unseen if data.kind_of(card)["title"] != "Heir"]
        rng.shuffle(unseen)
        size = min(view["decks"][deck], len(unseen))
        decks[deck] = unseen[:size]
        spare += unseen[size:]
    rng.shuffle(spare)
    hands = {}
    for code, public in view["players"].items():
        if code != view["you"]["principality"]:
            hands[code], spare = spare[: public["hand_size"]], spare[public["hand_size"] :]
    return decks, hands


def _market(view: PView, rng: random.Random) -> dict[str, MarketPile]:
    """Each Progress stack: the tiles of its colour neither face up nor held, shuffled, to its counted size."""
    held = {tile for p in view["players"].values() for tiles in p["progress"].values() for tile in tiles}
    market: dict[str, MarketPile] = {}
    for colour in COLOURS:
        face_up = list(view["market"][colour]["face_up"])
        pool = [
            tile
            for record in catalog().components["progress"]
            if record["colour"] == colour
            for tile in instances(record)
            if tile not in face_up and tile not in held
        ]
        rng.shuffle(pool)
        market[colour] = {"stack": pool[: view["market"][colour]["stack"]], "face_up": face_up}
    return market


def _history(view: PView, rng: random.Random) -> HistoryDeck:
    """The History deck: the last of its two cards per Period (Period I on top), drawn from each Period's."""
    data = catalog()
    count = view["history"]["deck"]
    per_period = data.setup["start"]["history_per_period"]
    periods = [period for period in (1, 2, 3) for _ in range(per_period)][-count:] if count else []
    revealed = view["history"]["revealed"]
    deck: list[str] = []
    for period in sorted(set(periods)):
        pool = [r["id"] for r in data.components["history"] if r["period"] == period and r["id"] != revealed]
        rng.shuffle(pool)
        deck += pool[: periods.count(period)]
    return {"deck": deck, "revealed": revealed, "icons": list(view["history"]["icons"])}


def _private(state: PState, view: PView, me: str) -> None:
    """The play sub-state's private parts: mine as I see them; a rival's as it stands at its open prompt (a
    sealed 'after battle' choice passes, the 3 cards drawn to return one are the last of its hand)."""
    play = state["play"]
    play["private"] = {code: {} for code in view["players"]}
    play["standing"] = {code: {} for code in view["players"]}
    play["private"][me] = Game.copy_state(view["you"].get("private", {}))
    play["standing"][me] = dict(view["you"].get("standing", {}))
    for code, prompt in play["prompts"].items():
        if code == me or code not in play["private"]:
            continue
        if prompt["kind"] == "after_battle" and prompt["sealed"]:
            play["private"][code]["after"] = []
        elif prompt["kind"] == "politics_return":
            play["private"][code]["drawn"] = state["players"][code]["hand"][-3:]


def _rival_plan(state: PState, view: PView, code: str, rng: random.Random, rules: Rules) -> list[str]:
    """What ``strong`` would seal on the rival's view of the sample, among the plans that begin with the
    actions it revealed this Round."""
    shown = view["play"]["revealed"].get(code, [])
    plans = [plan for plan in PLANS if plan.split()[1 : 1 + len(shown)] == shown]
    plan = ai_strong.choose_plan(rules.view(state, state["players"][code]["seat"]), code, plans, rng)
    return plan.split()[1:]


# ---- one simulation -----------------------------------------------------------------------------------------
def simulate(state: PState, seat: int, seed: int, rules: Rules, watch: Stopwatch) -> float | None:
    """Play on with ``strong`` for every seat (each on its own view of the sample) to the end of the game, each
    simulated decision counted by ``watch``: the value reached for ``seat``, None if the budget ran out first."""
    chooser = random.Random(seed)
    number = 0
    while True:
        pending = rules.pending(state)
        if not pending or state["play"]["result"] is not None:
            break
        if watch.tick():
            return None
        player = min(pending)
        legal = rules.legal_actions(state, player)
        action = (
            legal[0]
            if len(legal) == 1
            else ai_strong.choose(rules.view(state, player), player, legal, chooser)
        )
        number += 1
        state = rules.apply(state, player, action, Rng.for_event(seed, number)).state
    return value(state, seat)


def value(state: PState, seat: int) -> float:
    """1 won, -1 lost, 0 drawn (or not finished)."""
    result = state["play"]["result"]
    if result is None or result["draw"]:
        return 0.0
    return 1.0 if seat in result["winners"] else -1.0
