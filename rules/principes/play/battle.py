"""Battles: the rulebook's pipeline, one stage at a time.

``state["play"]["battle"]`` holds the battle in progress: the land, side ``A`` (the mover, always the attacker;
resolution 13) and side ``D``, the units each side brought, the cards played, the dice and the stage:

before_A -> before_D -> roll -> reroll -> extra_A -> extra_D -> resolve -> withdraw -> after -> draw -> done

Only sides played by an active player get card windows (neutral factions play no cards, the player rolls both
dice). Damage is assigned infantry, cavalry, Princes, with wounds and loose wounds (resolution 16); extra shields
first cancel loose wounds, then raise units in reverse order, which is the same as recounting the damage.
"""

from __future__ import annotations

from itertools import combinations

from ..data import MONGOLS, catalog
from ..schema import Battle, Board, PState
from ..state import controllers
from .building import queue_army_destruction, queue_destruction
from .common import (
    CAVALRY,
    FIGHTERS,
    Ctx,
    active,
    add_units,
    card_id_from,
    card_record,
    card_title,
    change_track,
    draw,
    fighters,
    gain_gold,
    land_name,
    name,
    occupants,
    pay_gold,
    prompt,
    to_deck_bottom,
    to_pool,
)
from .dynasty import prince_died, queue_respawn
from .effects_engine import Effect, affordable, fire, reachable, rule_terms, run
from .princes import coin_loot

SIDES = ("A", "D")
OTHER = {"A": "D", "D": "A"}
GORD_SHIELDS, CITY_SHIELDS, CASTLE_SHIELDS = 1, 2, 2
REROLLER = "MAS"  # With the Wind: Masovia may reroll its die once per battle


def start(ctx: Ctx, land: str, attacker: str) -> None:
    state = ctx.state
    defender = next(f for f in occupants(state, land) if f != attacker)
    ctx.play["battles"] += 1
    mover = ctx.play["action"]["who"] if ctx.play["action"] else attacker
    ctx.play["battle"] = {
        "no": ctx.play["battles"],
        "land": land,
        "sides": {"A": attacker, "D": defender},
        "mover": mover,
        "stage": "before_A",
        "units": {
            "A": fighters(dict(state["lands"][land]["units"][attacker])),
            "D": fighters(dict(state["lands"][land]["units"][defender])),
        },
        "cards": {"A": [], "D": []},
        "extra": {"A": [0, 0], "D": [0, 0]},
        "bonus": {"A": [0, 0], "D": [0, 0]},
        "dice": {"A": None, "D": None},
        "rerolled": False,
        "winner": None,
        "retreat": {},
        "deaths": [],
        "after_sealed": [],
        "used": [],
        "cancelled": [],
        "blocked": {},
        "ignore": [],
        "order": {},
        "people_lost": [],
        "withdrawn": {},
        "flipped": [],
    }
    ctx.log("battle", f"Battle in {land_name(land)}: {name(attacker)} attacks {name(defender)}.")


def side_player(state: PState, battle: Battle, side: str) -> str | None:
    faction = battle["sides"][side]
    return faction if active(state, faction) else None


def unit_count(battle: Battle, side: str) -> int:
    return sum(battle["units"][side].values())


# ---- the stages --------------------------------------------------------------------------------------------


def step(ctx: Ctx) -> None:
    battle = ctx.battle
    stage = battle["stage"]
    if stage in ("before_A", "before_D", "extra_A", "extra_D"):
        _window(ctx, battle, stage)
    elif stage == "roll":
        _roll(ctx, battle)
    elif stage == "reroll":
        _offer_reroll(ctx, battle)
    elif stage == "resolve":
        _resolve(ctx, battle)
    elif stage == "withdraw":
        _withdraw_step(ctx, battle)
    elif stage == "after":
        _after_window(ctx, battle)
    elif stage == "draw":
        _draw(ctx, battle)


NEXT = {"before_A": "before_D", "before_D": "roll", "extra_A": "extra_D", "extra_D": "resolve"}


