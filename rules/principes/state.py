"""PRINCIPES state: the starting position, derived values (control, Might) and the views.

``schema.py`` declares this layout as TypedDicts (``PState``, ``PView``) that mypy checks. State layout (plain JSON data; every id refers to ``data/*.json``; the top of a deck or stack is index 0)::

    {
      "num_players": 2..4,
      "options": {option name: value},               # resolved lobby options
      "seats": ["PMA", "PMI"],                       # seat index -> principality played
      "neutral": ["MAS", "SIL"],                     # principalities no one plays (their units are neutral)
      "turn_cycle": ["PMA", "MAS", "PMI", "SIL"],    # fixed clockwise seat cycle
      "round": 1, "period": 1,                       # Rounds 1-6; Period = (round + 1) // 2
      "phase": "setup",                              # the rules issues add their phases
      "princeps": {"holder": "PMI", "direction": null},   # direction "cw" | "ccw", chosen each Round
      "history": {"deck": [ids], "revealed": null, "icons": []},   # 2 cards per Period, Period I on top
      "players": {
        "PMA": {"seat": 0, "gold": 5, "people": 4, "clergy": 4,
                "prince": "PMA-1a", "princes": [living Prince cards not ruling, Period order],
                "hand": [card instance ids], "plan": null | ["taxes", "movement", "politics"],
                "progress": {"green": [tile ids], "yellow": [], ...},
                "princess": "home" | land id | off-map area id, "eliminated": false}},
      "lands": {land id: {"units": {faction: {"prince"|"princess"|"knight"|"footman": n}},
                          "cities": {gord id: "capital"|"city"|"civitas"},    # founded Cities only
                          "building": null | "castle"|"tiltyard"|"abbey",
                          "division": false}},
      "offmap": {area id: {"units": {faction: {type: n}}}},
      "supply": {"units": {faction: {type: n}},      # figures not on the map (pools, Teutons, Mongols)
                 "tokens": {"capital", "city", "civitas", "castle", "tiltyard", "abbey", "division": n},
                 "gold": null | n},                  # null: unlimited coins (option gold_supply)
      "decks": {"court": [ids], "battle": [ids], "neighbour": [ids]},
      "market": {colour: {"stack": [tile ids], "face_up": [tile ids]}},
      "mongol_invasions": 0,
    }

Control and Might are never stored: ``controllers`` and ``might`` derive them from the map (resolution 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import combinations
from typing import cast

from rules.engine import OptionError, Rng

from .data import COLOURS, DECK_KINDS, PRINCIPALITIES, Catalog, catalog, instances
from .schema import AreaState, Board, LandState, MarketPile, PlayerState, PState, PublicPlayer, PView

#: principalities played by default: the rulebook's recommended duel, then Masovia left neutral for three
STANDARD = {2: ("PMA", "PMI"), 3: ("PMA", "PMI", "SIL"), 4: PRINCIPALITIES}
#: lobby spellings of every principality set, e.g. "pma-pmi"
COMBINATIONS = {
    "-".join(code.lower() for code in combo): combo
    for size in (2, 3, 4)
    for combo in combinations(PRINCIPALITIES, size)
}
#: Period I Prince chosen by the Polonia Maior player (option maior_prince)
MAIOR_PRINCES = {"spindleshanks": "PMA-1a", "odonic": "PMA-1b"}


def choose_principalities(num_players: int, choice: str, rng: Rng) -> tuple[str, ...]:
    if choice == "standard":
        return STANDARD[num_players]
    if choice == "random":
        pool = list(PRINCIPALITIES)
        rng.shuffle(pool)
        return tuple(code for code in PRINCIPALITIES if code in pool[:num_players])
    combo = COMBINATIONS[choice]
    if len(combo) != num_players:
        raise OptionError(f"The principalities {choice} are for {len(combo)} players, not {num_players}.")
    return combo


def _add_units(target: LandState | AreaState, faction: str, units: Mapping[str, int]) -> None:
    pieces = target["units"].setdefault(faction, {})
    for unit, count in units.items():
        pieces[unit] = pieces.get(unit, 0) + count


def _take_from_pool(pool: dict[str, int], units: Mapping[str, int]) -> None:
    for unit, count in units.items():
        pool[unit] -= count


def _deploy(state: PState, data: Catalog, played: tuple[str, ...]) -> None:
    """Units on the map and off it, the rest in the supply (resolutions 1.2, setup.json ``deployment``)."""
    supply = {faction: dict(pool) for faction, pool in data.setup["pools"].items()}
    for principality in PRINCIPALITIES:
        deployment = data.setup["deployment"][principality]
        sources = [deployment["always"]] + ([] if principality in played else [deployment["neutral_extra"]])
        for source in sources:
            for land, units in source.items():
                _add_units(state["lands"][land], principality, units)
                _take_from_pool(supply[principality], units)
    other = data.setup["other_deployment"]
    for where, key in ((state["lands"], "lands"), (state["offmap"], "offmap")):
        for place, factions in other[key].items():
            for faction, units in factions.items():
                _add_units(where[place], faction, units)
                _take_from_pool(supply[faction], units)
    state["supply"]["units"] = {
        faction: {unit: n for unit, n in pool.items() if n}
        for faction, pool in supply.items()
        if any(pool.values())
    }


def _shuffled(ids: list[str], rng: Rng) -> list[str]:
    rng.shuffle(ids)
    return ids


def _decks(data: Catalog, options: Mapping[str, str], rng: Rng) -> dict[str, list[str]]:
    decks: dict[str, list[str]] = {}
    for deck in DECK_KINDS:
        ids = [instance for record in data.components[deck] for instance in instances(record)]
        if deck == "court" and options["elimination"] == "off":  # the Heir only matters with elimination
            ids = [instance for instance in ids if data.kind_of(instance)["title"] != "Heir"]
        decks[deck] = _shuffled(ids, rng)
    return decks


def _history_deck(data: Catalog, rng: Rng) -> list[str]:
    """Two random cards of each Period, Period I on top, III at the bottom (setup step 14)."""
    per_period = data.setup["start"]["history_per_period"]
    deck: list[str] = []
    for period in (1, 2, 3):
        cards = _shuffled([r["id"] for r in data.components["history"] if r["period"] == period], rng)
        deck += cards[:per_period]
    return deck


def _market(data: Catalog, rng: Rng) -> dict[str, MarketPile]:
    """Six shuffled stacks, two face-up tiles each; an identical second tile goes under its stack (step 16)."""
    market: dict[str, MarketPile] = {}
    for colour in COLOURS:
        stack = _shuffled(
            [tile for r in data.components["progress"] if r["colour"] == colour for tile in instances(r)], rng
        )
        face_up: list[str] = []
        while len(face_up) < data.setup["start"]["market_face_up"] and stack:
            tile = stack.pop(0)
            if any(data.kind_of(tile)["id"] == data.kind_of(shown)["id"] for shown in face_up):
                stack.append(tile)
                continue
            face_up.append(tile)
        market[colour] = {"stack": stack, "face_up": face_up}
    return market


def _princes(data: Catalog, principality: str, maior_choice: str) -> tuple[str, list[str]]:
    cards = sorted(
        (r for r in data.components["princes"] if r["principality"] == principality),
        key=lambda r: (r["period"], r["id"]),
    )
    first = MAIOR_PRINCES[maior_choice] if principality == "PMA" else cards[0]["id"]
    return first, [r["id"] for r in cards if r["id"] != first]


def princeps_holder(played: tuple[str, ...], data: Catalog) -> str:
    """Polonia Minor, else Polonia Maior, else Silesia (rulebook, games for 2 and 3 players)."""
    return next(code for code in data.setup["princeps_priority"] if code in played)


def new_game(num_players: int, options: Mapping[str, str], rng: Rng) -> PState:
    """The full starting position for ``num_players`` with resolved ``options``."""
    data = catalog()
    played = choose_principalities(num_players, options["principalities"], rng)
    tokens = dict(data.setup["supplies"]["city_tokens"]) | dict(data.setup["supplies"]["buildings"])
    tokens["division"] = data.setup["supplies"]["division"]
    coins = sum(int(value) * count for value, count in data.setup["supplies"]["coins"].items())
    start = data.setup["start"]
    state: PState = {
        "num_players": num_players,
        "options": dict(options),
        "seats": list(played),
        "neutral": [code for code in PRINCIPALITIES if code not in played],
        "turn_cycle": list(data.setup["turn_cycle"]),
        "round": 1,
        "period": 1,
        "phase": "setup",
        "princeps": {"holder": princeps_holder(played, data), "direction": None},
        "history": {"deck": _history_deck(data, rng), "revealed": None, "icons": []},
        "players": {},
        "lands": {
            land: {"units": {}, "cities": {}, "building": None, "division": False} for land in data.lands
        },
        "offmap": {area: {"units": {}} for area in data.offmap},
        "supply": {
            "units": {},
            "tokens": tokens,
            "gold": coins - start["gold"] * num_players if options["gold_supply"] == "limited" else None,
        },
        "decks": _decks(data, options, rng),
        "market": _market(data, rng),
        "mongol_invasions": 0,
    }
    _deploy(state, data, played)
    if "SIL" in played:  # the three lands detached from Silesia (setup step 13)
        for land, record in data.lands.items():
            if "division_start" in record["marks"]:
                state["lands"][land]["division"] = True
                tokens["division"] -= 1
    for seat, principality in enumerate(played):
        prince, princes = _princes(data, principality, options["maior_prince"])
        state["players"][principality] = {
            "seat": seat,
            "gold": start["gold"],
            "people": start["people"],
            "clergy": start["clergy"],
            "prince": prince,
            "princes": princes,
            "hand": [],
            "plan": None,
            "progress": {colour: [] for colour in COLOURS},
            "princess": "home",
            "eliminated": False,
        }
    for principality in turn_order(state):
        for deck in start["hand"]:
            state["players"][principality]["hand"].append(state["decks"][deck].pop(0))
    return state


# ---- derived values -----------------------------------------------------------------------------------------


def turn_order(state: Board) -> list[str]:
    """Players' principalities from the Princeps, clockwise unless the Princeps chose counter-clockwise."""
    cycle = [code for code in state["turn_cycle"] if code in state["players"]]
    if state["princeps"]["direction"] == "ccw":
        cycle.reverse()
    start = cycle.index(state["princeps"]["holder"])
    return cycle[start:] + cycle[:start]


