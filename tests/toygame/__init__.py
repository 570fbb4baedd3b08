"""Nim, a toy sixth game that proves a game needs its package, its renderer and one registration line.

Three heaps of 3, 4 and 5 stones; each turn a player takes 1 to 3 stones from one heap; whoever takes the last
stone wins. Two players, no chance, nothing hidden. It lives in the tests, not in ``rules/``: a run registers it
with one line, ``PRINCES_EXTRA_GAMES=nim=tests.toygame`` (``rules.engine.registry``), and every suite and bench
that iterates the registry plays it (``tests/test_sixth_game.py``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engine import Applied, Decision, Event, Game, IllegalAction, InvalidAction, Outcome, Rng
from rules.engine.text import seat_ref

State = dict[str, Any]
#: the heaps' names and their stones at the start
HEAPS = ("a", "b", "c")
START = (3, 4, 5)
MOST = 3

RULES_NOTES = (
    "Nim: three heaps of 3, 4 and 5 stones lie between two players. On your turn take 1, 2 or 3 stones from one "
    "heap: type the heap's letter and the count, for example a2 takes two stones from heap a. Whoever takes the "
    "last stone wins; a game cannot be drawn. A toy game the test suites register to prove a new game plugs in."
)


class Nim(Game[State, State]):
    key = "nim"
    title = "Nim"
    min_players = 2
    max_players = 2
    ai_levels = ("random",)
    rules_notes = RULES_NOTES

    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> State:
        self.check_players(num_players)
        return {"heaps": list(START), "turn": 0, "moves": 0, "winner": None, "last": None}

    def pending(self, state: State) -> dict[int, Decision]:
        if state["winner"] is not None:
            return {}
        turn = state["turn"]
        return {turn: Decision(f"take-{state['moves']}", "take", "Take 1 to 3 stones from one heap.")}

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.pending(state):
            return []
        return [
            f"{name}{count}"
            for name, stones in zip(HEAPS, state["heaps"], strict=True)
            for count in range(1, min(MOST, stones) + 1)
        ]

    def parse(self, state: State, seat: int, text: str) -> str:
        action = "".join(text.strip().lower().split())
        if len(action) != 2 or action[0] not in HEAPS or not action[1].isdigit():
            raise InvalidAction("Type a heap's letter and a count, for example a2.")
        return action

    def describe(self, state: State, action: str) -> str:
        return f"take {action[1]} from heap {action[0]}"

    def apply(self, state: State, seat: int, action: str, rng: Rng) -> Applied[State]:
        self.require_legal(state, seat, action)
        heap, count = HEAPS.index(action[0]), int(action[1])
        new = self.copy_state(state)
        new["heaps"][heap] -= count
        new["moves"] += 1
        new["last"] = action
        events = [Event("take", f"{seat_ref(seat)} takes {count} from heap {action[0]}.")]
        if not any(new["heaps"]):
            new["winner"] = seat
            events.append(Event("end", f"{seat_ref(seat)} takes the last stone and wins."))
        else:
            new["turn"] = 1 - seat
        return Applied(new, events)

    def outcome(self, state: State) -> Outcome:
        if state["winner"] is None:
            return Outcome()
        return Outcome(True, (state["winner"],), reason=f"{seat_ref(state['winner'])} took the last stone.")

    def on_deadline(self, state: State, seat: int) -> str | None:
        legal = self.legal_actions(state, seat)
        return legal[0] if legal else None

    def choose_action(
        self, view: State, seat: int, legal: Sequence[str], level: str, rng: random.Random
    ) -> str:
        if level != "random":
            raise IllegalAction(f"Nim has no AI level {level!r}.")
        return rng.choice(list(legal))


GAME = Nim()
