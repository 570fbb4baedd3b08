"""Longer labels for actions (buttons and the log)."""

from __future__ import annotations

from rules.engine import State

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


def _build_cost(state: State, building: str) -> str:
    """`` (1 gold)``: what the building costs the player building now (Odonic's Abbeys and Probus's Tiltyards
    are free); empty when no one is building."""
    action = (state.get("play") or {}).get("action") or {}
    if (
        action.get("kind") != "building"
        or "players" not in state
        or action.get("who") not in state["players"]
    ):
        return ""
    cost = build_cost(state, action["who"], building, 1)
    return f" ({cost} gold)" if cost else " (free)"


def _collect(state: State, with_clergy: bool) -> str:
    """The Taxes answer with its cost now (Privilege of Cienia, Immunity Charter: none; Renovatio: 2)."""
    action = (state.get("play") or {}).get("action") or {}
    people = int(action.get("tax_people", 1)) if action.get("kind") == "taxes" else 1
    if people <= 0:
        return "Collect taxes (costs no People)"
    if with_clergy:
        return f"Collect taxes (-{people} Clergy instead of People)"
    return f"Collect taxes (-{people} People)"


def describe_action(state: State, action: str) -> str:
    words = action.split()
    verb = words[0] if words else ""
    if verb == "plan":
        return "Plan: " + ", ".join(
            f"{n} {ACTION_TITLES.get(w, w)}" for n, w in zip(("I", "II", "III"), words[1:], strict=False)
        )
    if verb == "direction":
        return "Turn order clockwise" if words[1:] == ["cw"] else "Turn order counter-clockwise"
    if verb == "move" and len(words) == 4:
        return f"Move a {words[1].title()} from {_land(words[2])} to {_land(words[3])}"
    if verb == "withdraw" and words[2:] == ["home"]:
        return f"Send the {words[1].title()} home"
    if verb == "respawn" and len(words) == 2:
        return f"Return the neutral Prince to {_land(words[1])}"
    if verb in ("assemble", "withdraw") and len(words) == 3:
        return f"{verb.title()} a {words[1].title()} {'on' if verb == 'assemble' else 'to'} {_land(words[2])}"
    if verb == "build" and len(words) == 3:
        return f"Build {a(words[1].title())} on {_land(words[2])}{_build_cost(state, words[1])}"
    if verb == "found" and len(words) == 2:
        return f"Found the City of {_land(words[1])}"
    if verb in ("take", "return", "sell", "before") and len(words) == 2:
        label = {"take": "Take", "return": "Return", "sell": "Discard for 1 gold:", "before": "Play"}[verb]
        return f"{label} {_card(words[1])}"
    if verb == "exchange" and len(words) == 3:
        return f"Exchange {_card(words[1])} for {_card(words[2])}"
    if verb in ("support", "pledge") and len(words) == 3:
        return f"Play {_card(words[1])} for +1 {words[2].title()}"
    if verb == "extra" and len(words) == 3:
        return f"Play {_card(words[1])} for an extra {words[2]}"
    if verb == "after":
        return "Play after the battle: " + ", ".join(_card(w) for w in words[1:])
    if verb == "play" and len(words) >= 2:
        target = (
            f" ({_land(words[2]) if words[2] not in NAMES_LOWER else NAMES_LOWER[words[2]]})"
            if len(words) > 2
            else ""
        )
        return f"Play the text of {_card(words[1])}{target}"
    if verb == "neighbour" and len(words) == 3:
        return f"Play {_card(words[1])} to move {_faction(words[2])}"
    if verb in ("block", "cancel") and len(words) == 2:
        return f"{verb.title()} with {_card(words[1])}"
    if verb == "as" and len(words) == 2:
        return f"Use the Progress action as {ACTION_TITLES.get(words[1], words[1])} (New Mechanisms)"
    if verb == "give" and len(words) == 3:
        return f"Give {words[2]} gold to {NAMES.get(words[1].upper(), words[1])}"
    if verb in ("ask", "keep", "battle", "place") and len(words) == 2:
        label = {
            "ask": "Ask passage through",
            "keep": "Keep the buildings of",
            "battle": "Fight in",
            "place": "Place the Prince on",
        }[verb]
        return f"{label} {_land(words[1])}"
    if verb == "destroy":
        return f"Destroy on {_land(words[1])}: " + ", ".join(_land(w) for w in words[2:])
    if verb == "penalty" and len(words) == 3:
        return f"Clergy penalty for {_land(words[1])}: " + (
            "lose 1 Clergy" if words[2] == "clergy" else "pay 1 gold"
        )
    if verb == "division" and len(words) == 2:
        return f"Place a Division token on {_land(words[1])}"
    if verb == "release" and len(words) == 3:
        return f"Send a {words[1].title()} home from {_land(words[2])}"
    if verb == "choose" and len(words) == 2:
        return (
            "Pay the gold the History card asks"
            if words[1] == "pay"
            else f"Lose the {words[1].title()} the History card asks"
        )
    if verb == "combined" and len(words) == 3:
        what = {
            "assemble": "assemble 3 units for",
            "move": "move the units of",
            "castle": "build a Castle on",
        }.get(words[1], words[1])
        target = _faction(words[2]) if words[1] != "castle" else _land(words[2])
        return f"Combined Actions: {what} {target}"
    if verb == "send" and len(words) == 2:
        return f"Send your Princess to {_land(words[1])}"
    if verb == "discard" and len(words) == 2:
        return f"Discard {_card(words[1])} to the bottom of its deck"
    if verb == "collect":
        return _collect(state, words[1:] == ["clergy"])
    if verb == "prince" and len(words) == 2:
        return f"Crown {_card(words[1])}"
    labels = {
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
    if action in labels:
        return labels[action]
    if action in ("allow always", "deny always"):
        return f"{words[0].title()} passage now and always for this player"
    if verb == "draw":
        return "Draw " + " ".join(words[1:])
    if len(words) == 1 and verb.lower() in _card_titles():  # a bare card id: the round status's History card
        return _card_titles()[verb.lower()]
    return action
