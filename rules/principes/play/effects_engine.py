"""The effect interpreter: every primitive of ``effects.py`` applied to the state, generally, not per card.

A card, tile or Prince carries an effect string; :func:`run` parses it (once, cached) and applies each statement
with an :class:`Effect` context: who plays it, the battle and side it belongs to, the chosen player, track, land.
Two families of primitives exist:

- *immediate* primitives change the state when run (``gain_track``, ``gain_gold``, ``pay``, ``steal_gold``,
  ``draw``, ``force_discard``, ``peek``, ``build``, ``division``, battle modifiers such as ``extra_swords`` that
  write into the battle in progress, ``track_cost`` that writes into the action in progress...);
- *rule* primitives (``card_rule``, ``progress_rule``, ``movement_bonus``, ``stop_at_border``,
  ``penalty_waiver``, ``assembly``, ``cost_discount``, ``build_limit``, ``coin_steal``, ``flip_die``,
  ``princess``) change a rule while their tile is held: the rules ask :func:`rule_terms` at the moment the rule
  applies, so every holder of such a tile is found the same way.

Conditions (``if``) and amounts (``per``) are evaluated against the same context.

This module owns the *modifiers in force*: :func:`rule_terms` finds them on the tiles a player holds, on the card
of its ruling Prince and in the "In this Round" texts of the History card revealed this Round (``this_round(...)``
statements kept in ``play["round_effects"]``; :func:`round_terms`, and :func:`fire_round` for their
``at(timing, ...)`` parts); :func:`fire` runs the timed texts. It imports nothing above the shared helpers
(``common``): a primitive whose effect is the rule of a later section (``build``: founding a City or raising a
building, rulebook BUILDING ACTION; ``princess``: a Princess's mission, PRINCESSES) is implemented in that
section's module, which registers it here with :func:`register_primitive` when it is imported (``play/__init__`` imports
every rules module, so the table is complete before any effect runs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from ..data import PRINCIPALITIES, catalog, instance_kind, parse_text
from ..effects import Term
from ..schema import Battle, Board, PState
from ..state import controllers
from .common import (
    CAVALRY,
    Ctx,
    active,
    active_players,
    add_units,
    card_record,
    change_track,
    draw,
    gain_gold,
    land_name,
    name,
    pay_gold,
    to_deck_bottom,
    to_pool,
)

TRACKS = ("people", "clergy")


@dataclass
class Effect:
    """The context of one effect: the player it belongs to and what it applies to."""

    ctx: Ctx
    who: str
    source: str
    battle: Battle | None = None
    side: str | None = None
    target: str | None = None  # the chosen player (``target``)
    choice: str | None = None  # the chosen track or alternative (``either``, ``a|b``)
    land: str | None = None  # the chosen land (``own_land``, ``rival_land``...)
    done: list[str] = field(default_factory=list)  # primitives that changed something

    @property
    def state(self) -> PState:
        return self.ctx.state


@cache
def statements(text: str) -> tuple[Term, ...]:
    """The parsed statements of an effect string (parsed once per distinct text)."""
    return parse_text(text, "effect") if text.strip() else ()


def effect_of(component: str) -> tuple[Term, ...]:
    """The parsed effect of a card or tile instance id."""
    return statements(str(card_record(component).get("effect", "")))


class Unpaid(Exception):
    """A ``pay`` the player cannot afford: the rest of the effect does not happen ("pay 1 gold to gain...")."""


def run(effect: Effect, text: str | None = None) -> list[str]:
    """Apply an effect (the source's own when ``text`` is None); returns the primitives that acted."""
    try:
        for term in statements(text) if text is not None else effect_of(effect.source):
            apply_term(effect, term)
    except Unpaid:
        effect.ctx.log(
            "effect_unpaid", f"{name(effect.who)} cannot pay for {_title(effect.source)}: no effect."
        )
    return effect.done


def reachable(effect: Effect, primitive: str) -> list[Term]:
    """The ``primitive(...)`` statements of the source's effect whose ``if`` conditions hold now."""
    found: list[Term] = []
    pending = list(effect_of(effect.source))
    while pending:
        term = pending.pop(0)
        if term.name == primitive:
            found.append(term)
        elif term.name == "if":
            if holds(effect, term.args[0]):
                pending.append(term.args[1])
        elif term.name in ("this_round", "at", "choose"):
            pending.extend(term.args[1:] if term.name == "at" else term.args)
    return found


def affordable(state: PState, code: str, component: str) -> bool:
    """Whether the player holds the gold every top-level ``pay(self, n)`` of the component asks."""
    due = sum(
        term.args[1].number or 0
        for term in effect_of(component)
        if term.name == "pay" and term.args[0].name == "self"
    )
    return bool(state["players"][code]["gold"] >= due)


def apply_term(effect: Effect, term: Term) -> None:
    if term.name == "if":
        if holds(effect, term.args[0]):
            apply_term(effect, term.args[1])
        return
    if term.name == "choose":
        apply_term(effect, term.args[1] if effect.choice == "second" else term.args[0])
        return
    if term.name == "this_round":
        effect.ctx.play.setdefault("round_effects", []).append(
            {
                "who": effect.who,
                "source": effect.source,
                "effect": term.args[0].to_data(),
                "land": effect.land,
            }
        )
        effect.done.append(term.args[0].name)
        return
    if term.name == "at":
        apply_term(effect, term.args[1])
        return
    handler = IMMEDIATE.get(term.name)
    if handler is not None and handler(effect, term.args):
        effect.done.append(term.name)


# ---- conditions, amounts and players -----------------------------------------------------------------------


def holds(effect: Effect, term: Term) -> bool:
    """Whether a condition of the vocabulary holds in the effect's context."""
    state, battle, side = effect.state, effect.battle, effect.side
    word = term.name
    if term.call and word == "all":
        return all(holds(effect, arg) for arg in term.args)
    if term.call and word == "opponent":  # opponent(neighbour|invader): any of the kinds
        kinds = term.args[0].choices or (term.args[0].name,)
        return battle is not None and _opponent_kind(state, battle, side) in kinds
    if term.call and word == "controls":
        return controllers(state).get(term.args[0].name) == effect.who
    if term.call and word == "no_action":
        return term.args[0].name not in effect.ctx.play["revealed"].get(effect.who, [])
    if term.call and word == "built":
        return effect.ctx.play.get("last_built") == term.args[0].name
    if word in ("won", "lost"):
        return battle is not None and (battle.get("winner") == side) == (word == "won")
    if word in ("attacker", "defender"):
        return side == ("A" if word == "attacker" else "D")
    if word == "is_princeps":
        return bool(state["princeps"]["holder"] == effect.who)
    if word == "holds_foreign_land":
        return holds_foreign_land(state, effect.who)
    if word == "defending_own_city":
        return battle is not None and side == "D" and bool(state["lands"][battle["land"]]["cities"])
    raise KeyError(word)


def _opponent_kind(state: PState, battle: Battle, side: str | None) -> str:
    faction = battle["sides"]["D" if side == "A" else "A"]
    group = catalog().factions[faction]["group"]
    if group == "principality":
        return "player" if active(state, faction) else "neutral"
    return "neighbour" if group in ("neighbour", "pomerania") else "invader"


def holds_foreign_land(state: PState, code: str) -> bool:
    """Controls a land inside another principality's borders."""
    lands = catalog().lands
    return any(
        owner == code
        and lands[land]["principality"] in PRINCIPALITIES
        and lands[land]["principality"] != code
        for land, owner in controllers(state).items()
    )


def count(effect: Effect, countable: str) -> int:
    """The things ``per(...)`` counts for the effect's player."""
    state, code = effect.state, effect.who
    owned = [land for land, owner in controllers(state).items() if owner == code]
    if countable in ("own_cavalry", "own_infantry") and effect.battle is not None and effect.side is not None:
        units = effect.battle["units"][effect.side]
        wanted = CAVALRY if countable == "own_cavalry" else ("footman",)
        return sum(n for unit, n in units.items() if unit in wanted)
    if countable in ("tiltyards", "abbeys"):
        return sum(state["lands"][land]["building"] == countable[:-1] for land in owned)
    if countable == "civitas":
        return sum(kind == "civitas" for land in owned for kind in state["lands"][land]["cities"].values())
    if countable == "central_lands":
        return sum(catalog().lands[land]["principality"] not in PRINCIPALITIES for land in owned)
    return 0


def amount(effect: Effect, term: Term) -> int:
    if term.number is not None:
        return term.number
    return min(count(effect, term.args[0].name), term.args[1].number or 0)


def players(effect: Effect, term: Term) -> list[str]:
    """The active players a ``who`` parameter names."""
    state, code = effect.state, effect.who
    if term.call and term.name == "filter":
        return [p for p in players(effect, term.args[0]) if holds_foreign_land(state, p)]
    if term.call and term.name == "controller":
        owner = controllers(state).get(term.args[0].name)
        return [owner] if owner and active(state, owner) else []
    word = term.name
    everyone = [p for p in state["play"]["order"] if active(state, p)] if state.get("play") else []
    everyone += [p for p in active_players(state) if p not in everyone]  # the Princeps order (rulebook p. 13)
    if word == "self":
        return [code] if active(state, code) else []
    if word == "each":
        return everyone
    if word == "others":
        return [p for p in everyone if p != code]
    if word == "princeps":
        return [p for p in everyone if p == state["princeps"]["holder"]]
    if word == "richest":
        top = max((state["players"][p]["gold"] for p in everyone), default=0)
        return [p for p in everyone if state["players"][p]["gold"] == top]
    if word == "target":
        return [effect.target] if effect.target and active(state, effect.target) else []
    if word == "opponent" and effect.battle is not None:
        faction = effect.battle["sides"]["D" if effect.side == "A" else "A"]
        return [faction] if active(state, faction) else []
    return []


# ---- immediate primitives ----------------------------------------------------------------------------------


def _gain_track(effect: Effect, args: tuple[Term, ...]) -> bool:
    track = args[1].name
    if track == "either":
        track = effect.choice if effect.choice in TRACKS else "people"
    changed = False
    for code in players(effect, args[0]):
        changed |= change_track(effect.ctx, code, track, amount(effect, args[2]), _title(effect.source)) != 0
    return changed


def _gain_gold(effect: Effect, args: tuple[Term, ...]) -> bool:
    total = 0
    for code in players(effect, args[0]):
        value = amount(effect, args[1])
        if value < 0:  # a penalty takes what there is (the Jelcz ransom)
            paid = pay_gold(effect.ctx, code, -value)
            total += paid
            if paid:
                effect.ctx.log("effect_pay", f"{name(code)} pays {paid} gold ({_title(effect.source)}).")
            continue
        got = gain_gold(effect.ctx, code, value)
        total += got
        if got:
            effect.ctx.log("effect_gold", f"{name(code)} gains {got} gold ({_title(effect.source)}).")
    return total > 0


def _pay(effect: Effect, args: tuple[Term, ...]) -> bool:
    due = args[1].number or 0
    if any(effect.state["players"][code]["gold"] < due for code in players(effect, args[0])):
        raise Unpaid(effect.source)
    paid = sum(pay_gold(effect.ctx, code, args[1].number or 0) for code in players(effect, args[0]))
    if paid:
        effect.ctx.log("effect_pay", f"{name(effect.who)} pays {paid} gold ({_title(effect.source)}).")
    return paid > 0


def _steal_gold(effect: Effect, args: tuple[Term, ...]) -> bool:
    stolen = 0
    for victim in players(effect, args[0]):
        taken = min(args[1].number or 0, effect.state["players"][victim]["gold"])
        effect.state["players"][victim]["gold"] -= taken
        effect.state["players"][effect.who]["gold"] += taken
        stolen += taken
        if taken:
            effect.ctx.log("effect_steal", f"{name(effect.who)} takes {taken} gold from {name(victim)}.")
    return stolen > 0


def _draw(effect: Effect, args: tuple[Term, ...]) -> bool:
    drawn = 0
    for code in players(effect, args[0]):
        got = sum(draw(effect.state, code, args[1].name) is not None for _ in range(amount(effect, args[2])))
        drawn += got
        if got:
            effect.ctx.log(
                "effect_draw",
                f"{name(code)} draws {got} {args[1].name.title()} card(s) ({_title(effect.source)}).",
            )
    return drawn > 0


def _force_discard(effect: Effect, args: tuple[Term, ...]) -> bool:
    """The target discards cards of the named decks; it converts them first for 1 gold each (the text lets it
    convert them, and gold is what a converted card always gives)."""
    decks = args[1].choices or (args[1].name,)
    discarded = 0
    for code in players(effect, args[0]):
        hand = effect.state["players"][code]["hand"]
        chosen = [card for card in hand if card_record(card)["deck"] in decks][: args[2].number or 0]
        for card in chosen:
            hand.remove(card)
            to_deck_bottom(effect.state, card)
            gain_gold(effect.ctx, code, 1)
            discarded += 1
        if chosen:
            effect.ctx.log(
                "effect_discard",
                f"{name(code)} must discard {len(chosen)} card(s) and converts "
                f"them for {len(chosen)} gold ({_title(effect.source)}).",
            )
    return discarded > 0


def _peek(effect: Effect, args: tuple[Term, ...]) -> bool:
    deck = (
        effect.state["history"]["deck"] if args[0].name == "history" else effect.state["decks"][args[0].name]
    )
    seen = list(deck[: args[1].number or 0])
    effect.ctx.play["private"][effect.who]["peek"] = seen
    effect.ctx.log(
        "effect_peek", f"{name(effect.who)} looks at the top {len(seen)} {args[0].name.title()} card(s)."
    )
    return bool(seen)


def _battle_bonus(index: int) -> Handler:
    def handler(effect: Effect, args: tuple[Term, ...]) -> bool:
        if effect.battle is None or effect.side is None:
            return False
        value = amount(effect, args[0])
        effect.battle["bonus"][effect.side][index] += value
        return value > 0

    return handler


def _ignore_bonus(effect: Effect, args: tuple[Term, ...]) -> bool:
    if effect.battle is None:
        return False
    effect.battle.setdefault("ignore", []).append(args[0].name)
    return True


def _block_window(effect: Effect, args: tuple[Term, ...]) -> bool:
    if effect.battle is None or effect.side is None:
        return False
    other = "D" if effect.side == "A" else "A"
    effect.battle.setdefault("blocked", {}).setdefault(other, []).append(args[1].name)
    return True


def _damage_order(effect: Effect, args: tuple[Term, ...]) -> bool:
    if effect.battle is None or effect.side is None:
        return False
    target = effect.side if args[0].name == "self" else ("D" if effect.side == "A" else "A")
    effect.battle.setdefault("order", {})[target] = args[1].name
    return True


def _return_unit(effect: Effect, args: tuple[Term, ...]) -> bool:
    """Remove units that withdrew from the battle (``withdrawn``) or stand anywhere (``any``) to the pool."""
    if effect.battle is None:
        return False
    unit = "footman" if args[1].name == "infantry" else "knight"
    removed = 0
    for code in players(effect, args[0]):
        for land in effect.battle.get("withdrawn", {}).get(unit, []):
            if removed < (args[2].number or 0) and effect.state["lands"][land]["units"].get(code, {}).get(
                unit
            ):
                add_units(effect.state, land, code, unit, -1)
                to_pool(effect.state, code, unit, 1)
                removed += 1
                effect.ctx.log(
                    "effect_remove",
                    f"{name(code)} loses a withdrawing {unit.title()} in "
                    f"{land_name(land)} ({_title(effect.source)}).",
                )
    return removed > 0


def _track_cost(effect: Effect, args: tuple[Term, ...]) -> bool:
    what, cost = args[0].name, args[1].name
    if what == "battle_loss":
        battle = effect.battle
        if battle is None or effect.who not in battle.get("people_lost", []):
            return False
        battle["people_lost"].remove(effect.who)
        return change_track(effect.ctx, effect.who, "people", 1, _title(effect.source)) != 0
    action = effect.ctx.play["action"]
    if action is None or action["who"] != effect.who or action["kind"] != "taxes":
        return False
    action["tax_people"] = {"none": 0, "people": 1, "people_x2": 2}.get(cost, 1)
    return True


def _division(effect: Effect, args: tuple[Term, ...]) -> bool:
    land = effect.land
    if land is None:
        return False
    land_state = effect.state["lands"][land]
    tokens = effect.state["supply"]["tokens"]
    if args[0].name == "remove":
        if not land_state["division"]:
            return False
        land_state["division"] = False
        tokens["division"] += 1
        effect.ctx.log(
            "division_removed", f"{name(effect.who)} removes the Division token of {land_name(land)}."
        )
        return True
    if land_state["division"] or tokens["division"] <= 0:
        return False
    land_state["division"] = True
    tokens["division"] -= 1
    effect.ctx.log("division_placed", f"{name(effect.who)} places a Division token on {land_name(land)}.")
    return True


def _assembly(effect: Effect, args: tuple[Term, ...]) -> bool:
    """A Court card's extra units for the Assembly being performed (tiles answer through ``rule_terms``)."""
    action = effect.ctx.play["action"]
    if action is None or action["kind"] != "assembly" or not args[0].call or args[0].name != "extra_units":
        return False
    action["extra_units"] = action.get("extra_units", 0) + (args[0].args[0].number or 0)
    return True


def _survive(effect: Effect, args: tuple[Term, ...]) -> bool:
    effect.state["players"][effect.who]["heir"] = True
    return True


#: applies one immediate primitive's arguments in an effect's context; True when something changed
Handler = Callable[[Effect, tuple[Term, ...]], bool]

IMMEDIATE: dict[str, Handler] = {
    "gain_track": _gain_track,
    "gain_gold": _gain_gold,
    "pay": _pay,
    "steal_gold": _steal_gold,
    "draw": _draw,
    "force_discard": _force_discard,
    "peek": _peek,
    "extra_swords": _battle_bonus(0),
    "extra_shields": _battle_bonus(1),
    "ignore_defender_bonus": _ignore_bonus,
    "block_window": _block_window,
    "damage_order": _damage_order,
    "return_unit": _return_unit,
    "track_cost": _track_cost,
    "division": _division,
    "assembly": _assembly,
    "survive_elimination": _survive,
}


def register_primitive(name: str) -> Callable[[Handler], Handler]:
    """Register the handler of an immediate primitive implemented by the rule it belongs to (``build`` in
    ``building``, ``princess`` in ``princesses``); a name is registered once."""

    def register(handler: Handler) -> Handler:
        if name in IMMEDIATE:
            raise ValueError(f"the primitive {name!r} already has a handler")
        IMMEDIATE[name] = handler
        return handler

    return register


# ---- rules changed while a tile is held --------------------------------------------------------------------


def tiles_of(state: Board, code: str) -> list[str]:
    player = state["players"].get(code)
    if player is None or player["eliminated"]:
        return []
    return [tile for tiles in player["progress"].values() for tile in tiles]


def sources_of(state: Board, code: str) -> list[str]:
    """The tiles ``code`` holds and the card of its ruling Prince (his rule lasts while he rules)."""
    player = state["players"].get(code)
    prince = (
        [player["prince"]] if player is not None and not player["eliminated"] and player["prince"] else []
    )
    return tiles_of(state, code) + prince


def rule_terms(state: Board, code: str, primitive: str) -> list[Term]:
    """Every statement ``primitive(...)`` on the tiles ``code`` holds (a tile's rule lasts while it is held), on
    its ruling Prince's card, and on a History card's "In this Round" text."""
    found = []
    for tile in sources_of(state, code):
        for term in effect_of(tile):
            if term.name == primitive:
                found.append(term)
    return found + round_terms(state, primitive)  # and a History card's "In this Round" rule, for everyone


def has_rule(state: Board, code: str, primitive: str, word: str) -> bool:
    """Whether a held tile says ``primitive(word, ...)`` (the first argument, a word or a call's name)."""
    return any(term.args and term.args[0].name == word for term in rule_terms(state, code, primitive))


def rule_number(state: Board, code: str, primitive: str, word: str) -> int:
    """The sum of the numbers of ``primitive(word(n))`` or ``primitive(word, n)`` on held tiles."""
    total = 0
    for term in rule_terms(state, code, primitive):
        first = term.args[0]
        if first.name != word:
            continue
        if first.call and first.args and first.args[0].number is not None:
            total += first.args[0].number
        elif len(term.args) > 1 and term.args[1].number is not None:
            total += term.args[1].number
    return total


def fire(
    ctx: Ctx, code: str, timing: str, battle: Battle | None = None, side: str | None = None
) -> list[str]:
    """Run the effects of the tiles ``code`` holds and of its ruling Prince whose timing is ``timing``; returns
    the sources that acted."""
    acted = []
    for tile in sources_of(ctx.state, code):
        if card_record(tile).get("timing") != timing:
            continue
        effect = Effect(ctx, code, tile, battle=battle, side=side, choice=_lower_track(ctx.state, code))
        if run(effect):
            acted.append(tile)
    return acted + fire_round(ctx, code, timing, battle, side)  # History "In this Round ... at(timing)" texts


# ---- "In this Round" texts of the History card -------------------------------------------------------------


def _round_statements(state: Board) -> list[tuple[str, Term]]:
    """(card, statement) of every ``this_round(statement)`` of a History card applied this Round."""
    play = state.get("play")
    effects = play.get("round_effects", []) if play else []
    found = []
    for source in dict.fromkeys(entry["source"] for entry in effects):
        if card_record(source).get("deck") != "history":
            continue
        found += [(source, term.args[0]) for term in effect_of(source) if term.name == "this_round"]
    return found


def begin_action(ctx: Ctx, code: str, kind: str) -> None:
    """History texts of this Round that change an action being opened (Privilege of Cienia: ``track_cost(taxes,
    none)``, Taxes cost no People this Round)."""
    for source, term in _round_statements(ctx.state):
        if term.name == "track_cost" and term.args[0].name == kind:
            apply_term(Effect(ctx, code, source), term)


def round_terms(state: Board, primitive: str) -> list[Term]:
    """The History rule statements ``primitive(...)`` in force this Round (they apply to every player)."""
    return [term for _, term in _round_statements(state) if term.name == primitive]


def fire_round(
    ctx: Ctx, code: str, timing: str, battle: Battle | None = None, side: str | None = None
) -> list[str]:
    """Apply the History texts ``at(timing, statement)`` in force this Round for ``code``."""
    acted = []
    for source, term in _round_statements(ctx.state):
        if term.name == "at" and term.args[0].name == timing:
            effect = Effect(ctx, code, source, battle=battle, side=side)
            apply_term(effect, term.args[1])
            if effect.done:
                acted.append(source)
    return acted


def _lower_track(state: PState, code: str) -> str:
    """A tile's 'People or Clergy' goes to the lower track (People on a tie): the choice a player makes."""
    player = state["players"][code]
    return "clergy" if player["clergy"] < player["people"] else "people"


def _title(component: str) -> str:
    record = card_record(component)
    return str(record.get("title") or record.get("name") or instance_kind(component))
