"""PRINCIPES standing orders (issue 18): the topics a player may answer in advance, and how an order answers a
decision of each kind, from the seat's view and the answers offered only (``decisions.Kind.order`` names the
topic of each kind; ``decisions.standing_answer`` reads it).

- ``consent``: always allow / always deny / allow the named principalities (the others are denied) / ask me.
  The answer is a plain ``allow`` or ``deny`` of this request: the rules' own standing answers (``standing
  <player> allow``) stay the player's to set, and are public.
- ``windows`` (before battle, extra sword/shield, after battle, cancelling a Court card, blocking a Neighbour):
  pass unless an answer offered would play a card I marked / decisive: in a battle, a 'before battle' card whose
  text helps my side, an extra sword or shield only when it turns the battle my way on the rolled dice, the
  other windows passed / ask me. ``dice`` also takes ``decisive``: reroll or flip only when the battle is lost
  on the rolled dice.
- ``council`` (the Council's and the Common Council's card phase): this implementation's Council has no vote
  (the host leads it on the tracks, resolution 35), so the order is: keep my cards (``done``) unless one I
  marked could be pledged or played / pledge every card I can for my own support ("for myself") / ask me.
- ``direction`` (the Princeps's turn order direction each Round): always clockwise / always counter-clockwise /
  ask me. ``taxes``: collect at once / ask me. ``princess``: my own Capital (the deadline default) / ask me.
  ``princess_draw``: a Court card / a Neighbour card / ask me.
- ``invader_move`` (the Invaders a player moves) and ``neighbour_move`` (the Neighbour army of a Neighbour card
  played): what a missed deadline gives (the army ends its move where it stands) / at the leader: each unit
  next to a land of the rival with the most Might moves onto it, one move at a time, then the move ends (asked
  when it may not end there) / ask me.
- ``clergy_penalty`` (the Church frowning on an army: lose 1 Clergy or pay 1 gold): the deadline's answer / pay gold while I have
  enough (2 when my Clergy lead over the others is thin, else 4), else Clergy / ask me. ``withdraw`` (where my
  beaten units withdraw): the deadline's answer / toward the land worth most to me / ask me.
- ``hand_limit`` (cards over the hand limit, each sold for 1 gold or played for its support icon): what a
  missed deadline gives (the first card of the hand sold) / sell Battle cards first, then play a card for
  support on my lower track (below 10), else sell / ask me.
- the other recurring decisions (``release``, ``division``, ``urbanization``, ``history_build``,
  ``history_choice``, ``teutonic_call``, ``princess_discard``, ``dice``: reroll and flip): the answer a missed
  deadline gives (the table's ``Kind.deadline``: pass, keep, the first listed) / ask me.

Marks name cards by id (``b02a``), by title (every copy) or by deck (``battle``, ``court``, ``neighbour``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import cache

from rules.engine import OptionError
from rules.engine.standing import ASK, Order, Recommended, Topic

from ..data import DECK_KINDS, PRINCIPALITIES
from ..schema import PView
from .ai_eval import TRACK_MAX, track_of
from .ai_strong import (
    before_card_for_my_side,
    extra_when_decisive,
    flip_when_losing,
    penalty_payment,
    reroll_when_losing,
    withdraw_toward_value,
)
from .common import NAMES, card_deck
from .history_ai import strongest_rival
from .movement import asker, passage_record
from .naming import card_titles

#: the words a player may use for a principality: its code or its name
_PRINCIPALITY_WORDS = {
    **{code.lower(): code for code in PRINCIPALITIES},
    **{text.lower(): code for code, text in NAMES.items()},
}


def read_principality(text: str) -> str:
    code = _PRINCIPALITY_WORDS.get(" ".join(text.lower().split()))
    if code is None:
        raise OptionError(f"'{text.strip()[:40]}' is not a principality (pma, mas, pmi, sil or their names).")
    return code


@cache
def _titles() -> dict[str, str]:
    """A title, or its short form before the brackets ("truce of god"), -> the full title in lower case."""
    found = {}
    for title in card_titles().values():
        full = title.lower()
        found[full] = found[full.split(" (")[0]] = full
    return found


def read_card_mark(text: str) -> str:
    """A card id, a card title (every copy of it) or a deck, in lower case."""
    word = " ".join(text.lower().split())
    if word in DECK_KINDS or word in card_titles():
        return word
    if word in _titles():
        return _titles()[word]
    raise OptionError(
        f"'{text.strip()[:40]}' names no card: give a card id (b02a), a card title or a deck (battle, court)."
    )


def marked(card: str, marks: Sequence[str]) -> bool:
    """Whether a card of the hand (its instance id) is marked by id, by title or by deck."""
    names = (card.lower(), card_titles().get(card.lower(), "").lower(), card_deck(card))
    return any(mark in names for mark in marks)


def _cards_in(answer: str, hand: Sequence[str]) -> list[str]:
    """The cards of the hand an answer names (answers name them in lower case)."""
    held = {card.lower(): card for card in hand}
    return [held[word] for word in answer.split()[1:] if word in held]


# ---- answering -------------------------------------------------------------------------------------------------

#: (the seat's view, its principality, the answers its decision offers, the order) -> the action, or None: ask
Answerer = Callable[[PView, str, list[str], Order], "str | None"]


def _consent(view: PView, code: str, offered: list[str], order: Order) -> str | None:
    if order.choice in ("allow", "deny"):
        return order.choice
    record = passage_record(view["play"])
    if record is None:
        return None
    return "allow" if asker(view["play"], record) in order.names else "deny"


def _unless_marked(closing: str) -> Answerer:
    """``closing`` (pass, done) unless an answer offered would play a marked card of the seat's hand."""

    def answer(view: PView, code: str, offered: list[str], order: Order) -> str | None:
        hand = view.get("you", {}).get("hand", [])
        playable = (card for action in offered if action != closing for card in _cards_in(action, hand))
        return None if any(marked(card, order.names) for card in playable) else closing

    return answer


