"""The ``strong`` PRINCIPES AI: plays for the Princeps token at the end of the last Round (or a coronation).

It decides from its seat's view and the legal actions only. What it does beyond ``basic``:

- plans: scores each of the six actions from the view (gold, pools, free land in reach, the tracks) and the
  clock: in the last Round a player without the token keeps Politics last for the deciding Council, the holder
  keeps Politics to draw cards for its defence and avoids Taxes (they cost People right before the vote);
- Councils: the host summons one only when its hand can make it lead, pledges what it needs; a rival in the
  card phase pledges to push the host below the tracks it needs whenever the token matters;
- movement: sends units one border at a time toward the best free land in reach (Might, gold, the other
  principality's power seat, the Clergy penalty), and attacks only with exact odds (36 die rolls, the land's
  shields) in its favour; the Prince stays home unless escorted into a sure win;
- battle windows: plays extra swords/shields when they turn the result, refuses passage to rivals;
- cards: keeps Court and Neighbour cards for the Councils; the hand limit sells Battle cards first.

Prompt kinds it does not know (added by other rules issues) fall back to the ``basic`` chooser.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..data import catalog
from ..schema import Battle, PView
from . import ai
from .ai_eval import (
    TRACK_MAX,
    acting,
    battle_odds,
    best_council_bonus,
    card_record,
    distances,
    fighters_of,
    foreign,
    fought,
    land_value,
    penalty_land,
    positions,
    qualifying,
    rivals,
    strength,
    tracks_needed,
)
from .battle import casualties, fortification
from .common import capital
from .currency import FREE_VERBS

View = PView
Chooser = Callable[[View, str, list[str], random.Random], str]
#: the order in which a plan performs its actions: gold first, units before they move, the Council last
PLAN_ORDER = ("taxes", "progress", "assembly", "building", "movement", "politics")
#: odds an attack needs; the Prince joins only sure fights
ATTACK_ODDS, PRINCE_ODDS = 0.7, 0.9
#: Movement operations before the AI settles (each is one border crossed by one unit)
MAX_MOVES = 16


def choose(view: View, seat: int, legal: Sequence[str], rng: random.Random) -> str:
    me = view["you"]["principality"]
    prompt = view["play"]["prompts"].get(me)
    answers = [a for a in legal if a.split()[0] not in FREE_VERBS] if prompt else list(legal)
    if not answers:
        answers = list(legal)
    if prompt is None:
        return _hand_limit(view, me, answers, rng)
    chooser = STRONG.get(prompt["kind"]) or ai.CHOOSERS.get(prompt["kind"])
    choice = chooser(view, me, answers, rng) if chooser else answers[0]
    return choice if choice in legal else answers[0]


# ---- the clock and the token -----------------------------------------------------------------------------


def last_round(view: View) -> bool:
    return bool(view["round"] >= view["play"]["last_round"])


def holder(view: View) -> str:
    return str(view["princeps"]["holder"])


def can_lead(view: View, me: str) -> bool:
    """Whether a Council I summon makes me lead: my hand's best raise against the rivals' tracks, each rival
    assumed to pledge half its hand on its best track (they answer in the card phase)."""
    bonus = best_council_bonus(view, me)
    others = {}
    for code in rivals(view, me):
        might, people, clergy = positions(view, code)
        spare = view["players"][code]["hand_size"] // 2
        others[code] = (might, min(TRACK_MAX, people + spare), min(TRACK_MAX, clergy + spare))
    if all(value >= TRACK_MAX for value in _raised(view, me, bonus)):
        return True
    return qualifying(view, me, bonus, others) >= tracks_needed(view, me)


def _raised(view: View, me: str, bonus: tuple[int, int, int]) -> tuple[int, ...]:
    return tuple(min(TRACK_MAX, v + b) for v, b in zip(positions(view, me), bonus, strict=True))


def _record(view: View, action: str) -> dict[str, Any]:
    """The catalog record of the hand card an action names (notation spells card ids in lower case)."""
    token = action.split()[1]
    card = next((c for c in view["you"]["hand"] if c.lower() == token), token.upper())
    return card_record(card)


# ---- plans ---------------------------------------------------------------------------------------------------


def choose_plan(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    score = plan_scores(view, me)
    noisy = {action: value + rng.random() * 0.3 for action, value in score.items()}
    chosen = sorted(sorted(noisy, key=noisy.__getitem__, reverse=True)[:3], key=PLAN_ORDER.index)
    plan = f"plan {' '.join(chosen)}"
    return plan if plan in answers else ai.choose_plan(view, view["you"]["seat"], answers, rng)


def plan_scores(view: View, me: str) -> dict[str, float]:
    """A value for each action this Round, read from the view."""
    player = view["players"][me]
    gold, people = player["gold"], player["people"]
    final = last_round(view)
    pool = sum(n for unit, n in view["supply"]["units"].get(me, {}).items() if unit in ("knight", "footman"))
    mine = positions(view, me)
    best_people = max([positions(view, code)[1] for code in rivals(view, me)] or [0])
    people_weight = 2.5 if people <= best_people + 1 else 1.2
    score = {
        "taxes": (0.6 * min(view["might"][me], 10) - people_weight) if people > 0 else -9.0,
        "assembly": (min(3, pool) * 0.9 + min(gold, 3) * 0.3) if pool else -4.0,
        "building": (2.0 + 0.35 * min(gold, 7)) if gold >= 2 else -3.0,
        "movement": 1.5 + _movement_prospect(view, me),
        "politics": 2.2 + (0.5 if len(view["you"]["hand"]) < 3 else 0.0),
        "progress": 0.8 + 0.6 * view["period"],
    }
    if gold <= 1:
        score["taxes"] += 2.5
    if mine[0] >= TRACK_MAX:
        score["building"] -= 1.0
    if final:
        score["taxes"] = -6.0 if people <= best_people + 1 else score["taxes"] - 3.0
        score["assembly"] -= 2.0  # units assembled now only defend
        score["progress"] -= 0.5
        score["politics"] += 20.0 if holder(view) != me else 3.0
    elif holder(view) != me and can_lead(view, me):
        score["politics"] += 2.5 + (2.0 if view["round"] == view["play"]["last_round"] - 1 else 0.0)
    return score


def _movement_prospect(view: View, me: str) -> float:
    """The best gains in reach: free lands worth taking and fights with good odds, capped."""
    gains = sorted((gain for gain, _move in _candidate_moves(view, me, planning=True)), reverse=True)
    return min(4.0, sum(gains[:3]) / 2.0)


# ---- Politics and the Council --------------------------------------------------------------------------------


def _politics(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    if "council" in answers and (can_lead(view, me) or (last_round(view) and holder(view) != me)):
        if not (holder(view) == me and not _coronation_in_reach(view, me)):
            return "council"
    plays = [a for a in answers if a.startswith("play ") and _track_text(view, a)]
    if plays:
        return plays[0]
    return "draw 3 court" if "draw 3 court" in answers else ai._politics(view, me, answers, rng)


def _coronation_in_reach(view: View, me: str) -> bool:
    return all(value >= TRACK_MAX for value in _raised(view, me, best_council_bonus(view, me)))


def _track_text(view: View, action: str) -> bool:
    """A Court text whose whole effect is a track gain for the player (worth it before drawing)."""
    effect = str(_record(view, action).get("effect", ""))
    return effect.startswith("gain_track(self") and ";" not in effect


def _return(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Give back the drawn card worth least: Council texts and 'either' support cards are kept."""

    def worth(action: str) -> float:
        record = _record(view, action)
        value = 1.0 + (1.5 if record.get("timing") == "council" else 0.0)
        return value + (0.5 if record.get("support") == "either" else 0.0)

    return min(answers, key=lambda a: (worth(a), a))


