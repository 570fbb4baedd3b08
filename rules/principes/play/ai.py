"""A simple but sensible PRINCIPES player, deciding from its view and its legal actions only.

Level ``random`` picks any legal action; level ``basic`` plans Taxes/Assembly/Movement-style rounds, collects,
assembles, builds, grabs free land, fights only with the odds in its favour, claims the Princeps token when the
tracks allow it, never gives gold away and converts cards only when the hand limit forces it. Level ``strong``
lives in ``ai_strong`` (it falls back to these choosers for the prompt kinds it does not know).

The stronger levels build on this module, so it cannot import them: each registers its chooser in ``LEVELS``
when it is imported (``play/__init__`` imports every level), and :func:`choose_action` looks the level up there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rules.engine.thinking import split_level

from ..data import catalog
from ..schema import PView
from .ai_eval import acting, army_moved, fought, track_of
from .battle import rolled
from .common import capital
from .currency import FREE_VERBS
from .history_ai import CHOOSERS as HISTORY_CHOOSERS
from .movement import asker, passage_record

View = PView
Chooser = Callable[[View, str, list[str], random.Random], str]
#: a level's whole decision: (view, seat, legal actions, rng) -> action
Level = Callable[[View, int, Sequence[str], random.Random], str]
#: the levels above ``basic``, registered by their modules (``ai_strong``)
LEVELS: dict[str, Level] = {}
#: the searching levels, registered by their modules (``ai_expert``): they also read the level's text, which may
#: name their time cap (``expert:3s``, see ``rules.engine.thinking``)
TIMED_LEVELS: dict[str, Callable[[View, int, Sequence[str], random.Random, str], str]] = {}
#: the order in which a basic plan performs its chosen actions
PLAN_ORDER = ("taxes", "progress", "assembly", "building", "movement", "politics")


def choose_action(view: View, seat: int, legal: Sequence[str], level: str, rng: random.Random) -> str:
    if level == "random" or not legal:
        return rng.choice(list(legal))
    name = split_level(level)[0]
    if name in TIMED_LEVELS:
        return TIMED_LEVELS[name](view, seat, legal, rng, level)
    if name in LEVELS:
        return LEVELS[name](view, seat, legal, rng)
    me = view["you"]["principality"]
    prompt = view["play"]["prompts"].get(me)
    answers = [a for a in legal if a.split()[0] not in FREE_VERBS] if prompt else list(legal)
    if prompt is None or not answers:  # only conversions: none pending, or the hand limit comes first
        return _convert(view, me, list(legal))
    chooser = CHOOSERS.get(prompt["kind"])
    choice = chooser(view, me, answers, rng) if chooser else answers[0]
    return choice if choice in legal else answers[0]


def choose_plan(view: View, seat: int, legal: Sequence[str], rng: random.Random) -> str:
    me = view["you"]["principality"]
    player = view["players"][me]
    score = {
        "taxes": 3.0 if player["people"] > 1 else -5.0,
        "assembly": 2.0 + min(player["gold"], 4) / 2,
        "movement": 2.5,
        "building": 1.0 + (2.0 if player["gold"] >= 3 else -2.0),
        "politics": 1.5 + (2.0 if _council_ready(view, me) else 0.0),
        "progress": 1.2,
    }
    noisy = {action: value + rng.random() * 1.5 for action, value in score.items()}
    chosen = sorted(sorted(noisy, key=noisy.__getitem__, reverse=True)[:3], key=PLAN_ORDER.index)
    plan = f"plan {' '.join(chosen)}"
    plans = [a for a in legal if a.startswith("plan")]
    if not plans:  # the hand limit's conversions come before the plan
        return _convert(view, me, list(legal))
    return plan if plan in legal else rng.choice(plans)


def _positions(view: View, code: str) -> tuple[int, int, int]:
    player = view["players"][code]
    return min(view["might"][code], 10), player["people"], player["clergy"]


def _council_ready(view: View, me: str) -> bool:
    others = [c for c, p in view["players"].items() if c != me and not p["eliminated"]]
    mine = _positions(view, me)
    best = sum(1 for t in range(3) if all(mine[t] >= _positions(view, o)[t] for o in others))
    return best >= 2 and view["princeps"]["holder"] != me or all(v >= 10 for v in mine)


def _convert(view: View, me: str, answers: list[str]) -> str:
    supports = [a for a in answers if a.startswith("support")]
    player = view["players"][me]
    for action in supports:
        if track_of(player, action.split()[2]) < 10:
            return action
    sells = [a for a in answers if a.startswith("sell")]
    return sells[0] if sells else answers[0]


def _first(prefix: str, answers: list[str], default: str = "done") -> str:
    return next((a for a in answers if a.startswith(prefix)), default if default in answers else answers[-1])


def _progress(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    return _first("take", answers)


def _taxes(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    return _first("collect", answers)


def _assembly(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    gold = view["players"][me]["gold"]
    if gold >= 2:
        return _first("assemble knight", answers, _first("assemble", answers))
    return _first("assemble footman", answers, _first("assemble prince", answers))


def _building(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    gold = view["players"][me]["gold"]
    if gold >= 2:
        found = [a for a in answers if a.startswith("found")]
        if found:
            return rng.choice(found)
    if gold >= 3:
        builds = [a for a in answers if a.startswith("build")]
        if builds:
            return rng.choice(builds)
    return "done"


def _politics(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    if _council_ready(view, me) and "council" in answers:
        return "council"
    texts = [a for a in answers if a.startswith(("play ", "neighbour "))]
    if texts and rng.random() < 0.6:
        return rng.choice(texts)
    return "draw 2 court 1 neighbour"


def _with_texts(chooser: Chooser) -> Chooser:
    """Play a Court card's text (an 'own action' card) before the action's main choice, most of the time."""

    def choose(view: View, me: str, answers: list[str], rng: random.Random) -> str:
        texts = [a for a in answers if a.startswith("play ")]
        if texts and rng.random() < 0.7:
            return rng.choice(texts)
        return chooser(view, me, answers, rng)

    return choose


def _block(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Block when the announcing player is at least as mighty (a rival's army is a threat)."""
    asker = acting(view)["who"]
    blocks = [a for a in answers if a.startswith("block")]
    return blocks[0] if blocks and view["might"][asker] >= view["might"][me] else "pass"


