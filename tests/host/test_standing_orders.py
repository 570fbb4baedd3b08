"""Standing orders through the host (issue 18): an order answers as the player's click would, at the auto-pass's
random moment; an order whose answer is illegal leaves the player asked; orders are checked and only their owner
sees them; a phase ends the moment its last seat answers (ready barriers), never at a deadline."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from bot.host import Host, HostError
from i18n import localize
from rules.engine import Decision, InvalidAction, State, View
from rules.engine.registry import register, unregister
from rules.engine.standing import ASK, Orders, Topic, ahead_action
from rules.principes import GAME as PRINCIPES
from rules.principes.play.princesses import capital
from tests.conftest import ALICE, BOB, CAROL
from tests.support.games import SealedGuess

CHANNEL = "orders-1"
OTHER_CHANNEL = "orders-2"


class OrderedGuess(SealedGuess):
    """Sealed Guess with one standing order: pick low (``pick 1``) or an answer the rules refuse (``pick 9``)."""

    key = "test-ordered-guess"
    standing_topics = (
        Topic("pick", "Picks", ((ASK, "ask me"), ("low", "pick 1"), ("bogus", "pick 9 (never legal)"))),
    )

    def standing_answer(
        self, view: View, seat: int, decision: Decision, legal: list[str], orders: Orders
    ) -> str | None:
        order = orders.get("pick")
        return {"low": "pick 1", "bogus": "pick 9"}.get(order.choice) if order else None


class OpenOrderedGuess(OrderedGuess):
    """The same game with open (not sealed) picks that a player may take back."""

    key = "test-open-ordered-guess"

    def pending(self, state: State) -> dict[int, Decision]:
        return {seat: replace(decision, sealed=False) for seat, decision in super().pending(state).items()}

    def can_undo(self, state_before: State, seat: int, action: str) -> bool:
        return True


@pytest.fixture
def open_game() -> Any:
    game = OpenOrderedGuess()
    register(game)
    yield game
    unregister(game.key)


@pytest.fixture
def ordered_game() -> Any:
    game = OrderedGuess()
    register(game)
    yield game
    unregister(game.key)


async def _start(host: Host, channel: str, key: str) -> int:
    info = await host.create_game("g", channel, ALICE, key, {})
    await host.join(channel, BOB)
    await host.start(channel, ALICE, order="given")
    return info.game_id


async def _click_until(host: Host, game_id: int, kinds: tuple[str, ...]) -> None:
    """alice and bob click the first answer of each decision, lowest seat first, until one of ``kinds`` is asked."""
    for _ in range(40):
        live = await host.games.load(game_id)
        pending = live.game.pending(live.state)
        if any(decision.kind in kinds for decision in pending.values()):
            return
        seat, _decision = min(pending.items())
        player = (ALICE, BOB)[seat]
        prompt = await host.prompt_of(game_id, player.user_id)
        assert prompt is not None
        await host.act(game_id, player, prompt.choices[0].action, prompt.decision_id)


async def test_an_order_answers_as_the_players_click_would(host: Host, clock, ordered_game) -> None:
    host.autopass_rng.seed(3)
    by_order = await _start(host, CHANNEL, ordered_game.key)
    await host.set_order(CHANNEL, BOB, "pick", "low")
    await host.act(by_order, ALICE, "pick 3")
    due = await host.next_timer_due()
    assert due is not None and clock.now + 20 <= due <= clock.now + 120  # the auto-pass's random moment
    assert not await host.has_sealed(by_order, BOB.user_id)  # nothing at once
    clock.advance(120)
    fired = await host.fire_due_timers()
    told = [d for d in fired if "answered by standing order" in d.text]
    assert len(told) == 1 and told[0].user_id == BOB.user_id and told[0].kind == "private"
    assert not any("standing order" in d.text for d in fired if d.user_id != BOB.user_id)
    ordered = await host.games.load(by_order)
    assert ordered.state["round"] == 2  # the reveal came the moment bob's order answered (a ready barrier)

    # the same game with bob clicking the same answer when asked
    clicked = await _start(host, OTHER_CHANNEL, ordered_game.key)
    await host.act(clicked, ALICE, "pick 3")
    await host.act(clicked, BOB, "pick 1")
    assert (await host.games.load(clicked)).state == ordered.state
    events = [(e.seat, e.action, e.user_id) for e in await host.store.events(by_order, 0)]
    assert events == [(e.seat, e.action, e.user_id) for e in await host.store.events(clicked, 0)]
    assert (1, "pick 1", BOB.user_id) in events  # stored as bob's own move (so /undo treats it as his)


async def test_an_order_whose_answer_is_illegal_leaves_the_player_asked(
    host: Host, clock, ordered_game
) -> None:
    game_id = await _start(host, CHANNEL, ordered_game.key)
    await host.set_order(CHANNEL, BOB, "pick", "bogus")
    await host.act(game_id, ALICE, "pick 3")
    clock.advance(3600)  # past any auto-pass moment, before the deadline
    await host.fire_due_timers()
    assert not await host.has_sealed(game_id, BOB.user_id)
    assert (await host.prompt_of(game_id, BOB.user_id)) is not None
    timers = await host.store.fetchall("SELECT kind FROM timers WHERE game_id = ?", (game_id,))
    assert "standing" not in {row["kind"] for row in timers}


async def test_an_order_withdrawn_before_its_moment_gives_no_answer(host: Host, clock, ordered_game) -> None:
    game_id = await _start(host, CHANNEL, ordered_game.key)
    await host.set_order(CHANNEL, BOB, "pick", "low")
    await host.act(game_id, ALICE, "pick 3")
    await host.set_order(CHANNEL, BOB, "pick", "ask")
    clock.advance(120)
    await host.fire_due_timers()
    assert not await host.has_sealed(game_id, BOB.user_id)


async def test_orders_are_checked_and_shown_to_their_owner_only(host: Host, ordered_game) -> None:
    game_id = await _start(host, CHANNEL, ordered_game.key)
    for topic, choice, names, sentence in (
        ("nope", "low", "", "has no standing order 'nope'"),
        ("pick", "high", "", "takes one of ask, low, bogus"),
        ("pick", "low", "a, b", "takes no names"),
    ):
        with pytest.raises(HostError, match=sentence):
            await host.set_order(CHANNEL, BOB, topic, choice, names)
    with pytest.raises(HostError):
        await host.set_order(CHANNEL, CAROL, "pick", "low")  # not seated
    answer = await host.set_order(CHANNEL, BOB, "pick", "low")
    assert "Picks (pick): pick 1" in answer
    assert "Picks (pick): pick 1" in await host.orders_text(CHANNEL, BOB)
    assert "Picks (pick): ask me" in await host.orders_text(CHANNEL, ALICE)
    assert "pick 1" not in (await host.hand(CHANNEL, ALICE)).text
    assert "Your standing orders answer 1 kind of decision for you" in (await host.hand(CHANNEL, BOB)).text
    assert "standing" not in json.dumps(await host.export_game(game_id)).lower()


async def test_a_game_without_orders_says_so(host: Host) -> None:
    await host.create_game("g", CHANNEL, ALICE, "babylone", {})
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    with pytest.raises(HostError, match="has no standing orders"):
        await host.orders_text(CHANNEL, ALICE)


async def test_orders_show_the_recommended_set_and_what_each_gives_up(host: Host) -> None:
    """Issue 47: /orders lists the game's recommended orders (measured by ``python -m bench orders``), each with
    one line saying what it gives up; Council cards are not among them (keeping them lost games)."""
    await _start(host, CHANNEL, "principes")
    text = await host.orders_text(CHANNEL, ALICE)
    listed, recommended = text.split("Recommended (each measured not to weaken play)")
    assert "Council cards (council): ask me" in listed
    lines = recommended.splitlines()[1:]
    assert len(lines) == 2 * len(PRINCIPES.recommended_orders) and "council" not in recommended
    assert all(line.startswith("- ") for line in lines[::2])
    assert all(line.startswith("  Gives up: ") and line.endswith(".") for line in lines[1::2])
    assert "- Consent to passage (consent): always deny" in lines
    assert any(
        line.startswith("- Card windows (windows): in a battle: a 'before battle' card") for line in lines
    )
    assert "- The Clergy penalty (clergy_penalty): pay gold while I have enough" in recommended
    polish = localize(text, "pl")
    assert "Zalecane" in polish and "Tracisz: nigdy nie przepuszczasz" in polish and "Gives up" not in polish


async def test_a_game_begins_with_the_recommended_orders_each_player_is_told_of_by_dm(host: Host) -> None:
    """Issue 47: a player who sets nothing begins a game with its recommended orders (measured not to weaken play,
    ``/settings orders`` on by default), set as their own, told once by DM which decisions they answer (in
    English or Polish); ``/settings orders:off`` begins the next games without them; nobody else is told."""
    await host.set_setting(BOB.user_id, "orders", "off")
    await host.create_game("g", CHANNEL, ALICE, "principes", {})
    await host.join(CHANNEL, BOB)
    deliveries = await host.start(CHANNEL, ALICE, order="given")
    told = [d for d in deliveries if d.text.startswith("Recommended standing orders are on for you")]
    assert [(d.kind, d.user_id) for d in told] == [("private", ALICE.user_id)]
    titles = {topic.key: topic.title for topic in PRINCIPES.standing_topics}
    lines = told[0].text.splitlines()
    assert lines[1:-1] == [f"- {titles[key]}" for key in titles if key in PRINCIPES.recommended_orders]
    assert "/settings orders:off" in lines[-1] and len(told[0].text) < 1000
    polish = localize(told[0].text, "pl")
    assert polish.startswith("W grze PRINCIPES") and "- Okna kart" in polish and "/ustawienia" in polish
    listed = (await host.orders_text(CHANNEL, ALICE)).split("Recommended")[0]
    assert (
        "Consent to passage (consent): always deny" in listed and "Council cards (council): ask me" in listed
    )
    assert "Card windows (windows): ask me" in (await host.orders_text(CHANNEL, BOB)).split("Recommended")[0]
    count = len(PRINCIPES.recommended_orders)
    assert (
        f"Your standing orders answer {count} kinds of decisions for you"
        in (await host.hand(CHANNEL, ALICE)).text
    )
    assert "Your standing orders: none (every decision asks you)" in (await host.hand(CHANNEL, BOB)).text
    await host.set_order(CHANNEL, ALICE, "consent", "ask")
    assert "Consent to passage (consent): ask me" in await host.orders_text(CHANNEL, ALICE)


async def test_a_player_taking_a_seat_over_begins_with_the_recommended_orders(host: Host) -> None:
    """A seat handed over (/game sub) to a player who sets nothing: they begin with the recommended orders too,
    told by DM; the player who left keeps no say in the seat."""
    await _start(host, CHANNEL, "principes")
    deliveries = await host.sub(CHANNEL, BOB, CAROL)
    told = [d for d in deliveries if d.text.startswith("Recommended standing orders are on for you")]
    assert [(d.kind, d.user_id) for d in told] == [("private", CAROL.user_id)]
    assert "Consent to passage (consent): always deny" in await host.orders_text(CHANNEL, CAROL)


async def test_a_shipped_order_answers_the_decision_it_names(host: Host, clock) -> None:
    """The orders a game begins with answer as any order does: the Princeps's direction (recommended: always
    clockwise) is given for the player at the automatic pass's random moment, without their click."""
    host.autopass_rng.seed(5)
    game_id = await _start(host, CHANNEL, "principes")
    await _click_until(host, game_id, ("direction", "plan"))
    live = await host.games.load(game_id)
    directions = {seat for seat, d in live.game.pending(live.state).items() if d.kind == "direction"}
    assert directions, "the first Round asks the Princeps its direction"
    clock.advance(121)
    await host.fire_due_timers()
    live = await host.games.load(game_id)
    assert not any(d.kind == "direction" for d in live.game.pending(live.state).values())
    assert "direction cw" in [event.action for event in await host.store.events(game_id)]


