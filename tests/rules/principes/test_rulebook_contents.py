"""The rulebook's TABLE of CONTENTS walked section by section: each rules section names the tests covering it
(a test node id ``path::test``, or a whole module path while its tests are written elsewhere)."""

from __future__ import annotations

import re
from pathlib import Path

RULEBOOK = Path("/work/shared/rules/principes-rulebook.txt")
TESTS = Path(__file__).parents[2]
EXEMPT = {
    "INTRODUCTION",
    "COMPONENTS",
    "STRATEGY TIPS",
    "SOLO MODE",
    "PRINCELY LEGEND",
    "AUTHOR & ACKNOWLEDGMENTS",
    "INDEX & ICONS",
}
P = "tests/rules/principes/"
COVERAGE = {
    "BASIC CONCEPTS": [
        "tests/rules/test_principes_data.py::test_control_follows_units_and_division_tokens",
        P + "test_play_resolutions.py::test_resolution_2_might_from_the_map_and_the_track_clamp",
    ],
    "GAME SETUP": [
        P
        + "test_play_rule_deviations.py::test_the_player_who_removed_a_neutral_prince_chooses_where_he_returns",
        "tests/rules/test_principes_data.py::test_starting_position",
        "tests/rules/test_principes_data.py::test_neutral_principalities_get_their_extra_units",
        P
        + "test_play_variants.py::test_resolution_38_combined_assembly_three_free_units_in_the_neutral_capital",
        P + "test_play_variants.py::test_passive_variant_offers_no_combined_action",
    ],
    "VICTORY": [
        P + "test_play_resolutions.py::test_resolution_35_coronation_wins_the_game",
        P + "test_play_resolutions.py::test_resolution_34_mutual_elimination_is_a_draw",
    ],
    "DYNASTY": [
        P + "test_play_resolutions.py::test_resolution_32_successor_of_a_prince_killed_in_battle",
        P + "test_play_resolutions.py::test_resolution_45_prince_change_at_the_end_of_a_period",
        P + "test_play_princes.py::test_spindleshanks_taxes_paid_with_clergy",
    ],
    "ROUND ORDER": [P + "test_play_examples.py::test_turn_order_example"],
    "PROGRESS ACTION": [
        P + "test_play_examples.py::test_progress_takes_period_tiles_without_duplicates_and_refills"
    ],
    "TAXES ACTION": [
        P + "test_play_examples.py::test_taxes_example",
        P
        + "test_play_rule_deviations.py::test_under_the_privilege_of_cienia_the_taxes_prompt_says_no_people",
    ],
    "ASSEMBLY ACTION": [P + "test_play_examples.py::test_assembly_example"],
    "MOVEMENT ACTION": [
        P + "test_play_examples.py::test_movement_example",
        P + "test_play_rule_deviations.py::test_a_princess_stays_while_her_capital_is_only_attacked",
    ],
    "BATTLES": [
        P + "test_play_examples.py::test_battle_example",
        P + "test_play_examples.py::test_battle_between_two_neutral_factions",
        P + "test_play_rule_deviations.py::test_a_defender_who_wins_keeps_its_abbey_point_unchanged",
        P
        + "test_play_rule_deviations.py::test_a_beaten_neighbour_may_withdraw_to_a_land_it_holds_or_go_home",
    ],
    "BUILDING ACTION": [
        P + "test_play_resolutions.py::test_resolution_1_tiltyard_and_abbey_move_people_and_clergy"
    ],
    "POLITICS ACTION": [
        P + "test_play_resolutions.py::test_resolution_21_politics_split_declared_first_one_returned",
        P + "test_play_examples.py::test_council_example_resolution_46",
        P + "test_play_neighbours.py::test_rulebook_neighbour_example_resolution_22",
        P
        + "test_play_rule_deviations.py::test_a_neighbour_army_that_wins_a_battle_may_destroy_the_buildings",
        P + "test_play_rule_deviations.py::test_a_player_may_let_a_neighbour_army_pass_through_its_units",
        P + "test_play_rule_deviations.py::test_the_mover_chooses_the_order_of_a_neighbour_armys_battles",
    ],
    "PRINCESSES": [
        P + "test_play_princess.py::test_resolution_31_missions_after_the_turn_order_before_the_history_card",
        P + "test_play_princess.py::test_princess_immunity_against_her_neighbour",
        P + "test_play_princess.py::test_princess_removed_when_her_capital_is_taken_and_by_devastation",
    ],
    # the History engineer's module, named as a whole until the lead merges its test ids
    "RESOLVING ICONS of the REVEALED HISTORY CARD": [
        P + "test_play_history.py",
        P + "test_play_rule_deviations.py::test_invaders_may_ask_passage_too",
        P + "test_play_rule_deviations.py::test_the_mover_chooses_the_order_of_the_invaders_battles",
        P
        + "test_play_rule_deviations.py::test_the_caller_of_the_teutonic_knights_withdraws_its_units_where_it_chooses",
    ],
    "CLARIFICATION for CERTAIN PROGRESS TILES": [
        P + "test_play_components.py::test_every_component_has_a_test"
    ],
    "SPECIAL PRINCIPALITY RULES": [
        P + "test_play_resolutions.py::test_resolution_36_elder_blood_and_house_of_princeps"
    ],
}


