"""Pure renderers: a game's view in, a PIL image out. They never receive a game state."""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from PIL import Image

from .common import encode_png

#: game key -> module with ``render(view) -> Image`` (and optionally ``render_region(view, region)``)
RENDER_MODULES: dict[str, str] = {
    "principes": "render.principes",
    "the-prince": "render.the_prince",
    "game-of-princes": "render.game_of_princes",
    "pharaoh": "render.pharaoh",
    "babylone": "render.babylone",
}


class RenderError(Exception):
    """A region or view the renderer cannot draw; the message is for the player."""


class _Renderer(Protocol):
    def render(self, view: dict[str, Any]) -> Image.Image: ...


def _module(game_key: str) -> Any:
    return importlib.import_module(RENDER_MODULES[game_key])


def render_view(game_key: str, view: dict[str, Any], region: str | None = None) -> Image.Image:
    """The image of ``view``; ``region`` asks for a zoomed crop where the game offers one."""
    module = _module(game_key)
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
    for key in RENDER_MODULES:
        game = get_game(key, include_unplayable=True)
        state = game.setup(game.min_players, {}, Rng.for_event(0, 0))
        render_png(key, game.view(state, None))
        drawn.append(key)
    return drawn


__all__ = ["RENDER_MODULES", "RenderError", "encode_png", "render_png", "render_view", "warm_up"]
