"""Pharaoh's rules over the engine contract: dice-driven movement points, entries, captures, goal lines."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.engine import (
    Applied,
    Decision,
    Event,
    Game,
    IllegalAction,
    InvalidAction,
    Option,
    Outcome,
    Rng,
    plural,
    seat_ref,
)
from rules.engine.core import Exercise, StrengthMatch
from rules.engine.thinking import split_level

from . import ai
from .board import (
    EDGE_CELLS,
    GOAL_LINES,
    NEIGHBOURS,
    PIECE_LETTERS,
    PIECE_NAMES,
    SEAT_EDGES,
    cell_index,
    cell_name,
    goal_line_names,
    step_multiplier,
)
from .state import PharaohState, PharaohView

COLOURS = ("red", "yellow", "green", "blue")
TURN_LIMIT = 300
END = "end"

_PIECE_WORDS = {
    "s": 0,
    "small": 0,
    "1": 0,
    "m": 1,
    "medium": 1,
    "med": 1,
    "2": 1,
    "l": 2,
    "large": 2,
    "big": 2,
    "3": 2,
}
_END_WORDS = {"end", "end turn", "endturn", "done", "pass", "stop", "end-turn"}
_PIECE_RE = re.compile(
    r"^(small|medium|med|large|big|[sml123])\s*(?:[-:>@]|\s+to|\s+at|\s+on|\s)?\s*"
    r"([a-e][1-5])$"
)
_FROM_TO_RE = re.compile(r"^([a-e][1-5])\s*(?:[-:>x]|\s+to|\s)?\s*([a-e][1-5])$")

RULES_NOTES = """\
**Pharaoh** (Andy Looney), 2-4 players, each with a small (1 pip), a medium (2) and a large (3) pyramid.
- Board: 5x5, corners blocked. Cells are named `a1`-`e5` (files a-e west to east, ranks 1-5 south to north).
  Seats sit clockwise: 2 players south and north; 3 players south, west, north; 4 players south, west, north,
  east. Your three entry cells are the non-corner cells of your edge.
- First player: everyone rolls a die, the highest starts, ties roll again (shown on the board). Then clockwise.
- Each turn starts with a roll: that many movement points (option `dice=2`: the sum of two dice).
- A move is one step: `M c3` moves your medium pyramid one cell to c3 (or enters it at c3 from your reserve).
  `b2-c3` also works. A step costs the piece's pips orthogonally, twice that diagonally; entering costs its
  pips. Points may be split between pieces and a piece may step several times. `end` ends your turn; unused
  points are lost.
- You may not enter a cell with your own piece or a larger enemy piece. Entering a cell with an equal or
  smaller enemy piece captures it: it goes back to its owner's reserve and may re-enter later.
- A piece on the board never goes back to the reserve by choice: only a capture sends it there.
- Win, checked after every step (even with points left): your three pieces on a goal line, a 3-cell line
  through the centre c3. 2 players: the row b3-c3-d3 between you (option `goal=across`: the column c2-c3-c4
  instead). 3 players: either of those. 4 players: either of those or either diagonal.
- The turn ends by itself when no step is affordable with the points left; right after the roll, that
  passes the turn to the next player.
- 300 turns without a win: the game is a draw.
- On a deadline your turn ends (remaining points are forfeited).
- Undo: a step that did not end your turn, before anyone else acts (a roll can never be taken back).
- Dice come from the game's seed; every roll is written in the log with the turn it starts.
- AI levels: `expectimax` (the default) searches its whole turn, then the next player's answer to each
  possible roll; `expert` (2 players) looks two turns deep: the next player's answer to each roll, then its
  own next roll and turn, for up to a second per step (`/game ai expert:3s` lets it think up to 3 s); it won
  60 of 100 games against `expectimax`. `greedy` searches its whole turn and weighs only the odds of the next
  rolls. With 3 or 4 players `expert` plays as `expectimax`.
