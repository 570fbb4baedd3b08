"""Every word in the player's language: message catalogs read with Babel, and localisation at delivery time.

Design (README, "Languages"):

- **Catalogs, one domain each.** The host's and the bot's texts are the domain ``i18n/locales/``; each registered
  game's are its own domain beside its rules, ``rules/<package>/locales/`` (``domains``), so a game's translation
  travels with it. A domain's ``messages.pot`` is its template (its message ids); each language is one file per
  domain, ``<domain>/<lang>/LC_MESSAGES/messages.po``, plus one line in ``LANGUAGES`` below. They are read at
  start with Babel (``read_po``), merged (no message id is in two domains: ``tests/i18n/test_catalogs.py``; were
  one, the game's entry would win) and compiled in memory to ``babel.support.Translations`` (so there is no
  compile step in the build and no ``.mo`` file in the repository); plural forms come from the catalog's
  ``Plural-Forms`` header through ``ngettext``, never by hand.
- **The English text is the message id** (gettext style), with named placeholders: ``{who} moves {move}.`` The
  rules and the host stay as they are and keep writing canonical English, so stored logs, replays, exports and
  the notation are the same in every language. Whoever shows a text to a person calls ``localize(text, locale)``
  at that moment: each line (else each sentence) is matched against the catalog's templates, its placeholders
  are read back (a text placeholder such as ``{move}`` or ``{prompt}`` is localised in turn, a name or a number
  is kept: which is which the host's ``NUMBER_PARAMS`` and ``TEXT_PARAMS`` say, with each registered game's own
  ``Game.number_params`` and ``Game.text_params``), and the translated template is filled in. Anything no
  template matches stays English (the fallback).
  Code that builds a text for one reader (the renderers) calls ``translate(locale, msgid, **params)`` directly.
- **Pseudo-locale** ``qps``: every translated literal is wrapped in ``⟦...⟧``, so a test can find any English
  word that escaped the catalogs (``unmarked_words``).
"""

from __future__ import annotations

import importlib
import inspect
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from rules.engine import registry

#: the host's catalog domain (the bot's and the host's texts); each game's is ``rules/<package>/locales``
LOCALES_DIR = Path(__file__).parent / "locales"
TEMPLATE = LOCALES_DIR / "messages.pot"
DEFAULT = "en"
PSEUDO = "qps"
#: the languages a player or a server may choose: code -> its name in that language. Adding a language is its
#: catalog file plus one line here.
LANGUAGES = {
    "en": "English",
    "pl": "Polski",
}
#: catalog context of fixed phrases translated wherever they stand (``phrases``)
PHRASE = "phrase"
#: what the pseudo-locale wraps each translated literal in
OPEN, CLOSE = "⟦", "⟧"

#: placeholders of the host's entries, and of entries several games share, holding a number (read back as digits);
#: a game adds its own in ``Game.number_params`` (``number_params()`` is the whole set)
NUMBER_PARAMS = frozenset(
    {
        *(
            "n",
            "n2",
            "n3",
            "game",
            "round",
            "period",
            "year",
            "source",
            "target",
            "a",
            "b",
            "hours",
            "min",
            "max",
        ),
        *("count", "turn", "battle", "castle", "gold", "rank", "total"),
    }
)
#: placeholders of the host's entries, and of entries several games share, holding a text that is itself localised
#: (a prompt, a move's description, a reason...); a game adds its own in ``Game.text_params`` (``text_params()``)
TEXT_PARAMS = frozenset(
    {
        "prompt",
        "kind",
        "move",
        "reason",
        "colour",
        "colour2",
        "status",
        "text",
        "meaning",
        "events",
        "waits",
        # a round's status line: the game's own note on the round (``RoundStatus.note``)
        "note",
        "duration",
        "low",
        "high",
        "median",
        # /game status' time to finish: its most likely value and the game's mean answer time
        "likely",
        "mean",
        "waited",
        "games",
        "wins",
        "scope",
        "side",
        "pace",
        "step",
        "captured",
        "piece",
        "guard",
        "guard2",
        "loss",
        "loss2",
        # what a player is shown or may choose: a move's notation in a form, a place (a /leaderboard rank), a
        # choice given ahead
        *("action", "place", "choice"),
        # /game verify: what was checked, a problem, a result and its winners; a place in the file, a kind of
        # value (found, wanted), a range of a chance result
        *("checked", "problem", "ending", "ending2", "winners"),
        *("where", "found", "wanted", "range", "range2"),
    }
)
#: placeholders holding who acts or is addressed (a player's or a principality's name): a value never holds ": ", so a
#: template that opens with one cannot swallow the words before it ("Now: bob decides (...): Silesia plays ...")
SPEAKERS = frozenset({"who"})
#: placeholders whose value never holds a bracket (a colour), so that a card title of its own brackets before
#: one ("Rent in Coin (czynsz) (yellow)") is not cut at the wrong bracket
BRACKETLESS = frozenset({"colour", "colour2"})
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+")


