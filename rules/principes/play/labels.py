"""Longer labels for actions (buttons and the log): one label per verb (``LABELS``), a few whole actions
(``PLAIN``), and the action's own text for anything else."""

from __future__ import annotations

from collections.abc import Callable

from ..schema import Action, Board
from .building import build_cost
from .common import ACTION_TITLES, NAMES, a
from .naming import card_label as _card
from .naming import card_titles as _card_titles
from .naming import faction_label as _faction
from .naming import place_label as _land

NAMES_LOWER = {code.lower(): title for code, title in NAMES.items()} | {
    "people": "People",
    "clergy": "Clergy",
}


def _action(state: Board) -> Action | None:
    """The action being performed, if any (a state or view of the setup has no play part)."""
    play = state.get("play")
    return play.get("action") if play else None


def _build_cost(state: Board, building: str) -> str:
    """`` (1 gold)``: what the building costs the player building now (Odonic's Abbeys and Probus's Tiltyards
    are free); empty when no one is building."""
    action = _action(state)
    if (
        action is None
        or action.get("kind") != "building"
        or "players" not in state
        or action.get("who") not in state["players"]
    ):
        return ""
    cost = build_cost(state, action["who"], building, 1)
    return f" ({cost} gold)" if cost else " (free)"


def _collect(state: Board, with_clergy: bool) -> str:
    """The Taxes answer with its cost now (Privilege of Cienia, Immunity Charter: none; Renovatio: 2)."""
    action = _action(state)
    people = int(action.get("tax_people", 1)) if action is not None and action.get("kind") == "taxes" else 1
    if people <= 0:
        return "Collect taxes (costs no People)"
    if with_clergy:
        return f"Collect taxes (-{people} Clergy instead of People)"
    return f"Collect taxes (-{people} People)"


# ---- one label per verb ---------------------------------------------------------------------------------------
# Each takes the state and the action's words and gives the label, or None when the words are not a form it
# labels (the action's own text is shown then).

Label = Callable[[Board, list[str]], "str | None"]


def _plan(state: Board, words: list[str]) -> str:
    return "Plan: " + ", ".join(
        f"{n} {ACTION_TITLES.get(w, w)}" for n, w in zip(("I", "II", "III"), words[1:], strict=False)
    )


def _direction(state: Board, words: list[str]) -> str:
    return "Turn order clockwise" if words[1:] == ["cw"] else "Turn order counter-clockwise"


def _move(state: Board, words: list[str]) -> str | None:
    if len(words) != 4:
        return None
    return f"Move a {words[1].title()} from {_land(words[2])} to {_land(words[3])}"


def _withdraw(state: Board, words: list[str]) -> str | None:
    if words[2:] == ["home"]:
        return f"Send the {words[1].title()} home"
    return f"Withdraw a {words[1].title()} to {_land(words[2])}" if len(words) == 3 else None


def _assemble(state: Board, words: list[str]) -> str | None:
    return f"Assemble a {words[1].title()} on {_land(words[2])}" if len(words) == 3 else None


def _respawn(state: Board, words: list[str]) -> str | None:
    return f"Return the neutral Prince to {_land(words[1])}" if len(words) == 2 else None


def _build(state: Board, words: list[str]) -> str | None:
    if len(words) != 3:
        return None
    return f"Build {a(words[1].title())} on {_land(words[2])}{_build_cost(state, words[1])}"


def _found(state: Board, words: list[str]) -> str | None:
    return f"Found the City of {_land(words[1])}" if len(words) == 2 else None


def _card_verb(label: str) -> Label:
    """``<verb> <card>``: the label's words and the card's title with its id."""

    def describe(state: Board, words: list[str]) -> str | None:
        return f"{label} {_card(words[1])}" if len(words) == 2 else None

    return describe


def _exchange(state: Board, words: list[str]) -> str | None:
    return f"Exchange {_card(words[1])} for {_card(words[2])}" if len(words) == 3 else None


def _support(state: Board, words: list[str]) -> str | None:
    return f"Play {_card(words[1])} for +1 {words[2].title()}" if len(words) == 3 else None


def _extra(state: Board, words: list[str]) -> str | None:
    return f"Play {_card(words[1])} for an extra {words[2]}" if len(words) == 3 else None


def _after(state: Board, words: list[str]) -> str:
    return "Play after the battle: " + ", ".join(_card(w) for w in words[1:])


def _play(state: Board, words: list[str]) -> str | None:
    if len(words) < 2:
        return None
    target = (
        f" ({_land(words[2]) if words[2] not in NAMES_LOWER else NAMES_LOWER[words[2]]})"
        if len(words) > 2
        else ""
    )
    return f"Play the text of {_card(words[1])}{target}"


def _neighbour(state: Board, words: list[str]) -> str | None:
    return f"Play {_card(words[1])} to move {_faction(words[2])}" if len(words) == 3 else None


def _with_card(state: Board, words: list[str]) -> str | None:
    return f"{words[0].title()} with {_card(words[1])}" if len(words) == 2 else None


