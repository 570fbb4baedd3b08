"""Notation of The Prince's actions: lenient reading, canonical writing, readable labels.

- landing: ``land c4``
- a phase 1 turn: a direction (``stay``, ``n``, ``ne``, ``e``, ``se``, ``s``, ``sw``, ``w``, ``nw``),
  optionally followed by ``build <tile>``: ``ne build c5``, ``stay build d6``
- battle step A: ``prince 3 guard 1`` (the Prince hides in castle 3, the Imperial Guard stands in castle 1)
- battle step B: a whole plan, see :mod:`.battle` (``3+2>1 1+0>1 2+1``)
"""

from __future__ import annotations

import re

from rules.engine import InvalidAction

from .battle import format_plan, parse_plan
from .board import DIRECTION_WORDS, DIRECTIONS, name, parse_tile

_WORD_TO_DIRECTION = {word.replace("-", ""): key for key, word in DIRECTION_WORDS.items()}
_WORD_TO_DIRECTION.update({key: key for key in DIRECTIONS})
_WORD_TO_DIRECTION.update({"none": "stay", "hold": "stay", "here": "stay"})
LAND_RE = re.compile(r"^(?:land\s*(?:on|at)?\s*)?([a-j]\s*(?:10|[1-9]))$")
TURN_RE = re.compile(
    r"^(?:(?:move|go)\s+)?([a-z-]+)?\s*(?:(?:\+|,|and|then)\s*)?"
    r"(?:build\s*(?:on|at)?\s*([a-j]\s*(?:10|[1-9])))?$"
)
HIDE_RE = re.compile(r"^p(?:rince)?\s*(?:in\s*)?([1-5])\s*[,;]?\s*g(?:uard)?\s*(?:in\s*)?([1-5])$")
HELP = (
    "Write `land c4` (landing), `ne build c5` or `stay` (a turn), `prince 3 guard 1` (hiding) or a battle "
    "plan such as `3+2>1 1+0>1 2+1`."
)


def parse_action(text: str) -> str:
    """Canonical text of any The Prince action, without looking at the position (apply judges legality)."""
    cleaned = " ".join(text.strip().lower().split())
    if not cleaned:
        raise InvalidAction(HELP)
    for reader in (_landing, _turn, _hide):
        action = reader(cleaned)
        if action:
            return action
    if cleaned[0].isdigit():
        return format_plan(parse_plan(cleaned))
    raise InvalidAction(HELP)


def _landing(text: str) -> str | None:
    match = LAND_RE.match(text)
    if not match:
        return None
    index = parse_tile(match.group(1))
    return None if index is None else f"land {name(index)}"


def _turn(text: str) -> str | None:
    match = TURN_RE.match(text)
    if not match or not (match.group(1) or match.group(2)):
        return None
    word = (match.group(1) or "stay").replace("-", "")
    direction = _WORD_TO_DIRECTION.get(word)
    if direction is None:
        return None
    if match.group(2) is None:
        return direction
    index = parse_tile(match.group(2))
    return None if index is None else f"{direction} build {name(index)}"


def _hide(text: str) -> str | None:
    match = HIDE_RE.match(text)
    return f"prince {match.group(1)} guard {match.group(2)}" if match else None


def describe_action(action: str) -> str:
    """A sentence for buttons and summaries."""
    words = action.split()
    if words[0] == "land":
        return f"Land the Prince on {words[1]}"
    if words[0] == "prince":
        return f"Hide the Prince in castle {words[1]}, Imperial Guard in castle {words[3]}"
    if words[0] in DIRECTIONS:
        move = "Stay" if words[0] == "stay" else f"Move the Prince {DIRECTION_WORDS[words[0]]}"
        return move + (f", then build a castle on {words[2]}" if len(words) == 3 else ", build nothing")
    return _describe_plan(action)


def _describe_plan(action: str) -> str:
    parts = []
    rank = 0
    for order in parse_plan(action):
        text = f"castle {order.castle}: {order.offence_gold} gold to offence"
        if order.target is None:
            text += ", holds"
        else:
            rank += 1
            text += f", attacks enemy castle {order.target} ({_ordinal(rank)})"
        parts.append(text)
    return "; ".join(parts)


def _ordinal(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(rank, f"{rank}th")
