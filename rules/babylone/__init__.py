"""Babylone (Bruno Faidutti): stack pyramids by equal height or equal top colour; who cannot move loses.

Notation: ``A>B`` moves the whole stack in slot ``A`` onto the stack in slot ``B``. Slots are numbered 1-12 at
the start and keep their numbers all game (an emptied slot stays empty), so a number on the image means the
same stack from turn to turn. ``5 9``, ``5 on 9`` and ``5-9`` are read as ``5>9``. In a best-of-3 match the loser
of a round answers ``first`` or ``second``.

>>> from rules.engine import Rng
>>> state = GAME.setup(2, {}, Rng.for_event(1, 0))
>>> len(GAME.legal_actions(state, state["to_move"]))
132
>>> GAME.parse(state, 0, "3 on 7")
'3>7'
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict

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
from rules.engine.core import Exercise

from .solver import best_move, canonical, is_win

COLOURS = ("red", "yellow", "green", "blue")
PIECES_PER_COLOUR = 3
MOVE_RE = re.compile(r"^\s*(\d{1,2})\s*(?:>|-|on|to|onto|\s)\s*(\d{1,2})\s*$", re.IGNORECASE)

RULES_NOTES = """\
**Babylone** (Bruno Faidutti), 12 pyramids, 3 of each of 4 colours, each starting as its own stack.
- A move puts a whole stack onto another stack of the same height or with the same top colour; the moved
  stack's top becomes the top. Stacks are never divided.
- Notation: `5>9` moves stack 5 onto stack 9. Stacks keep their numbers all game; an emptied slot stays empty.
- The first player is chosen at random unless the lobby sets option `first`.
- 2 players: who cannot move loses. 3-4 players: a blocked player is out, and since the position is shared
  every later player is blocked too, so the last player who moved wins.
- Option `match=best-of-3` (2 players): the loser of a round chooses to play first or second in the next.
- No default on a deadline: the opponent may claim the game, wait, or hand the seat to the AI.
- Undo: your own last move, before anyone else moves.
- Known fact: with perfect play the second player always wins (the `perfect` AI proves it from the start).
"""


class BabyloneState(TypedDict):
    """The whole game; Babylone hides nothing, so it is also every seat's view."""

    players: int
    match: Literal["single", "best-of-3"]
    #: rounds won by each seat (a best-of-3 match)
    wins: list[int]
    round: int
    #: decisions posed so far this round (the decision id counter)
    step: int
    #: slot -> the pyramids in it, bottom first (colour names); an emptied slot stays an empty list
    stacks: list[list[str]]
    to_move: int
    last_mover: int | None
    #: the last move as [from slot, to slot], 1-based, for the image's arrow
    last_move: list[int] | None
    round_over: bool
    #: the round's loser choosing to play first or second (a match), else None
    chooser: int | None
    moves: int


def _colour_counts() -> list[str]:
    return [colour for colour in COLOURS for _ in range(PIECES_PER_COLOUR)]


