"""Decisions asked together (option ``together``, issue 47): where the rulebook asks players one after the other
and a later player's answer is theirs alone (Division, Urbanization, Release to Home, the History texts that let
each player choose or build, the Period's Prince choice and placement), every player with something to decide is
asked at once, sealed, as plans are: one wait instead of one per player.

Nobody sees another's answer before all are sealed (each is kept in its player's private part); the answers then
apply in turn order, each at its player's turn if still allowed then, exactly as that player's click; an answer
no longer allowed is dropped and that player is asked again, seeing the board as it stands. The order of play is
kept; a later player only gives up seeing the earlier players' answers before giving theirs. Off is the default
(a later player sees the earlier choices, as the rulebook) and is stored as no option at all, as a game stored
before the option existed: both ask one player after the other.

Sub-state: ``play["together"] = {kind: slot}``, the last slot (a name never used again in the game) each kind
was asked together for; ``play["sealing"]``, the players asked together who have not sealed yet; each sealed
answer waits in ``play["private"][p]["together"] = {kind: [slot, answer]}``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.engine import Decision

from ..schema import PState
from .common import Ctx, prompt

#: the decision id of a decision asked together starts with it (the slot follows)
TOGETHER = "together-"


def together(state: PState) -> bool:
    """Whether the game asks the queued decisions together (option ``together``, absent from older games)."""
    return state["options"].get("together", "off") == "on"


def ask_together(ctx: Ctx, asked: Mapping[str, tuple[str, str]], slot: str) -> bool:
    """Ask the players of ``asked`` their decisions (each its kind and prompt text) at once, sealed (decision id
    ``together-<slot>``), the first time the slot comes up with option ``together`` and at least two players to
    ask. True: asked (the machine waits)."""
    if not together(ctx.state):
        return False  # nothing of this is written in a game without the option: it stays the game it was
    marks = ctx.play.setdefault("together", {})
    kinds = {kind for kind, _text in asked.values()}
    if any(marks.get(kind) == slot for kind in kinds):
        return False
    marks.update(dict.fromkeys(kinds, slot))  # once per slot: a later asking is the fallback's, one at a time
    if len(asked) < 2:
        return False
    ctx.play["sealing"] = list(asked)
    for code, (kind, text) in asked.items():
        prompt(ctx, code, kind, text, sealed=True, decision_id=f"{TOGETHER}{slot}")
    return True


def seal(ctx: Ctx, code: str, decision: Decision, words: list[str]) -> bool:
    """A player answers ``decision`` (``play.apply``): if it was asked together, the answer is kept, private,
    until its turn. True: kept (nothing else happens now)."""
    kind = decision.kind
    slot = ctx.play.get("together", {}).get(kind)
    sealing = ctx.play.get("sealing") or []
    if code not in sealing or slot is None or decision.id != f"{TOGETHER}{slot}":
        return False
    sealing.remove(code)
    ctx.play["private"][code].setdefault("together", {})[kind] = [slot, " ".join(words)]
    return True


def sealed_answer(ctx: Ctx, code: str, kind: str, answers: list[str]) -> str | None:
    """At the player's turn, its answer sealed together for this decision (taken: it serves once), if it is
    still among ``answers``; None: none, or no longer allowed (the player is asked)."""
    kept = ctx.play["private"][code].get("together", {})
    entry = kept.pop(kind, None)
    if not kept:
        ctx.play["private"][code].pop("together", None)
    current = ctx.play.get("together", {}).get(kind)
    if entry is None or entry[0] != current or entry[1] not in answers:
        return None
    return entry[1]


def asked_together(decision_id: str) -> bool:
    return decision_id.startswith(TOGETHER)


def withdraw(ctx: Ctx, code: str) -> None:
    """The player's decision asked together was withdrawn (nothing left to answer): the others' go on."""
    sealing = ctx.play.get("sealing") or []
    if code in sealing:
        sealing.remove(code)


def has_sealed(ctx: Ctx, code: str, kind: str) -> bool:
    """Whether the player holds an answer sealed together for this decision (not to be asked ahead)."""
    return kind in ctx.play["private"][code].get("together", {})