def _neighbour_move(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Send the Neighbour at the strongest rival's lands, a few moves, then stop."""
    army = army_moved(acting(view).get("neighbour"))
    moves = [a for a in answers if a.startswith("move ")]
    if "done" in answers and (army["ops"] >= 4 or not moves or rng.random() < 0.2):
        return "done"
    if moves:
        return rng.choice(moves)
    return "undo" if "undo" in answers else answers[0]


def _council(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    texts = [a for a in answers if a.startswith("play ")]
    if texts:
        return texts[0]  # a Council card's text (+2 on a track) beats a pledge (+1)
    if view["play"].get("council") != me:
        return "done"
    player = view["players"][me]
    pledges = [a for a in answers if a.startswith("pledge") and track_of(player, a.split()[2]) < 10]
    return pledges[0] if pledges else "done"


def _strength(units: dict[str, int]) -> int:
    return sum(n * (2 if u in ("knight", "prince") else 1) for u, n in units.items() if u != "princess")


def _movement(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    action = acting(view)
    if action["ops"] >= 4:
        return "done"
    lands = view["lands"]
    good = []
    for move in (a for a in answers if a.startswith("move ")):
        _, unit, origin, target = move.split()
        if unit == "prince" or view["control"].get(target) == me:
            continue
        defenders = [f for f, units in lands[target]["units"].items() if f != me and _strength(units)]
        if not defenders:
            good.append(move)
        elif (
            _strength(lands[origin]["units"].get(me, {}))
            >= 2 * sum(_strength(lands[target]["units"][f]) for f in defenders) + 2
        ):
            good.append(move)
    return rng.choice(good) if good else "done"


def _consent(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Let a weaker rival's own units pass, never through the Capital or the land that holds the Prince; a
    Neighbour or Invader army (which could turn on me) never."""
    record = passage_record(view["play"])
    if record is None:
        return "deny"
    asking = record.get("asking")
    assert asking is not None, "a request to pass waits"
    land, mover = asking["land"], asker(view["play"], record)
    guarded = view["lands"][land]["units"].get(me, {}).get("prince") or capital(me) == land
    rival = view["might"][mover] >= view["might"][me]
    return "deny" if guarded or rival or record.get("faction") else "allow"


def _penalty(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    rich = view["players"][me]["gold"] >= 3
    return _first("penalty", [a for a in answers if a.endswith("gold" if rich else "clergy")] or answers)


def _before(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    return _first("before", answers, "pass") if rng.random() < 0.5 else "pass"


def _extra(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    battle = fought(view)
    symbol = "sword" if battle["sides"]["A"] == me else "shield"
    played = sum(battle["extra"]["A" if battle["sides"]["A"] == me else "D"])
    if played >= 1:
        return "pass"
    return next((a for a in answers if a.endswith(symbol)), "pass")


def _reroll(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    battle = fought(view)
    side = "A" if battle["sides"]["A"] == me else "D"
    wanted = "sword" if side == "A" else "shield"
    return "keep" if wanted in rolled(battle, side) else "reroll"


def _after(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    return max(answers, key=len)


def _place(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    return "stay" if "stay" in answers else answers[0]


def _respawn(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """A neutral Prince I removed returns where he borders fewest of my lands (ties: the listed order). Only
    conversions offered (the hand limit comes first): the first, as the other choosers answer then."""
    mine = {land for land, owner in view["control"].items() if owner == me}
    adjacency = catalog().adjacency
    lands = [answer for answer in answers if answer.split()[0] == "respawn"]
    if not lands:
        return answers[0]

    def threat(answer: str) -> int:
        return sum(1 for near in adjacency[answer.split()[1]] if near in mine)

    return min(lands, key=lambda a: (threat(a), lands.index(a)))


def _princess(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Home first (the cards it draws), else any legal mission."""
    home = f"send {capital(me)}"
    return home if home in answers else rng.choice(answers)


CHOOSERS = {
    "plan": lambda view, me, answers, rng: choose_plan(view, view["you"]["seat"], answers, rng),
    "direction": lambda view, me, answers, rng: rng.choice(answers),
    "progress": _progress,
    "taxes": _with_texts(_taxes),
    "assembly": _with_texts(_assembly),
    "building": _with_texts(_building),
    "politics": _politics,
    "council": _council,
    "movement": _movement,
    "consent": _consent,
    "clergy_penalty": _penalty,
    "before_battle": _before,
    "extra_cards": _extra,
    "reroll": _reroll,
    "after_battle": _after,
    "prince_place": _place,
    "destroy": lambda view, me, answers, rng: _first("keep", answers, answers[0]),
    "hand_limit": lambda view, me, answers, rng: _convert(view, me, answers),
    "flip": lambda view, me, answers, rng: rng.choice(answers),
    "neighbour_block": _block,
    "neighbour_move": _neighbour_move,
    "neighbour_destroy": lambda view, me, answers, rng: answers[-1],
    **HISTORY_CHOOSERS,
    "combined": lambda view, me, answers, rng: answers[0],
    "princess": _princess,
    "respawn": _respawn,
    "culmen_withdraw": lambda view, me, answers, rng: answers[0],
    "princess_draw": lambda view, me, answers, rng: answers[0],
    "princess_discard": lambda view, me, answers, rng: answers[0],
}
