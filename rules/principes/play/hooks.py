"""Engine hooks where the texts of cards, tiles and History arrive.

Progress tiles and Court/Battle cards (PRINCIPES III) run through the effect interpreter (``effects_engine``);
the History cards, Invaders and Princesses (PRINCIPES IV) plug in here later: ``on_history_revealed`` is still
called at the moment the rulebook names and changes nothing yet.
"""

from __future__ import annotations

from rules.engine import State


def on_history_revealed(state: State, card: str) -> None:
    """A History card's text effect (PRINCIPES IV); its icons resolve at the end of the Round (IV too)."""


def hand_limit_bonus(state: State, principality: str) -> int:
    """Extra hand size from a held tile saying ``card_rule(hand_limit(n))`` (the Ducal Chancery: 9 cards)."""
    from .common import HAND_LIMIT
    from .effects_engine import rule_terms

    limits = [term.args[0].args[0].number or HAND_LIMIT for term in rule_terms(state, principality, "card_rule")
              if term.args[0].call and term.args[0].name == "hand_limit"]
    return max(limits, default=HAND_LIMIT) - HAND_LIMIT