def _council(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    host = view["play"]["council"] or acting(view)["who"]
    if host == me:
        return _host_pledge(view, me, answers)
    return _defend(view, me, host, answers)


def _pledge_options(view: View, answers: list[str]) -> list[tuple[str, str, int]]:
    """(action, track, amount) for every pledge and every Council text that raises a track by 2."""
    result = []
    for action in answers:
        words = action.split()
        if words[0] == "pledge":
            result.append((action, words[2], 1))
        elif words[0] == "play":
            effect = str(_record(view, action).get("effect", ""))
            for track in ("people", "clergy"):
                if effect == f"gain_track(self, {track}, 2)":
                    result.append((action, track, 2))
    return result


def _host_pledge(view: View, me: str, answers: list[str]) -> str:
    """Raise the tracks that make me lead: first the ones I am behind on by the least, then margin."""
    needed = tracks_needed(view, me)
    mine = positions(view, me)
    best = _best_other(view, me)
    options = [(a, t, n) for a, t, n in _pledge_options(view, answers) if mine[_index(t)] < TRACK_MAX]
    if not options:
        return "done"
    leading = qualifying(view, me)
    if leading >= needed and not last_round(view) and _margin_safe(view, me):
        return "done"
    if all(value >= TRACK_MAX for value in _raised(view, me, best_council_bonus(view, me))):
        return max(options, key=lambda o: (o[2], o[0]))[0]

    def gap(option: tuple[str, str, int]) -> tuple[int, int, str]:
        index = _index(option[1])
        behind = best[index] - mine[index]
        return (0 if behind >= 0 else 1, behind if behind >= 0 else -behind, option[0])

    return min(options, key=gap)[0]


def _margin_safe(view: View, me: str) -> bool:
    """No rival still to answer in this Council's card phase could undo my lead."""
    queue = acting(view).get("queue", [])
    later = [code for code in queue[1:] if code != me]
    return not any(view["players"][code]["hand_size"] for code in later)


def _best_other(view: View, me: str) -> tuple[int, int, int]:
    table = [positions(view, code) for code in rivals(view, me)] or [(0, 0, 0)]
    return (max(row[0] for row in table), max(row[1] for row in table), max(row[2] for row in table))


def _index(track: str) -> int:
    return ("might", "people", "clergy").index(track)


def _defend(view: View, me: str, host: str, answers: list[str]) -> str:
    """Pledge so the host leads on fewer tracks than it needs, when the token is worth the cards."""
    options = _pledge_options(view, answers)
    if not options:
        return "done"
    stake = holder(view) == me or len(view["players"]) == 2 or last_round(view)
    if not stake:
        return "done"
    host_pos = positions(view, host)
    mine = positions(view, me)
    queue = acting(view).get("queue", [])
    host_after = host in queue[1:]
    spare = view["players"][host]["hand_size"] if host_after else 0
    leading = qualifying(view, host, others={me: mine})
    if leading < tracks_needed(view, host) and not spare:
        return "done"
    best_move, best_key = "done", None
    for action, track, amount in options:
        index = _index(track)
        if mine[index] >= TRACK_MAX or mine[index] > host_pos[index] + spare:
            continue
        raised = list(mine)
        raised[index] = min(TRACK_MAX, raised[index] + amount)
        might, people, clergy = raised
        key = (
            qualifying(view, host, others={me: (might, people, clergy)}),
            host_pos[index] - mine[index],
            -amount,
            action,
        )
        if best_key is None or key < best_key:
            best_move, best_key = action, key
    if best_key is None:
        return "done"
    if best_key[0] >= leading and not last_round(view) and not spare:
        return "done"  # this card changes nothing: keep it
    return best_move


# ---- the hand --------------------------------------------------------------------------------------------------


def _hand_limit(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Sell Battle cards without a use first; otherwise raise the track where I lag most."""
    sells = [a for a in answers if a.startswith("sell ")]
    battle_sells = [a for a in sells if _record(view, a)["deck"] == "battle"]
    if battle_sells:
        return sorted(battle_sells)[0]
    supports = [a for a in answers if a.startswith("support ")]
    mine, best = positions(view, me), _best_other(view, me)
    useful = [a for a in supports if mine[_index(a.split()[2])] < TRACK_MAX]
    if useful:
        return min(useful, key=lambda a: (mine[_index(a.split()[2])] - best[_index(a.split()[2])], a))
    return sells[0] if sells else answers[0]


# ---- Movement ------------------------------------------------------------------------------------------------


def _groups(view: View, me: str, planning: bool) -> list[tuple[str, str, int]]:
    """(unit, land, Movement Points left) of the units that may still move; while planning, every unit at
    full reach."""
    if planning:
        reach = {"knight": 3, "prince": 3, "footman": 2}
        return [
            (unit, land, reach[unit])
            for land, state in sorted(view["lands"].items())
            for unit, n in state["units"].get(me, {}).items()
            if n and unit in reach
        ]
    pieces = acting(view)["pieces"]
    return sorted({(p["type"], p["at"], p["mp"]) for p in pieces if p["mp"] > 0 and not p["stopped"]})


class _Reach:
    """One decision's memo of the map questions movement asks many times: where a unit can go from a land
    with so many Movement Points, and what a fight for a land is worth."""

    def __init__(self, view: View, me: str) -> None:
        self.view, self.me = view, me
        self._distances: dict[tuple[str, int], dict[str, tuple[int, str]]] = {}
        self._fights: dict[str, float] = {}

    def distances(self, origin: str, reach: int) -> dict[str, tuple[int, str]]:
        key = (origin, reach)
        if key not in self._distances:
            self._distances[key] = distances(self.view, origin, self.me, reach)
        return self._distances[key]

    def fight(self, target: str) -> float:
        if target not in self._fights:
            self._fights[target] = _fight_gain(self, target)
        return self._fights[target]


def _candidate_moves(view: View, me: str, planning: bool = False) -> list[tuple[float, str]]:
    """(gain, first step) for each unit group and each worthwhile destination."""
    result = []
    memo = _Reach(view, me)
    for unit, origin, reach in _groups(view, me, planning):
        if unit == "prince" or _must_guard(view, me, origin, unit):
            continue
        for target, (steps, first) in memo.distances(origin, reach).items():
            if steps == 0:
                continue
            gain = _target_gain(memo, target)
            if gain > 0.3:
                result.append((gain - 0.05 * steps, f"move {unit} {origin} {first}"))
    return result


def _must_guard(view: View, me: str, origin: str, unit: str) -> bool:
    """The last fighter beside the Prince, or the last unit on a land held only by presence, stays."""
    units = fighters_of(view["lands"][origin]["units"].get(me, {}))
    others = sum(units.values()) - 1
    if units.get("prince") and others <= 1 and unit != "prince":
        return True
    owner = catalog().lands[origin]["principality"]
    if owner != me and others == 0 and land_value(view, origin, me) >= 2:
        return True
    return origin == capital(me) and others == 0


def _target_gain(memo: _Reach, target: str) -> float:
    """What sending a unit toward ``target`` is worth: a free land's value, or the fight's."""
    view, me = memo.view, memo.me
    control = view["control"].get(target)
    if foreign(view, target, me):
        return memo.fight(target)
    if control == me:
        return 0.0
    value = land_value(view, target, me) + _threat(view, me, control)
    if penalty_land(view, target, me):
        value -= 1.2
    return value * 0.8


def _fight_gain(memo: _Reach, target: str) -> float:
    """Every unit of mine that can reach the land joins; worth it only with the odds in my favour."""
    view, me = memo.view, memo.me
    enemies = foreign(view, target, me)
    attackers = _attackers_in_reach(memo, target)
    if not attackers or len(enemies) > 1:
        return 0.0
    defenders = fighters_of(view["lands"][target]["units"][enemies[0]])
    odds, lost, killed = battle_odds(view, target, attackers, defenders)
    if odds < ATTACK_ODDS:
        return 0.0
    worth = land_value(view, target, me) + _threat(view, me, view["control"].get(target))
    value = worth * odds + killed * 0.6 - lost * 0.8 + (odds - 0.5) * 2.0
    return value - (1.2 if penalty_land(view, target, me) else 0.0)


def _threat(view: View, me: str, owner: str | None) -> float:
    """Extra worth of a land taken from the rival who threatens to win: the Princeps (who wins if the game
    ends now) or one close to a coronation."""
    if owner is None or owner == me or owner not in view["players"] or view["players"][owner]["eliminated"]:
        return 0.0
    near_crown = sum(value >= TRACK_MAX - 1 for value in positions(view, owner)) >= 2
    return 1.5 if owner == holder(view) or near_crown else 0.0


def _attackers_in_reach(memo: _Reach, target: str) -> dict[str, int]:
    """My fighters (not the Prince) that can reach ``target`` this Movement, those already there included."""
    view, me = memo.view, memo.me
    action = view["play"]["action"]
    pieces = action.get("pieces") if action and action.get("kind") == "movement" else None
    force: dict[str, int] = {}
    if pieces is None:  # planning: every unit at full reach
        for land, state in view["lands"].items():
            for unit, n in fighters_of(state["units"].get(me, {})).items():
                if unit != "prince" and target in memo.distances(land, 3 if unit == "knight" else 2):
                    force[unit] = force.get(unit, 0) + n
        return force
    for piece in pieces:
        if piece["type"] == "prince":
            continue
        if piece["at"] == target or (
            not piece["stopped"] and piece["mp"] > 0 and target in memo.distances(piece["at"], piece["mp"])
        ):
            force[piece["type"]] = force.get(piece["type"], 0) + 1
    return force


def _movement(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    action = acting(view)
    if action["ops"] >= MAX_MOVES:
        return "done" if "done" in answers else answers[-1]
    candidates = [(gain, move) for gain, move in _candidate_moves(view, me) if move in answers]
    if not candidates:
        return "done" if "done" in answers else answers[-1]
    return max(candidates, key=lambda c: (c[0], c[1]))[1]


def _consent(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Rivals' armies do not pass."""
    return "deny"


def penalty_payment(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Pay gold rather than Clergy while gold is plentiful or Clergy is contested."""
    player = view["players"][me]
    clergy_contested = player["clergy"] <= _best_other(view, me)[2] + 1
    rich = player["gold"] >= (2 if clergy_contested else 4)
    wanted = [a for a in answers if a.endswith("gold" if rich else "clergy")]
    return sorted(wanted or answers)[0]


# ---- battles -----------------------------------------------------------------------------------------------------


def _side(view: View, me: str) -> str:
    return "A" if fought(view)["sides"]["A"] == me else "D"


def extra_when_decisive(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Play an extra sword or shield when it turns the battle my way (computed on the rolled dice)."""
    battle = fought(view)
    side = _side(view, me)
    now = _battle_won(view, battle, side, (0, 0))
    if now:
        return "pass"
    for action in sorted(a for a in answers if a.startswith("extra ")):
        symbol = action.split()[2]
        if _battle_won(view, battle, side, (1, 0) if symbol == "sword" else (0, 1)):
            return action
    return "pass"


def _battle_won(view: View, battle: Battle, side: str, extra: tuple[int, int]) -> bool:
    """Whether ``side`` wins with the rolled dice and the cards so far, plus ``extra`` (swords, shields)."""

    def total(s: str) -> tuple[int, int]:
        units = battle["units"][s]
        die = battle["dice"][s] or []
        swords = strength(units) + die.count("sword") + battle["extra"][s][0] + battle["bonus"][s][0]
        shields = die.count("shield") + battle["extra"][s][1] + battle["bonus"][s][1]
        if s == side:
            swords, shields = swords + extra[0], shields + extra[1]
        if s == "D":
            shields += fortification(view, battle["land"], tuple(battle.get("ignore", ())))
        return swords, shields

    a_sw, a_sh = total("A")
    d_sw, d_sh = total("D")
    lost_d = sum(casualties(battle["units"]["D"], max(0, a_sw - d_sh))[0].values())
    lost_a = sum(casualties(battle["units"]["A"], max(0, d_sw - a_sh))[0].values())
    wiped_d = lost_d == sum(battle["units"]["D"].values())
    wiped_a = lost_a == sum(battle["units"]["A"].values())
    won_a = (wiped_d and not wiped_a) or (not wiped_a and not wiped_d and lost_d > lost_a)
    return won_a if side == "A" else not won_a


def before_card_for_my_side(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """A 'before battle' card whose text helps my side (defender-only texts when defending)."""
    side = _side(view, me)
    for action in sorted(a for a in answers if a.startswith("before ")):
        effect = str(_record(view, action).get("effect", ""))
        if ("if(defender" in effect and side != "D") or ("if(attacker" in effect and side != "A"):
            continue
        return action
    return "pass"


def reroll_when_losing(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    battle = fought(view)
    side = _side(view, me)
    return "keep" if _battle_won(view, battle, side, (0, 0)) else "reroll"


def flip_when_losing(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    battle = fought(view)
    side = _side(view, me)
    return "keep" if _battle_won(view, battle, side, (0, 0)) else "flip"


def _block(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """Block a rival's Neighbour army when it could reach my lands."""
    blocks = sorted(a for a in answers if a.startswith("block"))
    return blocks[0] if blocks else "pass"


def withdraw_toward_value(view: View, me: str, answers: list[str], rng: random.Random) -> str:
    """My own units withdraw toward the land worth most to me (my Capital, then Might); units I decide for
    (a Neighbour, a neutral principality, the Mongols) go home when they may, else where they are worth least
    to me. Answers that name no land (``home``) rank last for my own units."""
    lands = view["lands"]
    battle = view["play"].get("battle")
    loser = None
    if battle:
        sides = battle.get("sides") or {}
        loser = sides.get("D" if battle.get("winner") == "A" else "A")
    if loser is not None and loser != me:
        home = [a for a in answers if a.split()[-1] not in lands]
        if home:
            return sorted(home)[0]
        return min(answers, key=lambda a: (land_value(view, a.split()[-1], me), a))
    return max(
        answers, key=lambda a: (land_value(view, a.split()[-1], me) if a.split()[-1] in lands else -99.0, a)
    )


STRONG: dict[str, Chooser] = {
    "plan": choose_plan,
    "politics": _politics,
    "politics_return": _return,
    "council": _council,
    "movement": _movement,
    "consent": _consent,
    "clergy_penalty": penalty_payment,
    "extra_cards": extra_when_decisive,
    "before_battle": before_card_for_my_side,
    "reroll": reroll_when_losing,
    "flip": flip_when_losing,
    "neighbour_block": _block,
    "withdraw": withdraw_toward_value,
    "culmen_withdraw": withdraw_toward_value,
}

ai.LEVELS["strong"] = choose
