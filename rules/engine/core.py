"""The contract every game implements (docs/DESIGN.md section 2).

A game is a stateless object; its state is plain JSON data (dicts, lists, str, int, bool, None) so that it
round-trips through storage unchanged. Actions are canonical notation strings: the text a player types into
``/move``, the text autocomplete offers, the text the log stores. ``parse`` turns lenient input into that
canonical text (``InvalidAction`` when it cannot be read); ``apply`` refuses a well-formed but forbidden action
with ``IllegalAction``. Both carry a sentence a player understands.
"""

from __future__ import annotations

import pickle
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from .rng import Rng

if TYPE_CHECKING:  # standing orders build on this contract; the names serve annotations only
    from .standing import Orders, PlanAhead, Recommended, Topic

State = dict[str, Any]
View = dict[str, Any]
#: a game's state and view types: TypedDicts (plain JSON at run time) that mypy checks each game's code against;
#: code that serves every game (the host, the conformance suite) sees ``Game[Any, Any]``
S = TypeVar("S")
V = TypeVar("V")
T = TypeVar("T")


class RulesError(Exception):
    """Base of the errors a player may see; ``str(error)`` is the sentence to show them."""


class InvalidAction(RulesError):
    """The text is not an action of this game at all (notation error)."""


class IllegalAction(RulesError):
    """The action is well-formed but not allowed now."""


class OptionError(RulesError):
    """A lobby option is unknown or has a value the game does not accept."""


@dataclass(frozen=True)
class Decision:
    """A decision a seat must take now.

    ``id`` is unique within the game and changes whenever a new decision is posed to that seat, but not when
    someone else takes a free action: buttons carry it so a stale click is refused.
    """

    id: str
    kind: str
    prompt: str
    #: chosen secretly and at the same time as the other sealed seats (commit and reveal in the host)
    sealed: bool = False
    #: the action space is too large to list: ``legal_actions`` gives examples, ``apply`` is the judge
    open_ended: bool = False
    #: "turn" uses the game's decision deadline, "window" the shorter card-window deadline
    timing: str = "turn"


@dataclass(frozen=True)
class Outcome:
    finished: bool = False
    winners: tuple[int, ...] = ()
    draw: bool = False
    reason: str = ""

    def returns(self, num_players: int) -> list[float]:
        """OpenSpiel-style payoffs: +1 for each winner, -1 for each loser, 0 for all on a draw."""
        if not self.finished or self.draw or not self.winners:
            return [0.0] * num_players
        return [1.0 if seat in self.winners else -1.0 for seat in range(num_players)]


@dataclass(frozen=True)
class Event:
    """Something that happened, for the public log (``text``) and for statistics (``kind``)."""

    kind: str
    text: str


@dataclass(frozen=True)
class Option:
    """A lobby option: ``choices`` lists the accepted values (as typed), ``default`` is one of them."""

    name: str
    default: str
    choices: tuple[str, ...]
    help: str

    def coerce(self, value: str) -> str:
        value = value.strip().lower()
        if value not in self.choices:
            raise OptionError(f"Option {self.name} takes one of {', '.join(self.choices)}, not {value!r}.")
        return value


@dataclass(frozen=True)
class RoundStatus:
    """Where a game that counts rounds stands, for the host's one status message per round."""

    round: int
    period: str | int
    #: the game's own words for what rules this round beside its period (PRINCIPES: "History card: <title>"),
    #: canonical English its catalog translates; None: nothing more to say
    note: str | None = None


# ---- seats' sides and a game's report (issue 44) -----------------------------------------------------------
#: a seat's place in the turn order: its side in games whose seats have no colour (``Game.seat_sides``)
SEAT_ORDINALS = ("first", "second", "third", "fourth")


def ordinal_sides(num_players: int) -> list[str]:
    """Each seat's place in the turn order ("first", "second", ..., then "seat 5"): the default sides."""
    return [
        SEAT_ORDINALS[seat] if seat < len(SEAT_ORDINALS) else f"seat {seat + 1}"
        for seat in range(num_players)
    ]


@dataclass(frozen=True)
class ResultSeat:
    """One seat of one stored result, as plain data for ``Game.report``: the host reads them from its results
    (oldest game first, seats in order), the rules only count them."""

    #: the finished game's id (the seats of one game share it)
    game: int
    num_players: int
    #: the game ended without a winner
    draw: bool
    seat: int
    #: what the seat played (``Game.seat_sides`` when the game ended), None if nothing was recorded
    side: str | None
    won: bool
    #: a person played the seat (not an AI level)
    by_person: bool


