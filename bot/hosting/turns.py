"""A player's own turn answered ahead (issue 47; ``rules.engine.turn_ahead``), the host's side: pure functions of
a loaded game, as the turn step (``step``) is.

- **Offered** (``turn_offers``): when a seat's own turns come in sight (``Game.turn_ahead``), its player gets a
  private message with the nearest one's first decision as it would be posed now, its answers as buttons; the
  reply to each turn's last answer brings the next turn. The offer goes out with the seat's own wait (it has just
  answered by its own click, or is asked now), or at the moment a turn comes in sight by something the whole
  table sees (``Game.turn_comes_publicly``: a Council summoned, a battle's window, the Round's first actions),
  never as a ping of its own, so its moment tells nothing of how the others' decisions are answered; and once per
  turn: the seat's row ``turn_key(slot)`` holds ``Order(OFFERED, (slot,))`` from then on (``DECLINED`` once the
  player chose "ask me then"). A seat that seals its choice by its own click while others still decide theirs is
  offered, with the seal, the turns it brings in sight (a plan's own actions, say) from the state with that
  choice applied (``sealed_turn_offers``; the host keeps it out of the state until the last one is in), and every
  later use of those turns reads that same state until the reveal (``Standing._turn_live``).
- **Answered** step by step (``Standing.answer_ahead_slot``): each click adds an answer to the row and brings
  the next decision of the preview, until the turn ends there or the preview stops (``preview_after``). A
  component names the step it answers (``step_slot``: the slot and the number of answers given before), so an
  old message's button cannot answer a later step.
- **Given** in turn (``rules.engine.standing.turn_action``, through the seat's orders: the same timers and notice
  as a standing order) and **used up** as the turn is played (``use_turn_answers``): the answer played was the
  one given ahead, the rest is kept; another answer, and the rest is dropped.
"""

from __future__ import annotations

import json
from dataclasses import replace

from rules.engine import Decision, State
from rules.engine.standing import (
    ASK,
    MAX_TURN_STEPS,
    OFFERED,
    Order,
    Orders,
    given_ahead,
    holds_turns,
    standing_answer,
    turn_key,
    turn_rest,
    turn_steps,
)
from rules.engine.turn_ahead import preview_after, replay_steps

from ..models import AHEAD_KIND, Choice, Prompt
from ..replay import AUTOPASS
from ..storage import decisions as stored_decisions
from .live import ASK_LABEL, Change, Live, private, standing_action

#: separates a turn's slot from the number of answers given before, in a component's slot (``step_slot``)
STEP_MARK = "#"


def step_slot(slot: str, given: int) -> str:
    """What an offer's components carry: the turn's slot and the step they answer (the answers given before)."""
    return f"{slot}{STEP_MARK}{given}"


def read_step_slot(value: str) -> tuple[str, int] | None:
    """(slot, step) of a component's slot, or None when it names no step (a single answer's slot). Untrusted."""
    slot, mark, given = value.rpartition(STEP_MARK)
    if not mark or not slot or not given.isdigit() or len(given) > 3:
        return None
    return slot, int(given)


def given_steps(orders: Orders, slot: str) -> list[tuple[str, str]]:
    """The (kind, action) answers the seat gave ahead so far for its turn of ``slot``."""
    return turn_steps(orders.get(turn_key(slot)), slot)


def turn_preview(live: Live, seat: int, slot: str, orders: Orders) -> State | None:
    """The preview of the seat's turn in sight after the answers it gave so far; None when it stopped there."""
    actions = [action for _kind, action in given_steps(orders, slot)]
    return replay_steps(live.game, live.state, seat, slot, actions)


def described_steps(live: Live, seat: int, slot: str, orders: Orders) -> list[str]:
    """The seat's answers given ahead for its turn of ``slot`` as it reads them (each described on the preview it
    was given in); as notation past the point where the preview now stops (an earlier player changed the board)."""
    game = live.game
    preview = replay_steps(game, live.state, seat, slot, [])
    described = []
    for _kind, action in given_steps(orders, slot):
        described.append(game.describe(preview, action) if preview is not None else f"`{action}`")
        preview = preview_after(game, preview, seat, slot, action) if preview is not None else None
    return described


