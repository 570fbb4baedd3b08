"""Texts that must fit a Discord limit (a button's 80 characters, a select option's or an autocomplete choice's
100, a placeholder's 150) say something whole: never a word cut in the middle, and never two options that read
the same (issue 46).

- ``fit(text, limit)``: the text as it is when it fits, else its longest run of whole words that leaves room for
  "…" (a first word longer than the whole limit is the only thing ever cut, since nothing shorter says more).
- ``distinct_labels(labels, limit, notes)``: each label fitted; labels that then read the same get what tells
  them apart (their ``notes``, such as the notation ``/move`` takes), else their place in the list as a number.

Whoever shortens a label keeps the whole text where the player can read it: in the option's description, or in
the message (a picked choice's confirmation quotes its whole label).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

ELLIPSIS = "…"
#: Discord's limits, in characters
BUTTON_LABEL = 80
OPTION_LABEL = 100
OPTION_DESCRIPTION = 100
CHOICE_NAME = 100
PLACEHOLDER = 150
#: what a label that is cut may not end with before its "…" (a dangling separator says nothing)
SEPARATORS = " \t\n,;:—–-·/|(["
#: between a label and the note that tells it apart from another
NOTE_SEPARATOR = " · "


def fit(text: str, limit: int) -> str:
    """``text`` unchanged if it has at most ``limit`` characters, else the longest prefix that ends before a
    space (without the separators it would end on) followed by "…", within ``limit``. A first word longer than
    the limit is cut, since it is all there is to show.

    >>> fit("Attack enemy castle 3", 100)
    'Attack enemy castle 3'
    >>> fit("castle 4: 0 gold to offence, attacks enemy castle 1 (1st); castle 3: 3 gold", 40)
    'castle 4: 0 gold to offence, attacks…'
    >>> fit("zamek 4: 0 złota na atak; zamek 3: 3 złota na atak", 30)
    'zamek 4: 0 złota na atak…'
    >>> fit("Konstantynopolitańczykowianeczka", 10)
    'Konstanty…'
    >>> fit("", 5)
    ''
    """
    if limit < 1:
        raise ValueError(f"a label needs room for at least one character, not {limit}")
    if len(text) <= limit:
        return text
    room = limit - len(ELLIPSIS)
    # the last space at which the text may end (the character after the kept words is a space)
    cut = max((i for i in range(1, room + 1) if text[i].isspace()), default=0)
    kept = _trimmed(text[:cut])
    if not kept:  # no whole word fits (or the text opens on a word longer than the limit): show what fits
        kept = text[:room].rstrip()
    return kept + ELLIPSIS


def _trimmed(text: str) -> str:
    """``text`` without the spaces (any Unicode space) and separators it ends on."""
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in SEPARATORS):
        end -= 1
    return text[:end]


def fit_with_rest(text: str, limit: int, rest_limit: int) -> tuple[str, str | None]:
    """``text`` fitted within ``limit``, and what the cut left out as a second line that begins with "…"
    (itself fitted within ``rest_limit``; a select option's description), None when the text fits.

    >>> fit_with_rest("Stay, build nothing", 100, 100)
    ('Stay, build nothing', None)
    >>> fit_with_rest("castle 4: 0 gold to offence, attacks enemy castle 1 (1st); castle 3: 3 gold", 40, 100)
    ('castle 4: 0 gold to offence, attacks…', '…enemy castle 1 (1st); castle 3: 3 gold')
    """
    shown = fit(text, limit)
    if shown == text:
        return shown, None
    left = text[len(shown) - len(ELLIPSIS) :]
    while left and (left[0].isspace() or left[0] in SEPARATORS):
        left = left[1:]
    return shown, fit(ELLIPSIS + left, rest_limit)


def distinct_labels(labels: Sequence[str], limit: int, notes: Sequence[str] | None = None) -> list[str]:
    """Each label ``fit`` within ``limit``, no two alike. Labels that read the same once fitted (two sentences
    that differ only past the limit, or two choices the rules describe alike) end with their ``note`` after
    " · " (``notes`` has one per label: what tells the choices apart, such as their notation), fitted before it,
    when the notes tell them apart and fit; else they start with their place in the list ("3. …"). Should a
    label still read like another (one that happened to look like a numbered one), every label is numbered.

    >>> distinct_labels(["Stay", "Move north"], 80)
    ['Stay', 'Move north']
    >>> distinct_labels(["Collect taxes", "Collect taxes"], 80, notes=["collect", "collect clergy"])
    ['Collect taxes · collect', 'Collect taxes · collect clergy']
    >>> distinct_labels(["Rest", "Collect taxes", "Collect taxes"], 80)
    ['Rest', '2. Collect taxes', '3. Collect taxes']
    >>> distinct_labels(["castle 4 attacks 1; castle 3 attacks 2", "castle 4 attacks 1; castle 3 holds"], 24)
    ['1. castle 4 attacks 1…', '2. castle 4 attacks 1…']
    """
    if limit < len(str(len(labels))) + len(". ") + len(ELLIPSIS):
        raise ValueError(f"{limit} characters cannot tell {len(labels)} labels apart")
    if notes is not None and len(notes) != len(labels):
        raise ValueError("one note per label")
    fitted = [fit(label, limit) for label in labels]
    counts = Counter(fitted)
    if all(count == 1 for count in counts.values()):
        return fitted
    shown = list(fitted)
    for index, label in enumerate(fitted):
        if counts[label] == 1:
            continue
        note = notes[index] if notes is not None else ""
        group = [notes[i] for i, other in enumerate(fitted) if other == label] if notes is not None else []
        told_apart = bool(note) and len(set(group)) == len(group)
        room = limit - len(NOTE_SEPARATOR) - len(note)
        if told_apart and room >= 1 + len(ELLIPSIS):
            shown[index] = fit(labels[index], room) + NOTE_SEPARATOR + note
        else:
            shown[index] = _numbered(index, labels[index], limit)
    if len(set(shown)) == len(shown):
        return shown
    return [_numbered(index, label, limit) for index, label in enumerate(labels)]


def _numbered(index: int, label: str, limit: int) -> str:
    """``label`` after its place in the list ("3. "); the number is never cut (``fit`` keeps a first word)."""
    return fit(f"{index + 1}. {label}", limit)
