"""PRINCIPES in words: the alt text of a board image and a seat's own changes for the catch-up digest.

Both read only views (the public view, or a seat's view with its hand and plan), like the renderer. Names keep
their accents here (a screen reader reads them; only the image's font lacks them).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.principes.data import catalog
from rules.principes.play.history import ICON_TITLES

from .alt import compose, counted, listing, named, reason

UNIT_WORDS = {
    "prince": ("Prince", "Princes"),
    "princess": ("Princess", "Princesses"),
    "knight": ("Knight", "Knights"),
    "footman": ("Footman", "Footmen"),
}
PHASE_WORDS = {
    "direction": "the Princeps chooses the direction of play",
    "plan": "the players seal their plans",
    "reveal": "plans are revealed",
    "actions": "actions",
    "end": "the end of the Round",
    "over": "game over",
}
TRACKS = (("might", "Might"), ("people", "People"), ("clergy", "Clergy"), ("gold", "gold"))


def alt_text(view: dict[str, Any]) -> str:
    """The Round and what the game waits for, a battle being fought, each player's tracks, the viewer's hand
    and plan, then the lands each principality holds with their pieces (the viewer's first), then Princes,
    Progress tiles, History, off-map armies and the market."""
    sentences = [_status(view), _battle(view)]
    sentences += [_player(view, code) for code in view["seats"]]
    sentences.append(_private(view))
    sentences += [_lands(view, code) for code in _factions_on_map(view)]
    sentences += [_princes_and_tiles(view), _history(view), _offmap(view), _market(view)]
    return compose(sentences)


# ---- names ----------------------------------------------------------------------------------------------------
def principality(code: str) -> str:
    record = catalog().factions.get(code)
    return str(record["name"]) if record else code


def player_label(view: dict[str, Any], seat: int) -> str:
    """ "bob (Masovia)": the log lines name principalities, so the digest names both."""
    seats = view.get("seats") or []
    return player_name(view, seats[seat]) if 0 <= seat < len(seats) else named(view, seat)


def player_name(view: dict[str, Any], code: str) -> str:
    """ "alice (Polonia Maior)" for a played principality, its name alone for a neutral one or a Neighbour."""
    player = view["players"].get(code) if code in view["seats"] else None
    if player is None:
        return principality(code)
    return named(view, player["seat"], principality(code))


def land_name(land: str) -> str:
    data = catalog()
    if land in data.lands:
        return str(data.lands[land]["name"])
    if land in data.offmap:
        return str(data.offmap[land]["name"])
    return land


def _gord_name(gord: str) -> str:
    for land in catalog().lands.values():
        for record in land["gords"]:
            if record["id"] == gord:
                return str(record["name"])
    return gord


def _city(land: str, gord: str, kind: str) -> str:
    """A founded City: "city" when its gord is named like its land, else "civitas Nissa"."""
    name = _gord_name(gord)
    return kind if name == land_name(land) else f"{kind} {name}"


def units_text(units: dict[str, int]) -> str:
    """ "Prince, 2 Knights, 1 Footman" in the image's order."""
    parts = []
    for unit, (one, many) in UNIT_WORDS.items():
        count = units.get(unit, 0)
        if count == 1 and unit in ("prince", "princess"):
            parts.append(one)
        elif count:
            parts.append(f"{count} {one if count == 1 else many}")
    return ", ".join(parts)


# ---- sentences --------------------------------------------------------------------------------------------------
def _status(view: dict[str, Any]) -> str:
    play = view.get("play") or {}
    head = f"PRINCIPES, Round {view['round']} of {play.get('last_round', 6)}, Period {_roman(view['period'])}"
    result = play.get("result")
    if result:
        return f"{head}: game over. {reason(view, result.get('reason', ''))}."
    phase = PHASE_WORDS.get(str(play.get("phase")), str(play.get("phase") or view.get("phase", "")))
    holder = view["princeps"]["holder"]
    direction = {"cw": "clockwise", "ccw": "counter-clockwise"}.get(view["princeps"].get("direction") or "")
    princeps = f"Princeps: {player_name(view, holder)}" + (f", {direction}" if direction else "")
    action = play.get("action") or {}
    if action.get("who") and action.get("kind"):
        phase += f", {player_name(view, action['who'])} takes {str(action['kind']).capitalize()}"
    waiting = [
        f"{player_name(view, code)}: {str(prompt.get('kind', 'decision')).replace('_', ' ')}"
        + (", sealed" if prompt.get("sealed") else "")
        for code, prompt in (play.get("prompts") or {}).items()
    ]
    order = ", ".join(_short_name(view, code) for code in view.get("turn_order", []))
    wait = f" Waiting for {'; '.join(waiting)}." if waiting else ""
    return f"{head}: {phase}.{wait} {princeps}. Order of play: {order}."


def _short_name(view: dict[str, Any], code: str) -> str:
    """A played principality's player by name alone, any other principality by its name."""
    player = view["players"].get(code) if code in view["seats"] else None
    return principality(code) if player is None else named(view, player["seat"], fallback=principality(code))


def _roman(period: int) -> str:
    return "I" * period if 0 < period < 4 else str(period)


BATTLE_STAGES = {
    "before": "before-battle cards",
    "roll": "the dice",
    "reroll": "a reroll",
    "extra": "extra-phase cards",
    "resolve": "damage",
    "withdraw": "withdrawals",
    "after": "after-battle choices",
    "draw": "drawing cards",
}


def _battle(view: dict[str, Any]) -> str:
    """ "Battle in Nissa (now: before-battle cards): alice (Polonia Minor) attacks with 1 Footman, Silesia
    defends with 1 Footman." """
    battle = (view.get("play") or {}).get("battle")
    if not battle:
        return ""
    stage = BATTLE_STAGES.get(str(battle.get("stage", "")).split("_")[0])
    now = f" (now: {stage})" if stage else ""
    sides = [
        f"{player_name(view, battle['sides'][side])} {verb} with {units_text(battle['units'][side]) or 'no units'}"
        for side, verb in (("A", "attacks"), ("D", "defends"))
    ]
    return f"Battle in {land_name(battle['land'])}{now}: {', '.join(sides)}."


def _player(view: dict[str, Any], code: str) -> str:
    """One player's tracks from the side panel: Might, People, Clergy, gold, hand size, plan sealed."""
    player = view["players"][code]
    values = {"might": view["might"].get(code, 0), **player}
    tracks = ", ".join(f"{label} {values[key]}" for key, label in TRACKS)
    marks = [counted(player["hand_size"], "card")]
    if player.get("plan_sealed"):
        marks.append("plan sealed")
    if player.get("eliminated"):
        marks.append("eliminated")
    return f"{player_name(view, code)}: {tracks}, {', '.join(marks)}."


def _princes_and_tiles(view: dict[str, Any]) -> str:
    """The rest of each player's block: the ruling Prince and the Progress tiles."""
    data = catalog()
    parts = []
    for code in view["seats"]:
        player = view["players"][code]
        prince = data.kind_of(player["prince"])["name"] if player.get("prince") else "no Prince"
        tiles = [data.kind_of(tile)["title"] for pile in player["progress"].values() for tile in pile]
        progress = f", Progress {', '.join(tiles)}" if tiles else ""
        parts.append(f"{_short_name(view, code)}: Prince {prince}{progress}")
    return f"{'; '.join(parts)}."


def _private(view: dict[str, Any]) -> str:
    you = view.get("you")
    if not you:
        return ""
    hand = you.get("hand_labels") or [catalog().kind_of(card)["title"] for card in you.get("hand", [])]
    plan = you.get("plan")
    plan_text = ", ".join(action.capitalize() for action in plan) if plan else "not sealed yet"
    return f"Your hand: {'; '.join(hand) or 'empty'}. Your plan: {plan_text}."


def _factions_on_map(view: dict[str, Any]) -> list[str]:
    """The viewer's principality first, the other played ones in seat order, then whoever else holds land."""
    own = [view["you"]["principality"]] if view.get("you") else []
    controllers = [code for code in view["control"].values() if code]
    return list(dict.fromkeys([*own, *view["seats"], *controllers]))


def _lands(view: dict[str, Any], code: str) -> str:
    """ "alice (Polonia Maior) holds 10 lands: Posnania (capital; Prince, 1 Knight), Gnesna, ..." """
    held = [land for land, controller in view["control"].items() if controller == code]
    if not held:
        return ""
    return f"{player_name(view, code)} holds {counted(len(held), 'land')}: {'; '.join(_land(view, land) for land in held)}."


def _land(view: dict[str, Any], land: str) -> str:
    record = view["lands"][land]
    things = [_city(land, gord, kind) for gord, kind in record.get("cities", {}).items()]
    if record.get("building"):
        things.append(str(record["building"]))
    if record.get("division"):
        things.append("Division token")
    controller = view["control"].get(land)
    for faction, units in record.get("units", {}).items():
        pieces = units_text(units)
        if pieces:
            things.append(pieces if faction == controller else f"{principality(faction)}: {pieces}")
    return f"{land_name(land)} ({', '.join(things)})" if things else land_name(land)


def _history(view: dict[str, Any]) -> str:
    history = view["history"]
    if not history.get("revealed"):
        return f"No History card revealed yet ({history['deck']} in the deck)."
    card = catalog().kind_of(history["revealed"])
    icons = listing([ICON_TITLES.get(icon, icon) for icon in card.get("icons", [])])
    return f"History card {card['year']}: {card['title']}, end of Round: {icons}. {card['text']}"


def _offmap(view: dict[str, Any]) -> str:
    armies = []
    for area, record in view.get("offmap", {}).items():
        for faction, units in record.get("units", {}).items():
            pieces = units_text(units)
            if pieces:
                armies.append(f"{land_name(area)}: {principality(faction)} {pieces}")
    return f"Off the map: {'; '.join(armies)}." if armies else ""


def _market(view: dict[str, Any]) -> str:
    data = catalog()
    piles = [
        f"{colour}: {', '.join(data.kind_of(tile)['title'] for tile in pile['face_up']) or 'empty'}"
        for colour, pile in view["market"].items()
    ]
    return f"Market: {'; '.join(piles)}."


# ---- the seat's own changes, for the catch-up digest -------------------------------------------------------------
def view_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed for the viewing seat between two of its own views: its tracks and gold, its hand (cards by
    title, its own hand only), the lands it holds, its pieces and buildings there, its Prince and tiles."""
    you = after.get("you") or before.get("you")
    if not you:
        return []
    code = you["principality"]
    return [
        line
        for line in (
            _track_changes(before, after, code),
            _hand_changes(before, after),
            _land_changes(before, after, code),
            _piece_changes(before, after, code),
            _tile_changes(before, after, code),
        )
        if line
    ]


def _values(view: dict[str, Any], code: str) -> dict[str, Any]:
    player = view["players"][code]
    return {"might": view["might"].get(code, 0), **player}


def _track_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> str:
    old, new = _values(before, code), _values(after, code)
    changed = [
        f"{label} {old[key]} → {new[key]}"
        for key, label in (*TRACKS, ("hand_size", "cards in hand"))
        if old[key] != new[key]
    ]
    if old.get("prince") != new.get("prince") and new.get("prince"):
        changed.append(f"new Prince {catalog().kind_of(new['prince'])['name']}")
    if old.get("eliminated") != new.get("eliminated") and new.get("eliminated"):
        changed.append("eliminated")
    return f"Your tracks: {'; '.join(changed)}." if changed else ""


def _hand_changes(before: dict[str, Any], after: dict[str, Any]) -> str:
    old = Counter((before.get("you") or {}).get("hand", []))
    new = Counter((after.get("you") or {}).get("hand", []))
    gained, lost = sorted((new - old).elements()), sorted((old - new).elements())
    parts = []
    if gained:
        parts.append(f"gained {', '.join(_card(card) for card in gained)}")
    if lost:
        parts.append(f"gone {', '.join(_card(card) for card in lost)}")
    return f"Your hand: {'; '.join(parts)}." if parts else ""


def _card(card: str) -> str:
    return f"{catalog().kind_of(card)['title']} ({card.lower()})"


def _land_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> str:
    old = {land for land, controller in before["control"].items() if controller == code}
    new = {land for land, controller in after["control"].items() if controller == code}
    parts = []
    if new - old:
        parts.append(f"gained {listing([land_name(land) for land in sorted(new - old, key=land_name)])}")
    if old - new:
        parts.append(f"lost {listing([land_name(land) for land in sorted(old - new, key=land_name)])}")
    if not parts:
        return ""
    return f"Your lands: {'; '.join(parts)} (now {counted(len(new), 'land')})."


def _piece_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> str:
    """Your units on the map, and cities and buildings founded or lost in the lands you hold now or held."""
    old_units, new_units = _own_units(before, code), _own_units(after, code)
    parts = []
    if old_units != new_units:
        parts.append(
            f"units on the map {units_text(old_units) or 'none'} → {units_text(new_units) or 'none'}"
        )
    lands = {land for view in (before, after) for land, owner in view["control"].items() if owner == code}
    for land in sorted(lands, key=land_name):
        old, new = _built(before, land), _built(after, land)
        if new - old:
            parts.append(f"{listing(sorted(new - old))} in {land_name(land)}")
        if old - new:
            parts.append(f"{listing(sorted(old - new))} gone from {land_name(land)}")
    return f"Your pieces: {'; '.join(parts)}." if parts else ""


def _own_units(view: dict[str, Any], code: str) -> dict[str, int]:
    total: Counter[str] = Counter()
    for record in view["lands"].values():
        total.update(record.get("units", {}).get(code, {}))
    return {unit: count for unit, count in total.items() if count}


def _built(view: dict[str, Any], land: str) -> set[str]:
    record = view["lands"][land]
    built = {_city(land, gord, kind) for gord, kind in record.get("cities", {}).items()}
    if record.get("building"):
        built.add(str(record["building"]))
    return built


def _tile_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> str:
    def tiles(view: dict[str, Any]) -> Counter[str]:
        return Counter(tile for pile in view["players"][code]["progress"].values() for tile in pile)

    gained = sorted((tiles(after) - tiles(before)).elements())
    if not gained:
        return ""
    return f"Your Progress tiles: gained {', '.join(catalog().kind_of(tile)['title'] for tile in gained)}."