def _window(ctx: Ctx, battle: Battle, stage: str) -> None:
    kind, side = stage.split("_")
    code = side_player(ctx.state, battle, side)
    if code is None or not window_open(ctx, battle, kind, side):
        battle["stage"] = NEXT[stage]
        if stage == "before_D":
            apply_before_cards(ctx, battle)
        return
    if kind == "before":
        prompt(
            ctx,
            code,
            "before_battle",
            f"Battle in {land_name(battle['land'])}: play 'before battle' "
            "cards (at most one per unit you have there), or pass.",
            timing="window",
        )
    else:
        prompt(
            ctx,
            code,
            "extra_cards",
            f"Battle in {land_name(battle['land'])}: play Battle cards for an "
            "extra sword or shield (at most one per unit), or pass.",
            timing="window",
        )


WINDOW_NAMES = {"before": "before_battle", "extra": "extra_phase"}


def blocked(ctx: Ctx, battle: Battle, side: str, window: str) -> bool:
    """Whether a card of the other side (Night March) closes this side's window."""
    other = OTHER[side]
    return any(
        term.args[1].name == window
        for card in battle["cards"][other]
        if card not in battle["cancelled"]
        for term in reachable(Effect(ctx, battle["sides"][other], card, battle, other), "block_window")
    )


def window_open(ctx: Ctx, battle: Battle, kind: str, side: str) -> bool:
    """Whether the side may still play in this window for public reasons (one card per unit, no Night March):
    the window is then offered whatever the hand holds, so neither the prompt nor its absence reveals it."""
    played = len(battle["cards"][side]) if kind == "before" else sum(battle["extra"][side])
    return played < unit_count(battle, side) and not blocked(ctx, battle, side, WINDOW_NAMES[kind])


def window_options(ctx: Ctx, code: str, battle: Battle, kind: str, side: str) -> list[str]:
    hand = ctx.state["players"][code]["hand"]
    result: list[str] = []
    if window_open(ctx, battle, kind, side):
        for card in hand:
            record = card_record(card)
            if record["deck"] != "battle":
                continue
            if kind == "before" and record["timing"] == "before_battle" and affordable(ctx.state, code, card):
                result.append(f"before {card.lower()}")
            elif kind == "extra":
                corner = record["corner"]
                result += [
                    f"extra {card.lower()} {sym}" for sym in ("sword", "shield") if corner in (sym, "either")
                ]
    return result + ["pass"]


def window_answers(ctx: Ctx, code: str) -> list[str]:
    """The answers of the card window open now (``before_battle`` or ``extra_cards``, by the battle's stage)."""
    battle = ctx.battle
    kind, side = battle["stage"].split("_")
    return window_options(ctx, code, battle, kind, side)


def window_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    battle = ctx.battle
    stage = battle["stage"]
    side = stage.split("_")[1]
    if words == ["pass"]:
        battle["stage"] = NEXT[stage]
        if stage == "before_D":
            apply_before_cards(ctx, battle)
        return
    card = card_id_from(ctx.state, code, words[1])
    assert card is not None
    ctx.state["players"][code]["hand"].remove(card)
    battle["used"].append(card)  # shuffled under the deck after the battle (resolution 41)
    if words[0] == "before":
        battle["cards"][side].append(card)
        ctx.log(
            "battle_card",
            f"{name(code)} plays {card_title(card)} before the battle: {card_record(card)['text']}",
        )
    else:
        battle["extra"][side][0 if words[2] == "sword" else 1] += 1
        ctx.log("battle_extra", f"{name(code)} plays a Battle card for an extra {words[2]}.")


