"""The registry of games: one key per game, the same in commands, the CLI and storage.

A game registers once, here: one line ``key: package``. Everything else is found by that package's name:

- ``rules/<package>/`` exposes ``GAME``, an instance of :class:`rules.engine.Game` (the rules, the AI levels,
  the round-status hook ``Game.round_status``);
- ``render/<package>.py`` draws its views (``render(view)``, optionally ``render_region``); the conformance
  suite fails for a registered game without one;
- ``bot/discord/forms/<package>.py``, optional, holds a guided form ``FORM`` for the decisions a flat list of
  choices serves badly.

A game whose rules package is not present is simply not available.
"""

from __future__ import annotations

import importlib
from functools import cache

from .core import Game, OptionError

#: game key -> package name (``rules/<package>``, ``render/<package>.py``, ...). The order is the order menus
#: show. Adding a game is one line here.
GAMES: dict[str, str] = {
    "principes": "principes",
    "the-prince": "the_prince",
    "game-of-princes": "game_of_princes",
    "pharaoh": "pharaoh",
    "babylone": "babylone",
}


def package_of(key: str) -> str | None:
    """The package name a built-in game's parts live under (None for a game registered at run time)."""
    return GAMES.get(key)


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
    return _load_builtin(key) if key in GAMES else None


@cache
def _load_builtin(key: str) -> Game | None:
    try:
        module = importlib.import_module(f"rules.{GAMES[key]}")
    except ModuleNotFoundError as error:
        if error.name == f"rules.{GAMES[key]}":
            return None
        raise
    game = getattr(module, "GAME", None)
    return game if isinstance(game, Game) else None


def available_games(include_unplayable: bool = False) -> list[str]:
    """Keys of the games that can be played (or, with the flag, at least set up and drawn), in menu order."""
    games = ((key, _load(key)) for key in [*GAMES, *_REGISTERED])
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