@cache
def _home_principalities() -> dict[str, str | None]:
    """Land -> the principality whose borders hold it (None for central lands, the Pomeranias and off-map)."""
    return {
        land: (owner if (owner := entry["principality"]) in PRINCIPALITIES else None)
        for land, entry in catalog().lands.items()
    }


def _contested(state: Board) -> Mapping[str, str | None]:
    """Land fought over -> its controller before the fight (``play.common.add_units`` keeps it)."""
    play = state.get("play")
    return play.get("contested", {}) if play else {}


def controllers(state: Board) -> dict[str, str | None]:
    """Land -> controlling principality (player or neutral) or None (rulebook 'Control of lands').

    A principality controls the lands where its units stand, and every land of its own borders that holds
    no foreign unit and no Division token. Neighbours and Invaders never control; central lands and the
    Pomeranias without principality units are uncontrolled. A land where units of two sides stand is being
    fought over: it keeps the controller it had before the other side came (``state["play"]["contested"]``,
    kept by ``play.common.add_units``), since "control will only be gained after a victorious battle"
    (rulebook, Taking control over land; resolution 47).
    """
    # the rules ask this many times per action (views, Might, movement, effects): kept to one pass, no calls
    homes = _home_principalities()
    contested = _contested(state)
    result: dict[str, str | None] = {}
    for land, land_state in state["lands"].items():
        units = land_state["units"]
        occupants = (
            [f for f, pieces in units.items() if any(n for u, n in pieces.items() if u != "princess")]
            if units
            else ()
        )
        if len(occupants) > 1:
            result[land] = contested.get(land)
        elif occupants:
            result[land] = occupants[0] if occupants[0] in PRINCIPALITIES else None
        else:
            result[land] = None if land_state["division"] else homes[land]
    return result


