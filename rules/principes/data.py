"""PRINCIPES game data: the map, the components and the setup tables, loaded once and validated.

The three JSON files under ``rules/principes/data/`` are THE one place to swap in the official components when
they are published: ``map.json`` (44 lands, borders, off-map areas), ``components.json`` (Prince, History, Court,
Battle and Neighbour cards, Progress tiles) and ``setup.json`` (factions, unit pools, deployment, supplies, die).
Everything here is reconstructed (``docs/principes/principes-resolutions.md``); ``validate`` checks the rulebook's hard
constraints so that a replacement file that breaks one fails loudly.
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .effects import EffectError, Names, Term, parse_effect

DATA_DIR = Path(__file__).parent / "data"
PRINCIPALITIES = ("PMA", "MAS", "PMI", "SIL")
DECK_KINDS = ("court", "battle", "neighbour")
COLOURS = ("green", "yellow", "rose", "blue", "brown", "gray")
UNIT_TYPES = ("prince", "princess", "knight", "footman")
#: the Invaders' faction ids (Balts: Prussians and Lithuanians; Teutonic Knights; Mongols)
PRUSSIANS, LITHUANIANS, TEUTONS, MONGOLS = "PRU", "LIT", "TEU", "MON"


@dataclass(frozen=True)
class Catalog:
    """The loaded data, with indexes the rules and the renderer use."""

    map: dict[str, Any]
    components: dict[str, Any]
    setup: dict[str, Any]
    lands: dict[str, dict[str, Any]]
    adjacency: dict[str, frozenset[str]]
    offmap: dict[str, dict[str, Any]]
    factions: dict[str, dict[str, Any]]
    #: card or tile kind id -> its record (with ``deck`` set to court/battle/neighbour/history/prince/progress)
    kinds: dict[str, dict[str, Any]]
    #: kind id -> parsed effect statements
    effects: dict[str, tuple[Term, ...]]
    #: the land and faction ids effects may name
    names: Names

    def kind_of(self, instance: str) -> dict[str, Any]:
        """The record of a card or tile instance id (``C03b`` -> ``C03``) or of a kind id itself."""
        return self.kinds[instance if instance in self.kinds else instance_kind(instance)]

    def principality_lands(self, principality: str) -> list[str]:
        return [land for land, record in self.lands.items() if record["principality"] == principality]

    def land_might(self, land: str) -> int:
        return sum(gord["might"] for gord in self.lands[land]["gords"])


def instance_kind(instance: str) -> str:
    """Instance ids add a copy letter to the kind id (``B05a``); single cards use the kind id itself."""
    return instance[:-1] if instance[-1] in "ab" and instance[-2].isdigit() else instance


def instances(record: dict[str, Any]) -> list[str]:
    """The instance ids of one card or tile kind: ``X`` alone, or ``Xa``, ``Xb`` ... for its copies."""
    copies = int(record.get("copies", 1))
    return [record["id"]] if copies == 1 else [record["id"] + "abcdefgh"[n] for n in range(copies)]


def _read(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    return loaded


@cache
def catalog() -> Catalog:
    """Load and index the data files once per process (they are static)."""
    game_map, components, setup = _read("map.json"), _read("components.json"), _read("setup.json")
    lands = {land["id"]: land for land in game_map["lands"]}
    adjacency: dict[str, set[str]] = {land: set() for land in lands}
    for first, second in game_map["borders"]:
        adjacency[first].add(second)
        adjacency[second].add(first)
    factions = {faction["id"]: faction for faction in setup["factions"]}
    names = Names.of(lands, factions)
    kinds: dict[str, dict[str, Any]] = {}
    effects: dict[str, tuple[Term, ...]] = {}
    for deck, key in (
        ("prince", "princes"),
        ("history", "history"),
        ("court", "court"),
        ("battle", "battle"),
        ("neighbour", "neighbour"),
        ("progress", "progress"),
    ):
        for record in components[key]:
            kinds[record["id"]] = {**record, "deck": deck}
            effects[record["id"]] = parse_effect(
                record["effect"],
                f"{deck} {record['id']} ({record.get('title') or record.get('name')})",
                names,
            )
    return Catalog(
        map=game_map,
        components=components,
        setup=setup,
        lands=lands,
        adjacency={land: frozenset(near) for land, near in adjacency.items()},
        offmap={area["id"]: area for area in game_map["offmap_areas"]},
        factions=factions,
        kinds=kinds,
        effects=effects,
        names=names,
    )


def parse_text(text: str, where: str = "effect") -> tuple[Term, ...]:
    """An effect string parsed against the loaded map's lands and factions."""
    return parse_effect(text, where, catalog().names)