#: the rulebook's TABLE of CONTENTS, copied so the test runs where the shared rules folder is absent; where it
#: is present, the copy is checked against it
CONTENTS = (
    "INTRODUCTION",
    "COMPONENTS",
    "BASIC CONCEPTS",
    "GAME SETUP",
    "VICTORY",
    "DYNASTY",
    "ROUND ORDER",
    "PROGRESS ACTION",
    "TAXES ACTION",
    "ASSEMBLY ACTION",
    "MOVEMENT ACTION",
    "BATTLES",
    "BUILDING ACTION",
    "POLITICS ACTION",
    "PRINCESSES",
    "RESOLVING ICONS of the REVEALED HISTORY CARD",
    "CLARIFICATION for CERTAIN PROGRESS TILES",
    "SPECIAL PRINCIPALITY RULES",
    "STRATEGY TIPS",
    "SOLO MODE",
    "PRINCELY LEGEND",
    "AUTHOR & ACKNOWLEDGMENTS",
    "INDEX & ICONS",
)


def contents() -> list[str]:
    """The section titles of the TABLE of CONTENTS at the top of the rulebook (``page<TAB>TITLE<TAB>page``)."""
    if not RULEBOOK.exists():
        return list(CONTENTS)
    text = RULEBOOK.read_text()
    block = text[text.index("TABLE of CONTENTS") : text.index("PRINCIPES PRINCES")]
    found = [match.group(1).strip() for match in re.finditer(r"^\d+\t(.+?)\t\d+$", block, re.M)]
    assert tuple(found) == CONTENTS, "the rulebook's contents changed: update CONTENTS and COVERAGE"
    return found


def exists(node: str) -> bool:
    """A module path whose file exists (or, for the History module, is being written in another branch), or a
    ``path::test`` whose module defines that test function."""
    path, _, test = node.partition("::")
    module = TESTS.parent / path
    if not test:
        return module.exists() or path.endswith("test_play_history.py")
    return module.exists() and re.search(rf"^def {re.escape(test)}\(", module.read_text(), re.M) is not None


def test_every_rules_section_names_its_tests() -> None:
    sections = contents()
    assert len(sections) == 23 and sections[0] == "INTRODUCTION" and sections[-1] == "INDEX & ICONS"
    rules_sections = [section for section in sections if section not in EXEMPT]
    assert sorted(rules_sections) == sorted(COVERAGE), "every rules section, and only those, is mapped"
    missing = [node for nodes in COVERAGE.values() for node in nodes if not exists(node)]
    assert not missing, f"named tests that do not exist: {missing}"
    assert all(COVERAGE[section] for section in rules_sections)
