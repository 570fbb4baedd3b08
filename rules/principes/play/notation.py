"""The notation of PRINCIPES actions: what each verb's words name, whether a typed text reads as an action at all,
and names typed instead of ids.

An action is a verb and the words its *form* asks for (:class:`Verb`; the decisions table ``decisions`` lists
every verb with the decision kinds it answers). Each word has a :class:`Role`: a unit, a land, a card id, a
number... Text that fits no form of its verb is *unreadable* (:func:`problem` says why: a word that names no
thing of its role, a missing word, a word too many): ``parse`` refuses it with ``InvalidAction``. Readable text
that the rules forbid now reaches ``apply``, which refuses it with ``IllegalAction`` and the reason
(``refusals``).

Names in ``/move``: a card, tile, land, gord, area, faction or Prince may be typed by its title or name instead
of its id (``extra hired knights sword``, ``move knight posnania sremium``), in any case and without accents.
``read_names`` matches the typed text against the legal answers spelled with names; when no legal answer
matches, the names it can read are still turned into ids so that ``apply`` can say what is wrong with them.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from rules.engine import InvalidAction

from ..data import catalog, instances
from ..effects import PRIMITIVES
from .common import ACTIONS

# ---- roles and forms ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Role:
    """What one word of an action names: ``name`` (also the kind of thing a typed name is read as, see
    ``_fits``), how a form shows it (``usage``), the test a word must pass, and what a word that fails is not
    (``what``, with its article: "'atlantis' is not a land of PRINCIPES.")."""

    name: str
    usage: str
    test: Callable[[str], bool]
    what: str
    #: a thing of the game (a land, a card...): the refusal says "of PRINCIPES"
    thing: bool = True
    #: one or more such words (the last role of a form only)
    many: bool = False
    #: a word that must be spelled exactly (``usage``): a refusal shows the verb's forms instead
    exact: bool = False

    def refusal(self, token: str) -> str:
        return f"'{token}' is not {self.what}{' of PRINCIPES' if self.thing else ''}."

    def repeated(self) -> Role:
        return Role(self.name, f"{self.usage} ...", self.test, self.what, self.thing, many=True)


@cache
def _instance_tokens() -> frozenset[str]:
    """Every card, tile and Prince card instance id, in the notation's lower case."""
    return frozenset(
        instance.lower() for record in catalog().kinds.values() for instance in instances(record)
    )


@cache
def _prince_tokens() -> frozenset[str]:
    return frozenset(record["id"].lower() for record in catalog().components["princes"])


@cache
def _gord_tokens() -> frozenset[str]:
    return frozenset(gord["id"] for record in catalog().lands.values() for gord in record["gords"])


def _is_land(token: str) -> bool:
    return token in catalog().lands


def _is_area(token: str) -> bool:
    return token in catalog().offmap


def _one_of(*words: str) -> Callable[[str], bool]:
    return lambda token: token in words


UNITS = ("knight", "footman", "prince")
BUILDINGS = ("castle", "tiltyard", "abbey")
PLAYERS = ("pma", "mas", "pmi", "sil")
TRACKS = ("people", "clergy")

UNIT = Role("unit", "<unit>", _one_of(*UNITS), "a unit")
LAND = Role("land", "<land>", _is_land, "a land")
PLACE = Role("place", "<land or area>", lambda t: _is_land(t) or _is_area(t), "a land or area")
REFUGE = Role("refuge", "<land or home>", lambda t: _is_land(t) or t == "home", "a land (or home)")
GORD = Role("gord", "<gord>", lambda t: t in _gord_tokens(), "a gord (City site)")
CARD = Role("card", "<card>", lambda t: t in _instance_tokens(), "a card")
TILE = Role("tile", "<tile>", lambda t: t in _instance_tokens(), "a tile")
PRINCE = Role("prince", "<Prince card>", lambda t: t in _prince_tokens(), "a Prince card")
BUILDING = Role("building", "<building>", _one_of(*BUILDINGS), "a building")
SYMBOL = Role("symbol", "<sword or shield>", _one_of("sword", "shield"), "a corner symbol (sword or shield)")
TRACK = Role("track", "<people or clergy>", _one_of(*TRACKS), "a track")
FACTION = Role("faction", "<faction>", lambda t: t.upper() in catalog().factions, "a faction")
PAYMENT = Role("payment", "<clergy or gold>", _one_of("clergy", "gold"), "a payment")
ITEM = Role(
    "item", "<gord or building>", lambda t: t in _gord_tokens() or t in BUILDINGS, "a City or building"
)
PLAYER = Role("player", "<pma|mas|pmi|sil>", _one_of(*PLAYERS), "a player (pma, mas, pmi or sil)", False)
NUMBER = Role("number", "<number>", lambda t: re.fullmatch(r"[0-9]{1,6}", t) is not None, "a number", False)
ACTION = Role(
    "action",
    "<action>",
    _one_of(*ACTIONS),
    "an action (progress, taxes, movement, assembly, building or politics)",
    False,
)
DIRECTION = Role("direction", "<cw or ccw>", _one_of("cw", "ccw"), "a direction (cw or ccw)", False)
DECK = Role("deck", "<court or neighbour>", _one_of("court", "neighbour", "battle"), "a deck")
ALTERNATIVE = Role(
    "alternative",
    "<pay|people|clergy>",
    lambda t: t in ("pay", "either", *TRACKS) or t in PRIMITIVES,
    "a choice a History card offers (pay, people or clergy)",
    False,
)
ARGUMENT = Role(
    "argument",
    "<land, area, player or track>",
    lambda t: _is_land(t) or _is_area(t) or t in PLAYERS or t in TRACKS,
    "a land, area, player or track",
)
STANDING = Role("standing", "<allow|deny|ask>", _one_of("allow", "deny", "ask"), "a standing answer", False)


