"""Battle plans of The Prince: their notation and the simultaneous resolution of a battle.

A plan lists every surviving castle once as ``castle+gold>target``: ``3+2>1`` puts 2 of castle 3's gold on
offence (the rest on defence) and attacks enemy castle 1. A castle without ``>target`` holds (``4+0``). The
order of the attacking entries is the attack order; the canonical text lists the attackers in that order,
then the holding castles by number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rules.engine import IllegalAction, InvalidAction

from .state import AttackOrder, Castle

ENTRY_RE = re.compile(r"^([1-5])(?:\+(\d{1,2}))?(?:>([1-5]|-))?$")


@dataclass(frozen=True)
class Order:
    """One castle's part of a plan."""

    castle: int
    offence_gold: int
    target: int | None


def parse_plan(text: str) -> list[Order]:
    """Read a plan leniently (spaces around ``+``/``>`` and commas are fine); InvalidAction if unreadable."""
    compact = re.sub(r"\s*([+>])\s*", r"\1", text.strip().lower())
    parts = [part for part in re.split(r"[\s,;]+", compact) if part]
    if not parts:
        raise InvalidAction("Write a battle plan such as `3+2>1 1+0>4 2+1` (castle+gold on offence>target).")
    orders: list[Order] = []
    for part in parts:
        match = ENTRY_RE.match(part)
        if not match:
            raise InvalidAction(
                f"{part!r} is not a castle order: write castle+gold>target, for example `3+2>1`."
            )
        target = match.group(3)
        orders.append(
            Order(
                int(match.group(1)), int(match.group(2) or 0), None if target in (None, "-") else int(target)
            )
        )
    castles = [order.castle for order in orders]
    if len(set(castles)) != len(castles):
        raise InvalidAction("Each castle appears once in a plan.")
    return orders


def format_plan(orders: Sequence[Order]) -> str:
    attackers = [order for order in orders if order.target is not None]
    holders = sorted((order for order in orders if order.target is None), key=lambda order: order.castle)
    return " ".join(
        f"{o.castle}+{o.offence_gold}" + (f">{o.target}" if o.target is not None else "")
        for o in [*attackers, *holders]
    )


def check_plan(
    orders: Sequence[Order],
    own: Sequence[Castle],
    enemy: Sequence[Castle],
    bonus: Sequence[int],
) -> None:
    """IllegalAction unless the plan names each surviving castle once, within its gold, at live targets."""
    alive = {number + 1 for number, castle in enumerate(own) if castle["alive"]}
    named = {order.castle for order in orders}
    if named != alive:
        missing = ", ".join(str(n) for n in sorted(alive - named)) or "none"
        extra = ", ".join(str(n) for n in sorted(named - alive)) or "none"
        raise IllegalAction(
            f"Give one order to each surviving castle ({', '.join(map(str, sorted(alive)))}); "
            f"missing: {missing}; not yours or destroyed: {extra}."
        )
    for order in orders:
        gold = bonus[order.castle - 1]
        if order.offence_gold > gold:
            raise IllegalAction(f"Castle {order.castle} has only {gold} gold to split.")
        if order.target is not None:
            if not (1 <= order.target <= len(enemy) and enemy[order.target - 1]["alive"]):
                raise IllegalAction(f"Enemy castle {order.target} does not stand: choose a surviving castle.")


@dataclass
class Allotment:
    offence: int
    defence: int


def allot(orders: Sequence[Order], strengths: Sequence[dict[str, int]]) -> dict[int, Allotment]:
    """Each castle's offence and defence this battle, before damage."""
    result = {}
    for order in orders:
        base = strengths[order.castle - 1]
        result[order.castle] = Allotment(
            base["offence"] + order.offence_gold, base["defence"] + base["bonus"] - order.offence_gold
        )
    return result


def attacks_of(
    orders: Sequence[Order], allotted: dict[int, Allotment], guard: int | None
) -> list[AttackOrder]:
    """One side's attacks in its order; the first one on the enemy Guard's castle is stopped."""
    attacks: list[AttackOrder] = []
    guard_used = False
    for order in orders:
        if order.target is None:
            continue
        stopped = order.target == guard and not guard_used
        guard_used = guard_used or stopped
        attacks.append(
            {
                "from": order.castle,
                "to": order.target,
                "offence": allotted[order.castle].offence,
                "stopped": stopped,
            }
        )
    return attacks
