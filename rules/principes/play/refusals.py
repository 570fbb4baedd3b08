"""Why an answer is refused: the sentence ``apply`` gives when an action is not among the decision's answers.

The refusal names what is wrong, in the order a player would check it: an answer to another kind of decision;
text that does not read as an action (a word that names no card, tile, land, unit or player, a word missing or
too many: ``notation.problem``, the sentence ``parse`` gives too); a card not in the hand; then, against the
closest legal answers (same verb, the longest matching start), what differs: a card's corner or timing, a cost the player
cannot pay, lands that do not border each other, a unit that cannot move, a land not controlled. When nothing
more precise applies, it lists the closest legal answers.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from functools import cache
from typing import Any

from ..data import catalog, instances
from ..schema import PState
from ..state import controllers
from .common import a, card_record, card_title, name
from .naming import titled
from .notation import Verb, problem

#: why an answer of one verb is refused, from the state, the player, the words and the first word that fails
Explain = Callable[[PState, str, list[str], int], "str | None"]

TIMINGS = {
    "before_battle": "before a battle",
    "after_battle": "after a battle",
    "extra_phase": "in a battle's extra phase",
    "council": "in a Council's card phase",
    "any_time": "at any time",
}


@cache
def _instances() -> dict[str, str]:
    """Lower-case id -> catalog id, for every card and tile instance."""
    return {
        instance.lower(): instance for record in catalog().kinds.values() for instance in instances(record)
    }


@cache
def _gords() -> dict[str, str]:
    return {gord["id"]: str(gord["name"]) for record in catalog().lands.values() for gord in record["gords"]}


def _place_name(token: str) -> str:
    data = catalog()
    if token in data.lands:
        return str(data.lands[token]["name"])
    return str(data.offmap[token]["name"]) if token in data.offmap else token


def _titled(token: str) -> str:
    """A card or tile named for a player: its title and its id."""
    return titled(card_title(_instances()[token]), token)


def why_not(
    state: PState, code: str, deciding: str, action: str, answers: list[str], form: Verb | None
) -> str:
    """The sentence for an answer that is not among ``answers`` of the decision the player is ``deciding``
    ("your Movement"); ``form`` is the notation of the action's verb (None: no such verb)."""
    words = action.split()
    verb = words[0] if words else ""
    same_verb = [answer for answer in answers if answer.split()[0] == verb]
    if not answers:
        return f"Nothing can be done now: you are deciding {deciding}."
    if not same_verb:
        verbs = [f"'{v}'" for v in dict.fromkeys(answer.split()[0] for answer in answers)]
        starts = verbs[0] if len(verbs) == 1 else f"{', '.join(verbs[:-1])} or {verbs[-1]}"
        examples = ", ".join(f"'{a}'" for a in answers[:3])
        return (
            f"'{verb}' does not answer this decision: you are deciding {deciding}. The answers here start with "
            f"{starts} (for example {examples}); /move lists them all."
        )
    unreadable = problem(words, form, same_verb) if form is not None else None
    if unreadable:
        return unreadable
    roles = form.reading_roles() if form is not None else ()
    for index, token in enumerate(words[1:]):
        role = roles[min(index, len(roles) - 1)] if roles else ""
        if role.startswith("card") and verb not in ("take", "exchange"):
            hand = {card.lower() for card in state["players"][code]["hand"]}
            if token in _instances() and token not in hand:
                return f"{_titled(token)} is not in your hand."
    reason = _difference(state, code, words, same_verb)
    if reason:
        return reason
    close = difflib.get_close_matches(action, same_verb, n=3, cutoff=0.0)
    return (
        f"'{action}' is not possible now. Closest: {', '.join(repr(a) for a in close)}; /move lists them all."
    )


def _difference(state: PState, code: str, words: list[str], same_verb: list[str]) -> str | None:
    """Explain the first word where the answer leaves every legal answer of its verb."""
    split = [answer.split() for answer in same_verb]
    position = 1
    while position < len(words) and any(a[: position + 1] == words[: position + 1] for a in split):
        position += 1
    if position >= len(words):
        longer = [a for a, parts in zip(same_verb, split, strict=True) if parts[: len(words)] == words]
        return f"'{' '.join(words)}' is incomplete: for example '{longer[0]}'." if longer else None
    explain = EXPLAIN.get(words[0])
    return explain(state, code, words, position) if explain else None


