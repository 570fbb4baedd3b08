"""Every decision a PRINCIPES seat can be asked, one entry per kind (:class:`Kind`): the answers it offers, how
an answer applies, the answer a missed deadline gives, its timing (a card window asks with the short window
deadline and may pass by itself), how a refusal names it, and the verbs of its answers (their forms: what
``parse`` reads, ``notation``). The rules modules pose the prompts (``common.prompt``) and hold the logic; this
table is the one place that wires a kind to them, so a new kind is one entry here plus its rules.

The Round machine asks; :func:`pending`, :func:`legal_actions`, :func:`on_deadline` and :func:`auto_pass` read
the prompts through this table, and ``play.apply`` applies an answer through it. Verbs that answer no decision
(gifts, conversions, standing answers, Court texts at any time) are the free actions (``FREE``, ``currency``).

A kind names the standing order that may answer it in advance (``Kind.order``, a topic of ``standing``: issue
18); :func:`standing_answer` gives that order's answer from the seat's view and its legal actions only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property, partial
from typing import cast

from rules.engine import Decision, Game
from rules.engine.rng import NoChance
from rules.engine.standing import AHEAD, AHEAD_PLAN, Orders, ahead_action
from rules.engine.standing import ASK as ASK_ME

from ..schema import PlayView, PState, PView
from . import (
    actions,
    ai,
    battle,
    cards,
    dynasty,
    flow,
    history,
    movement,
    neighbours,
    neutrals,
    princesses,
    taxes,
)
from .common import Ctx, active, principality_of, prompt
from .currency import apply_free, conversion_options, free_listing, over_limit
from .notation import (
    ACTION,
    ALTERNATIVE,
    ARGUMENT,
    BUILDING,
    CARD,
    DECK,
    DIRECTION,
    FACTION,
    GORD,
    ITEM,
    LAND,
    NUMBER,
    PAYMENT,
    PLACE,
    PLAYER,
    PRINCE,
    REFUGE,
    STANDING,
    SYMBOL,
    TILE,
    TRACK,
    UNIT,
    Verb,
    literal,
)
from .standing import ANSWERERS, DEFAULT
from .views import seat_view

#: the answers a seat has for a decision of this kind now (in the order buttons show them)
Answers = Callable[[Ctx, str], list[str]]
#: applies an answer already found among the answers (the words of the action)
Apply = Callable[[Ctx, str, list[str]], None]


@dataclass
class Due:
    """A decision whose deadline passed, as the kind's default sees it: the answers are listed only if asked."""

    state: PState
    seat: int
    code: str
    kind: str

    @cached_property
    def answers(self) -> list[str]:
        return answers(self.state, self.code, self.kind)


#: the answer given for a seat whose decision expired (None: the others may claim)
Deadline = Callable[[Due], "str | None"]


def first_answer(due: Due) -> str | None:
    """The first listed answer (the rules list the mildest first: own Capital, a Court card, keep...)."""
    return due.answers[0] if due.answers else None


def always(answer: str) -> Deadline:
    """The same answer whatever is offered (``done`` ends an action, ``pass`` closes a window)."""

    def default(due: Due) -> str | None:
        return answer

    return default


def _done_else_undo(due: Due) -> str | None:
    """A Neighbour army's move ends, or takes back its last move until it may end."""
    return "done" if "done" in due.answers else "undo"


def _history_default(due: Due) -> str | None:
    return history.default(due.kind, due.answers)


def _ai_plan(due: Due) -> str | None:
    """A missing plan is the basic AI's, from the seat's own view (seeded by the Round and the seat)."""
    legal = legal_actions(due.state, due.seat)
    view = seat_view(due.state, due.seat)
    return ai.choose_plan(view, due.seat, legal, random.Random(f"{due.state['round']}:{due.seat}"))


@dataclass(frozen=True)
class Kind:
    """One kind of decision: everything the rules of play need to ask it, read an answer and time it out."""

    name: str
    #: how a refusal names it: "you are deciding <deciding>"
    deciding: str
    answers: Answers
    apply: Apply
    #: the verbs its answers start with
    verbs: tuple[Verb, ...]
    deadline: Deadline = first_answer
    #: "turn" (the game's decision deadline) or "window" (the short card-window deadline)
    timing: str = "turn"
    #: chosen secretly, at the same time as the other seats asked (commit and reveal in the host)
    sealed: bool = False
    #: a card window that passes by itself (after a short random delay, with the player's auto-pass on) when
    #: passing is the only answer
    auto_pass: bool = False
    #: a prompt of ``play["prompts"]`` (False: derived from the state, the hand limit)
    posed: bool = True
    #: the standing order (a topic of ``standing.TOPICS``) that may answer it for the player; None: always asked
    order: str | None = None


