"""Standing orders (issue 18): a player's answers given in advance, per game (``rules.engine.standing``).

``/orders`` sets one (``set_order``) or lists them (``orders_text``); both answer only the player. The host gives
an order's answer, as the player's own click, a random moment after the decision arises (the auto-pass's delay:
``Deadlines._answer_by_order``); the player is asked as usual meanwhile and may answer first.

Answers given ahead are orders too: ``/ahead`` (``answer_ahead``) or a click (``answer_ahead_slot``) answers a later
turn of a queue (``Game.ahead``, kept under ``AHEAD``) or what a sealed plan implies (``Game.plan_ahead``, kept
under ``AHEAD_PLAN``); the two keys never replace each other. A player's own turn answered ahead, step by step
(``Game.turn_ahead``, ``turns``), is kept under its turn's own key (``turn_key``). Only their owner sees them.

A game begins with its recommended orders (``Game.recommended_orders``: measured not to weaken play, issue 47) set
for every player whose ``/settings orders`` is on (the default), as rows of their own, told by DM
(``shipped_orders``): ``/orders`` changes them as any other.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from functools import partial

from rules.engine import Decision, Game, InvalidAction, OptionError, RulesError, State, get_game
from rules.engine.standing import (
    AHEAD,
    AHEAD_CHOICES,
    AHEAD_PLAN,
    ASK,
    MAX_TURN_STEPS,
    Order,
    Orders,
    PlanAhead,
    ahead_action,
    ahead_order,
    check_order,
    describe_orders,
    describe_recommended,
    recommended_orders,
    topics_of,
    turn_key,
    turn_order,
)
from rules.engine.turn_ahead import preview_after, with_own_answer

from ..models import AHEAD_KIND, Actor, HostError, Prompt
from ..storage import Connection
from ..storage import decisions as stored_decisions
from ..storage import settings as stored_settings
from ..storage.base import Reader, Statement, run
from . import live as telling
from . import notify
from .core import Change, Games, Live
from .live import kind_words
from .step import plan_choices, queued_choices
from .turns import (
    DECLINED,
    described_steps,
    given_steps,
    open_turn,
    read_step_slot,
    step_prompt,
    step_slot,
    turn_preview,
    turns_in_sight,
)

NOTHING_AHEAD = (
    "Nothing to answer ahead now: /ahead works while an earlier player is asked a turn of yours, and for what a "
    "plan you sealed already implies."
)
NOT_UPCOMING = (
    "That decision is no longer upcoming: its turn has come (answer it in its own message) or it is over. "
    "Nothing was changed; /ahead shows what you may answer ahead now."
)
TURN_REST_ASKED = "The rest of this turn is asked when it comes."
TURN_STOPPED = "The rest of this turn cannot be answered ahead: it is asked when your turn comes."
#: what ``/ahead`` reads as "ask me then" for a decision the plan implies
ASK_WORDS = frozenset({ASK, "ask me", "ask me then"})
#: the DM that tells a player the recommended orders their seat begins with (one line each, the topics' titles)
SHIPPED_HEAD = (
    "Recommended standing orders are on for you in {title} #{game}, each measured not to weaken play: they answer "
    "these decisions for you when they come (only you see them):"
)
SHIPPED_FOOT = (
    "/orders shows what each does and gives up, and changes any of them; /settings orders:off begins your next "
    "games without them."
)


async def shipped_orders(
    reader: Reader, game: Game, game_id: int, users: Collection[str], now: float
) -> tuple[list[Statement], dict[str, dict[str, Order]]]:
    """The rows that give each of ``users`` whose ``/settings orders`` is on (the default) the game's recommended
    orders as they take their seat (the game's start, or a seat handed over), and the orders they make, by user
    id."""
    orders = recommended_orders(game)
    if not orders:
        return [], {}
    given = {}
    for user in users:
        chosen = await stored_settings.user_settings(reader, user)
        if chosen.get("orders", notify.DEFAULTS["orders"]) == "on":
            given[user] = dict(orders)
    rows = [
        stored_decisions.put_order_row(game_id, user, key, order.choice, json.dumps(list(order.names)), now)
        for user, held in given.items()
        for key, order in held.items()
    ]
    return rows, given


def orders_summary(game: Game, orders: Orders) -> str:
    """One line on a player's standing orders for their view: how many topics they answer (the list is /orders')."""
    count = sum(
        1 for topic in game.standing_topics if (order := orders.get(topic.key)) and order.choice != ASK
    )
    if not count:
        return "Your standing orders: none (every decision asks you). /orders changes them."
    kinds = "kind of decision" if count == 1 else "kinds of decisions"  # a plural entry of the catalog
    return f"Your standing orders answer {count} {kinds} for you: /orders lists and changes them."


def shipped_orders_notice(game: Game, game_id: int, orders: Orders) -> str:
    """What a player whose seat begins with the recommended orders is told, by DM."""
    titles = [topic.title for topic in game.standing_topics if topic.key in orders]
    head = SHIPPED_HEAD.format(title=game.title, game=game_id)
    return "\n".join([head, *(f"- {title}" for title in titles), SHIPPED_FOOT])


class Standing:
    """Standing orders and answers given ahead: set, listed and offered, only ever to their owner."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def _seated_live(self, channel_id: str, actor: Actor) -> Live:
        live = await self.games.live_in_channel(channel_id)
        self.games.seat_for(live, actor)
        if not live.game.standing_topics:
            raise HostError(f"{live.game.title} has no standing orders: every decision is yours to take.")
        if live.row["status"] not in ("active", "paused"):
            raise HostError("Standing orders are set once the game has started.")
        return live

    async def orders_text(self, channel_id: str, actor: Actor) -> str:
        """The caller's standing orders in the channel's game (only ever shown to them)."""
        live = await self._seated_live(channel_id, actor)
        return self._orders_lines(live, actor.user_id)

    @staticmethod
    def _orders_lines(live: Live, user_id: str) -> str:
        orders = live.orders.get(user_id, {})
        lines = [f"Your standing orders in {live.game.title} #{live.id} (only you see them):"]
        lines += [f"- {line}" for line in describe_orders(live.game, orders)]
        recommended = describe_recommended(live.game)
        if recommended:  # measured not to cost strength (python -m bench orders), each with its one price
            lines.append("Recommended (each measured not to weaken play), and what each gives up:")
            for line, gives_up in recommended:
                lines += [f"- {line}", f"  Gives up: {gives_up}."]
        return "\n".join(lines)

    def order_topics(self, game_key: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
        """(key, title, choices) of a game's standing-order topics, for front-ends' menus and autocomplete."""
        game = get_game(game_key)
        return [(topic.key, topic.title, list(topic.choices)) for topic in game.standing_topics]

    async def set_order(self, channel_id: str, actor: Actor, topic: str, choice: str, names: str = "") -> str:
        """Set (``ask``: withdraw) one of the caller's standing orders; ``names`` is a comma-separated list
        (principalities allowed through, cards marked). Every field is checked: bad input is a sentence."""
        live = await self._seated_live(channel_id, actor)
        try:
            order = check_order(live.game, topic, choice, names.split(","))
        except OptionError as error:
            raise HostError(str(error)) from None
        key = topic.strip().lower()
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            async with self.games.store.transaction() as db:
                await self._write_order(
                    db, live.id, actor.user_id, key, None if order.choice == ASK else order
                )
                live.orders = await self.games.game_orders(db, live.id)
                # a decision open now that the new order answers gets its answer at the usual random moment
                await self.games.arm_timers(db, live, Change(), self.games.clock())
            self.games.known[live.id] = live
        title = topics_of(live.game)[key].title
        return f"Standing order set: {title}.\n" + self._orders_lines(live, actor.user_id)

    # ---- answers given ahead (issue 18) ------------------------------------------------------------------------

    async def _own_sealed(self, live: Live, seat: int) -> str | None:
        """The seat's choice sealed while the others still decide theirs (kept out of the state until the last
        one is in), if any: what its plan offers and its turns ahead read (one query per request)."""
        if not live.state:
            return None
        return (await self.games.sealed_for(live)).get(seat)

    @staticmethod
    def _turn_live(live: Live, seat: int, sealed: str | None) -> Live:
        """The game as the seat's own turns ahead are offered from (``turns``): while its choice waits ``sealed``
        for the others', with that choice applied (``turn_ahead.with_own_answer``: a plan's own actions, say, come
        in sight as it is sealed), else as it stands. Every use of the seat's turns reads it: the offer's steps,
        their clicks, /ahead."""
        what_if = with_own_answer(live.game, live.state, seat, sealed) if sealed is not None else None
        return live if what_if is None else live.with_state(what_if)

    @staticmethod
    def _plan_offers(live: Live, seat: int, sealed: str | None) -> list[PlanAhead]:
        """What the seat's plan implies that it may answer now (``Game.plan_ahead``): from the choice it sealed
        while the others still plan (``sealed``, kept out of the state), else from the state."""
        if not live.state or live.row["status"] not in ("active", "paused"):
            return []
        return live.game.plan_ahead(live.state, seat, sealed)

    @staticmethod
    def _plan_given(orders: Orders, offer: PlanAhead) -> str | None:
        """The answer the seat gave for ``offer`` (its ``AHEAD_PLAN`` order for that slot), if any."""
        order = orders.get(AHEAD_PLAN)
        if order is None or len(order.names) < 2 or order.names[0] != offer.slot:
            return None
        return order.names[1]

    def _plan_lines(self, live: Live, offer: PlanAhead, orders: Orders) -> list[str]:
        given = self._plan_given(orders, offer)
        labels = dict(offer.answers)
        choices = ", ".join(f"{action} ({label.lower()})" for action, label in offer.answers)
        return [
            f"{live.game.title} #{live.id}, your plan (only you see this): {offer.title}.",
            f"Your answer given ahead: {labels.get(given, given)}."
            if given
            else "No answer given ahead: you are asked when it comes.",
            f"Answers now: {choices}, or {ASK} (ask me then). /ahead ANSWER gives one as your click when the "
            "action comes, if allowed then (otherwise you are asked).",
        ]

    async def ahead_prompts(self, channel_id: str, actor: Actor) -> list[Prompt]:
        """The caller's upcoming decisions they may answer ahead, as ``AHEAD_KIND`` prompts (front-ends offer
        their answers as buttons beside ``ahead_text``; each is answered with ``answer_ahead_slot``)."""
        live = await self._seated_live(channel_id, actor)
        seat = self.games.seat_for(live, actor).seat
        prompts = []
        decision = live.game.ahead(live.state).get(seat)
        preview = live.game.ahead_state(live.state, seat) if decision is not None else None
        if decision is not None and preview is not None:
            choices = queued_choices(live, preview, self._ahead_answers(live, preview, seat))
            prompts.append(Prompt(live.id, seat, decision.id, AHEAD_KIND, decision.prompt, False, choices))
        sealed = await self._own_sealed(live, seat)
        for offer in self._plan_offers(live, seat, sealed):
            prompts.append(
                Prompt(live.id, seat, offer.slot, AHEAD_KIND, offer.title, False, plan_choices(offer))
            )
        held = live.orders.get(actor.user_id, {})
        shown = self._turn_live(live, seat, sealed)
        turn = open_turn(shown, seat, held)
        step = step_prompt(shown, seat, turn, held) if turn is not None else None
        if step is not None:
            prompts.append(step)
        return [prompt for prompt in map(partial(telling.named_prompt, live), prompts) if prompt is not None]

    async def turn_step_prompt(self, game_id: int, actor: Actor) -> Prompt | None:
        """The next step of the caller's nearest turn in sight that they may still answer ahead (``turns``), or
        None: what a front-end shows under the answer to the step before (once a turn is answered as far as it
        can be, the next turn's first step, explained)."""
        live = await self.games.load(game_id)
        if not live.state or live.row["status"] not in ("active", "paused"):
            return None
        seat = self.games.seat_for(live, actor).seat
        held = live.orders.get(actor.user_id, {})
        shown = self._turn_live(live, seat, await self._own_sealed(live, seat))
        turn = open_turn(shown, seat, held)
        if turn is None:
            return None
        step = step_prompt(shown, seat, turn, held, explained=not given_steps(held, turn.id))
        return telling.named_prompt(live, step)

    async def ahead_text(self, channel_id: str, actor: Actor) -> str:
        """The caller's upcoming decisions they may answer ahead: a later turn of a queue the rules order
        (``Game.ahead``) with its answers now, and what their plan implies (``Game.plan_ahead``), each with the
        answer they gave ahead for it (only ever shown to them)."""
        live = await self._seated_live(channel_id, actor)
        seat = self.games.seat_for(live, actor).seat
        orders = live.orders.get(actor.user_id, {})
        lines: list[str] = []
        decision = live.game.ahead(live.state).get(seat)
        if decision is not None:
            preview = live.game.ahead_state(live.state, seat)
            assert preview is not None  # the seat has an upcoming decision
            answers = self._ahead_answers(live, preview, seat)
            given = ahead_action({AHEAD: orders[AHEAD]} if AHEAD in orders else {}, decision.id, answers)
            lines += [
                f"{live.game.title} #{live.id}, coming to you (only you see this): {decision.prompt}",
                "Answers now: " + ", ".join(f"`{answer}`" for answer in answers),
                f"Your answer given ahead: `{given}`" if given else "No answer given ahead yet.",
                f"/ahead ANSWER[, SECOND CHOICE, THIRD CHOICE] (up to {AHEAD_CHOICES}): the first still allowed "
                "when your turn comes is given as your click; none allowed then: you are asked as usual.",
            ]
        sealed = await self._own_sealed(live, seat)
        for offer in self._plan_offers(live, seat, sealed):
            lines += self._plan_lines(live, offer, orders)
        shown = self._turn_live(live, seat, sealed)
        current = open_turn(shown, seat, orders)
        for turn in turns_in_sight(shown, seat):
            lines += self._turn_lines(shown, seat, turn, orders, turn == current)
        if not lines:
            return NOTHING_AHEAD
        return "\n".join(lines)

    @staticmethod
    def _turn_lines(live: Live, seat: int, turn: Decision, orders: Orders, current: bool) -> list[str]:
        """A turn of the caller's in sight: the answers given ahead so far, and for the ``current`` one (the
        nearest still open, ``turns.open_turn``) the next step's answers now."""
        given = described_steps(live, seat, turn.id, orders)
        preview = turn_preview(live, seat, turn.id, orders)
        lines = [f"{live.game.title} #{live.id}, {turn.prompt} (only you see this)."]
        if given:  # one a line: each is read in the reader's language as the game's own description
            lines += ["Your answers given ahead, in order:", *(f"{n}. {d}" for n, d in enumerate(given, 1))]
        if preview is None or not current:
            lines.append(TURN_REST_ASKED)
            return lines
        answers = [
            a for a in live.game.legal_actions(preview, seat) if not live.game.is_free(preview, seat, a)
        ]
        lines += [
            f"Next: {live.game.pending(preview)[seat].prompt}",
            "Answers now: " + ", ".join(f"`{answer}`" for answer in answers),
            f"/ahead ANSWER adds it (given when your turn comes, if allowed then); /ahead {ASK} withdraws this "
            "turn's answers.",
        ]
        return lines

    @staticmethod
    def _ahead_answers(live: Live, preview: State, seat: int) -> list[str]:
        return [a for a in live.game.legal_actions(preview, seat) if not live.game.is_free(preview, seat, a)]

    async def answer_ahead(self, channel_id: str, actor: Actor, text: str) -> str:
        """Give answers ahead for the caller's upcoming decision: comma-separated, first choice first (untrusted
        input: each is read as a move of the decision posed now and must be one of its answers). An answer to
        what the caller's plan implies (``collect``, or ``ask`` to be asked) goes to that decision."""
        live = await self._seated_live(channel_id, actor)
        seat = self.games.seat_for(live, actor).seat
        word = " ".join(text.lower().split())
        sealed = await self._own_sealed(live, seat)
        offers = self._plan_offers(live, seat, sealed)
        offer = next((o for o in offers if word in ASK_WORDS or word in dict(o.answers)), None)
        if offer is not None:
            return await self.answer_ahead_slot(
                live.id, actor, offer.slot, ASK if word in ASK_WORDS else word
            )
        decision = live.game.ahead(live.state).get(seat)
        preview = live.game.ahead_state(live.state, seat)
        # not the plan's: the next step of a turn in sight (a plan's own actions are, as it waits sealed)
        shown = self._turn_live(live, seat, sealed)
        turn = open_turn(shown, seat, live.orders.get(actor.user_id, {}))
        if (decision is None or preview is None) and turn is not None:
            given = len(given_steps(live.orders.get(actor.user_id, {}), turn.id))
            action = ASK if word in ASK_WORDS else self._turn_answer(shown, seat, turn, text)
            return await self.answer_ahead_slot(live.id, actor, step_slot(turn.id, given), action)
        if (decision is None or preview is None) and offers:
            words = " or ".join([*(action for o in offers for action, _label in o.answers), ASK])
            raise HostError(f"'{text.strip()[:40]}' does not answer {offers[0].title}: answer {words}.")
        if decision is None or preview is None:
            raise HostError("Nothing to answer ahead now: /ahead works while an earlier player is asked.")
        parts = [part.strip() for part in text.split(",") if part.strip()]
        if not parts or len(parts) > AHEAD_CHOICES:
            raise HostError(f"Give 1 to {AHEAD_CHOICES} answers, first choice first, separated by commas.")
        chosen = []
        for part in parts:
            try:
                action = live.game.parse(preview, seat, part)
            except InvalidAction as error:  # the rules' sentence quotes what was typed
                raise HostError(str(error)) from None
            except RulesError as error:
                raise HostError(f"'{part[:40]}': {error}") from None
            if live.game.is_free(preview, seat, action) or action not in live.game.legal_actions(
                preview, seat
            ):
                raise HostError(
                    f"'{part[:40]}' does not answer {kind_words(decision.kind)} ({decision.prompt})."
                )
            chosen.append(action)
        async with self.games.lock(live.id):
            live = await self.games.load(live.id)
            await self._put_ahead(live, actor.user_id, AHEAD, ahead_order(decision.id, chosen))
        described = "; else ".join(live.game.describe(preview, action) for action in chosen)
        return (
            f"Answered ahead (only you see it): {described}. It is given as your click when your turn comes, "
            "if allowed then; /ahead again changes it."
        )

    @staticmethod
    def _turn_answer(live: Live, seat: int, turn: Decision, text: str) -> str:
        """A typed answer to the next step of the caller's turn in sight, read as a move of that step."""
        preview = turn_preview(live, seat, turn.id, live.orders.get(live.seats[seat].user_id or "", {}))
        if preview is None:
            raise HostError(
                "The rest of this turn cannot be answered ahead: it is asked when your turn comes."
            )
        try:
            return live.game.parse(preview, seat, text)
        except InvalidAction as error:  # the rules' sentence quotes what was typed
            raise HostError(str(error)) from None
        except RulesError as error:
            raise HostError(f"'{text.strip()[:40]}': {error}") from None

    async def _answer_turn_step(self, live: Live, actor: Actor, slot: str, given: int, action: str) -> str:
        """One more answer of the caller's turn in sight, given ahead (``turns``), or ``ask``: withdraw them
        all. A step already answered (an old message's button) or not this turn's is refused; nothing changes."""
        seat = self.games.seat_for(live, actor).seat
        orders = live.orders.get(actor.user_id, {})
        steps = given_steps(orders, slot)
        # the turns read the game as the seat's offer showed it; the orders are stored with ``live`` as it stands
        shown = self._turn_live(live, seat, await self._own_sealed(live, seat))
        if slot not in {turn.id for turn in turns_in_sight(shown, seat)}:
            raise HostError(NOT_UPCOMING)
        if action == ASK:
            await self._put_ahead(live, actor.user_id, turn_key(slot), Order(DECLINED, (slot,)))
            return "No answers given ahead for this turn: you are asked when it comes."
        if given != len(steps):
            raise HostError("That step is already answered: use the newest message (or /ahead).")
        if len(steps) >= MAX_TURN_STEPS:
            raise HostError(TURN_STOPPED)
        preview = turn_preview(shown, seat, slot, orders)
        if preview is None:
            raise HostError(
                "The rest of this turn cannot be answered ahead: it is asked when your turn comes."
            )
        if action not in self._ahead_answers(shown, preview, seat):
            raise HostError(f"'{action[:60]}' does not answer this step now.")
        posed = live.game.pending(preview)[seat]
        await self._put_ahead(
            live, actor.user_id, turn_key(slot), turn_order(slot, [*steps, (posed.kind, action)])
        )
        said = (
            f"Answered ahead (only you see it): {live.game.describe(preview, action)}.\n"
            "It is given as your click when your turn comes, if allowed then."
        )
        if preview_after(live.game, preview, seat, slot, action) is None:
            return f"{said}\n{TURN_REST_ASKED}"
        return f"{said}\nNext step below (or /ahead)."

    async def answer_ahead_slot(self, game_id: int, actor: Actor, slot: str, action: str) -> str:
        """One answer given ahead, by a button or a select (untrusted: ``slot`` and ``action`` come from a
        custom_id or a select's value) or by ``/ahead`` for the plan: the caller's upcoming decision of ``slot``,
        a later turn of a queue (``Game.ahead``) or a decision their plan implies (``Game.plan_ahead``), gets
        ``action`` as their answer given ahead; ``ask`` withdraws it. A slot that is not upcoming for the caller
        now, or an action that does not answer it, is refused with a sentence and nothing changes."""
        async with self.games.lock(game_id):
            live = await self.games.load(game_id)
            if live.row["status"] not in ("active", "paused") or not live.state:
                raise HostError(NOT_UPCOMING)
            if (stepped := read_step_slot(slot)) is not None:
                return await self._answer_turn_step(live, actor, *stepped, action)
            seat = self.games.seat_for(live, actor).seat
            queued = live.game.ahead(live.state).get(seat)
            preview = live.game.ahead_state(live.state, seat) if queued is not None else None
            if queued is not None and preview is not None and queued.id == slot:
                key = AHEAD
                if action == ASK:
                    order, said = None, "No answer given ahead: you are asked when your turn comes."
                elif action in self._ahead_answers(live, preview, seat):
                    order = ahead_order(slot, [action])
                    said = (
                        f"Answered ahead (only you see it): {live.game.describe(preview, action)}. It is given "
                        "as your click when your turn comes, if allowed then; another button changes it."
                    )
                else:
                    raise HostError(f"'{action[:60]}' does not answer {kind_words(queued.kind)} now.")
            else:
                offers = self._plan_offers(live, seat, await self._own_sealed(live, seat))
                offer = next((o for o in offers if o.slot == slot), None)
                if offer is None:
                    raise HostError(NOT_UPCOMING)
                key, labels = AHEAD_PLAN, dict(offer.answers)
                if action == ASK:
                    order, said = None, f"No answer given ahead: you are asked when {offer.title} comes."
                elif action in labels:
                    order = ahead_order(slot, [action])
                    said = (
                        f"Answered ahead (only you see it), {offer.title}: {labels[action]}. It is given as your "
                        "click then, if allowed (otherwise you are asked); the other button or /ahead changes it."
                    )
                else:
                    raise HostError(f"'{action[:60]}' does not answer {offer.title}.")
            await self._put_ahead(live, actor.user_id, key, order)
        return said

    async def _put_ahead(self, live: Live, user_id: str, key: str, order: Order | None) -> None:
        """Keep (None: withdraw) the caller's answer given ahead under ``key`` (the caller holds the lock)."""
        async with self.games.store.transaction() as db:
            await self._write_order(db, live.id, user_id, key, order)
            live.orders = await self.games.game_orders(db, live.id)
        self.games.known[live.id] = live

    async def _write_order(
        self, db: Connection, game_id: int, user_id: str, key: str, order: Order | None
    ) -> None:
        """Keep the player's order (or answer given ahead) under ``key``; None withdraws it."""
        if order is None:
            await run(db, stored_decisions.drop_order(game_id, user_id, key))
        else:
            names = json.dumps(list(order.names))
            await stored_decisions.put_order(
                db, game_id, user_id, key, order.choice, names, self.games.clock()
            )