# ---- per verb ------------------------------------------------------------------------------------------------


def _card_use(state: PState, code: str, words: list[str], position: int) -> str | None:
    token = words[1]
    if token not in _instances():
        return None
    use = CARD_USES.get(words[0])
    return use(state, code, words, position) if use is not None else None


def _card_of(words: list[str]) -> tuple[dict[str, Any], str]:
    """The catalog record and the title of the card the words name (``_card_use`` checked it exists)."""
    return card_record(_instances()[words[1]]), _titled(words[1])


def _extra_card(state: PState, code: str, words: list[str], position: int) -> str | None:
    record, title = _card_of(words)
    if record["deck"] != "battle":
        return f"Only Battle cards give an extra sword or shield; {title} is a {record['deck'].title()} card."
    corner = record.get("corner")
    if position == 2 and corner in ("sword", "shield") and words[2] != corner:
        return f"{title}'s corner is a {corner}, not a {words[2]}."
    return None


def _battle_card(state: PState, code: str, words: list[str], position: int) -> str | None:
    """``before`` and ``after``: a Battle card of that window."""
    record, title = _card_of(words)
    verb = words[0]
    wanted = f"{verb}_battle"
    if record.get("timing") != wanted:
        when = TIMINGS.get(str(record.get("timing")), str(record.get("timing", "")).replace("_", " "))
        return f"{title} is not a '{verb} battle' card: it is played {when}."
    if verb == "before":
        return f"{title}'s cost cannot be paid now, or the window is closed for your side."
    return None


def _support_card(state: PState, code: str, words: list[str], position: int) -> str | None:
    """``support`` and ``pledge``: a Court or Neighbour card, on a track it supports."""
    record, title = _card_of(words)
    tracks = [t for t in ("people", "clergy") if record.get("support") in (t, "either")]
    if record["deck"] not in ("court", "neighbour"):
        return f"{title} is a {record['deck'].title()} card: it gives no support (sell it for 1 gold)."
    if position == 2 and tracks and words[2] not in tracks:
        return f"{title} gives support to {' or '.join(tracks)} only."
    return None


def _text_card(state: PState, code: str, words: list[str], position: int) -> str | None:
    """``play``: a Court card's text, in its timing."""
    record, title = _card_of(words)
    if record["deck"] != "court":
        return f"Only Court cards are played for their text; {title} is a {record['deck'].title()} card."
    timing = str(record.get("timing", ""))
    if timing.startswith("own_action:"):
        return f"{title} is played during your own {timing.split(':')[1].title()} action."
    if position == 2:
        return f"{title} cannot act on '{words[2]}' now."
    return f"{title} is played {TIMINGS.get(timing, timing.replace('_', ' '))}."


def _neighbour_use(state: PState, code: str, words: list[str], position: int) -> str | None:
    record, title = _card_of(words)
    return _neighbour_card(state, code, words, record, title)


def _block_card(state: PState, code: str, words: list[str], position: int) -> str | None:
    return f"{_titled(words[1])} does not name the Neighbour being moved."


#: why a card cannot be used so, by the verb that uses it
CARD_USES: dict[str, Explain] = {
    "extra": _extra_card,
    "before": _battle_card,
    "after": _battle_card,
    "support": _support_card,
    "pledge": _support_card,
    "play": _text_card,
    "neighbour": _neighbour_use,
    "block": _block_card,
}


def _neighbour_card(
    state: PState, code: str, words: list[str], record: dict[str, Any], title: str
) -> str | None:
    """``record``: the Neighbour card's catalog entry."""
    if record["deck"] != "neighbour":
        return f"{title} is not a Neighbour card."
    gold = state["players"][code]["gold"]
    if gold < int(record.get("cost", 0)):
        return f"{title} costs {record['cost']} gold; you have {gold}."
    if len(words) > 2 and record["faction"] != "any" and words[2].upper() != record["faction"]:
        return f"{title} moves {name(record['faction'])}, not {name(words[2].upper())}."
    return None


