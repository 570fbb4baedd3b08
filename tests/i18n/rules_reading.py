"""What ``/rules`` may leave as it is in another language, and how a test finds English left in a text: shared by
``tests/i18n/test_rules_pages.py`` and the end-to-end ``tests/e2e/test_rules_language.py``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from bot.host import Host
from i18n import template, unmarked_words
from rules.engine import available_games, get_game
from rules.principes.data import catalog

GAMES = available_games(include_unplayable=True)
#: code spans hold notation (keys, option names and values, AI levels, moves): typed the same in every language
CODE = re.compile(r"`[^`]*`")
#: the rulebook quoted in its own words: the catalog's glossary keeps "quotations of the rulebook" English
QUOTED = re.compile(r'"[^"]*"')
#: a word the notation quotes in single quotes ('done', 'ask <land>', 'pay 1 gold')
TYPED = re.compile(r"(?<!\w)'[^'\n]*'(?!\w)")
#: what stands where a name or notation was taken out: no run of words goes across it
BREAK = "\x00"
#: what a player types spelled out in the notes' text: a typed argument (``<card>``), alternatives
#: (``people|clergy``), a file's path (``rules/principes/data/map.json``)
TYPED_ARGUMENTS = re.compile(r"<[^<>\n]*>|\S*[|/]\S*|\S+\.(?:md|json|py)\b")
WORD = re.compile(r"[^\W\d_]+(?:['-][^\W\d_]+)*")
#: the little words no run of notation or of names holds but almost every English sentence does: a run of words
#: is English prose, not notation (``plan taxes assembly movement``) or a row of codes (``GM, BO, HU, RU``),
#: when it holds one of them
GRAMMAR = frozenset(
    "a an the of to in on at by for from with and or but if when while is are be was were it its this that these"
    " those you your their they who which not no every each all may must can has have does as than then".split()
)
#: how many English words in a row make a sentence left English
RUN = 4


def _words(names: Iterable[str]) -> set[str]:
    return {word for name in names for word in re.findall(r"[A-Za-z]{2,}", name)}


@cache
def proper_names() -> tuple[str, ...]:
    """Names that are the same in every language, longest first: the games' titles and PRINCIPES' card, tile and
    Prince titles (kept as printed, as the glossary says) and its Latin lands and gords."""
    data = catalog()
    names = {get_game(key, include_unplayable=True).title for key in GAMES}
    names |= {str(record.get("title") or record.get("name") or "") for record in data.kinds.values()}
    for land in data.lands.values():
        names |= {str(land["name"]), *(str(gord["name"]) for gord in land["gords"])}
    return tuple(sorted((name for name in names if name), key=len, reverse=True))


def allowed_words(key: str | None = None) -> set[str]:
    """What may stay outside the pseudo-locale's markers where no code span sets it apart: the games' titles
    (proper names), and in the section autocomplete each choice's key before its title (notation: the value
    sent)."""
    words = _words(get_game(game, include_unplayable=True).title for game in GAMES)
    if key is not None:
        words |= {"all", *(section for section, _title in Host.rules_sections(key))}
        words |= {part for section, _title in Host.rules_sections(key) for part in section.split("-")}
    return words


def unmarked(text: str, allowed: set[str]) -> list[str]:
    return unmarked_words(CODE.sub(" ", text), allowed)


def _runs(text: str) -> set[tuple[str, ...]]:
    """Every run of ``RUN`` words in a row written in English letters only (lowercased) that reads as prose
    (``GRAMMAR``), none across a ``BREAK``."""
    found = set()
    for part in text.split(BREAK):
        words = [word.lower() for word in WORD.findall(part)]
        for index in range(len(words) - RUN + 1):
            run = words[index : index + RUN]
            if all(word.isascii() for word in run) and GRAMMAR.intersection(run):
                found.add(tuple(run))
    return found


@cache
def catalog_runs() -> frozenset[tuple[str, ...]]:
    """The runs of ``RUN`` words of every English message id (the literal parts between placeholders)."""
    found: set[tuple[str, ...]] = set()
    for message in template():
        if message.context or not message.id:
            continue
        for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in re.split(r"\{\w+\}", msgid):
                found |= _runs(_without_names(piece))
    return frozenset(found)


def _without_names(text: str) -> str:
    """``text`` without notation, quotations of the rulebook and proper names (each a break between words;
    names are typed in any case: ``sell papal legate``)."""
    text = TYPED_ARGUMENTS.sub(BREAK, QUOTED.sub(BREAK, CODE.sub(BREAK, text)))
    text = TYPED.sub(BREAK, names_pattern().sub(BREAK, text))
    return text


@cache
def names_pattern() -> re.Pattern[str]:
    """Any proper name, in any case, its words apart by any space (a line of the notes may end inside one)."""
    names = (r"\s+".join(re.escape(word) for word in name.split()) for name in proper_names())
    return re.compile("|".join(names), re.IGNORECASE)


def english_left(polish: str, english: str) -> list[str]:
    """The runs of English words of the catalog, or of the same page in English, that a Polish text still holds."""
    runs = _runs(_without_names(polish))
    left = runs & (catalog_runs() | _runs(_without_names(english)))
    return sorted(" ".join(run) for run in left)


def requests(key: str) -> list[str | None]:
    """Every ``section`` one may ask of a game: none (its page), ``all`` and each section."""
    return [None, "all", *(section for section, _title in Host.rules_sections(key))]
