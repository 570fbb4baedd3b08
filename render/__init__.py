"""Pure renderers: a game's view in, a PIL image out. They never receive a game state."""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from PIL import Image

from rules.engine.registry import GAMES, package_of

from .common import encode_png


class RenderError(Exception):
    """A region or view the renderer cannot draw; the message is for the player."""


class _Renderer(Protocol):
    def render(self, view: dict[str, Any]) -> Image.Image: ...


def renderer_module(game_key: str) -> Any:
    """``render/<package>.py`` of a registered game (see ``rules.engine.registry``): ``render(view) -> Image``,
    optionally ``render_region(view, region)``."""
    package = package_of(game_key)
    if package is None:
        raise RenderError(f"There is no board image for {game_key!r}.")
    return importlib.import_module(f"render.{package}")


def rendered_games() -> list[str]:
    """The registered games, each of which has a renderer (the conformance suite checks it)."""
    return list(GAMES)


def render_view(game_key: str, view: dict[str, Any], region: str | None = None) -> Image.Image:
    """The image of ``view``; ``region`` asks for a zoomed crop where the game offers one."""
    module = renderer_module(game_key)
    if region:
        render_region = getattr(module, "render_region", None)
        if render_region is None:
            raise RenderError("This game's board has no regions: use /board without one.")
        image: Image.Image = render_region(view, region)
        return image
    image = module.render(view)
    return image


def render_png(game_key: str, view: dict[str, Any], region: str | None = None) -> bytes:
    """Render and encode in one call (what front-ends run in a worker thread)."""
    return encode_png(render_view(game_key, view, region))


def warm_up() -> list[str]:
    """Draw each game's opening board once (static layers, fonts, recurring labels), so that the first board
    players ask for after a restart does not wait for them (about 150 ms for PRINCIPES). Returns the games
    drawn. Slow: a bot runs it in a worker thread after start-up."""
    from rules.engine import Rng, get_game

    drawn = []
    for key in rendered_games():
        game = get_game(key, include_unplayable=True)
        state = game.setup(game.min_players, {}, Rng.for_event(0, 0))
        render_png(key, game.view(state, None))
        drawn.append(key)
    return drawn


__all__ = [
    "RenderError",
    "renderer_module",
    "rendered_games",
    "encode_png",
    "render_png",
    "render_view",
    "warm_up",
]
