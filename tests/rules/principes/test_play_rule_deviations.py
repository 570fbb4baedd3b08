"""Issue 17's deviations from the PRINCIPES rulebook, each played as a scenario (resolutions 47-53)."""

from __future__ import annotations

from typing import Any

from rules.principes.play import legal_actions, on_deadline
from rules.principes.state import controllers

from .scenario import act, decision_of, new_state, open_action, put, run, seat

State = dict[str, Any]

WINDOW_ANSWERS = {
    "before_battle": "pass",
    "extra_cards": "pass",
    "after_battle": "pass",
    "reroll": "keep",
    "flip": "keep",
}


def fight_through(state: State, draws: list[int]) -> tuple[State, list[str]]:
    """Answer the battle windows with pass/keep (dice from ``draws``) until no such decision is left; returns
    the state and the event kinds logged on the way."""
    kinds: list[str] = []
    for _ in range(30):
        waiting = [code for code in state["seats"] if decision_of(state, code) in WINDOW_ANSWERS]
        if not waiting:
            return state, kinds
        applied = act(state, waiting[0], WINDOW_ANSWERS[str(decision_of(state, waiting[0]))], draws=draws)
        state = applied.state
        kinds += [event.kind for event in applied.events]
    return state, kinds


# ---- 1. a land fought over keeps its controller until the battle is decided (resolution 47) ---------------


def _footman_attacks_posnania() -> State:
    """Polonia Minor's lone Footman on Premet is about to attack Posnania, Polonia Maior's Capital, where the
    Prince and a Knight stand; Polonia Maior's Princess holds court there and an Abbey stands there."""
    state = new_state(2)
    put(state, "premet", "PMI", footman=1)
    state["lands"]["posnania"]["building"] = "abbey"
    state["supply"]["tokens"]["abbey"] -= 1
    state["players"]["PMA"]["princess"] = "posnania"
    put(state, "posnania", "PMA", princess=1)
    state["play"]["princesses"] = {"PMA": {"last": "posnania", "host": "PMA"}}
    for player in state["players"].values():
        player["hand"] = []
    state["players"]["PMA"]["clergy"] = 0
    state = open_action(state, "PMI", "movement")
    state, _ = run(state, "PMI", "move footman premet posnania", "done")
    if decision_of(state, "PMI") == "clergy_penalty":
        state, _ = run(state, "PMI", "penalty posnania gold")
    return state


def test_a_princess_stays_while_her_capital_is_only_attacked() -> None:
    """One Footman attacking a Capital does not end the Princess there: the defender wins and she stays."""
    state = _footman_attacks_posnania()
    assert state["play"]["battle"]["land"] == "posnania"
    assert controllers(state)["posnania"] == "PMA"  # fought over: still Polonia Maior's
    assert state["players"]["PMA"]["princess"] == "posnania"
    state, _ = fight_through(state, [3, 1])  # attacker shield, defender sword: the Footman falls
    assert state["play"]["battle"] is None
    assert state["players"]["PMA"]["princess"] == "posnania"
    assert state["lands"]["posnania"]["units"]["PMA"]["princess"] == 1


def test_a_defender_who_wins_keeps_its_abbey_point_unchanged() -> None:
    """Polonia Maior at 0 Clergy defends the Abbey's land and wins: its Clergy stays 0 (it was neither lost
    nor gained)."""
    state = _footman_attacks_posnania()
    assert state["players"]["PMA"]["clergy"] == 0
    state, kinds = fight_through(state, [3, 1])
    assert "battle_result" in kinds
    assert state["players"]["PMA"]["clergy"] == 0


def test_a_neighbour_passing_an_abbey_and_taken_back_changes_no_track() -> None:
    """A German Knight moved onto Lubusium's Abbey and taken back: Silesia, at 0 Clergy, stays at 0 (the free
    mode's moves count only once they are final)."""
    state = new_state(4)
    state["lands"]["lubusium"]["building"] = "abbey"
    state["supply"]["tokens"]["abbey"] -= 1
    state["players"]["SIL"]["clergy"] = 0
    for player in state["players"].values():
        player["hand"] = []
    state["players"]["PMA"]["hand"] = ["N01"]
    state = open_action(state, "PMA", "politics")
    state, _ = run(state, "PMA", "neighbour n01 ger")
    for code in ("MAS", "PMI", "SIL"):
        if decision_of(state, code) == "neighbour_block":
            state, _ = run(state, code, "pass")
    assert decision_of(state, "PMA") == "neighbour_move"
    state, _ = run(state, "PMA", "move knight german_marches lubusium", "undo")
    assert state["players"]["SIL"]["clergy"] == 0


# ---- 2. a Neighbour army that wins a battle may destroy there (resolution 48) -----------------------------


