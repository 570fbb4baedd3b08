"""Free actions, allowed at any time and never blocking: gold gifts, cards sold for gold or played for support,
standing answers to consent requests, Court texts playable at any time (rulebook GOLD, NEGOTIATIONS, DRAWING
CARDS). The HAND CARD LIMIT (6 cards; a held tile may raise it) is enforced with the same two conversions.
"""

from __future__ import annotations

import re

from rules.engine import IllegalAction
from rules.engine.rng import NoChance

from ..schema import PState
from .cards import play, plays
from .common import (
    Ctx,
    active,
    active_players,
    card_id_from,
    card_record,
    card_title,
    change_track,
    gain_gold,
    name,
    support_tracks,
    to_deck_bottom,
)
from .effects_engine import rule_terms
from .naming import not_in_hand

FREE_VERBS = ("give", "sell", "support", "standing")
_NO_CHANCE = NoChance()
STANDING = ("allow", "deny", "ask")
HAND_LIMIT = 6


def hand_limit(state: PState, principality: str) -> int:
    """6 cards, or more with a held tile saying ``card_rule(hand_limit(n))`` (the Ducal Chancery: 9)."""
    return HAND_LIMIT + hand_limit_bonus(state, principality)


def hand_limit_bonus(state: PState, principality: str) -> int:
    """Extra hand size from a held tile saying ``card_rule(hand_limit(n))`` (the Ducal Chancery: 9 cards).

    Never negative: a rule can raise the limit of 6, none lowers it (``over_limit`` relies on it)."""
    limits = [
        term.args[0].args[0].number or HAND_LIMIT
        for term in rule_terms(state, principality, "card_rule")
        if term.args[0].call and term.args[0].name == "hand_limit"
    ]
    return max(0, max(limits, default=HAND_LIMIT) - HAND_LIMIT)


def over_limit(state: PState, code: str) -> int:
    """How many cards the player must convert now (0 when within the hand limit; resolution 20)."""
    if not active(state, code):
        return 0
    returning = 1 if state["play"]["private"][code].get("drawn") else 0  # Politics: the return comes first
    held = len(state["players"][code]["hand"]) - returning
    # no rule lowers the limit, so within 6 cards the tiles' rules need no look (pending asks this often)
    if held <= HAND_LIMIT:
        return 0
    return max(0, held - hand_limit(state, code))


def card_support(state: PState, code: str, card: str) -> tuple[str, ...]:
    """The tracks a card may raise: its support icon; a Battle card either track with Heralds of Peace."""
    tracks = support_tracks(card)
    if (
        not tracks
        and card_record(card)["deck"] == "battle"
        and any(term.args[0].name == "battle_as_support" for term in rule_terms(state, code, "card_rule"))
    ):
        return ("people", "clergy")
    return tracks


def conversions(state: PState, code: str) -> list[str]:
    """Every card for 1 gold; Court and Neighbour cards for their support icon (not during a Council)."""
    result = []
    for card in state["players"][code]["hand"]:
        result.append(f"sell {card.lower()}")
        if state["play"].get("council") is None:
            result += [f"support {card.lower()} {track}" for track in card_support(state, code, card)]
    return result


def conversion_options(ctx: Ctx, code: str) -> list[str]:
    """The answers to the hand limit: the conversions."""
    return conversions(ctx.state, code)


def free_listing(state: PState, code: str, deciding: bool) -> list[str]:
    """The free actions listed to a player: conversions, standing resets and, while the player has no decision
    to take, a 1-gold gift to each other player (``give`` of any amount is accepted at any time; listing it
    beside every decision would only crowd the prompt)."""
    result = conversions(state, code) + any_time_plays(state, code)
    if state["players"][code]["gold"] > 0 and not deciding:
        result += [f"give {other.lower()} 1" for other in active_players(state) if other != code]
    result += [
        f"standing {other.lower()} ask"
        for other in sorted(state["play"]["standing"][code])
        if active(state, other)
    ]
    return result


def any_time_plays(state: PState, code: str) -> list[str]:
    """Court cards whose text may be played at any time (Chronicle of Master Vincent)."""
    if state["play"].get("reaction"):
        return []  # one Court text at a time: the one announced waits for its answers
    return plays(Ctx(state, _NO_CHANCE), code, "any_time")


def is_any_time_play(state: PState, code: str, words: list[str]) -> bool:
    return len(words) >= 2 and words[0] == "play" and " ".join(words) in any_time_plays(state, code)


def apply_free(ctx: Ctx, code: str, words: list[str]) -> None:
    if not active(ctx.state, code):
        raise IllegalAction("You are out of the game.")
    verb = words[0]
    if verb == "play":
        if not is_any_time_play(ctx.state, code, words):
            raise IllegalAction("That card's text cannot be played now.")
        play(ctx, code, words)
    elif verb == "give":
        _give(ctx, code, words)
    elif verb in ("sell", "support"):
        _convert(ctx, code, words)
    else:
        _standing(ctx, code, words)


def _target(ctx: Ctx, code: str, token: str) -> str:
    target = token.upper()
    if target == code or not active(ctx.state, target):
        raise IllegalAction("Name another player still in the game (pma, mas, pmi or sil).")
    return target


def _give(ctx: Ctx, code: str, words: list[str]) -> None:
    if len(words) != 3 or not re.fullmatch(r"[0-9]{1,6}", words[2]) or int(words[2]) < 1:
        raise IllegalAction("Give how much? For example: give pmi 2.")
    target, amount = _target(ctx, code, words[1]), int(words[2])
    player = ctx.state["players"][code]
    if amount > player["gold"]:
        raise IllegalAction(f"You have only {player['gold']} gold.")
    player["gold"] -= amount
    ctx.state["players"][target]["gold"] += amount
    ctx.log("gift", f"{name(code)} gives {amount} gold to {name(target)} (promises are not binding).")


def _convert(ctx: Ctx, code: str, words: list[str]) -> None:
    card = card_id_from(ctx.state, code, words[1]) if len(words) > 1 else None
    if card is None:
        raise IllegalAction(not_in_hand(words[1] if len(words) > 1 else ""))
    if words[0] == "sell":
        if len(words) != 2:
            raise IllegalAction("Sell one card: sell <card>.")
        ctx.state["players"][code]["hand"].remove(card)
        to_deck_bottom(ctx.state, card)
        gain_gold(ctx, code, 1)
        ctx.log("card_sold", f"{name(code)} discards a card for 1 gold.")
        return
    if ctx.state["play"].get("council") is not None:
        raise IllegalAction("During a Council cards give support only in the Council's card phase.")
    tracks = card_support(ctx.state, code, card)
    if len(words) != 3 or words[2] not in tracks:
        raise IllegalAction(f"{card_title(card)} gives support only to: {', '.join(tracks) or 'none'}.")
    ctx.state["players"][code]["hand"].remove(card)
    to_deck_bottom(ctx.state, card)
    ctx.log("card_support", f"{name(code)} plays {card_title(card)} for its {words[2].title()} support.")
    change_track(ctx, code, words[2], 1, "card")


def _standing(ctx: Ctx, code: str, words: list[str]) -> None:
    if len(words) != 3 or words[2] not in STANDING:
        raise IllegalAction("Standing answers: standing <player> allow|deny|ask.")
    target = _target(ctx, code, words[1])
    answers = ctx.state["play"]["standing"][code]
    if words[2] == "ask":
        answers.pop(target, None)
    else:
        answers[target] = words[2]
    ctx.log("standing_set", f"{name(code)} sets a standing answer for {name(target)}'s passage requests.")
