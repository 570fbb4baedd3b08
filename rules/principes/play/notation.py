"""Names in ``/move``: a card, tile, land, gord, area, faction or Prince may be typed by its title or name instead
of its id (``extra hired knights sword``, ``move knight posnania sremium``), in any case and without accents.

``read_names`` matches the typed text against the legal answers spelled with names; when no legal answer
matches, the names it can read are still turned into ids so that ``apply`` can say what is wrong with them.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import cache

from rules.engine import InvalidAction

from ..data import catalog, instances

#: what each word of an answer names, after its verb (``*``: any number of such words)
ROLES: dict[str, tuple[str, ...]] = {
    "move": ("unit", "place", "land"),
    "assemble": ("unit", "land"),
    "withdraw": ("unit", "refuge"),
    "release": ("unit", "land"),
    "build": ("building", "land"),
    "found": ("gord",),
    "take": ("tile",),
    "exchange": ("tile", "tile"),
    "before": ("card",),
    "extra": ("card", "symbol"),
    "after": ("card*",),
    "play": ("card", "argument"),
    "sell": ("card",),
    "support": ("card", "track"),
    "pledge": ("card", "track"),
    "neighbour": ("card", "faction"),
    "block": ("card",),
    "cancel": ("card",),
    "return": ("card",),
    "discard": ("card",),
    "ask": ("land",),
    "battle": ("land",),
    "place": ("land",),
    "respawn": ("land",),
    "division": ("land",),
    "keep": ("land",),
    "destroy": ("land", "item*"),
    "penalty": ("land", "payment"),
    "send": ("place",),
}
#: spellings tried per answer at most (a few words, each with its id and one or two names)
MAX_SPELLINGS = 64
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def normalise(text: str) -> str:
    """Lower case, accents and Polish letters folded (ł -> l), every other sign a space."""
    folded = text.lower().replace("ł", "l")
    plain = "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))
    return " ".join(_NOT_WORD.sub(" ", plain).split())


@cache
def names() -> dict[str, tuple[str, ...]]:
    """Notation token -> the normalised names it may be typed as (the token itself first)."""
    data = catalog()
    found: dict[str, list[str]] = {}

    def add(token: str, *spellings: str) -> None:
        entry = found.setdefault(token, [normalise(token)])
        entry += [s for s in (normalise(x) for x in spellings) if s and s not in entry]

    for record in data.kinds.values():
        title = str(record.get("title") or record.get("name") or "")
        for instance in instances(record):
            add(instance.lower(), title, title.split(" (")[0])
    for land, record in data.lands.items():
        add(land, record["name"])
        for gord in record["gords"]:
            add(gord["id"], gord["name"])
    for area, record in data.offmap.items():
        add(area, record["name"])
    for code, record in data.factions.items():
        add(code.lower(), record["name"])
    return {token: tuple(spellings) for token, spellings in found.items()}


def _spellings(action: str) -> set[str]:
    """The normalised ways to type ``action``: each word by its id or one of its names."""
    table = names()
    options = [table.get(word, (normalise(word),)) for word in action.split()]
    result = set()
    for combo in itertools.islice(itertools.product(*options), MAX_SPELLINGS):
        result.add(" ".join(combo))
    return result


def _meaning(action: str) -> str:
    """An answer with card instances folded to their kind (two copies of a card mean the same)."""
    return " ".join(re.sub(r"^([a-z]+[0-9]+)[ab]$", r"\1", word) for word in action.split())


def read_names(text: str, legal: list[str], hand: list[str]) -> str:
    """The legal answer ``text`` spells with names, else ``text`` with the names it holds turned into ids."""
    typed = normalise(text)
    matches = [action for action in legal if typed in _spellings(action)]
    meanings = list(dict.fromkeys(_meaning(action) for action in matches))
    if len(meanings) == 1:
        return matches[0]
    if len(meanings) > 1:
        listed = ", ".join(f"'{action}'" for action in dict.fromkeys(matches))
        raise InvalidAction(f"'{text}' could mean {listed}: type the one you mean.")
    return _ids_for_names(text, hand)


@cache
def _by_name() -> dict[str, tuple[str, ...]]:
    """Normalised name -> the tokens it names."""
    found: dict[str, list[str]] = {}
    for token, spellings in names().items():
        for spelling in spellings:
            found.setdefault(spelling, []).append(token)
    return {spelling: tuple(tokens) for spelling, tokens in found.items()}


def _one_token(tokens: tuple[str, ...], held: set[str]) -> str | None:
    """The token a name stands for: the copy in hand, else the only card or thing of that name."""
    in_hand = [token for token in tokens if token in held]
    if in_hand:
        return in_hand[0]
    return tokens[0] if len({_meaning(token) for token in tokens}) == 1 else None


def _fits(token: str, role: str) -> bool:
    """Whether ``token`` is of the kind an answer's word of ``role`` names (``ROLES``)."""
    data = catalog()
    kinds = {
        "card": token.upper() in _instance_ids(),
        "tile": token.upper() in _instance_ids(),
        "land": token in data.lands,
        "refuge": token in data.lands,
        "place": token in data.lands or token in data.offmap,
        "gord": any(g["id"] == token for record in data.lands.values() for g in record["gords"]),
        "faction": token.upper() in data.factions,
    }
    return kinds.get(role.rstrip("*"), True)


@cache
def _instance_ids() -> frozenset[str]:
    return frozenset(
        instance.upper() for record in catalog().kinds.values() for instance in instances(record)
    )


def _ids_for_names(text: str, hand: list[str]) -> str:
    """Replace the longest unambiguous names by their ids, each of the kind its place in the answer asks for
    (a card after ``sell``, a land after ``move knight posnania``); words already ids stay as typed."""
    words = text.split()
    roles = ROLES.get(words[0], ()) if words else ()
    held = {card.lower() for card in hand}
    result: list[str] = []
    index = 0
    while index < len(words):
        position = len(result) - 1
        role = roles[min(position, len(roles) - 1)] if roles and position >= 0 else ""
        for size in range(min(8, len(words) - index), 0, -1):
            if size == 1 and words[index] in names():
                continue  # already an id
            tokens = _by_name().get(normalise(" ".join(words[index : index + size])), ())
            fitting = tuple(token for token in tokens if _fits(token, role))
            token = _one_token(fitting, held) if fitting else None
            if token is not None:
                result.append(token)
                index += size
                break
        else:
            result.append(words[index])
            index += 1
    return " ".join(result)
