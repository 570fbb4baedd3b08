"""A seat's own turn answered ahead (issue 47): while an earlier seat plays, a later one goes through its next
turn on a preview (``Game.turn_ahead_state``) and its answers are kept (``standing.AHEAD_TURN``), to be given in
turn, when the turn comes, each while it is still legal then. The rules' order is kept: the seat only gives up
seeing what the earlier seats do first, by its own choice.

A preview may show a seat only what it would know at its turn whatever happens before: it stops before any
answer whose effect draws on chance, shows something hidden (``Game.reveals_hidden``: a card drawn, a tile turned up) or
hands the turn to someone else; the answers after that point are asked when the turn comes.

>>> from rules.engine.standing import turn_order, turn_steps
>>> order = turn_order("turn-r1-I-pma", [("building", "build castle x"), ("building", "done")])
>>> turn_steps(order, "turn-r1-I-pma")
[('building', 'build castle x'), ('building', 'done')]
"""

from __future__ import annotations

from collections.abc import Sequence

from .core import Decision, Game, IllegalAction, RulesError, S, V
from .rng import NoChance, ReplayMismatch


class Unseen(RuntimeError):
    """A preview reached what its seat may not know there: another seat's choice still sealed (a game raises it
    where its state lacks that choice). The preview stops, as at a die."""


def with_own_answer(game: Game[S, V], state: S, seat: int, action: str) -> S | None:
    """A copy of ``state`` with the seat's own sealed answer ``action`` applied, the others' still unknown: what
    the seat's turns ahead are offered from while its choice waits sealed for the others' (the host keeps it out
    of the state until the last one is in). None when applying it draws on chance, shows something hidden or is
    not allowed."""
    try:
        after = game.apply(state, seat, action, NoChance()).state
    except (ReplayMismatch, Unseen, RulesError):
        return None
    return None if game.reveals_hidden(state, after, seat) else after


def turn_decision(game: Game[S, V], preview: S, seat: int, slot: str) -> Decision | None:
    """The seat's decision in the preview when it is the only one asked and the decision belongs to the turn of
    ``slot``; else None (the turn is over, or waits for someone else)."""
    pending = game.pending(preview)
    decision = pending.get(seat)
    if decision is None or set(pending) != {seat}:
        return None
    return decision if game.turn_slot(game.view(preview, seat), seat, decision) == slot else None


def preview_after(game: Game[S, V], preview: S, seat: int, slot: str, action: str) -> S | None:
    """The preview once the seat answered ``action``, when its turn goes on with another decision of its own
    that the preview may show; None when the turn is over there, or the answer draws on chance, shows something
    hidden or asks someone else (the answer itself is still given in turn: only what follows it is asked)."""
    try:
        after = game.apply(preview, seat, action, NoChance()).state
    except (ReplayMismatch, IllegalAction, Unseen):
        return None
    if game.reveals_hidden(preview, after, seat):
        return None
    return after if turn_decision(game, after, seat, slot) is not None else None


def replay_steps(game: Game[S, V], state: S, seat: int, slot: str, actions: Sequence[str]) -> S | None:
    """The preview of the seat's upcoming turn of ``slot`` after the answers given so far (None: the turn is
    not upcoming, or the preview stopped before the last of them)."""
    preview = game.turn_ahead_state(state, seat, slot)
    for action in actions:
        if preview is None:
            return None
        preview = preview_after(game, preview, seat, slot, action)
    return preview