# ---- the verbs -------------------------------------------------------------------------------------------------

DONE, PASS, UNDO, STAY, COUNCIL = Verb("done"), Verb("pass"), Verb("undo"), Verb("stay"), Verb("council")
PLAY = Verb("play", ((CARD,), (CARD, ARGUMENT)))
MOVE = Verb("move", ((UNIT, PLACE, LAND),))
ASK = Verb("ask", ((LAND,),))
KEEP = Verb("keep", ((), (LAND,)))
DESTROY = Verb("destroy", ((LAND, ITEM.repeated()),))
FOUND = Verb("found", ((GORD,),))
BUILD = Verb("build", ((BUILDING, LAND),))
PLEDGE = Verb("pledge", ((CARD, TRACK),))
PLACE_PRINCE = Verb("place", ((LAND,),))
WITHDRAW = Verb("withdraw", ((UNIT, REFUGE),))
DRAW = Verb("draw", ((DECK,), (NUMBER, DECK), (NUMBER, DECK, NUMBER, DECK)))
SELL = Verb("sell", ((CARD,),))
SUPPORT = Verb("support", ((CARD, TRACK),))
ALLOW = Verb("allow", ((), (literal("always"),)))
DENY = Verb("deny", ((), (literal("always"),)))
MOVING = (MOVE, ASK, UNDO, DONE)

#: actions that answer no decision (``currency``): gifts, conversions, standing answers, Court texts any time
FREE = (
    Verb("give", ((PLAYER, NUMBER),)),
    SELL,
    SUPPORT,
    Verb("standing", ((PLAYER, STANDING),)),
    PLAY,
)


# ---- the table -------------------------------------------------------------------------------------------------


def _of_kind(apply: Callable[[Ctx, str, str, list[str]], None], kind: str) -> Apply:
    """An ``apply`` of a rules module that serves several kinds, for one of them."""

    def apply_kind(ctx: Ctx, code: str, words: list[str]) -> None:
        apply(ctx, code, kind, words)

    return apply_kind


ENDS = always("done")  # an action's prompt, a Movement, a Combined Action: the action ends


def _action(name: str, deciding: str, *verbs: Verb, deadline: Deadline = ENDS) -> Kind:
    """A prompt of the action being performed (``actions``: Court texts, ``done`` and New Mechanisms there)."""
    return Kind(
        name, deciding, partial(actions.options, kind=name), _of_kind(actions.answer, name), verbs, deadline
    )


def _history(name: str, deciding: str, *verbs: Verb, order: str | None = None) -> Kind:
    """A prompt of a History card's text or icon (``history``; the Invaders' in ``invaders``)."""
    return Kind(
        name,
        deciding,
        partial(history.options, kind=name),
        _of_kind(history.answer, name),
        verbs,
        _history_default,
        order=order,
    )


def _window(
    name: str, deciding: str, answers: Answers, apply: Apply, *verbs: Verb, sealed: bool = False
) -> Kind:
    """A card window: asked with the window deadline, passes by default and by itself when it is all one can do,
    and by the ``windows`` standing order."""
    return Kind(
        name,
        deciding,
        answers,
        apply,
        verbs,
        always("pass"),
        "window",
        sealed,
        auto_pass=True,
        order="windows",
    )


