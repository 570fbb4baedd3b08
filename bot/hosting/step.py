"""The turn step: from a loaded game and the moves to apply, the game after them and the ``Change`` to store.

A pure function (no database, no clock, no randomness of its own): what it needs besides the game is read before
it and passed in as plain data (``Turn``: the moment, the deadlines armed, a multi-step action in progress), so
the same input always gives the same output and tests run it with no database at all. The host's play part
loads the game, reads the ``Turn``, runs the step and stores its change in one transaction.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from rules.engine import Applied, Decision, Event, Game, InvalidAction, Rng, RulesError, State
from rules.engine.standing import AHEAD_PLAN, ASK, Orders, PlanAhead, given_ahead
from rules.engine.turn_ahead import with_own_answer

from ..models import AHEAD_KIND, Choice, HostError, Prompt
from ..storage import decisions as stored_decisions
from ..storage import games as stored_games
from ..verify import commit_hash
from .live import (
    ASK_LABEL,
    CARD_KEY,
    POSTS_CARD,
    Change,
    Live,
    card_text,
    decision_span,
    dm_prompt_key,
    kind_words,
    private,
    prompt_for,
    public,
    result_text,
    sealed_line,
    seat_view,
    stand_in_level,
    standing_action,
    waiting_line,
    waiting_lines,
)
from .turns import is_person, sealed_turn_offers, turn_offers, use_turn_answers

#: a multi-step action in progress in a game: the acting seat, the edit key of its status message, its lines so far
StepRun = tuple[int, str, list[str]]


@dataclass(frozen=True)
class Turn:
    """What a turn step reads besides the game, read before it: the moment, the game's multi-step action in
    progress, and its armed deadlines as (seat, decision id, due)."""

    now: float
    run: StepRun | None = None
    deadlines: tuple[tuple[int, str, float], ...] = ()


@dataclass
class Stepped:
    """A step's result: the game after it, the change that stores it, and the multi-step action in progress
    after it (kept by the host once the change is stored)."""

    live: Live
    change: Change
    run: StepRun | None = None


@dataclass(frozen=True)
class Sealing:
    """A seat's sealed choice and what sealing it needs besides the game: the other seats' sealed choices that
    answer their current decisions (seat -> action) and who sealed each (seat -> actor), and the nonce that hides
    this one in its commit (drawn by the caller: the step draws nothing)."""

    seat: int
    action: str
    who: str
    nonce: str
    sealed: Mapping[int, str] = field(default_factory=dict)
    sealers: Mapping[int, str] = field(default_factory=dict)


def parse_move(live: Live, seat: int, text: str, decision_id: str | None) -> tuple[str, Decision | None]:
    """The seat's typed or clicked action as the rules read it, and the open decision it answers (None for a free
    action). Raises ``HostError`` for an action that is not the seat's to take now."""
    game, state = live.game, live.state
    try:
        action = game.parse(state, seat, text)
    except InvalidAction as error:
        raise HostError(str(error)) from None
    return action, open_decision(live, seat, action, decision_id)


def open_decision(live: Live, seat: int, action: str, decision_id: str | None) -> Decision | None:
    """The open decision an action answers (None for a free action); ``HostError`` if it answers none."""
    game, state = live.game, live.state
    decision = game.pending(state).get(seat)
    free = decision is None and game.is_free(state, seat, action)
    if decision_id is not None and not free and (decision is None or decision.id != decision_id):
        raise HostError("That choice is no longer open: the game has moved on. Use the latest message.")
    if decision is None and not free:
        raise HostError("It is not your turn. /game status shows whom the game waits for.")
    return decision