def step_choices(live: Live, preview: State, seat: int) -> list[Choice]:
    """The answers of the preview's decision as the seat would be offered them, then "ask me then" (which
    withdraws the turn's answers given ahead)."""
    game = live.game
    answers = [a for a in game.legal_actions(preview, seat) if not game.is_free(preview, seat, a)]
    return [*(Choice(a, game.describe(preview, a)) for a in answers), Choice(ASK, ASK_LABEL)]


#: a turn's row once its player chose "ask me then" for it: nothing given ahead, and not offered again
DECLINED = "declined"


def turns_in_sight(live: Live, seat: int) -> list[Decision]:
    """The seat's turns it may answer ahead now (``Game.turn_ahead``), nearest first."""
    return live.game.turn_ahead(live.state).get(seat, []) if live.state else []


def open_turn(live: Live, seat: int, orders: Orders) -> Decision | None:
    """The seat's nearest turn in sight it can still answer ahead: not declined, its preview going on."""
    return next((turn for turn in turns_in_sight(live, seat) if step_prompt(live, seat, turn, orders)), None)


def step_prompt(
    live: Live, seat: int, decision: Decision, orders: Orders, *, explained: bool = True
) -> Prompt | None:
    """The offer of the next step of the seat's turn in sight (``decision``: its ``turn_ahead`` entry), or None
    when the preview stopped (the rest is asked when the turn comes). Not ``explained``: without the line on how
    answers given ahead work, for the reply to a step's click (the player has just read it with the offer)."""
    held = orders.get(turn_key(decision.id))
    if held is not None and held.choice == DECLINED:
        return None
    if len(given_steps(orders, decision.id)) >= MAX_TURN_STEPS:
        return None  # as many answers as one turn keeps: the rest is asked when it comes
    preview = turn_preview(live, seat, decision.id, orders)
    if preview is None or _automatic(live, preview, seat, orders):
        return None  # stopped, or nothing to decide (passed for it, or its standing orders answer it)
    posed = live.game.pending(preview)[seat]
    given = len(given_steps(orders, decision.id))
    lines = [f"{live.game.title} #{live.id}, {decision.prompt}.", posed.prompt]
    if explained:
        lines.append(
            "Answer it now, step by step (only you see it): each answer is given when your turn comes, in the "
            "rules' order, if still allowed then; what cannot be seen now is asked then."
        )
    text = "\n".join(lines)
    choices = step_choices(live, preview, seat)
    return Prompt(live.id, seat, step_slot(decision.id, given), AHEAD_KIND, text, False, choices)


def _automatic(live: Live, preview: State, seat: int, orders: Orders) -> bool:
    """Whether the preview's decision would be answered for the seat when it comes: its only answer passed, or
    one of its standing orders (not its answers given ahead) answering it."""
    game = live.game
    if game.auto_pass(preview, seat) is not None:
        return True
    standing = {key: order for key, order in orders.items() if key not in given_ahead(orders)}
    decision = game.pending(preview)[seat]
    legal = game.legal_actions(preview, seat)
    return standing_answer(game, game.view(preview, seat), seat, decision, legal, standing) is not None


def is_person(who: str) -> bool:
    """Whether a move's actor is a person's own click (not the AI's, the automatic pass's or a deadline's)."""
    return bool(who) and who not in (AUTOPASS, "deadline") and not who.startswith("ai:")


def _riding(live: Live, after: Live, movers: set[int]) -> set[int]:
    """The seats in a wait of their own after this step: a person who has just answered by their own click
    (``movers``), or who is asked now, not answered automatically (their own orders and hand tell)."""
    riding = {seat for seat in movers if not after.seats[seat].is_ai}
    for seat, decision in after.game.pending(after.state).items():
        if after.seats[seat].is_ai or after.game.auto_pass(after.state, seat) is not None:
            continue
        if standing_action(after, seat, decision, after.orders.get(after.seats[seat].user_id or "")) is None:
            riding.add(seat)
    return riding