def language_of(locale: str | None) -> str:
    """The catalog language for a Discord locale or a stored choice ("pl", "en-US" -> "en"), else English."""
    if not locale:
        return DEFAULT
    code = str(locale).strip().lower().replace("_", "-")
    if code == PSEUDO:
        return PSEUDO
    base = code.split("-")[0]
    return base if base in LANGUAGES else DEFAULT


# ---- catalogs -----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Domain:
    """One catalog domain: the host's (``i18n/locales``) or a game's (``rules/<package>/locales``)."""

    #: "host", or the game's key
    name: str
    directory: Path

    @property
    def template(self) -> Path:
        return self.directory / "messages.pot"

    def catalog(self, language: str) -> Path:
        return self.directory / language / "LC_MESSAGES" / "messages.po"


HOST = Domain("host", LOCALES_DIR)


def catalog_path(language: str) -> Path:
    """The host domain's catalog of ``language`` (each game's: ``Domain.catalog``)."""
    return HOST.catalog(language)


def _game_directory(key: str) -> Path:
    """The directory of the module that exposes a game's ``GAME``: ``rules/<package>`` for a game registered by a
    line, else the directory of the module defining a game registered as an object."""
    package = registry.package_of(key)
    if package is None:
        return Path(inspect.getfile(type(registry.get_game(key, include_unplayable=True)))).parent
    module = importlib.import_module(f"rules.{package}" if key in registry.GAMES else package)
    return Path(inspect.getfile(module)).parent


@cache
def domains() -> tuple[Domain, ...]:
    """The host's domain, then every registered game's that has a template (``<its package>/locales``), in the
    registry's order; read once (``reload`` reads them again after a game is registered)."""
    games = (Domain(key, _game_directory(key) / "locales") for key in registry.available_games(True))
    return (HOST, *(domain for domain in games if domain.template.exists()))


def reload() -> None:
    """Forget every catalog, template and placeholder kind read so far (after registering or unregistering a game
    whose texts have a domain)."""
    for cached in (domains, template, translations, _params, templates, _index, phrases, blocks):
        cached.cache_clear()
    for cached_lru in (_candidates, _localize, _best):
        cached_lru.cache_clear()


def _merged(paths: Iterable[Path], language: str | None = None) -> Catalog:
    """The catalogs at ``paths`` as one, in order (the first one's header; a later entry replaces an earlier one
    with the same message id and context)."""
    merged: Catalog | None = None
    for path in paths:
        with path.open("rb") as file:
            catalog = read_po(file, locale=language)
        if merged is None:
            merged = catalog
            continue
        for message in catalog:
            if message.id:
                merged.delete(message.id, message.context)
                merged[message.id] = message
    assert merged is not None, "the host domain has a template"
    return merged


@cache
def template() -> Catalog:
    """Every domain's template merged: all the message ids."""
    return _merged(domain.template for domain in domains())


@cache
def translations(language: str) -> NullTranslations:
    """The language's catalogs of every domain as one Babel ``Translations`` (compiled in memory); English needs
    none."""
    paths = [path for path in (domain.catalog(language) for domain in domains()) if path.exists()]
    if language == DEFAULT or not paths:
        return NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, _merged(paths, language))
    buffer.seek(0)
    return Translations(fp=buffer)


@cache
def _params() -> tuple[frozenset[str], frozenset[str]]:
    games = [registry.get_game(key, include_unplayable=True) for key in registry.available_games(True)]
    numbers = NUMBER_PARAMS.union(*(game.number_params for game in games))
    texts = TEXT_PARAMS.union(*(game.text_params for game in games))
    return numbers, texts


def number_params() -> frozenset[str]:
    """Placeholders holding a number: the host's ``NUMBER_PARAMS`` and every registered game's."""
    return _params()[0]