def _move(state: PState, code: str, words: list[str], position: int) -> str | None:
    if len(words) != 4:
        return None
    unit, origin, target = words[1:]
    if position <= 2:
        return (
            f"No {unit.title()} that can still move stands on {_place_name(origin)} "
            "(it used all its points, or was stopped there)."
        )
    data = catalog()
    borders = data.offmap[origin]["touches"] if origin in data.offmap else data.adjacency.get(origin, ())
    if target not in borders:
        return (
            f"{_place_name(origin)} does not border {_place_name(target)}: units cross one border at a time."
        )
    if target in data.offmap:
        return "Units never move into the areas off the map."
    return None


def _assemble(state: PState, code: str, words: list[str], position: int) -> str | None:
    unit = words[1]
    if position == 1:
        pool = state["supply"]["units"].get(code, {})
        if not pool.get(unit):
            return f"You have no {unit.title()} left in your pool."
        if unit == "knight":
            return f"A Knight costs 1 gold; you have {state['players'][code]['gold']}."
        return f"You cannot assemble a {unit.title()} now."
    return (
        f"Units assemble on your Prince's land or your Capital (else your richest land): "
        f"not on {_place_name(words[2])}."
    )


def _build(state: PState, code: str, words: list[str], position: int) -> str | None:
    building = words[1]
    if position == 1:
        if state["supply"]["tokens"].get(building, 0) <= 0:
            return f"No {building.title()} token is left in the supply."
        return f"You cannot pay for {a(building.title())} now (gold: {state['players'][code]['gold']})."
    land = words[2]
    if controllers(state).get(land) != code:
        return f"You do not control {_place_name(land)}."
    built = state["lands"][land]["building"]
    if built:
        return f"{_place_name(land)} already has {a(built.title())}: one building per land."
    return None


def _found(state: PState, code: str, words: list[str], position: int) -> str | None:
    gord = words[1]
    land = next(
        key for key, record in catalog().lands.items() if any(g["id"] == gord for g in record["gords"])
    )
    if controllers(state).get(land) != code:
        return f"You do not control {_place_name(land)}, where {_gords()[gord]} stands."
    if state["lands"][land]["cities"].get(gord) or state["lands"][land]["cities"]:
        return f"{_place_name(land)} already has a City: one City per land."
    return f"You cannot pay for the City of {_gords()[gord]} now (gold: {state['players'][code]['gold']})."


def _land_choice(state: PState, code: str, words: list[str], position: int) -> str | None:
    place = _place_name(words[position])
    if words[0] in ("withdraw", "release") and position == 1:
        return f"You have no {words[1].title()} that can do that now."
    return {
        "withdraw": f"{place} is not an adjacent land the beaten units control.",
        "ask": f"No player's units on {place} can let you pass now (neutral units never do).",
        "battle": f"No battle is waiting on {place}.",
        "place": f"You do not control {place}.",
        "respawn": f"{place} is not a free land of that Prince's principality.",
        "division": f"{place} is not a unit-free land of another player who controls it.",
        "send": f"Your Princess cannot go to {place} now (her last mission, another Princess, or a Capital its "
        "owner does not control).",
        "release": f"You have no {words[1].title()} on {place}.",
    }.get(words[0])


def _tile(state: PState, code: str, words: list[str], position: int) -> str | None:
    token = words[position]
    if token not in _instances():
        return None
    face_up = {tile.lower() for pile in state["market"].values() for tile in pile["face_up"]}
    if words[0] == "exchange" and position == 1:
        return f"{_titled(token)} is not one of your tiles."
    if token not in face_up:
        return f"{_titled(token)} is not face up on the Market."
    return (
        f"You cannot take {_titled(token)} now (its colour's slots are full, or you own that tile already)."
    )


EXPLAIN = {
    "move": _move,
    "assemble": _assemble,
    "build": _build,
    "found": _found,
    "take": _tile,
    "exchange": _tile,
    **{
        verb: _card_use
        for verb in ("extra", "before", "after", "support", "pledge", "play", "neighbour", "block")
    },
    **{
        verb: _land_choice
        for verb in ("withdraw", "release", "ask", "battle", "place", "respawn", "division", "send")
    },
}
