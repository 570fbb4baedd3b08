"""The registry of games: one key per game, the same in commands, the CLI and storage.

Each game lives in its own package ``rules/<package>`` exposing ``GAME``, an instance of
:class:`rules.engine.Game`. A game whose package is not present yet is simply not available.
"""

from __future__ import annotations

import importlib
from functools import cache

from .core import Game, OptionError

#: game key -> module holding ``GAME``. The order is the order menus show.
GAME_MODULES: dict[str, str] = {
    "principes": "rules.principes",
    "the-prince": "rules.the_prince",
    "game-of-princes": "rules.game_of_princes",
    "pharaoh": "rules.pharaoh",
    "babylone": "rules.babylone",
}


@cache
def _load(key: str) -> Game | None:
    try:
        module = importlib.import_module(GAME_MODULES[key])
    except ModuleNotFoundError as error:
        if error.name == GAME_MODULES[key]:
            return None
        raise
    game = getattr(module, "GAME", None)
    return game if isinstance(game, Game) else None


def available_games() -> list[str]:
    """Keys of the games that are implemented, in menu order."""
    return [key for key in GAME_MODULES if _load(key) is not None]


def get_game(key: str) -> Game:
    """The game for ``key``; raises ``OptionError`` with a sentence for an unknown or unavailable key."""
    key = key.strip().lower()
    game = _load(key) if key in GAME_MODULES else None
    if game is None:
        raise OptionError(f"There is no game {key!r} here. Games: {', '.join(available_games())}.")
    return game