"""


@dataclass(frozen=True)
class Step:
    """One legal step: ``piece`` 0-2 (small, medium, large) to ``target`` for ``cost`` points."""

    piece: int
    source: int | None
    target: int
    cost: int
    captured: tuple[int, int] | None  # (seat, piece) of a captured enemy

    @property
    def action(self) -> str:
        return f"{PIECE_LETTERS[self.piece]} {cell_name(self.target)}"


def _occupancy(pieces: Sequence[Sequence[str | None]]) -> dict[int, tuple[int, int]]:
    """cell -> (seat, piece) for every piece on the board."""
    return {
        cell_index(cell): (seat, piece)
        for seat, own in enumerate(pieces)
        for piece, cell in enumerate(own)
        if cell is not None
    }


def _roll_text(roll: Sequence[int]) -> str:
    return str(roll[0]) if len(roll) == 1 else f"{'+'.join(map(str, roll))} = {sum(roll)}"


class Pharaoh(Game[PharaohState, PharaohView]):
    key = "pharaoh"
    title = "Pharaoh"
    min_players = 2
    max_players = 4
    has_chance = True
    options = (
        Option("dice", "1", ("1", "2"), "movement points per turn: one die or the sum of two"),
        Option(
            "goal",
            "between",
            ("between", "across"),
            "2 players: the goal line between you (b3-c3-d3) or across it (c2-c3-c4)",
        ),
    )
    #: the first is the default: ``expectimax``, quick; ``expert`` won 60-40 against it (``bench ai``, the goal's
    #: bare minimum) for about 0.3 s per step
    ai_levels = ("expectimax", "expert", "greedy")
    #: how the shared suites and benches play it; dice decide much of a Pharaoh game (expectimax itself beats
    #: greedy about 70-30): bench ai's match is 100 games, not 40, so the share is known to about +-5% (one
    #: standard error) rather than +-8%
    exercise = Exercise(
        level="greedy",
        actions=600,
        quick=(2, "greedy"),
        strength=StrengthMatch("expert", "expectimax", 100, 0.60),
    )
    rules_notes = RULES_NOTES
    # placeholder kinds of Pharaoh's catalog entries: a piece and what it captured (texts localised in turn)
    text_params = frozenset({"piece", "captured"})

    # ---- setup ------------------------------------------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> PharaohState:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        state: PharaohState = {
            "players": num_players,
            "dice": int(opts["dice"]),
            "goal": "between" if opts["goal"] == "between" else "across",
            "colours": list(COLOURS[:num_players]),
            "edges": list(SEAT_EDGES[num_players]),
            "pieces": [[None, None, None] for _ in range(num_players)],
            "rolloff": self._roll_off(num_players, rng),
            "to_move": 0,
            "turn": 0,
            "roll": [],
            "points": 0,
            "left": 0,
            "steps": 0,
            "last": None,
            "winner": None,
            "win_line": None,
            "draw": False,
            "turn_limit": TURN_LIMIT,
        }
        first = max(state["rolloff"][-1], key=lambda entry: entry[1])[0]
        self._begin_turn(state, first, rng, [])
        return state

    @staticmethod
    def _roll_off(num_players: int, rng: Rng) -> list[list[list[int]]]:
        """Rounds of [seat, roll]; the seats tied for the highest roll again until one is highest."""
        rounds: list[list[list[int]]] = []
        contenders = list(range(num_players))
        while len(contenders) > 1:
            rolls = [[seat, rng.roll(6)] for seat in contenders]
            rounds.append(rolls)
            best = max(value for _, value in rolls)
            contenders = [seat for seat, value in rolls if value == best]
        return rounds

    # ---- turns --------------------------------------------------------------------------------------------------
    def _begin_turn(self, state: PharaohState, seat: int, rng: Rng, events: list[Event]) -> None:
        """Roll for ``seat``; while a player can pay for no step, their turn passes to the next player."""
        while True:
            roll = [rng.roll(6) for _ in range(state["dice"])]
            state.update(
                {
                    "to_move": seat,
                    "turn": state["turn"] + 1,
                    "roll": roll,
                    "points": sum(roll),
                    "left": sum(roll),
                    "steps": 0,
                }
            )
            events.append(
                Event(
                    "roll",
                    f"Turn {state['turn']}: {self._who(state, seat)} rolls "
                    f"{_roll_text(roll)}: {plural(sum(roll), 'movement point')}.",
                )
            )
            if self.steps(state, seat):
                return
            events.append(Event("pass", f"{self._who(state, seat)} has no step to pay for: the turn passes."))
            if self._turn_limit_reached(state, events):
                return
            seat = (seat + 1) % state["players"]

    def _end_turn(self, state: PharaohState, rng: Rng, events: list[Event]) -> None:
        if not self._turn_limit_reached(state, events):
            self._begin_turn(state, (state["to_move"] + 1) % state["players"], rng, events)

    @staticmethod
    def _turn_limit_reached(state: PharaohState, events: list[Event]) -> bool:
        if state["turn"] < state["turn_limit"]:
            return False
        state["draw"] = True
        events.append(Event("draw", Pharaoh._draw_reason(state)))
        return True

    @staticmethod
    def _draw_reason(state: PharaohState) -> str:
        return f"{state['turn_limit']} turns without a win."

    @classmethod
    def _win_reason(cls, state: PharaohState, seat: int) -> str:
        """The winning event's words and the outcome's reason alike (the host shows a reason once)."""
        line = state["win_line"]
        assert line is not None  # set together with the winner
        return f"{cls._who(state, seat)} holds the goal line {'-'.join(line)}."

    @staticmethod
    def _who(state: PharaohState, seat: int) -> str:
        return f"{seat_ref(seat)} ({state['colours'][seat]})"

    # ---- queries ------------------------------------------------------------------------------------------------
    def _finished(self, state: PharaohState) -> bool:
        return state["winner"] is not None or bool(state["draw"])

    def pending(self, state: PharaohState) -> dict[int, Decision]:
        if self._finished(state):
            return {}
        seat = state["to_move"]
        prompt = (
            f"You rolled {_roll_text(state['roll'])}: {state['left']} of {plural(state['points'], 'point')} left. "
            f"Step a piece (`M c3`), enter one from your reserve, or `end` the turn."
        )
        return {seat: Decision(f"t{state['turn']}s{state['steps']}", "move", prompt)}

    def steps(self, state: PharaohState, seat: int) -> list[Step]:
        """Every step ``seat`` may take and pay for with the points left (ignores whose turn it is)."""
        occupied = _occupancy(state["pieces"])
        left = state["left"]
        found = []
        for piece, cell in enumerate(state["pieces"][seat]):
            pips = piece + 1
            if cell is None:
                targets = [(target, 1) for target in EDGE_CELLS[state["edges"][seat]]]
                source = None
            else:
                source = cell_index(cell)
                targets = list(NEIGHBOURS[source])
            for target, multiplier in targets:
                cost = pips * multiplier
                holder = occupied.get(target)
                if cost > left or (holder is not None and (holder[0] == seat or holder[1] > piece)):
                    continue
                found.append(Step(piece, source, target, cost, holder))
        return found

    def legal_actions(self, state: PharaohState, seat: int) -> list[str]:
        if seat not in self.pending(state):
            return []
        return [step.action for step in self.steps(state, seat)] + [END]

    def outcome(self, state: PharaohState) -> Outcome:
        if state["winner"] is not None:
            return Outcome(True, (state["winner"],), reason=self._win_reason(state, state["winner"]))
        if state["draw"]:
            return Outcome(True, draw=True, reason=self._draw_reason(state))
        return Outcome()

    def view(self, state: PharaohState, seat: int | None) -> PharaohView:
        """The whole state (nothing is hidden) plus the board facts a renderer or a player needs."""
        return {
            **self.copy_state(state),
            "goal_lines": [
                [cell_name(cell) for cell in GOAL_LINES[name]]
                for name in goal_line_names(state["players"], state["goal"])
            ],
            "edge_cells": [[cell_name(cell) for cell in EDGE_CELLS[edge]] for edge in state["edges"]],
        }

    # ---- seats' sides, for statistics (issue 44) ------------------------------------------------------------
    side_word = "colour"

    def seat_sides(self, view: PharaohView, num_players: int) -> list[str]:
        """Each seat's colour."""
        colours = view.get("colours") or []
        return [str(colour) for colour in colours[:num_players]] or super().seat_sides(view, num_players)

    # ---- notation -----------------------------------------------------------------------------------------------
    def parse(self, state: PharaohState, seat: int, text: str) -> str:
        cleaned = " ".join(text.strip().lower().split())
        if cleaned in _END_WORDS:
            return END
        match = _PIECE_RE.match(cleaned)
        if match:
            return f"{PIECE_LETTERS[_PIECE_WORDS[match.group(1)]]} {match.group(2)}"
        match = _FROM_TO_RE.match(cleaned)
        if match:
            return self._from_to(state, seat, match.group(1), match.group(2))
        raise InvalidAction(
            "Write a step as a piece and a cell, for example `M c3` (medium to c3) or `b2-c3`, "
            "or `end` to end your turn."
        )

    def _from_to(self, state: PharaohState, seat: int, source: str, target: str) -> str:
        pieces = state["pieces"][seat] if 0 <= seat < len(state["pieces"]) else []
        if source not in pieces:
            raise InvalidAction(
                f"You have no piece on {source}: write the piece and the cell, e.g. `M {target}`."
            )
        return f"{PIECE_LETTERS[pieces.index(source)]} {target}"

    def describe(self, state: PharaohState, action: str) -> str:
        seat = state["to_move"]
        if action == END:
            return f"end the turn ({plural(state['left'], 'point')} unused)"
        step = self._find_step(state, seat, action)
        if step is None:
            return action
        return self._step_text(state, step)

    def _step_text(self, state: PharaohState, step: Step) -> str:
        name = PIECE_NAMES[step.piece]
        if step.source is None:
            text = f"enter {name} at {cell_name(step.target)} ({plural(step.cost, 'point')})"
        else:
            way = "diagonally" if step_multiplier(step.source, step.target) == 2 else "orthogonally"
            cost = plural(step.cost, "point")
            text = f"{name} {cell_name(step.source)} to {cell_name(step.target)} {way} ({cost})"
        if step.captured is not None:
            owner, piece = step.captured
            text += f", capturing {state['colours'][owner]} {PIECE_NAMES[piece]}"
        return text

    def _find_step(self, state: PharaohState, seat: int, action: str) -> Step | None:
        return next((step for step in self.steps(state, seat) if step.action == action), None)

    # ---- apply --------------------------------------------------------------------------------------------------
    def apply(self, state: PharaohState, seat: int, action: str, rng: Rng) -> Applied[PharaohState]:
        if seat not in self.pending(state):
            raise IllegalAction("It is not your turn.")
        new = self.copy_state(state)
        events: list[Event] = []
        if action == END:
            events.append(
                Event(
                    "end-turn",
                    f"{self._who(new, seat)} ends the turn ({plural(new['left'], 'point')} unused).",
                )
            )
            self._end_turn(new, rng, events)
            return Applied(new, events)
        step = self._find_step(new, seat, action)
        if step is None:
            raise IllegalAction(self._why_illegal(new, seat, action))
        self._do_step(new, seat, step, events)
        if new["winner"] is None and not self.steps(new, seat):
            events.append(
                Event(
                    "end-turn",
                    f"{self._who(new, seat)} has no affordable step left "
                    f"({plural(new['left'], 'point')}): the turn ends.",
                )
            )
            self._end_turn(new, rng, events)
        return Applied(new, events)

    def _do_step(self, state: PharaohState, seat: int, step: Step, events: list[Event]) -> None:
        events.append(
            Event(
                "capture" if step.captured else ("enter" if step.source is None else "move"),
                f"{self._who(state, seat)}: {self._step_text(state, step)}; "
                f"{plural(state['left'] - step.cost, 'point')} left.",
            )
        )
        if step.captured is not None:
            owner, piece = step.captured
            state["pieces"][owner][piece] = None
        state["pieces"][seat][step.piece] = cell_name(step.target)
        state["left"] -= step.cost
        state["steps"] += 1
        state["last"] = {
            "seat": seat,
            "piece": step.piece,
            "from": None if step.source is None else cell_name(step.source),
            "to": cell_name(step.target),
            "captured": None if step.captured is None else list(step.captured),
        }
        line = self._winning_line(state, seat)
        if line is not None:
            state["winner"], state["win_line"] = seat, line
            events.append(Event("win", self._win_reason(state, seat)))

    @staticmethod
    def _winning_line(state: PharaohState, seat: int) -> list[str] | None:
        cells = [cell for cell in state["pieces"][seat] if cell is not None]
        if len(cells) < len(PIECE_LETTERS):  # a piece in reserve
            return None
        held = {cell_index(cell) for cell in cells}
        for name in goal_line_names(state["players"], state["goal"]):
            if held == set(GOAL_LINES[name]):
                return [cell_name(cell) for cell in GOAL_LINES[name]]
        return None

    def _why_illegal(self, state: PharaohState, seat: int, action: str) -> str:
        """A sentence saying what is wrong with a well-formed step that is not legal now."""
        parts = action.split()
        if len(parts) != 2 or parts[0] not in PIECE_LETTERS:
            return f"{action!r} is not a step: write a piece and a cell, e.g. `M c3`, or `end`."
        piece = PIECE_LETTERS.index(parts[0])
        try:
            target = cell_index(parts[1])
        except ValueError:
            return f"{parts[1]} is not a cell of the board (the corners are blocked)."
        pips, name = piece + 1, PIECE_NAMES[piece]
        cell = state["pieces"][seat][piece]
        if cell is None:
            if target not in EDGE_CELLS[state["edges"][seat]]:
                edge = ", ".join(cell_name(c) for c in EDGE_CELLS[state["edges"][seat]])
                return f"Your {name} pyramid is in reserve: it can only enter on your edge ({edge})."
            cost = pips
        else:
            multiplier = step_multiplier(cell_index(cell), target)
            if multiplier is None:
                return f"Your {name} pyramid on {cell} moves one cell at a time, and {parts[1]} is not next to it."
            cost = pips * multiplier
        if cost > state["left"]:
            return f"That step costs {plural(cost, 'point')} and you have {state['left']} left."
        holder = _occupancy(state["pieces"]).get(target)
        if holder is not None and holder[0] == seat:
            return f"Your own {PIECE_NAMES[holder[1]]} pyramid is on {parts[1]}."
        if holder is not None:
            return f"The {state['colours'][holder[0]]} pyramid on {parts[1]} is larger than your {name}."
        return f"{action!r} is not a legal step now."

    # ---- time, undo, AI -----------------------------------------------------------------------------------------
    def on_deadline(self, state: PharaohState, seat: int) -> str | None:
        return END if seat in self.pending(state) else None

    def can_undo(self, state_before: PharaohState, seat: int, action: str) -> bool:
        """A step may be taken back while the turn goes on: once it ends, a die has been rolled."""
        if action == END:
            return False
        step = self._find_step(state_before, seat, action)
        if step is None:
            return False
        after = self.copy_state(state_before)
        self._do_step(after, seat, step, [])
        return after["winner"] is None and bool(self.steps(after, seat))

    def choose_action(
        self, view: PharaohView, seat: int, legal: Sequence[str], level: str, rng: random.Random
    ) -> str:
        if split_level(level)[0] not in self.ai_levels:
            return rng.choice(list(legal))
        return ai.decide(view, seat, legal, level, rng)