class Babylone(Game[BabyloneState, BabyloneState]):
    key = "babylone"
    title = "Babylone"
    min_players = 2
    max_players = 4
    options = (
        Option("first", "random", ("random", "1", "2", "3", "4"), "who plays first: random or a seat number"),
        Option("match", "single", ("single", "best-of-3"), "2 players: one round or a best-of-3 match"),
    )
    ai_levels = ("perfect", "easy")
    # placeholder kinds of Babylone's catalog entries: a stack's height (numbers)
    number_params = frozenset({"height", "height2"})
    #: how the shared suites and benches play it: the easy level, every player count
    exercise = Exercise(level="easy", actions=400, quick=(2, "easy"))
    draw_by_agreement = False  # a Babylone round always ends with a winner
    rules_notes = RULES_NOTES

    # ---- setup ----------------------------------------------------------------------------------------------
    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> BabyloneState:
        self.check_players(num_players)
        opts = self.resolve_options(options)
        if opts["match"] != "single" and num_players != 2:
            raise IllegalAction("A best-of-3 match is for 2 players.")
        if opts["first"] == "random":
            first = rng.randint(0, num_players - 1)
        else:
            first = int(opts["first"]) - 1
            if first >= num_players:
                raise IllegalAction(f"Seat {first + 1} does not exist with {num_players} players.")
        state: BabyloneState = {
            "players": num_players,
            "match": "single" if opts["match"] == "single" else "best-of-3",
            "wins": [0] * num_players,
            "round": 1,
            "step": 0,
            "stacks": [],
            "to_move": first,
            "last_mover": None,
            "last_move": None,
            "round_over": False,
            "chooser": None,
            "moves": 0,
        }
        self._deal(state, first, rng)
        return state

    @staticmethod
    def _deal(state: BabyloneState, first: int, rng: Rng) -> None:
        colours = _colour_counts()
        rng.shuffle(colours)
        state.update(
            {
                "stacks": [[colour] for colour in colours],
                "to_move": first,
                "last_mover": None,
                "last_move": None,
                "round_over": False,
                "chooser": None,
                "moves": 0,
            }
        )

    # ---- queries --------------------------------------------------------------------------------------------
    @staticmethod
    def _moves(stacks: Sequence[Sequence[str]]) -> list[str]:
        moves = []
        for a, source in enumerate(stacks):
            if not source:
                continue
            for b, target in enumerate(stacks):
                if a != b and target and (len(source) == len(target) or source[-1] == target[-1]):
                    moves.append(f"{a + 1}>{b + 1}")
        return moves

    def pending(self, state: BabyloneState) -> dict[int, Decision]:
        if self._finished(state):
            return {}
        step = f"r{state['round']}s{state['step']}"
        if state["chooser"] is not None:
            return {
                state["chooser"]: Decision(step, "choose-order", "You lost the round: play first or second?")
            }
        return {
            state["to_move"]: Decision(step, "move", "Move a stack onto one of equal height or top colour.")
        }

    def legal_actions(self, state: BabyloneState, seat: int) -> list[str]:
        decision = self.pending(state).get(seat)
        if decision is None:
            return []
        if decision.kind == "choose-order":
            return ["first", "second"]
        return self._moves(state["stacks"])

    def outcome(self, state: BabyloneState) -> Outcome:
        if not self._finished(state):
            return Outcome()
        if state["match"] == "single":
            winner = state["last_mover"]
            assert winner is not None  # a round ends on a move: whoever made it won
            return Outcome(True, (winner,), reason=f"{seat_ref(state['to_move'])} cannot move.")
        wins = state["wins"]
        winner = max(range(len(wins)), key=wins.__getitem__)
        return Outcome(True, (winner,), reason=f"Match won {wins[winner]}-{min(wins)}.")

    @staticmethod
    def _finished(state: BabyloneState) -> bool:
        if state["match"] == "single":
            return bool(state["round_over"])
        return max(state["wins"]) >= 2

    # ---- notation -------------------------------------------------------------------------------------------
    def parse(self, state: BabyloneState, seat: int, text: str) -> str:
        cleaned = text.strip().lower()
        if cleaned in ("first", "second", "1st", "2nd"):
            return {"1st": "first", "2nd": "second"}.get(cleaned, cleaned)
        match = MOVE_RE.match(cleaned)
        if not match:
            raise InvalidAction(
                "Write a move as two stack numbers, for example `5>9` (stack 5 onto stack 9)."
            )
        return f"{int(match.group(1))}>{int(match.group(2))}"

    def describe(self, state: BabyloneState, action: str) -> str:
        if action in ("first", "second"):
            return f"play {action}"
        source, target = (int(part) - 1 for part in action.split(">"))
        stacks = state["stacks"]
        if not (0 <= source < len(stacks) and 0 <= target < len(stacks)):
            return action
        moved = stacks[source]
        if not moved:
            return action
        return f"stack {source + 1} ({len(moved)} high, {moved[-1]} top) onto stack {target + 1}"

    # ---- apply ----------------------------------------------------------------------------------------------
    def apply(self, state: BabyloneState, seat: int, action: str, rng: Rng) -> Applied[BabyloneState]:
        decision = self.pending(state).get(seat)
        if decision is None:
            raise IllegalAction("It is not your turn.")
        new = self.copy_state(state)
        new["step"] += 1
        if decision.kind == "choose-order":
            return self._choose_order(new, seat, action, rng)
        return self._move(new, seat, action, rng)

    def _move(self, state: BabyloneState, seat: int, action: str, rng: Rng) -> Applied[BabyloneState]:
        if action in ("first", "second"):
            raise IllegalAction("Nobody is choosing the order now: move a stack, for example `5>9`.")
        source, target = (int(part) - 1 for part in action.split(">"))
        stacks = state["stacks"]
        self._check_move(stacks, source, target)
        moved = stacks[source]
        description = self.describe(state, action)
        stacks[target] = stacks[target] + moved
        stacks[source] = []
        state.update({"last_mover": seat, "last_move": [source + 1, target + 1], "moves": state["moves"] + 1})
        state["to_move"] = (seat + 1) % state["players"]
        events = [Event("move", f"{seat_ref(seat)} moves {description}.")]
        if not self._moves(stacks):
            events.append(self._end_round(state, seat, rng))
        return Applied(state, events)

    @staticmethod
    def _check_move(stacks: list[list[str]], source: int, target: int) -> None:
        for slot in (source, target):
            if not 0 <= slot < len(stacks):
                raise IllegalAction(f"There is no stack {slot + 1}: stacks are numbered 1 to {len(stacks)}.")
            if not stacks[slot]:
                raise IllegalAction(f"Slot {slot + 1} is empty now.")
        if source == target:
            raise IllegalAction("A stack cannot be put onto itself.")
        a, b = stacks[source], stacks[target]
        if len(a) != len(b) and a[-1] != b[-1]:
            raise IllegalAction(
                f"Stack {source + 1} ({len(a)} high, {a[-1]} top) and stack {target + 1} ({len(b)} high, "
                f"{b[-1]} top) share neither height nor top colour."
            )

    def _end_round(self, state: BabyloneState, winner: int, rng: Rng) -> Event:
        state["wins"][winner] += 1
        state["round_over"] = True
        blocked = state["to_move"]
        if state["match"] == "single":  # the same words as the outcome: the game's result line says who won
            return Event("round", f"{seat_ref(blocked)} cannot move.")
        text = f"{seat_ref(blocked)} cannot move: {seat_ref(winner)} wins round {state['round']}."
        if max(state["wins"]) < 2:
            state["chooser"] = blocked if state["players"] == 2 else None
            text += f" {seat_ref(blocked)} chooses to play first or second."
        return Event("round", text)

    def _choose_order(self, state: BabyloneState, seat: int, action: str, rng: Rng) -> Applied[BabyloneState]:
        if action not in ("first", "second"):
            raise IllegalAction("Answer `first` or `second`.")
        first = seat if action == "first" else (seat + 1) % state["players"]
        state["round"] += 1
        self._deal(state, first, rng)
        return Applied(
            state, [Event("choose-order", f"{seat_ref(seat)} plays {action} in round {state['round']}.")]
        )

    # ---- undo, AI -------------------------------------------------------------------------------------------
    def can_undo(self, state_before: BabyloneState, seat: int, action: str) -> bool:
        return action not in ("first", "second")

    def choose_action(
        self, view: BabyloneState, seat: int, legal: Sequence[str], level: str, rng: random.Random
    ) -> str:
        if level != "perfect":
            return rng.choice(list(legal))
        if "first" in legal:
            return "second"  # the second player wins every Babylone start with perfect play
        stacks = view["stacks"]
        if view["players"] == 2:
            return best_move(stacks, legal, rng)
        return self._multiplayer_move(stacks, legal, rng)

    def _multiplayer_move(self, stacks: list[list[str]], legal: Sequence[str], rng: random.Random) -> str:
        """Block the next player at once if possible, else play the two-player solver's choice."""
        for action in legal:
            source, target = (int(part) - 1 for part in action.split(">"))
            after = [list(stack) for stack in stacks]
            after[target] = after[target] + after[source]
            after[source] = []
            if not self._moves(after):
                return action
        return best_move(stacks, legal, rng)


GAME = Babylone()

__all__ = ["GAME", "Babylone", "canonical", "is_win"]