#: the ``windows`` and ``dice`` choice that plays as the rules of a close battle say, on the rolled dice
DECISIVE = "decisive"
#: what ``decisive`` answers, by the verb of the answers offered (the strong AI's battle rules)
_DECISIVE_RULES = {
    "extra": extra_when_decisive,
    "before": before_card_for_my_side,
    "reroll": reroll_when_losing,
    "flip": flip_when_losing,
}
_UNSEEDED = random.Random(0)  # the rules named draw nothing: they only read the view


def _windows(view: PView, code: str, offered: list[str], order: Order) -> str | None:
    """``pass`` unless a marked card could be played; ``decisive``: a 'before battle' card whose text helps my
    side, an extra sword or shield only when it turns the battle my way on the rolled dice, else pass (the
    other windows: pass)."""
    if order.choice != DECISIVE:
        return _unless_marked("pass")(view, code, offered, order)
    return _decisive(view, code, offered) or ("pass" if "pass" in offered else None)


def _dice(view: PView, code: str, offered: list[str], order: Order) -> str | None:
    """``decisive``: reroll or flip the die only when the battle is lost on the rolled dice, else keep."""
    return _decisive(view, code, offered) if order.choice == DECISIVE else None


def _decisive(view: PView, code: str, offered: list[str]) -> str | None:
    verbs = {action.split()[0] for action in offered}
    rule = next((_DECISIVE_RULES[verb] for verb in verbs if verb in _DECISIVE_RULES), None)
    if rule is None or view["play"].get("battle") is None:
        return None
    answer = rule(view, code, offered, _UNSEEDED)
    return answer if answer in offered else None


#: the ``clergy_penalty`` choice that pays gold while it is plentiful, and the ``withdraw`` choice toward the
#: land worth most (the strong AI's rules)
GOLD_FIRST, TOWARD_VALUE = "gold_first", "toward_value"


def _by_rule(choice: str, rule: Callable[..., str]) -> Answerer:
    """An answerer giving ``rule``'s answer (a rule of the strong AI's, from the view and the answers offered)
    when the order's choice is ``choice``."""

    def answer(view: PView, code: str, offered: list[str], order: Order) -> str | None:
        if order.choice != choice or not offered:
            return None
        given = rule(view, code, offered, _UNSEEDED)
        return given if given in offered else None

    return answer


