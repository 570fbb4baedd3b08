"""PRINCIPES II: the rules of play, as pure functions the ``Principes`` game class delegates to.

Entry points: ``start_play`` (after P1's ``new_game``), ``pending``, ``legal_actions``, ``is_free``, ``apply``,
``outcome``, ``parse``, ``describe``, ``on_deadline``, ``auto_pass``, ``view_play``, ``secrets_play``,
``choose_action`` and ``RULES_NOTES_PLAY``. Every kind of decision is one entry of the table in ``decisions``
(its answers, how an answer applies, its deadline default, its timing, how a refusal names it, the verbs and
forms of its answers); the rules of each rulebook section live in the module named after it.

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

from rules.engine import Applied, Game, IllegalAction, InvalidAction, Outcome, Rng

from ..schema import PlayView, PState, PView

# every rules module is imported here (through ``decisions``, which wires them) and so is every AI level: the
# effect primitives and AI levels they register are complete before anything runs
from . import ai, ai_expert, battle, flow, invaders, princesses, together
from . import ai_strong as ai_strong  # registers the strong level in ai.LEVELS
from .common import Ctx, clear_prompt, principality_of, sync_assets
from .currency import FREE_VERBS, apply_free, is_any_time_play
from .decisions import (
    KINDS,
    VERBS,
    ahead,
    ahead_state,
    answers,
    auto_pass,
    legal_actions,
    on_deadline,
    pending,
    standing_answer,
)
from .flow import start_play
from .labels import describe_action
from .notation import problem, read_names
from .notes import RULES_NOTES_PLAY
from .refusals import why_not
from .standing import RECOMMENDED as RECOMMENDED_ORDERS
from .standing import TOPICS as STANDING_TOPICS
from .taxes import plan_ahead
from .views import seat_view, secrets_play, view_play

ALIASES = {"skip": "done", "end": "done", "cw": "direction cw", "ccw": "direction ccw"}


# ---- answering -------------------------------------------------------------------------------------------------


def is_free(state: PState, seat: int, action: str) -> bool:
    words = action.split()
    if words and words[0] == "play" and state.get("play") is not None:
        return is_any_time_play(state, principality_of(state, seat), words)
    if not words or words[0] not in FREE_VERBS or state.get("play") is None:
        return False
    decision = pending(state).get(seat)
    return not (decision is not None and decision.kind == "hand_limit" and words[0] in ("sell", "support"))


def apply(state: PState, seat: int, action: str, rng: Rng) -> Applied[PState]:
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
        kind = KINDS[decision.kind]
        offered = answers(state, code, kind.name)
        if action not in offered:
            verb = VERBS.get(words[0]) if words else None
            raise IllegalAction(why_not(state, code, kind.deciding, action, offered, verb))
        if kind.posed:
            clear_prompt(ctx, code)
        if not together.seal(ctx, code, decision, words):  # an answer sealed together waits for its turn
            kind.apply(ctx, code, words)
    flow.advance(ctx)
    _settle(ctx)
    return Applied(ctx.state, ctx.events)


def _drop_dead_prompts(ctx: Ctx) -> None:
    """A conversion may take away the cards a prompt offered (a drawn card sold before its return, or the cards
    of a discard asked together): such a prompt is withdrawn and the machine moves on."""
    for code, entry in list(ctx.play["prompts"].items()):
        sealable = not entry["sealed"] or together.asked_together(entry["id"])  # a plan always has answers
        if sealable and not answers(ctx.state, code, entry["kind"]):
            clear_prompt(ctx, code)
            together.withdraw(ctx, code)


def _settle(ctx: Ctx) -> None:
    """Pomeranians come home when free; Tiltyards, Abbeys and Lancicia follow control and a Princess leaves a
    Capital that changed hands, except while units are still moved in free mode (moves may be undone)."""
    battle.return_pomeranians(ctx)
    invaders.return_teutons(ctx)
    if not in_free_mode(ctx.play):
        sync_assets(ctx)
        princesses.check(ctx)


FREE_MODE_STAGES = ("move", "consent")


def in_free_mode(play: PlayView) -> bool:
    """Whether a Movement, or a Neighbour, neutral or Invader army, is still being moved (undo allowed)."""
    action = play["action"]
    if action is not None and action["kind"] == "movement" and action["stage"] in FREE_MODE_STAGES:
        return True
    event = play.get("event")
    armies = (event.get("army") if event else None, action.get("neighbour") if action else None)
    return any(army is not None and army.get("stage") in FREE_MODE_STAGES for army in armies)


def outcome(state: PState) -> Outcome:
    found = flow.result(state)
    if found is None:
        return Outcome(finished=False)
    return Outcome(finished=True, winners=tuple(found["winners"]), draw=found["draw"], reason=found["reason"])


# ---- notation ----------------------------------------------------------------------------------------------


def parse(state: PState, seat: int, text: str) -> str:
    """Lower case, single spaces, commas dropped; a few aliases (skip = done, cw/ccw = direction); cards,
    tiles, lands, gords, areas and factions may be named by their titles (``notation``). Text that does not
    read as an action (an unknown verb, a word that names nothing of its kind, a word missing or too many) is
    refused here with ``InvalidAction``; readable text the rules forbid is ``apply``'s to refuse."""
    canonical = " ".join(text.replace(",", " ").strip().lower().split())
    canonical = ALIASES.get(canonical, canonical)
    if not canonical:
        raise InvalidAction("Type an action, for example one of those /move suggests (or 'done').")
    verb = VERBS.get(canonical.split()[0])
    if verb is None:
        raise InvalidAction(
            f"'{canonical.split()[0]}' is not a PRINCIPES action word; /move lists the actions."
        )
    playing = state.get("play") is not None and 0 <= seat < len(state["seats"])
    legal = legal_actions(state, seat) if playing else []
    if canonical in legal:
        return canonical
    hand = state["players"][principality_of(state, seat)]["hand"] if playing else []
    read = read_names(canonical, legal, hand, verb.reading_roles())
    if read in legal:
        return read
    unreadable = problem(read.split(), verb, legal)
    if unreadable:
        raise InvalidAction(unreadable)
    return read


def describe(state: PState, action: str) -> str:
    return describe_action(state, action)


def choose_action(view: PView, seat: int, legal: Sequence[str], level: str, rng: random.Random) -> str:
    return ai.choose_action(view, seat, legal, level, rng)


#: the rules the ``expert`` level's simulations play by (its layer cannot import them)
EXPERT_RULES = ai_expert.Rules(apply=apply, pending=pending, legal_actions=legal_actions, view=seat_view)


def _expert(view: PView, seat: int, legal: Sequence[str], rng: random.Random, level: str) -> str:
    """``expert``, or ``expert:3s`` for a longer time cap per decision."""
    budget = ai_expert.EXPERT_BUDGET.for_level(level)
    return ai_expert.choose(view, seat, list(legal), rng, EXPERT_RULES, budget)


ai.TIMED_LEVELS["expert"] = _expert


__all__ = [
    "EXPERT_RULES",
    "RECOMMENDED_ORDERS",
    "RULES_NOTES_PLAY",
    "STANDING_TOPICS",
    "apply",
    "auto_pass",
    "choose_action",
    "describe",
    "is_free",
    "legal_actions",
    "on_deadline",
    "outcome",
    "parse",
    "plan_ahead",
    "pending",
    "secrets_play",
    "standing_answer",
    "ahead",
    "ahead_state",
    "start_play",
    "view_play",
]
