"""Exact two-player solver for Babylone.

Only each stack's height and top colour matter for what can move later, and colours are interchangeable, so
a position reduces to a multiset of height-multisets, one per colour. That folds the 12! starts into one and
keeps the whole game tree small enough to solve from the start in well under a second.

>>> from rules.babylone import COLOURS
>>> start = canonical([[c] for c in COLOURS for _ in range(3)])
>>> is_win(start)  # the player to move loses with perfect play
False
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

#: per colour, the sorted heights of the stacks topped by that colour; colours sorted, so symmetric starts match
Position = tuple[tuple[int, ...], ...]


def canonical(stacks: Sequence[Sequence[str]]) -> Position:
    by_colour: dict[str, list[int]] = {}
    for stack in stacks:
        if stack:
            by_colour.setdefault(stack[-1], []).append(len(stack))
    return tuple(sorted(tuple(sorted(heights)) for heights in by_colour.values()))


def _successors(position: Position) -> set[Position]:
    stacks = [(height, colour) for colour, heights in enumerate(position) for height in heights]
    result: set[Position] = set()
    for i, (h1, c1) in enumerate(stacks):
        for j, (h2, c2) in enumerate(stacks):
            if i == j or (h1 != h2 and c1 != c2):
                continue
            rest = [stack for k, stack in enumerate(stacks) if k not in (i, j)]
            rest.append((h1 + h2, c1))
            result.add(_from_pairs(rest))
    return result


def _from_pairs(pairs: list[tuple[int, int]]) -> Position:
    by_colour: dict[int, list[int]] = {}
    for height, colour in pairs:
        by_colour.setdefault(colour, []).append(height)
    return tuple(sorted(tuple(sorted(heights)) for heights in by_colour.values()))


@cache
def is_win(position: Position) -> bool:
    """True when the player to move wins with perfect play (the player who cannot move loses)."""
    return any(not is_win(after) for after in _successors(position))


def apply_notation(stacks: Sequence[Sequence[str]], action: str) -> list[list[str]]:
    source, target = (int(part) - 1 for part in action.split(">"))
    after = [list(stack) for stack in stacks]
    after[target] = after[target] + after[source]
    after[source] = []
    return after


def best_move(stacks: Sequence[Sequence[str]], legal: Sequence[str], rng: random.Random) -> str:
    """A winning move if one exists; otherwise the move that leaves the opponent the most replies."""
    winning = [action for action in legal if not is_win(canonical(apply_notation(stacks, action)))]
    if winning:
        return rng.choice(winning)

    def replies(action: str) -> int:
        return len(_successors(canonical(apply_notation(stacks, action))))

    most = max(replies(action) for action in legal)
    return rng.choice([action for action in legal if replies(action) == most])