def _council(view: PView, code: str, offered: list[str], order: Order) -> str | None:
    """``keep``: done unless a marked card could be pledged or played; ``pledge``: each card for its first
    support track, one decision after the other, then done."""
    if order.choice == "pledge":
        return next((action for action in offered if action.startswith("pledge ")), "done")
    return _unless_marked("done")(view, code, offered, order)


def _the_answer(view: PView, code: str, offered: list[str], order: Order) -> str | None:
    """The choice is the action itself (``collect``, ``draw court``)."""
    return {
        "collect": "collect",
        "court": "draw court",
        "neighbour": "draw neighbour",
        "cw": "direction cw",
        "ccw": "direction ccw",
    }.get(order.choice)


#: the ``invader_move`` and ``neighbour_move`` choice that sends the army at the strongest rival
AT_THE_LEADER = "leader"
#: the ``hand_limit`` choice that sells Battle cards first
BATTLE_FIRST = "battle_first"


def _at_the_leader(view: PView, code: str, offered: list[str], order: Order) -> str | None:
    """A unit standing off the strongest rival's lands moves onto one of them (the first such move listed);
    with none left, the move ends. Each unit moves at most once onto such a land and never off it, so the
    order ends every army it moves; where the army may not end as it stands (``done`` not offered), asked."""
    if order.choice != AT_THE_LEADER:
        return None
    rival, control = strongest_rival(view, code), view["control"]
    for action in offered if rival is not None else ():
        words = action.split()  # move <unit> <from> <to>
        if words[0] != "move" or len(words) != 4:
            continue
        if control.get(words[2]) != rival and control.get(words[3]) == rival:
            return action
    return "done" if "done" in offered else None


def _battle_cards_first(view: PView, code: str, offered: list[str], order: Order) -> str | None:
    """A Battle card sold; without one, a card played for the lower of my support tracks still below 10
    (ties: the first listed); else the first card sold."""
    if order.choice != BATTLE_FIRST:
        return None
    hand = view.get("you", {}).get("hand", [])
    sales = [action for action in offered if action.startswith("sell ")]
    battle = [sale for sale in sales if any(card_deck(card) == "battle" for card in _cards_in(sale, hand))]
    if battle:
        return battle[0]
    player = view["players"][code]
    supports = [
        action
        for action in offered
        if action.startswith("support ") and track_of(player, action.split()[2]) < TRACK_MAX
    ]
    if supports:
        return min(supports, key=lambda action: track_of(player, action.split()[2]))
    return sales[0] if sales else None


#: the default of a missed deadline (``decisions`` fills it in, from the table, for the kind asked)
DEFAULT = "default"

_DEFAULT_CHOICE = ((ASK, "ask me"), (DEFAULT, "what a missed deadline gives (see /rules)"))
#: an army a player moves (the Invaders, a Neighbour's): the default, or at the strongest rival
_ARMY_CHOICES = (
    *_DEFAULT_CHOICE,
    (AT_THE_LEADER, "at the rival with the most Might: onto their lands, then end"),
)

