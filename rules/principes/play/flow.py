"""The Round machine: direction, History reveal, sealed planning, actions I-II-III, Prince changes, the end.

``advance`` runs every automatic step until some player must decide (a prompt is posed) or the game is over.
Priority of the work in progress: a pending Prince succession, then a battle, then the current action, then the
Round's own phase.
"""

from __future__ import annotations

from itertools import permutations

from rules.engine import Rng
from rules.engine.turn_ahead import Unseen

from ..data import catalog
from ..schema import PState, Result
from ..state import turn_order
from . import actions, battle, dynasty, princesses
from . import history as history_cards
from .common import (
    ACTION_TITLES,
    ACTIONS,
    ROMAN,
    Ctx,
    active,
    assets,
    name,
    prompt,
    round_order,
)
from .effects_engine import fire
from .ending import finish_by_princeps

LAST_ROUND = 6
#: every sealed plan: 3 of the 6 Action tokens in order
PLANS = [f"plan {' '.join(p)}" for p in permutations(ACTIONS, 3)]


def start_play(state: PState, rng: Rng) -> PState:
    """Add the play sub-state to P1's starting position and pose Round 1's first decision."""
    state["phase"] = "play"
    state["play"] = {
        "seq": 0,  # decision id counter
        "phase": "direction",  # direction | reveal | plan | actions | end
        "prompts": {},  # principality -> {id, kind, text, timing, sealed}
        "order": turn_order(state),  # turn order fixed for the Round
        "slot": 0,
        "turn": 0,  # which Action token (0..2) of which player in the order is next
        "revealed": {code: [] for code in state["seats"]},
        "action": None,
        "battle": None,
        "succession": [],
        "last_round": LAST_ROUND,
        "standing": {code: {} for code in state["seats"]},  # consent answers given in advance
        "private": {code: {} for code in state["seats"]},  # per player, shown only in that player's view
        "assets": assets(state),
        "pomerania_out": {},  # Pomeranian units removed after losing at home (rulebook p. 21)
        "battles": 0,
        "result": None,
        "event": None,  # a History card's text or icons being resolved (``history``)
    }
    ctx = Ctx(state, rng)
    advance(ctx)
    return state


def advance(ctx: Ctx) -> None:
    """Run automatic steps until a decision is posed or the game ends."""
    for _ in range(10_000):
        play = ctx.play
        if play["result"] is not None or play["prompts"]:
            return
        if play["succession"]:
            dynasty.step(ctx)
        elif play.get("princess_queue"):
            princesses.step(ctx)
        elif play["battle"] is not None:
            battle.step(ctx)
        elif play.get("respawn"):
            dynasty.respawn_step(ctx)  # a neutral Prince removed in the battle just fought
        elif play.get("event") is not None:
            history_cards.step(ctx)
        elif play["action"] is not None:
            actions.step(ctx)
        else:
            _phase_step(ctx)
    raise RuntimeError("the PRINCIPES round machine made no progress")


def _phase_step(ctx: Ctx) -> None:
    play = ctx.play
    if play["phase"] == "direction":
        holder = ctx.state["princeps"]["holder"]
        prompt(
            ctx,
            holder,
            "direction",
            f"Round {ctx.state['round']}: choose the turn order direction "
            "(cw = Polonia Maior, Masovia, Polonia Minor, Silesia; ccw = the reverse), starting with you.",
        )
    elif play["phase"] == "reveal":
        _reveal_history(ctx)
        for code in round_order(ctx.state):
            fire(ctx, code, "round_start")  # after the History text (Leszek the White)
        play["phase"] = "plan"
    elif play["phase"] == "plan":
        _pose_plans(ctx)
    elif play["phase"] == "actions":
        _next_action(ctx)
    elif play["phase"] == "end":
        end_round(ctx)


def direction_options(ctx: Ctx, code: str) -> list[str]:
    return ["direction cw", "direction ccw"]


def direction_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    choose_direction(ctx, words[1])


def choose_direction(ctx: Ctx, direction: str) -> None:
    """The Princeps sets the direction; the History card is revealed; planning starts."""
    state = ctx.state
    state["princeps"]["direction"] = direction
    ctx.play["order"] = [code for code in turn_order(state) if active(state, code)]
    names = ", ".join(name(code) for code in ctx.play["order"])
    ctx.log(
        "direction",
        f"The Princeps ({name(state['princeps']['holder'])}) chooses "
        f"{'clockwise' if direction == 'cw' else 'counter-clockwise'}: {names}.",
    )
    princesses.start_round(ctx)  # resolution 31: missions, then the History card
    ctx.play["phase"] = "reveal"


