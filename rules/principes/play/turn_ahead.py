"""A player's own turn answered ahead (issue 47, ``rules.engine.turn_ahead``).

The rulebook asks some decisions one player after another, each seeing what the players before did. A later
player may instead go through its own turn now, on a preview of the board as it stands (shown to nobody else),
giving up, by its own choice, seeing what the earlier players do first; its answers are given when its turn
comes in the rulebook's order, each while still legal then, and the first answer no longer legal, or the first
decision the preview could not show (a draw, a die, a battle, someone else's decision), is asked as usual. A
player who answers nothing ahead is asked when the turn comes, as before. Three kinds of turns:

- **an action** (p. 14: the Action tokens are revealed and performed one at a time, in turn order): a player
  whose tokens still to reveal are Progress, Assembly, Movement, Building or Politics goes through each while
  another player performs an action (Taxes: answered with the plan, ``taxes.plan_ahead``); a Movement's turn
  goes on into the mover's own 'before battle' window, which comes before any die;
- **Council pledges** (p. 26: "players play their cards one after another"): a player later in the Council's
  order pledges while an earlier one does;
- **the defender's card window** of a battle (p. 24: "the attacking player decides first whether to play cards,
  followed by the defending player"): the defender answers its 'before battle' or extra-card window while the
  attacker answers its own;
- **a Period's new Prince** (p. 12, each player in turn order): a later player chooses its Prince and places him
  while an earlier one does;
- **Common Council pledges** (a History icon, in turn order, as a Council's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from rules.engine import Decision, Game
from rules.engine.rng import NoChance, ReplayMismatch

from ..schema import PlayView, PState, PView
from . import actions, battle
from .common import ACTION_TITLES, ROMAN, Ctx, active, principality_of
from .decisions import pending
from .flow import advance

#: the actions whose decisions a player may answer ahead (Taxes: with the plan)
OWN_ACTIONS = ("progress", "assembly", "movement", "building", "politics")
#: the decisions of an own action its performer answers (a Council's pledges, consent and battles are others')
ACTION_KINDS = frozenset({*OWN_ACTIONS, "politics_return", "combined"})
#: a battle's card windows of the defender, by the attacker's window it is offered with
DEFENDER_WINDOWS = {"before_A": "before_D", "extra_A": "extra_D"}
WINDOW_KINDS = {"before": "before_battle", "extra": "extra_cards"}
#: (slot, decision kind, what the offer says) of each turn in sight, by principality, nearest first
Offers = dict[str, list[tuple[str, str, str]]]


# ---- the turns in sight ----------------------------------------------------------------------------------------


def _next_token(state: PState, code: str) -> int | None:
    """The index (0-2) of the player's next Action token still to reveal this Round, if any."""
    play = state["play"]
    order = play["order"]
    if code not in order:
        return None
    token = play["slot"] if order.index(code) >= play["turn"] else play["slot"] + 1
    return token if token < 3 else None


def action_slot(round_no: int, token: int, code: str) -> str:
    """The name of a player's action turn: its Round, its token (I, II, III) and its principality."""
    return f"turn-r{round_no}-{ROMAN[token]}-{code}"


def _action_offers(state: PState) -> Offers:
    """Each player not asked anything whose Action tokens still to reveal (in the plan it sealed) are own
    actions, while another player performs an action (its battles included): every one of them, on the board as
    it stands (the next first)."""
    play = state["play"]
    if play["phase"] != "actions" or play["action"] is None:
        return {}
    found: Offers = {}
    for code in play["order"]:
        plan = state["players"][code]["plan"]
        token = _next_token(state, code)
        if code == play["action"]["who"] or code in play["prompts"] or plan is None or token is None:
            continue
        for later in range(token, 3):
            if plan[later] in OWN_ACTIONS:
                title = f"your {ACTION_TITLES[plan[later]]} (Action {ROMAN[later]})"
                found.setdefault(code, []).append(
                    (action_slot(state["round"], later, code), plan[later], title)
                )
    return found


def council_slot(play: PlayView, round_no: int, code: str) -> str:
    """The name of a player's pledges at the Council of the action being performed."""
    action = play["action"]
    assert action is not None
    return f"council-r{round_no}-{ROMAN[play['slot']]}-{action['who']}-{code}"


def _council_offers(state: PState) -> Offers:
    """The players later in the Council's order than the one pledging now."""
    play = state["play"]
    action = play["action"]
    if action is None or action["stage"] != "council" or play["battle"] is not None or not action["queue"]:
        return {}
    slot = council_slot(cast(PlayView, play), state["round"], "")
    return {code: [(slot + code, "council", "your pledges at this Council")] for code in action["queue"][1:]}


