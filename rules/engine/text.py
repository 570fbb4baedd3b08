"""Words the games' texts share: references to seats that the host turns into names, and counted nouns.

The rules know seats, not players: an event text, a prompt or an outcome reason that speaks of a player writes
``seat_ref(seat)`` where the name belongs ("{seat:0} moves stack 3 onto stack 5."). Whoever shows the text to a
person (the host, a renderer given ``seat_names``) calls ``name_seats`` with the players' names. Texts are stored
as the rules wrote them, so a stored log keeps its references and shows today's display names; a text written
before references existed ("Seat 1 moves ...") has none and reads as it always did.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: what ``seat_ref`` writes; the seat is the 0-based index the rules use everywhere
SEAT_REF = re.compile(r"\{seat:(\d{1,3})\}")
_MARK = "{seat:"


def seat_ref(seat: int) -> str:
    """A reference to the player at ``seat`` (0-based), to be replaced by their name when shown."""
    return f"{_MARK}{seat}}}"


def name_seats(text: str, names: Sequence[str]) -> str:
    """``text`` with every seat reference replaced by that seat's name from ``names`` (index = seat).

    A seat ``names`` does not cover (a renderer given no names, say) reads "seat N", counted from 1 as the
    lobby lists seats.
    """
    if _MARK not in text:
        return text

    def name(match: re.Match[str]) -> str:
        seat = int(match[1])
        return names[seat] if seat < len(names) and names[seat] else f"seat {seat + 1}"

    return SEAT_REF.sub(name, text)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` with its noun in the right number: "1 point", "3 points" (``nouns`` for irregular plurals)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def listing(words: Sequence[str]) -> str:
    """Words joined as a sentence lists them: "alice", "alice and bob", "alice, bob and carol"."""
    if len(words) <= 2:
        return " and ".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
