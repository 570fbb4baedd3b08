"""Game of Princes (Julien Griffon): race your Prince over your servitors' backs to your brother's carpets.

Notation: a piece letter, the cell it leaves, ``>``, the cell it reaches: ``S2,1>2,2`` (servitor),
``P3,1>2,1`` (Prince), ``C1,3>0,4`` (carpet); ``pass`` when there is no legal move. Cells are ``x,y`` on an
unbounded table: the original grid is columns 1-5 (left to right as Red sees it) and rows 1-5 (Red's row 1,
Blue's row 5); carpets that leave it get columns or rows 0, -1, ... or 6, 7, ..., so every cell keeps one
name all game. The letter may be left out (the uppermost pyramid on a cell is the only one that could move),
and ``2,1-2,2``, ``2 1 to 2 2`` or ``(2,1)>(2,2)`` are read too.

>>> from rules.engine import Rng
>>> state = GAME.setup(2, {}, Rng.for_event(1, 0))
>>> len(GAME.legal_actions(state, 0))
38
>>> GAME.parse(state, 0, "3 1 to 2 1")
'P3,1>2,1'
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

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
    seat_ref,
)
from rules.engine.core import Exercise, StrengthMatch
from rules.engine.thinking import split_level

from .ai import LEVELS, choose_move
from .board import (
    CARPET,
    COLOURS,
    NEUTRAL,
    PIECE_NAMES,
    SERVITOR,
    Board,
    Cell,
    Move,
    format_cell,
    format_move,
    in_original_grid,
    neighbours,
)

#: 200 moves (turns of either player, passes included) without a winner: a draw
MOVE_LIMIT = 200
REPETITIONS_FOR_DRAW = 3
PASS = "pass"
SEAT_NAMES = ("Red", "Blue")

_NUM = r"(-?\d{1,4})"
_CELL = rf"\(?\s*{_NUM}\s*[,.;:\s]\s*{_NUM}\s*\)?"
_PIECE = r"(?:(carpet|servitor|prince|c|s|p)\b\s*|(c|s|p))?"
#: the move separator may be "-", which also signs a number: both readings are tried (see ``parse``)
MOVE_READINGS = (
    re.compile(rf"^{_PIECE}{_CELL}\s*(?:->|>|-|→|to|\s)\s*{_CELL}$"),
    re.compile(rf"^{_PIECE}{_CELL}\s*(?:->|>|→|to|\s)\s*{_CELL}$"),
)
CANONICAL = re.compile(r"^([CSP])(-?\d+),(-?\d+)>(-?\d+),(-?\d+)$")

RULES_NOTES = """\
**Game of Princes** (Julien Griffon), Red against Blue. Each has 5 servitors (medium pyramids) and a Prince \
(small); 24 carpets (large) lie in a 5x5 grid with its centre missing: Red's 5 on row 1, Blue's 5 on row 5, \
the rest neutral. Servitors start on their own carpets, each Prince on the middle servitor.
- A turn is one move of one pyramid: a **carpet** (neutral or yours, never the opponent's) with no servitor on \
it steps one cell in any of 8 directions onto an empty cell, and afterwards all carpets must form one group \
touching by edges or corners; a **servitor** of yours not carrying your Prince steps one cell in 8 directions \
onto a carpet holding no servitor (no captures, no stacking); your **Prince** steps one cell orthogonally onto \
one of your servitors.
- The table has no edge: carpets may leave the original 5x5. Option `confined=yes` keeps them inside it.
- Option `long-jump=yes`: the Prince may also jump along a row or column over any number of cells holding no \
servitor (bare carpets or bare table) to the first servitor on that line, which must be his.
- You win when, after your move, your Prince rides one of your servitors on a carpet of your opponent's colour, \
wherever that carpet now lies.
- No legal move: you must `pass`; two passes in a row draw. The same whole position (every pyramid on the same \
cell, same player to move) for the third time draws. 200 moves in total (both players', passes included) \
without a winner draw.
- Red moves first; option `first=blue` lets Blue start.
- Notation: `S2,1>2,2` moves the servitor on 2,1 to 2,2 (`P` Prince, `C` carpet). Cells are `column,row`: the \
original grid is 1-5 by 1-5 with Red's row 1 and Blue's row 5; cells beyond it are numbered on (0, -1, ... \
or 6, 7, ...), and the image labels the columns and rows around the carpets. The letter is optional.
- No default on a deadline: the opponent may claim the game, wait, or hand the seat to the AI.
- Undo: your own last move, before your opponent moves.
- AI levels: `expert` (the default: alpha-beta for up to a second per move that presses its own attack, looks \
deepest along both Princes' routes and sees a walk to the goal that can no longer be stopped; `/game ai \
expert:3s` lets it think up to 3 s; against `hard` it won 7, lost none and drew 33 of 40 games), `hard` \
(alpha-beta deepened move by move over a fixed 2,000 positions, 3 to 4 plies, weighing both routes alike), \
`medium` (alpha-beta over 2 plies), `easy` (1 ply, now and then a random move). The searching levels count a \
draw as slightly worse than an even position: ahead, they play on rather than repeat.
"""


#: the last move, for the image's arrow: the cells moved from and to as [x, y] (None for a pass)
LastMove = TypedDict(
    "LastMove", {"seat": int, "action": str, "from": list[int] | None, "to": list[int] | None}
)


class Result(TypedDict):
    winner: int | None
    reason: str


class GameOfPrincesState(TypedDict):
    """The whole game; Game of Princes hides nothing, so it is also every seat's view."""

    to_move: int
    confined: bool
    long_jump: bool
    #: moves played (the 200-move draw counts them) and passes in a row
    moves: int
    passes: int
    last_move: LastMove | None
    #: position digest -> how often it occurred (threefold repetition)
    seen: dict[str, int]
    result: Result | None
    #: the position as sorted JSON lists: [x, y, colour], [x, y, seat], [x, y] per seat
    carpets: list[list[Any]]
    servitors: list[list[int]]
    princes: list[list[int]]


class GameOfPrinces(Game[GameOfPrincesState, GameOfPrincesState]):
    key = "game-of-princes"
    title = "Game of Princes"
    min_players = 2
    max_players = 2
    options = (
        Option("first", "red", ("red", "blue"), "which colour moves first"),
        Option("confined", "no", ("no", "yes"), "carpets must stay inside the original 5x5 grid"),
        Option(
            "long-jump",
            "no",
            ("no", "yes"),
            "the Prince may jump along a line over cells without servitors to the first servitor",
        ),
    )
    ai_levels = LEVELS
    #: how the shared suites and benches play it; bench ai's match writes strength.json
    exercise = Exercise(
        level="easy", actions=300, quick=(2, "easy"), strength=StrengthMatch("expert", "hard", 40, 0.65)
    )
    rules_notes = RULES_NOTES

    # ---- setup --------------------------------------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> GameOfPrincesState:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        first = COLOURS.index(opts["first"])
        state: GameOfPrincesState = {
            "carpets": [],
            "servitors": [],
            "princes": [],
            "to_move": first,
            "confined": opts["confined"] == "yes",
            "long_jump": opts["long-jump"] == "yes",
            "moves": 0,
            "passes": 0,
            "last_move": None,
            "seen": {},
            "result": None,
        }
        store_board(state, Board.start())
        _count_position(state, Board.start())
        return state

    # ---- queries ------------------------------------------------------------------------------------------
    def pending(self, state: GameOfPrincesState) -> dict[int, Decision]:
        if state["result"] is not None:
            return {}
        seat = state["to_move"]
        prompt = f"You play {SEAT_NAMES[seat]}: move a carpet, a servitor or your Prince."
        return {seat: Decision(f"m{state['moves']}", "move", prompt)}

    def legal_actions(self, state: GameOfPrincesState, seat: int) -> list[str]:
        if seat not in self.pending(state):
            return []
        moves = board_of(state).moves(seat, state["confined"], state["long_jump"])
        return [format_move(move) for move in moves] or [PASS]

    def outcome(self, state: GameOfPrincesState) -> Outcome:
        result = state["result"]
        if result is None:
            return Outcome()
        if result["winner"] is None:
            return Outcome(True, (), draw=True, reason=result["reason"])
        return Outcome(True, (result["winner"],), reason=result["reason"])

    # ---- seats' sides, for statistics (issue 44) --------------------------------------------------------
    side_word = "colour"

    def seat_sides(self, view: GameOfPrincesState, num_players: int) -> list[str]:
        """Each seat's colour (red, blue), as the board draws it."""
        return list(COLOURS[:num_players])

    # ---- notation -----------------------------------------------------------------------------------------
    def parse(self, state: GameOfPrincesState, seat: int, text: str) -> str:
        cleaned = " ".join(text.strip().lower().split())
        if cleaned == PASS:
            return PASS
        readings = [_read_move(pattern, cleaned, state) for pattern in MOVE_READINGS]
        candidates = list(dict.fromkeys(reading for reading in readings if reading is not None))
        if not candidates:
            raise InvalidAction(
                "Write a move as piece, cell, `>`, cell, for example `S2,1>2,2` "
                "(servitor from column 2 row 1 to column 2 row 2), or `pass`."
            )
        if len(candidates) == 1:
            return candidates[0]
        legal = set(self.legal_actions(state, seat))
        return next((action for action in candidates if action in legal), candidates[0])

    def describe(self, state: GameOfPrincesState, action: str) -> str:
        if action == PASS:
            return "pass (no legal move)"
        move = _decode(action)
        letter, source, target = move
        board = board_of(state)
        if letter == CARPET:
            colour = board.carpets.get(source, "")
            owner = f"{SEAT_NAMES[COLOURS.index(colour)] if colour in COLOURS else colour} " if colour else ""
        else:
            seat = board.servitors.get(source) if letter == SERVITOR else board.prince_at(source)
            owner = f"{SEAT_NAMES[seat]} " if seat is not None else ""
        return f"{owner}{PIECE_NAMES[letter]} {format_cell(source)} to {format_cell(target)}"

    # ---- apply --------------------------------------------------------------------------------------------
    def apply(
        self, state: GameOfPrincesState, seat: int, action: str, rng: Rng
    ) -> Applied[GameOfPrincesState]:
        if seat not in self.pending(state):
            raise IllegalAction("It is not your turn.")
        board = board_of(state)
        legal = board.moves(seat, state["confined"], state["long_jump"])
        new = self.copy_state(state)
        new["moves"] += 1
        new["to_move"] = 1 - seat
        if action == PASS:
            if legal:
                raise IllegalAction("You may pass only when you have no legal move.")
            return Applied(new, self._after_pass(new, board, seat))
        move = _decode(action)
        if move not in legal:
            raise IllegalAction(explain_illegal(board, seat, move, state["confined"], state["long_jump"]))
        description = self.describe(state, action)
        board.play(seat, move)
        store_board(new, board)
        new["passes"] = 0
        new["last_move"] = {"seat": seat, "action": action, "from": list(move[1]), "to": list(move[2])}
        events = [Event("move", f"{seat_ref(seat)} moves {description}.")]
        events += self._judge(new, board, seat)
        return Applied(new, events)

    def _after_pass(self, state: GameOfPrincesState, board: Board, seat: int) -> list[Event]:
        state["passes"] += 1
        state["last_move"] = {"seat": seat, "action": PASS, "from": None, "to": None}
        events = [Event("pass", f"{seat_ref(seat)} ({SEAT_NAMES[seat]}) has no legal move and passes.")]
        if state["passes"] >= 2:
            return events + [_finish(state, None, "Neither player can move.")]
        return events + self._judge(state, board, seat)

    @staticmethod
    def _judge(state: GameOfPrincesState, board: Board, mover: int) -> list[Event]:
        """Win first, then the draws by repetition and by the move limit."""
        if board.has_won(mover):
            where = format_cell(board.princes[mover])
            reason = f"{seat_ref(mover)}'s Prince reaches a {SEAT_NAMES[1 - mover]} carpet at {where}."
            return [_finish(state, mover, reason)]
        if _count_position(state, board) >= REPETITIONS_FOR_DRAW:
            return [_finish(state, None, "The same position occurred for the third time.")]
        if state["moves"] >= MOVE_LIMIT:
            return [_finish(state, None, f"{MOVE_LIMIT} moves without a winner.")]
        return []

    # ---- undo, AI -----------------------------------------------------------------------------------------
    def can_undo(self, state_before: GameOfPrincesState, seat: int, action: str) -> bool:
        return action != PASS

    def choose_action(
        self, view: GameOfPrincesState, seat: int, legal: Sequence[str], level: str, rng: random.Random
    ) -> str:
        if split_level(level)[0] not in LEVELS or list(legal) == [PASS]:
            return rng.choice(list(legal))
        move = choose_move(
            board_of(view), seat, view["confined"], view["long_jump"], level, rng, view["seen"], view["moves"]
        )
        action = format_move(move)
        return action if action in legal else rng.choice(list(legal))


# ---- state <-> board ----------------------------------------------------------------------------------------
def board_of(state: GameOfPrincesState) -> Board:
    """The position held by a state (or a view: this game hides nothing) as a :class:`Board`."""
    return Board(
        carpets={(x, y): colour for x, y, colour in state["carpets"]},
        servitors={(x, y): seat for x, y, seat in state["servitors"]},
        princes=[(x, y) for x, y in state["princes"]],
    )


def store_board(state: GameOfPrincesState, board: Board) -> None:
    """Write the position into the state as sorted JSON lists (so equal positions give equal states)."""
    state["carpets"] = [[x, y, colour] for (x, y), colour in sorted(board.carpets.items())]
    state["servitors"] = [[x, y, seat] for (x, y), seat in sorted(board.servitors.items())]
    state["princes"] = [[x, y] for x, y in board.princes]


def _count_position(state: GameOfPrincesState, board: Board) -> int:
    """Count this position (with the player to move) and return how often it has occurred.

    A short digest keeps the state small: a game of 200 moves stores at most 201 of them.
    """
    digest = board.digest(state["to_move"])
    seen: dict[str, int] = state["seen"]
    seen[digest] = seen.get(digest, 0) + 1
    return seen[digest]


def _finish(state: GameOfPrincesState, winner: int | None, reason: str) -> Event:
    state["result"] = {"winner": winner, "reason": reason}
    return Event("win" if winner is not None else "draw", reason)


# ---- notation -----------------------------------------------------------------------------------------------
def _read_move(pattern: re.Pattern[str], text: str, state: GameOfPrincesState) -> str | None:
    match = pattern.match(text)
    if not match:
        return None
    word, letter, x1, y1, x2, y2 = match.groups()
    source: Cell = (int(x1), int(y1))
    target: Cell = (int(x2), int(y2))
    given = (word or letter or "")[:1].upper()
    piece = given or board_of(state).top_piece(source) or CARPET
    return format_move((piece, source, target))


def _decode(action: str) -> Move:
    match = CANONICAL.match(action)
    if not match:
        raise InvalidAction(f"{action!r} is not a move: write for example `S2,1>2,2`, or `pass`.")
    letter, x1, y1, x2, y2 = match.groups()
    return (letter, (int(x1), int(y1)), (int(x2), int(y2)))


def explain_illegal(board: Board, seat: int, move: Move, confined: bool, long_jump: bool) -> str:
    """The sentence saying why a well-formed move is not allowed."""
    letter, source, target = move
    if letter == CARPET:
        return _explain_carpet(board, seat, source, target, confined)
    if letter == SERVITOR:
        return _explain_servitor(board, seat, source, target)
    return _explain_prince(board, seat, source, target, long_jump)


def _explain_carpet(board: Board, seat: int, source: Cell, target: Cell, confined: bool) -> str:
    here, there = format_cell(source), format_cell(target)
    colour = board.carpets.get(source)
    if colour is None:
        return f"There is no carpet on {here}."
    if colour not in (NEUTRAL, COLOURS[seat]):
        return f"The carpet on {here} is {colour}: you may move only neutral carpets and your own."
    if source in board.servitors:
        return f"A servitor stands on the carpet on {here}, so it cannot move."
    if target not in neighbours(source):
        return "A carpet moves one cell, orthogonally or diagonally."
    if target in board.carpets:
        return f"There is already a carpet on {there}."
    if confined and not in_original_grid(target):
        return f"{there} is outside the original 5x5 grid, and this game is confined."
    return f"Moving the carpet from {here} to {there} would split the carpets into separate groups."


def _explain_servitor(board: Board, seat: int, source: Cell, target: Cell) -> str:
    here, there = format_cell(source), format_cell(target)
    owner = board.servitors.get(source)
    if owner is None:
        return f"There is no servitor on {here}."
    if owner != seat:
        return f"The servitor on {here} is {COLOURS[owner]}: move one of yours."
    if board.princes[seat] == source:
        return f"The servitor on {here} carries your Prince and cannot move."
    if target not in neighbours(source):
        return "A servitor moves one cell, orthogonally or diagonally."
    if target not in board.carpets:
        return f"There is no carpet on {there}: servitors move only onto carpets."
    return f"A servitor already stands on {there}."


def _explain_prince(board: Board, seat: int, source: Cell, target: Cell, long_jump: bool) -> str:
    here, there = format_cell(source), format_cell(target)
    if board.princes[seat] != source:
        return f"Your Prince is on {format_cell(board.princes[seat])}, not on {here}."
    if source[0] != target[0] and source[1] != target[1] or source == target:
        return "The Prince moves only orthogonally (along a row or a column)."
    if board.servitors.get(target) != seat:
        return f"The Prince may only land on one of your servitors, and there is none on {there}."
    if long_jump:
        return f"Another servitor stands between {here} and {there}: the Prince lands on the first one."
    return "Without the long-jump option the Prince moves one cell onto an adjacent servitor."


GAME = GameOfPrinces()

__all__ = ["GAME", "MOVE_LIMIT", "GameOfPrinces", "board_of", "explain_illegal", "store_board"]
