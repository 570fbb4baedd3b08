"""PRINCIPES I: the game data, the effect vocabulary, the starting position and the views."""

from __future__ import annotations

import json
from collections import Counter, deque

import pytest

from rules.engine import OptionError, Rng, get_game
from rules.principes import GAME
from rules.principes.data import PRINCIPALITIES, catalog, check_all_effects, instances, parse_text, validate
from rules.principes.effects import PRIMITIVES, EffectError, Names, parse_effect, primitives_used
from rules.principes.state import controllers, might


def start(players: int, seed: int = 1, **options: str) -> dict:
    return GAME.setup(players, options, Rng.for_event(seed, 0))


# ---- map ------------------------------------------------------------------------------------------------------


def test_the_data_files_keep_every_rulebook_constraint() -> None:
    assert validate() == []


def test_44_lands_10_per_principality_2_central_2_pomeranias() -> None:
    lands = catalog().lands
    assert len(lands) == 44
    counts = Counter(record["principality"] for record in lands.values())
    assert counts == {"PMA": 10, "MAS": 10, "PMI": 10, "SIL": 10, "CEN": 2, "WPOM": 1, "EPOM": 1}


def test_borders_are_symmetric_unique_and_connect_the_map() -> None:
    data = catalog()
    pairs = [tuple(sorted(pair)) for pair in data.map["borders"]]
    assert len(pairs) == len(set(pairs)) == 103
    for land, neighbours in data.adjacency.items():
        assert land not in neighbours
        assert all(land in data.adjacency[other] for other in neighbours)
    seen, queue = {"cracovia"}, deque(["cracovia"])
    while queue:
        for reached in data.adjacency[queue.popleft()] - seen:
            seen.add(reached)
            queue.append(reached)
    assert seen == set(data.lands)


def test_each_principality_has_a_capital_of_2_and_two_gords_of_1() -> None:
    data = catalog()
    for code in PRINCIPALITIES:
        capital = data.map["principalities"][code]["capital"]
        assert data.lands[capital]["capital"] and data.land_might(capital) == 2
        gords = sorted(data.land_might(land) for land in data.principality_lands(code) if land != capital)
        assert gords == [0] * 7 + [1, 1]


def test_17_gords_give_might_and_city_tokens_are_4_13_8() -> None:
    data = catalog()
    might_gords = [gord for land in data.lands.values() for gord in land["gords"] if gord["might"]]
    assert len(might_gords) == 17
    assert sum(gord["might"] for gord in might_gords) == 21
    assert data.setup["supplies"]["city_tokens"] == {"capital": 4, "city": 13, "civitas": 8}
    assert data.setup["supplies"]["buildings"] == {"castle": 8, "tiltyard": 8, "abbey": 8}
    assert data.setup["supplies"]["division"] == 12


def test_special_lands() -> None:
    data = catalog()
    division = [land for land, record in data.lands.items() if "division_start" in record["marks"]]
    assert sorted(division) == ["opolia", "ratiboria", "teschinum"]
    assert all(data.land_might(land) == 0 and data.lands[land]["principality"] == "SIL" for land in division)
    assert "archbishopric" in data.lands["gnesna"]["marks"]
    assert "senior_throne" in data.lands["cracovia"]["marks"]
    assert "clergy_point" in data.lands["lancicia"]["marks"]
    assert "teutonic" in data.lands["culmen"]["marks"] and data.land_might("culmen") == 0
    assert [gord["id"] for gord in data.lands["pomocc"]["gords"]] == ["stetinum", "caminum"]


def test_six_off_map_areas_touch_real_lands() -> None:
    data = catalog()
    assert sorted(data.offmap) == ["bohemia", "german_marches", "hungary", "lithuanians", "prussians", "rus"]
    assert data.offmap["hungary"]["touches"] == ["teschinum", "sandecia", "becz"]
    for area in data.offmap.values():
        assert area["faction"] in data.factions
        assert all(land in data.lands for land in area["touches"])


# ---- components -----------------------------------------------------------------------------------------------


