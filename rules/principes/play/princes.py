"""Prince cards (PRINCIPES IV): the special rule of the ruling Prince, active while he rules.

A Prince card carries a ``timing`` and an ``effect`` like a Progress tile; the effect interpreter treats the
ruling Prince as one more source of the player's rules (``effects_engine.sources_of``), so ``fire`` runs his
timed texts where the tiles' texts run (``on_tax``, ``on_build``, ``before_battle``...) and ``rule_terms`` finds
his standing rules (``cost_discount``, ``coin_steal``, ``immunity``, ``penalty_waiver``, ``track_cost``). This
module holds the rules those primitives change at the points the actions ask for them:

- Taxes paid with Clergy (Spindleshanks: ``collect clergy``);
- Neighbours and Invaders forbidden to end a move on the player's lands (``immunity(faction, own_lands)``);
- end-of-move penalties waived for a principality's lands (``penalty_waiver(principality(P))``);
- the coin face's steal (``coin_steal(self, n)``).

Building costs lowered by ``cost_discount(item, n|free, min)`` (Odonic, Henry the Bearded, Henry Probus) are the
Building action's prices (``building.build_cost``).
"""

from __future__ import annotations

from ..data import catalog
from ..schema import Action, PState
from .common import Ctx, active, land_name, name
from .effects_engine import rule_terms


def ruling_prince(state: PState, code: str) -> str | None:
    """The Prince card of the ruling Prince (None for an heir without a Prince or an eliminated player)."""
    player = state["players"].get(code)
    if player is None or not active(state, code):
        return None
    prince: str | None = player["prince"]
    return prince


def clergy_taxes(state: PState, code: str) -> bool:
    """Spindleshanks: Taxes may be paid with 1 Clergy instead of 1 People (``track_cost(taxes, people|clergy)``)."""
    return (
        any(
            term.args[0].name == "taxes" and "clergy" in term.args[1].choices
            for term in rule_terms(state, code, "track_cost")
        )
        and state["players"][code]["clergy"] > 0
    )


def immune(state: PState, code: str | None, faction: str) -> bool:
    """Whether ``faction``'s units may not end a move on the lands ``code`` controls (Siemowit I: the Rus
    Fiefdoms; Bolesław II of Masovia: the Lithuanians)."""
    if code is None or code not in state["players"]:
        return False
    return any(term.args[0].name in (faction, "any") for term in rule_terms(state, code, "immunity"))


def waived_lands(state: PState, code: str, lands: list[str]) -> list[str]:
    """The lands of ``lands`` whose end-of-move penalty a ``penalty_waiver(principality(P))`` waives."""
    waived = {
        term.args[0].args[0].name
        for term in rule_terms(state, code, "penalty_waiver")
        if term.args[0].call and term.args[0].name == "principality"
    }
    return [land for land in lands if catalog().lands[land]["principality"] in waived]


def waive_penalties(ctx: Ctx, code: str, action: Action) -> None:
    """Drop the penalties the ruling Prince waives (Henry III of Głogów: the lands of Polonia Maior)."""
    waived = waived_lands(ctx.state, code, action["penalties"])
    if not waived:
        return
    action["penalties"] = [land for land in action["penalties"] if land not in waived]
    ctx.log(
        "penalty_waived",
        f"{name(code)} pays no penalty for {', '.join(land_name(land) for land in waived)} "
        "(the ruling Prince's rule).",
    )


def coin_loot(state: PState, code: str | None) -> int:
    """Gold a coin face rolled by ``code``'s side steals: 1, or n with ``coin_steal(self, n)`` (the Bald)."""
    if code is None:
        return 1
    amounts = [
        term.args[1].number or 0
        for term in rule_terms(state, code, "coin_steal")
        if term.args[0].name == "self"
    ]
    return max(amounts, default=1)
