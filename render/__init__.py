"""Pure renderers: a game's view in, a PIL image out. They never receive a game state."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from i18n import DEFAULT, name_in
from rules.engine.registry import package_of, registered_games, render_module_name

from .alt import ALT_TEXT_LIMIT
from .common import encode_png, seat_label


class RenderError(Exception):
    """A region or view the renderer cannot draw; the message is for the player."""


class _Renderer(Protocol):
    def render(self, view: dict[str, Any]) -> Image.Image: ...


@dataclass(frozen=True)
class MovedLine:
    """A log line that moves one unit from a place to another, read back from its words (a game's
    ``read_move_line``), for the catch-up digest's net effect: its text is ``head + origin + middle + target +
    tail``, so the same words say where a chain of its moves began and ended."""

    #: whose moves a takeback takes back, latest first (a player's Movement, an army a player moves)
    mover: str
    #: what moved ("Knight"): one mover's moves of one kind of unit chain (A to B then B to C is A to C)
    unit: str
    head: str
    origin: str
    middle: str
    target: str
    tail: str

    def to(self, target: str) -> str:
        """This line's words for a move from its origin to ``target``."""
        return f"{self.head}{self.origin}{self.middle}{target}{self.tail}"


@dataclass(frozen=True)
class TakenBackLine:
    """A log line that takes back ``mover``'s latest move (of ``unit`` to ``target``, when its words say)."""

    mover: str
    unit: str | None = None
    target: str | None = None

    def takes_back(self, move: MovedLine) -> bool:
        return (
            self.mover == move.mover and self.unit in (None, move.unit) and self.target in (None, move.target)
        )


#: a game's reader of its log lines (kind, text): a unit's move, a takeback, or None for any other line
MoveReader = Callable[[str, str], "MovedLine | TakenBackLine | None"]


def renderer_module(game_key: str) -> Any:
    """``render/<package>.py`` of a registered game (see ``rules.engine.registry``): ``render(view) -> Image``,
    optionally ``render_region(view, region)``."""
    name = render_module_name(game_key)
    if name is None:
        raise RenderError(f"There is no board image for {game_key!r}.")
    return importlib.import_module(name)


def rendered_games() -> list[str]:
    """The games registered by a line, each of which has a renderer (the conformance suite checks it)."""
    return registered_games()


def in_language(view: dict[str, Any], locale: str | None) -> dict[str, Any]:
    """``view`` to be drawn with its words in ``locale``'s language (the renderers read ``view["locale"]``), its
    AI seats named in that language too; English needs no mark."""
    if not locale or locale == DEFAULT:
        return view
    names = [name_in(locale, str(name)) for name in view.get("seat_names") or []]
    return {**view, "locale": locale, **({"seat_names": names} if names else {})}


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


def alt_text(game_key: str, view: dict[str, Any]) -> str:
    """The description of ``view``'s image for screen readers, within Discord's 1,024 characters: built from
    the same view as the image, so it tells exactly what the image shows to the same audience."""
    text: str = renderer_module(game_key).alt_text(view)
    return text[:ALT_TEXT_LIMIT]


def player_label(game_key: str, view: dict[str, Any], seat: int) -> str:
    """A player as the game's image names them, with what their pieces show where that helps ("alice (red)",
    "bob (Masovia)"); the name alone for games whose seats have no colour of their own."""
    label = getattr(renderer_module(game_key), "player_label", None)
    return seat_label(view, seat) if label is None else str(label(view, seat))


def view_changes(game_key: str, before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed for a seat between two of its own views, one sentence each, for games that call their
    players' own changes out in the catch-up digest (PRINCIPES: lands, tracks, hand); [] for the others."""
    changes = getattr(renderer_module(game_key), "view_changes", None)
    return [] if changes is None else list(changes(before, after))


def move_reader(game_key: str) -> MoveReader | None:
    """The game's reader of the log lines that move its units and take such moves back, for the catch-up
    digest's net effect (PRINCIPES: the Movement's and the armies'); None for games without one."""
    if package_of(game_key) is None:
        return None  # a game without a board image (a test's) has no words to read either
    reader: MoveReader | None = getattr(renderer_module(game_key), "read_move_line", None)
    return reader


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
    "ALT_TEXT_LIMIT",
    "MoveReader",
    "MovedLine",
    "RenderError",
    "TakenBackLine",
    "alt_text",
    "encode_png",
    "move_reader",
    "player_label",
    "render_png",
    "render_view",
    "renderer_module",
    "rendered_games",
    "view_changes",
    "warm_up",
]