def land_controller(state: Board, land: str) -> str | None:
    """The controller of one land, as ``controllers`` finds it (without walking the whole map)."""
    land_state = state["lands"][land]
    occupants = [
        f for f, pieces in land_state["units"].items() if any(n for u, n in pieces.items() if u != "princess")
    ]
    if len(occupants) > 1:
        return _contested(state).get(land)
    if occupants:
        return occupants[0] if occupants[0] in PRINCIPALITIES else None
    return None if land_state["division"] else _home_principalities()[land]


def land_might(state: Board, land: str) -> int:
    """Might of a land: each gord's Might, +1 where it became a City; a Division token makes it 0."""
    land_state = state["lands"][land]
    if land_state["division"]:
        return 0
    gords = catalog().lands[land]["gords"]
    return sum(gord["might"] + (1 if gord["id"] in land_state["cities"] else 0) for gord in gords)


def might(state: Board, control: Mapping[str, str | None] | None = None) -> dict[str, int]:
    """Might of every principality, computed from the map (resolution 2); the track shows min(value, 10).

    ``control`` is ``controllers(state)`` when the caller has it already."""
    totals = dict.fromkeys(PRINCIPALITIES, 0)
    for land, controller in (controllers(state) if control is None else control).items():
        if controller is not None:
            totals[controller] += land_might(state, land)
    return totals