async def test_orders_list_and_set_the_invader_neighbour_and_hand_limit_orders(host: Host) -> None:
    """Issue 47: the armies a player moves and the hand limit have their orders, "ask me" until set, listed in
    English and Polish; a choice they do not have is refused with a sentence."""
    await host.set_setting(ALICE.user_id, "orders", "off")  # "ask me" everywhere, as before the shipped set
    await _start(host, CHANNEL, "principes")
    listed = (await host.orders_text(CHANNEL, ALICE)).split("Recommended")[0]
    for line in (
        "Invader moves (invader_move): ask me",
        "Neighbour moves (neighbour_move): ask me",
        "Hand limit (hand_limit): ask me",
    ):
        assert line in listed
    answer = await host.set_order(CHANNEL, ALICE, "hand_limit", "battle_first")
    assert (
        "Hand limit (hand_limit): sell Battle cards first, then play cards for support on my lower track"
        in (answer)
    )
    await host.set_order(CHANNEL, ALICE, "invader_move", "leader")
    text = await host.orders_text(CHANNEL, ALICE)
    assert (
        "Invader moves (invader_move): at the rival with the most Might: onto their lands, then end" in text
    )
    polish = localize(text, "pl")
    assert "Ruchy Najeźdźców (invader_move): na inną dzielnicę o największej Potędze" in polish
    assert "Limit kart na ręce (hand_limit): najpierw sprzedaj karty Bitwy" in polish
    assert "Ruchy Sąsiadów (neighbour_move): pytaj mnie" in polish
    with pytest.raises(HostError, match="takes one of ask, default, leader"):
        await host.set_order(CHANNEL, ALICE, "neighbour_move", "anywhere")