def _as(state: Board, words: list[str]) -> str | None:
    if len(words) != 2:
        return None
    return f"Use the Progress action as {ACTION_TITLES.get(words[1], words[1])} (New Mechanisms)"


def _give(state: Board, words: list[str]) -> str | None:
    return f"Give {words[2]} gold to {NAMES.get(words[1].upper(), words[1])}" if len(words) == 3 else None


def _land_verb(label: str) -> Label:
    """``<verb> <land>``: the label's words and the land's name."""

    def describe(state: Board, words: list[str]) -> str | None:
        return f"{label} {_land(words[1])}" if len(words) == 2 else None

    return describe


def _destroy(state: Board, words: list[str]) -> str | None:
    if len(words) < 2:
        return None
    return f"Destroy on {_land(words[1])}: " + ", ".join(_land(w) for w in words[2:])


def _penalty(state: Board, words: list[str]) -> str | None:
    if len(words) != 3:
        return None
    return f"Clergy penalty for {_land(words[1])}: " + (
        "lose 1 Clergy" if words[2] == "clergy" else "pay 1 gold"
    )


def _division(state: Board, words: list[str]) -> str | None:
    return f"Place a Division token on {_land(words[1])}" if len(words) == 2 else None


def _release(state: Board, words: list[str]) -> str | None:
    return f"Send a {words[1].title()} home from {_land(words[2])}" if len(words) == 3 else None


def _choose(state: Board, words: list[str]) -> str | None:
    if len(words) != 2:
        return None
    if words[1] == "pay":
        return "Pay the gold the History card asks"
    return f"Lose the {words[1].title()} the History card asks"


def _combined(state: Board, words: list[str]) -> str | None:
    if len(words) != 3:
        return None
    what = {
        "assemble": "assemble 3 units for",
        "move": "move the units of",
        "castle": "build a Castle on",
    }.get(words[1], words[1])
    target = _faction(words[2]) if words[1] != "castle" else _land(words[2])
    return f"Combined Actions: {what} {target}"


def _send(state: Board, words: list[str]) -> str | None:
    return f"Send your Princess to {_land(words[1])}" if len(words) == 2 else None


def _discard(state: Board, words: list[str]) -> str | None:
    return f"Discard {_card(words[1])} to the bottom of its deck" if len(words) == 2 else None


def _collect_label(state: Board, words: list[str]) -> str:
    return _collect(state, words[1:] == ["clergy"])


def _prince(state: Board, words: list[str]) -> str | None:
    return f"Crown {_card(words[1])}" if len(words) == 2 else None


def _always(state: Board, words: list[str]) -> str | None:
    """``allow always`` / ``deny always``."""
    if words[1:] == ["always"]:
        return f"{words[0].title()} passage now and always for this player"
    return None


def _draw(state: Board, words: list[str]) -> str:
    return "Draw " + " ".join(words[1:])


#: verb -> its label (tried first; None falls back to ``PLAIN`` and then to the action's own text)
LABELS: dict[str, Label] = {
    "plan": _plan,
    "direction": _direction,
    "move": _move,
    "withdraw": _withdraw,
    "respawn": _respawn,
    "assemble": _assemble,
    "build": _build,
    "found": _found,
    "take": _card_verb("Take"),
    "return": _card_verb("Return"),
    "sell": _card_verb("Discard for 1 gold:"),
    "before": _card_verb("Play"),
    "exchange": _exchange,
    "support": _support,
    "pledge": _support,
    "extra": _extra,
    "after": _after,
    "play": _play,
    "neighbour": _neighbour,
    "block": _with_card,
    "cancel": _with_card,
    "as": _as,
    "give": _give,
    "ask": _land_verb("Ask passage through"),
    "keep": _land_verb("Keep the buildings of"),
    "battle": _land_verb("Fight in"),
    "place": _land_verb("Place the Prince on"),
    "destroy": _destroy,
    "penalty": _penalty,
    "division": _division,
    "release": _release,
    "choose": _choose,
    "combined": _combined,
    "send": _send,
    "discard": _discard,
    "collect": _collect_label,
    "prince": _prince,
    "allow": _always,
    "deny": _always,
    "draw": _draw,
}
#: whole actions of one word (and the bare "keep" of the die)
PLAIN = {
    "council": "Summon a Council",
    "undo": "Undo the last move",
    "done": "Done (end or skip the action)",
    "pass": "Pass",
    "allow": "Allow passage",
    "deny": "Deny passage",
    "reroll": "Reroll the die (With the Wind)",
    "keep": "Keep the die",
    "stay": "Keep the Prince where he stands",
    "flip": "Flip the die (Learning Chess)",
    "call": "Call the Teutonic Knights to Culmen",
}


def describe_action(state: Board, action: str) -> str:
    """The label of an action for buttons and the log; a bare card id (the round status's History card) is its
    title; anything else is shown as typed."""
    words = action.split()
    label = LABELS[words[0]](state, words) if words and words[0] in LABELS else None
    if label is not None:
        return label
    if action in PLAIN:
        return PLAIN[action]
    if len(words) == 1 and words[0].lower() in _card_titles():
        return _card_titles()[words[0].lower()]
    return action