def apply_before_cards(ctx: Ctx, battle: Battle) -> None:
    """Both sides have played: Scouts cancel an opponent's card (the first one played that is not a Scouts),
    then every remaining card's text applies in play order, then the held 'before battle' tiles (Town Walls)."""
    for side in SIDES:
        for card in battle["cards"][side]:
            if card in battle["cancelled"] or not reachable(
                Effect(ctx, battle["sides"][side], card, battle, side), "cancel_card"
            ):
                continue
            victims = [
                c
                for c in battle["cards"][OTHER[side]]
                if c not in battle["cancelled"]
                and not reachable(
                    Effect(ctx, battle["sides"][OTHER[side]], c, battle, OTHER[side]), "cancel_card"
                )
            ]
            if victims:
                battle["cancelled"].append(victims[0])
                ctx.log("card_cancelled", f"{card_title(card)} cancels {card_title(victims[0])}.")
    for side in SIDES:
        for card in battle["cards"][side]:
            if card not in battle["cancelled"]:
                run(Effect(ctx, battle["sides"][side], card, battle, side))
        code = side_player(ctx.state, battle, side)
        if code is not None:
            fire(ctx, code, "before_battle", battle, side)


def _face(ctx: Ctx) -> list[str]:
    faces: list[list[str]] = catalog().setup["die"]["faces"]
    return list(faces[ctx.rng.roll(len(faces)) - 1])


def rolled(battle: Battle, side: str) -> list[str]:
    """The face ``side``'s die shows, once the dice are rolled."""
    die = battle["dice"][side]
    assert die is not None, "the dice were rolled"
    return die


def _roll(ctx: Ctx, battle: Battle) -> None:
    attacker, defender = _face(ctx), _face(ctx)
    battle["dice"] = {"A": attacker, "D": defender}
    ctx.log(
        "dice",
        f"Dice in {land_name(battle['land'])}: attacker {'+'.join(attacker)}, defender {'+'.join(defender)}.",
    )
    damage = damages(ctx.state, battle)
    ctx.log(
        "casualties",
        f"Initial count: {damage['D']} damage to {name(battle['sides']['D'])}, "
        f"{damage['A']} to {name(battle['sides']['A'])}.",
    )
    battle["stage"] = "reroll"


def _offer_reroll(ctx: Ctx, battle: Battle) -> None:
    """Die modifications after the initial count, attacker then defender (resolution 15): Masovia's reroll,
    then Learning Chess's flip."""
    for side in SIDES:
        if (
            battle["sides"][side] == REROLLER
            and side_player(ctx.state, battle, side)
            and not battle["rerolled"]
        ):
            prompt(
                ctx,
                REROLLER,
                "reroll",
                f"With the Wind: your die shows {'+'.join(rolled(battle, side))}. "
                "Reroll it once, or keep it?",
                timing="window",
            )
            return
    for side in SIDES:
        code = side_player(ctx.state, battle, side)
        if code is not None and side not in battle["flipped"] and can_flip(ctx.state, code):
            prompt(
                ctx,
                code,
                "flip",
                f"Learning Chess: your die shows {'+'.join(rolled(battle, side))}. Flip it "
                f"to its opposite face ({'+'.join(opposite(rolled(battle, side)))}), or keep it?",
                timing="window",
            )
            return
    battle["stage"] = "extra_A"


def can_flip(state: PState, code: str) -> bool:
    return any(term.args[0].name == "own" for term in rule_terms(state, code, "flip_die"))


def opposite(face: list[str]) -> list[str]:
    """The opposite face of the battle die (opposite pairs 1-3, 2-4, 5-6)."""
    die = catalog().setup["die"]
    number = die["faces"].index(face) + 1
    for first, second in die["opposite"]:
        if number in (first, second):
            return list(die["faces"][(second if number == first else first) - 1])
    return face


def flip_options(ctx: Ctx, code: str) -> list[str]:
    return ["flip", "keep"]


def flip_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    battle = ctx.battle
    side = "A" if battle["sides"]["A"] == code else "D"
    battle["flipped"].append(side)
    if words == ["flip"]:
        battle["dice"][side] = opposite(rolled(battle, side))
        ctx.log("flip", f"{name(code)} flips its die (Learning Chess): {'+'.join(rolled(battle, side))}.")


def reroll_options(ctx: Ctx, code: str) -> list[str]:
    return ["reroll", "keep"]


