"""A player's own turn answered ahead (issue 47, ``rules.engine.turn_ahead``).

The rulebook asks some decisions one player after another, each seeing what the players before did. A later
player may instead go through its own turn now, on a preview of the board as it stands (shown to nobody else),
giving up, by its own choice, seeing what the earlier players do first; its answers are given when its turn
comes in the rulebook's order, each while still legal then, and the first answer no longer legal, or the first
decision the preview could not show (a draw, a die, a battle, someone else's decision), is asked as usual. A
player who answers nothing ahead is asked when the turn comes, as before. The kinds of turns:

- **an action** (p. 14: the Action tokens are revealed and performed one at a time, in turn order): a player
  whose tokens still to reveal are Progress, Assembly, Movement, Building or Politics goes through each while
  another player performs an action (Taxes: answered with the plan, ``taxes.plan_ahead``), or as soon as it has
  sealed its plan while the others still plan (from the state with its own plan applied: the others' plans are
  unknown there, and a preview never reveals their tokens); a Movement's turn goes on past its moves into the
  mover's own choices that come before any die (resolutions 11-13: the Clergy penalty of each land, the
  destruction in a land taken unopposed, the order of its battles) and into its own 'before battle' window;
- **Council pledges** (p. 26: "players play their cards one after another"): a player later in the Council's
  order pledges while an earlier one does;
- **a battle's card windows** (p. 24: "the attacking player decides first whether to play cards, followed by the
  defending player"): the defender answers its 'before battle' or extra-card window while the attacker answers
  its own; and while Masovia is asked its reroll (With the Wind: die modifications come after the initial count
  and before the extra cards, resolution 15), each other side answers its extra-card window on the dice as they
  stand, the reroll declined: by its own click it gives up seeing whether Masovia rerolls and what the new die
  shows (its answer is given if still legal then);
- **a Period's new Prince** (p. 12, each player in turn order): a later player chooses its Prince and places him
  while an earlier one does;
- **Common Council pledges** (a History icon, in turn order, as a Council's);
- **a Princess sent home** (the missions in turn order: "each player (in the set order), assigns their
  Princess"): while an earlier player's mission (or a draw or discard it causes) is asked, a later player who may
  send its Princess to its own Capital chooses the deck of the card she draws there (its mission itself is
  answered ahead as a queued decision, ``princesses.ahead``); the card is drawn, and shown, when the draw comes;
  a second draw (Lady of the Court) is asked then;
- **the Princeps's direction** (at each Round's start: "The Principes may choose a direction"): while the last
  steps before it are asked and no die or hidden card comes between (the History card's queued icons at the
  Round's end: Division, Urbanization, Release, a Common Council; a Period's Prince changes), the Princeps
  chooses the next Round's direction; the turn is its holder's, so should the token change hands before (a
  Common Council), the answer is not given.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from rules.engine import Decision, Game
from rules.engine.rng import NoChance, ReplayMismatch
from rules.engine.turn_ahead import Unseen

from ..schema import Battle, PlayView, PState, PView
from . import actions, battle, history, princesses
from .common import ACTION_TITLES, ROMAN, Ctx, active, capital, principality_of
from .decisions import pending
from .flow import advance, end_round

#: the actions whose decisions a player may answer ahead (Taxes: with the plan)
OWN_ACTIONS = ("progress", "assembly", "movement", "building", "politics")
#: the decisions of an own action its performer answers (a Council's pledges, consent and battles are others'):
#: its own steps, then a Movement's own choices after the moves and before any die (resolutions 11-13: the
#: Clergy penalty, destruction of a land taken, the order of the battles)
ACTION_KINDS = frozenset(
    {*OWN_ACTIONS, "politics_return", "combined", "clergy_penalty", "destroy", "battle_order"}
)
#: a battle's card windows of the defender, by the attacker's window it is offered with
DEFENDER_WINDOWS = {"before_A": "before_D", "extra_A": "extra_D"}
WINDOW_KINDS = {"before": "before_battle", "extra": "extra_cards"}
#: what the offer of a turn that comes after other players' decisions of the same kind says after its title
AFTER_EARLIER = ", coming after the players before you"
#: what the offer of an own action made as its player seals its plan says after its title
FROM_PLAN = " of the plan you sealed"
#: (slot, decision kind, what the offer says) of each turn in sight, by principality, nearest first
Offers = dict[str, list[tuple[str, str, str]]]


# ---- the turns in sight ----------------------------------------------------------------------------------------


def _next_token(state: PState, code: str) -> int | None:
    """The index (0-2) of the player's next Action token still to reveal this Round, if any (while the plans are
    sealed, its first)."""
    play = state["play"]
    order = play["order"]
    if code not in order:
        return None
    if play["phase"] == "plan":
        return 0
    token = play["slot"] if order.index(code) >= play["turn"] else play["slot"] + 1
    return token if token < 3 else None


def action_slot(round_no: int, token: int, code: str) -> str:
    """The name of a player's action turn: its Round, its token (I, II, III) and its principality."""
    return f"turn-r{round_no}-{ROMAN[token]}-{code}"


