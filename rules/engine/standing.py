"""Standing orders: answers a player gives in advance, for the host to give for them when a decision arises.

A game offers *topics* (:class:`Topic`: consent to passage, card windows, Council cards...), each with its
choices; the first choice is always ``ask`` ("ask me", the default when no order is set). A player's orders map
topic keys to an :class:`Order` (a choice and, for some choices, names: principalities allowed through, cards
marked). ``Game.standing_answer`` turns the orders into an action for the seat's decision *from the seat's view
only*; :func:`standing_answer` keeps it only when it is one of the seat's legal actions, so an order that would
give an illegal answer falls back to asking. The host (``bot.hosting``) and the pace benchmark both call
:func:`standing_answer`; nothing here touches a state, so an order never changes a rule: the game that results
is the game in which the player clicked the same answer when asked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .core import Decision, OptionError, View

if TYPE_CHECKING:  # the engine's core imports this module's types only for annotations
    from .core import Game

ASK = "ask"
#: at most this many names in one order (a marked card list, the principalities allowed through)
MAX_NAMES = 25


@dataclass(frozen=True)
class Topic:
    """A question a player may answer in advance: its key (``/orders <key>``), a title, and its choices (the
    first is ``ask``), each with a short description. ``names`` says which choices take names and reads one
    name (``read`` returns its canonical form or raises ``OptionError`` with a sentence)."""

    key: str
    title: str
    choices: tuple[tuple[str, str], ...]
    #: choice -> what its names are, in words ("principalities", "cards")
    named: Mapping[str, str] = field(default_factory=dict)
    read: Callable[[str], str] | None = None

    def describe(self, choice: str) -> str:
        return dict(self.choices)[choice]


@dataclass(frozen=True)
class Order:
    """One standing order: the chosen answer, and the names it applies to (when its choice takes names)."""

    choice: str
    names: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"choice": self.choice, "names": list(self.names)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Order:
        return cls(str(data["choice"]), tuple(str(name) for name in data.get("names", ())))


Orders = Mapping[str, Order]


@dataclass(frozen=True)
class Recommended:
    """An order a game recommends (``Game.recommended_orders``: measured not to cost strength, ``python -m bench
    orders``) and, in one line, what a player who sets it gives up."""

    order: Order
    gives_up: str


def recommended_orders(game: Game) -> dict[str, Order]:
    """The game's recommended standing orders, by topic (none for a game without standing orders)."""
    return {key: recommended.order for key, recommended in game.recommended_orders.items()}


#: the key of a seat's answer given ahead among its orders (not a topic: set by answering an upcoming decision,
#: ``Game.ahead``): ``Order("answer", (slot, first choice, second choice...))``, given once, when the decision
#: of that slot arises: its first choice still legal then
AHEAD = "ahead"
#: at most this many choices in one answer given ahead (a first choice and its fallbacks, in order)
AHEAD_CHOICES = 3


#: the key of a seat's answer given when it sealed a choice, for a decision that choice implies (``Game.plan_ahead``:
#: PRINCIPES's Taxes choice, answered when the plan is sealed); the same form as ``AHEAD``'s, kept under its own key
#: so that neither replaces the other
AHEAD_PLAN = "ahead:plan"
#: every key a single answer given ahead is kept under, in the order ``ahead_action`` reads them
AHEAD_KEYS = (AHEAD, AHEAD_PLAN)
#: the start of the key of a seat's own turn answered ahead (``Game.turn_ahead``; ``turn_key``): an
#: ``Order("steps", (slot, "kind:action", ...))``, the answers of the turn's decisions in order, each tagged with
#: its decision's kind, given one by one when decisions of that kind of that turn arise and are legal then
#: (``turn_rest`` keeps the rest); ``Order(OFFERED, (slot,))`` while it was offered and nothing answered
AHEAD_TURN = "ahead:turn"
OFFERED = "offered"
#: at most this many answers in one turn given ahead
MAX_TURN_STEPS = 24
#: separates a step's decision kind from its action (kinds are identifiers; actions are words)
STEP_SEPARATOR = ":"


def turn_key(slot: str) -> str:
    """The key of the seat's answers given ahead for its turn of ``slot`` (one per turn: a seat may have its
    next action and its pledges at a Council answered at once)."""
    return f"{AHEAD_TURN}:{slot}"


def is_turn_key(key: str) -> bool:
    """Whether an orders key holds a turn answered ahead (``turn_key``)."""
    return key.startswith(f"{AHEAD_TURN}:")


def holds_turns(orders: Orders) -> bool:
    """Whether the seat holds a turn answered ahead (or its mark): only then can a turn's answers be used up."""
    return any(is_turn_key(key) for key in orders)


def given_ahead(orders: Orders) -> dict[str, Order]:
    """The answers a seat gave ahead among its orders (``AHEAD_KEYS`` and its turns'), not its standing orders."""
    return {key: order for key, order in orders.items() if key in AHEAD_KEYS or is_turn_key(key)}


def turn_order(slot: str, steps: Sequence[tuple[str, str]]) -> Order:
    """The order that keeps a turn's answers given ahead: (decision kind, action) pairs, first first."""
    tagged = tuple(f"{kind}{STEP_SEPARATOR}{action}" for kind, action in steps[:MAX_TURN_STEPS])
    return Order("steps", (slot, *tagged))