def _german_knight_before_crosna(hands: dict[str, list[str]] | None = None) -> State:
    """Polonia Maior plays the full German Marches card; the others pass; a Silesian Footman guards Crosna,
    where an Abbey stands."""
    state = new_state(4)
    for player in state["players"].values():
        player["hand"] = []
    state["players"]["PMA"]["hand"] = ["N01"]
    for code, cards in (hands or {}).items():
        state["players"][code]["hand"] = list(cards)
    put(state, "crosna", "SIL", footman=1)
    state["lands"]["crosna"]["building"] = "abbey"
    state["supply"]["tokens"]["abbey"] -= 1
    state = open_action(state, "PMA", "politics")
    state, _ = run(state, "PMA", "neighbour n01 ger")
    for code in ("MAS", "PMI", "SIL"):
        if decision_of(state, code) == "neighbour_block":
            state, _ = run(state, code, "pass")
    return state


def test_a_neighbour_army_that_wins_a_battle_may_destroy_the_buildings() -> None:
    state = _german_knight_before_crosna()
    state, _ = run(state, "PMA", "move knight german_marches crosna", "done")
    assert state["play"]["battle"]["land"] == "crosna"
    state, _ = fight_through(state, [1, 3])  # German sword, Silesian shield: the Footman falls
    assert state["lands"]["crosna"]["units"] == {"GER": {"knight": 1}}
    assert decision_of(state, "PMA") == "neighbour_destroy"
    assert "destroy crosna abbey" in legal_actions(state, seat(state, "PMA"))
    state, kinds = run(state, "PMA", "destroy crosna abbey")
    assert "destruction" in kinds and state["lands"]["crosna"]["building"] is None
    assert decision_of(state, "PMA") == "politics"  # then the Politics action itself


# ---- 3. players may let Neighbour and Invader units pass (resolution 49) ----------------------------------


def test_a_player_may_let_a_neighbour_army_pass_through_its_units() -> None:
    """Polonia Maior asks Silesia to let the German Knight pass Crosna; Silesia allows: the Knight goes on."""
    state = _german_knight_before_crosna()
    pma = seat(state, "PMA")
    assert "ask crosna" in legal_actions(state, pma)
    state, kinds = run(state, "PMA", "ask crosna")
    assert "consent_asked" in kinds and decision_of(state, "SIL") == "consent"
    assert on_deadline(state, seat(state, "SIL")) == "deny"  # silence is a refusal
    state, kinds = run(state, "SIL", "allow")
    assert "consent_allowed" in kinds and decision_of(state, "PMA") == "neighbour_move"
    state, _ = run(state, "PMA", "move knight german_marches crosna")
    assert "move knight crosna lubusium" in legal_actions(state, pma)  # not stopped by the Silesian Footman
    state, _ = run(state, "PMA", "move knight crosna lubusium", "done")
    assert state["lands"]["lubusium"]["units"]["GER"] == {"knight": 1}
    assert state["lands"]["crosna"]["units"] == {"SIL": {"footman": 1}}  # no battle where it passed


def test_a_refused_neighbour_army_stops_on_the_units() -> None:
    state = _german_knight_before_crosna()
    state, _ = run(state, "PMA", "ask crosna")
    state, kinds = run(state, "SIL", "deny")
    assert "consent_denied" in kinds
    pma = seat(state, "PMA")
    assert "ask crosna" not in legal_actions(state, pma)  # asked once per move
    state, _ = run(state, "PMA", "move knight german_marches crosna")
    assert not any(a.startswith("move knight crosna") for a in legal_actions(state, pma))


def test_invaders_may_ask_passage_too() -> None:
    """The Lithuanians moved by the Princeps may ask to pass a player's units (Balt Raid: "if the player
    consents"); neutral units never consent."""
    from .test_play_history import round_end

    state = new_state(4)
    for player in state["players"].values():
        player["hand"] = []
    put(state, "wizna", "MAS", footman=1)
    put(state, "lucovia", "RUS", footman=1)
    state, _ = round_end(state, "H05", ["balt_raid"])
    princeps = state["princeps"]["holder"]
    if decision_of(state, princeps) == "invader_move" and state["play"]["event"]["army"]["faction"] == "PRU":
        state, _ = run(state, princeps, "done")
    assert state["play"]["event"]["army"]["faction"] == "LIT"
    answers = legal_actions(state, seat(state, princeps))
    assert "ask wizna" in answers
    assert "ask lucovia" not in answers  # Rus units: neutral, they never let anyone pass


# ---- 4. the mover chooses the order of an army's battles (resolution 50) -------------------------------