def reroll_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    battle = ctx.battle
    battle["rerolled"] = True
    if words == ["reroll"]:
        side = "A" if battle["sides"]["A"] == REROLLER else "D"
        battle["dice"][side] = _face(ctx)
        ctx.log("reroll", f"Masovia rerolls with the wind: {'+'.join(rolled(battle, side))}.")


# ---- counting ----------------------------------------------------------------------------------------------


def fortification(state: Board, land: str, ignore: tuple[str, ...] = ()) -> int:
    """The defender's shields: 1 per gord, 2 per City, +2 for a Castle (both gords count in W. Pomerania);
    ``ignore`` drops the settlement or Castle shields (Siege Engines)."""
    land_state = state["lands"][land]
    shields = sum(
        CITY_SHIELDS if gord["id"] in land_state["cities"] else GORD_SHIELDS
        for gord in catalog().lands[land]["gords"]
    )
    castle = CASTLE_SHIELDS if land_state["building"] == "castle" else 0
    return (0 if "settlement" in ignore else shields) + (0 if "castle" in ignore else castle)


def swords_and_shields(state: Board, battle: Battle, side: str) -> tuple[int, int]:
    units = battle["units"][side]
    swords = sum(count * (2 if unit in CAVALRY else 1) for unit, count in units.items())
    die = battle["dice"][side] or []
    swords += die.count("sword") + battle["extra"][side][0] + battle["bonus"][side][0]
    shields = die.count("shield") + battle["extra"][side][1] + battle["bonus"][side][1]
    if side == "D":
        shields += fortification(state, battle["land"], tuple(battle.get("ignore", ())))
    return swords, shields


def damages(state: PState, battle: Battle) -> dict[str, int]:
    """Damage each side takes: the other side's swords minus its own shields."""
    a_swords, a_shields = swords_and_shields(state, battle, "A")
    d_swords, d_shields = swords_and_shields(state, battle, "D")
    return {"D": max(0, a_swords - d_shields), "A": max(0, d_swords - a_shields)}


CAVALRY_FIRST = ("knight", "footman", "prince")


def casualties(units: dict[str, int], damage: int, order: str = "") -> tuple[dict[str, int], int, int]:
    """Toppled units by type, the wound on the next cavalry unit (0/1) and loose wounds (resolution 16);
    ``cavalry_first`` (Feigned Retreat) topples Knights before infantry, Princes still last."""
    toppled = {unit: 0 for unit in FIGHTERS}
    wound = 0
    for unit in CAVALRY_FIRST if order == "cavalry_first" else FIGHTERS:
        cost = 2 if unit in CAVALRY else 1
        for _ in range(units.get(unit, 0)):
            if damage >= cost:
                toppled[unit] += 1
                damage -= cost
            elif damage > 0:
                wound, damage = damage, 0
    return {unit: n for unit, n in toppled.items() if n}, wound, damage


def winner(battle: Battle, toppled: dict[str, dict[str, int]]) -> str:
    """All enemies toppled with one unit standing wins; otherwise more toppled wins; ties to the defender."""
    lost = {side: sum(toppled[side].values()) for side in SIDES}
    wiped = {side: lost[side] == unit_count(battle, side) for side in SIDES}
    if wiped["D"] and not wiped["A"]:
        return "A"
    if wiped["A"]:
        return "D"
    return "A" if lost["D"] > lost["A"] else "D"


# ---- resolution --------------------------------------------------------------------------------------------


def _steal(ctx: Ctx, battle: Battle) -> None:
    """A coin face steals 1 gold on the final faces (resolution 14)."""
    for side in SIDES:
        if "coin" not in rolled(battle, side):
            continue
        thief, victim = (side_player(ctx.state, battle, s) for s in (side, OTHER[side]))
        if thief is None and victim is None:
            continue
        if victim is not None and vault(ctx.state, victim):
            ctx.log("coin", f"{name(victim)}'s Treasury Vault: the coin face steals nothing.")
            continue
        loot = coin_loot(ctx.state, thief)  # Bolesław the Bald: 2
        if victim is not None and (loot := pay_gold(ctx, victim, loot)) == 0:
            continue
        if thief is not None:
            gain_gold(ctx, thief, loot)
        ctx.log(
            "coin",
            f"{name(battle['sides'][side])} loots {loot} gold from {name(battle['sides'][OTHER[side]])}.",
        )