def city_token(land: str, gord: dict[str, Any]) -> str:
    """The City token a gord takes (rulebook COMPONENTS, City Tokens): a Capital's 2-Might gord the capital
    token, the other Might gords their named City token, small gords a Civitas (small City)."""
    if catalog().lands[land]["capital"] and gord["might"] == 2:
        return "capital"
    return "city" if gord["might"] else "civitas"


# ---- validation of the rulebook's hard constraints (resolutions section 1.1) --------------------------------


def validate(data: Catalog | None = None) -> list[str]:
    """Every broken constraint as a sentence; an empty list means the data is consistent."""
    data = data or catalog()
    problems: list[str] = []
    for check in (_check_lands, _check_borders, _check_might, _check_components, _check_setup):
        problems.extend(check(data))
    return problems


def _check_lands(data: Catalog) -> list[str]:
    problems = []
    if len(data.lands) != 44:
        problems.append(f"the map has {len(data.lands)} lands, not 44")
    for principality in PRINCIPALITIES:
        count = len(data.principality_lands(principality))
        if count != 10:
            problems.append(f"{principality} has {count} lands, not 10")
    kinds = [land["kind"] for land in data.lands.values()]
    if kinds.count("central") != 2 or kinds.count("pomerania") != 2:
        problems.append("the map needs 2 central lands and 2 Pomeranias")
    marks = {
        mark: [land for land, record in data.lands.items() if mark in record["marks"]]
        for mark in ("archbishopric", "senior_throne", "clergy_point", "teutonic", "division_start")
    }
    expected = {
        "archbishopric": ["gnesna"],
        "senior_throne": ["cracovia"],
        "clergy_point": ["lancicia"],
        "teutonic": ["culmen"],
    }
    for mark, lands in expected.items():
        if marks[mark] != lands:
            problems.append(f"the {mark} mark belongs on {lands}, not {marks[mark]}")
    division = marks["division_start"]
    if len(division) != 3 or any(data.lands[land]["principality"] != "SIL" for land in division):
        problems.append("Silesia needs exactly 3 Division lands")
    if len(data.lands["pomocc"]["gords"]) != 2:
        problems.append("Western Pomerania has two gords")
    if len(data.offmap) != 6:
        problems.append("there are six off-map areas")
    for area in data.offmap.values():
        problems.extend(
            f"off-map area {area['id']} touches unknown land {land}"
            for land in area["touches"]
            if land not in data.lands
        )
    return problems


def _check_borders(data: Catalog) -> list[str]:
    problems = [
        f"border {pair} names an unknown land"
        for pair in data.map["borders"]
        if any(land not in data.lands for land in pair) or pair[0] == pair[1]
    ]
    start = next(iter(data.lands))
    seen, queue = {start}, deque([start])
    while queue:
        for near in data.adjacency[queue.popleft()] - seen:
            seen.add(near)
            queue.append(near)
    if len(seen) != len(data.lands):
        problems.append(f"the map is not connected: {sorted(set(data.lands) - seen)} cannot be reached")
    return problems