def turn_step(
    live: Live,
    moves: list[tuple[int, str]],
    who: str,
    turn: Turn,
    change: Change | None = None,
    actors: Mapping[int, str] | None = None,
    sealer: int | None = None,
) -> Stepped:
    """Apply moves in order: the game after them and the change that stores them with their messages. Each event
    names its actor: ``who``, or for sealed choices played together the seat's own sealer (``actors``);
    ``sealer``, the seat whose sealing revealed them, is offered to answer what its plan implies. An illegal move
    raises ``HostError``; ``change`` (what the caller adds to the step) is then left as it was."""
    change = replace(change) if change is not None else Change()
    change.events, change.deliveries = list(change.events), list(change.deliveries)
    change.statements = list(change.statements)
    before = live.game.pending(live.state)
    state, seq, events = live.state, live.seq, []
    orders = {user: dict(held) for user, held in live.orders.items()}
    for seat, action in moves:
        use_turn_answers(live, state, seat, action, orders, change, turn.now)
        seq += 1
        action, applied, rng = apply_move(live, state, seat, action, seq, revealing=sealer is not None)
        state = applied.state
        events += applied.events
        log_lines = [[e.kind, e.text] for e in applied.events]
        change.events.append((seat, action, list(rng.draws), (actors or {}).get(seat, who), log_lines))
    after = hand_over_kept(live, replace(live.with_state(state), orders=orders), before, change)
    acting = moves[0][0] if len({seat for seat, _ in moves}) == 1 else None
    run = turn_deliveries(after, before, events, change, turn.now, turn.run, acting)
    ahead_deliveries(live, after, change)
    movers = set() if change.automatic or not is_person(who) else {seat for seat, _action in moves}
    after = turn_offers(live, after, change, turn.now, movers)
    if sealer is not None and not after.game.outcome(after.state).finished:
        plan_offer(after, sealer, None, change)  # from the revealed plan, if its decision is to come
    round_status(live, after, change, turn)
    return Stepped(after, change, run)


def apply_move(
    live: Live, state: State, seat: int, action: str, seq: int, revealing: bool = False
) -> tuple[str, Applied, Rng]:
    """Apply one move as event ``seq``: the action played, what the rules made of it and the draws it used. An
    illegal move raises ``HostError``, except a sealed choice at its reveal (``revealing``) that the rules no
    longer allow: the decision's own deadline answer is played in its place (``replaced_move``)."""
    rng = Rng.for_event(live.row["seed"], seq)
    try:
        return action, live.game.apply(state, seat, action, rng), rng
    except RulesError as error:
        default = live.game.on_deadline(state, seat) if revealing else None
        if default is None or default == action:
            raise HostError(str(error)) from None
    return replaced_move(live, state, seat, default, seq)


def replaced_move(live: Live, state: State, seat: int, default: str, seq: int) -> tuple[str, Applied, Rng]:
    """A sealed choice made illegal before its reveal gives way to the decision's deadline answer, logged first
    as such. The commit and its record keep the sealed choice and its nonce (the verifier accepts the default
    only where the replay shows the sealed choice illegal). Only the sealer's own free actions can make it
    illegal: choices are judged legal when sealed, and in the games with sealed windows gold is only given away
    and a card only sold or played for support by its holder (receiving gold never takes an answer away), while
    the others' sealed choices are only stored until the last one is in; so no seat's choice is lost to
    another's, and the choices stay simultaneous."""
    rng = Rng.for_event(live.row["seed"], seq)  # drawn afresh: the refused choice's draws are not played
    try:
        applied = live.game.apply(state, seat, default, rng)
    except RulesError as error:
        raise HostError(str(error)) from None
    described = live.game.describe(state, default)
    line = Event(
        "sealed_replaced",
        f"{live.seats[seat].name}'s sealed answer is no longer allowed: the default is applied ({described}).",
    )
    return default, replace(applied, events=[line, *applied.events]), rng