_KINDS = (
    # ---- the Round (flow)
    Kind(
        "direction",
        "the turn order direction",
        flow.direction_options,
        flow.direction_answer,
        (Verb("direction", ((DIRECTION,),)),),
        order="direction",
    ),
    Kind(
        "plan",
        "your sealed plan",
        flow.plan_options,
        flow.plan_answer,
        (Verb("plan", ((ACTION, ACTION, ACTION),)),),
        _ai_plan,
        sealed=True,
    ),
    # ---- the actions (actions, progress, taxes, assembly, building, politics, council)
    _action(
        "progress",
        "your Progress action",
        Verb("as", ((ACTION,),)),
        Verb("take", ((TILE,),)),
        Verb("exchange", ((TILE, TILE),)),
        DONE,
    ),
    replace(
        _action("taxes", "your Taxes action", Verb("collect", ((), (TRACK,))), PLAY, DONE), order="taxes"
    ),
    _action("assembly", "your Assembly action", Verb("assemble", ((UNIT, LAND),)), PLAY, DONE),
    _action("building", "your Building action", FOUND, BUILD, PLAY, DONE),
    _action(
        "politics",
        "your Politics action",
        DRAW,
        COUNCIL,
        PLAY,
        Verb("neighbour", ((CARD, FACTION),)),
        DONE,
    ),
    _action(
        "politics_return", "which drawn card to return", Verb("return", ((CARD,),)), deadline=first_answer
    ),
    replace(_action("council", "your cards at the Council", PLEDGE, PLAY, DONE), order="council"),
    Kind("movement", "your Movement", movement.options, movement.answer, MOVING, always("done")),
    Kind(
        "consent",
        "whether to let units pass",
        movement.consent_options,
        movement.consent_answer,
        (ALLOW, DENY),
        always("deny"),
        order="consent",
    ),
    Kind(
        "clergy_penalty",
        "the Clergy penalty",
        partial(movement.resolve_options, kind="clergy_penalty"),
        _of_kind(movement.resolve_answer, "clergy_penalty"),
        (Verb("penalty", ((LAND, PAYMENT),)),),
        order="clergy_penalty",
    ),
    Kind(
        "destroy",
        "whether to destroy on a land you took",
        partial(movement.resolve_options, kind="destroy"),
        _of_kind(movement.resolve_answer, "destroy"),
        (KEEP, DESTROY),
    ),
    Kind(
        "battle_order",
        "which battle comes next",
        neighbours.battle_order_options,
        neighbours.battle_order_answer,
        (Verb("battle", ((LAND,),)),),
    ),
    # ---- battles (battle)
    _window(
        "before_battle",
        "the 'before battle' card window",
        battle.window_answers,
        battle.window_answer,
        Verb("before", ((CARD,),)),
        PASS,
    ),
    _window(
        "extra_cards",
        "the extra sword or shield window",
        battle.window_answers,
        battle.window_answer,
        Verb("extra", ((CARD, SYMBOL),)),
        PASS,
    ),
    Kind(
        "reroll",
        "whether to reroll the die",
        battle.reroll_options,
        battle.reroll_answer,
        (Verb("reroll"), KEEP),
        always("keep"),
        "window",
        order="dice",
    ),
    Kind(
        "flip",
        "whether to flip the die",
        battle.flip_options,
        battle.flip_answer,
        (Verb("flip"), KEEP),
        always("keep"),
        "window",
        order="dice",
    ),
    Kind(
        "withdraw",
        "where beaten units withdraw",
        battle.withdraw_answers,
        battle.withdraw_answer,
        (WITHDRAW,),
        order="withdraw",
    ),
    _window(
        "after_battle",
        "your 'after battle' cards",
        battle.after_options,
        battle.after_answer,
        Verb("after", ((CARD.repeated(),),)),
        PASS,
        sealed=True,
    ),
    # ---- dynasties (dynasty)
    Kind(
        "prince_choice",
        "your new Prince",
        dynasty.choice_options,
        dynasty.choice_answer,
        (Verb("prince", ((PRINCE,),)),),
    ),
    Kind(
        "prince_place",
        "where your Prince stands",
        dynasty.place_options,
        dynasty.place_answer,
        (PLACE_PRINCE, STAY),
    ),
    Kind(
        "respawn",
        "where the neutral Prince returns",
        dynasty.respawn_options,
        dynasty.respawn_answer,
        (Verb("respawn", ((LAND,),)),),
    ),
    # ---- cards (currency, cards, neighbours)
    Kind(
        "hand_limit",
        "which cards to convert (hand limit)",
        conversion_options,
        apply_free,
        (SELL, SUPPORT),
        posed=False,
        order="hand_limit",
    ),
    _window(
        "court_reaction",
        "whether to cancel a Court card",
        cards.reaction_options,
        cards.reaction_answer,
        Verb("cancel", ((CARD,),)),
        PASS,
    ),
    _window(
        "neighbour_block",
        "whether to block a Neighbour",
        neighbours.block_options,
        neighbours.block_answer,
        Verb("block", ((CARD,),)),
        PASS,
    ),
    Kind(
        "neighbour_move",
        "the Neighbour's moves",
        neighbours.move_options,
        neighbours.move_answer,
        MOVING,
        _done_else_undo,
        order="neighbour_move",
    ),
    Kind(
        "neighbour_destroy",
        "whether the Neighbour destroys",
        neighbours.destroy_options,
        neighbours.destroy_answer,
        (KEEP, DESTROY),
    ),
    Kind(
        "combined",
        "a Combined Action",
        neutrals.options,
        neutrals.answer,
        (
            Verb(
                "combined",
                ((literal("assemble"), FACTION), (literal("move"), FACTION), (literal("castle"), LAND)),
            ),
            DONE,
        ),
        always("done"),
    ),
    # ---- Princesses (princesses)
    Kind(
        "princess",
        "your Princess's mission",
        partial(princesses.options, kind="princess"),
        _of_kind(princesses.answer, "princess"),
        (Verb("send", ((PLACE,),)),),
        order="princess",
    ),
    Kind(
        "princess_draw",
        "which card your Princess brings",
        partial(princesses.options, kind="princess_draw"),
        _of_kind(princesses.answer, "princess_draw"),
        (DRAW,),
        order="princess_draw",
    ),
    Kind(
        "princess_discard",
        "which card to discard",
        partial(princesses.options, kind="princess_discard"),
        _of_kind(princesses.answer, "princess_discard"),
        (Verb("discard", ((CARD,),)),),
        order="princess_discard",
    ),
    # ---- History cards and their icons (history, invaders)
    _history("history_choice", "history choice", Verb("choose", ((ALTERNATIVE,),)), order="history_choice"),
    _history("history_build", "history build", FOUND, BUILD, PASS, order="history_build"),
    _history("history_relocate", "history relocate", PLACE_PRINCE, STAY),
    _history("division", "division", Verb("division", ((LAND,),)), PASS, order="division"),
    _history("urbanization", "urbanization", FOUND, PASS, order="urbanization"),
    _history("release", "release", Verb("release", ((UNIT, LAND),)), order="release"),
    _history("common_council", "common council", PLEDGE, PLAY, DONE, order="council"),
    _history("teutonic_call", "teutonic call", Verb("call"), PASS, order="teutonic_call"),
    _history("invader_move", "the Invaders' moves", *MOVING, order="invader_move"),
    _history("culmen_withdraw", "where your units leave Culmen for", WITHDRAW),
)
KINDS: dict[str, Kind] = {kind.name: kind for kind in _KINDS}