def vault(state: PState, code: str) -> bool:
    """A held ``coin_steal(against_self, 0)`` tile: coin faces rolled against this player steal nothing."""
    return any(
        term.args[0].name == "against_self" and term.args[1].number == 0
        for term in rule_terms(state, code, "coin_steal")
    )


def _resolve(ctx: Ctx, battle: Battle) -> None:
    state = ctx.state
    _steal(ctx, battle)
    damage = damages(state, battle)
    toppled = {}
    for side in SIDES:
        toppled[side], wound, loose = casualties(
            battle["units"][side], damage[side], battle.get("order", {}).get(side, "")
        )
    win = winner(battle, toppled)
    battle["winner"] = win
    lose = OTHER[win]
    text = "; ".join(
        f"{name(battle['sides'][side])} loses "
        + (", ".join(f"{n} {unit}" for unit, n in toppled[side].items()) or "nothing")
        for side in SIDES
    )
    ctx.log(
        "battle_result", f"Battle in {land_name(battle['land'])}: {text}. {name(battle['sides'][win])} wins."
    )
    for side in SIDES:
        for unit, count in toppled[side].items():
            add_units(state, battle["land"], battle["sides"][side], unit, -count)
            _remove(ctx, battle, battle["sides"][side], unit, count)
    standing = fighters(dict(state["lands"][battle["land"]]["units"].get(battle["sides"][lose], {})))
    battle["retreat"] = standing
    for side, change in ((win, 1), (lose, -1)):
        code = side_player(state, battle, side)
        if code is not None:
            done = change_track(ctx, code, "people", change, "battle won" if change > 0 else "battle lost")
            if done < 0:
                battle["people_lost"].append(code)  # Orderly Retreat may give it back
    battle["stage"] = "withdraw"


def _remove(ctx: Ctx, battle: Battle, faction: str, unit: str, count: int) -> None:
    """Removed units go to their pool, or home (Neighbours), or off the map (Pomeranians beaten at home)."""
    state = ctx.state
    record = catalog().factions[faction]
    if record["group"] == "principality":
        to_pool(state, faction, unit, count)
        if unit == "prince":
            if active(state, faction):
                battle["deaths"].append(faction)
            else:
                queue_respawn(ctx, faction, _remover(state, battle, faction))
        return
    home = str(record.get("home"))
    if home in state["offmap"]:
        units = state["offmap"][home]["units"].setdefault(faction, {})
        units[unit] = units.get(unit, 0) + count
    elif home == battle["land"]:
        out = ctx.play["pomerania_out"].setdefault(faction, {})
        out[unit] = out.get(unit, 0) + count
    elif home in state["lands"]:
        add_units(state, home, faction, unit, count)
    else:
        to_pool(state, faction, unit, count)


def _remover(state: PState, battle: Battle, faction: str) -> str | None:
    """The player who removed ``faction``'s unit: the other side's, else the player who moved the units."""
    sides = battle.get("sides") or {}
    other = next((f for f in sides.values() if f != faction), None)
    for code in (other, battle.get("mover")):
        if code is not None and active(state, code):
            return str(code)
    return None


# ---- withdrawal (resolution 18) ----------------------------------------------------------------------------


HOME = "home"  # ``withdraw <unit> home``: beaten Neighbour units may go back to their area (resolution 51)


def retreat_lands(state: PState, land: str, faction: str) -> list[str]:
    """Adjacent lands the beaten ``faction`` controls: for a Neighbour, the lands only its units hold
    (resolution 51); for the Mongols, lands without units or tokens (resolution 29)."""
    if faction == MONGOLS:  # beaten Mongols may withdraw to a land without units or tokens (resolution 29)
        return mongol_refuges(state, land)
    if is_neighbour(faction):
        return sorted(near for near in catalog().adjacency[land] if occupants(state, near) == [faction])
    control = controllers(state)
    return sorted(near for near in catalog().adjacency[land] if control[near] == faction)