def seal_step(
    live: Live, decision: Decision, sealing: Sealing, turn: Turn, change: Change | None = None
) -> Stepped:
    """Seal one seat's choice with its commit; when it is the last one awaited, reveal them all and play them
    together (each under whoever sealed it). A choice that would be illegal when revealed, or a second sealing
    of one decision, raises ``HostError``."""
    game, seat, action = live.game, sealing.seat, sealing.action
    try:  # judged now, on a copy: a sealed choice must be legal when it is revealed
        game.apply(live.state, seat, action, Rng.for_event(live.row["seed"], live.seq + 1))
    except RulesError as error:
        raise HostError(str(error)) from None
    if seat in sealing.sealed:
        raise HostError("You have already sealed this decision; a sealed choice cannot be changed.")
    digest = commit_hash(sealing.nonce, live.id, decision.id, seat, action)
    change = replace(change) if change is not None else Change()
    change.statements = [
        *change.statements,
        stored_decisions.seal(
            live.id, decision.id, seat, action, sealing.nonce, digest, turn.now, sealing.who
        ),
    ]
    change.deliveries = list(change.deliveries)
    text = f"{live.seats[seat].name} has sealed ({kind_words(decision.kind)}). Commit: `{digest}`."
    pending = game.pending(live.state)
    waiting = [s for s, d in pending.items() if d.sealed and s not in sealing.sealed and s != seat]
    if waiting:
        change.deliveries.append(public(live, text, view=None))
        plan_offer(live, seat, action, change)
        after = own_turn_offers(live, sealing, change, turn.now)
        round_status(live, live, change, turn, sealed={*sealing.sealed, seat})
        return Stepped(after, change, turn.run)
    change.deliveries.append(public(live, f"{text} All choices are sealed: revealing.", view=None))
    actors = {**sealing.sealers, seat: sealing.who}  # each choice played under whoever sealed it
    change.statements.append(stored_decisions.apply_sealed(live.id))
    moves = sorted({**sealing.sealed, seat: action}.items())
    return turn_step(live, moves, sealing.who, turn, change, actors, sealer=seat)


def own_turn_offers(live: Live, sealing: Sealing, change: Change, now: float) -> Live:
    """A seat that has just sealed its choice by its own click (not the last awaited: the reveal offers the
    turns then, ``turn_offers``) is offered, in that same wait, its own turns in sight once its choice is in
    (``turn_ahead.with_own_answer``: a plan's own actions, say). Returns ``live`` with the offers' marks."""
    if change.automatic or not is_person(sealing.who) or live.game.outcome(live.state).finished:
        return live
    if type(live.game).turn_ahead is Game.turn_ahead:
        return live  # a game with no turns answered ahead: nothing to offer, no copy of its state to make
    what_if = with_own_answer(live.game, live.state, sealing.seat, sealing.action)
    if what_if is None:
        return live
    return sealed_turn_offers(live, what_if, sealing.seat, change, now)


def hand_over_kept(live: Live, after: Live, before: dict[int, Decision], change: Change) -> Live:
    """Away players' kept decisions (issue 42): a player who went away while a decision waited for their seat
    keeps that one decision (``SeatInfo.vacation`` without an AI level); once it is answered or gone, the AI
    stands in for the seat's later decisions. ``before``: the decisions pending before this change; returns
    ``after`` with the seats the AI took (the change stores them)."""
    if not any(seat.vacation and not seat.is_ai for seat in after.seats):
        return after
    pending = after.game.pending(after.state) if after.state else {}
    seats = list(after.seats)
    level = stand_in_level(live)
    for seat in after.seats:
        if not seat.vacation or seat.is_ai:
            continue
        kept, now = before.get(seat.seat), pending.get(seat.seat)
        if kept is not None and now is not None and kept.id == now.id:
            continue  # still the decision that was waiting when they left
        change.statements.append(stored_games.hand_seat_to_ai(live.id, seat.seat, level, True))
        seats[seat.seat] = replace(seat, ai_level=level, away=True)
    return replace(after, seats=seats)


