"""PRINCIPES in words: the alt text of a board image, and for the catch-up digest a seat's own changes and the
log lines that move units (``read_move_line``: the digest shows their net effect).

Both read only views (the public view, or a seat's view with its hand and plan), like the renderer. Names keep
their accents here (a screen reader reads them; only the image's font lacks them). The alt text is in the
reader's language (``view["locale"]``, catalog context ``image``); the digest's lines are canonical English,
read back by the catalog's templates at delivery like the rest of the digest.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from typing import Any

from i18n import CLOSE, DEFAULT, language_of, localize, ntranslate, translate
from i18n import listing as listed
from rules.principes.data import catalog
from rules.principes.play.common import ACTION_TITLES
from rules.principes.play.history import ICON_TITLES
from rules.principes.play.naming import titled

from . import MovedLine, TakenBackLine
from .alt import compose, counted, listing, named, reason
from .common import IMAGE
from .common import image_words as _t

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
#: a track with its value, as the alt text says it
TRACK_VALUES = {"might": "Might {n}", "people": "People {n}", "clergy": "Clergy {n}", "gold": "gold {n}"}
#: what a player is asked (a prompt's kind), as the alt text says it
PROMPT_WORDS = {
    kind: kind.replace("_", " ")
    for kind in (
        *("direction", "plan", "progress", "taxes", "assembly", "building", "politics", "politics_return"),
        *("council", "movement", "consent", "clergy_penalty", "destroy", "battle_order", "before_battle"),
        *("extra_cards", "reroll", "flip", "withdraw", "after_battle", "prince_choice", "prince_place"),
        *(
            "respawn",
            "hand_limit",
            "court_reaction",
            "neighbour_block",
            "neighbour_move",
            "neighbour_destroy",
        ),
        *("combined", "princess", "princess_draw", "princess_discard", "history_choice", "history_build"),
        *("history_relocate", "division", "urbanization", "release", "common_council", "teutonic_call"),
        *("invader_move", "culmen_withdraw", "decision"),
    )
}
#: a market pile's colour, a founded City's kind and a building, as the alt text names them
WORDS = (
    *("green", "yellow", "rose", "blue", "brown", "gray"),
    *("city", "capital", "civitas", "castle", "tiltyard", "abbey"),
)


def _word(language: str, word: str) -> str:
    """A word the view holds (a colour, a City's kind, a building) in the reader's language."""
    return _t(language, word) if word in WORDS else word


def _language(view: dict[str, Any]) -> str:
    return language_of(view.get("locale"))


def _count(language: str, n: int, one: str, many: str) -> str:
    """ "1 card", "3 cards" in the reader's language (its plural forms)."""
    if language == DEFAULT:
        return counted(n, one.removeprefix("{n} "), many.removeprefix("{n} "))
    return ntranslate(language, one, many, n, context=IMAGE)


# ---- words shared with the image ---------------------------------------------------------------------------
def title_in(language: str, title: str) -> str:
    """A card's, tile's or Prince's title in the reader's language (the catalog's plain entries)."""
    return translate(language, title)


def short_title(language: str, title: str) -> str:
    """A card's or tile's title without its bracketed original (``Truce of God (Treuga Dei)`` -> ``Truce of
    God``), in the reader's language: the short title's own entry where the catalog has one, else the whole
    title's translation cut the same way."""
    short = title.split(" (")[0]
    translated = translate(language, short)
    if translated != short or language == DEFAULT or short == title:
        return translated
    return translate(language, title).split(" (")[0]


#: an action (a plan's, a market pile's) by its name
ACTION_NAMES = {**ACTION_TITLES, "council": "Council"}
#: the direction of play
DIRECTIONS = {"cw": "clockwise", "ccw": "counter-clockwise"}
#: a hand's card by its deck
DECK_TAGS = {"court": "Court", "battle": "Battle", "neighbour": "Neighbour"}
#: the icon in a card's corner (its support track or its battle side)
CARD_ICONS = ("shield", "sword", "clergy", "people", "either")


def action_name(language: str, action: str) -> str:
    """An action's name (``taxes`` -> Taxes) in the reader's language."""
    return _t(language, ACTION_NAMES[action]) if action in ACTION_NAMES else action.capitalize()


def icon_title(language: str, icon: str) -> str:
    """A History card's end-of-Round icon by its title, in the reader's language."""
    return _t(language, ICON_TITLES[icon]) if icon in ICON_TITLES else icon


def card_icon(language: str, icon: str) -> str:
    return _t(language, icon) if icon in CARD_ICONS else icon


def roman(period: int) -> str:
    return "I" * period if 0 < period < 4 else str(period)


def alt_text(view: dict[str, Any]) -> str:
    """The Round and what the game waits for, a battle being fought, each player's tracks, the viewer's hand
    and plan, then the lands each principality holds with their pieces (the viewer's first), then Princes,
    Progress tiles, History, off-map armies and the market; in the reader's language."""
    sentences = [_status(view), _battle(view)]
    sentences += [_player(view, code) for code in view["seats"]]
    sentences.append(_private(view))
    sentences += [_lands(view, code) for code in _factions_on_map(view)]
    sentences += [_princes_and_tiles(view), _history(view), _offmap(view), _market(view)]
    return compose(sentences)


# ---- names ----------------------------------------------------------------------------------------------------
#: the factions' names a reader's language has its own words for (the principalities' Latin names stay)
FACTION_NAMES = (
    *("Western Pomerania", "Eastern Pomerania", "German Marches", "Kingdom of Bohemia", "Kingdom of Hungary"),
    *("Rus Fiefdoms", "Prussians", "Lithuanians", "Teutonic Knights", "Mongols"),
)


def principality(code: str, language: str = DEFAULT) -> str:
    record = catalog().factions.get(code)
    if not record:
        return code
    name = str(record["name"])
    return _t(language, name) if name in FACTION_NAMES else name


def player_label(view: dict[str, Any], seat: int) -> str:
    """ "bob (Masovia)": the log lines name principalities, so the digest names both."""
    seats = view.get("seats") or []
    return player_name(view, seats[seat]) if 0 <= seat < len(seats) else named(view, seat)


def player_name(view: dict[str, Any], code: str) -> str:
    """ "alice (Polonia Maior)" for a played principality, its name alone for a neutral one or a Neighbour."""
    player = view["players"].get(code) if code in view["seats"] else None
    if player is None:
        return principality(code, _language(view))
    return named(view, player["seat"], principality(code))


def land_name(land: str, language: str = DEFAULT) -> str:
    """A land's Latin name, or an off-map area's in the reader's language."""
    data = catalog()
    if land in data.lands:
        return str(data.lands[land]["name"])
    if land in data.offmap:
        name = str(data.offmap[land]["name"])
        return _t(language, name) if name in FACTION_NAMES else name
    return land


def _gord_name(gord: str) -> str:
    for land in catalog().lands.values():
        for record in land["gords"]:
            if record["id"] == gord:
                return str(record["name"])
    return gord


def _city(land: str, gord: str, kind: str, language: str = DEFAULT) -> str:
    """A founded City: "city" when its gord is named like its land, else "civitas Nissa"."""
    name, word = _gord_name(gord), _word(language, kind)
    return word if name == land_name(land) else f"{word} {name}"


#: a count of units: "2 Knights"
UNIT_COUNTS = {
    "prince": ("{n} Prince", "{n} Princes"),
    "princess": ("{n} Princess", "{n} Princesses"),
    "knight": ("{n} Knight", "{n} Knights"),
    "footman": ("{n} Footman", "{n} Footmen"),
}


def units_text(units: dict[str, int], language: str = DEFAULT) -> str:
    """ "Prince, 2 Knights, 1 Footman" in the image's order."""
    parts = []
    for unit, (one, _many) in UNIT_WORDS.items():
        count = units.get(unit, 0)
        if count == 1 and unit in ("prince", "princess"):
            parts.append(_t(language, one))
        elif count:
            parts.append(_count(language, count, *UNIT_COUNTS[unit]))
    return ", ".join(parts)


# ---- sentences --------------------------------------------------------------------------------------------------
def _status(view: dict[str, Any]) -> str:
    language = _language(view)
    play = view.get("play") or {}
    head = _t(
        language,
        "PRINCIPES, Round {round} of {last}, Period {period}",
        round=view["round"],
        last=play.get("last_round", 6),
        period=roman(view["period"]),
    )
    result = play.get("result")
    if result:
        why = _unstopped(localize(reason(view, result.get("reason", "")) + ".", language))
        return _t(language, "{head}: game over. {reason}.", head=head, reason=why)
    phase_key = str(play.get("phase"))
    phase = (
        _t(language, PHASE_WORDS[phase_key])
        if phase_key in PHASE_WORDS
        else str(play.get("phase") or view.get("phase", ""))
    )
    holder = view["princeps"]["holder"]
    direction = DIRECTIONS.get(view["princeps"].get("direction") or "")
    princeps = (
        _t(
            language,
            "Princeps: {who}, {direction}",
            who=player_name(view, holder),
            direction=_t(language, direction),
        )
        if direction
        else _t(language, "Princeps: {who}", who=player_name(view, holder))
    )
    action = play.get("action") or {}
    if action.get("who") and action.get("kind"):
        phase += _t(
            language,
            ", {who} takes {action}",
            who=player_name(view, action["who"]),
            action=action_name(language, str(action["kind"])),
        )
    waiting = [
        _t(
            language,
            "{who}: {decision}",
            who=player_name(view, code),
            decision=_prompt_words(language, prompt),
        )
        + (_t(language, ", sealed") if prompt.get("sealed") else "")
        for code, prompt in (play.get("prompts") or {}).items()
    ]
    order = ", ".join(_short_name(view, code) for code in view.get("turn_order", []))
    wait = " " + _t(language, "Waiting for {waiting}.", waiting="; ".join(waiting)) if waiting else ""
    now = _t(language, "{head}: {phase}.", head=head, phase=phase)
    return f"{now}{wait} {princeps}. {_t(language, 'Order of play: {order}.', order=order)}"


def _unstopped(text: str) -> str:
    """A sentence without its full stop (inside the pseudo-locale's closing marker too)."""
    if text.endswith("." + CLOSE):
        return text[:-2] + CLOSE
    return text.removesuffix(".")


def _prompt_words(language: str, prompt: dict[str, Any]) -> str:
    kind = str(prompt.get("kind", "decision"))
    return _t(language, PROMPT_WORDS[kind]) if kind in PROMPT_WORDS else kind.replace("_", " ")


def _short_name(view: dict[str, Any], code: str) -> str:
    """A played principality's player by name alone, any other principality by its name."""
    player = view["players"].get(code) if code in view["seats"] else None
    if player is None:
        return principality(code, _language(view))
    return named(view, player["seat"], fallback=principality(code))


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
    language = _language(view)
    stage = BATTLE_STAGES.get(str(battle.get("stage", "")).split("_")[0])
    now = " " + _t(language, "(now: {stage})", stage=_t(language, stage)) if stage else ""
    sides = [
        _t(
            language,
            verb,
            who=player_name(view, battle["sides"][side]),
            units=units_text(battle["units"][side], language) or _t(language, "no units"),
        )
        for side, verb in (("A", "{who} attacks with {units}"), ("D", "{who} defends with {units}"))
    ]
    return _t(
        language,
        "Battle in {land}{now}: {sides}.",
        land=land_name(battle["land"], language),
        now=now,
        sides=", ".join(sides),
    )


def _player(view: dict[str, Any], code: str) -> str:
    """One player's tracks from the side panel: Might, People, Clergy, gold, hand size, plan sealed."""
    language = _language(view)
    player = view["players"][code]
    values = {"might": view["might"].get(code, 0), **player}
    tracks = ", ".join(_t(language, TRACK_VALUES[key], n=values[key]) for key, _ in TRACKS)
    marks = [_count(language, player["hand_size"], "{n} card", "{n} cards")]
    if player.get("plan_sealed"):
        marks.append(_t(language, "plan sealed"))
    if player.get("eliminated"):
        marks.append(_t(language, "eliminated"))
    return f"{player_name(view, code)}: {tracks}, {', '.join(marks)}."


def _princes_and_tiles(view: dict[str, Any]) -> str:
    """The rest of each player's block: the ruling Prince and the Progress tiles."""
    data, language = catalog(), _language(view)
    parts = []
    for code in view["seats"]:
        player = view["players"][code]
        who = _short_name(view, code)
        if player.get("prince"):
            prince = title_in(language, data.kind_of(player["prince"])["name"])
            part = _t(language, "{who}: Prince {prince}", who=who, prince=prince)
        else:
            part = _t(language, "{who}: Prince no Prince", who=who)
        tiles = [
            title_in(language, data.kind_of(tile)["title"])
            for pile in player["progress"].values()
            for tile in pile
        ]
        if tiles:
            part += _t(language, ", Progress {tiles}", tiles=", ".join(tiles))
        parts.append(part)
    return f"{'; '.join(parts)}."


def _private(view: dict[str, Any]) -> str:
    you = view.get("you")
    if not you:
        return ""
    language = _language(view)
    if language == DEFAULT:
        hand = you.get("hand_labels") or [catalog().kind_of(card)["title"] for card in you.get("hand", [])]
    else:
        hand = [_hand_label(language, card) for card in you.get("hand", [])]
    plan = you.get("plan")
    plan_text = (
        ", ".join(action_name(language, action) for action in plan)
        if plan
        else _t(language, "not sealed yet")
    )
    return _t(
        language,
        "Your hand: {hand}. Your plan: {plan}.",
        hand="; ".join(hand) or _t(language, "empty"),
        plan=plan_text,
    )


def _hand_label(language: str, card: str) -> str:
    """A card of the hand as the private view's labels list it (``Battle: Hired Knights (b04a) [sword]``), in
    the reader's language."""
    record = catalog().kind_of(card)
    icon = record.get("support") or record.get("corner") or ""
    deck = DECK_TAGS.get(str(record.get("deck")))
    title = titled(title_in(language, str(record.get("title") or card)), card.lower())
    label = f"{_t(language, deck)}: {title}" if deck else title
    return f"{label} [{card_icon(language, icon)}]" if icon else label


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
    language = _language(view)
    return _t(
        language,
        "{who} holds {lands}: {list}.",
        who=player_name(view, code),
        lands=_count(language, len(held), "{n} land", "{n} lands"),
        list="; ".join(_land(view, land) for land in held),
    )


def _land(view: dict[str, Any], land: str) -> str:
    language = _language(view)
    record = view["lands"][land]
    things = [_city(land, gord, kind, language) for gord, kind in record.get("cities", {}).items()]
    if record.get("building"):
        things.append(_word(language, str(record["building"])))
    if record.get("division"):
        things.append(_t(language, "Division token"))
    controller = view["control"].get(land)
    for faction, units in record.get("units", {}).items():
        pieces = units_text(units, language)
        if pieces:
            things.append(pieces if faction == controller else f"{principality(faction, language)}: {pieces}")
    return f"{land_name(land)} ({', '.join(things)})" if things else land_name(land)


def _history(view: dict[str, Any]) -> str:
    language = _language(view)
    history = view["history"]
    if not history.get("revealed"):
        return _t(language, "No History card revealed yet ({n} in the deck).", n=history["deck"])
    card = catalog().kind_of(history["revealed"])
    titles = [icon_title(language, icon) for icon in card.get("icons", [])]
    icons = listing(titles) if language == DEFAULT else (listed(language, titles) or _t(language, "none"))
    head = _t(
        language,
        "History card {year}: {title}, end of Round: {icons}.",
        year=card["year"],
        title=title_in(language, card["title"]),
        icons=icons,
    )
    return f"{head} {title_in(language, card['text'])}"


def _offmap(view: dict[str, Any]) -> str:
    language = _language(view)
    armies = []
    for area, record in view.get("offmap", {}).items():
        for faction, units in record.get("units", {}).items():
            pieces = units_text(units, language)
            if pieces:
                armies.append(f"{land_name(area, language)}: {principality(faction, language)} {pieces}")
    return _t(language, "Off the map: {armies}.", armies="; ".join(armies)) if armies else ""


def _market(view: dict[str, Any]) -> str:
    data, language = catalog(), _language(view)
    piles = [
        f"{_word(language, colour)}: "
        + (
            ", ".join(title_in(language, data.kind_of(tile)["title"]) for tile in pile["face_up"])
            or _t(language, "empty")
        )
        for colour, pile in view["market"].items()
    ]
    return _t(language, "Market: {piles}.", piles="; ".join(piles))


# ---- the seat's own changes, for the catch-up digest -------------------------------------------------------------
# Canonical English, read back by the catalog's templates at delivery (each line "• <change>"): every sentence
# has one template, its free parts (a card's title, a Prince's name, lands' Latin names) between fixed words, and
# a tracks line's clauses are read one by one (``i18n._clauses``).
#: a track's change, as a clause of the tracks line
TRACK_CHANGES = (*TRACKS, ("hand_size", "cards in hand"))
#: a kind of unit, as the sentence on its count on the map names it
UNIT_PLURALS = {"prince": "Princes", "princess": "Princesses", "knight": "Knights", "footman": "Footmen"}


def view_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed for the viewing seat between two of its own views, one sentence each: its tracks and gold,
    its Prince, its hand (each card by title, its own hand only), the lands it holds, its units on the map, its
    Cities and buildings there, its tiles."""
    you = after.get("you") or before.get("you")
    if not you:
        return []
    code = you["principality"]
    return [
        line
        for line in (
            _track_changes(before, after, code),
            *_prince_changes(before, after, code),
            *_hand_changes(before, after),
            _land_changes(before, after, code),
            *_piece_changes(before, after, code),
            *_tile_changes(before, after, code),
        )
        if line
    ]


def _values(view: dict[str, Any], code: str) -> dict[str, Any]:
    player = view["players"][code]
    return {"might": view["might"].get(code, 0), **player}


def _track_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> str:
    old, new = _values(before, code), _values(after, code)
    changed = [f"{label} {old[key]} → {new[key]}" for key, label in TRACK_CHANGES if old[key] != new[key]]
    return f"Your tracks: {'; '.join(changed)}." if changed else ""


def _prince_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> list[str]:
    old, new = _values(before, code), _values(after, code)
    lines = []
    if old.get("prince") != new.get("prince") and new.get("prince"):
        lines.append(f"Your new Prince: {catalog().kind_of(new['prince'])['name']}.")
    if old.get("eliminated") != new.get("eliminated") and new.get("eliminated"):
        lines.append("You are eliminated.")
    return lines


def _hand_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    old = Counter((before.get("you") or {}).get("hand", []))
    new = Counter((after.get("you") or {}).get("hand", []))
    gained, lost = sorted((new - old).elements()), sorted((old - new).elements())
    return [f"Your hand: gained {_card(card)}." for card in gained] + [
        f"Your hand: gone {_card(card)}." for card in lost
    ]


def _card(card: str) -> str:
    """ "(c04a) Papal Legate (Jacob of Liège, 1248)": the id first, so that a template reads the title whole."""
    return f"({card.lower()}) {catalog().kind_of(card)['title']}"


def _land_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> str:
    old = {land for land, controller in before["control"].items() if controller == code}
    new = {land for land, controller in after["control"].items() if controller == code}
    gained = ", ".join(land_name(land) for land in sorted(new - old, key=land_name))
    lost = ", ".join(land_name(land) for land in sorted(old - new, key=land_name))
    now = counted(len(new), "land")
    if gained and lost:
        return f"Your lands: gained {gained}; lost {lost} (now {now})."
    if gained:
        return f"Your lands: gained {gained} (now {now})."
    if lost:
        return f"Your lands: lost {lost} (now {now})."
    return ""


def _piece_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> list[str]:
    """Your units on the map, and Cities and buildings founded or lost in the lands you hold now or held."""
    old_units, new_units = _own_units(before, code), _own_units(after, code)
    lines = [
        f"Your {UNIT_PLURALS[unit]} on the map: {old_units.get(unit, 0)} → {new_units.get(unit, 0)}."
        for unit in UNIT_WORDS
        if old_units.get(unit, 0) != new_units.get(unit, 0)
    ]
    lands = {land for view in (before, after) for land, owner in view["control"].items() if owner == code}
    for land in sorted(lands, key=land_name):
        old, new = _built(before, land), _built(after, land)
        lines += [f"Your pieces: new {thing} in {land_name(land)}." for thing in sorted(new - old)]
        lines += [f"Your pieces: {thing} gone from {land_name(land)}." for thing in sorted(old - new)]
    return lines


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


def _tile_changes(before: dict[str, Any], after: dict[str, Any], code: str) -> list[str]:
    def tiles(view: dict[str, Any]) -> Counter[str]:
        return Counter(tile for pile in view["players"][code]["progress"].values() for tile in pile)

    gained = sorted((tiles(after) - tiles(before)).elements())
    return [f"Your Progress tiles: gained {catalog().kind_of(tile)['title']}." for tile in gained]


# ---- the log's unit moves, for the catch-up digest's net effect ----------------------------------------------------
# The lines of a Movement (``rules.principes.play.movement``) and of an army a player moves (a Neighbour's, a
# neutral principality's, the Invaders': ``neighbours.move_answer``) and their takebacks, read back from their
# words; a takeback takes back the mover's latest move (its Movement's, or that army's).


@cache
def _move_patterns() -> dict[str, re.Pattern[str]]:
    data = catalog()
    places = sorted(
        {str(record["name"]) for record in (*data.lands.values(), *data.offmap.values())},
        key=len,
        reverse=True,
    )
    factions = sorted({str(record["name"]) for record in data.factions.values()}, key=len, reverse=True)
    place, faction = "|".join(map(re.escape, places)), "|".join(map(re.escape, factions))
    unit = "Prince|Knight|Footman"
    return {
        "move": re.compile(
            rf"(?P<head>(?P<who>.+?) moves an? (?P<unit>{unit}) from )(?P<origin>{place})(?P<middle> to )"
            rf"(?P<target>{place})(?P<tail>\.)"
        ),
        "neighbour_move": re.compile(
            rf"(?P<head>(?P<who>.+?) moves an? (?P<faction>{faction}) (?P<unit>{unit}) from )(?P<origin>{place})"
            rf"(?P<middle> to )(?P<target>{place})(?P<tail>\.)"
        ),
        "undo": re.compile(
            rf"(?P<who>.+?) takes back the move of an? (?P<unit>{unit}) to (?P<target>{place})\."
        ),
        "army_undo": re.compile(rf"(?P<who>.+?) takes back a move of (?P<faction>{faction})\."),
    }


def read_move_line(kind: str, text: str) -> MovedLine | TakenBackLine | None:
    """A Movement's or an army's move of one unit, or its takeback, from its log line; None for other lines."""
    patterns = _move_patterns()
    if kind in ("move", "neighbour_move"):
        found = patterns[kind].fullmatch(text)
        if found is None:
            return None
        parts = found.groupdict()
        mover = parts["who"] if kind == "move" else f"{parts['who']} | {parts['faction']}"
        return MovedLine(
            mover,
            parts["unit"],
            parts["head"],
            parts["origin"],
            parts["middle"],
            parts["target"],
            parts["tail"],
        )
    if kind == "undo":
        found = patterns["undo"].fullmatch(text)
        if found is not None:
            return TakenBackLine(found["who"], found["unit"], found["target"])
        found = patterns["army_undo"].fullmatch(text)
        if found is not None:
            return TakenBackLine(f"{found['who']} | {found['faction']}")
    return None