# ---- end of seats' sides and a game's report -----------------------------------------------------------------


# ---- how shared tests and benches play a game (issue 44) ------------------------------------------------------
@dataclass(frozen=True)
class StrengthMatch:
    """``python -m bench ai``'s head-to-head match of a game, the writer of its ``strength.json``: ``challenger``
    must beat ``opponent`` in ``games`` games of ``players`` seats, with a share of the decided games and a score
    (a draw counts half) of at least ``goal`` each."""

    challenger: str
    opponent: str
    games: int
    goal: float
    players: int = 2


@dataclass(frozen=True)
class Exercise:
    """How the suites and benches that serve every game play this one (``Game.exercise``). The defaults suit a
    small game; a game whose random play is too slow or too short overrides them."""

    #: the AI level sample games are played by (golden playthroughs, the pace bench): a cheap level that plays
    #: every game to its end and looks like real play
    level: str = "random"
    #: the player counts sample games use; empty: every count the game takes
    players: tuple[int, ...] = ()
    #: how many actions a long sample game runs at most (the alt text, replay and digest suites)
    actions: int = 400
    #: golden playthroughs beyond one per player count with the default options: (players, options)
    golden_options: tuple[tuple[int, Mapping[str, str]], ...] = ()
    #: the players and AI level of a quick game played through the host to its end (verify, export, replay,
    #: ratings); None: the fewest players, each ``level``
    quick: tuple[int, str] | None = None
    #: the match ``bench ai`` plays to measure the game's strongest level; None: none (no ``strength.json``)
    strength: StrengthMatch | None = None


# ---- end of how shared tests and benches play a game ---------------------------------------------------------


@dataclass
class Applied(Generic[S]):
    state: S
    events: list[Event] = field(default_factory=list)


