"""The shapes of Pharaoh's state and view: TypedDicts, so plain JSON at run time that mypy checks.

Pharaoh hides nothing: every seat's view (and the public's) is the whole state plus two board facts a renderer
or a player needs. Its only decision is the player to move's next step (``move``), answered by an action text.
"""

from __future__ import annotations

from typing import Literal, TypedDict

#: the step just taken, for the image's arrow: which seat's which piece (0-2: small, medium, large) went from
#: which cell (None: entered from the reserve) to which, and the (seat, piece) it captured
LastStep = TypedDict(
    "LastStep",
    {"seat": int, "piece": int, "from": str | None, "to": str, "captured": list[int] | None},
)


class PharaohState(TypedDict):
    players: int
    #: dice rolled per turn (1 or 2), whose sum is the movement points
    dice: int
    #: the two-player goal line: "between" the seats (b3-c3-d3) or "across" (c2-c3-c4)
    goal: Literal["between", "across"]
    #: each seat's colour and edge ("south", "west", ...), in seat order
    colours: list[str]
    edges: list[str]
    #: seat -> its small, medium and large pyramid's cell name, None while in reserve
    pieces: list[list[str | None]]
    #: who rolled first: rounds of [seat, roll], the tied seats rolling again
    rolloff: list[list[list[int]]]
    to_move: int
    #: turns begun so far (the 300-turn draw counts them)
    turn: int
    #: this turn's dice, their sum as points, the points left and the steps taken (the decision id counter)
    roll: list[int]
    points: int
    left: int
    steps: int
    last: LastStep | None
    winner: int | None
    #: the winner's goal line, cell names
    win_line: list[str] | None
    draw: bool
    turn_limit: int


class PharaohView(PharaohState):
    """The whole state (nothing is hidden) and the board facts the state only implies."""

    #: the goal lines that count in this game, as cell names
    goal_lines: list[list[str]]
    #: seat -> the cells it enters on
    edge_cells: list[list[str]]
