"""REVEALING and PERFORMING ACTIONS (rulebook p. 14, step 4 of the ROUND ORDER): the revealed Action token is
performed step by step. ``begin`` opens an action, ``step`` poses its next prompt (or ends it), ``options`` lists
the answers and ``answer`` applies one (already checked against ``options``); ``end`` closes it, offering the
active variant's Combined Action after an Assembly, Movement or Building (``neutrals``).

Each action's own rules live in its module: ``progress``, ``taxes``, ``assembly``, ``movement``, ``building``,
``politics`` (with ``council``, ``cards`` for Court texts and ``neighbours`` for Neighbour cards). Their answer
handlers return True when the answer ends the action. Common to every action prompt: ``play <card>`` (a Court
text of the action), ``neighbour <card> <faction>`` (Politics), ``as <action>`` (New Mechanisms: the Progress
token used as another action) and ``done``, which ends the action (at the first prompt it skips it: the rules allow
skipping or doing part of it).

The action sub-state is ``state["play"]["action"] = {"who", "kind", "stage", ...}``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..schema import Action
from . import assembly, building, council, movement, neighbours, neutrals, politics, progress, taxes
from .cards import play as play_text
from .common import Ctx, name, prompt
from .effects_engine import begin_action, fire

#: an action's answers for its player, given the action sub-state
Listing = Callable[[Ctx, str, Action], list[str]]
#: applies an answer; True when the action is over
Handler = Callable[[Ctx, str, Action, list[str]], bool]

PROMPTS = {
    "progress": progress.PROMPT,
    "assembly": assembly.PROMPT,
    "building": building.PROMPT,
    "politics": politics.PROMPT,
}


def begin(ctx: Ctx, code: str, kind: str) -> None:
    ctx.play["action"] = {
        "who": code,
        "kind": kind,
        "stage": "main",
        "count": 0,
        "founded": False,
        "cities": 0,
        "tax_people": 1,
        "extra_units": 0,
        "free_knight": False,
        "extra_tile": False,
    }
    begin_action(ctx, code, kind)  # a History text of this Round (Privilege of Cienia)
    if kind == "movement":
        movement.begin(ctx, code)
    elif kind == "assembly":
        fire(ctx, code, "on_assembly")  # Wici: +2 units; Training Grounds: a Battle card per Tiltyard


def end(ctx: Ctx) -> None:
    ctx.play["private"][ctx.action["who"]].pop("drawn", None)
    ctx.play["action"] = neutrals.follow_up(ctx, ctx.action)  # the active variant's Combined Action


def step(ctx: Ctx) -> None:
    """Pose the current action's next prompt (or finish it)."""
    action = ctx.action
    code, kind = action["who"], action["kind"]
    if kind == "combined":
        neutrals.step(ctx, action)
    elif kind == "movement":
        # even after the mover's elimination: its battles are fought by neutral units
        if movement.step(ctx):
            ctx.play["action"] = neutrals.follow_up(ctx, action)  # the active variant's Combined Action
    elif ctx.state["players"][code]["eliminated"]:
        end(ctx)
    else:
        _stage_step(ctx, action)


def _stage_step(ctx: Ctx, action: Action) -> None:
    """The next prompt of an action of a player still in the game (other than a Movement or Combined)."""
    code, kind, stage = action["who"], action["kind"], action["stage"]
    if stage == "main" and options(ctx, code, kind) == ["done"]:
        if action["count"] == 0 and not action["founded"]:
            ctx.log("skip", f"{name(code)} can do nothing with its {kind.title()} action.")
        end(ctx)  # nothing left to do: no need to ask
    elif stage == "main":
        prompt(ctx, code, kind, taxes.prompt_text(action) if kind == "taxes" else PROMPTS[kind])
    elif stage == "return" and not politics.return_options(ctx, code, action):
        end(ctx)  # the drawn cards were already sold or played: nothing is left to return
    elif stage == "return":
        prompt(ctx, code, "politics_return", politics.RETURN_PROMPT)
    elif stage == "council":
        if council.step(ctx, action):
            end(ctx)
    elif stage == "neighbour":
        neighbours.step(ctx, action)


def _council_options(ctx: Ctx, code: str, action: Action) -> list[str]:
    return council.council_options(ctx, code)


def _pledge(ctx: Ctx, code: str, action: Action, words: list[str]) -> bool:
    council.pledge(ctx, code, words)
    return False


LISTINGS: dict[str, Listing] = {
    "progress": progress.options,
    "taxes": taxes.options,
    "assembly": assembly.options,
    "building": building.options,
    "politics": politics.options,
    "politics_return": politics.return_options,
    "council": _council_options,
}
HANDLERS: dict[str, Handler] = {
    "progress": progress.answer,
    "taxes": taxes.answer,
    "assembly": assembly.answer,
    "building": building.answer,
    "politics": politics.answer,
    "politics_return": politics.return_answer,
    "council": _pledge,
}
#: the decision kinds this module answers
KINDS = tuple(LISTINGS)


def options(ctx: Ctx, code: str, kind: str) -> list[str]:
    return LISTINGS[kind](ctx, code, ctx.action)


def answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    action = ctx.action
    if words[0] == "play":
        play_text(ctx, code, words)
        return
    if words[0] == "neighbour":
        neighbours.play_card(ctx, code, action, words)
        return
    if words[0] == "as":
        _as_other_action(ctx, code, words[1])
        return
    if words == ["done"] and kind != "politics_return":
        if kind == "council":
            action["queue"].pop(0)
        else:
            if action["count"] == 0 and not action["founded"]:
                ctx.log("skip", f"{name(code)} skips its {kind.title()} action.")
            end(ctx)
        return
    if HANDLERS[kind](ctx, code, action, words):
        end(ctx)


def _as_other_action(ctx: Ctx, code: str, kind: str) -> None:
    """New Mechanisms: the revealed Progress token is used as another action."""
    revealed = ctx.play["revealed"][code]
    revealed[-1:] = [kind]  # the token counts as the chosen action (Rent in Coin reads it)
    ctx.log("wildcard", f"{name(code)} uses its Progress action as {kind.title()} (New Mechanisms).")
    begin(ctx, code, kind)