TOPICS = (
    Topic(
        "consent",
        "Consent to passage",
        (
            (ASK, "ask me"),
            ("allow", "always allow"),
            ("deny", "always deny"),
            ("named", "allow the principalities named, deny the others"),
        ),
        {"named": "principalities"},
        read_principality,
    ),
    Topic(
        "windows",
        "Card windows",
        (
            (ASK, "ask me"),
            ("pass", "pass unless I could play a card I marked"),
            (
                DECISIVE,
                "in a battle: a 'before battle' card that helps my side, an extra sword or shield only when it "
                "wins me the battle on the rolled dice; other windows: pass",
            ),
        ),
        {"pass": "cards"},
        read_card_mark,
    ),
    Topic(
        "council",
        "Council cards",
        (
            (ASK, "ask me"),
            ("keep", "keep my cards unless I could pledge or play one I marked"),
            ("pledge", "pledge every card I can for my own support, then done"),
        ),
        {"keep": "cards"},
        read_card_mark,
    ),
    Topic(
        "direction",
        "Turn order direction (as the Princeps)",
        ((ASK, "ask me"), ("cw", "always clockwise"), ("ccw", "always counter-clockwise")),
    ),
    Topic("taxes", "Taxes", ((ASK, "ask me"), ("collect", "collect at once"))),
    Topic("princess", "Princess mission", ((ASK, "ask me"), (DEFAULT, "to my own Capital when allowed"))),
    Topic(
        "princess_draw",
        "Princess's card",
        ((ASK, "ask me"), ("court", "a Court card"), ("neighbour", "a Neighbour card")),
    ),
    Topic("princess_discard", "Discard for a foreign Princess", _DEFAULT_CHOICE),
    Topic("release", "Release to Home", _DEFAULT_CHOICE),
    Topic("division", "Division token", _DEFAULT_CHOICE),
    Topic("urbanization", "Urbanization", _DEFAULT_CHOICE),
    Topic("history_build", "History card builds", _DEFAULT_CHOICE),
    Topic("history_choice", "History card choices", _DEFAULT_CHOICE),
    Topic("teutonic_call", "Calling the Teutonic Knights", _DEFAULT_CHOICE),
    Topic(
        "dice",
        "Rerolling or flipping a die",
        (*_DEFAULT_CHOICE, (DECISIVE, "reroll or flip only when the battle is lost on the rolled dice")),
    ),
    Topic(
        "clergy_penalty",
        "The Clergy penalty",
        (
            *_DEFAULT_CHOICE,
            (GOLD_FIRST, "pay gold while I have enough (2 when my Clergy lead is thin, else 4), else Clergy"),
        ),
    ),
    Topic(
        "withdraw",
        "Where my beaten units withdraw",
        (*_DEFAULT_CHOICE, (TOWARD_VALUE, "toward the land worth most to me (my Capital first)")),
    ),
    Topic("invader_move", "Invader moves", _ARMY_CHOICES),
    Topic("neighbour_move", "Neighbour moves", _ARMY_CHOICES),
    Topic(
        "hand_limit",
        "Hand limit",
        (
            *_DEFAULT_CHOICE,
            (BATTLE_FIRST, "sell Battle cards first, then play cards for support on my lower track"),
        ),
    ),
)

#: topic -> how its order answers (topics whose orders say ``default`` are answered by ``decisions``)
ANSWERERS: dict[str, Answerer] = {
    "consent": _consent,
    "windows": _windows,
    "dice": _dice,
    "clergy_penalty": _by_rule(GOLD_FIRST, penalty_payment),
    "withdraw": _by_rule(TOWARD_VALUE, withdraw_toward_value),
    "council": _council,
    "direction": _the_answer,
    "taxes": _the_answer,
    "princess_draw": _the_answer,
    "invader_move": _at_the_leader,
    "neighbour_move": _at_the_leader,
    "hand_limit": _battle_cards_first,
}


def _default(gives_up: str) -> Recommended:
    return Recommended(Order(DEFAULT), gives_up)


