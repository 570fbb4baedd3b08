"""The ``strategist`` AI of The Prince, and the battle plans ``legal_actions`` offers.

Everything here reads a seat's view only (tile tokens, the castles it sees, its own hidden Prince, the Guards
once revealed), never the game state: the same code advises a player, stands in at a deadline and plays.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Sequence
from itertools import combinations

from .battle import Order, format_plan
from .board import AREA, DIRECTIONS, TILES, Tile, known_tiles, on_ring, parse_tile, step, xy
from .state import CastleView, ThePrinceView

#: expected resource yield of a land tile nobody has seen yet (55% hold one, yields 1-3)
UNKNOWN_YIELD = 1.1
#: how rich a site must look before the AI builds on it, at turn 2; it lowers each turn
FIRST_THRESHOLD = 13.0
THRESHOLD_DROP = 0.7
#: what a yield is worth on a site: defence and gold keep the Prince alive, and gold can also attack
SITE_WEIGHTS = {"iron": 1.0, "stone": 1.0, "gold": 1.0}
#: worth of each point of defence + gold a site adds beyond our toughest castle
STRONGHOLD_PREMIUM = 0.5
#: how many sample plans ``legal_actions`` lists beside the strategic ones
SAMPLE_PLANS = 24
#: how often the Guard stands with the Prince (otherwise it is a decoy elsewhere, so it betrays nothing)
GUARD_WITH_PRINCE = 0.8


def choose(view: ThePrinceView, seat: int, legal: list[str], rng: random.Random) -> str:
    """The strategist's choice among ``legal`` for whatever the view's phase asks."""
    first = legal[0].split()[0]
    if first == "land":
        return _landing(legal, rng)
    if first == "prince":
        return _hiding(view, seat, legal, rng)
    if first[0].isdigit():
        plan = format_plan(plan_battle(view, seat, cautious=True))
        return plan if plan in legal else max(legal, key=lambda action: _plan_score(view, seat, action))
    return _turn(view, seat, legal, rng)


# ---- phase 1 -----------------------------------------------------------------------------------------------
def _landing(legal: list[str], rng: random.Random) -> str:
    """Land mid-coast: more unexplored island within reach than in a corner."""

    def inland(action: str) -> float:
        index = parse_tile(action.split()[1])
        assert index is not None
        x, y = xy(index)
        return -abs(x - 4.5) * 0.2 - abs(y - 4.5) + rng.random() * 0.5

    return max(legal, key=inland)


def site_value(known: Sequence[Tile | None], index: int, toughest: float = 0.0) -> float:
    """Expected offence + defence + bonus of a castle on ``index``, unseen land counted at its average, plus
    a premium for defence + gold beyond ``toughest`` (our best castle's): the Prince needs one stronghold."""
    total = 0.0
    tough = 0.0
    for other in AREA[index]:
        tile = known[other]
        if tile is None:
            total += 0.0 if on_ring(other) else UNKNOWN_YIELD
            tough += 0.0 if on_ring(other) else UNKNOWN_YIELD * 2 / 3
        elif tile[1]:
            total += tile[2] * SITE_WEIGHTS[tile[1]]
            tough += tile[2] if tile[1] != "iron" else 0
    return total + STRONGHOLD_PREMIUM * max(0.0, tough - toughest)


def _toughest_own(view: ThePrinceView, seat: int) -> float:
    return max((c["defence"] + c["bonus"] for c in view["castles"] if c["seat"] == seat), default=0)


def _own_prince(view: ThePrinceView, seat: int) -> int:
    for token in view["princes"]:
        owner, place = token.split(":")[1].split("@")
        if int(owner) == seat:
            index = parse_tile(place)
            assert index is not None
            return index
    raise ValueError("the view shows no Prince of this seat")


def _unseen_gain(known: Sequence[Tile | None], area: Sequence[int], already: set[int]) -> int:
    return sum(1 for index in area if known[index] is None and not on_ring(index) and index not in already)


def _move_score(known: Sequence[Tile | None], here: int, direction: str, directions: Sequence[str]) -> float:
    """New land tiles the move reveals, plus half of the best follow-up, minus distance to the unknown."""
    dest = step(here, direction)
    assert dest is not None
    first = set(AREA[dest])
    gain = _unseen_gain(known, AREA[dest], set())
    follow = 0
    for second in directions:
        beyond = step(dest, second)
        if beyond is not None and not on_ring(beyond):
            follow = max(follow, _unseen_gain(known, AREA[beyond], first))
    unknown = [index for index in range(TILES) if known[index] is None and not on_ring(index)]
    dx, dy = xy(dest)
    distance = min((max(abs(xy(i)[0] - dx), abs(xy(i)[1] - dy)) for i in unknown), default=0)
    return gain + 0.5 * follow - 0.1 * distance


def _turn(view: ThePrinceView, seat: int, legal: list[str], rng: random.Random) -> str:
    known = known_tiles(view["tiles"])
    here = _own_prince(view, seat)
    builds = sorted({action.split()[2] for action in legal if " build " in action})
    clashed = {token.split("@")[1] for token in view.get("clashed", [])}
    builds = [tile for tile in builds if tile not in clashed] or builds  # the rival wants it too
    # sorted before the random tie-break, so the same seed gives the same game in every process
    moves = sorted({action.split()[0] for action in legal})
    direction = max(moves, key=lambda d: _move_score(known, here, d, list(DIRECTIONS)) + rng.random() * 0.01)
    toughest = _toughest_own(view, seat)
    if builds and _should_build(view, seat, known, builds, toughest):
        best = max(builds, key=lambda tile: site_value(known, parse_tile(tile) or 0, toughest))
        action = f"{direction} build {best}"
        if action in legal:
            return action
    return direction if direction in legal else next(a for a in legal if a.startswith(direction + " "))


def _should_build(
    view: ThePrinceView, seat: int, known: Sequence[Tile | None], builds: Sequence[str], toughest: float
) -> bool:
    built = view["castle_counts"][seat]
    turn = view["turn"]
    turns_left = view["forced_build_after"] + 1 - turn
    if turns_left <= 5 - built:
        return True
    best = max(site_value(known, parse_tile(tile) or 0, toughest) for tile in builds)
    return best >= FIRST_THRESHOLD - THRESHOLD_DROP * (turn - 2)


def best_stay_build(view: ThePrinceView, legal: list[str]) -> str:
    """The deadline default of a forced build: stay and build on the best revealed tile."""
    known = known_tiles(view["tiles"])
    stays = [action for action in legal if action.startswith("stay ")] or legal
    return max(stays, key=lambda action: site_value(known, parse_tile(action.split()[-1]) or 0))


# ---- phase 2 -----------------------------------------------------------------------------------------------
def _castles(view: ThePrinceView, owner: int) -> list[CastleView]:
    return [castle for castle in view["castles"] if castle["seat"] == owner and castle["alive"]]


def _toughness(castle: CastleView, gold_share: float = 1.0) -> float:
    """Defence left if ``gold_share`` of its gold goes to defence."""
    return float(castle["defence"] + castle["bonus"] * gold_share - castle["damage"])


def _hiding(view: ThePrinceView, seat: int, legal: list[str], rng: random.Random) -> str:
    """The Prince in the toughest castle; the Guard with him, or now and then as a decoy elsewhere."""
    own = _castles(view, seat)
    prince = max(own, key=lambda castle: _toughness(castle) + rng.random() * 0.5)["number"]
    others = [castle["number"] for castle in own if castle["number"] != prince]
    guard = prince if not others or rng.random() < GUARD_WITH_PRINCE else rng.choice(others)
    action = f"prince {prince} guard {guard}"
    return action if action in legal else rng.choice(legal)


def own_hidden(view: ThePrinceView, seat: int) -> int | None:
    """The castle the seat hid its Prince in, from its own view (None: not hidden yet)."""
    for token in view.get("prince_in", []):
        owner, number = token.split(":")[1].split("#")
        if int(owner) == seat:
            return int(number)
    return None


def plan_battle(
    view: ThePrinceView, seat: int, cautious: bool = True, all_out: bool = False, first: int | None = None
) -> list[Order]:
    """Concentrate fire: destroy as many enemy castles as the offence allows, cheapest first (enemy castle
    ``first`` before any other, when it is given: where the enemy Prince is thought to hide).

    ``cautious`` assumes every enemy castle puts all its gold on defence; otherwise half. The castle
    hiding our Prince keeps its gold on defence unless ``all_out``. Attacks on the enemy Guard's castle open
    with the weakest spare attacker, which the Guard stops.
    """
    own = _castles(view, seat)
    enemy = _castles(view, 1 - seat)
    hidden = own_hidden(view, seat)
    guard = (view.get("guards") or [None, None])[1 - seat]
    shares = {c["number"]: (c["bonus"] if all_out or c["number"] != hidden else 0) for c in own}
    power = {c["number"]: c["offence"] + shares[c["number"]] for c in own}
    need = {c["number"]: max(0.0, _toughness(c, 1.0 if cautious else 0.5)) for c in enemy}
    free = sorted(power, key=lambda number: power[number])
    groups: list[tuple[int, list[int]]] = []

    def order(number: int) -> float:
        return need[number] + (0.5 if number == guard else 0) - (1000.0 if number == first else 0)

    for target in sorted(need, key=order):
        chosen = _cheapest_group(free, power, need[target], target == guard)
        if chosen is None:
            continue
        groups.append((target, chosen))
        free = [number for number in free if number not in chosen]
    _trim_gold(groups, shares, power, need, guard)
    killed = {target for target, _ in groups}
    standing = [number for number in need if number not in killed]
    for number in free:  # leftovers wear down the weakest castle still standing (damage persists)
        pool = [t for t in standing if t != guard] or standing or list(need)
        if pool:
            target = min(pool, key=lambda t: need[t])
            groups.append((target, [number]))
    orders = [Order(number, shares[number], target) for target, group in groups for number in group]
    attacking = {order.castle for order in orders}
    orders += [Order(number, shares[number], None) for number in power if number not in attacking]
    return orders


def all_in(view: ThePrinceView, seat: int, target: int) -> list[Order]:
    """Every castle on enemy castle ``target``, weakest first (it meets the Guard if one stands there), all
    gold on offence but the hiding castle's."""
    own = sorted(_castles(view, seat), key=lambda castle: castle["offence"] + castle["bonus"])
    hidden = own_hidden(view, seat)
    return [Order(c["number"], 0 if c["number"] == hidden else c["bonus"], target) for c in own]


def _trim_gold(
    groups: list[tuple[int, list[int]]],
    shares: dict[int, int],
    power: dict[int, int],
    need: dict[int, float],
    guard: int | None,
) -> None:
    """Gold a kill does not need goes back to defence: the Guard's decoy keeps none on offence (its attack is
    stopped anyway), and a group's surplus over the target's defence is returned castle by castle."""
    for target, group in groups:
        attackers = group
        if target == guard:
            decoy, attackers = group[0], group[1:]
            shares[decoy] = 0
        surplus = sum(power[number] for number in attackers) - need[target]
        for number in attackers:
            give_back = int(min(shares[number], max(0.0, surplus)))
            shares[number] -= give_back
            surplus -= give_back


def _cheapest_group(
    free: Sequence[int], power: dict[int, int], need: float, guarded: bool
) -> list[int] | None:
    """The attackers (weakest first) whose summed offence reaches ``need`` with least waste; with a Guard, one
    more attacker opens the assault to be stopped."""
    best: tuple[float, list[int]] | None = None
    for size in range(1, len(free) + 1):
        for group in combinations(free, size):
            total = sum(power[number] for number in group)
            if total < need:
                continue
            rest = [number for number in free if number not in group]
            if guarded and not rest:
                continue
            decoy = [min(rest, key=lambda number: power[number])] if guarded else []
            waste = total - need + sum(power[number] for number in decoy) + 0.01 * size
            if best is None or waste < best[0]:
                best = (waste, decoy + list(group))
    return None if best is None else best[1]


def _plan_score(view: ThePrinceView, seat: int, action: str) -> float:
    """Enemy castles a plan surely destroys (all their gold on defence), for picking among other plans."""
    from .battle import parse_plan

    enemy = {c["number"]: c for c in _castles(view, 1 - seat)}
    power = {c["number"]: c["offence"] for c in _castles(view, seat)}
    guard = (view.get("guards") or [None, None])[1 - seat]
    dealt: dict[int, float] = {}
    guard_used = False
    for order in parse_plan(action):
        if order.target is None or order.target not in enemy:
            continue
        if order.target == guard and not guard_used:
            guard_used = True
            continue
        dealt[order.target] = dealt.get(order.target, 0) + power.get(order.castle, 0) + order.offence_gold
    return sum(1 for target, hit in dealt.items() if hit >= _toughness(enemy[target]))


def candidate_plans(view: ThePrinceView, seat: int) -> list[str]:
    """The strategic plans first (the general ones, then ones aimed at each enemy castle in turn), then a varied
    deterministic sample of valid plans (for random play)."""
    plans = [
        format_plan(plan_battle(view, seat, cautious, all_out))
        for cautious in (True, False)
        for all_out in (False, True)
    ]
    own = _castles(view, seat)
    targets = [c["number"] for c in _castles(view, 1 - seat)]
    plans += [
        format_plan(plan_battle(view, seat, cautious, False, target))
        for target in targets
        for cautious in (True, False)
    ]
    plans += [format_plan(all_in(view, seat, target)) for target in targets]
    # seeded by the position, so each battle of each game gets its own sample, yet the same one every time
    state = zlib.crc32(json.dumps([view["battle"], seat, view["castles"]]).encode()) or 1
    for _ in range(SAMPLE_PLANS):
        orders = []
        for castle in own:
            state = _xorshift(state)
            pick = state % (len(targets) + 1)
            state = _xorshift(state)
            orders.append(
                Order(
                    castle["number"],
                    state % (castle["bonus"] + 1),
                    targets[pick] if pick < len(targets) else None,
                )
            )
        state = _xorshift(state)
        turn = state % len(orders)
        plans.append(format_plan(orders[turn:] + orders[:turn]))
    return list(dict.fromkeys(plans))


def _xorshift(value: int) -> int:
    """A tiny fixed pseudo-random sequence: the sample must be the same every time the position is asked."""
    value ^= (value << 13) & 0xFFFFFFFF
    value ^= value >> 17
    value ^= (value << 5) & 0xFFFFFFFF
    return value or 1
