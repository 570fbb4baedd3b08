"""Pharaoh (Andy Looney, Looney Pyramids): roll for movement points, bring three pyramids onto a goal line.

Notation: ``M c3`` steps your medium pyramid to c3 (or enters it there from your reserve); ``S``, ``M``, ``L``
are the small (1 pip), medium (2) and large (3) pyramids. ``b2-c3`` names the piece by the cell it stands on.
``end`` ends the turn. Each step is one action; the points rolled and the points left are in every view.

>>> from rules.engine import Rng
>>> state = GAME.setup(2, {}, Rng.for_event(1, 0))
>>> GAME.parse(state, state["to_move"], "small to c1")
'S c1'
>>> GAME.legal_actions(state, state["to_move"])[-1]
'end'
"""

from __future__ import annotations

from .board import GOAL_LINES, cell_index, cell_name
from .game import END, TURN_LIMIT, Pharaoh, Step
from .state import PharaohState, PharaohView

GAME = Pharaoh()

__all__ = [
    "END",
    "GAME",
    "GOAL_LINES",
    "TURN_LIMIT",
    "Pharaoh",
    "PharaohState",
    "PharaohView",
    "Step",
    "cell_index",
    "cell_name",
]