def turn_deliveries(
    live: Live,
    before: dict[int, Decision],
    events: list[Event],
    change: Change,
    now: float,
    run: StepRun | None,
    acting: int | None = None,
) -> StepRun | None:
    """What the table sees after an action; returns the multi-step action in progress after it.

    A completed action or turn: the public board, its log and a mention of whoever must act now (once), plus
    private views and prompts by DM for seats with hidden information or turn DMs on. A step of a multi-step
    action (the same seat alone decides the same kind of thing before and after, and no die was rolled) edits
    one status message instead of posting a board; a free action (by someone not asked) posts its log line alone.
    """
    game, state = live.game, live.state
    pending = game.pending(state)
    fresh = {s: d for s, d in pending.items() if before.get(s) is None or before[s].id != d.id}
    finished = game.outcome(state).finished
    texts = [event.text for event in events]
    used_chance = any(draws for _seat, _action, draws, _who, _log in change.events)
    if (
        acting is not None
        and not finished
        and not used_chance
        and set(before) == set(pending) == {acting}
        and not pending[acting].sealed
        and before[acting].kind == pending[acting].kind
    ):
        run = step_delivery(live, acting, pending[acting], texts, change, now, run)
    elif acting is not None and acting not in before and not fresh and not finished:
        change.deliveries.append(public(live, "\n".join(texts), None))
    else:
        close_steps(live, change, run)
        run = None
        board_delivery(live, pending, fresh, texts, change, now)
    for seat, decision in sorted(fresh.items()):
        wants_dm = game.hidden_information or decision.sealed or live.seats[seat].user_id in live.dm_users
        if not live.seats[seat].is_ai and wants_dm:
            prompt_dm(live, seat, decision, change, now)
    return run


def prompt_dm(live: Live, seat: int, decision: Decision, change: Change, now: float) -> None:
    """A fresh decision's prompt by DM, with the notice when the seat's orders will answer it."""
    text = f"{live.game.title} #{live.id}: {decision.prompt}"
    orders = live.orders.get(live.seats[seat].user_id or "")
    standing = standing_action(live, seat, decision, orders)
    if standing is not None and seat not in change.orders_off:  # taken back: the orders stay silent
        text += standing_notice(live, seat, decision, orders or {}, standing)
    dm = private(live, seat, text, prompt=prompt_for(live, seat, decision, now))
    if dm:
        dm.catchup = True
        dm.edit_key = dm_prompt_key(seat, decision.id)  # its buttons come off when it closes
        change.deliveries.append(dm)


def standing_notice(live: Live, seat: int, decision: Decision, orders: Orders, standing: str) -> str:
    """The line a prompt's DM gets when the seat's orders will answer it: an answer the player gave ahead
    (``/ahead``, or when sealing their plan) is named as such, not as a standing order."""
    ahead = given_ahead(orders)
    if ahead and standing_action(live, seat, decision, ahead) == standing:
        source, changes = "Your answer given ahead", "/ahead changes it"
    else:
        source, changes = "Your standing order", "/orders changes your orders"
    described = live.game.describe(live.state, standing)
    return (
        f"\n{source} answers this in a moment: {described} "
        f"(answer yourself first to choose otherwise; {changes})."
    )


def step_delivery(
    live: Live,
    seat: int,
    decision: Decision,
    texts: list[str],
    change: Change,
    now: float,
    run: StepRun | None,
) -> StepRun:
    """A step of a multi-step action edits one status message: the action's lines so far (each step adds its
    own) and what the seat decides next. A front-end that cannot edit shows only the added lines."""
    if run is None or run[0] != seat:
        run = (seat, f"status:{live.seq + 1}", [])
    run = (seat, run[1], run[2] + texts)
    prompt = None
    if not live.game.hidden_information and not live.seats[seat].is_ai:
        prompt = prompt_for(live, seat, decision, now)
    text = "\n".join([*run[2], waiting_line(live, seat, decision)])
    delivery = public(live, text, None, None, prompt)
    delivery.edit_key = run[1]
    change.deliveries.append(delivery)
    return run


def close_steps(live: Live, change: Change, run: StepRun | None) -> None:
    """The multi-step action is over: its status message keeps its lines and loses its "Now:" line and buttons
    (the board posted next says what follows, without repeating those lines)."""
    if run is None:
        return
    seat, key, lines = run
    closing = public(live, "\n".join(lines) or f"{live.seats[seat].name} is done.", None)
    closing.edit_key = key
    change.deliveries.append(closing)


