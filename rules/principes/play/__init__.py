"""PRINCIPES II: the rules of play, as pure functions the ``Principes`` game class delegates to.

Entry points: ``start_play`` (after P1's ``new_game``), ``pending``, ``legal_actions``, ``is_free``, ``apply``,
``outcome``, ``parse``, ``describe``, ``on_deadline``, ``view_play``, ``secrets_play``, ``choose_action`` and
``RULES_NOTES_PLAY``.

The play sub-state ``state["play"]`` (see ``flow.start_play``)::

    {"seq": n,                               # decision id counter
     "phase": "direction"|"plan"|"actions"|"end"|"over",
     "prompts": {principality: {"id", "kind", "text", "timing", "sealed"}},   # open decisions
     "order": [principalities], "slot": 0..3, "turn": i,                      # the Round's turn order, progress
     "revealed": {principality: [actions revealed this Round]},
     "action": None | {"who", "kind", "stage", ...},   # the action being performed (movement: pieces, moves...)
     "battle": None | {...},                           # the battle being fought (see ``battle``)
     "succession": [{"who", "why", "stage"}],          # Prince changes waiting
     "council": None | host principality,              # a Council's card phase is running
     "last_round": 6, "standing": {p: {other: "allow"|"deny"}}, "private": {p: {...}},
     "assets": {p: [tiltyards, abbeys + Lancicia]}, "pomerania_out": {faction: {unit: n}},
     "battles": n, "result": None | {"winners": [seats], "draw": bool, "reason": str},
     # PRINCIPES III (cards and tiles, see ``effects_engine``, ``cards``, ``neighbours``):
     "reaction": None | {"who", "card", "words", "waiting": [p]},   # a Court text waiting for Papal Legates
     "round_effects": [{"who", "source", "effect", "land"}],         # this_round(...) texts (Truce of God)
     "pairs": {p: [colours scored by Chronicle]}, "last_built": None | building (French Style)}

PRINCIPES IV (``history``, ``invaders``): ``"event": None | {"part": "text"|"icons", "card", "queue", "icon",
"icons", "army", "movers", "caller", ...}`` is a History card's text or icons being resolved (it runs after a
succession or a battle in progress, before the action and the Round's phase); ``"icons_round"`` the Round whose
icons were opened; ``"teutons"`` True once the Teutonic Knights were called. Its prompts (default on a missed
deadline in brackets): ``history_choice`` (``choose pay|clergy``; [the first]), ``history_build`` (``found
<gord>``, ``build castle <land>``; [pass]), ``history_relocate`` (``place <land>``; [stay]), ``division``
(``division <land>``; [pass]), ``urbanization`` (``found <gord>``; [pass]), ``release`` (``release <unit>
<land>``; [the first]), ``common_council`` (``pledge``/``play`` Council cards; [done]), ``teutonic_call``
(``call``; [pass]) and ``invader_move`` (``move <unit> <from> <to>``, ``undo``, ``done``; [done, or undo until
done is legal]).

The Politics action may hold ``neighbour`` (a Neighbour card being blocked/moved) and ``neighbours_done``; the
Taxes/Assembly/Building/Progress actions keep the counters the cards and tiles change (``tax_people``,
``extra_units``, ``free_knight``, ``cities``, ``extra_tile``).

PRINCIPES IV (see ``princesses``): ``princesses`` ({p: {"last", "host"}}) and ``princess_queue`` (the mission,
draw and discard steps still to resolve). Prompt kinds: ``princess`` (``send <area>``: a Neighbour's area, one's
own Capital or a rival's Capital; deadline default: the first listed, one's own Capital when allowed),
``princess_draw`` (``draw court`` | ``draw neighbour``; default ``draw court``), ``princess_discard``
(``discard <card>``; conversions stay free meanwhile; default the first Court or Neighbour card in hand).
Option ``neutrals=active`` (see ``neutrals``): after an Assembly, Movement or Building the prompt ``combined``
offers ``combined assemble <faction>``, ``combined move <faction>`` (then ``neighbour_move`` prompts) or
``combined castle <land>`` for a neutral principality, or ``done`` (the deadline default).
Taxes offers ``collect clergy`` while Władysław Spindleshanks rules (his Prince card).

Issue 17 (resolutions 47-53): ``play["contested"]`` ({land: controller}) keeps the controller of a land where two
sides stand until its battle is decided (``common.add_units`` writes it, ``state.controllers`` reads it). An
army being moved (a Neighbour's, a neutral principality's, the Invaders') may ``ask <land>`` for passage: the
``consent`` prompt serves it as it serves a Movement (``movement.passage_record``; default deny). ``battle_order``
lets the mover of an army choose its next battle (default: the first in map order); ``withdraw <unit> home``
sends beaten Neighbour units home (their default); ``respawn`` (``respawn <land>``; default his Capital) asks the
player who removed a neutral Prince where he returns (``play["respawn"]`` queues them, after the battle);
``culmen_withdraw`` (``withdraw <unit> <land>``; default the first) asks the caller of the Teutonic Knights where
its units leave Culmen for. A refused answer says why (``refusals``); ``parse`` reads titles and names
(``notation``).

The sealed plan is stored in P1's ``players[p]["plan"]`` (hidden by P1's views). ``private`` and ``standing``
are stripped from every view but their owner's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import permutations
from typing import Any

from rules.engine import Applied, Decision, Game, IllegalAction, InvalidAction, Outcome, Rng, State, View
from rules.engine.rng import NoChance

from . import (
    actions,
    ai,
    ai_strong,  # noqa: F401  (imported for its registration of the strong level)
    battle,
    cards,
    dynasty,
    flow,
    history,
    invaders,
    movement,
    neighbours,
    neutrals,
    princesses,
)
from .common import ACTIONS, Ctx, active, clear_prompt, principality_of, sync_assets
from .currency import FREE_VERBS, apply_free, conversions, free_listing, is_any_time_play, over_limit
from .flow import start_play
from .labels import describe_action
from .notation import read_names
from .notes import RULES_NOTES_PLAY
from .refusals import why_not
from .views import seat_view, secrets_play, view_play

ACTION_KINDS = actions.KINDS
PLANS = [f"plan {' '.join(p)}" for p in permutations(ACTIONS, 3)]
CONSENT = ["allow", "deny", "allow always", "deny always"]
VERBS = {
    "plan",
    "direction",
    "take",
    "exchange",
    "collect",
    "assemble",
    "found",
    "build",
    "draw",
    "return",
    "council",
    "pledge",
    "move",
    "ask",
    "undo",
    "allow",
    "deny",
    "penalty",
    "destroy",
    "keep",
    "battle",
    "before",
    "extra",
    "pass",
    "reroll",
    "flip",
    "play",
    "as",
    "neighbour",
    "block",
    "cancel",
    "withdraw",
    "after",
    "prince",
    "place",
    "stay",
    "done",
    "choose",
    "division",
    "release",
    "call",
    "send",
    "discard",
    "combined",
    "respawn",
    *FREE_VERBS,
}
ALIASES = {"skip": "done", "end": "done", "cw": "direction cw", "ccw": "direction ccw"}


_LISTING = NoChance()  # listing answers never draws


def _ctx(state: State) -> Ctx:
    return Ctx(state, _LISTING)


# ---- decisions ---------------------------------------------------------------------------------------------


def pending(state: State) -> dict[int, Decision]:
    play = state.get("play")
    if play is None or play["result"] is not None:
        return {}
    over = {code: n for code in state["seats"] if (n := over_limit(state, code))}
    if over:  # the hand limit is enforced at once: the game waits for the conversions
        return {
            state["players"][code]["seat"]: Decision(
                f"hand-{play['seq']}-{code}-{len(state['players'][code]['hand'])}",
                "hand_limit",
                f"Your hand is over the limit: sell or play {n} card(s) for support.",
            )
            for code, n in over.items()
        }
    return {
        state["players"][code]["seat"]: Decision(
            p["id"], p["kind"], p["text"], sealed=p["sealed"], timing=p["timing"]
        )
        for code, p in play["prompts"].items()
    }


def _answers(state: State, code: str, kind: str) -> list[str]:
    ctx = _ctx(state)
    if kind == "direction":
        return ["direction cw", "direction ccw"]
    if kind == "plan":
        return PLANS
    if kind in ACTION_KINDS:
        return actions.options(ctx, code, kind)
    if kind == "movement":
        return movement.options(ctx, code)
    if kind in neighbours.KINDS:
        return neighbours.options(ctx, code, kind)
    if kind in princesses.KINDS:
        return princesses.options(ctx, code, kind)
    if kind == "combined":
        return neutrals.options(ctx, code)
    if kind == "court_reaction":
        return cards.reaction_options(ctx, code)
    if kind == "consent":
        return CONSENT
    if kind in ("clergy_penalty", "destroy"):
        return movement.resolve_options(ctx, code, kind)
    if kind == "battle_order":
        return neighbours.battle_order_options(ctx, code)
    current = state["play"]["battle"]
    if kind in ("before_battle", "extra_cards"):
        stage = current["stage"]
        return battle.window_options(ctx, code, current, stage.split("_")[0], stage.split("_")[1])
    if kind == "reroll":
        return ["reroll", "keep"]
    if kind == "flip":
        return ["flip", "keep"]
    if kind == "withdraw":
        return battle.withdraw_options(ctx, current)
    if kind == "after_battle":
        return battle.after_options(ctx, code)
    if kind == "prince_choice":
        return [f"prince {p.lower()}" for p in state["play"]["succession"][0]["candidates"]]
    if kind == "prince_place":
        return dynasty.place_options(ctx, code)
    if kind == "respawn":
        return dynasty.respawn_options(ctx, code)
    if kind == "hand_limit":
        return conversions(state, code)
    if kind in history.KINDS:
        return history.options(ctx, code, kind)
    raise KeyError(kind)


def legal_actions(state: State, seat: int) -> list[str]:
    if state.get("play") is None or state["play"]["result"] is not None:
        return []
    code = principality_of(state, seat)
    if not active(state, code):
        return []
    decision = pending(state).get(seat)
    answers = _answers(state, code, decision.kind) if decision else []
    seen = set(answers)
    return answers + [
        action for action in free_listing(state, code, decision is not None) if action not in seen
    ]


def is_free(state: State, seat: int, action: str) -> bool:
    words = action.split()
    if words and words[0] == "play" and state.get("play") is not None:
        return is_any_time_play(state, principality_of(state, seat), words)
    if not words or words[0] not in FREE_VERBS or state.get("play") is None:
        return False
    decision = pending(state).get(seat)
    return not (decision is not None and decision.kind == "hand_limit" and words[0] in ("sell", "support"))


def apply(state: State, seat: int, action: str, rng: Rng) -> Applied:
    """Never mutates ``state``; refuses with ``IllegalAction`` and a sentence."""
    if state["play"]["result"] is not None:
        raise IllegalAction("The game is over.")
    if not 0 <= seat < len(state["seats"]):
        raise IllegalAction("There is no such seat.")
    ctx = Ctx(Game.copy_state(state), rng)
    code = principality_of(state, seat)
    words = action.split()
    if is_free(state, seat, action):
        apply_free(ctx, code, words)
        _drop_dead_prompts(ctx)
    else:
        decision = pending(state).get(seat)
        if decision is None:
            raise IllegalAction("It is not your turn: the game waits for someone else.")
        answers = _answers(state, code, decision.kind)
        if action not in answers:
            raise IllegalAction(why_not(state, code, decision.kind, action, answers))
        if decision.kind == "hand_limit":
            apply_free(ctx, code, words)
        else:
            clear_prompt(ctx, code)
            _answer(ctx, code, decision.kind, words)
    flow.advance(ctx)
    _settle(ctx)
    return Applied(ctx.state, ctx.events)


def _drop_dead_prompts(ctx: Ctx) -> None:
    """A conversion may take away the cards a prompt offered (a drawn card sold before its return): such a
    prompt is withdrawn and the machine moves on."""
    for code, entry in list(ctx.play["prompts"].items()):
        if not entry["sealed"] and not _answers(ctx.state, code, entry["kind"]):
            clear_prompt(ctx, code)


def _answer(ctx: Ctx, code: str, kind: str, words: list[str]) -> None:
    if kind == "direction":
        flow.choose_direction(ctx, words[1])
    elif kind == "plan":
        flow.seal_plan(ctx, code, words[1:])
    elif kind in ACTION_KINDS:
        actions.answer(ctx, code, kind, words)
    elif kind == "movement":
        _movement_answer(ctx, code, words)
    elif kind == "consent":
        movement.consent_answer(ctx, code, words)
    elif kind in neighbours.KINDS:
        neighbours.answer(ctx, code, kind, words)
    elif kind in princesses.KINDS:
        princesses.answer(ctx, code, kind, words)
    elif kind == "combined":
        neutrals.answer(ctx, code, words)
    elif kind == "court_reaction":
        cards.reaction_answer(ctx, code, words)
    elif kind in ("clergy_penalty", "destroy"):
        movement.resolve_answer(ctx, code, kind, words)
    elif kind == "battle_order":
        neighbours.battle_order_answer(ctx, code, words)
    elif kind in ("before_battle", "extra_cards"):
        battle.window_answer(ctx, code, words)
    elif kind == "reroll":
        battle.reroll_answer(ctx, words)
    elif kind == "flip":
        battle.flip_answer(ctx, code, words)
    elif kind == "withdraw":
        battle.withdraw_answer(ctx, words)
    elif kind == "after_battle":
        battle.after_answer(ctx, code, words)
    elif kind == "prince_choice":
        entry = ctx.play["succession"][0]
        dynasty.crown(ctx, entry, next(p for p in entry["candidates"] if p.lower() == words[1]))
    elif kind == "prince_place":
        dynasty.place(ctx, code, None if words == ["stay"] else words[1])
    elif kind == "respawn":
        dynasty.respawn(ctx, words[1])
    elif kind in history.KINDS:
        history.answer(ctx, code, kind, words)


def _movement_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    if words[0] == "move":
        movement.move(ctx, code, words[1], words[2], words[3])
    elif words[0] == "ask":
        movement.ask(ctx, code, words[1])
    elif words[0] == "undo":
        movement.undo(ctx, code)
    else:
        movement.finish_moves(ctx)


def _settle(ctx: Ctx) -> None:
    """Pomeranians come home when free; Tiltyards, Abbeys and Lancicia follow control and a Princess leaves a
    Capital that changed hands, except while units are still moved in free mode (moves may be undone)."""
    battle.return_pomeranians(ctx)
    invaders.return_teutons(ctx)
    if not in_free_mode(ctx.play):
        sync_assets(ctx)
        princesses.check(ctx)


FREE_MODE_STAGES = ("move", "consent")


def in_free_mode(play: dict[str, Any]) -> bool:
    """Whether a Movement, or a Neighbour, neutral or Invader army, is still being moved (undo allowed)."""
    action = play["action"]
    if action is not None and action["kind"] == "movement" and action["stage"] in FREE_MODE_STAGES:
        return True
    armies = ((play.get("event") or {}).get("army"), (action or {}).get("neighbour"))
    return any(army is not None and army.get("stage") in FREE_MODE_STAGES for army in armies)


def outcome(state: State) -> Outcome:
    found = flow.result(state)
    if found is None:
        return Outcome(finished=False)
    return Outcome(finished=True, winners=tuple(found["winners"]), draw=found["draw"], reason=found["reason"])


# ---- notation ----------------------------------------------------------------------------------------------


def parse(state: State, seat: int, text: str) -> str:
    """Lower case, single spaces, commas dropped; a few aliases (skip = done, cw/ccw = direction); cards,
    tiles, lands, gords, areas and factions may be named by their titles (``notation``)."""
    canonical = " ".join(text.replace(",", " ").strip().lower().split())
    canonical = ALIASES.get(canonical, canonical)
    if not canonical:
        raise InvalidAction("Type an action, for example one of those /move suggests (or 'done').")
    if canonical.split()[0] not in VERBS:
        raise InvalidAction(
            f"'{canonical.split()[0]}' is not a PRINCIPES action word; /move lists the actions."
        )
    if state.get("play") is None or not 0 <= seat < len(state["seats"]):
        return canonical
    legal = legal_actions(state, seat)
    if canonical in legal:
        return canonical
    return read_names(canonical, legal, state["players"][principality_of(state, seat)]["hand"])


def describe(state: State, action: str) -> str:
    return describe_action(state, action)


# ---- deadlines ---------------------------------------------------------------------------------------------

WINDOW_PASS = {"before_battle", "extra_cards", "after_battle", "neighbour_block", "court_reaction"}


def on_deadline(state: State, seat: int) -> str | None:
    """Missing plan: the AI's plan; consent: deny; card windows: pass; action prompts: done (skip)."""
    decision = pending(state).get(seat)
    if decision is None:
        return None
    code = principality_of(state, seat)
    kind = decision.kind
    if kind == "plan":
        legal = legal_actions(state, seat)
        return ai.choose_plan(
            seat_view(state, seat),
            seat,
            legal,
            random.Random(f"{state['round']}:{seat}"),
        )
    if kind == "consent":
        return "deny"
    if kind in WINDOW_PASS:
        return "pass"
    if kind in ("reroll", "flip"):
        return "keep"
    if kind in ACTION_KINDS and kind != "politics_return" or kind in ("movement", "combined"):
        return "done"
    if kind == "neighbour_move":
        return "done" if "done" in _answers(state, code, kind) else "undo"
    if kind in history.KINDS:
        return history.default(kind, _answers(state, code, kind))
    answers = _answers(state, code, kind)
    if kind == "destroy":
        return answers[0]  # keep
    return answers[0] if answers else None


def auto_pass(state: State, seat: int) -> str | None:
    """The answer a host may give for the seat after a short random delay: ``pass`` when the seat's decision is
    a card window (battle windows, the Neighbour blocking window; ``Decision.timing == "window"``) and passing
    is its only answer. Every player who could act in a window gets it whatever their hand, so a host that
    waits a random moment before taking this pass (and honours the player's auto-pass setting) reveals nothing
    through the prompt or its timing. ``None``: the player has something to decide."""
    decision = pending(state).get(seat)
    if decision is None or decision.timing != "window" or decision.kind not in WINDOW_PASS:
        return None
    answers = _answers(state, principality_of(state, seat), decision.kind)
    return "pass" if answers == ["pass"] else None


def choose_action(view: View, seat: int, legal: Sequence[str], level: str, rng: random.Random) -> str:
    return ai.choose_action(view, seat, legal, level, rng)


__all__ = [
    "RULES_NOTES_PLAY",
    "apply",
    "auto_pass",
    "choose_action",
    "describe",
    "is_free",
    "legal_actions",
    "on_deadline",
    "outcome",
    "parse",
    "pending",
    "secrets_play",
    "start_play",
    "view_play",
]
