"""Court cards played for their text, and the Progress tiles' effects when taken.

A Court card's text is played at the moment its white bar names (``timing`` in the data): ``own_action:<kind>``
during the player's own action of that kind (before its main step: before collecting Taxes, before drawing or
summoning a Council), ``council`` in a Council's card phase, ``any_time`` as a free action. The notation is
``play <card> [<land>|<player>|people|clergy]``; :func:`plays` lists the legal ones, :func:`play` applies one
through the effect interpreter (Dynastic Marriage: ``play <card> <area>``, the Princess's new area). A card whose
text is a reaction (the Papal Legate) is not offered for its text; it can still be sold or played
for support. The Truce of God's land is kept in ``play["round_effects"]`` until the end of the Round.
"""

from __future__ import annotations

from rules.engine import IllegalAction

from ..data import PRINCIPALITIES, catalog
from ..effects import Term
from ..schema import PState
from ..state import controllers
from .common import (
    Ctx,
    active_players,
    card_id_from,
    card_record,
    card_title,
    change_track,
    name,
    new_id,
    occupants,
    prompt,
    to_deck_bottom,
)
from .effects_engine import Effect, effect_of, rule_terms, run
from .naming import not_in_hand
from .princesses import legal_areas

#: primitives whose part of the game is not played yet: cards made of them are not offered for their text
NOT_PLAYABLE = {"cancel_card"}


def _needs(card: str) -> set[str]:
    """The choices a card's text asks for: ``land`` (own_land, own_small_gord, own_borders, rival_land),
    ``target`` (a player) or ``track`` (either)."""
    needs: set[str] = set()
    pending = list(effect_of(card))
    while pending:
        term = pending.pop()
        words = {arg.name for arg in term.args if not arg.call}
        if words & {"own_land", "own_small_gord", "own_borders", "rival_land", "chosen_land"}:
            needs.add("land")
        if term.name == "princess" and "send" in words:
            needs.add("land")  # Dynastic Marriage: the Princess's new area
        if "target" in words:
            needs.add("target")
        if term.name == "gain_track" and "either" in words:
            needs.add("track")
        pending.extend(arg for arg in term.args if arg.call)
    return needs


def _uses(card: str) -> set[str]:
    found: set[str] = set()
    pending = list(effect_of(card))
    while pending:
        term = pending.pop()
        found.add(term.name)
        pending.extend(arg for arg in term.args if arg.call)
    return found


def _land_choices(state: PState, code: str, card: str) -> list[str]:
    """Lands where the card's text can act."""
    control = controllers(state)
    lands = catalog().lands
    result = []
    for term in _walk(effect_of(card)):
        words = [arg.name for arg in term.args]
        if term.name == "build" and "own_land" in words:
            kind = words[1]
            result += [
                land
                for land, owner in control.items()
                if owner == code
                and state["lands"][land]["building"] is None
                and state["supply"]["tokens"][kind] > 0
            ]
        elif term.name == "build" and "own_small_gord" in words:
            result += [
                land
                for land, owner in control.items()
                if owner == code
                and not state["lands"][land]["cities"]
                and state["supply"]["tokens"]["civitas"] > 0
                and any(gord["might"] == 0 for gord in lands[land]["gords"])
            ]
        elif term.name == "princess" and words == ["send"]:
            result += legal_areas(state, code)
        elif term.name == "immunity" and "chosen_land" in words:
            result += [land for land, owner in control.items() if owner == code]
        elif term.name == "division" and words == ["remove", "own_borders"]:
            result += [
                land
                for land, ls in state["lands"].items()
                if ls["division"] and lands[land]["principality"] == code
            ]
        elif term.name == "division" and words == ["place", "rival_land"]:
            result += [
                land
                for land, owner in control.items()
                if owner in active_players(state)
                and owner != code
                and lands[land]["principality"] == owner
                and not occupants(state, land)
                and not state["lands"][land]["division"]
                and state["supply"]["tokens"]["division"] > 0
            ]  # resolution 24
    return sorted(set(result))


def _walk(terms: tuple[Term, ...]) -> list[Term]:
    found: list[Term] = []
    pending = list(terms)
    while pending:
        term = pending.pop(0)
        found.append(term)
        pending.extend(arg for arg in term.args if arg.call)
    return found


def plays(ctx: Ctx, code: str, timing: str) -> list[str]:
    """Every ``play <card> ...`` the player may make now for a Court card of this timing (none while another
    Court text waits for its Papal Legate answers: one text at a time)."""
    state = ctx.state
    result: list[str] = []
    if ctx.play.get("reaction"):
        return result  # one Court text at a time: the one announced waits for its answers
    for card in state["players"][code]["hand"]:
        record = card_record(card)
        if record["deck"] != "court" or record.get("timing") != timing or _uses(card) & NOT_PLAYABLE:
            continue
        needs = _needs(card)
        token = card.lower()
        if "land" in needs:
            result += [f"play {token} {land}" for land in _land_choices(state, code, card)]
        elif "target" in needs:
            result += [f"play {token} {other.lower()}" for other in active_players(state) if other != code]
        elif "track" in needs:
            result += [f"play {token} people", f"play {token} clergy"]
        else:
            result.append(f"play {token}")
    return result