def mongol_refuges(state: PState, land: str) -> list[str]:
    """Where beaten Mongols may withdraw: adjacent lands without units, Cities, buildings or Division tokens."""
    result = []
    for near in sorted(catalog().adjacency[land]):
        near_state = state["lands"][near]
        if (
            not near_state["units"]
            and not near_state["cities"]
            and near_state["building"] is None
            and not near_state["division"]
        ):
            result.append(near)
    return result


def is_neighbour(faction: str) -> bool:
    record = catalog().factions.get(faction)
    return record is not None and record["group"] == "neighbour"


def won_by(battle: Battle) -> str:
    """The side that won the battle, once it is decided."""
    side = battle["winner"]
    assert side is not None, "the battle is decided"
    return side


def withdraw_decider(state: PState, battle: Battle) -> str | None:
    """The loser; for neutral units the player who moved them, else the player involved."""
    lose = OTHER[won_by(battle)]
    for code in (battle["sides"][lose], battle["mover"], battle["sides"][won_by(battle)]):
        if code is not None and active(state, code):
            return code
    return None


def _withdraw_step(ctx: Ctx, battle: Battle) -> None:
    state = ctx.state
    loser = battle["sides"][OTHER[won_by(battle)]]
    standing = battle["retreat"]
    if not any(standing.values()):
        battle["stage"] = "after"
        return
    group = catalog().factions[loser]["group"]
    targets = retreat_lands(state, battle["land"], loser) if group != "invader" or loser == MONGOLS else []
    decider = withdraw_decider(state, battle)
    if not targets or decider is None:
        for unit, count in standing.items():
            if count:
                add_units(state, battle["land"], loser, unit, -count)
                _remove(ctx, battle, loser, unit, count)
        if group == "principality":
            ctx.log("withdrawal", f"{name(loser)} has nowhere to withdraw: its standing units are removed.")
        battle["retreat"] = {}
        battle["stage"] = "after"
        return
    home = " or send them home" if is_neighbour(loser) else ""
    prompt(
        ctx,
        decider,
        "withdraw",
        f"Withdraw {name(loser)}'s standing units from "
        f"{land_name(battle['land'])} to adjacent lands it controls{home}, one unit at a time.",
    )


def withdraw_options(ctx: Ctx, battle: Battle) -> list[str]:
    """``withdraw <unit> <land>``; a Neighbour's units may instead go home (listed first: the default)."""
    loser = battle["sides"][OTHER[won_by(battle)]]
    targets = ([HOME] if is_neighbour(loser) else []) + retreat_lands(ctx.state, battle["land"], loser)
    return [
        f"withdraw {unit} {land}"
        for unit, count in sorted(battle["retreat"].items())
        if count
        for land in targets
    ]


def withdraw_answers(ctx: Ctx, code: str) -> list[str]:
    return withdraw_options(ctx, ctx.battle)


def withdraw_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    battle = ctx.battle
    loser = battle["sides"][OTHER[won_by(battle)]]
    unit, land = words[1], words[2]
    add_units(ctx.state, battle["land"], loser, unit, -1)
    if land == HOME:
        _remove(ctx, battle, loser, unit, 1)
        _retreated(battle, unit)
        ctx.log("withdrawal", f"The beaten {name(loser)} {unit.title()} goes home.")
        return
    add_units(ctx.state, land, loser, unit, 1)
    battle["withdrawn"].setdefault(unit, []).append(land)  # Pursuit may catch a withdrawing unit
    _retreated(battle, unit)
    ctx.log("withdrawal", f"{name(loser)} withdraws a {unit.title()} to {land_name(land)}.")


def _retreated(battle: Battle, unit: str) -> None:
    battle["retreat"][unit] -= 1
    if not battle["retreat"][unit]:
        del battle["retreat"][unit]


# ---- after the battle (resolutions 19 and 43) --------------------------------------------------------------


