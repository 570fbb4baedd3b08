"""Issue 43: the Polish catalog names each thing one way, counts through plural forms and writes commands as the
Polish client shows them.

- The glossaries give each bot and game term its one Polish word: every catalog entry whose English uses the term
  has one of the word's stems in each Polish form, and none of its forbidden words. The shared glossary
  (``i18n/glossary/pl.toml``) holds the bot's terms, for every domain's entries; each game's own
  (``<its domain>/glossary/pl.toml``, issue 44: a game's words travel with it) holds its terms, for the entries of
  its domain and of the host's, whose texts may speak of any game's things. A game's title is never a term.
- A number a player reads next to a noun that declines ("1 złoto", "2 złota", "5 złota") goes through a plural
  entry (selected by ``{n}``), never a fixed form.
- Every ``/command`` a Polish text names is a command path of the Polish client (the names the catalog's
  ``command`` context gives each command, group and option).
- No Polish text says what the glossary's ``[[avoid]]`` list rules out: a gendered form for a player or the reader,
  English quotation marks, the calques once found in the catalog."""

from __future__ import annotations

import asyncio
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po

import i18n
from i18n import HOST, domains, number_params
from rules.engine import registry
from tests.support.commands import synced_commands

#: the shared glossary: the bot's terms and what no Polish text says
GLOSSARY = Path(i18n.__file__).parent / "glossary" / "pl.toml"
#: a game's own glossary, within its catalog domain's directory
GAME_GLOSSARY = Path("glossary") / "pl.toml"
#: catalog contexts whose entries are not sentences: command names (identifiers) and the list joiner
SKIPPED_CONTEXTS = {"command", "list"}

# ---- reading English around notation ---------------------------------------------------------------------------
#: what a player types or a placeholder holds, the same in every language: `notation`, <card>, {param}, /command
#: words, key=value, a|b alternatives
NOTATION = re.compile(
    r"`[^`]*`|<[^<>\n]*>|\{\w+\}|(?<![\w/])/\w+(?: [a-z_]+)?|\b\w+=[\w.-]+|\b[\w-]+(?:\|[\w-]+)+\b"
)


def without_notation(text: str) -> str:
    """The words of a text outside notation, on one line (a term may be wrapped across lines)."""
    return re.sub(r"\s+", " ", NOTATION.sub(" ", text))


@dataclass(frozen=True)
class Term:
    #: the domain whose glossary lists it: ``HOST.name`` (the shared glossary) or a game's key
    domain: str
    en: str
    pl: str
    pattern: re.Pattern[str]
    stems: tuple[re.Pattern[str], ...]
    forbidden: tuple[re.Pattern[str], ...]
    ignore: tuple[re.Pattern[str], ...]
    excepted: dict[str, str]
    #: long entries excepted by their opening words
    excepted_openings: dict[str, str]

    def applies_to(self, domain: str) -> bool:
        """Whether the term checks the entries of ``domain``: a shared term every domain's, a game's its own and
        the host's."""
        return self.domain in (HOST.name, domain) or domain == HOST.name

    def excepts(self, msgid: str) -> bool:
        return msgid in self.excepted or any(msgid.startswith(opening) for opening in self.excepted_openings)

    def used_in(self, english: str) -> bool:
        """Whether an English text uses the term (outside notation and the spans the glossary ignores, which may
        stand in the notation or beside it)."""
        return bool(self.pattern.search(self._ignored(without_notation(self._ignored(english)))))

    def _ignored(self, text: str) -> str:
        for span in self.ignore:
            text = span.sub(" ", text)
        return text

    def problem(self, polish: str) -> str | None:
        """Why a Polish text that stands for the term does not name it by the glossary's word, if it does not."""
        text = without_notation(polish)
        if not any(stem.search(text) for stem in self.stems):
            return f"no {self.pl!r}"
        for word in self.forbidden:
            found = word.search(text)
            if found:
                return f"{found[0]!r} instead of {self.pl!r}"
        return None


@dataclass(frozen=True)
class Avoid:
    pattern: re.Pattern[str]
    reason: str
    instead: str


def load_avoided(path: Path = GLOSSARY) -> list[Avoid]:
    """What no Polish text may say outside notation (gendered forms, English quotation marks, calques), with what
    to write instead."""
    with path.open("rb") as file:
        data = tomllib.load(file)
    return [Avoid(re.compile(raw["pattern"]), raw["reason"], raw["instead"]) for raw in data.get("avoid", [])]