def play(ctx: Ctx, code: str, words: list[str]) -> None:
    """Reveal a Court card and announce its title and text; outside a Council the other players may answer
    with a Papal Legate first (the reaction window), then the text applies and the card goes under the deck."""
    card = card_id_from(ctx.state, code, words[1]) if len(words) > 1 else None
    if card is None:
        raise IllegalAction(not_in_hand(words[1] if len(words) > 1 else ""))
    if ctx.play.get("reaction"):
        raise IllegalAction("Another Court card's text is being announced: wait for the answers.")
    ctx.state["players"][code]["hand"].remove(card)
    record = card_record(card)
    ctx.log("court_card", f"{name(code)} plays {card_title(card)}: {record['text']}")
    reactors = [
        other for other in active_players(ctx.state) if other != code and other not in ctx.play["prompts"]
    ]
    if ctx.play.get("council") is not None or not reactors:
        resolve(ctx, code, card, words)
        return
    decision = new_id(ctx, "legate")
    ctx.play["reaction"] = {"who": code, "card": card, "words": words, "waiting": reactors}
    for other in reactors:  # offered to everyone who could react, whatever their hand (no leaks)
        prompt(
            ctx,
            other,
            "court_reaction",
            f"{name(code)} plays {card_title(card)}: {record['text']} "
            "Cancel it with a Papal Legate, or pass.",
            timing="window",
            decision_id=decision,
        )


def reaction_options(ctx: Ctx, code: str) -> list[str]:
    """``cancel <card>`` with a card whose text cancels the last Court text (the Papal Legate), or pass."""
    cards = [
        card
        for card in ctx.state["players"][code]["hand"]
        if any(
            term.name == "cancel_card" and term.args[0].name == "last_court_text" for term in effect_of(card)
        )
    ]
    return [f"cancel {card.lower()}" for card in cards] + ["pass"]


def reaction_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    reaction = ctx.play.get("reaction")
    assert reaction is not None, "a court_reaction prompt answers a waiting Court text"
    reaction["waiting"].remove(code)
    if words[0] == "cancel" and not reaction.get("cancelled"):
        legate = card_id_from(ctx.state, code, words[1])
        assert legate is not None
        ctx.state["players"][code]["hand"].remove(legate)
        to_deck_bottom(ctx.state, legate)
        reaction["cancelled"] = code
        ctx.log(
            "card_cancelled",
            f"{name(code)} plays {card_title(legate)}: "
            f"{card_record(legate)['text']} {card_title(reaction['card'])} has no effect.",
        )
    if reaction["waiting"]:
        return
    for other in active_players(ctx.state):  # the first cancel decides: the others need not answer
        entry = ctx.play["prompts"].get(other)
        if entry is not None and entry["kind"] == "court_reaction":
            ctx.play["prompts"].pop(other)
    ctx.play["reaction"] = None
    if reaction.get("cancelled"):
        to_deck_bottom(ctx.state, reaction["card"])
    else:
        resolve(ctx, reaction["who"], reaction["card"], reaction["words"])


def resolve(ctx: Ctx, code: str, card: str, words: list[str]) -> None:
    """Apply a Court card's text with the player's chosen argument; the card goes under the Court deck."""
    to_deck_bottom(ctx.state, card)
    effect = Effect(ctx, code, card)
    argument = words[2] if len(words) > 2 else None
    if argument in ("people", "clergy"):
        effect.choice = argument
    elif argument is not None and argument.upper() in PRINCIPALITIES:
        effect.target = argument.upper()
    elif argument is not None:
        effect.land = argument
    run(effect)


# ---- Progress tiles ------------------------------------------------------------------------------------------


def tile_taken(ctx: Ctx, code: str, tile: str) -> None:
    """A tile's effect starts when taken (rulebook: 'take effect immediately upon acquisition'). Chronicle: a
    People or Clergy point for each pair of same-colour tiles not yet scored (all pairs when Chronicle itself
    arrives, then each new pair once)."""
    if not any(term.args[0].name == "pair_reward" for term in rule_terms(ctx.state, code, "progress_rule")):
        return
    scored = ctx.play.setdefault("pairs", {}).setdefault(code, [])
    player = ctx.state["players"][code]
    for colour, tiles in player["progress"].items():
        if len(tiles) >= 2 and colour not in scored:
            scored.append(colour)
            track = "clergy" if player["clergy"] < player["people"] else "people"
            change_track(ctx, code, track, 1, f"Chronicle: a pair of {colour} tiles")
