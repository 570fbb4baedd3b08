"""Building blocks for PRINCIPES scenario tests: a started game, units placed by hand, an action opened."""

from __future__ import annotations

from collections.abc import Callable

from rules.engine import Applied, ReplayRng, Rng, State
from rules.principes import GAME
from rules.principes.play import actions as play_actions
from rules.principes.play import apply, flow, pending
from rules.principes.play.common import Ctx, add_units, assets

PLAYERS_FOR = {2: "pma-pmi", 3: "pma-pmi-sil", 4: "standard"}


def new_state(players: int = 4, seed: int = 1, **options: str) -> State:
    chosen = {"principalities": PLAYERS_FOR[players], **options}
    return GAME.setup(players, chosen, Rng.for_event(seed, 0))


def seat(state: State, code: str) -> int:
    return int(state["players"][code]["seat"])


def clear_units(state: State, land: str) -> None:
    state["lands"][land]["units"] = {}


def put(state: State, land: str, faction: str, **units: int) -> None:
    for unit, count in units.items():
        add_units(state, land, faction, unit, count)


def move_prince(state: State, code: str, land: str) -> None:
    for land_state in state["lands"].values():
        land_state["units"].get(code, {}).pop("prince", None)
        if code in land_state["units"] and not land_state["units"][code]:
            del land_state["units"][code]
    put(state, land, code, prince=1)


def open_action(state: State, code: str, kind: str, draws: list[int] | None = None) -> State:
    """Put the game in the actions phase with ``code`` performing ``kind`` now (the last action of the Round)."""
    play = state["play"]
    play["prompts"] = {}
    play["phase"] = "actions"
    play["slot"], play["turn"] = 2, len(play["order"])
    for player in state["players"].values():
        player["plan"] = ["progress", "taxes", "movement"]
    ctx = Ctx(state, ReplayRng(draws) if draws is not None else Rng(b"scenario"))
    play_actions.begin(ctx, code, kind)
    flow.advance(ctx)
    state["play"]["assets"] = assets(state)  # the hand-placed units count as the starting position
    return state


def act(state: State, code: str, action: str, draws: list[int] | None = None) -> Applied:
    rng = ReplayRng(draws) if draws is not None else Rng(b"scenario-act")
    return apply(state, seat(state, code), action, rng)


def run(state: State, code: str, *actions: str) -> tuple[State, list[str]]:
    """Apply several actions of one player; returns the state and the event kinds logged."""
    kinds: list[str] = []
    for action in actions:
        applied = act(state, code, action)
        state = applied.state
        kinds += [event.kind for event in applied.events]
    return state, kinds


def decision_of(state: State, code: str) -> str | None:
    decision = pending(state).get(seat(state, code))
    return decision.kind if decision else None


def pass_empty_windows(state: State, draws: list[int] | None = None) -> State:
    """Answer 'pass' for every seat whose card window offers nothing else (what a host's auto-pass does);
    ``draws`` feed the dice if a pass lets the battle roll."""
    from rules.principes.play import auto_pass

    for _ in range(20):
        waiting = [s for s in range(len(state["seats"])) if auto_pass(state, s) == "pass"]
        if not waiting:
            return state
        rng = ReplayRng(list(draws)) if draws is not None else Rng(b"scenario-pass")
        state = apply(state, waiting[0], "pass", rng).state
    return state


def answer_defaults(state: State, answers: Callable[[str], bool], label: bytes) -> State:
    """Answer every pending decision whose kind ``answers`` accepts with its deadline default, until none is
    left."""
    from rules.principes.play import on_deadline

    for _ in range(80):
        waiting = [s for s, d in pending(state).items() if answers(d.kind)]
        if not waiting:
            return state
        answer = on_deadline(state, waiting[0])
        assert answer is not None
        state = apply(state, waiting[0], answer, Rng(label)).state
    return state


def send_princesses(state: State) -> State:
    """Answer every Princess prompt (missions, draws, discards) with its deadline default."""
    from rules.principes.play.princesses import KINDS

    return answer_defaults(state, lambda kind: kind in KINDS, b"scenario-princess")


def to_plans(state: State) -> State:
    """Answer every decision before the plans (Princess missions, History texts) with its deadline default."""
    return answer_defaults(state, lambda kind: kind != "plan", b"scenario-to-plans")