def glossaries() -> dict[str, Path]:
    """Every glossary by the domain that lists its terms: the shared one, then each registered game's that has
    one, in the registry's order."""
    games = {domain.name: domain.directory / GAME_GLOSSARY for domain in domains()[1:]}
    return {HOST.name: GLOSSARY, **{name: path for name, path in games.items() if path.exists()}}


def title_spans() -> tuple[str, ...]:
    """Regexes of the registered games' titles where they stand as a title (in bold, or opening a text before
    " -", "," or ":"): a title names a game, not the term a word of it is elsewhere ("The Prince moves...")."""
    titles = [
        re.escape(registry.get_game(key, include_unplayable=True).title)
        for key in registry.available_games(True)
    ]
    return tuple(span for title in titles for span in (rf"\*\*{title}\*\*", rf"^{title}(?= -|,|:)"))


def load_glossary(path: Path = GLOSSARY, domain: str = HOST.name) -> list[Term]:
    with path.open("rb") as file:
        data = tomllib.load(file)
    terms = []
    for raw in data["term"]:
        flags = 0 if raw.get("case_sensitive") else re.IGNORECASE
        terms.append(
            Term(
                domain=domain,
                en=raw["en"],
                pl=raw["pl"],
                pattern=re.compile(raw["pattern"], flags),
                stems=tuple(re.compile(stem, re.IGNORECASE) for stem in raw["stems"]),
                forbidden=tuple(re.compile(word) for word in raw.get("forbidden", [])),
                ignore=tuple(re.compile(span, flags) for span in (*raw.get("ignore", []), *title_spans())),
                excepted={item["msgid"]: item["reason"] for item in raw.get("except", []) if "msgid" in item},
                excepted_openings={
                    item["starts"]: item["reason"] for item in raw.get("except", []) if "starts" in item
                },
            )
        )
    return terms


def entries_by_domain() -> dict[str, list[Message]]:
    """The Polish catalogs' sentences of each domain (the host's and each game's; command names and the list
    joiner aside)."""
    found: dict[str, list[Message]] = {}
    for domain in domains():
        with domain.catalog("pl").open("rb") as file:
            catalog = read_po(file, locale="pl")
        found[domain.name] = [
            m for m in catalog if m.id and m.context not in SKIPPED_CONTEXTS and not m.fuzzy
        ]
    return found


