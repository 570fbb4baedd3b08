"""The TAXES ACTION (rulebook p. 15): lose 1 People and collect gold equal to your Might (a Division token's land
pays nothing); Silesia's Colour of Gold adds 2 (SPECIAL PRINCIPALITY RULES). 0 People forbids Taxes.

What changes the cost lives in the action sub-state's ``tax_people`` (Privilege of Cienia and Immunity Charter:
none, Renovatio Monetae: 2; written by ``track_cost`` texts); Władysław Spindleshanks may pay with Clergy
(``collect clergy``, ``princes.clergy_taxes``).

Issue 18: the Taxes choice may be answered when the plan is sealed (``plan_ahead``); the answer is kept for the
slot ``ahead_slot`` names, the planned Taxes action of the Round (a Progress token used as Taxes is not it).
"""

from __future__ import annotations

from rules.engine.standing import PlanAhead

from ..schema import Action, PState, PView
from ..state import might
from .cards import plays
from .common import ROMAN, Ctx, change_track, gain_gold, name, principality_of
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


def ahead_slot(view: PView) -> str | None:
    """The slot of the Taxes decision posed now, for an answer given when the plan was sealed: the Round's Taxes,
    when the Action token being resolved is the Taxes token of the seat's own plan (read from its view)."""
    play, you = view.get("play"), view.get("you")
    plan = you["plan"] if you is not None else None
    if play is None or plan is None or not 0 <= play["slot"] < len(plan) or plan[play["slot"]] != "taxes":
        return None
    return f"r{view['round']}:taxes"


def plan_ahead(state: PState, seat: int, sealed: str | None) -> list[PlanAhead]:
    """The Taxes choice of a plan with Taxes, while that action is still to come: from the plan just sealed
    (``sealed``) or, once the plans are revealed, from the seat's plan in the state."""
    play = state.get("play")
    if play is None or play["result"] is not None or not 0 <= seat < len(state["seats"]):
        return []
    code = principality_of(state, seat)
    if sealed is not None:
        words = sealed.split()
        plan = words[1:] if words[:1] == ["plan"] else None
    else:
        plan = state["players"][code]["plan"]
        if play["phase"] != "actions":
            plan = None  # revealed plans are played in the actions phase only
    if not plan or "taxes" not in plan or state["players"][code]["eliminated"]:
        return []
    token = plan.index("taxes")
    if sealed is None and len(play["revealed"][code]) > token:
        return []  # the Taxes token is revealed: its decision is asked (or over), not ahead
    answers = [("collect", "Collect when your Taxes action comes")]
    if clergy_taxes(state, code):
        answers.append(("collect clergy", "Collect paying Clergy (Spindleshanks) when it comes"))
    title = f"your Taxes action (Action {ROMAN[token]}) this Round"
    return [PlanAhead(f"r{state['round']}:taxes", "taxes", title, tuple(answers))]
