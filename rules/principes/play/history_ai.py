"""The ``basic`` AI's answers to the History prompts (``ai.CHOOSERS`` takes them), from the view only."""

from __future__ import annotations

import random

from ..data import catalog
from ..schema import PView
from .ai_eval import army_moved, track_of

View = PView


def strongest_rival(view: View, me: str) -> str | None:
    """The rival still in the game with the most Might (ties: People), as the view shows them."""
    rivals = [code for code, player in view["players"].items() if code != me and not player["eliminated"]]
    return max(rivals, key=lambda code: (view["might"][code], view["players"][code]["people"]), default=None)


def _choice(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Tithes: pay when gold is plentiful, else lose the Clergy point."""
    rich = view["players"][me]["gold"] >= 4
    choices = [a for a in answers if a.startswith("choose ")] or answers
    return next((a for a in choices if a.endswith("pay") == rich), choices[0])


def _build(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Found a City or build a Castle when it leaves 2 gold in hand."""
    builds = [a for a in answers if a.split()[0] in ("found", "build")]
    return builds[0] if builds and view["players"][me]["gold"] >= 3 else "pass"


def _urbanization(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """A free City on a land that nobody controls (or on one's own Division land) helps no rival."""
    for answer in answers:
        if not answer.startswith("found "):
            continue
        land = next(
            name
            for name, record in catalog().lands.items()
            if any(gord["id"] == answer.split()[1] for gord in record["gords"])
        )
        if view["control"].get(land) is None:
            return answer
    return "pass"


def _division(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    rival = strongest_rival(view, me)
    return next(
        (a for a in answers if a.startswith("division ") and view["control"].get(a.split()[1]) == rival),
        "pass",
    )


def _release(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Send a Footman home first, from the land where most of one's units stand."""

    def crowd(answer: str) -> tuple[bool, int]:
        _, unit, land = answer.split()
        units = view["lands"][land]["units"].get(me, {})
        return unit == "footman", sum(units.values())

    return max((a for a in answers if a.startswith("release ")), key=crowd, default=answers[0])


def _council(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Pledge towards a track below 10 when the Princeps token is within reach, else keep the cards (Council
    card texts are kept for one's own Councils)."""
    player = view["players"][me]
    if view["princeps"]["holder"] == me or player["people"] + player["clergy"] < 10:
        return "done"
    pledges = [a for a in answers if a.startswith("pledge") and track_of(player, a.split()[2]) < 10]
    return pledges[0] if pledges else "done"


def _invader_move(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Send the Invaders a few steps towards the strongest rival's lands, then stop."""
    event = view["play"]["event"]
    assert event is not None, "a History event moves the Invaders"
    army = army_moved(event.get("army"))
    moves = [a for a in answers if a.startswith("move ")]
    if "done" in answers and (army["ops"] >= 4 or not moves):
        return "done"
    rival = strongest_rival(view, me)
    good = [m for m in moves if view["control"].get(m.split()[3]) == rival]
    if good and army["ops"] < 4:
        return rng.choice(good)
    if "done" in answers:
        return "done"
    return "undo" if "undo" in answers else answers[0]


CHOOSERS = {
    "history_choice": _choice,
    "history_build": _build,
    "history_relocate": lambda view, me, answers, rng: "stay" if "stay" in answers else answers[0],
    "division": _division,
    "urbanization": _urbanization,
    "release": _release,
    "common_council": _council,
    "teutonic_call": lambda view, me, answers, rng: (
        "call" if me == "MAS" else "pass"
    ),  # a shield vs Prussians
    "invader_move": _invader_move,
}
