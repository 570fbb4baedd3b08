"""The TAXES ACTION (rulebook p. 15): lose 1 People and collect gold equal to your Might (a Division token's land
pays nothing); Silesia's Colour of Gold adds 2 (SPECIAL PRINCIPALITY RULES). 0 People forbids Taxes.

What changes the cost lives in the action sub-state's ``tax_people`` (Privilege of Cienia and Immunity Charter:
none, Renovatio Monetae: 2; written by ``track_cost`` texts); Władysław Spindleshanks may pay with Clergy
(``collect clergy``, ``princes.clergy_taxes``).
"""

from __future__ import annotations

from ..schema import Action, PState
from ..state import might
from .cards import plays
from .common import Ctx, change_track, gain_gold, name
from .effects_engine import fire
from .princes import clergy_taxes

SILESIA_TAX_BONUS = 2


def tax_cost(people: int, track: str = "People") -> str:
    """What collecting costs now: Privilege of Cienia and Immunity Charter make it free, Renovatio Monetae 2."""
    return f"costs no {track}" if people <= 0 else f"costs {people} {track}"


def prompt_text(action: Action) -> str:
    return f"Taxes: collect ({tax_cost(int(action['tax_people']))}) or done to skip."


def tax_income(state: PState, code: str) -> int:
    """Might of the controlled lands (a Division token's land pays nothing); Silesia's Colour of Gold adds 2."""
    income = might(state)[code]
    return income + (SILESIA_TAX_BONUS if code == "SIL" else 0)


def options(ctx: Ctx, code: str, action: Action) -> list[str]:
    if ctx.state["players"][code]["people"] <= 0:
        return ["done"]  # 0 People forbids Taxes, whatever the cards (Immunity Charter's own words)
    clergy = ["collect clergy"] if clergy_taxes(ctx.state, code) else []  # Spindleshanks
    return ["collect", *clergy, *plays(ctx, code, "own_action:taxes"), "done"]


def answer(ctx: Ctx, code: str, action: Action, words: list[str]) -> bool:
    """``collect`` (or ``collect clergy``): the action is over (True)."""
    track = "clergy" if words == ["collect", "clergy"] else "people"
    change_track(ctx, code, track, -action["tax_people"], "Taxes")
    income = tax_income(ctx.state, code)
    got = gain_gold(ctx, code, income)
    bonus = " (Colour of Gold: +2)" if code == "SIL" else ""
    ctx.log("taxes", f"{name(code)} collects {got} gold in Taxes{bonus}.")
    fire(ctx, code, "on_tax")  # Ducal Mint, Market Rights
    action["count"] += 1
    return True
