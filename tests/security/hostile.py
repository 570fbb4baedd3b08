"""Hostile text for notation parsers, and a fuzz step over one game's ``parse`` then ``apply``.

Shared by the hypothesis tests (which hand in a hypothesis-controlled ``random.Random``, so failures shrink)
and ``bench/bench_fuzz.py`` (a plain seeded ``random.Random``, for volume). Every generator takes the legal
actions of the position, so the fragments look like the game's own notation: those are the inputs most likely
to get past a parser's first checks and reach code that was only ever fed valid moves.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass

from rules.engine import Game, Rng, RulesError, State
from rules.engine.playout import play

#: odd characters: controls, combining marks, right-to-left, zero-width, emoji, full-width digits, mentions
ODD_CHARACTERS = (
    "\x00",
    "\t",
    "\n",
    "\r",
    "\x0b",
    "\u0301",
    "\u200b",
    "\u200f",
    "\u202e",
    "\ufeff",
    "\u00a0",
    "\U0001f451",
    "\uff11",
    "\u0660",
    "\u2167",
    "ß",
    "İ",
    "ﬃ",
    "`",
    "*",
    "|",
    "@everyone",
    "<@123>",
    "%s",
    "{0}",
    "\\",
    "'",
    '"',
    ";",
    "--",
    "../",
    "\u3000",
)
NUMBERS = ("0", "-1", "1e309", "nan", "inf", "-0", "99999999999999999999999", "0x10", "1_000", "٣", "²")
#: cap on one generated text: big enough to hurt a quadratic parser, small enough to stay cheap
HUGE = 20_000


def _tokens(rng: random.Random, legal: list[str]) -> list[str]:
    return rng.choice(legal).split() if legal else ["move"]


def _swapped(rng: random.Random, legal: list[str]) -> str:
    tokens = _tokens(rng, legal)
    rng.shuffle(tokens)
    return " ".join(tokens)


def _truncated(rng: random.Random, legal: list[str]) -> str:
    action = rng.choice(legal) if legal else "move"
    return action[: rng.randint(0, max(0, len(action) - 1))]


def _extra_tokens(rng: random.Random, legal: list[str]) -> str:
    tokens = _tokens(rng, legal)
    for _ in range(rng.randint(1, 4)):
        extra = rng.choice([*_tokens(rng, legal), *NUMBERS, rng.choice(ODD_CHARACTERS)])
        tokens.insert(rng.randint(0, len(tokens)), extra)
    return " ".join(tokens)


def _spliced(rng: random.Random, legal: list[str]) -> str:
    """Two legal actions' tokens mixed: right words, wrong combination."""
    first, second = _tokens(rng, legal), _tokens(rng, legal)
    cut = rng.randint(0, len(first))
    return " ".join(first[:cut] + second[rng.randint(0, len(second)) :])


def _character_noise(rng: random.Random, legal: list[str]) -> str:
    text = list(rng.choice(legal) if legal else "move")
    for _ in range(rng.randint(1, 5)):
        position = rng.randint(0, len(text))
        roll = rng.random()
        if roll < 0.4:
            text.insert(position, rng.choice(ODD_CHARACTERS))
        elif roll < 0.7 and text:
            del text[min(position, len(text) - 1)]
        elif text:
            index = min(position, len(text) - 1)
            text[index] = text[index].upper() if rng.random() < 0.5 else rng.choice(NUMBERS)
    return "".join(text)


def _numbers_for_numbers(rng: random.Random, legal: list[str]) -> str:
    """Every number of a legal action replaced by an absurd one (out of range, negative, huge, non-ASCII)."""
    return " ".join(rng.choice(NUMBERS) if token.isdigit() else token for token in _tokens(rng, legal))


def _huge(rng: random.Random, legal: list[str]) -> str:
    unit = rng.choice([*(legal or ["move"]), *ODD_CHARACTERS, "a", " "])
    return (unit + rng.choice(["", " ", ",", "\n"])) * rng.randint(50, max(51, HUGE // max(1, len(unit) + 1)))


def _random_unicode(rng: random.Random, legal: list[str]) -> str:
    length = rng.randint(0, 60)
    return "".join(
        chr(rng.choice([rng.randint(32, 126), rng.randint(0, 0xD7FF), rng.randint(0xE000, 0x10FFFF)]))
        for _ in range(length)
    )


def _whitespace_only(rng: random.Random, legal: list[str]) -> str:
    return "".join(
        rng.choice([" ", "\t", "\n", "\u200b", "\u3000", "\u00a0"]) for _ in range(rng.randint(0, 8))
    )


MUTATIONS: tuple[Callable[[random.Random, list[str]], str], ...] = (
    _swapped,
    _truncated,
    _extra_tokens,
    _spliced,
    _character_noise,
    _numbers_for_numbers,
    _huge,
    _random_unicode,
    _whitespace_only,
)


def hostile_text(rng: random.Random, legal: list[str]) -> str:
    """One hostile input built from the position's legal actions (or from nothing, when there are none)."""
    return rng.choice(MUTATIONS)(rng, legal)


@dataclass(frozen=True)
class Position:
    """A state reached by random play, with its player count, for the parser fuzz."""

    key: str
    players: int
    state: State


#: how deep random play goes before a position is taken; the last one plays to the end of the game
DEPTHS = (0, 1, 2, 5, 10, 30, 80, 200, 100_000)


def sample_positions(game: Game, count: int, seed: int = 0, max_depth: int = 100_000) -> list[Position]:
    """``count`` positions of ``game`` at various depths and player counts (finished games included unless
    ``max_depth`` stops play earlier, which keeps the tests quick)."""
    rng = random.Random(f"{game.key}:{seed}")
    positions = []
    for index in range(count):
        players = rng.randint(game.min_players, game.max_players)
        depth = min(max_depth, rng.choice(DEPTHS))
        playout = play(game, players, seed * 1000 + index, stop_after=depth)
        positions.append(Position(game.key, players, playout.state))
    return positions


class UnhandledError(AssertionError):
    """An exception other than the rules' own errors came out of ``parse`` or ``apply``."""


def fuzz_notation(game: Game, position: Position, seat: int, text: str, rng_seed: int) -> str:
    """Feed ``text`` to ``parse`` and, when it reads, to ``apply``; return how it ended.

    Only ``RulesError`` (``InvalidAction``, ``IllegalAction``) may come out; ``apply`` must not mutate the
    state it was given, and ``parse`` must return a string. Anything else raises ``UnhandledError``.
    """
    before = pickle.dumps(position.state)
    try:
        canonical = game.parse(position.state, seat, text)
        if not isinstance(canonical, str):
            raise UnhandledError(f"{game.key}: parse({text!r}) returned {canonical!r}, not a string")
        game.apply(position.state, seat, canonical, Rng.for_event(rng_seed, 1))
        ending = "applied"
    except RulesError as error:
        if not str(error).strip():
            raise UnhandledError(
                f"{game.key}: {type(error).__name__} for {text!r} has no sentence"
            ) from error
        ending = "refused"
    except UnhandledError:
        raise
    except Exception as error:  # noqa: BLE001 - the point is to catch whatever escapes
        raise UnhandledError(
            f"{game.key} seat {seat}: {type(error).__name__}: {error} for input {text[:200]!r}"
        ) from error
    if pickle.dumps(position.state) != before:
        raise UnhandledError(f"{game.key}: parse/apply of {text[:200]!r} mutated the state it was given")
    return ending