def literal(word: str) -> Role:
    """A word that must be exactly ``word`` (``combined castle``, ``allow always``)."""
    return Role(word, word, _one_of(word), f"'{word}'", exact=True)


Form = tuple[Role, ...]


@dataclass(frozen=True)
class Verb:
    """A word that starts an action, and the forms of the words after it (``()``: the verb alone)."""

    word: str
    forms: tuple[Form, ...] = ((),)

    def usage(self) -> str:
        return " or ".join(
            f"'{' '.join([self.word, *(role.usage for role in form)])}'" for form in self.forms
        )

    def reading_roles(self) -> tuple[str, ...]:
        """The role names of the words after the verb, position by position, where every form that has the
        position agrees ('' where they differ); a last role of ``many`` words ends with ``*`` (it repeats)."""
        longest = max(len(form) for form in self.forms)
        roles = []
        for index in range(longest):
            names = {
                form[index].name + ("*" if form[index].many else "")
                for form in self.forms
                if index < len(form)
            }
            roles.append(names.pop() if len(names) == 1 else "")
        return tuple(roles)


def _fitting(words: list[str], form: Form) -> int:
    """How many of ``words`` (after the verb), from the first, are of their role in ``form``."""
    count = 0
    for index, token in enumerate(words):
        if index < len(form):
            role = form[index]
        elif form and form[-1].many:
            role = form[-1]
        else:
            break
        if not role.test(token):
            break
        count += 1
    return count


def _count_fits(count: int, form: Form) -> bool:
    return count >= len(form) if form and form[-1].many else count == len(form)


def problem(words: list[str], verb: Verb, answers: list[str]) -> str | None:
    """Why ``words`` (the verb first) do not read as an action of ``verb``, or None when they fit one of its
    forms. ``answers`` (the legal ones, or those of the verb) give the example of an incomplete action."""
    rest = words[1:]
    scored = [(_fitting(rest, form), form) for form in verb.forms]
    if any(fitted == len(rest) and _count_fits(len(rest), form) for fitted, form in scored):
        return None
    text = " ".join(words)
    fitted, form = max(scored, key=lambda pair: (pair[0], -abs(len(pair[1]) - len(rest))))
    if fitted < len(rest) and (fitted < len(form) or (form and form[-1].many)):
        role = form[min(fitted, len(form) - 1)]
        if role.exact:
            return f"'{text}' does not read as an action: write {verb.usage()}."
        return role.refusal(rest[fitted])
    if len(rest) < len(form):
        longer = [answer for answer in answers if answer.split()[: len(words)] == words]
        if longer:
            return f"'{text}' is incomplete: for example '{longer[0]}'."
        return f"'{text}' is incomplete: write {verb.usage()}."
    return f"'{text}' has too many words: write {verb.usage()}."


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


def read_names(text: str, legal: list[str], hand: list[str], roles: tuple[str, ...] = ()) -> str:
    """The legal answer ``text`` spells with names, else ``text`` with the names it holds turned into ids, each
    of the kind ``roles`` (the verb's ``reading_roles``) names at its place."""
    typed = normalise(text)
    matches = [action for action in legal if typed in _spellings(action)]
    meanings = list(dict.fromkeys(_meaning(action) for action in matches))
    if len(meanings) == 1:
        return matches[0]
    if len(meanings) > 1:
        listed = ", ".join(f"'{action}'" for action in dict.fromkeys(matches))
        raise InvalidAction(f"'{text}' could mean {listed}: type the one you mean.")
    return _ids_for_names(text, hand, roles)


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
    """Whether ``token`` is of the kind an answer's word of ``role`` names (only names of things are read:
    a card, tile, land, area, gord or faction)."""
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


def _ids_for_names(text: str, hand: list[str], roles: tuple[str, ...]) -> str:
    """Replace the longest unambiguous names by their ids, each of the kind its place in the answer asks for
    (a card after ``sell``, a land after ``move knight posnania``); words already ids stay as typed."""
    words = text.split()
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