def test_the_mover_chooses_the_order_of_a_neighbour_armys_battles() -> None:
    state = _german_knight_before_crosna()
    put(state, "lubusium", "SIL", footman=1)
    state, _ = run(
        state, "PMA", "move knight german_marches crosna", "move footman german_marches lubusium", "done"
    )
    assert decision_of(state, "PMA") == "battle_order"
    pma = seat(state, "PMA")
    assert {a for a in legal_actions(state, pma) if a.startswith("battle")} == {
        "battle crosna",
        "battle lubusium",
    }
    assert on_deadline(state, pma) == "battle crosna"
    state, _ = run(state, "PMA", "battle lubusium")  # not the map's first
    assert state["play"]["battle"]["land"] == "lubusium"
    assert state["play"]["battle"]["sides"] == {"A": "GER", "D": "SIL"}
    assert state["play"]["battle"]["mover"] == "PMA"


def test_the_mover_chooses_the_order_of_the_invaders_battles() -> None:
    from .test_play_history import round_end

    state = new_state(4)
    for player in state["players"].values():
        player["hand"] = []
    put(state, "wizna", "MAS", footman=1)
    put(state, "ciechanow", "MAS", footman=1)
    state, _ = round_end(state, "H05", ["balt_raid"])
    princeps = state["princeps"]["holder"]
    if state["play"]["event"]["army"]["faction"] == "PRU":
        state, _ = run(state, princeps, "done")
    state, _ = run(
        state, princeps, "move knight lithuanians wizna", "move knight lithuanians ciechanow", "done"
    )
    assert decision_of(state, princeps) == "battle_order"
    state, _ = run(state, princeps, "battle wizna")
    assert state["play"]["battle"]["land"] == "wizna" and state["play"]["battle"]["mover"] == princeps


# ---- 5. beaten Neighbour units withdraw to a land they hold, or go home (resolution 51) --------------------


def _german_knight_beaten_at_crosna() -> State:
    """The German Knight attacks the Silesian Footman on Crosna while the German Footman takes Lubusium; both
    dice show a shield: nothing falls and the tie goes to the defender."""
    state = _german_knight_before_crosna()
    state, _ = run(
        state, "PMA", "move knight german_marches crosna", "move footman german_marches lubusium", "done"
    )
    state, _ = fight_through(state, [3, 3])
    return state


def test_a_beaten_neighbour_may_withdraw_to_a_land_it_holds_or_go_home() -> None:
    state = _german_knight_beaten_at_crosna()
    assert decision_of(state, "PMA") == "withdraw"  # the player who moved them decides
    answers = legal_actions(state, seat(state, "PMA"))
    assert {"withdraw knight home", "withdraw knight lubusium"} <= set(answers)
    assert on_deadline(state, seat(state, "PMA")) == "withdraw knight home"
    state, kinds = run(state, "PMA", "withdraw knight lubusium")
    assert "withdrawal" in kinds
    assert state["lands"]["lubusium"]["units"]["GER"] == {"knight": 1, "footman": 1}
    assert state["lands"]["crosna"]["units"] == {"SIL": {"footman": 1}}


def test_a_beaten_neighbour_sent_home_returns_to_its_area() -> None:
    state = _german_knight_beaten_at_crosna()
    home = state["offmap"]["german_marches"]["units"]["GER"].get("knight", 0)
    state, kinds = run(state, "PMA", "withdraw knight home")
    assert "withdrawal" in kinds
    assert state["offmap"]["german_marches"]["units"]["GER"]["knight"] == home + 1
    assert "GER" not in state["lands"]["crosna"]["units"]


# ---- 6. the player who removed a neutral Prince places him; the caller of the Teutonic Knights withdraws
#         its units where it chooses (resolutions 52 and 53) ---------------------------------------------


def _masovian_prince_killed() -> State:
    """Polonia Minor's three Knights kill neutral Masovia's Prince, alone on Rava."""
    state = new_state(2)
    for land_state in state["lands"].values():
        land_state["units"].get("MAS", {}).pop("prince", None)
        if "MAS" in land_state["units"] and not land_state["units"]["MAS"]:
            del land_state["units"]["MAS"]
    put(state, "rava", "MAS", prince=1)
    put(state, "rava", "PMI", knight=3)
    for player in state["players"].values():
        player["hand"] = []
    from .test_play_resolutions import fight

    state = fight(state, "rava", "PMI", [1, 3])
    state, _ = fight_through(state, [1, 3])
    return state


def test_the_player_who_removed_a_neutral_prince_chooses_where_he_returns() -> None:
    state = _masovian_prince_killed()
    assert "MAS" not in state["lands"]["rava"]["units"]
    assert decision_of(state, "PMI") == "respawn"
    answers = legal_actions(state, seat(state, "PMI"))
    assert answers[0] == "respawn plocium"  # his Capital first: the deadline default
    assert "respawn wizna" in answers and "respawn rava" not in answers  # Polonia Minor stands on Rava
    state, kinds = run(state, "PMI", "respawn wizna")
    assert "prince_respawn" in kinds
    assert state["lands"]["wizna"]["units"]["MAS"] == {"prince": 1}


