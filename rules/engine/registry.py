"""The registry of games: one key per game, the same in commands, the CLI and storage.

A game registers once, here: one line ``key: package``. Everything else is found by that package's name:

- ``rules/<package>/`` exposes ``GAME``, an instance of :class:`rules.engine.Game` (the rules, the AI levels,
  the round-status hook ``Game.round_status``);
- ``render/<package>.py`` draws its views (``render(view)``, optionally ``render_region``); the conformance
  suite fails for a registered game without one;
- ``forms/<package>.py``, optional, holds a guided form ``FORM`` for the decisions a flat list of
  choices serves badly.

A game whose rules package is not present is simply not available.

A game whose package lives outside ``rules/`` (a test's toy game, a plugin) is registered for a run by the
environment variable ``PRINCES_EXTRA_GAMES``: ``key=module`` pairs separated by commas, for example
``PRINCES_EXTRA_GAMES=nim=tests.toygame``. That module exposes ``GAME`` and its submodule ``render`` draws its
views (``<module>.render``, with ``render(view)`` and ``alt_text(view)``); it is available after the built-in
games, in every process of the run (AI workers, the replay worker and test subprocesses inherit the variable), and
every suite and bench that iterates ``available_games()`` plays it. ``tests/test_sixth_game.py`` does exactly that
with a toy Nim (``tests/toygame``).
"""

from __future__ import annotations

import importlib
import os
from functools import cache

from .core import Game, OptionError

#: game key -> package name (``rules/<package>``, ``render/<package>.py``, ...) of the built-in games. The order
#: is the order menus show. Adding a game is one line here.
GAMES: dict[str, str] = {
    "principes": "principes",
    "the-prince": "the_prince",
    "game-of-princes": "game_of_princes",
    "pharaoh": "pharaoh",
    "babylone": "babylone",
}


#: the environment variable that adds games from outside ``rules/`` for a run: ``key=module[,key=module...]``
EXTRA_GAMES_VARIABLE = "PRINCES_EXTRA_GAMES"


def _extra_games(value: str) -> dict[str, str]:
    """``key=module`` pairs of ``EXTRA_GAMES_VARIABLE``'s value, in order (a built-in key is not replaced).

    >>> _extra_games("nim = tests.toygame, , babylone=x")
    {'nim': 'tests.toygame'}
    """
    pairs = (item.split("=", 1) for item in value.split(",") if "=" in item)
    return {key.strip().lower(): module.strip() for key, module in pairs if key.strip().lower() not in GAMES}


#: game key -> module path of the games added for this run by ``EXTRA_GAMES_VARIABLE`` (after the built-in ones)
EXTRA_GAMES: dict[str, str] = _extra_games(os.environ.get(EXTRA_GAMES_VARIABLE, ""))


def package_of(key: str) -> str | None:
    """Where a game registered by a line keeps its parts: a built-in game's package name (``rules/<package>``,
    ``render/<package>.py``), an added game's module path; None for a game registered as an object at run time."""
    return GAMES.get(key) or EXTRA_GAMES.get(key)


def rules_module_name(key: str) -> str | None:
    """The module that exposes a game's ``GAME`` (``rules.<package>``, or an added game's module)."""
    return f"rules.{GAMES[key]}" if key in GAMES else EXTRA_GAMES.get(key)


def render_module_name(key: str) -> str | None:
    """The module that draws a game's views (``render.<package>``, or an added game's ``<module>.render``); None
    for a game registered as an object at run time (it has no board image)."""
    if key in GAMES:
        return f"render.{GAMES[key]}"
    return f"{EXTRA_GAMES[key]}.render" if key in EXTRA_GAMES else None


def registered_games() -> list[str]:
    """Keys of the games registered by a line (built in, then added for the run), present or not, in menu order:
    the games whose parts are found by their package (their renderers, their golden playthroughs...)."""
    return [*GAMES, *EXTRA_GAMES]


#: games registered at run time (test-only games, plugins); they come after the built-in ones
_REGISTERED: dict[str, Game] = {}


def register(game: Game) -> None:
    """Make ``game`` available under ``game.key`` (used by tests for small purpose-built games)."""
    _REGISTERED[game.key] = game


def unregister(key: str) -> None:
    _REGISTERED.pop(key, None)


def _load(key: str) -> Game | None:
    if key in _REGISTERED:
        return _REGISTERED[key]
    return _load_registered(key) if package_of(key) else None


@cache
def _load_registered(key: str) -> Game | None:
    name = rules_module_name(key)
    assert name is not None
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name == name:
            return None
        raise
    game = getattr(module, "GAME", None)
    return game if isinstance(game, Game) else None


def available_games(include_unplayable: bool = False) -> list[str]:
    """Keys of the games that can be played (or, with the flag, at least set up and drawn), in menu order."""
    games = ((key, _load(key)) for key in [*registered_games(), *_REGISTERED])
    return [key for key, game in games if game is not None and (game.playable or include_unplayable)]


def get_game(key: str, include_unplayable: bool = False) -> Game:
    """The game for ``key``; raises ``OptionError`` with a sentence for an unknown or unavailable key."""
    key = key.strip().lower()
    game = _load(key)
    if game is not None and not (game.playable or include_unplayable):
        raise OptionError(f"{game.title} cannot be played yet: see the README's status table.")
    if game is None:
        raise OptionError(f"There is no game {key!r} here. Games: {', '.join(available_games())}.")
    return game
