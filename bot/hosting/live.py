"""A loaded game (``Live``), what one stored step does to it (``Change``), and what the table is told about it.

Everything here is a pure function of a loaded game: no database, no clock (a moment is passed in as ``now``).
The turn step (``step``) and every part of the host build their messages from these.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, replace
from typing import Any

from rules.engine import Decision, Game, State, listing, name_seats
from rules.engine.standing import Order, Orders, standing_answer

from ..models import Choice, Delivery, Prompt, SeatInfo
from ..storage.base import Statement

#: how the message saying who won begins (the rating changes and the replay join that message)
RESULT_PREFIX = "Game over:"
#: ``posts`` (a table option of /game new): one live card per game, edited as it goes (the default), or the
#: board posted after every move
POSTS_CARD, POSTS_EVERY_MOVE = "card", "every-move"
#: the edit key of a game's live card (``Delivery.edit_key``)
CARD_KEY = "card"
#: how the edit key of a decision prompt sent by DM begins (``dm_prompt_key``)
DM_PROMPT = "dm:"


def dm_prompt_key(seat: int, decision_id: str) -> str:
    """The edit key of a decision prompt sent by DM: its buttons come off when the decision closes."""
    return f"{DM_PROMPT}{seat}:{decision_id}"


def kind_words(kind: str) -> str:
    """A decision kind as words: "clergy_penalty" reads "clergy penalty", "choose-order" "choose order"."""
    return kind.replace("_", " ").replace("-", " ")


@dataclass
class Live:
    """A loaded game: its row, seats, current state and the last event number."""

    row: dict[str, Any]
    seats: list[SeatInfo]
    game: Game
    state: State
    seq: int
    #: seated users who asked for turn DMs, and those who turned automatic passing off (/settings)
    dm_users: set[str] = field(default_factory=set)
    autopass_off: set[str] = field(default_factory=set)
    #: user id -> that player's standing orders in this game (``rules.engine.standing``); never shown to others
    orders: dict[str, dict[str, Order]] = field(default_factory=dict)
    #: seated users' notification settings that differ from the defaults (``notify.DEFAULTS``), and this
    #: game's mute as ``mute`` = "on"
    prefs: dict[str, dict[str, str]] = field(default_factory=dict)
    #: after a store that changed more than the state: the new state, until the row and seats are re-read
    pending_state: State | None = None
    pending_seq: int = -1

    @property
    def id(self) -> int:
        return int(self.row["id"])

    @property
    def version(self) -> int:
        return int(self.row["version"])

    def with_state(self, state: State) -> Live:
        return replace(self, state=state)


#: the label of the answer that leaves a decision to be asked when it comes (``standing.ASK``)
ASK_LABEL = "Ask me then"


@dataclass
class Change:
    """What one stored step does: events to append, messages to send, extra SQL to run, all in one commit."""

    events: list[tuple[int | None, str, list[int], str | None, list[list[str]]]] = field(default_factory=list)
    deliveries: list[Delivery] = field(default_factory=list)
    #: writes built by ``bot.storage``'s modules (seats, status, timers, ...), run in the change's commit
    statements: list[Statement] = field(default_factory=list)
    #: deadline offers this change makes (a deadline armed in the same change does not close them)
    offers: set[str] = field(default_factory=set)
    #: the statements end the game (resignation, claim, agreed draw): its result is recorded with them
    finishes: bool = False
    #: seats whose standing orders must not answer their current decision (they just took an answer back)
    orders_off: set[int] = field(default_factory=set)
    #: the step's move is an automatic answer in its player's name (a standing order's, one given ahead)
    automatic: bool = False


def named(live: Live, text: str) -> str:
    """The one place where the rules' seat references (``rules.engine.seat_ref``) become the players' display
    names: every text the host delivers or answers with passes through here. Stored event texts keep their
    references (so /log and exports show today's names); old texts without any read unchanged."""
    return name_seats(text, [seat.name for seat in live.seats])


def named_prompt(live: Live, prompt: Prompt | None) -> Prompt | None:
    if prompt is None:
        return None
    prompt.text = named(live, prompt.text)
    prompt.choices = [  # ``name_seats`` returns a text without references as it is: most choices stay
        c if (label := named(live, c.label)) is c.label else Choice(c.action, label) for c in prompt.choices
    ]
    return prompt


def seat_view(live: Live, seat: int | None) -> dict[str, Any]:
    """The rules' view for an image, with the players' names added (public knowledge at the table)."""
    view = live.game.view(live.state, seat)
    view["seat_names"] = [s.name for s in live.seats]
    return view


def public(
    live: Live,
    text: str,
    view: dict[str, Any] | None,
    mentions: list[str] | None = None,
    prompt: Prompt | None = None,
) -> Delivery:
    """A message to the game's channel."""
    return Delivery(
        0,
        live.id,
        live.row["kind"],
        "public",
        named(live, text),
        channel_id=live.row["channel_id"],
        view=view,
        mentions=mentions or [],
        prompt=named_prompt(live, prompt),
    )


def private(
    live: Live, seat: int, text: str, with_view: bool = True, prompt: Prompt | None = None
) -> Delivery | None:
    """A DM to the seat's player (None for a seat nobody holds)."""
    user = live.seats[seat].user_id
    if user is None:
        return None
    view = seat_view(live, seat) if with_view and live.state else None
    return Delivery(
        0,
        live.id,
        live.row["kind"],
        "private",
        named(live, text),
        user_id=user,
        seat=seat,
        view=view,
        prompt=named_prompt(live, prompt),
    )


def decision_span(live: Live, decision: Decision) -> float:
    """How long the seat has for the decision: a card window's hours, else the game's deadline."""
    return float(live.row["window_seconds" if decision.timing == "window" else "deadline_seconds"])


def prompt_for(live: Live, seat: int, decision: Decision, now: float) -> Prompt:
    """The seat's decision with its choices; a person's deadline counts from ``now`` (when it is armed)."""
    game, state = live.game, live.state
    choices = [
        Choice(action, named(live, game.describe(state, action)))
        for action in game.legal_actions(state, seat)
        if not game.is_free(state, seat, action)
    ]
    deadline = None
    if live.row["status"] == "active" and not live.seats[seat].is_ai:
        deadline = now + decision_span(live, decision)
    return Prompt(
        live.id,
        seat,
        decision.id,
        decision.kind,
        named(live, decision.prompt),
        decision.sealed,
        choices,
        deadline,
    )


def waiting_line(live: Live, seat: int, decision: Decision) -> str:
    """Whom the game waits for, as "Now: alice decides (move): <the prompt>"; an AI seat's line has no prompt
    (a prompt speaks to a person)."""
    who = live.seats[seat].label
    verb = "seals" if decision.sealed else "decides"
    line = f"Now: {who} {verb} ({kind_words(decision.kind)})"
    return f"{line}." if live.seats[seat].is_ai else f"{line}: {decision.prompt}"


def waiting_lines(live: Live, pending: dict[int, Decision], sealed: Collection[int] = ()) -> list[str]:
    """Who the game waits for: a "Now:" line per open decision, then one line for the seats that have sealed
    theirs and wait for the others."""
    lines = [waiting_line(live, s, d) for s, d in sorted(pending.items()) if s not in sealed]
    done = [s for s in sorted(pending) if s in sealed]
    if done:
        lines.append(sealed_line(live, pending, done))
    return lines


def sealed_line(live: Live, pending: dict[int, Decision], done: list[int]) -> str:
    """One line for the seats that sealed while others decide: "alice: sealed (plan), waiting for bob"."""
    names = listing([live.seats[s].name for s in done])
    others = listing([live.seats[s].name for s in sorted(pending) if s not in done]) or "the reveal"
    return f"{names}: sealed ({kind_words(pending[done[0]].kind)}), waiting for {others}."


def result_words(live: Live, winners: tuple[int, ...] | list[int], draw: bool, reason: str) -> str:
    """The result as words, with the players' names, ending as a sentence: "alice wins. <reason>" or "a draw.
    <reason>"."""
    names = listing([live.seats[w].name for w in winners])
    words = f"a draw. {reason}" if draw else f"{names} {'win' if len(winners) > 1 else 'wins'}. {reason}"
    words = words.strip()
    return named(live, words if words.endswith((".", "!", "?")) else f"{words}.")


def result_text(live: Live, winners: tuple[int, ...] | list[int], draw: bool, reason: str) -> str:
    return f"{RESULT_PREFIX} {result_words(live, winners, draw, reason)}"


def card_text(live: Live, pending: dict[int, Decision], finished: bool) -> str:
    """The live card's text: the game, its round where it has rounds, and who it waits for."""
    head = f"**{live.game.title} #{live.id}**"
    facts = live.game.round_status(live.state) if live.state else None
    if facts is not None:
        head += f" · Round {facts.round}" + (f" · Period {facts.period}" if facts.period else "")
    if finished:
        return f"{head}\nThe game is over: the result is below."
    return "\n".join([head, *waiting_lines(live, pending)])


def standing_action(live: Live, seat: int, decision: Decision, orders: Orders | None) -> str | None:
    """The answer the seat's standing orders give for its decision now (from the seat's view and legal actions
    only; an order that would give an illegal answer gives none: the player is asked)."""
    if not orders or live.seats[seat].is_ai:
        return None
    return order_answer(live, seat, decision, orders)


def order_answer(live: Live, seat: int, decision: Decision, orders: Orders) -> str | None:
    game, state = live.game, live.state
    legal = game.legal_actions(state, seat)
    return standing_answer(game, game.view(state, seat), seat, decision, legal, orders)


def stand_in_level(live: Live) -> str:
    """The AI level that stands in for an absent player: in a rated game the game's modest level (its weakest AI
    level that is not random), so a stand-in never lends a player a stronger move than their own (issue 42); in
    an unrated game its first, strongest level."""
    levels = [level for level in live.game.ai_levels if level != "random"]
    if not levels:
        return "random"
    return levels[-1] if live.row.get("rated", 1) else levels[0]