def _verbs(*groups: tuple[Verb, ...]) -> dict[str, Verb]:
    found: dict[str, Verb] = {}
    for verb in (verb for group in groups for verb in group):
        if found.setdefault(verb.word, verb) != verb:
            raise ValueError(f"two different forms of the verb {verb.word!r}")
    return found


#: every verb, the first word of every action
VERBS = _verbs(*(kind.verbs for kind in _KINDS), FREE)

_LISTING = NoChance()  # listing answers never draws


# ---- asking ----------------------------------------------------------------------------------------------------


def pending(state: PState) -> dict[int, Decision]:
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


def answers(state: PState, code: str, kind: str) -> list[str]:
    """The answers ``code`` has to its decision of ``kind`` now."""
    return KINDS[kind].answers(Ctx(state, _LISTING), code)


def legal_actions(state: PState, seat: int) -> list[str]:
    if state.get("play") is None or state["play"]["result"] is not None:
        return []
    code = principality_of(state, seat)
    if not active(state, code):
        return []
    decision = pending(state).get(seat)
    offered = answers(state, code, decision.kind) if decision else []
    seen = set(offered)
    return offered + [
        action for action in free_listing(state, code, decision is not None) if action not in seen
    ]


def on_deadline(state: PState, seat: int) -> str | None:
    """Missing plan: the AI's plan; consent: deny; card windows: pass; action prompts: done (skip); others: the
    kind's default (``Kind.deadline``)."""
    decision = pending(state).get(seat)
    if decision is None:
        return None
    due = Due(state, seat, principality_of(state, seat), decision.kind)
    return KINDS[decision.kind].deadline(due)