def _check_might(data: Catalog) -> list[str]:
    problems = []
    for principality in PRINCIPALITIES:
        gords = [
            gord["might"]
            for land in data.principality_lands(principality)
            for gord in data.lands[land]["gords"]
        ]
        capital = data.map["principalities"][principality]["capital"]
        if sorted(gord for gord in gords if gord) != [1, 1, 2] or data.land_might(capital) != 2:
            problems.append(f"{principality} must start with 4 Might: a capital of 2 and two gords of 1")
    might_gords = [gord for land in data.lands.values() for gord in land["gords"] if gord["might"]]
    if len(might_gords) != 17:
        problems.append(f"{len(might_gords)} gords give Might, not 17")
    tokens = data.setup["supplies"]["city_tokens"]
    capitals = sum(1 for land in data.lands.values() if land["capital"])
    named = sum(1 for gord in might_gords if gord["might"] == 1)
    if (tokens["capital"], tokens["city"], tokens["civitas"]) != (capitals, named, 8):
        problems.append("city tokens must be 4 capital, 13 named (one per 1-Might gord) and 8 Civitas")
    for land in data.lands.values():
        if "division_start" in land["marks"] and data.land_might(land["id"]):
            problems.append(f"Division land {land['id']} must give 0 Might")
        if "teutonic" in land["marks"] and data.land_might(land["id"]):
            problems.append("the Teutonic land takes a Civitas, so it must be a 0-Might gord")
    return problems


def _check_components(data: Catalog) -> list[str]:
    problems = []
    counts = {deck: 0 for deck in ("prince", "court", "battle", "neighbour", "history", "progress")}
    for record in data.kinds.values():
        counts[record["deck"]] += len(instances(record))
    expected = {"prince": 18, "court": 32, "battle": 32, "neighbour": 12, "history": 18, "progress": 48}
    problems += [
        f"{deck}: {counts[deck]} components, not {expected[deck]}"
        for deck in expected
        if counts[deck] != expected[deck]
    ]
    by_principality = [
        sum(1 for r in data.components["princes"] if r["principality"] == p) for p in PRINCIPALITIES
    ]
    if by_principality != [5, 5, 3, 5]:
        problems.append(f"Princes per principality are {by_principality}, not 5/5/3/5")
    for period in (1, 2, 3):
        if sum(1 for r in data.components["history"] if r["period"] == period) != 6:
            problems.append(f"Period {period} needs 6 History cards")
    for colour in COLOURS:
        tiles = [r for r in data.components["progress"] if r["colour"] == colour]
        if len(tiles) != 4 or any(r["copies"] != 2 for r in tiles):
            problems.append(f"the {colour} Progress stack needs 4 kinds of 2 tiles")
    for record in data.kinds.values():
        text = record.get("text", "")
        if text.count(". ") or not text.endswith("."):
            problems.append(f"{record['id']}: its text must be one sentence")
    return problems


def _check_setup(data: Catalog) -> list[str]:
    problems = []
    pools = data.setup["pools"]
    for principality, deployment in data.setup["deployment"].items():
        for variant in ("always", "both"):
            placed = dict.fromkeys(UNIT_TYPES, 0)
            sources = [deployment["always"]] + ([deployment["neutral_extra"]] if variant == "both" else [])
            for source in sources:
                for land, units in source.items():
                    if data.lands[land]["principality"] != principality:
                        problems.append(f"{principality} deploys on {land}, outside its borders")
                    for unit, count in units.items():
                        placed[unit] += count
            problems += [
                f"{principality} deploys {placed[u]} {u}s but has {pools[principality].get(u, 0)}"
                for u in UNIT_TYPES
                if placed[u] > pools[principality].get(u, 0)
            ]
    return problems


class DataError(EffectError):
    """The data files break a rulebook constraint; the message lists every problem."""


@cache
def checked_catalog() -> Catalog:
    """The catalog after ``validate``: a replacement data file that breaks a constraint is refused here."""
    data = catalog()
    problems = validate(data)
    if problems:
        raise DataError("The PRINCIPES data files are inconsistent: " + "; ".join(problems) + ".")
    return data


def check_all_effects() -> dict[str, tuple[Term, ...]]:
    """Parse every component's effect again (the tests call this); raises ``EffectError`` on the first bad one."""
    data = catalog()
    return {kind: parse_effect(record["effect"], kind, data.names) for kind, record in data.kinds.items()}


__all__ = [
    "Catalog",
    "DataError",
    "EffectError",
    "catalog",
    "check_all_effects",
    "checked_catalog",
    "city_token",
    "instance_kind",
    "instances",
    "parse_text",
    "validate",
]