def window_slot(play: PlayView, stage: str) -> str | None:
    """The name of the defender's card window of the battle in progress, at the attacker's window ``stage``
    (or at the defender's own)."""
    fight = play["battle"]
    if fight is None:
        return None
    kind = stage.split("_")[0]
    return f"battle{fight['no']}-{kind}-D"


def _window_offers(state: PState) -> Offers:
    """The defender, while the attacker answers its card window (the defender's window comes next)."""
    fight = state["play"]["battle"]
    if fight is None or fight["stage"] not in DEFENDER_WINDOWS:
        return {}
    defender = battle.side_player(state, fight, "D")
    attacker = battle.side_player(state, fight, "A")
    if defender is None or attacker is None or attacker not in state["play"]["prompts"]:
        return {}
    slot = window_slot(cast(PlayView, state["play"]), fight["stage"])
    kind = WINDOW_KINDS[fight["stage"].split("_")[0]]
    return {defender: [(str(slot), kind, "your card window in this battle")]}


def prince_slot(round_no: int, code: str) -> str:
    """The name of a player's Prince change at a Period's start: its new Prince, then where he stands."""
    return f"prince-r{round_no}-{code}"


def _prince_offers(state: PState) -> Offers:
    """At a Period's start, the players whose Prince change comes after the one being decided (p. 12: the
    Princes of the past Period die, each player in turn order chooses a new one and places him)."""
    succession = state["play"]["succession"]
    head = succession[0] if succession else None
    if head is None or head["who"] not in state["play"]["prompts"]:
        return {}
    later = [entry["who"] for entry in succession[1:] if entry["why"] == "period" and entry["stage"] is None]
    title = "your new Prince and where he stands"
    return {code: [(prince_slot(state["round"], code), "prince_choice", title)] for code in later}


def common_council_slot(round_no: int, code: str) -> str:
    """The name of a player's pledges at the Common Council of a History card's icon."""
    return f"common-r{round_no}-{code}"


def _common_council_offers(state: PState) -> Offers:
    """The players later in a Common Council's order than the one pledging now (a History icon, p. 18)."""
    event = state["play"].get("event")
    if event is None or event.get("icon") != "council" or not event["queue"]:
        return {}
    if event["queue"][0] not in state["play"]["prompts"]:
        return {}
    title = "your pledges at this Common Council"
    return {
        code: [(common_council_slot(state["round"], code), "common_council", title)]
        for code in event["queue"][1:]
    }


SOURCES: tuple[Callable[[PState], Offers], ...] = (_action_offers, _council_offers, _window_offers)


def _offers(state: PState) -> Offers:
    play = state.get("play")
    if play is None or play["result"] is not None:
        return {}
    sources = SOURCES
    if play["succession"]:
        sources = (_prince_offers,)  # the Prince changes come before anything else
    elif play.get("event") is not None:
        sources = (_common_council_offers,)  # a History text or icon comes before the action in progress
    found: Offers = {}
    for source in sources:
        for code, offers in source(state).items():
            if active(state, code) and code not in play["prompts"]:
                found.setdefault(code, []).extend(offers)
    return found


def comes_publicly(decision: Decision) -> bool:
    """A Council's (and a Common Council's) pledges come in sight when it is summoned, a defender's window when the attacker's opens, a
    Period's Prince changes when the Period begins, the Action I tokens when every plan is revealed (the log shows
    them all to everyone); a player's later
    actions come in sight when its action before ends, which may be answered automatically: offered with its own
    player's wait."""
    return decision.kind not in OWN_ACTIONS or decision.id.split("-")[2] == ROMAN[0]


def turn_ahead(state: PState) -> dict[int, list[Decision]]:
    """Each player's turns it may answer ahead now (``Game.turn_ahead``), nearest first: a decision's id is its
    turn's slot."""
    return {
        state["players"][code]["seat"]: [
            Decision(slot, kind, f"{title}, coming after the players before you")
            for slot, kind, title in offers
        ]
        for code, offers in _offers(state).items()
    }


# ---- the preview --------------------------------------------------------------------------------------------


def _pose_action(preview: PState, code: str, slot: str) -> None:
    """The player's Action token of ``slot`` revealed and its action begun, the action in progress (and the
    player's own actions before it) left aside: the board as it stands."""
    play = preview["play"]
    token = ROMAN.index(slot.split("-")[2])
    plan = preview["players"][code]["plan"]
    assert plan is not None, "an action turn is offered for a sealed plan's token still to reveal"
    play["action"] = None
    play["slot"], play["turn"] = token, play["order"].index(code) + 1
    play["revealed"][code] = list(plan[: token + 1])
    actions.begin(Ctx(preview, NoChance()), code, plan[token])