async def test_principes_plan_phase_ends_when_the_last_plan_is_sealed(host: Host, clock) -> None:
    """Ready barrier: the sealed plans are revealed the moment the last seat seals, not at the deadline, and
    no deadline of the plan phase is left behind."""
    game_id = await _start(host, CHANNEL, "principes")
    await _click_until(host, game_id, ("plan",))  # the opening decisions (Princess missions, direction)
    started = clock.now
    await host.act(game_id, ALICE, "plan taxes assembly building")
    await host.act(game_id, BOB, "plan taxes assembly building")
    live = await host.games.load(game_id)
    assert clock.now == started and live.state["play"]["phase"] != "plan"
    plan_timers = await host.store.fetchall(
        "SELECT decision_id FROM timers WHERE game_id = ? AND decision_id LIKE '%plan%'", (game_id,)
    )
    pending_ids = {decision.id for decision in live.game.pending(live.state).values()}
    assert all(row["decision_id"] in pending_ids for row in plan_timers)


async def test_status_estimates_the_time_to_finish_from_the_games_own_answers(
    host: Host, clock, ordered_game
) -> None:
    """Two rounds in which alice answers within an hour and bob after ten: /game status names bob as the seat
    that holds the game up, from the times each sealed choice was made (not when the reveal stored them)."""
    game_id = await _start(host, CHANNEL, ordered_game.key)
    for _ in range(2):
        clock.advance(3600)
        await host.act(game_id, ALICE, "pick 3")
        clock.advance(9 * 3600)
        await host.act(game_id, BOB, "pick 3")  # the same pick: nobody scores, the game goes on
    status = await host.status(CHANNEL)
    estimate = next(line for line in status.splitlines() if line.startswith("Time to finish"))
    # bob, asked again the moment he answered round 1, was not "away" for round 2 (no new wait); alice's round 2
    # pick is a wait of its own
    assert (
        "2 answers so far)" in estimate and "bob holds the game up most (10 h of waiting so far)" in estimate
    )
    # round 1 asked both at once: one wait until the slower answered (10 h), then alice's 1 h and bob's 9 h more
    # in the same wait of his: 20 h for 2 waits, 10 h per wait (the time the waits stood for, not their first
    # answers' mean of 5.5 h), the median answer beside it
    assert "pace so far of 10 h per wait (median answer 1 h" in estimate and "for a player" in estimate