def test_deck_sizes_and_progress_tiles() -> None:
    components = catalog().components
    sizes = {
        deck: sum(len(instances(record)) for record in components[deck])
        for deck in ("princes", "court", "battle", "neighbour", "history")
    }
    assert sizes == {"princes": 18, "court": 32, "battle": 32, "neighbour": 12, "history": 18}
    tiles = components["progress"]
    assert len(tiles) == 24 and all(tile["copies"] == 2 for tile in tiles)
    assert sum(len(instances(tile)) for tile in tiles) == 48
    assert Counter(tile["colour"] for tile in tiles) == dict.fromkeys(
        ("green", "yellow", "rose", "blue", "brown", "gray"), 4
    )
    assert sum(1 for tile in tiles if tile["rulebook"]) == 14


def test_princes_by_principality_and_period() -> None:
    princes = catalog().components["princes"]
    assert Counter(p["principality"] for p in princes) == {"PMA": 5, "MAS": 5, "PMI": 3, "SIL": 5}
    for code in PRINCIPALITIES:
        periods = {p["period"] for p in princes if p["principality"] == code}
        assert periods == {1, 2, 3}
    names = {p["name"] for p in princes}
    assert {"Leszek the White", "Leszek the Black", "Henry the Pious", "Przemysł II"} <= names


def test_history_cards_keep_the_period_constraints() -> None:
    history = catalog().components["history"]
    assert Counter(card["period"] for card in history) == {1: 6, 2: 6, 3: 6}
    assert any(card["title"] == "Spring Thaw" for card in history)
    for card in history:
        assert len(card["icons"]) == 2
        if "mongols" in card["icons"]:
            assert card["period"] >= 2
        if "teutonic" in card["icons"]:
            assert card["year"] >= 1226
    councils = Counter(card["period"] for card in history for icon in card["icons"] if icon == "council")
    assert councils[3] > max(councils[1], councils[2])


def test_card_icons_gold_and_corners() -> None:
    components = catalog().components
    for card in components["court"] + components["neighbour"]:
        assert card["support"] in ("people", "clergy", "either") and card["gold"] == 1
    assert Counter(card["corner"] for card in components["battle"]) == {"sword": 6, "shield": 6, "either": 4}
    assert {card["timing"] for card in components["battle"]} == {"before_battle", "after_battle", "none"}
    assert any(card["title"] == "Heir" for card in components["court"])
    neighbours = components["neighbour"]
    assert sum(1 for card in neighbours if card["faction"] == "any") == 2


def test_every_effect_parses_into_known_primitives() -> None:
    parsed = check_all_effects()
    assert len(parsed) == 18 + 16 + 16 + 12 + 18 + 24
    used: set[str] = set()
    for kind, statements in parsed.items():
        record = catalog().kinds[kind]
        assert statements or record.get("timing") == "none", f"{kind} has no effect"
        used |= primitives_used(statements)
    assert used <= set(PRIMITIVES)
    assert {
        "gain_track",
        "gain_gold",
        "draw",
        "extra_swords",
        "extra_shields",
        "movement_bonus",
        "immunity",
        "neighbour",
    } <= used


def test_effects_become_plain_data() -> None:
    (statement,) = parse_text("if(opponent(invader), extra_shields(1))")
    assert statement.to_data() == {
        "op": "if",
        "args": [{"op": "opponent", "args": ["invader"]}, {"op": "extra_shields", "args": [1]}],
    }
    (choice,) = parse_text("track_cost(taxes, people|clergy)")
    assert choice.to_data() == {"op": "track_cost", "args": ["taxes", {"any_of": ["people", "clergy"]}]}


@pytest.mark.parametrize(
    "text",
    [
        "gain_track(self, gold, 1)",  # gold is not a support track
        "fly(self, 2)",  # unknown primitive
        "draw(self, court)",  # missing argument
        "gain_gold(controller(atlantis), 1)",  # unknown land
        "extra_swords(1) extra_shields(1)",  # missing separator
        "if(sunny, draw(self, battle, 1))",  # unknown condition
    ],
)
def test_bad_effects_are_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(EffectError, match="card X"):
        parse_text(text, "card X")