def _reveal_history(ctx: Ctx) -> None:
    """The previous History card goes under the deck, the next one is revealed and its text applied."""
    history = ctx.state["history"]
    if history["revealed"] is not None:
        history["deck"].append(history["revealed"])
        history["revealed"] = None
    if not history["deck"]:
        return
    card = history["deck"].pop(0)
    history["revealed"] = card
    record = catalog().kind_of(card)
    history["icons"] = list(record.get("icons", []))
    ctx.log("history", f"History card: {record['title']} ({record['year']}).")
    history_cards.reveal(ctx, card)


def plan_id(state: PState) -> str:
    return f"plan-r{state['round']}"


def _pose_plans(ctx: Ctx) -> None:
    waiting = [code for code in round_order(ctx.state) if ctx.state["players"][code]["plan"] is None]
    if not waiting:
        ctx.play["phase"] = "actions"
        ctx.play["slot"], ctx.play["turn"] = 0, 0
        ctx.log("ready", "Every player has sealed a plan: actions are revealed one at a time.")
        return
    for code in waiting:
        prompt(
            ctx,
            code,
            "plan",
            "Seal your plan: 3 of your 6 Action tokens in order I, II, III.",
            sealed=True,
            decision_id=plan_id(ctx.state),
        )


def plan_options(ctx: Ctx, code: str) -> list[str]:
    return PLANS


def plan_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    seal_plan(ctx, code, words[1:])


def seal_plan(ctx: Ctx, principality: str, plan: list[str]) -> None:
    ctx.state["players"][principality]["plan"] = plan
    ctx.log("plan_sealed", f"{name(principality)} has sealed a plan.")
    if any(entry["kind"] == "plan" for entry in ctx.play["prompts"].values()):
        return  # the others are still planning
    _pose_plans(ctx)


def _next_action(ctx: Ctx) -> None:
    """Reveal the next Action token: everyone's I in turn order, then II, then III."""
    play = ctx.play
    order = play["order"]
    while play["slot"] < 3:
        if play["turn"] >= len(order):
            play["slot"] += 1
            play["turn"] = 0
            continue
        code = order[play["turn"]]
        play["turn"] += 1
        if not active(ctx.state, code):
            continue  # an eliminated player's remaining actions are skipped (resolution 33)
        plan = ctx.state["players"][code]["plan"]
        if plan is None:  # only in a preview posed as its player sealed: the others' plans are unknown there
            raise Unseen(f"{name(code)}'s plan is still sealed")
        kind = plan[play["slot"]]
        play["revealed"][code].append(kind)
        ctx.log("reveal", f"{name(code)} reveals Action {ROMAN[play['slot']]}: {ACTION_TITLES[kind]}.")
        actions.begin(ctx, code, kind)
        return
    play["phase"] = "end"


def end_round(ctx: Ctx) -> None:
    state, play = ctx.state, ctx.play
    if history_cards.start_icons(ctx):
        return  # the History icons resolve first (not in the last Round); the Round ends after them
    for code in round_order(state):
        fire(ctx, code, "round_end")  # Rent in Coin reads the actions revealed this Round
    play.pop("round_effects", None)
    for code in state["seats"]:
        state["players"][code]["plan"] = None
        play["revealed"][code] = []
    if state["round"] >= play["last_round"]:
        finish_by_princeps(ctx)
        return
    ctx.log("round_end", f"Round {state['round']} ends.")
    new_round = state["round"] + 1
    if (new_round + 1) // 2 != state["period"]:
        state["period"] = (new_round + 1) // 2
        ctx.log(
            "period",
            f"Period {ROMAN[state['period'] - 1]} begins: the Princes of the past Period die of old age.",
        )
        play["succession"] = [{"who": code, "why": "period", "stage": None} for code in round_order(state)]
    state["round"] = new_round
    state["princeps"]["direction"] = None
    play["phase"] = "direction"


def result(state: PState) -> Result | None:
    play = state.get("play")
    return play.get("result") if play is not None else None


__all__ = ["ACTIONS", "advance", "choose_direction", "seal_plan", "start_play"]