def text_params() -> frozenset[str]:
    """Placeholders holding a text localised in turn: the host's ``TEXT_PARAMS`` and every registered game's."""
    return _params()[1]


@dataclass(frozen=True)
class Template:
    msgid: str
    plural: str | None
    context: str | None
    pattern: re.Pattern[str]
    #: the English form this pattern reads (the plural form for a plural entry's second pattern)
    english: str


def _compile(text: str) -> re.Pattern[str]:
    parts, seen, last = [], set(), 0
    for match in _PLACEHOLDER.finditer(text):
        parts.append(re.escape(text[last : match.start()]))
        name = match[1]
        if name in seen:
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            if name in number_params():
                body = r"-?\d+(?:\.\d+)?"
            elif name in SPEAKERS:
                body = r"(?:(?!: ).)+?"
            elif name in BRACKETLESS:
                body = r"[^()]+?"
            else:
                body = r".+?"
            parts.append(f"(?P<{name}>{body})")
        last = match.end()
    parts.append(re.escape(text[last:]))
    return re.compile("".join(parts), re.DOTALL)


def _literal_size(text: str) -> int:
    return len(_PLACEHOLDER.sub("", text))


@cache
def templates() -> tuple[Template, ...]:
    """The template's entries that can be read back from English text (those with a literal part), the most
    specific first. Entries with a context (command names) are for ``translate`` only."""
    found = []
    for message in template():
        if not message.id or message.context:
            continue
        if isinstance(message.id, tuple):
            singular, plural = message.id[0], message.id[1]
            for english in (singular, plural):
                found.append(Template(singular, plural, None, _compile(english), english))
        else:
            found.append(Template(str(message.id), None, None, _compile(str(message.id)), str(message.id)))
    found = [t for t in found if _literal_size(t.english.strip()) > 0 and "\n" not in t.english.strip()]
    found.sort(key=lambda t: (-_literal_size(t.english), t.english))
    return tuple(found)


def prepare() -> None:
    """Read and compile every catalog and template now (some 0.1 s), so that no player's first message pays for
    it; the bot calls this at start-up."""
    _index()
    blocks()
    phrases()
    for language in LANGUAGES:
        translations(language)


# ---- translating a known message ----------------------------------------------------------------------------
def _pseudo(text: str) -> str:
    """Each literal run of ``text`` (between placeholders) wrapped in the pseudo-locale's markers."""
    pieces = [
        piece
        if index % 2 or not piece.strip()
        else f"{OPEN}{piece}{CLOSE}"  # blanks between placeholders stay
        for index, piece in enumerate(re.split(r"(\{\w+\})", text))
    ]
    return "".join(pieces)


def _fill(text: str, params: dict[str, object]) -> str:
    return _PLACEHOLDER.sub(lambda m: str(params[m[1]]) if m[1] in params else m[0], text)


def gettext(language: str, msgid: str, context: str | None = None) -> str:
    if language == PSEUDO:
        return _pseudo(msgid)
    found = translations(language)
    return str(found.pgettext(context, msgid) if context else found.gettext(msgid))


def translate(locale: str | None, msgid: str, /, **params: object) -> str:
    """``msgid`` (an English template) in ``locale``'s language with ``params`` filled in; English when the
    catalog has no entry."""
    return _fill(gettext(language_of(locale), msgid), params)


def translate_in(context: str, locale: str | None, msgid: str, /, **params: object) -> str:
    """``translate`` for an entry with a context (msgctxt): words on an image ("image"), a command's name
    ("command"). Entries with a context are never read back by ``localize``."""
    return _fill(gettext(language_of(locale), msgid, context), params)


def ntranslate(
    locale: str | None, singular: str, plural: str, n: int, /, context: str | None = None, **params: object
) -> str:
    """The form of ``singular``/``plural`` for the count ``n`` in ``locale``'s language (its plural rules)."""
    language = language_of(locale)
    if language == PSEUDO:
        text = _pseudo(singular if n == 1 else plural)
    elif context:
        text = translations(language).npgettext(context, singular, plural, n)
    else:
        text = translations(language).ngettext(singular, plural, n)
    return _fill(text, {"n": n, **params})


#: catalog context of command, group and option names (the names ``bot/discord/translator.py`` gives Discord)
COMMAND = "command"


def command_path(locale: str | None, qualified_name: str) -> str:
    """A command's qualified name (``game status``) as a client in ``locale``'s language shows it (``gra stan``):
    each word by its catalog entry of the context ``command``."""
    return " ".join(translate_in(COMMAND, locale, word) for word in qualified_name.split())


