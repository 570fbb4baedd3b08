"""How the components are named to a player: a card or tile by its title with the id the notation uses beside
it (``Scouts (b07a)``), a land, gord or area by its name, a faction by its name.

Labels (``labels``), refusals (``refusals``), the private view's hand and the rules' own refusals all name things
the same way through these functions.
"""

from __future__ import annotations

from functools import cache

from ..data import catalog, instances

DECKS = {"court": "Court", "battle": "Battle", "neighbour": "Neighbour"}


@cache
def card_titles() -> dict[str, str]:
    """Lower-case instance id -> title, for every card and tile."""
    return {
        instance.lower(): str(record.get("title") or record.get("name") or instance)
        for record in catalog().kinds.values()
        for instance in instances(record)
    }


def titled(title: str, token: str) -> str:
    """``Scouts (b07a)``; a title that ends in brackets takes the id inside them: ``German Marches (full;
    n01)``."""
    if title.endswith(")"):
        return f"{title[:-1]}; {token})"
    return f"{title} ({token})"


def card_name(token: str) -> str | None:
    """``Scouts (b07a)`` for a card or tile id (any case), None for any other word."""
    title = card_titles().get(token.lower())
    return titled(title, token.lower()) if title else None


def card_label(token: str) -> str:
    """A card or tile as a label names it: its title and, beside it, the id the notation uses (the token
    itself when it names no card)."""
    title = card_titles().get(token)
    return titled(title, token) if title else token


def place_label(token: str) -> str:
    """The name of a land, an off-map area or a gord (the token itself when it names none)."""
    data = catalog()
    if token in data.lands:
        return str(data.lands[token]["name"])
    if token in data.offmap:
        return str(data.offmap[token]["name"])
    for land in data.lands.values():
        for gord in land["gords"]:
            if gord["id"] == token:
                return str(gord["name"])
    return token


def faction_label(token: str) -> str:
    """A faction's name for a notation token (``ger`` -> German Marches)."""
    record = catalog().factions.get(token.upper())
    return str(record["name"]) if record else token


def hand_label(card: str) -> str:
    """A card of the hand as the private view lists it: deck, title with id, support or corner icon
    (``Battle: Hired Knights (b04a) [sword]``)."""
    record = catalog().kind_of(card)
    icon = record.get("support") or record.get("corner") or ""
    label = (
        f"{DECKS.get(str(record.get('deck')), '')}: {titled(str(record.get('title') or card), card.lower())}"
    )
    return f"{label} [{icon}]" if icon else label


def not_in_hand(token: str) -> str:
    """The refusal for a card token the hand does not hold, naming the card when the token is one."""
    named = card_name(token)
    if named:
        return f"{named} is not in your hand."
    return f"'{token}' is not a card in your hand." if token else "Name a card."