def test_the_caller_of_the_teutonic_knights_withdraws_its_units_where_it_chooses() -> None:
    from .test_play_history import round_end

    state = new_state(4)
    for player in state["players"].values():
        player["hand"] = []
    put(state, "culmen", "MAS", footman=1, knight=1)
    state, _ = round_end(state, "H05", ["teutonic"])
    state, kinds = run(state, "MAS", "call")
    assert "teutons_called" in kinds
    assert controllers(state)["culmen"] is None  # Masovia lost the land at once
    assert decision_of(state, "MAS") == "culmen_withdraw"
    answers = legal_actions(state, seat(state, "MAS"))
    assert {"withdraw knight crusvicia", "withdraw knight dobrinia", "withdraw footman dobrinia"} <= set(
        answers
    )
    assert on_deadline(state, seat(state, "MAS")) == answers[0]
    state, _ = run(state, "MAS", "withdraw knight dobrinia")
    assert decision_of(state, "MAS") == "culmen_withdraw"  # one unit at a time
    state, _ = run(state, "MAS", "withdraw footman crusvicia")
    assert state["lands"]["culmen"]["units"] == {"TEU": {"knight": 2}}
    assert state["lands"]["dobrinia"]["units"]["MAS"]["knight"] >= 1
    assert state["lands"]["crusvicia"]["units"]["MAS"]["footman"] >= 1
    assert decision_of(state, "MAS") != "culmen_withdraw"


# ---- 7. the Taxes prompt says what Taxes cost now -------------------------------------------------------


def test_under_the_privilege_of_cienia_the_taxes_prompt_says_no_people() -> None:
    from rules.principes.play import describe, pending

    state = new_state(2)
    state["play"]["round_effects"] = [
        {"who": "PMI", "source": "H06", "effect": {"name": "track_cost"}, "land": None}
    ]
    state = open_action(state, "PMA", "taxes")
    prompt = pending(state)[seat(state, "PMA")].prompt
    assert "costs no People" in prompt and "1 People" not in prompt
    assert describe(state, "collect") == "Collect taxes (costs no People)"
    people = state["players"]["PMA"]["people"]
    state, _ = run(state, "PMA", "collect")
    assert state["players"]["PMA"]["people"] == people


def test_the_taxes_prompt_says_one_people_otherwise() -> None:
    from rules.principes.play import describe, pending

    state = open_action(new_state(2), "PMA", "taxes")
    assert "costs 1 People" in pending(state)[seat(state, "PMA")].prompt
    assert describe(state, "collect") == "Collect taxes (-1 People)"


# ---- the AI levels answer every new decision ---------------------------------------------------------------


def _ai_answers(state: State, code: str) -> dict[str, str]:
    import random

    from rules.principes import GAME

    player = seat(state, code)
    legal = GAME.legal_actions(state, player)
    view = GAME.view(state, player)
    answers = {
        level: GAME.choose_action(view, player, legal, level, random.Random(1)) for level in GAME.ai_levels
    }
    assert all(answer in legal for answer in answers.values()), answers
    return answers


def test_the_ai_levels_answer_the_new_decisions() -> None:
    from .test_play_history import round_end

    state = _german_knight_before_crosna()
    state, _ = run(state, "PMA", "ask crosna")
    assert decision_of(state, "SIL") == "consent"
    # an army is never let through
    assert _ai_answers(state, "SIL") == {"expert": "deny", "strong": "deny", "basic": "deny"}

    state = _german_knight_before_crosna()
    put(state, "lubusium", "SIL", footman=1)
    state, _ = run(
        state, "PMA", "move knight german_marches crosna", "move footman german_marches lubusium", "done"
    )
    assert decision_of(state, "PMA") == "battle_order"
    _ai_answers(state, "PMA")

    state = _german_knight_beaten_at_crosna()
    assert decision_of(state, "PMA") == "withdraw"
    _ai_answers(state, "PMA")

    state = _masovian_prince_killed()
    assert decision_of(state, "PMI") == "respawn"
    _ai_answers(state, "PMI")

    state = new_state(4)
    for player in state["players"].values():
        player["hand"] = []
    put(state, "culmen", "MAS", footman=1, knight=1)
    state, _ = round_end(state, "H05", ["teutonic"])
    state, _ = run(state, "MAS", "call")
    assert decision_of(state, "MAS") == "culmen_withdraw"
    _ai_answers(state, "MAS")