def listing(locale: str | None, words: list[str]) -> str:
    """Words joined as a sentence lists them in ``locale``'s language: "a, b and c" ("a, b i c")."""
    if len(words) <= 1:
        return "".join(words)
    return translate_in("list", locale, "{first} and {last}", first=", ".join(words[:-1]), last=words[-1])


def name_in(locale: str | None, name: str) -> str:
    """A seat's name in ``locale``'s language: an AI seat's ("AI random") is a fixed phrase of the catalog, a
    person's name stays as it is."""
    language = language_of(locale)
    if language == DEFAULT or name not in phrases():
        return name
    return gettext(language, name, PHRASE)


# ---- localising English text at delivery --------------------------------------------------------------------
def localize(text: str, locale: str | None) -> str:
    """``text`` (the canonical English the host and the rules write) in ``locale``'s language, each line read
    the way that leaves the least English (``_best``); what no catalog entry reads stays English."""
    language = language_of(locale)
    if language == DEFAULT or not text:
        return text
    return _localize(text, language)


@lru_cache(maxsize=8192)
def _localize(text: str, language: str) -> str:
    # texts of several lines (a game's rules notes) are entries of their own: each is set aside while the rest
    # is read line by line, then put back translated
    found = []
    for index, (block, msgid) in enumerate(blocks()):
        if block in text:
            text = text.replace(block, f"\x00{index}\x00")
            found.append((index, gettext(language, msgid).strip()))
    text = "\n".join(_line(line, language) for line in text.split("\n"))
    for index, translated in found:
        text = text.replace(f"\x00{index}\x00", translated)
    return text


@cache
def phrases() -> tuple[str, ...]:
    """The template's entries with the context ``phrase``: fixed words that may stand anywhere in a text (after
    a name, inside a list), translated wherever they occur; the longest first."""
    found = {str(m.id) for m in template() if m.context == PHRASE and isinstance(m.id, str)}
    return tuple(sorted(found, key=lambda phrase: (-len(phrase), phrase)))


@cache
def blocks() -> tuple[tuple[str, str], ...]:
    """The template's entries of several lines without placeholders, as (the text shown, the message id)."""
    return tuple(
        (m.id.strip(), m.id)
        for m in template()
        if isinstance(m.id, str) and "\n" in m.id.strip() and not m.context and not _PLACEHOLDER.search(m.id)
    )


#: what may open a line before its text: a list item's dash, a log line's number ("12. ")
_LINE_HEAD = re.compile(r"^(?:[-•]|\d+\.) (?=\S)")


def _line(line: str, language: str) -> str:
    body = line.strip()
    if not body:
        return line
    return line.replace(body, _with_phrases(body, language), 1)


def _with_phrases(body: str, language: str) -> str:
    """One line read with its fixed phrases (a seat's "(away, AI plays)", a piece's colour "(green)") set
    aside and translated where they stand, unless reading the line as it is leaves less English: a phrase may
    also be a template's own words ("... takes the Progress tile Chronicle (green).")."""
    said = []
    aside = body
    for index, phrase in enumerate(phrases()):
        if phrase in aside:
            aside = aside.replace(phrase, f"\x01{index}\x01")
            said.append((index, gettext(language, phrase, PHRASE)))
    if not said:
        return _best(body, language)[0]
    read, left = _best(aside, language)
    whole, whole_left = _best(body, language)
    if whole_left < left:
        return whole
    for index, translated in said:
        read = read.replace(f"\x01{index}\x01", translated)
    return read


@lru_cache(maxsize=16384)
def _best(text: str, language: str) -> tuple[str, int]:
    """``text`` (one line, or a placeholder's value) read the way that leaves the least English, with the number
    of letters left English. The readings, preferred in this order when they leave as much: a list item's
    dash or a log line's number kept before its text read alone; each sentence by its own template (a name
    cannot swallow a sentence then); the whole text by one template (a placeholder may hold several sentences);
    clauses joined by "; " each by its own. What nothing reads stays English."""
    readings: list[tuple[str, int]] = []
    head = _LINE_HEAD.match(text)
    if head:
        rest, left = _best(text[head.end() :], language)
        readings.append((head.group(0) + rest, left))
    sentences = _SENTENCE_END.split(text)
    if len(sentences) > 1:
        parts = [_scored(sentence, language) or (sentence, _english(sentence)) for sentence in sentences]
        readings.append((" ".join(part for part, _ in parts), sum(left for _, left in parts)))
    for reading in (_scored(text, language), _clauses(text, language)):
        if reading is not None:
            readings.append(reading)
    return min(readings, key=lambda reading: reading[1], default=(text, _english(text)))