async def test_an_answer_taken_back_is_not_given_again_by_the_order(host: Host, clock, open_game) -> None:
    """Undo works as before: bob takes back what his order answered, and the order stays silent until his next
    decision, so he chooses himself."""
    game_id = await _start(host, CHANNEL, open_game.key)
    await host.set_order(CHANNEL, BOB, "pick", "low")
    await host.act(game_id, ALICE, "pick 3")
    clock.advance(120)
    await host.fire_due_timers()
    assert (await host.games.load(game_id)).state["round"] == 2  # bob's order picked 1
    await host.undo(CHANNEL, BOB)
    assert (await host.prompt_of(game_id, BOB.user_id)) is not None
    clock.advance(3600)
    await host.fire_due_timers()
    assert (await host.games.load(game_id)).state["round"] == 1  # still his to choose
    await host.act(game_id, BOB, "pick 2")
    live = await host.games.load(game_id)
    assert live.state["round"] == 2 and live.state["revealed"][-1] == [3, 2]
    # his next decision is answered by the order again
    await host.act(game_id, ALICE, "pick 3")
    clock.advance(120)
    await host.fire_due_timers()
    assert (await host.games.load(game_id)).state["round"] == 3


class QueuedPick(OrderedGuess):
    """Open picks asked one seat after another in seat order, each pick taken only once a round: a later seat
    may answer ahead (``Game.ahead``); its decision's id is the slot of its answer given ahead."""

    key = "test-queued-pick"

    def pending(self, state: State) -> dict[int, Decision]:
        if self.outcome(state).finished:
            return {}
        waiting = [seat for seat, pick in enumerate(state["picks"]) if pick is None]
        seat = state.get("preview", waiting[0] if waiting else None)
        return {} if seat is None else {seat: self._decision(state, seat)}

    @staticmethod
    def _decision(state: State, seat: int) -> Decision:
        return Decision(f"r{state['round']}-s{seat}", "pick", "Pick 1, 2 or 3 (each once a round).")

    def legal_actions(self, state: State, seat: int) -> list[str]:
        taken = set(state["picks"])
        return [f"pick {n}" for n in (1, 2, 3) if n not in taken] if seat in self.pending(state) else []

    def view(self, state: State, seat: int | None) -> View:
        return {key: value for key, value in state.items() if key != "preview"}

    def ahead(self, state: State) -> dict[int, Decision]:
        waiting = [seat for seat, pick in enumerate(state["picks"]) if pick is None]
        return {seat: self._decision(state, seat) for seat in waiting[1:]}

    def ahead_state(self, state: State, seat: int) -> State | None:
        return {**self.copy_state(state), "preview": seat} if seat in self.ahead(state) else None

    def standing_answer(
        self, view: View, seat: int, decision: Decision, legal: list[str], orders: Orders
    ) -> str | None:
        return ahead_action(orders, decision.id, legal)


