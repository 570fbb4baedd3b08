"""Engine hooks where the texts of cards and tiles arrive.

Progress tiles and Court/Battle cards (PRINCIPES III) run through the effect interpreter (``effects_engine``);
History cards and Invaders have their own modules (``history``, ``invaders``).
"""

from __future__ import annotations

from rules.engine import State


def hand_limit_bonus(state: State, principality: str) -> int:
    """Extra hand size from a held tile saying ``card_rule(hand_limit(n))`` (the Ducal Chancery: 9 cards).

    Never negative: a rule can raise the limit of 6, none lowers it (``currency.over_limit`` relies on it)."""
    from .common import HAND_LIMIT
    from .effects_engine import rule_terms

    limits = [
        term.args[0].args[0].number or HAND_LIMIT
        for term in rule_terms(state, principality, "card_rule")
        if term.args[0].call and term.args[0].name == "hand_limit"
    ]
    return max(0, max(limits, default=HAND_LIMIT) - HAND_LIMIT)