def _action_offers(state: PState) -> Offers:
    """Each player not asked anything whose Action tokens still to reveal (in the plan it sealed) are own
    actions, while another player performs an action (its battles included), or once it has sealed its plan
    while the others still plan (the host's state for it: its own plan applied, the others' unknown): every one
    of them, on the board as it stands (the next first)."""
    play = state["play"]
    sealing = play["phase"] == "plan"
    if not sealing and (play["phase"] != "actions" or play["action"] is None):
        return {}
    performer = None if sealing or play["action"] is None else play["action"]["who"]
    suffix = FROM_PLAN if sealing else AFTER_EARLIER
    found: Offers = {}
    for code in play["order"]:
        plan = state["players"][code]["plan"]
        token = _next_token(state, code)
        if code == performer or code in play["prompts"] or plan is None or token is None:
            continue
        for later in range(token, 3):
            if plan[later] in OWN_ACTIONS:
                title = f"your {ACTION_TITLES[plan[later]]} (Action {ROMAN[later]}){suffix}"
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
    return {
        code: [(slot + code, "council", f"your pledges at this Council{AFTER_EARLIER}")]
        for code in action["queue"][1:]
    }


def window_slot(play: PlayView, kind: str, side: str) -> str | None:
    """The name of a side's card window (``kind``: "before" or "extra") in the battle in progress."""
    fight = play["battle"]
    if fight is None:
        return None
    return f"battle{fight['no']}-{kind}-{side}"


def _window_offers(state: PState) -> Offers:
    """The defender, while the attacker answers its card window (the defender's window comes next); or while
    Masovia is asked its reroll, the extra-card windows after it of each side that is not Masovia's."""
    fight = state["play"]["battle"]
    if fight is None:
        return {}
    if fight["stage"] == "reroll":
        return _reroll_window_offers(state, fight)
    if fight["stage"] not in DEFENDER_WINDOWS:
        return {}
    defender = battle.side_player(state, fight, "D")
    attacker = battle.side_player(state, fight, "A")
    if defender is None or attacker is None or attacker not in state["play"]["prompts"]:
        return {}
    kind = fight["stage"].split("_")[0]
    slot = window_slot(cast(PlayView, state["play"]), kind, "D")
    return {defender: [(str(slot), WINDOW_KINDS[kind], f"your card window in this battle{AFTER_EARLIER}")]}


def _reroll_window_offers(state: PState, fight: Battle) -> Offers:
    """While Masovia is asked its reroll (resolution 15: die modifications, then the extra cards, the attacker
    first), each other side's extra-card window, on the dice as they stand (the reroll declined)."""
    asked = state["play"]["prompts"].get(battle.REROLLER)
    if asked is None or asked["kind"] != "reroll" or fight["rerolled"]:
        return {}
    if any(battle.can_flip(state, code) for code in fight["sides"].values() if active(state, code)):
        return {}  # a Learning Chess flip may come between: someone's decision on the dice
    found: Offers = {}
    for side in battle.SIDES:
        code = battle.side_player(state, fight, side)
        if code is not None and code != battle.REROLLER:
            slot = window_slot(cast(PlayView, state["play"]), "extra", side)
            found[code] = [
                (
                    str(slot),
                    WINDOW_KINDS["extra"],
                    "your extra cards in this battle, coming after Masovia's reroll",
                )
            ]
    return found


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
    title = f"your new Prince and where he stands{AFTER_EARLIER}"
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
    title = f"your pledges at this Common Council{AFTER_EARLIER}"
    return {
        code: [(common_council_slot(state["round"], code), "common_council", title)]
        for code in event["queue"][1:]
    }


def princess_slot(round_no: int, code: str) -> str:
    """The name of a player's Princess turn at a Period's start: the card she draws if sent home."""
    return f"princess-r{round_no}-{code}"