@pytest.fixture
def queued_game() -> Any:
    game = QueuedPick()
    register(game)
    yield game
    unregister(game.key)


async def test_an_answer_given_ahead_is_given_as_the_players_click_at_their_turn(
    host: Host, clock, queued_game
) -> None:
    ahead = await _start(host, CHANNEL, queued_game.key)
    shown = await host.ahead_text(CHANNEL, BOB)
    assert "`pick 1`, `pick 2`, `pick 3`" in shown and "No answer given ahead yet" in shown
    with pytest.raises(HostError, match="Nothing to answer ahead"):
        await host.answer_ahead(CHANNEL, ALICE, "pick 1")  # alice is asked now, not ahead
    for bad in ("pick 7", "", "pick 1, pick 2, pick 3, pick 1"):
        with pytest.raises(HostError):
            await host.answer_ahead(CHANNEL, BOB, bad)
    told = await host.answer_ahead(CHANNEL, BOB, "pick 3, pick 2")
    assert "Answered ahead" in told
    assert "pick 3" in await host.ahead_text(CHANNEL, BOB)
    assert "Coming to you" in (await host.hand(CHANNEL, BOB)).text
    assert "pick 3" not in (await host.hand(CHANNEL, ALICE)).text
    delivered = await host.act(ahead, ALICE, "pick 3")  # takes bob's first choice: his fallback is given
    assert not any("ahead" in d.text.lower() for d in delivered if d.user_id != BOB.user_id)
    asked = [d.text for d in delivered if d.user_id == BOB.user_id and d.kind == "private"]
    assert any("Your answer given ahead answers this in a moment: " in text for text in asked), asked
    clock.advance(120)
    fired = await host.fire_due_timers()
    notes = [d for d in fired if "your answer given ahead" in d.text]
    assert len(notes) == 1 and notes[0].user_id == BOB.user_id and notes[0].kind == "private"
    assert not any("ahead" in d.text.lower() for d in fired if d.user_id != BOB.user_id)
    answered = await host.games.load(ahead)
    assert answered.state["round"] == 2
    assert "ahead" not in json.dumps(await host.export_game(ahead)).lower()

    # the same game with bob clicking the same answer when asked
    clicked = await _start(host, OTHER_CHANNEL, queued_game.key)
    await host.act(clicked, ALICE, "pick 3")
    await host.act(clicked, BOB, "pick 2")
    assert (await host.games.load(clicked)).state == answered.state
    events = [(e.seat, e.action, e.user_id) for e in await host.store.events(ahead, 0)]
    assert events == [(e.seat, e.action, e.user_id) for e in await host.store.events(clicked, 0)]


