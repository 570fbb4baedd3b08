"""What a seat sees of the rules of play: the public play sub-state, and for a seat its private part, its
standing answers, its hand with labels and the secrets only it may know (P1's ``state.build_view`` shows the
rest of the state)."""

from __future__ import annotations

from typing import cast

from rules.engine import Game

from ..schema import PlayView, PState, PView, You
from ..state import build_view
from .common import principality_of
from .naming import hand_label

PRIVATE_KEYS = ("private", "standing")


def view_play(state: PState, view: PView, seat: int | None) -> PView:
    """Adds the public play state to P1's view; a seat also sees its private part and standing answers."""
    play = state.get("play")
    if play is None:
        return view
    public = cast(PlayView, {key: value for key, value in play.items() if key not in PRIVATE_KEYS})
    view["play"] = Game.copy_state(public)
    if seat is not None and 0 <= seat < len(state["seats"]):
        code = principality_of(state, seat)
        you = view.setdefault("you", cast(You, {}))
        you["private"] = Game.copy_state(play["private"][code])
        you["hand_labels"] = [hand_label(card) for card in state["players"][code]["hand"]]
        you["standing"] = dict(play["standing"][code])
        you["secrets"] = secrets_play(state, seat)
    return view


def seat_view(state: PState, seat: int | None) -> PView:
    """The whole view of ``seat`` (``None``: the public's): P1's view with the play state added."""
    return view_play(state, build_view(state, seat), seat)


def secrets_play(state: PState, seat: int) -> list[str]:
    """Distinctive strings of the seat's sealed choices: its plan and its 'after battle' choice."""
    play = state.get("play")
    if play is None or not 0 <= seat < len(state["seats"]):
        return []
    code = principality_of(state, seat)
    result = []
    plan = state["players"][code]["plan"]
    if plan is not None:
        result.append(f"plan:{code}:r{state['round']}:{','.join(plan)}")
    after = play["private"][code].get("after")
    if after is not None and play["battle"] is not None:
        result.append(f"after:{code}:b{play['battle']['no']}:{','.join(after) or 'pass'}")
    return result