def turn_steps(order: Order | None, slot: str | None) -> list[tuple[str, str]]:
    """The (kind, action) answers still to give of the turn of ``slot`` (none when the order is another turn's)."""
    if order is None or slot is None or not order.names or order.names[0] != slot:
        return []
    pairs = (step.partition(STEP_SEPARATOR) for step in order.names[1:])
    return [(kind, action) for kind, separator, action in pairs if separator]


def turn_action(orders: Orders, slot: str | None, kind: str, legal: Sequence[str]) -> str | None:
    """The next answer of the seat's turn given ahead, when it answers a decision of ``kind`` and is legal now."""
    steps = turn_steps(orders.get(turn_key(slot)), slot) if slot is not None else []
    if steps and steps[0][0] == kind and steps[0][1] in legal:
        return steps[0][1]
    return None


def turn_rest(order: Order, action: str, slot: str | None) -> Order | None:
    """What is left of a turn answered ahead once the seat answered ``action`` to its next decision: the
    remaining answers when it was the one given ahead; None (nothing left, or the seat answered otherwise: the
    rest no longer follows from the turn as it was answered)."""
    steps = turn_steps(order, slot)
    if not steps or steps[0][1] != action or len(steps) == 1:
        return None
    return turn_order(order.names[0], steps[1:])


@dataclass(frozen=True)
class PlanAhead:
    """A decision a seat's sealed choice already implies (PRINCIPES: the plan's Taxes action) that the seat may
    answer now, privately: its slot (as ``ahead_action`` matches it when the decision arises), its kind, a short
    title ("your Taxes action (Action II)") and the answers offered, each with a label for a button. Not
    answering, or answering ``ask``, leaves the player asked when the decision comes."""

    slot: str
    kind: str
    title: str
    answers: tuple[tuple[str, str], ...]


def ahead_order(slot: str, actions: Sequence[str]) -> Order:
    return Order("answer", (slot, *actions[:AHEAD_CHOICES]))


def ahead_action(orders: Orders, slot: str | None, legal: Sequence[str]) -> str | None:
    """The first of the choices the seat gave ahead (with ``/ahead`` or when sealing, ``AHEAD_KEYS``) for the
    decision of ``slot`` that is legal now, if any."""
    if slot is None:
        return None
    for key in AHEAD_KEYS:
        order = orders.get(key)
        if order is None or len(order.names) < 2 or order.names[0] != slot:
            continue
        action = next((action for action in order.names[1:] if action in legal), None)
        if action is not None:
            return action
    return None


def topics_of(game: Game) -> dict[str, Topic]:
    return {topic.key: topic for topic in game.standing_topics}


def check_order(game: Game, key: str, choice: str, names: Sequence[str] = ()) -> Order:
    """The order a player asked for, read and checked (untrusted input): an unknown topic or choice, names for
    a choice that takes none, or a name that names nothing, is refused with a sentence."""
    topics = topics_of(game)
    topic = topics.get(key.strip().lower())
    # each sentence has a catalog entry that reads it back (the front-ends localise it): what was typed stands
    # between plain quotes
    if topic is None:
        known = ", ".join(topics)
        raise OptionError(f"{game.title} has no standing order '{key.strip()[:40]}' (orders: {known}).")
    choice = choice.strip().lower()
    allowed = [name for name, _text in topic.choices]
    if choice not in allowed:
        raise OptionError(f"The {topic.title} order takes one of {', '.join(allowed)}, not '{choice[:40]}'.")
    cleaned = [name.strip() for name in names if name.strip()]
    if cleaned and choice not in topic.named:
        if not topic.named:
            raise OptionError(f"The {topic.title} order takes no names.")
        raise OptionError(f"'{choice}' takes no names; only {', '.join(topic.named)} does.")
    if len(cleaned) > MAX_NAMES:
        raise OptionError(f"At most {MAX_NAMES} names in one order.")  # the catalog's plural entry reads it
    read = topic.read or (lambda name: name.lower())
    return Order(choice, tuple(dict.fromkeys(read(name) for name in cleaned)))


def standing_answer(
    game: Game, view: View, seat: int, decision: Decision, legal: Sequence[str], orders: Orders
) -> str | None:
    """The action the seat's orders give for its decision, or None (ask the player): an order that is not set,
    says ``ask``, or gives an action that is not legal now is no answer."""
    if not orders:
        return None
    if holds_turns(orders):
        given = turn_action(orders, game.turn_slot(view, seat, decision), decision.kind, legal)
        if given is not None:
            return given
    action = game.standing_answer(view, seat, decision, list(legal), orders)
    return action if action is not None and action in legal else None


def describe_recommended(game: Game) -> list[tuple[str, str]]:
    """(the order as ``describe_orders`` words it, what it gives up) for each order the game recommends."""
    recommended = recommended_orders(game)
    described = describe_orders(game, recommended)
    return [
        (line, game.recommended_orders[topic.key].gives_up)
        for topic, line in zip(game.standing_topics, described, strict=True)
        if topic.key in recommended
    ]


def describe_orders(game: Game, orders: Orders) -> list[str]:
    """One line per topic of the game: its title and the order set (``ask me`` where none is)."""
    lines = []
    for topic in game.standing_topics:
        order = orders.get(topic.key)
        if order is None or order.choice == ASK:
            lines.append(f"{topic.title} ({topic.key}): ask me")
            continue
        text = topic.describe(order.choice)
        if order.names:
            text += ": " + ", ".join(f"`{name}`" for name in order.names)  # typed as they are
        lines.append(f"{topic.title} ({topic.key}): {text}")
    return lines