async def test_a_later_seat_is_asked_ahead_privately_when_the_queue_starts(host: Host, queued_game) -> None:
    game_id = await _start(host, CHANNEL, queued_game.key)
    await host.act(game_id, ALICE, "pick 1")
    delivered = await host.act(
        game_id, BOB, "pick 2"
    )  # round 2 begins: alice is asked, bob's turn is in sight
    asked = [d for d in delivered if "coming to you" in d.text]
    assert len(asked) == 1 and asked[0].user_id == BOB.user_id and asked[0].kind == "private"
    assert "/ahead" in asked[0].text and "`pick 1`, `pick 2`, `pick 3`" in asked[0].text


async def test_principes_princess_mission_answered_ahead_through_the_host(host: Host, clock) -> None:
    """PRINCIPES Princess missions (``Game.ahead`` of kind "princess"), through the host unchanged: the later
    player answers while the earlier one is asked; the earlier Princess takes their first choice, so their second
    is given at their turn, as their own click, told only to them."""
    game_id = await _start(host, CHANNEL, "principes")
    for _ in range(10):  # the turn order direction, until the first mission
        live = await host.games.load(game_id)
        pending = live.game.pending(live.state)
        if any(decision.kind == "princess" for decision in pending.values()):
            break
        seat, decision = min(pending.items())
        await host.act(game_id, (ALICE, BOB)[seat], live.game.legal_actions(live.state, seat)[0], decision.id)
    asked = next(seat for seat, decision in pending.items() if decision.kind == "princess")
    earlier, later = (ALICE, BOB)[asked], (ALICE, BOB)[1 - asked]
    assert live.game.ahead(live.state)[1 - asked].kind == "princess"
    shown = await host.ahead_text(CHANNEL, later)
    assert "Princess" in shown and "No answer given ahead yet" in shown
    court = f"send {capital(live.state['seats'][asked])}"
    assert court in shown
    fallback = "send bohemia"
    assert "Answered ahead" in await host.answer_ahead(CHANNEL, later, f"{court}, {fallback}")
    assert "ahead" not in (await host.hand(CHANNEL, earlier)).text.lower()
    delivered = await host.act(game_id, earlier, court)  # her own court: a draw comes first
    assert not any("ahead" in d.text.lower() for d in delivered if d.user_id != later.user_id)
    await host.act(game_id, earlier, "draw court")
    assert (await host.prompt_of(game_id, later.user_id)) is not None  # their turn: asked, the answer is due
    clock.advance(120)
    fired = await host.fire_due_timers()
    notes = [d for d in fired if "your answer given ahead" in d.text]
    assert len(notes) == 1 and notes[0].user_id == later.user_id and notes[0].kind == "private"
    assert not any("ahead" in d.text.lower() for d in fired if d.user_id != later.user_id)
    events = [(e.seat, e.action, e.user_id) for e in await host.store.events(game_id, 0)]
    assert (1 - asked, fallback, later.user_id) in events
    assert "ahead" not in json.dumps(await host.export_game(game_id)).lower()


async def test_an_answer_ahead_the_rules_cannot_read_is_refused_with_their_sentence(
    host: Host, queued_game: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rules' own sentence for notation they cannot read (it quotes what was typed) answers /ahead, as it
    answers /move: never an unexpected error."""

    def unreadable(state: State, seat: int, text: str) -> str:
        raise InvalidAction(f"'{text}' is not an action of this test game.")

    await _start(host, CHANNEL, queued_game.key)
    monkeypatch.setattr(queued_game, "parse", unreadable)
    with pytest.raises(HostError, match=r"^'banana' is not an action of this test game\.$"):
        await host.answer_ahead(CHANNEL, BOB, "banana")