# ---- views --------------------------------------------------------------------------------------------------


def public_player(player: PlayerState) -> PublicPlayer:
    """A player as everyone sees them: the hand as a count, the plan only as sealed or not."""
    shown = {key: value for key, value in player.items() if key not in ("hand", "plan")}
    shown["hand_size"] = len(player["hand"])
    shown["plan_sealed"] = player["plan"] is not None
    return cast(PublicPlayer, shown)


def build_view(state: PState, seat: int | None) -> PView:
    """The public view (``seat`` None) or a seat's view, which adds its own hand and sealed plan."""
    hidden = {"players", "decks", "market", "history"}
    shown = {key: value for key, value in state.items() if key not in hidden}
    # the state's other keys, one level copied; the keys a view replaces or adds are written below
    view = cast(
        PView, {key: (dict(value) if isinstance(value, dict) else value) for key, value in shown.items()}
    )
    view["players"] = {code: public_player(player) for code, player in state["players"].items()}
    view["decks"] = {deck: len(cards) for deck, cards in state["decks"].items()}
    view["market"] = {
        colour: {"stack": len(pile["stack"]), "face_up": list(pile["face_up"])}
        for colour, pile in state["market"].items()
    }
    view["history"] = {
        "deck": len(state["history"]["deck"]),
        "revealed": state["history"]["revealed"],
        "icons": list(state["history"]["icons"]),
    }
    view["control"] = controllers(state)
    view["might"] = might(state, view["control"])
    view["turn_order"] = turn_order(state)
    view["viewer"] = seat
    if seat is not None and 0 <= seat < len(state["seats"]):
        player = state["players"][state["seats"][seat]]
        view["you"] = {
            "seat": seat,
            "principality": state["seats"][seat],
            "hand": list(player["hand"]),
            "plan": None if player["plan"] is None else list(player["plan"]),
        }
    return view