def auto_pass(state: PState, seat: int) -> str | None:
    """The answer a host may give for the seat after a short random delay: ``pass`` when the seat's decision is
    a card window (battle windows, the Neighbour blocking window, the Papal Legate's; ``Kind.auto_pass`` and
    ``Decision.timing == "window"``) and passing is its only answer. Every player who could act in a window gets
    it whatever their hand, so a host that waits a random moment before taking this pass (and honours the
    player's auto-pass setting) reveals nothing through the prompt or its timing. ``None``: the player has
    something to decide."""
    decision = pending(state).get(seat)
    if decision is None or decision.timing != "window" or not KINDS[decision.kind].auto_pass:
        return None
    offered = answers(state, principality_of(state, seat), decision.kind)
    return "pass" if offered == ["pass"] else None


def ahead_slot(play: PlayView, round_no: int, kind: str) -> str | None:
    """The slot of the decision of ``kind`` a later player may answer ahead (its name, the same for each player
    of the queue and never again in the game), or None: the queued History prompts (``history.slot``) and the
    Princess missions (``princesses.slot``)."""
    if kind in princesses.AHEAD_KINDS:
        return princesses.slot(round_no, kind)
    return history.slot(play, round_no, kind)


def _ahead_prompt(play: PlayView, kind: str) -> str:
    if kind in princesses.AHEAD_KINDS:
        return princesses.ahead_prompt(kind)
    return history.ahead_prompt(play, kind)


def ahead(state: PState) -> dict[int, Decision]:
    """The queued decisions later players may answer ahead (``history.ahead``, ``princesses.ahead``), by seat;
    each decision's id is its slot (``ahead_slot``)."""
    play = state.get("play")
    if play is None or play["result"] is not None:
        return {}
    ctx = Ctx(state, _LISTING)
    found = {**history.ahead(ctx), **princesses.ahead(ctx)}
    return {
        state["players"][code]["seat"]: Decision(
            str(ahead_slot(play, state["round"], kind)), kind, _ahead_prompt(play, kind)
        )
        for code, kind in found.items()
    }


def ahead_state(state: PState, seat: int) -> PState | None:
    """A copy of the state with the seat's upcoming queued decision posed (its id the slot), as if its turn had
    come: what the seat answers ahead from (its view, its legal actions)."""
    decision = ahead(state).get(seat)
    if decision is None:
        return None
    preview = Game.copy_state(state)
    prompt(
        Ctx(preview, _LISTING),
        principality_of(state, seat),
        decision.kind,
        decision.prompt,
        decision_id=decision.id,
    )
    return preview


def standing_answer(
    view: PView, seat: int, decision: Decision, legal: list[str], orders: Orders
) -> str | None:
    """The answer the seat's standing order for this kind of decision gives (``Kind.order``; ``standing``), from
    the seat's view and legal actions only: the answers of the decision are the legal actions its verbs start
    (free actions come after them); an order that says ``default`` gives what a missed deadline would. An answer
    the seat gave ahead for this very decision (its slot) comes first."""
    if AHEAD in orders or AHEAD_PLAN in orders:
        slot = (
            taxes.ahead_slot(view)
            if decision.kind == "taxes"
            else ahead_slot(view["play"], view["round"], decision.kind)
        )
        given = ahead_action(orders, slot, legal)
        if given is not None:
            return given
    kind = KINDS.get(decision.kind)
    topic = kind.order if kind is not None else None
    order = orders.get(topic) if topic is not None else None
    if kind is None or topic is None or order is None or order.choice == ASK_ME:
        return None
    words = {verb.word for verb in kind.verbs}
    offered = [action for action in legal if action.split()[0] in words]
    code = principality_of(view, seat)
    if order.choice == DEFAULT:
        # the deadline's answers read the position through the seat's view, which shows all they read (the
        # view-only tests of the standing orders hold it to that)
        due = Due(cast(PState, view), seat, code, kind.name)
        due.__dict__["answers"] = offered  # the cached answers: those the seat's legal actions show
        return kind.deadline(due)
    return ANSWERERS[topic](view, code, offered, order)