def test_the_vocabulary_checks_lands_against_the_names_it_is_given() -> None:
    """``effects`` knows no map: the lands and factions an effect may name come from its caller."""
    names = Names.of(["posnania"], ["PMA"])
    (statement,) = parse_effect("gain_gold(controller(posnania), 1)", "card X", names)
    assert statement.to_data() == {"op": "gain_gold", "args": [{"op": "controller", "args": ["posnania"]}, 1]}
    with pytest.raises(EffectError, match="'gnesna' is not a land of the map"):
        parse_effect("gain_gold(controller(gnesna), 1)", "card X", names)


# ---- setup ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_position(players: int) -> None:
    state = start(players)
    data = catalog()
    assert len(state["seats"]) == players and len(state["neutral"]) == 4 - players
    assert might(state) == dict.fromkeys(PRINCIPALITIES, 4)
    for code, player in state["players"].items():
        assert (player["gold"], player["people"], player["clergy"]) == (5, 4, 4)
        kinds = sorted(data.kind_of(card)["deck"] for card in player["hand"])
        assert kinds == ["battle", "court", "neighbour"]
        assert data.kind_of(player["prince"])["period"] == 1
        capital = data.map["principalities"][code]["capital"]
        assert state["lands"][capital]["units"][code] == {"prince": 1, "knight": 1}
    hands = [card for player in state["players"].values() for card in player["hand"]]
    assert len(hands) == len(set(hands)) == 3 * players
    assert {deck: len(cards) for deck, cards in state["decks"].items()} == {
        "court": 32 - players,
        "battle": 32 - players,
        "neighbour": 12 - players,
    }
    assert [data.kinds[card]["period"] for card in state["history"]["deck"]] == [1, 1, 2, 2, 3, 3]
    json.loads(json.dumps(state))  # plain JSON data


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_unit_is_somewhere_exactly_once(players: int) -> None:
    state = start(players)
    totals: Counter[tuple[str, str]] = Counter()
    places = [*state["lands"].values(), *state["offmap"].values(), state["supply"]]
    for place in places:
        for faction, units in place["units"].items():
            for unit, count in units.items():
                totals[(faction, unit)] += count
    pools = catalog().setup["pools"]
    assert totals == Counter({(f, u): n for f, pool in pools.items() for u, n in pool.items()})


def test_neutral_principalities_get_their_extra_units() -> None:
    state = start(2)  # standard duel: Polonia Maior vs Polonia Minor, Masovia and Silesia neutral
    assert state["seats"] == ["PMA", "PMI"] and state["neutral"] == ["MAS", "SIL"]
    assert state["lands"]["plocium"]["units"]["MAS"] == {"prince": 1, "knight": 2}
    assert state["lands"]["wyszegrad"]["units"]["MAS"] == {"footman": 1}
    assert state["lands"]["opolia"]["units"]["SIL"] == {"footman": 1}
    assert not any(land["division"] for land in state["lands"].values())  # Silesia is not played
    assert "PMA" not in state["lands"]["medzirecze"]["units"]


def test_division_tokens_and_princeps() -> None:
    state = start(4)
    divided = sorted(land for land, record in state["lands"].items() if record["division"])
    assert divided == ["opolia", "ratiboria", "teschinum"]
    assert state["supply"]["tokens"]["division"] == 9
    assert state["princeps"]["holder"] == "PMI"
    assert start(2, principalities="pma-sil")["princeps"]["holder"] == "PMA"
    assert start(2, principalities="mas-sil")["princeps"]["holder"] == "SIL"
    assert controllers(state)["opolia"] is None and controllers(state)["lancicia"] is None


def test_market_shows_two_different_tiles_per_colour() -> None:
    for seed in range(20):
        state = start(4, seed)
        for colour, pile in state["market"].items():
            kinds = [catalog().kind_of(tile)["id"] for tile in pile["face_up"]]
            assert len(kinds) == 2 and kinds[0] != kinds[1]
            assert all(
                catalog().kind_of(tile)["colour"] == colour for tile in pile["face_up"] + pile["stack"]
            )
            assert len(pile["stack"]) == 6