def board_delivery(
    live: Live,
    pending: dict[int, Decision],
    fresh: dict[int, Decision],
    texts: list[str],
    change: Change,
    now: float,
) -> None:
    """The board image with this change's log lines and the mention of who acts now; at the end of the game, the
    result instead (an event that says just what the result's reason says is left out)."""
    game, state = live.game, live.state
    lines = list(texts)
    outcome = game.outcome(state)
    if outcome.finished:
        lines = [line for line in lines if line != outcome.reason]
        lines.append(result_text(live, outcome.winners, outcome.draw, outcome.reason))
    else:
        lines += waiting_lines(live, pending)
    mentions = [u for s in sorted(fresh) if (u := live.seats[s].user_id) and not live.seats[s].is_ai]
    public_prompt = None
    if len(fresh) == 1 and not game.hidden_information:
        seat, decision = next(iter(fresh.items()))
        if not decision.sealed and not live.seats[seat].is_ai:
            public_prompt = prompt_for(live, seat, decision, now)
    board = public(live, "\n".join(lines), seat_view(live, None), mentions, public_prompt)
    if live.row["posts"] != POSTS_CARD:  # posts=every-move: the board after every move, as it always was
        change.deliveries.append(board)
        return
    # the live card: one message per game (status, board, the buttons of the moment), edited as the game goes;
    # the channel gets this change's lines and the mention alone, so it keeps a short history. The line comes
    # first: a card that has sunk under the newer lines is posted again under this one (issue 47,
    # ``keep_in_reach``). The result still comes as its own message with the final board.
    card = public(live, card_text(live, pending, outcome.finished), board.view, None, public_prompt)
    card.edit_key = CARD_KEY
    if outcome.finished:
        change.deliveries.append(card)
        board.prompt = None
        change.deliveries.append(board)
    else:
        change.deliveries.append(public(live, "\n".join(lines), None, mentions))
        card.keep_in_reach = True
        change.deliveries.append(card)


def plan_choices(offer: PlanAhead) -> list[Choice]:
    """The answers of a decision a sealed plan implies, then "ask me then" (buttons' labels)."""
    return [*(Choice(action, label) for action, label in offer.answers), Choice(ASK, ASK_LABEL)]


def queued_choices(live: Live, preview: State, answers: list[str]) -> list[Choice]:
    """The answers of a later turn of a queue, as the decision posed now describes them, then "ask me then"."""
    described = [Choice(action, live.game.describe(preview, action)) for action in answers]
    return [*described, Choice(ASK, ASK_LABEL)]


def ahead_deliveries(live: Live, after: Live, change: Change) -> None:
    """Ask each seat whose queued turn just came in sight (``Game.ahead``) at the same moment as the seat asked
    first: a private message with what its turn will ask and the answers now (``/ahead`` answers)."""
    if not after.state or after.game.outcome(after.state).finished:
        return
    seen = {decision.id for decision in live.game.ahead(live.state).values()} if live.state else set()
    for seat, decision in sorted(after.game.ahead(after.state).items()):
        if decision.id in seen or after.seats[seat].is_ai:
            continue
        preview = after.game.ahead_state(after.state, seat)
        if preview is None:
            continue
        answers = [
            a for a in after.game.legal_actions(preview, seat) if not after.game.is_free(preview, seat, a)
        ]
        notation = ", ".join(f"`{answer}`" for answer in answers)  # what /ahead takes, as typed
        text = (
            f"{after.game.title} #{after.id}, coming to you after the players before you: {decision.prompt}\n"
            f"Answers now: {notation}. /ahead ANSWER[, SECOND, THIRD] answers it now (only you see "
            "it), or pick one below; otherwise you are asked when your turn comes."
        )
        ahead_offer(after, seat, decision.id, text, queued_choices(after, preview, answers), change)