class Game(ABC, Generic[S, V]):
    """Base class of a game's rules. Subclasses fill in the class attributes and the abstract methods."""

    key: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    rules_version: int = 1
    options: tuple[Option, ...] = ()
    ai_levels: tuple[str, ...] = ("random",)
    has_chance: bool = False
    hidden_information: bool = False
    #: players may end the game as a draw when all of them agree (/game draw)
    draw_by_agreement: bool = True
    #: some decisions are card windows (``Decision.timing == "window"``), timed by the lobby's ``window`` option
    has_windows: bool = False
    #: about how many of a person's card windows pass by themselves (the automatic pass: "pass" their only answer),
    #: measured in self-play; the time to finish weighs a window's wait by the rest, since which window passed by
    #: itself is the seat's secret while the game runs (tested against self-play in tests/rules/test_pace.py)
    window_pass_share: float = 0.0
    #: False while only part of a game exists (data and setup, say): it can be rendered, not played
    playable: bool = True
    #: shown by ``/rules``: how this implementation settles what the rule text leaves open
    rules_notes: str = ""
    #: the questions a player may answer in advance (``standing``: consent, card windows...); none by default
    standing_topics: tuple[Topic, ...] = ()
    #: the standing orders recommended to every player, by topic, each with what it gives up: orders measured not
    #: to cost strength (``python -m bench orders``); none by default
    recommended_orders: Mapping[str, Recommended] = MappingProxyType({})

    # ---- placeholder kinds of the game's catalog entries (issue 44) ----------------------------------------
    #: placeholders of this game's message ids (``{people}``) that hold a number, beyond the host's (``i18n``:
    #: ``NUMBER_PARAMS``); the translations read them back as digits
    number_params: frozenset[str] = frozenset()
    #: placeholders of this game's message ids (``{card}``) that hold a text localised in turn, beyond the host's
    #: (``i18n``: ``TEXT_PARAMS``); a name must not be a number placeholder too
    text_params: frozenset[str] = frozenset()
    # ---- end of placeholder kinds ------------------------------------------------------------------------

    # ---- how shared tests and benches play the game (issue 44) -------------------------------------------
    #: what the suites and benches that iterate the registry need of this game (``Exercise``'s defaults suit a
    #: small game)
    exercise: Exercise = Exercise()

    def sample_players(self) -> tuple[int, ...]:
        """The player counts sample games of this game use (``Exercise.players``, else every count)."""
        return self.exercise.players or tuple(range(self.min_players, self.max_players + 1))

    def quick_game(self) -> tuple[int, str]:
        """The players and AI level of a quick game played to its end (``Exercise.quick``)."""
        return self.exercise.quick or (self.min_players, self.exercise.level)

    # ---- end of how shared tests and benches play the game -----------------------------------------------

    # ---- setup and options -------------------------------------------------------------------------------
    def resolve_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """Defaults filled in, each value checked. Unknown names are refused."""
        known = {option.name: option for option in self.options}
        for name in given:
            if name not in known:
                names = ", ".join(known) or "none"
                raise OptionError(f"{self.title} has no option {name!r} (options: {names}).")
        return {
            name: option.coerce(given[name]) if name in given else option.default
            for name, option in known.items()
        }

    def check_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            span = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise OptionError(f"{self.title} is played by {span} players, not {num_players}.")

    @abstractmethod
    def setup(self, num_players: int, options: Mapping[str, str], rng: Rng) -> S: ...

    # ---- play ---------------------------------------------------------------------------------------------
    @abstractmethod
    def pending(self, state: S) -> dict[int, Decision]: ...

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> list[str]:
        """Every action the seat may take now, answers to its decision and free actions alike."""
        ...

    def is_free(self, state: S, seat: int, action: str) -> bool:
        """True for an action that answers no decision (PRINCIPES' gifts); it never invalidates a prompt."""
        return False

    @abstractmethod
    def apply(self, state: S, seat: int, action: str, rng: Rng) -> Applied[S]:
        """Return the new state; never mutate ``state``. Raise ``IllegalAction`` when not allowed."""
        ...

    @abstractmethod
    def outcome(self, state: S) -> Outcome: ...

    def view(self, state: S, seat: int | None) -> V:
        """What ``seat`` may know (``None``: the public). The default suits perfect-information games, whose view
        is the whole state (their ``V`` is their ``S``)."""
        return cast(V, self.copy_state(state))

    def secrets(self, state: S, seat: int) -> list[str]:
        """Distinctive strings only ``seat`` may see now; no other view may contain them (conformance)."""
        return []

    # ---- notation -----------------------------------------------------------------------------------------
    def parse(self, state: S, seat: int, text: str) -> str:
        """Canonical notation for what a player typed. The default folds case and spaces."""
        canonical = " ".join(text.strip().lower().split())
        if not canonical:
            raise InvalidAction("Type a move, for example one of those /move suggests.")
        return canonical

    def describe(self, state: S, action: str) -> str:
        """A longer label for buttons and the log; defaults to the notation itself."""
        return action

    def round_status(self, state: S) -> RoundStatus | None:
        """The round and its period (and card) for a game played in rounds, which the host keeps in one status
        message per round; None (the default) for a game without rounds."""
        return None

    def progress(self, state: S) -> float | None:
        """The fraction of the game played (0 to 1) where the rules can tell (rounds of a fixed number), for
        the host's estimate of the time to finish; None (the default) when they cannot."""
        return None

    # ---- seats' sides and the game's report, for statistics (issue 44) ------------------------------------
    #: what a seat's side is called ("favourite colour: red"); by default a seat is its place in the turn order
    side_word: str = "seat"

    def seat_sides(self, view: V, num_players: int) -> list[str]:
        """What each seat played, from the public view at the game's end (a colour, a principality); recorded
        with the result, inside the transaction that ends the game, so cheap and pure. The default: each seat's
        place in the turn order ("first", "second", ...)."""
        return ordinal_sides(num_players)

    def report(self, results: Sequence[ResultSeat]) -> str | None:
        """The game's own statistics over every stored result of it (``results``: its seats, oldest game
        first), which ``/stats`` adds when asked about this game; None (the default) when it has none."""
        return None

    # ---- end of seats' sides and the game's report --------------------------------------------------------

    # ---- time, undo, AI -----------------------------------------------------------------------------------
    def on_deadline(self, state: S, seat: int) -> str | None:
        """The action taken for ``seat`` when its decision expires, or None (the others may claim)."""
        return None

    def auto_pass(self, state: S, seat: int) -> str | None:
        """The only answer the seat has (typically "pass" in a card window with no playable card), or None.

        The host gives it after a short random delay when the player's auto-pass preference is on, so that
        neither the prompt nor its timing reveals the player's hand.
        """
        return None

    def standing_answer(
        self, view: V, seat: int, decision: Decision, legal: list[str], orders: Orders
    ) -> str | None:
        """The action the seat's standing orders give for ``decision``, from the seat's view and legal actions
        only (``standing.standing_answer`` keeps it only when legal); None: ask the player."""
        return None

    def ahead(self, state: S) -> dict[int, Decision]:
        """Decisions the rules will ask later in an order they fix (a seat after the one asked now) that those
        seats may answer now, ahead (issue 18's answers collected ahead). A decision's ``id`` is its *slot*: the
        seat's answer given ahead is kept as its ``standing.AHEAD`` order for that slot, and ``standing_answer``
        gives it when the decision arises, if it is still legal then. None by default."""
        return {}

    def ahead_state(self, state: S, seat: int) -> S | None:
        """The state as if the seat's upcoming decision (``ahead``) were asked now: its view and legal actions
        are what the seat answers ahead from. None if the seat has no such decision."""
        return None

    def plan_ahead(self, state: S, seat: int, sealed: str | None) -> list[PlanAhead]:
        """Decisions still to come that the seat's plan already implies and that it may answer now (issue 18:
        answers given when a plan is sealed): from ``sealed``, the choice it has just sealed (kept out of the
        state until every seat has sealed), or, when None, from the state (the plan revealed, its decisions not
        yet asked). The answer is kept as the seat's ``standing.AHEAD_PLAN`` order and ``standing_answer`` gives
        it when the decision of that slot arises, if it is legal then. None by default."""
        return []

    def turn_ahead(self, state: S) -> dict[int, list[Decision]]:
        """Each seat's own turns (an action of several decisions in a row, all its own) that it may answer now,
        ahead, while an earlier seat plays (issue 47), nearest first: the rules' order is kept, the answers are
        given in turn when it comes, each while it is still legal (``standing.turn_key``). A decision's ``id`` is
        the turn's *slot* (``turn_slot`` gives the same for each decision of that turn), its ``kind`` the turn's
        first decision's. None by default."""
        return {}

    def turn_ahead_state(self, state: S, seat: int, slot: str) -> S | None:
        """The state as if the seat's turn of ``slot`` (one of ``turn_ahead``'s) had come, its first decision
        posed, on the board as it stands: what the seat answers ahead from. None if it is not in sight, or if
        getting there would draw on chance or show anyone something hidden (``reveals_hidden``)."""
        return None

    def turn_comes_publicly(self, decision: Decision) -> bool:
        """Whether a turn of ``turn_ahead`` comes in sight by something the whole table sees ask someone at once
        (a Council summoned, a battle's card window opened): it is then offered at that moment. Otherwise (the
        default) it is offered only with its own seat's wait (the seat has just answered, or is asked), so the
        moment of an offer tells its seat nothing of how the others' decisions were answered."""
        return False

    def turn_slot(self, view: V, seat: int, decision: Decision) -> str | None:
        """The slot of the turn that the seat's decision belongs to, from the seat's view (None: the decision is
        not part of a turn that ``turn_ahead`` offers)."""
        return None

    def reveals_hidden(self, before: S, after: S, seat: int) -> bool:
        """Whether going from ``before`` to ``after`` shows the seat something hidden (a card drawn, a tile
        turned up): answering a turn ahead stops there (``turn_ahead.preview_after``). False by default: a game
        of perfect information hides nothing."""
        return False

    def can_undo(self, state_before: S, seat: int, action: str) -> bool:
        """Whether ``seat`` may take ``action`` back (the host also requires no chance and nobody since)."""
        return False

    def choose_action(self, view: V, seat: int, legal: Sequence[str], level: str, rng: random.Random) -> str:
        """An AI decision from the seat's view and its legal actions only. Level ``random`` is built in."""
        return rng.choice(list(legal))

    # ---- storage ------------------------------------------------------------------------------------------
    def upgrade(self, state: S, from_version: int) -> S:
        """Bring a stored state of an older ``rules_version`` up to date."""
        if from_version != self.rules_version:
            raise RulesError(f"{self.title} cannot load a game saved by rules version {from_version}.")
        return state

    @staticmethod
    def copy_state(state: T) -> T:
        # pickle is ~5x faster than copy.deepcopy on plain data (docs/notes/performance.md)
        copied: T = pickle.loads(pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))
        return copied

    # ---- helpers for subclasses ---------------------------------------------------------------------------
    def require_pending(self, state: S, seat: int, action: str) -> Decision:
        decision = self.pending(state).get(seat)
        if decision is None and not self.is_free(state, seat, action):
            raise IllegalAction("It is not your turn.")
        return decision  # type: ignore[return-value]

    def require_legal(self, state: S, seat: int, action: str) -> None:
        self.require_pending(state, seat, action)
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"{action!r} is not a legal move now.")