def turn_offers(live: Live, after: Live, change: Change, now: float, movers: set[int]) -> Live:
    """Offer each human seat its turns in sight that it was not offered yet: with a wait of its own (``_riding``:
    never as a ping of its own, and its moment tells it nothing of how the others' decisions are answered), or
    at the moment the turn comes in sight when the whole table sees it come (``Game.turn_comes_publicly``: a
    Council summoned). A private message with the turn's first decision; the offer is remembered (``OFFERED``).
    Returns ``after`` with the marks in its orders (the change stores them)."""
    if not after.state or after.game.outcome(after.state).finished:
        return after
    in_sight = after.game.turn_ahead(after.state)
    if not in_sight:
        return after
    sighted = {d.id for ds in live.game.turn_ahead(live.state).values() for d in ds} if live.state else set()
    riding = _riding(live, after, movers)
    orders = {user: dict(held) for user, held in after.orders.items()}
    for seat, turns in sorted(in_sight.items()):
        fresh = _fresh(after, seat, turns, orders)
        public = any(after.game.turn_comes_publicly(turn) and turn.id not in sighted for turn in fresh)
        if seat in riding or public:
            _offer(after, seat, fresh, orders, change, now)
    return replace(after, orders=orders)


def sealed_turn_offers(live: Live, what_if: State, seat: int, change: Change, now: float) -> Live:
    """The seat has just sealed its choice by its own click while others still decide theirs: offer it its
    turns in sight from ``what_if`` (the state with its own sealed choice applied, ``turn_ahead.with_own_answer``;
    the host keeps the choice out of the state until the last one is in), as ``turn_offers`` does for a seat in
    a wait of its own. Returns ``live`` with the marks in its orders (the change stores them)."""
    shown = live.with_state(what_if)
    orders = {user: dict(held) for user, held in live.orders.items()}
    fresh = _fresh(shown, seat, live.game.turn_ahead(what_if).get(seat, []), orders)
    if not fresh:
        return live  # nothing new in sight: the game as it was
    _offer(shown, seat, fresh, orders, change, now)
    return replace(live, orders=orders)


def _fresh(
    live: Live, seat: int, turns: list[Decision], orders: dict[str, dict[str, Order]]
) -> list[Decision]:
    """The seat's turns of ``turns`` not offered yet (a seat nobody holds, or the AI's: none)."""
    user = live.seats[seat].user_id
    if user is None or live.seats[seat].is_ai:
        return []
    held = orders.get(user, {})
    return [turn for turn in turns if turn_key(turn.id) not in held]


def _offer(
    live: Live,
    seat: int,
    fresh: list[Decision],
    orders: dict[str, dict[str, Order]],
    change: Change,
    now: float,
) -> None:
    """One private message offering the seat its ``fresh`` turns: the nearest one's first step (the later ones
    follow it: each answered turn's last reply brings the next, ``Standing.turn_step_prompt``, or /ahead); each
    marked ``OFFERED`` in ``orders`` and in the change."""
    user = live.seats[seat].user_id
    if user is None or not fresh:
        return
    held = orders.setdefault(user, {})
    prompt = next((p for turn in fresh if (p := step_prompt(live, seat, turn, held))), None)
    for turn in fresh:
        held[turn_key(turn.id)] = Order(OFFERED, (turn.id,))
        change.statements.append(_row(live, user, turn.id, held[turn_key(turn.id)], now))
    dm = private(live, seat, prompt.text, with_view=False, prompt=prompt) if prompt is not None else None
    if dm is not None:
        change.deliveries.append(dm)


def use_turn_answers(
    live: Live,
    state: State,
    seat: int,
    action: str,
    orders: dict[str, dict[str, Order]],
    change: Change,
    now: float,
) -> None:
    """The seat answered ``action`` (in ``state``, before it): when that decision is part of a turn it answered
    ahead, the answer given ahead is used up (the rest kept), or the rest dropped if it answered otherwise."""
    user = live.seats[seat].user_id
    held = orders.get(user or "")
    if user is None or not held or not holds_turns(held):
        return  # the common case, on every move: no view is built for a seat holding no turn answered ahead
    decision = live.game.pending(state).get(seat)
    if decision is None:
        return
    slot = live.game.turn_slot(live.game.view(state, seat), seat, decision)
    key = turn_key(slot) if slot is not None else None
    if key is None or key not in held or not turn_steps(held[key], slot):
        return
    rest = turn_rest(held[key], action, slot) or Order(OFFERED, (str(slot),))
    orders[user] = {**held, key: rest}
    change.statements.append(_row(live, user, str(slot), rest, now))


def _row(live: Live, user: str, slot: str, order: Order, now: float) -> tuple[str, tuple[object, ...]]:
    names = json.dumps(list(order.names))
    return stored_decisions.put_order_row(live.id, user, turn_key(slot), order.choice, names, now)