def ahead_offer(live: Live, seat: int, slot: str, text: str, choices: list[Choice], change: Change) -> None:
    """A private message offering to answer the upcoming decision of ``slot`` now, its answers as buttons (an
    ``AHEAD_KIND`` prompt, answered with ``answer_ahead_slot``); only its seat's player gets it."""
    prompt = Prompt(live.id, seat, slot, AHEAD_KIND, text, False, choices)
    dm = private(live, seat, text, with_view=False, prompt=prompt)
    if dm is not None:
        change.deliveries.append(dm)


def plan_offer(live: Live, seat: int, sealed: str | None, change: Change) -> None:
    """The seat has just sealed its plan: offer it, privately, to answer now what the plan implies
    (``Game.plan_ahead``: a tax choice, say). Each new plan starts from "ask me": an answer given for an earlier
    sealing is withdrawn."""
    user = live.seats[seat].user_id
    if not live.state or user is None or live.seats[seat].is_ai:
        return
    offers = live.game.plan_ahead(live.state, seat, sealed)
    if offers:
        change.statements.append(stored_decisions.drop_order(live.id, user, AHEAD_PLAN))
    for offer in offers:
        first = offer.answers[0][0]
        text = (
            f"{live.game.title} #{live.id}: your plan has {offer.title}. Answer it now (only you see "
            f"this)? Your answer is given as your click when it comes, if allowed then; otherwise you are "
            f"asked. /ahead {first} or /ahead {ASK} changes it until then."
        )
        ahead_offer(live, seat, offer.slot, text, plan_choices(offer), change)


def waiting(live: Live) -> tuple[tuple[int, str, bool], ...]:
    """Who the game waits for and for what kind of decision (what the round status shows of the turn)."""
    pending = sorted(live.game.pending(live.state).items()) if live.state else []
    return tuple((seat, decision.kind, decision.sealed) for seat, decision in pending)


def has_rounds(live: Live) -> bool:
    """Whether the game shows a round status message (so a turn step needs the armed deadlines)."""
    return bool(live.state) and live.game.round_status(live.state) is not None


def round_status(live: Live, after: Live, change: Change, turn: Turn, sealed: Collection[int] = ()) -> None:
    """Keep one status message per round up to date (round, period, the game's note on it, whose decision,
    deadline): a delivery with the edit key ``round:<n>`` each time the awaited decisions change (a new round,
    period or note always comes with new decisions, so an unchanged wait needs no look at the view), and each time
    a seat seals its choice (``sealed``: the seats whose sealed choice is in)."""
    awaited = waiting(after)
    if awaited == waiting(live) and not sealed:
        return
    finished = after.game.outcome(after.state).finished
    shown = live if finished else after  # the game's end closes the last round's message
    facts = shown.game.round_status(shown.state) if shown.state else None
    if facts is None:
        return
    head = f"**{after.game.title} #{after.id} · Round {facts.round}** · Period {facts.period}"
    lines = [head + (f" · {facts.note}" if facts.note else "")]
    if finished:
        lines.append("The game is over.")
        awaited = ()
    pending = after.game.pending(after.state)
    due = {  # deadlines of decisions still open (those of answered ones are dropped when this change is stored)
        seat: at
        for seat, decision_id, at in turn.deadlines
        if seat in pending and pending[seat].id == decision_id
    }
    for seat, kind, is_sealed in awaited:
        if seat in sealed:
            continue
        who = after.seats[seat]
        deadline = due.get(seat)
        if deadline is None and not who.is_ai:  # a fresh decision: its deadline is armed with this change
            deadline = turn.now + decision_span(after, pending[seat])
        verb = "seals" if is_sealed else "decides"
        until = f", deadline <t:{int(deadline)}:R>" if deadline is not None else ""
        lines.append(f"Now: {who.label} {verb} ({kind_words(kind)}){until}")
    done = [seat for seat, _kind, _sealed in awaited if seat in sealed]
    if done:
        lines.append(sealed_line(after, pending, done))
    delivery = public(after, "\n".join(lines), None)
    delivery.edit_key = f"round:{facts.round}"
    change.deliveries.append(delivery)