def forms(message: Message) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the English forms, the Polish forms) of an entry."""
    english = message.id if isinstance(message.id, tuple) else (message.id,)
    polish = message.string if isinstance(message.string, tuple) else (message.string,)
    return tuple(english), tuple(polish)


def singular(message: Message) -> str:
    return str(message.id[0] if isinstance(message.id, tuple) else message.id)


#: every glossary's terms, the shared ones first
TERMS = [term for domain, path in glossaries().items() for term in load_glossary(path, domain)]
AVOIDED = load_avoided()
BY_DOMAIN = entries_by_domain()
ENTRIES = [message for found in BY_DOMAIN.values() for message in found]


def checked_by(term: Term) -> list[Message]:
    """The entries a term checks: of every domain it applies to."""
    return [message for domain, found in BY_DOMAIN.items() if term.applies_to(domain) for message in found]


def violations(term: Term, catalog: list[Message] | None = None) -> list[str]:
    found = []
    for message in checked_by(term) if catalog is None else catalog:
        english, polish = forms(message)
        if term.excepts(singular(message)) or not any(term.used_in(text) for text in english):
            continue
        for text in polish:
            problem = term.problem(text)
            if problem:
                found.append(f"{singular(message)[:90]!r} -> {text[:120]!r}: {problem}")
                break
    return found


# ---- the glossary itself ---------------------------------------------------------------------------------------
TERM_KEYS = {"en", "pattern", "pl", "stems", "forbidden", "ignore", "case_sensitive", "except"}
AVOID_KEYS = {"pattern", "reason", "instead"}


@pytest.mark.parametrize("domain", list(glossaries()))
def test_each_glossary_is_well_formed(domain: str) -> None:
    """The shared glossary has the terms and the ``[[avoid]]`` list, a game's only terms; no term is listed
    twice in one glossary nor again in the shared one."""
    with glossaries()[domain].open("rb") as file:
        raw = tomllib.load(file)
    assert set(raw) == ({"term", "avoid"} if domain == HOST.name else {"term"})
    for item in raw["term"]:
        assert {"en", "pattern", "pl", "stems"} <= set(item) <= TERM_KEYS, item
        for excepted in item.get("except", []):
            named_by = {"msgid", "starts"} & set(excepted)
            assert len(named_by) == 1 and set(excepted) == {*named_by, "reason"}, excepted
    assert all(set(item) == AVOID_KEYS for item in raw.get("avoid", []))
    english = [item["en"] for item in raw["term"]]
    assert len(english) == len(set(english)), "a term is listed twice"
    shared = {term.en for term in TERMS if term.domain == HOST.name}
    assert domain == HOST.name or not shared & set(english), "a game's term is a shared one too"


def test_every_built_in_game_has_its_glossary() -> None:
    assert set(registry.GAMES) <= set(glossaries())
    assert len(TERMS) >= 60


def test_every_term_is_well_formed() -> None:
    ids = set()
    for domain in domains():
        with domain.template.open("rb") as file:
            ids |= {singular(m) for m in read_po(file) if m.id}
    for term in TERMS:
        assert term.pl and term.stems, term.en
        # the word itself is one of its forms, and not one the glossary forbids
        assert any(stem.search(term.pl) for stem in term.stems), f"{term.en}: {term.pl!r} matches no stem"
        assert not any(word.search(term.pl) for word in term.forbidden), term.en
        # every exception names an entry of the catalog, with its reason
        for msgid, reason in term.excepted.items():
            assert msgid in ids, f"{term.en}: the excepted {msgid!r} is no catalog entry"
            assert reason.strip(), f"{term.en}: {msgid!r} is excepted without a reason"
        for opening, reason in term.excepted_openings.items():
            assert sum(msgid.startswith(opening) for msgid in ids) == 1, (
                f"{term.en}: {opening!r} names no one entry"
            )
            assert reason.strip(), f"{term.en}: {opening!r} is excepted without a reason"
        # and the term is used somewhere (a term no entry uses checks nothing)
        assert any(term.used_in(text) for message in checked_by(term) for text in forms(message)[0]), term.en


def test_the_glossary_check_reads_terms_outside_notation() -> None:
    people = next(term for term in TERMS if term.en == "People")
    assert people.used_in("Gain 2 People.") and not people.used_in("pledge <card> people|clergy, then done")
    assert people.problem("Zyskaj 2 punkty Ludu.") is None
    assert people.problem("Zyskaj 2 punkty ludności.") is not None
    commit = next(term for term in TERMS if term.en.startswith("commit"))
    assert commit.problem("Zobowiązanie: `{commit}`.") is None
    assert commit.problem("pokazuje na kanale tylko swój commit") is not None


def test_a_games_term_checks_its_own_domain_and_the_hosts() -> None:
    carpet = next(term for term in TERMS if term.en == "carpet")
    assert carpet.domain == "game-of-princes"
    assert carpet.applies_to("game-of-princes") and carpet.applies_to(HOST.name)
    assert not carpet.applies_to("pharaoh")
    seat = next(term for term in TERMS if term.en == "seat")
    assert seat.domain == HOST.name and all(seat.applies_to(domain.name) for domain in domains())


def test_a_games_title_is_no_term() -> None:
    """The titles come from the registry: a title in bold or opening a text is a name, the same words in a
    sentence are the piece."""
    prince = next(term for term in TERMS if term.en == "Prince" and term.domain == "game-of-princes")
    assert not prince.used_in("Game of Princes: {status}.")
    assert not prince.used_in("**The Prince** (2 players): an island, fog of war.")
    assert prince.used_in("The Prince moves only orthogonally.")


@pytest.mark.parametrize(
    ("latin", "gloss", "alone"),
    [
        ("Polonia Maior", "Polonia Maior (Wielkopolska)", "Książę Wielkopolski"),
        ("Polonia Minor", "Polonia Minor (Małopolska)", "dzielnica Polonia Minor, czyli Małopolska"),
        ("Masovia", "Masovia (Mazowsze)", "Masovia: mazowiecka zdolność Z Wiatrem"),
        ("Silesia", "Silesia (Śląsk)", "Silesia: Złota Barwa Śląska"),
    ],
)
def test_a_principality_keeps_its_latin_name_with_the_polish_one_only_as_a_gloss(
    latin: str, gloss: str, alone: str
) -> None:
    term = next(term for term in TERMS if term.en == latin)
    assert term.problem(f"standard = {gloss} we dwoje; ziemie dzielnicy {latin}") is None
    assert term.problem(alone) is not None
    # a historical prince's epithet is a person's name, not the principality
    assert not next(term for term in TERMS if term.en == "Masovia").used_in(
        "Bolesław II of Masovia ({token})"
    )


@pytest.mark.parametrize("term", TERMS, ids=[f"{term.domain}: {term.en}" for term in TERMS])
def test_every_entry_names_the_term_by_its_glossary_word(term: Term) -> None:
    found = violations(term)
    assert not found, f"{len(found)} entries name {term.en!r} otherwise:\n" + "\n".join(found)


def avoided_in(catalog: list[Message] = ENTRIES) -> list[str]:
    found = []
    for message in catalog:
        for text in forms(message)[1]:
            for avoid in AVOIDED:
                said = avoid.pattern.search(without_notation(text))
                if said:
                    found.append(
                        f"{singular(message)[:80]!r}: {said[0]!r} ({avoid.reason}; write {avoid.instead})"
                    )
    return found


def test_no_polish_text_says_what_the_glossary_avoids() -> None:
    assert len(AVOIDED) >= 5 and all(avoid.reason and avoid.instead for avoid in AVOIDED)
    found = avoided_in()
    assert not found, f"{len(found)} texts to reword:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "polish",
    [
        "Ostatni ruch: {who} położył(a) stos.",
        "Jeśli wygrałeś, zyskaj 1 punkt Duchowieństwa.",
        "Brak odpowiedzi: zostaniesz zapytany.",
        "gdy obaj zapieczętują wybór",
        "karty 'before battle'",
        'Każde polecenie to "ask me".',
        "Niezweryfikowano: {problem}",
        "Ta kontrolka nie należy do tej tury.",
    ],
)
def test_the_avoided_forms_are_found(polish: str) -> None:
    assert avoided_in([Message("x", polish)])


def test_the_avoided_forms_leave_polish_alone() -> None:
    fine = "Obaj Książęta polegli; `done` kończy; „przed bitwą”; Nie zweryfikowano; wygrywa {who}; nonce; zobowiązanie."
    assert not avoided_in([Message("x", fine)])


# ---- numbers -----------------------------------------------------------------------------------------------------
#: the stems of nouns that decline with a number before them (1 gracz, 2 graczy / gracze, 5 graczy...)
COUNTED = re.compile(
    r"(gracz(e|y|a)?|złot[oa]|punkt(y|ów)?|rund[ay]?|kart[ay]?|dni|dzień|godzin[ay]?|minut[ay]?|tur[aęy]?|przypomnie\w*|"
    r"odpowiedzi|jednost\w*|rycerz\w*|piechur\w*|książ\w*|ziemi[ae]?|ziem|płyt\w*|zamk[iów]*|zamek|bitw[ay]|bitew|"
    r"ruch(y|ów)?|krok(i|ów)?|gier|gry|gra|wygran\w*|klat\w*|zdarze\w*|miecz(e|y)?|tarcz[ae]?|pas|pasy|pasów|"
    r"stos(y|ów)?|pol[ae]|pól|wybor(y|ów)|wybór|znak(i|ów)|sekund[ay]?|zasob(y|ów)|monet[ay]?|żeton(y|ów)?)\b",
    re.IGNORECASE,
)
NUMBER = re.compile(r"\{(\w+)\} (\w+)")


def fixed_counts(catalog: list[Message] = ENTRIES) -> list[str]:
    """Polish texts where a number is followed by a noun whose form depends on it, outside a plural entry read by
    ``{n}`` (only ``n`` selects the form: ``localize`` reads the count back by that name)."""
    found = []
    for message in catalog:
        plural = isinstance(message.id, tuple)
        for text in forms(message)[1]:
            for name, word in NUMBER.findall(text):
                if name in number_params() and COUNTED.match(word) and not (plural and name == "n"):
                    found.append(f"{singular(message)[:80]!r} -> {text[:100]!r}: {{{name}}} {word}")
    return found


def test_every_counted_noun_takes_its_form_from_the_number() -> None:
    found = fixed_counts()
    assert not found, f"{len(found)} numbers with a fixed form:\n" + "\n".join(found)


def test_the_count_check_finds_fixed_forms() -> None:
    message = Message("{who} pays {gold} gold.", "{who} płaci {gold} złota.")
    assert fixed_counts([message])
    assert not fixed_counts([Message("{who} pays {gold} gold.", "{who} płaci złoto: {gold}.")])


@pytest.mark.parametrize(
    ("msgid", "plural", "context", "said"),
    [
        (
            "Pharaoh, {n} player: {status}.",
            "Pharaoh, {n} players: {status}.",
            "image",
            ["1 gracz", "2 gracze", "5 graczy"],
        ),
        (
            "{who} gains {n} gold ({card}).",
            "{who} gains {n} gold ({card}).",
            None,
            ["1 złoto", "2 złota", "5 złota"],
        ),
    ],
)
def test_plural_entries_read_each_count_in_its_form(
    msgid: str, plural: str, context: str | None, said: list[str]
) -> None:
    texts = [i18n.ntranslate("pl", msgid, plural, n, context, status="", who="", card="") for n in (1, 2, 5)]
    assert all(words in text for words, text in zip(said, texts, strict=True)), texts


# ---- slash commands ----------------------------------------------------------------------------------------------


@dataclass
class Node:
    children: dict[str, Node]
    options: set[str]
    english_options: set[str]


def polish_name(item: dict[str, Any]) -> str:
    localised = item.get("name_localizations") or {}
    return str(localised.get("pl", item["name"]))


def polish_tree(payload: list[dict[str, Any]]) -> Node:
    """The commands as the Polish client shows them: each command and group by its Polish name, with its
    subcommands, and a leaf command's option names."""

    def node(item: dict[str, Any]) -> Node:
        options = item.get("options") or []
        subs = [o for o in options if o.get("type") in (1, 2)]
        plain = [o for o in options if o.get("type") not in (1, 2)]
        return Node(
            {polish_name(sub): node(sub) for sub in subs},
            {polish_name(o) for o in plain},
            {o["name"] for o in plain if polish_name(o) != o["name"]},
        )

    return Node({polish_name(item): node(item) for item in payload}, set(), set())


