"""The POLITICS ACTION (rulebook p. 23): draw 3 Court and Neighbour cards in a split declared before drawing and
return 1 of them to the bottom of its deck, or summon a Council (``council``). Before that, the player may play
Court cards whose text belongs to the action (``cards``) and Neighbour cards (``neighbours``).
"""

from __future__ import annotations

from ..schema import Action
from .cards import plays
from .common import Ctx, card_id_from, draw, name, to_deck_bottom
from .council import summon_council
from .neighbours import card_options

PROMPT = "Politics: draw 3 Court/Neighbour cards in a split you declare now, summon a Council, or done."
RETURN_PROMPT = "Return 1 of the 3 drawn cards to the bottom of its deck."
DRAW_SPLITS = {
    "draw 3 court": (3, 0),
    "draw 2 court 1 neighbour": (2, 1),
    "draw 1 court 2 neighbour": (1, 2),
    "draw 3 neighbour": (0, 3),
}


def options(ctx: Ctx, code: str, action: Action) -> list[str]:
    texts = plays(ctx, code, "own_action:politics") + card_options(ctx, code, action)
    return [*DRAW_SPLITS, "council", *texts, "done"]


def answer(ctx: Ctx, code: str, action: Action, words: list[str]) -> bool:
    """``council``, or a draw split; True when the action is over (fewer than 3 cards were left to draw)."""
    if words == ["council"]:
        summon_council(ctx, code, action)
        return False
    court, neighbour = DRAW_SPLITS[" ".join(words)]
    drawn = [
        card
        for deck, count in (("court", court), ("neighbour", neighbour))
        for _ in range(count)
        if (card := draw(ctx.state, code, deck)) is not None
    ]
    action["count"] += 1
    ctx.log(
        "politics_draw",
        f"{name(code)} draws {court} Court and {neighbour} Neighbour card(s)"
        + ("" if len(drawn) == 3 else f" (only {len(drawn)} were left)")
        + ".",
    )
    if len(drawn) == 3:
        ctx.play["private"][code]["drawn"] = drawn
        action["stage"] = "return"
        return False
    return True


def return_options(ctx: Ctx, code: str, action: Action) -> list[str]:
    hand = ctx.state["players"][code]["hand"]
    return [f"return {card.lower()}" for card in ctx.play["private"][code].get("drawn", []) if card in hand]


def return_answer(ctx: Ctx, code: str, action: Action, words: list[str]) -> bool:
    """``return <card>``: the action is over (True)."""
    card = card_id_from(ctx.state, code, words[1])
    assert card is not None
    ctx.state["players"][code]["hand"].remove(card)
    to_deck_bottom(ctx.state, card)
    ctx.play["private"][code].pop("drawn", None)
    ctx.log("politics_return", f"{name(code)} returns a card to the bottom of its deck.")
    return True