def _princess_offers(state: PState) -> Offers:
    """While a step of a Period's Princess queue is asked, the later players whose mission is still to come
    and may go to their own Capital: the deck of the card she draws there (the mission itself is answered ahead
    as a queued decision, ``princesses.ahead``; the card drawn is shown when it is drawn)."""
    play = state["play"]
    queue = play.get("princess_queue") or []
    if play["phase"] != "reveal" or not queue or queue[0]["who"] not in play["prompts"]:
        return {}
    title = "the card your Princess draws if she holds court in your Capital, coming after the missions before yours"
    return {
        entry["who"]: [(princess_slot(state["round"], entry["who"]), "princess_draw", title)]
        for entry in queue[1:]
        if entry["do"] == "send" and capital(entry["who"]) in princesses.legal_areas(state, entry["who"])
    }


def direction_slot(round_no: int, holder: str) -> str:
    """The name of the Princeps's choice of direction opening Round ``round_no`` (its holder's: should the
    token change hands before, the answer given ahead is not the new holder's and is not given)."""
    return f"direction-r{round_no}-{holder}"


def _direction_offers(state: PState) -> Offers:
    """The Princeps, while the last steps before the next Round's direction are asked, when no die or hidden
    card comes between: the queued icons of the History card (Division, Urbanization, Release, a Common
    Council) at the Round's end, or a Period's Prince changes."""
    play = state["play"]
    event = play.get("event")
    if play["phase"] == "end" and event is not None and state["round"] < play["last_round"]:
        icons = [event["icon"], *event["icons"]]
        if event["part"] != "icons" or any(icon not in history.QUEUED_ICONS for icon in icons):
            return {}
        round_no = state["round"] + 1
    elif play["phase"] == "direction" and play["succession"]:
        round_no = state["round"]
    else:
        return {}
    holder = state["princeps"]["holder"]
    title = "your turn order direction as the Princeps, given when the Round opens"
    return {holder: [(direction_slot(round_no, holder), "direction", title)]}


SOURCES: tuple[Callable[[PState], Offers], ...] = (_action_offers, _council_offers, _window_offers)


def _offers(state: PState) -> Offers:
    play = state.get("play")
    if play is None or play["result"] is not None:
        return {}
    sources = SOURCES
    if play["succession"]:
        sources = (_prince_offers, _direction_offers)  # the Prince changes come before anything else
    elif play.get("princess_queue"):
        sources = (_princess_offers,)  # the Princesses come before the History card and the plans
    elif play.get("event") is not None:
        sources = (_common_council_offers, _direction_offers)  # a History text or icon comes first
    found: Offers = {}
    for source in sources:
        for code, offers in source(state).items():
            if active(state, code) and code not in play["prompts"]:
                found.setdefault(code, []).extend(offers)
    return found


def comes_publicly(decision: Decision) -> bool:
    """Every turn but a player's later actions comes in sight at a moment the whole table sees: a Council's (and a
    Common Council's) pledges when it is summoned, a defender's window when the attacker's opens, the extra-card
    windows when Masovia's reroll is asked (in every battle of hers, whatever the die), a Period's Prince changes
    and Princess missions when the Period begins, the direction when the Round's last icons or the Prince changes
    begin, the Action I tokens when every plan is revealed (the log shows them all to everyone; a player offered
    its actions as it sealed its plan is not offered them again). A player's later actions come in sight when its
    action before ends, which may be answered automatically: offered with its own player's wait."""
    return decision.kind not in OWN_ACTIONS or decision.id.split("-")[2] == ROMAN[0]


def turn_ahead(state: PState) -> dict[int, list[Decision]]:
    """Each player's turns it may answer ahead now (``Game.turn_ahead``), nearest first: a decision's id is its
    turn's slot."""
    return {
        state["players"][code]["seat"]: [Decision(slot, kind, title) for slot, kind, title in offers]
        for code, offers in _offers(state).items()
    }


# ---- the preview --------------------------------------------------------------------------------------------


def _pose_action(preview: PState, code: str, slot: str) -> None:
    """The player's Action token of ``slot`` revealed and its action begun, the action in progress (and the
    player's own actions before it) left aside: the board as it stands. Posed while the plans are sealed, the
    other players' plans are unknown there (set aside: their tokens are never revealed in the preview, which
    stops where one would be, ``rules.engine.turn_ahead.Unseen``)."""
    play = preview["play"]
    token = ROMAN.index(slot.split("-")[2])
    plan = preview["players"][code]["plan"]
    assert plan is not None, "an action turn is offered for a sealed plan's token still to reveal"
    if play["phase"] == "plan":
        for other, player in preview["players"].items():
            player["plan"] = player["plan"] if other == code else None
        play["phase"] = "actions"
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