@pytest.fixture(scope="module")
def commands_pl(tmp_path_factory: pytest.TempPathFactory) -> Node:
    return polish_tree(asyncio.run(synced_commands(tmp_path_factory.mktemp("commands") / "bot.sqlite3")))


#: a command as a text names it: a slash opening a word (not inside a path such as rules/principes/data or on/off)
COMMAND = re.compile(r"(?<![\w/.:<{}-])/(\w+(?:[ ]+[\w:-]+)*)")


def command_problems(text: str, tree: Node) -> Iterator[str]:
    for match in COMMAND.finditer(text):
        words = match[1].split()
        node, path = tree, []
        for word in words:
            if node.children:
                # a command, or a group followed by its subcommand
                path.append(word)
                if word not in node.children:
                    yield "/" + " ".join(path)
                    break
                node = node.children[word]
                continue
            # a leaf: an option named before a colon must be its Polish name
            name = word.split(":", 1)[0] if ":" in word else None
            if name is not None and name in node.english_options:
                yield f"/{' '.join(path)} {word} (Polish option name: not {name})"
            if name is None:
                break


def test_commands_named_in_polish_texts_are_polish_command_paths(commands_pl: Node) -> None:
    assert {"gra", "ruch", "ustawienia"} <= set(commands_pl.children)
    found = []
    for message in ENTRIES:
        for text in forms(message)[1]:
            found += [
                f"{singular(message)[:70]!r}: {problem}" for problem in command_problems(text, commands_pl)
            ]
    assert not found, f"{len(found)} commands the Polish client does not have:\n" + "\n".join(found)


def test_the_command_check_reads_paths(commands_pl: Node) -> None:
    assert not list(
        command_problems("Dołącz przez /gra dolacz albo /ruch; rules/principes/data, on/off.", commands_pl)
    )
    assert list(command_problems("Dołącz przez /game join.", commands_pl)) == ["/game"]
    assert list(command_problems("Dołącz przez /gra join.", commands_pl)) == ["/gra join"]