def _english(text: str) -> int:
    """How much of a text no template read is English: its letters (a number or a sign is the same in every
    language)."""
    return sum(1 for char in text if char.isalpha())


def _clauses(text: str, language: str) -> tuple[str, int] | None:
    """A line of clauses joined by "; " (a player's /stats line), each read by its own template, the final
    full stop kept; None unless every clause is read."""
    parts = text.removesuffix(".").split("; ")
    if len(parts) < 2:
        return None
    read = [_scored(part, language) for part in parts]
    if any(part is None for part in read):
        return None
    done = [part for part in read if part is not None]
    text_read = "; ".join(part for part, _ in done) + ("." if text.endswith(".") else "")
    return text_read, sum(left for _, left in done)


#: how many characters of a template's literal head (or tail) index it
_KEY = 4


@cache
def _index() -> tuple[dict[str, list[int]], dict[str, list[int]], list[int]]:
    """The templates (by their rank in ``templates()``) indexed by the first characters of their literal head,
    else the last of their literal tail, else (a template that begins and ends with a placeholder) kept aside:
    a text is tried only against the templates whose literal ends it could fit."""
    heads: dict[str, list[int]] = {}
    tails: dict[str, list[int]] = {}
    loose: list[int] = []
    for rank, entry in enumerate(templates()):
        pieces = _PLACEHOLDER.split(entry.english)
        head, tail = pieces[0], pieces[-1] if len(pieces) > 1 else ""
        if head:
            heads.setdefault(head[:_KEY], []).append(rank)
        elif tail:
            tails.setdefault(tail[-_KEY:], []).append(rank)
        else:
            loose.append(rank)
    return heads, tails, loose


@lru_cache(maxsize=4096)
def _candidates(head: str, tail: str) -> tuple[Template, ...]:
    """The templates that may read a text starting with ``head`` and ending with ``tail`` (their first and
    last ``_KEY`` characters), most specific first as in ``templates()``."""
    heads, tails, loose = _index()
    ranks = set(loose)
    for size in range(1, _KEY + 1):
        if len(head) >= size:
            ranks.update(heads.get(head[:size], ()))
        if len(tail) >= size:
            ranks.update(tails.get(tail[-size:], ()))
    every = templates()
    return tuple(every[rank] for rank in sorted(ranks))


def _scored(text: str, language: str) -> tuple[str, int] | None:
    """``text`` translated if a template reads all of it, with the characters left English inside the text
    placeholders it holds (each read the best way in turn); of the templates that read it, the one leaving the
    least English (the most specific first when they tie); None if no template reads it."""
    best: tuple[str, int] | None = None
    for entry in _candidates(text[:_KEY], text[-_KEY:]):
        match = entry.pattern.fullmatch(text)
        if match is None:
            continue
        params: dict[str, object] = {}
        left = 0
        for name, value in match.groupdict().items():
            if name in text_params():
                params[name], english = _best(value, language)
                left += english
            else:
                params[name] = value
        if best is not None and left >= best[1]:
            continue
        best = (_fill(_translated(entry, params, language), params), left)
        if left == 0:
            break
    return best


def _translated(entry: Template, params: dict[str, object], language: str) -> str:
    if entry.plural is None:
        return gettext(language, entry.msgid)
    count = int(str(params.get("n", 1)))
    if language == PSEUDO:
        return _pseudo(entry.msgid if count == 1 else entry.plural)
    return str(translations(language).ngettext(entry.msgid, entry.plural, count))


def unmarked_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` (localised in the pseudo-locale) outside every ``⟦...⟧``, except ``allowed``
    (players' names, game titles): English that no catalog entry covered."""
    outside = re.sub(f"{OPEN}[^{CLOSE}]*{CLOSE}", " ", text)
    outside = re.sub(r"<[@#]!?\d+>|<t:\d+(:\w)?>|https?://\S+", " ", outside)
    keep = {word.lower() for word in allowed}
    return [w for w in re.findall(r"[A-Za-z]{2,}", outside) if w.lower() not in keep]