def _pose_council(preview: PState, code: str, slot: str) -> None:
    """The Council's order moved on to the player: those before it have pledged nothing more."""
    action = preview["play"]["action"]
    assert action is not None
    action["queue"] = action["queue"][action["queue"].index(code) :]


def _pose_prince(preview: PState, code: str, slot: str) -> None:
    """The Prince changes before the player's left aside: its own is decided now."""
    succession = preview["play"]["succession"]
    preview["play"]["succession"] = succession[[entry["who"] for entry in succession].index(code) :]


def _pose_common_council(preview: PState, code: str, slot: str) -> None:
    """The Common Council's order moved on to the player."""
    event = preview["play"]["event"]
    assert event is not None
    event["queue"] = event["queue"][event["queue"].index(code) :]


def _pose_window(preview: PState, code: str, slot: str) -> None:
    """The attacker's window passed: the defender's comes."""
    fight = preview["play"]["battle"]
    assert fight is not None
    fight["stage"] = DEFENDER_WINDOWS[fight["stage"]]


def turn_ahead_state(state: PState, seat: int, slot: str) -> PState | None:
    """A copy of the state with the seat's turn of ``slot`` come and its first decision posed; None when it is
    not in sight, or getting there draws on chance or shows something hidden (an Assembly's Training Grounds
    draw), or asks the seat nothing."""
    decision = next((d for d in turn_ahead(state).get(seat, []) if d.id == slot), None)
    if decision is None:
        return None
    code = principality_of(state, seat)
    preview = Game.copy_state(state)
    preview["play"]["prompts"] = {}
    pose = {
        "council": _pose_council,
        "before_battle": _pose_window,
        "extra_cards": _pose_window,
        "prince_choice": _pose_prince,
        "common_council": _pose_common_council,
    }
    try:
        pose.get(decision.kind, _pose_action)(preview, code, slot)
        advance(Ctx(preview, NoChance()))
    except ReplayMismatch:
        return None
    if reveals_hidden(state, preview, seat):
        return None
    posed = pending(preview).get(seat)
    if posed is None or turn_slot(cast(PView, preview), seat, posed) != decision.id:
        return None
    return preview


def turn_slot(view: PView, seat: int, decision: Decision) -> str | None:
    """The slot of the turn the seat's decision belongs to: its own action's decision, its pledges at a Council,
    or its card window as the defender."""
    play = cast(PlayView | None, view.get("play"))
    if play is None:
        return None
    event = play.get("event")
    if event is not None:
        pledging = decision.kind == "common_council" and event["queue"][:1] == [principality_of(view, seat)]
        return common_council_slot(view["round"], event["queue"][0]) if pledging else None
    succession = play["succession"]
    if succession:
        head = succession[0]
        mine = head["who"] == principality_of(view, seat) and head["why"] == "period"
        princely = decision.kind in ("prince_choice", "prince_place")
        return prince_slot(view["round"], head["who"]) if mine and princely else None
    if play["phase"] != "actions":
        return None
    action, fight = play["action"], play["battle"]
    code = principality_of(view, seat)
    if fight is not None:
        stage = fight["stage"]
        if fight["sides"]["D"] == code and stage in DEFENDER_WINDOWS.values():
            return window_slot(play, stage) if decision.kind in WINDOW_KINDS.values() else None
        # the mover's own 'before battle' window, before any die: still its action's turn
        moving = action is not None and action["who"] == code and fight["sides"]["A"] == code
        first_window = stage == "before_A" and decision.kind == "before_battle"
        return action_slot(view["round"], play["slot"], code) if moving and first_window else None
    if action is None:
        return None
    if decision.kind == "council" and action["stage"] == "council" and action["queue"][:1] == [code]:
        return council_slot(play, view["round"], code)
    if decision.kind in ACTION_KINDS and action["who"] == code:
        return action_slot(view["round"], play["slot"], code)
    return None


def reveals_hidden(before: PState, after: PState, seat: int) -> bool:
    """Whether ``after`` shows something hidden in ``before``: a card drawn from a deck (to any hand), a Progress
    tile revealed from its stack, a History card, another player's hand changed. Cards put under a deck, or
    leaving the seat's own hand, show nothing new."""
    own = principality_of(before, seat)
    for deck, cards in before["decks"].items():
        if after["decks"][deck][: len(cards)] != cards:
            return True  # drawn from the top (put under the bottom alone would keep the prefix)
    if any(after["market"][colour]["stack"] != pile["stack"] for colour, pile in before["market"].items()):
        return True
    if after["history"]["deck"] != before["history"]["deck"]:
        return True
    for code, player in before["players"].items():
        gained = set(after["players"][code]["hand"]) - set(player["hand"])
        if gained or (code != own and after["players"][code]["hand"] != player["hand"]):
            return True
    return False
