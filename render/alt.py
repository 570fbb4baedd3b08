"""Words for a board image: the alt text a screen reader reads instead of the picture.

Each game's renderer module has ``alt_text(view) -> str`` built from the same view its image is drawn from, so
it can say nothing the image could not show. Discord takes at most ``ALT_TEXT_LIMIT`` characters of
description, so a game lists its sentences most important first (whose turn and the phase, then scores or
tracks, then the board, then the details) and ``compose`` keeps as many as fit, cutting cleanly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from rules.engine.text import name_seats as engine_name_seats

from .common import seat_label

#: Discord's limit on an attachment's description
ALT_TEXT_LIMIT = 1024
ELLIPSIS = "…"
#: a sentence is cut at a clause only when at least this much of it survives; else it is left out whole
MIN_KEPT = 40
#: "Seat 2" / "seat 2's" in a text written by rules, which do not know the players' names
_SEAT_WORD = re.compile(r"\b[Ss]eat (\d{1,2})\b")


def compose(sentences: Iterable[str], limit: int = ALT_TEXT_LIMIT) -> str:
    """The sentences, most important first, joined by spaces: every one that fits, in order. The first that
    does not fit whole is cut after its last clause (``;`` or ``,``) or word that fits, marked with "…", and
    nothing follows it, so a reader knows where the description stops."""
    text = ""
    for sentence in (" ".join(sentence.split()) for sentence in sentences):
        if not sentence:
            continue
        joined = f"{text} {sentence}" if text else sentence
        if len(joined) <= limit:
            text = joined
            continue
        room = limit - len(text) - (1 if text else 0) - len(ELLIPSIS)
        cut = _cut(sentence, room)
        if cut:
            text = f"{text} {cut}{ELLIPSIS}" if text else f"{cut}{ELLIPSIS}"
        elif text and len(text) + len(ELLIPSIS) <= limit:
            text += ELLIPSIS
        break
    return text


def _cut(sentence: str, room: int) -> str:
    """The longest head of ``sentence`` within ``room`` characters that ends after a clause, else a word."""
    if room < MIN_KEPT:
        return ""
    head = sentence[: room + 1]
    for marks in ((";", ":"), (",",)):
        end = max(head.rfind(f"{mark} ") for mark in marks)
        if end >= MIN_KEPT:
            return head[:end].rstrip(" ;:,")
    end = head.rfind(" ")
    return head[:end].rstrip(" ;:,") if end >= MIN_KEPT else ""


def named(view: dict[str, Any], seat: int, detail: str | None = None, fallback: str | None = None) -> str:
    """A player as the image names them, with what their pieces show in brackets where that helps a reader
    match the log and the picture: "alice (red)", "bob (Masovia)". Without names in the view, the detail
    alone (a colour, a principality) or "Seat N"."""
    name = seat_label(view, seat, fallback=fallback if fallback is not None else detail)
    if detail and name.lower() != detail.lower():
        return f"{name} ({detail})"
    return name


def name_seats(text: str, names: Sequence[str]) -> str:
    """A rules text (a log line, a result's reason) with its seat references (``rules.engine.seat_ref``) and
    an older text's "Seat 2" written as that player's name."""
    text = engine_name_seats(text, names)

    def name(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return str(names[number - 1]) if 1 <= number <= len(names) else match.group(0)

    return _SEAT_WORD.sub(name, text)


def reason(view: dict[str, Any], text: object) -> str:
    """A result's reason as the view's players read it: seats named, no closing full stop."""
    return name_seats(str(text), view.get("seat_names") or []).rstrip(".")


def names(view: dict[str, Any], seats: Iterable[int]) -> list[str]:
    return [seat_label(view, seat) for seat in seats]


def listing(items: Sequence[str], empty: str = "none") -> str:
    """Items joined as a sentence says them (a, b and c); ``empty`` when there is nothing."""
    items = [item for item in items if item]
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """A count with its noun: 1 castle, 3 castles."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"


def possessive(name: str) -> str:
    return f"{name}'s"
