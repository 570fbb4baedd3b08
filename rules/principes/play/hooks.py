"""Engine hooks where the texts of cards, tiles and History arrive later.

PRINCIPES II plays the rules of the rulebook; the one-sentence texts of Progress tiles and Court/Battle cards
(PRINCIPES III) and the History cards, Invaders and Princesses (PRINCIPES IV) plug in here. Each hook is called
at the moment the rulebook names and, for now, changes nothing: it returns without touching the state, so the
game plays correctly with the printed texts simply not applied yet.
"""

from __future__ import annotations

from typing import Any

from rules.engine import State


def on_tile_taken(state: State, principality: str, tile: str) -> None:
    """A Progress tile's effect starts when it is taken (PRINCIPES III)."""


def on_history_revealed(state: State, card: str) -> None:
    """A History card's text effect (PRINCIPES IV); its icons resolve at the end of the Round (IV too)."""


def on_battle_card(state: State, battle: dict[str, Any], side: str, card: str) -> None:
    """A "before battle" or "after battle" card's text effect (PRINCIPES III)."""


def hand_limit_bonus(state: State, principality: str) -> int:
    """Extra hand size from a Progress tile (PRINCIPES III): none yet."""
    return 0
