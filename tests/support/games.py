"""Small purpose-built games for testing host mechanisms that Babylone does not use."""

from __future__ import annotations

from collections.abc import Mapping

from rules.engine import Applied, Decision, Event, Game, IllegalAction, Outcome, Rng, State, View, seat_ref


class SealedGuess(Game):
    """Each round every seat secretly picks 1-3; the highest pick made by exactly one seat scores a point.

    First to 2 points wins; after 5 rounds the leader wins, or it is a draw. A pick is stored in the state
    (hidden from other views) until every seat has picked, as the host's sealed decisions require.
    """

    key = "test-sealed-guess"
    title = "Sealed Guess (test)"
    min_players = 2
    max_players = 3
    hidden_information = True
    rules_notes = "A test-only game: " + __doc__ * 2  # type: ignore[operator]

    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> State:
        return {
            "players": num_players,
            "round": 1,
            "picks": [None] * num_players,
            "score": [0] * num_players,
            "revealed": [],
        }

    def pending(self, state: State) -> dict[int, Decision]:
        if self.outcome(state).finished:
            return {}
        return {
            seat: Decision(f"round-{state['round']}", "pick", "Pick 1, 2 or 3 in secret.", sealed=True)
            for seat, pick in enumerate(state["picks"])
            if pick is None
        }

    def legal_actions(self, state: State, seat: int) -> list[str]:
        return ["pick 1", "pick 2", "pick 3"] if seat in self.pending(state) else []

    def apply(self, state: State, seat: int, action: str, rng: Rng) -> Applied:
        if seat not in self.pending(state):
            raise IllegalAction("You have already picked this round.")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("Pick 1, 2 or 3, for example `pick 2`.")
        new = self.copy_state(state)
        new["picks"][seat] = int(action.split()[1])
        if any(pick is None for pick in new["picks"]):
            return Applied(new, [])
        picks = new["picks"]
        unique = [p for p in picks if picks.count(p) == 1]
        text = f"Round {new['round']}: picks {picks}."
        if unique:
            winner = picks.index(max(unique))
            new["score"][winner] += 1
            text += f" {seat_ref(winner)} scores."
        new["revealed"].append(picks)
        new["picks"] = [None] * new["players"]
        new["round"] += 1
        return Applied(new, [Event("reveal", text)])

    def outcome(self, state: State) -> Outcome:
        score = state["score"]
        if max(score) >= 2 or state["round"] > 5:
            best = max(score)
            leaders = tuple(i for i, s in enumerate(score) if s == best)
            if len(leaders) > 1:
                return Outcome(True, (), draw=True, reason="tied on points")
            return Outcome(True, leaders, reason=f"{best} points")
        return Outcome()

    def view(self, state: State, seat: int | None) -> View:
        view = self.copy_state(state)
        view["picks"] = [None if pick is None else "sealed" for pick in state["picks"]]
        if seat is not None and state["picks"][seat] is not None:
            view["my_pick"] = f"secret-pick-{seat}-{state['picks'][seat]}"
        return view

    def secrets(self, state: State, seat: int) -> list[str]:
        pick = state["picks"][seat]
        return [] if pick is None else [f"secret-pick-{seat}-{pick}"]

    def on_deadline(self, state: State, seat: int) -> str | None:
        return "pick 1"


class CardWindows(Game):
    """Six rounds: the first seat plays, then the second seat has a card window. In even rounds the second seat
    holds a card (``counter`` or ``pass``); in odd rounds it holds none, so ``pass`` is its only answer and the
    host may give it automatically (``auto_pass``). The second seat wins with two counters, else the first."""

    key = "test-card-windows"
    title = "Card Windows (test)"
    hidden_information = True
    has_windows = True
    rules_notes = "A test-only game: " + __doc__ * 2  # type: ignore[operator]

    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> State:
        return {"round": 1, "step": "play", "counters": 0}

    def pending(self, state: State) -> dict[int, Decision]:
        if self.outcome(state).finished:
            return {}
        if state["step"] == "play":
            return {0: Decision(f"r{state['round']}-play", "move", "Play your card.")}
        return {1: Decision(f"r{state['round']}-window", "window", "Counter or pass?", timing="window")}

    def _holds_card(self, state: State) -> bool:
        return state["round"] % 2 == 0

    def legal_actions(self, state: State, seat: int) -> list[str]:
        decision = self.pending(state).get(seat)
        if decision is None:
            return []
        if seat == 0:
            return ["play"]
        return ["counter", "pass"] if self._holds_card(state) else ["pass"]

    def apply(self, state: State, seat: int, action: str, rng: Rng) -> Applied:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("That is not an answer now.")
        new = self.copy_state(state)
        if seat == 0:
            new["step"] = "window"
            return Applied(new, [Event("play", f"{seat_ref(0)} plays.")])
        if action == "counter":
            new["counters"] += 1
        new["step"], new["round"] = "play", new["round"] + 1
        word = "counters" if action == "counter" else "passes"
        return Applied(new, [Event(action, f"{seat_ref(1)} {word}.")])

    def auto_pass(self, state: State, seat: int) -> str | None:
        return "pass" if self.legal_actions(state, seat) == ["pass"] else None

    def outcome(self, state: State) -> Outcome:
        if state["round"] <= 6:
            return Outcome()
        winner = 1 if state["counters"] >= 2 else 0
        return Outcome(True, (winner,), reason="six rounds played")

    def view(self, state: State, seat: int | None) -> View:
        view = self.copy_state(state)
        if seat == 1:
            view["hand"] = ["card"] if self._holds_card(state) else []
        return view
