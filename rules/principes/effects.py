"""PRINCIPES effects as data: a tiny notation, its parser and a validator against the primitive vocabulary.

Every card, tile and Prince rule carries an ``effect`` string such as
``if(opponent(invader), extra_shields(1)); draw(self, battle, 1)``. The notation is a list of statements separated
by ``;``; a statement is a call ``name(arg, ...)``; an argument is a call, a bare word, a whole number, or
alternatives ``a|b`` (any one of them, the player's choice). The rules engine (PRINCIPES II-IV) walks the parsed
:class:`Term` trees, so it implements each primitive once, generally, instead of reading card texts.

``PRIMITIVES`` below is the whole vocabulary: each primitive with the kinds of its parameters. ``parse_effect``
refuses anything outside it with a sentence naming the component, so a typo in a data file fails the tests. The
lands and factions an effect may name are the loaded map's: the caller passes them (:class:`Names`; ``data``
parses every component with the names of its own files), so this module needs nothing else of the game.
Combinators: ``if(condition, statement)``, ``choose(statement, statement)`` (the affected player picks one),
``this_round(statement)`` (lasts until the end of the Round), ``at(timing, statement)`` (fires at that moment).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from rules.engine import RulesError


class EffectError(RulesError):
    """An effect string that is not in the vocabulary; the message names the component and the problem."""


@dataclass(frozen=True)
class Term:
    """A parsed term: a call ``name(args)``, a bare word (``args`` empty, ``call`` False), a number or choices."""

    name: str
    args: tuple[Term, ...] = ()
    call: bool = False
    number: int | None = None
    choices: tuple[str, ...] = ()

    def to_data(self) -> object:
        """Plain JSON form: numbers stay numbers, words stay strings, calls become ``{"op", "args"}``."""
        if self.number is not None:
            return self.number
        if self.choices:
            return {"any_of": list(self.choices)}
        if self.call:
            return {"op": self.name, "args": [arg.to_data() for arg in self.args]}
        return self.name


# ---- tokenizer and parser -----------------------------------------------------------------------------------

_TOKEN = re.compile(r"\s*(?:(-?\d+)|([a-z_][a-z0-9_]*|[A-Z][A-Z_]*)|(.))")


def _tokens(text: str) -> list[str]:
    tokens: list[str] = []
    position = 0
    text = text.strip()
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:  # only trailing blanks are left
            break
        tokens.append(match.group(0).strip())
        position = match.end()
    return [token for token in tokens if token]


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.index = 0

    def peek(self) -> str | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise EffectError(f"expected {expected or 'more text'}, found {token or 'the end'}")
        self.index += 1
        return token

    def program(self) -> tuple[Term, ...]:
        statements: list[Term] = []
        while self.peek() is not None:
            statements.append(self.term())
            if self.peek() is not None:
                self.take(";")
        return tuple(statements)

    def term(self) -> Term:
        token = self.take()
        if re.fullmatch(r"-?\d+", token):
            return Term(name=token, number=int(token))
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", token):
            raise EffectError(f"unexpected {token!r}")
        if self.peek() == "(":
            self.take("(")
            args: list[Term] = []
            while self.peek() != ")":
                args.append(self.term())
                if self.peek() != ")":
                    self.take(",")
            self.take(")")
            return Term(name=token, args=tuple(args), call=True)
        if self.peek() == "|":
            choices = [token]
            while self.peek() == "|":
                self.take("|")
                choices.append(self.take())
            return Term(name="|".join(choices), choices=tuple(choices))
        return Term(name=token)


# ---- parameter kinds ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Names:
    """The land and faction ids an effect may name: those of the loaded data files (``data.catalog``)."""

    lands: frozenset[str] = field(default_factory=frozenset)
    factions: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def of(cls, lands: Iterable[str], factions: Iterable[str]) -> Names:
        return cls(frozenset(lands), frozenset(factions))


#: checks one parameter against its kind, with the names the data defines
Check = Callable[[Term, Names], None]


def _word(*allowed: str) -> Check:
    def check(term: Term, names: Names) -> None:
        words = term.choices or ((term.name,) if not term.call and term.number is None else ())
        if not words or any(word not in allowed for word in words):
            raise EffectError(f"{term.name!r} is not one of {', '.join(allowed)}")

    return check


def _integer(low: int, high: int) -> Check:
    def check(term: Term, names: Names) -> None:
        if term.number is None or not low <= term.number <= high:
            raise EffectError(f"{term.name!r} is not a whole number from {low} to {high}")

    return check


def _land(term: Term, names: Names) -> None:
    if term.call or term.number is not None or term.name not in names.lands:
        raise EffectError(f"{term.name!r} is not a land of the map")


def _faction_or(*groups: str) -> Check:
    def check(term: Term, names: Names) -> None:
        words = term.choices or (term.name,)
        if term.call or any(word not in names.factions and word not in groups for word in words):
            raise EffectError(f"{term.name!r} is not a faction or one of {', '.join(groups)}")

    return check


def _call(name: str, *params: Check) -> Check:
    def check(term: Term, names: Names) -> None:
        if not term.call or term.name != name:
            raise EffectError(f"expected {name}(...), found {term.name!r}")
        _check_args(term, params, names)

    return check


def _one_of(*checks: Check) -> Check:
    def check(term: Term, names: Names) -> None:
        problems = []
        for option in checks:
            try:
                option(term, names)
                return
            except EffectError as error:
                problems.append(str(error))
        raise EffectError(" / ".join(problems))

    return check


COUNTABLES = ("own_cavalry", "own_infantry", "tiltyards", "abbeys", "civitas", "central_lands")
TRACKS = ("people", "clergy", "either")
DECKS = ("court", "neighbour", "battle", "history")
ACTIONS = ("progress", "taxes", "movement", "assembly", "building", "politics")
TIMINGS = (
    "immediate",
    "any_time",
    "council",
    "council_host",
    "council_start",
    "before_battle",
    "die_mod",
    "extra_phase",
    "after_battle",
    "on_tax",
    "on_assembly",
    "on_build",
    "on_progress",
    "on_found",
    "on_acquire",
    "move_end",
    "round_start",
    "round_end",
    "passive",
    "on_elimination",
    "none",
    *(f"own_action:{action}" for action in ACTIONS),
)

_NUMBER = _integer(-10, 10)
_AMOUNT = _one_of(_NUMBER, _call("per", _word(*COUNTABLES), _integer(1, 10)))
_WHO_WORDS = ("self", "each", "others", "princeps", "richest", "target", "opponent")
_WHO = _one_of(_word(*_WHO_WORDS), _call("controller", _land))
_WHO_FILTERED = _one_of(_WHO, _call("filter", _word(*_WHO_WORDS), _word("holds_foreign_land")))


def _condition(term: Term, names: Names) -> None:
    _CONDITION(term, names)


_CONDITION: Check = _one_of(
    _word("won", "lost", "attacker", "defender", "is_princeps", "holds_foreign_land", "defending_own_city"),
    _call("opponent", _word("invader", "neighbour", "player")),
    _call("controls", _land),
    _call("no_action", _word(*ACTIONS)),
    _call("built", _word("city", "civitas", "castle", "tiltyard", "abbey")),
    _call("all", _condition, _condition),
)


def _statement(term: Term, names: Names) -> None:
    if not term.call:
        raise EffectError(f"{term.name!r} is not a primitive call")
    params = PRIMITIVES.get(term.name)
    if params is None:
        raise EffectError(f"unknown primitive {term.name!r}")
    _check_args(term, params, names)


#: the whole vocabulary: primitive -> the kinds of its parameters, in order
PRIMITIVES: dict[str, tuple[Check, ...]] = {
    "gain_track": (_WHO_FILTERED, _word(*TRACKS), _AMOUNT),
    "gain_gold": (_WHO, _AMOUNT),
    "pay": (_WHO, _integer(1, 10)),
    "steal_gold": (_WHO, _integer(1, 10)),
    "track_cost": (_word("taxes", "battle_loss"), _word("none", "people", "clergy", "people_x2")),
    "draw": (_WHO, _word(*DECKS), _AMOUNT),
    "force_discard": (_WHO, _word("court", "neighbour", "battle"), _integer(1, 6)),
    "peek": (_word(*DECKS), _integer(1, 6)),
    "cancel_card": (_word("last_court_text", "opponent_before_battle"),),
    "block_window": (_WHO, _word("before_battle", "extra_phase", "after_battle")),
    "card_rule": (_one_of(_word("battle_as_support"), _call("hand_limit", _integer(6, 12))),),
    "extra_swords": (_AMOUNT,),
    "extra_shields": (_AMOUNT,),
    "ignore_defender_bonus": (_word("settlement", "castle"),),
    "reroll_die": (_word("own", "opponent"),),
    "flip_die": (_word("own", "opponent"),),
    "damage_order": (_word("self", "opponent"), _word("cavalry_first")),
    "coin_steal": (_word("self", "against_self"), _integer(0, 3)),
    "return_unit": (_WHO, _word("infantry", "cavalry"), _integer(1, 3), _word("withdrawn", "any")),
    "movement_bonus": (_word("all", "infantry", "cavalry"), _integer(-3, 3), _word("own", "all_factions")),
    "immunity": (_faction_or("any", "invader", "neighbour"), _word("own_lands", "chosen_land")),
    "stop_at_border": (_word("own_lands"),),
    "penalty_waiver": (_one_of(_call("principality", _faction_or()), _call("cap", _integer(1, 5))),),
    "division": (_word("place", "remove"), _word("own_borders", "rival_land")),
    "assembly": (_one_of(_call("extra_units", _integer(1, 5)), _call("sites", _word("own_castle_lands"))),),
    "cost_discount": (
        _word("city", "castle", "abbey", "tiltyard", "first_knight"),
        _one_of(_word("free"), _integer(1, 5)),
        _integer(0, 5),
    ),
    "build": (
        _WHO,
        _word("city", "civitas", "castle", "tiltyard", "abbey"),
        _word("own_land", "own_small_gord", "battle_land"),
        _one_of(_word("normal", "free"), _integer(1, 5)),
    ),
    "build_limit": (_word("city", "building"), _integer(1, 3)),
    "progress_rule": (
        _one_of(_word("pair_reward", "third_slot", "wildcard_token"), _call("extra_tile", _integer(1, 5))),
    ),
    "relocate": (_WHO, _word("prince"), _word("own_land")),
    "princess": (_one_of(_word("send"), _call("strength", _integer(1, 3))),),
    "survive_elimination": (),
    "neighbour": (_faction_or("any"), _integer(0, 2), _integer(0, 2), _integer(0, 5)),
    # combinators
    "if": (_condition, _statement),
    "choose": (_statement, _statement),
    "this_round": (_statement,),
    "at": (_word(*TIMINGS), _statement),
}


def _check_args(term: Term, params: tuple[Check, ...], names: Names) -> None:
    if len(term.args) != len(params):
        raise EffectError(f"{term.name} takes {len(params)} argument(s), not {len(term.args)}")
    for arg, check in zip(term.args, params, strict=True):
        check(arg, names)


def parse_effect(text: str, where: str, names: Names) -> tuple[Term, ...]:
    """The statements of ``text``, each checked against ``PRIMITIVES`` and the lands and factions ``names``
    holds; ``where`` names the component."""
    try:
        statements = _Parser(text).program()
        for statement in statements:
            _statement(statement, names)
    except EffectError as error:
        raise EffectError(f"{where}: {error} in {text!r}") from None
    return statements


def primitives_used(statements: Iterable[Term]) -> set[str]:
    """Every primitive and combinator name called in ``statements`` (conditions and amounts excluded)."""
    found: set[str] = set()
    pending = list(statements)
    while pending:
        term = pending.pop()
        if term.call and term.name in PRIMITIVES:
            found.add(term.name)
        pending.extend(arg for arg in term.args if arg.call)
    return found