def after_cards(ctx: Ctx, code: str) -> list[str]:
    return [
        card
        for card in ctx.state["players"][code]["hand"]
        if card_record(card)["deck"] == "battle" and card_record(card)["timing"] == "after_battle"
    ]


def _after_window(ctx: Ctx, battle: Battle) -> None:
    seats = [code for side in SIDES if (code := side_player(ctx.state, battle, side))]  # whatever the hands
    if battle["after_sealed"] or not seats:
        _reveal_after(ctx, battle)
        return
    decision = f"after{battle['no']}-{ctx.play['seq'] + 1}"
    ctx.play["seq"] += 1
    for code in seats:
        prompt(
            ctx,
            code,
            "after_battle",
            "After the battle: choose your 'after battle' cards (both sides choose "
            "at the same time), or pass.",
            timing="window",
            sealed=True,
            decision_id=decision,
        )
    battle["after_sealed"] = seats


def after_options(ctx: Ctx, code: str) -> list[str]:
    cards = [card.lower() for card in after_cards(ctx, code)]
    return ["pass"] + [
        f"after {' '.join(c)}" for size in range(1, len(cards) + 1) for c in combinations(cards, size)
    ]


def after_answer(ctx: Ctx, code: str, words: list[str]) -> None:
    ctx.play["private"][code]["after"] = words[1:]
    ctx.log("after_sealed", f"{name(code)} has sealed its 'after battle' choice.")


def _reveal_after(ctx: Ctx, battle: Battle) -> None:
    for code in battle["after_sealed"]:
        chosen = ctx.play["private"][code].pop("after", [])
        if not active(ctx.state, code):
            continue
        side = "A" if battle["sides"]["A"] == code else "D"
        for token in chosen:
            card = card_id_from(ctx.state, code, token)
            if card is None:
                continue
            ctx.state["players"][code]["hand"].remove(card)
            to_deck_bottom(ctx.state, card)
            ctx.log(
                "after_card",
                f"{name(code)} plays {card_title(card)} after the battle: {card_record(card)['text']}",
            )
            run(Effect(ctx, code, card, battle, side))
    for side in SIDES:  # then the 'after battle' rules in force (a History text of this Round)
        if (player := side_player(ctx.state, battle, side)) is not None:
            fire(ctx, player, "after_battle", battle, side)
    battle["stage"] = "draw"


def _draw(ctx: Ctx, battle: Battle) -> None:
    """Each player who fought draws 1 Battle card; then the dead Princes' successions and destruction."""
    used = list(battle["used"])
    ctx.rng.shuffle(used)
    ctx.state["decks"]["battle"].extend(used)
    for side in SIDES:
        code = side_player(ctx.state, battle, side)
        if code is not None and draw(ctx.state, code, "battle") is not None:
            ctx.log("battle_draw", f"{name(code)} draws a Battle card.")
    for side in SIDES:  # the ruling Princes' 'after each battle' rules (Elbow-high, Henry the Pious)
        code = side_player(ctx.state, battle, side)
        if code is not None:
            fire(ctx, code, "after_battle", battle, side)
    ctx.play["battle"] = None
    action = ctx.play["action"]
    if battle["winner"] == "A" and action is not None and action.get("kind") == "movement":
        if controllers(ctx.state)[battle["land"]] == battle["sides"]["A"]:
            queue_destruction(ctx, action, battle["land"])
    elif battle["winner"] == "A" and action is not None and ctx.play.get("event") is None:
        queue_army_destruction(ctx, action.get("neighbour"), battle["land"])
    if battle["deaths"]:
        prince_died(ctx, battle["deaths"])


def return_pomeranians(ctx: Ctx) -> None:
    """Pomeranians beaten at home come back once no foreign unit stands on their land (rulebook p. 21)."""
    out = ctx.play["pomerania_out"]
    for faction in list(out):
        home = str(catalog().factions[faction]["home"])
        if all(f == faction for f in occupants(ctx.state, home)):
            for unit, count in out.pop(faction).items():
                add_units(ctx.state, home, faction, unit, count)
            ctx.log("pomerania_return", f"The {name(faction)} units return to their land.")