#: the orders recommended to every player (``Game.recommended_orders``, shown by ``/orders``), each with what it
#: gives up: each alone, and the whole set, measured strong against strong on paired seeds, the order's seat
#: alternating (``python -m bench orders``: 2 players, the order's seat's wins with it against the same seat's
#: without, a one-sided exact paired test), with no significant loss (p < 0.05). Left out, as measured
#: (2026-11-29; "lost / gained": seeds won only without the order / only with it):
#:
#: - Council ``keep``: 31.5% against 49.5% (55 lost / 19 gained, p < 0.001) on seeds 1-200, 31.5% against 54.0%
#:   on seeds 201-400; ``pledge`` alone lost less (47.0% against 49.5%, p = 0.30; 51.0% against 54.0%,
#:   p = 0.27), but with it, Release and Division in the set the whole set lost (41.0% against 49.5%, 50 / 33,
#:   p = 0.04; without Division, 45.0% against 54.0%, 49 / 31, p = 0.03 on seeds 201-400): Council stays
#:   "ask me", with Release and Division, the three orders that lost more seeds than they won in both runs
#:   (over the 400 seeds: pledge 66 / 55, p = 0.18; Release 38 / 29, p = 0.16; Division 81 / 56, p = 0.02).
#:   The set below: 54.0% against 49.5% on seeds 1-200 (32 / 41, p = 0.88), and on fresh seeds 401-600
#:   55.5% against 45.0% (22 / 43, p = 0.997), every order alone without a significant loss in both runs.
#: - Issue 47's Invader, Neighbour and hand limit orders, seeds 1-200 / 201-400 / 401-600 ("answered": seeds on
#:   which the order answered anything for its seat): Invaders ``leader`` 10 / 11, 13 / 10, 11 / 13 (answered on
#:   169-172 of 200, p >= 0.34), recommended; hand limit ``battle_first`` 22 / 17, 19 / 22, 22 / 15 (answered on
#:   137-139, p = 0.26, 0.73, 0.16; over the 600 seeds 63 / 54, p = 0.23), recommended; with both, the whole set
#:   51.5% against 49.5% (35 / 39, p = 0.72) on seeds 1-200 and 48.0% against 45.0% (39 / 45, p = 0.78) on
#:   401-600. Left out: Invaders ``default`` (38 / 34 over 600 seeds, lost more in two runs of three) and hand
#:   limit ``default`` (75 / 68), each no better than the choice recommended; Neighbour moves measured nothing
#:   (the strong AI never plays a Neighbour card: answered on 0 seeds; basic against basic, 200 seeds, answered
#:   on 32: ``default`` 8 / 3, p = 0.11, ``leader`` 6 / 6), so neither is recommended.
#: - Issue 47's battle rules as orders (seeds 1-200, 2026-11-29): card windows ``decisive`` 27 / 31 (p = 0.74,
#:   answered on 199 seeds; it replaces "pass unless a Battle card could be played", 5 / 10), dice ``decisive``
#:   0 / 0 (answered on 5), the Clergy penalty ``gold_first`` and withdrawals ``toward_value`` 0 / 0 (answered on
#:   190 and 84: the strong AI's own rules, so the paired games are the same); the whole set with them 56.5%
#:   against 49.5% (36 / 50, p = 0.95). Left out: the Clergy penalty's and withdrawals' ``default`` (20 / 19, 1 / 1).
RECOMMENDED: dict[str, Recommended] = {
    "consent": Recommended(
        Order("deny"), "you never let a rival's units through, even when that would serve you"
    ),
    "windows": Recommended(
        Order(DECISIVE),
        "your window cards follow the rule: no extra card while the dice favour you, no after-battle card",
    ),
    "taxes": Recommended(
        Order("collect"), "you always collect, paying People: never skip, play a card first or pay Clergy"
    ),
    "direction": Recommended(Order("cw"), "as the Princeps you never choose counter-clockwise"),
    "princess": _default(
        "your Princess goes home when she may, else to the first place listed: never your choice"
    ),
    "princess_draw": Recommended(Order("court"), "your Princess never brings a Neighbour card"),
    "princess_discard": _default(
        "a foreign Princess makes you discard your first listed card, not your choice"
    ),
    "history_choice": _default("a History card's choice takes its first alternative"),
    "teutonic_call": _default("you never call the Teutonic Knights"),
    "dice": Recommended(Order(DECISIVE), "you reroll or flip only a lost battle, never to win by more"),
    "clergy_penalty": Recommended(
        Order(GOLD_FIRST),
        "the Clergy penalty is paid by the rule, gold while you have enough: never your pick",
    ),
    "withdraw": Recommended(
        Order(TOWARD_VALUE), "beaten units withdraw toward the land worth most to you, never elsewhere"
    ),
    "invader_move": Recommended(
        Order(AT_THE_LEADER),
        "the Invaders you move always go at the rival with the most Might, never elsewhere",
    ),
    "hand_limit": Recommended(
        Order(BATTLE_FIRST),
        "over the hand limit you never pick the card: Battle cards go first, then your lower track",
    ),
}