def test_same_seed_same_game_other_seed_other_decks() -> None:
    assert start(3, 5) == start(3, 5)
    assert start(3, 5)["decks"] != start(3, 6)["decks"]


def test_options() -> None:
    no_heir = start(4, elimination="off")
    courts = no_heir["decks"]["court"] + [
        card for p in no_heir["players"].values() for card in p["hand"] if card.startswith("C")
    ]
    assert len(courts) == 30 and not any(card.startswith("C01") for card in courts)
    assert start(2, maior_prince="odonic")["players"]["PMA"]["prince"] == "PMA-1b"
    assert "PMA-1a" in start(2, maior_prince="odonic")["players"]["PMA"]["princes"]
    assert start(2, gold_supply="limited")["supply"]["gold"] == 66 - 10
    assert start(3, principalities="random")["seats"] in (
        ["PMA", "MAS", "PMI"],
        ["PMA", "MAS", "SIL"],
        ["PMA", "PMI", "SIL"],
        ["MAS", "PMI", "SIL"],
    )
    with pytest.raises(OptionError):
        start(3, principalities="pma-pmi")
    with pytest.raises(OptionError):
        start(2, neutrals="sleepy")
    for option in GAME.options:
        assert option.name in GAME.rules_notes


def test_control_follows_units_and_division_tokens() -> None:
    state = start(4)
    state["lands"]["lancicia"]["units"]["MAS"] = {"footman": 1}
    state["lands"]["gnesna"]["units"] = {"SIL": {"knight": 1}}
    control = controllers(state)
    assert control["lancicia"] == "MAS" and control["gnesna"] == "SIL" and control["posnania"] == "PMA"
    assert might(state) == {"PMA": 3, "MAS": 5, "PMI": 4, "SIL": 5}
    state["lands"]["gnesna"]["units"] = {"GER": {"knight": 2}}
    assert controllers(state)["gnesna"] is None


# ---- game object, views and secrets ---------------------------------------------------------------------------


def test_registered_and_playable() -> None:
    game = get_game("principes")
    assert game is GAME and game.playable
    state = start(4)
    assert game.pending(state) and not game.outcome(state).finished
    assert "reconstructed" in game.rules_notes.lower() and "rules/principes/data" in game.rules_notes


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_hide_hands_decks_and_plans(players: int) -> None:
    state = start(players)
    state["players"][state["seats"][0]]["plan"] = ["taxes", "movement", "politics"]
    public = GAME.view(state, None)
    assert "you" not in public
    assert public["decks"] == {deck: len(cards) for deck, cards in state["decks"].items()}
    assert public["history"]["deck"] == 6 and public["market"]["green"]["stack"] == 6
    assert public["players"][state["seats"][0]]["plan_sealed"] is True
    for seat in range(players):
        view = GAME.view(state, seat)
        code = state["seats"][seat]
        assert view["you"]["hand"] == state["players"][code]["hand"]
        assert all("hand" not in player for player in view["players"].values())
        secrets = GAME.secrets(state, seat)
        assert secrets[: len(state["players"][code]["hand"])] == state["players"][code]["hand"]
        for other in [None, *(s for s in range(players) if s != seat)]:
            text = json.dumps(GAME.view(state, other))
            assert not any(secret in text for secret in secrets)
    assert GAME.view(state, 0)["you"]["plan"] == ["taxes", "movement", "politics"]


def test_view_does_not_share_data_with_the_state() -> None:
    state = start(2)
    view = GAME.view(state, 0)
    view["lands"]["posnania"]["units"]["PMA"]["knight"] = 9
    assert state["lands"]["posnania"]["units"]["PMA"]["knight"] == 1


def test_broken_data_is_refused_before_a_game_starts() -> None:
    from dataclasses import replace

    from rules.principes import data as data_module

    data = catalog()
    broken_lands = {**data.lands, "cracovia": {**data.lands["cracovia"], "principality": "SIL"}}
    problems = validate(replace(data, lands=broken_lands))
    assert any("PMI has 9 lands" in problem for problem in problems)
    assert data_module.checked_catalog() is data