def _pose_princess(preview: PState, code: str, slot: str) -> None:
    """The Princess steps before the player's mission left aside, and the mission sent to its own Capital."""
    play = preview["play"]
    queue = play["princess_queue"]
    mission = next(i for i, entry in enumerate(queue) if entry["do"] == "send" and entry["who"] == code)
    play["princess_queue"] = queue[mission + 1 :]
    princesses.send(Ctx(preview, NoChance()), code, capital(code))


def _pose_direction(preview: PState, code: str, slot: str) -> None:
    """The History icons and the Round's end worked out, the Prince changes left aside: the direction comes."""
    play = preview["play"]
    if play["phase"] == "end":
        play["event"] = None
        end_round(Ctx(preview, NoChance()))
    play["succession"] = []


def _pose_window(preview: PState, code: str, slot: str) -> None:
    """The windows before the player's passed: the attacker's (the defender's comes), or Masovia's reroll
    declined (the attacker's extra cards come, or the defender's when Masovia attacks)."""
    fight = preview["play"]["battle"]
    assert fight is not None
    if fight["stage"] in DEFENDER_WINDOWS:
        fight["stage"] = DEFENDER_WINDOWS[fight["stage"]]
        return
    fight["rerolled"] = True
    fight["stage"] = "extra_" + slot.rsplit("-", 1)[1]


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
        "princess_draw": _pose_princess,
        "direction": _pose_direction,
    }
    try:
        pose.get(decision.kind, _pose_action)(preview, code, slot)
        advance(Ctx(preview, NoChance()))
    except (ReplayMismatch, Unseen):
        return None
    if reveals_hidden(state, preview, seat):
        return None
    posed = pending(preview).get(seat)
    if posed is None or turn_slot(cast(PView, preview), seat, posed) != decision.id:
        return None
    return preview


def turn_slot(view: PView, seat: int, decision: Decision) -> str | None:
    """The slot of the turn the seat's decision belongs to: its own action's decision, its pledges at a Council,
    its card window, its Prince change, its Princess's draw at home or its direction as the Princeps."""
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
    if play["phase"] == "reveal":
        return _princess_turn_slot(view, seat, decision)
    if play["phase"] == "direction":
        holding = decision.kind == "direction" and view["princeps"]["holder"] == principality_of(view, seat)
        return direction_slot(view["round"], view["princeps"]["holder"]) if holding else None
    if play["phase"] != "actions":
        return None
    if play["battle"] is not None:
        return _battle_turn_slot(view, play, seat, decision)
    action = play["action"]
    code = principality_of(view, seat)
    if action is None:
        return None
    if decision.kind == "council" and action["stage"] == "council" and action["queue"][:1] == [code]:
        return council_slot(play, view["round"], code)
    if decision.kind in ACTION_KINDS and action["who"] == code:
        return action_slot(view["round"], play["slot"], code)
    return None


def _battle_turn_slot(view: PView, play: PlayView, seat: int, decision: Decision) -> str | None:
    """The seat's card window in the battle in progress, when it may be answered ahead: the defender's, the
    attacker's extra cards (offered with Masovia's reroll), or the mover's first window (its action's turn)."""
    fight = play["battle"]
    assert fight is not None
    action, stage, code = play["action"], fight["stage"], principality_of(view, seat)
    if fight["sides"]["D"] == code and stage in DEFENDER_WINDOWS.values():
        windowed = decision.kind in WINDOW_KINDS.values()
        return window_slot(play, stage.split("_")[0], "D") if windowed else None
    if fight["sides"]["A"] == code and stage == "extra_A" and decision.kind == WINDOW_KINDS["extra"]:
        return window_slot(play, "extra", "A")  # offered while Masovia, defending, was asked its reroll
    # the mover's own 'before battle' window, before any die: still its action's turn
    moving = action is not None and action["who"] == code and fight["sides"]["A"] == code
    first_window = stage == "before_A" and decision.kind == "before_battle"
    return action_slot(view["round"], play["slot"], code) if moving and first_window else None


def _princess_turn_slot(view: PView, seat: int, decision: Decision) -> str | None:
    """The player's draw that its own mission causes at a Period's start (its first Round), else None (the
    second Round's draws are answered ahead as queued decisions, ``princesses.ahead``)."""
    play = cast(PlayView, view["play"])
    queue = play.get("princess_queue") or []
    code = principality_of(view, seat)
    mine = bool(queue) and queue[0]["do"] == "draw" and queue[0]["who"] == code
    mine = mine and decision.kind == "princess_draw"
    first_round = view["round"] % 2 == 1
    return princess_slot(view["round"], code) if mine and first_round else None


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
