"""Invaders (PRINCIPES IV): the Balt Raid, the Teutonic Knights and the Mongol Invasion with the rulebook's
examples, devastation and the end-of-move ban (resolutions 23, 25, 28, 29, 30)."""

from __future__ import annotations

from typing import Any

from rules.engine import Rng
from rules.principes.play import legal_actions
from rules.principes.play.battle import mongol_refuges
from rules.principes.play.common import Ctx, assets
from rules.principes.play.invaders import is_invader, return_teutons, teuton_land
from rules.principes.state import controllers

from .scenario import act, decision_of, put, run, seat
from .scenario import new_state as scenario_state
from .test_play_history import round_end


def new_state(players: int = 4) -> dict[str, Any]:
    """Empty hands: the battle windows pass by themselves."""
    state = scenario_state(players)
    for player in state["players"].values():
        player["hand"] = []
    return state


def moves(state: dict[str, Any], code: str) -> list[str]:
    return [
        action
        for action in legal_actions(state, seat(state, code))
        if action.split()[0] in ("move", "undo", "done")
    ]


def fight_through(state: dict[str, Any], draws: list[int]) -> tuple[dict[str, Any], list[str]]:
    """Pass the battle windows, keep the die, seal 'pass' after the battle (dice from ``draws``); returns the
    state when no such decision is left, and the event kinds logged on the way."""
    answers = {
        "before_battle": "pass",
        "extra_cards": "pass",
        "after_battle": "pass",
        "reroll": "keep",
        "flip": "keep",
    }
    kinds: list[str] = []
    for _ in range(20):
        waiting = [code for code in state["seats"] if decision_of(state, code) in answers]
        if not waiting:
            return state, kinds
        applied = act(state, waiting[0], answers[str(decision_of(state, waiting[0]))], draws=draws)
        state = applied.state
        kinds += [event.kind for event in applied.events]
    return state, kinds


def test_invaders_are_the_balts_teutons_and_mongols() -> None:
    assert [is_invader(f) for f in ("PRU", "LIT", "TEU", "MON", "RUS", "MAS")] == [True] * 4 + [False] * 2


def test_balt_raid_example_prussians_beat_masovia_raze_the_city_and_go_home() -> None:
    """Rulebook p. 28: the Princeps moves all 4 Prussians into battle with Masovia; they win, destroy the City
    and return where they came from (resolution 30); then the Lithuanians may move."""
    state = new_state(4)
    state["lands"]["dobrinia"]["cities"] = {"dobrinia": "civitas"}
    state["supply"]["tokens"]["civitas"] -= 1
    put(state, "dobrinia", "MAS", footman=1)
    state, kinds = round_end(state, "H05", ["balt_raid"])
    assert "icon_balt_raid" in kinds and decision_of(state, "PMI") == "invader_move"
    state, _ = run(state, "PMI", *["move footman prussians dobrinia"] * 4, "done")
    # attacker die: sword (5 swords); defender die: coin (no shield) against the Civitas' 2 shields
    state, kinds = fight_through(state, [1, 6])
    assert "battle_result" in kinds and "devastation" in kinds and "invaders_home" in kinds
    assert state["lands"]["dobrinia"]["cities"] == {} and "MAS" not in state["lands"]["dobrinia"]["units"]
    assert "PRU" not in state["lands"]["dobrinia"]["units"]
    assert state["offmap"]["prussians"]["units"]["PRU"] == {"footman": 4}  # the toppled one went home too
    assert controllers(state)["dobrinia"] == "MAS"  # control returns when they leave
    assert decision_of(state, "PMI") == "invader_move"  # now the Lithuanians
    assert all(move.split()[1] == "knight" for move in moves(state, "PMI") if move.startswith("move"))


def test_resolution_23_invaders_never_end_on_the_movers_lands() -> None:
    state = new_state(4)
    state, _ = round_end(state, "H05", ["balt_raid"])
    state, _ = run(state, "PMI", "done")  # the Prussians stay home
    state, _ = run(state, "PMI", "move knight lithuanians lucovia")  # Lucovia: Polonia Minor's own land
    assert "done" not in moves(state, "PMI")
    state, _ = run(state, "PMI", "move knight lucovia lublinum")
    assert "done" not in moves(state, "PMI")
    state, _ = run(state, "PMI", "undo", "undo", "move knight lithuanians wizna", "done")
    assert state["lands"]["wizna"]["units"] == {}  # no one there: no battle, they went home
    assert state["offmap"]["lithuanians"]["units"]["LIT"] == {"knight": 2}


def test_resolution_25_invaders_leave_division_tokens() -> None:
    state = new_state(4)
    state["lands"]["wizna"]["division"] = True
    state, _ = round_end(state, "H05", ["balt_raid"])
    state, _ = run(state, "PMI", "done", "move knight lithuanians wizna", "done")
    assert state["lands"]["wizna"]["division"]


def test_resolution_28_calling_and_moving_the_teutonic_knights() -> None:
    state = new_state(4)
    land = teuton_land()
    put(state, land, "MAS", footman=1)
    state["lands"][land]["building"] = "tiltyard"
    state, kinds = round_end(state, "H05", ["teutonic"])
    assert decision_of(state, "MAS") == "teutonic_call"
    state, kinds = run(state, "MAS", "call")
    culmen = state["lands"][land]
    assert "teutons_called" in kinds and culmen["units"]["TEU"] == {"knight": 2}
    assert culmen["cities"] == {"culmen": "civitas"} and culmen["building"] == "castle"
    assert controllers(state)[land] is None
    assert decision_of(state, "MAS") == "culmen_withdraw"  # where to, Masovia chooses (resolution 53)
    footmen = state["lands"]["dobrinia"]["units"].get("MAS", {}).get("footman", 0)
    state, _ = run(state, "MAS", "withdraw footman dobrinia")
    assert state["lands"][land]["units"] == {"TEU": {"knight": 2}}
    assert state["lands"]["dobrinia"]["units"]["MAS"]["footman"] == footmen + 1
    # the next Balt Raid: the Knights block the Prussians, only the Lithuanians come
    state["round"] = 2
    state, kinds = round_end(state, "H05", ["balt_raid", "teutonic"])
    assert "balt_blocked" in kinds
    assert all("prussians" not in move for move in moves(state, "PMI"))
    state, _ = run(state, "PMI", "done")
    # the Teutonic icon with Knights on the map: the Princeps moves them, then they return to Culmen
    assert decision_of(state, "PMI") == "invader_move"
    state, kinds = run(state, "PMI", "move knight culmen pomor", "move knight culmen pomor", "done")
    assert "battle_result" in kinds  # against the Eastern Pomeranians: no player side, no window
    assert "TEU" not in state["lands"]["pomor"]["units"]
    assert state["lands"][land]["units"]["TEU"] == {"knight": 2}  # home to Culmen, beaten or not


def test_teutonic_knights_beaten_at_culmen_wait_until_it_is_free() -> None:
    state = new_state(4)
    state, _ = round_end(state, "H05", ["teutonic"])
    state, _ = run(state, "MAS", "call")
    state["lands"][teuton_land()]["units"] = {"PMA": {"knight": 1}}  # taken by force: the Knights wait
    state["supply"]["units"]["TEU"] = {"knight": 2}
    ctx = Ctx(state, Rng(b"teutons"))
    return_teutons(ctx)
    assert state["lands"][teuton_land()]["units"] == {"PMA": {"knight": 1}}
    state["lands"][teuton_land()]["units"] = {}
    return_teutons(ctx)  # the land is free again: they come back at once
    assert state["lands"][teuton_land()]["units"] == {"TEU": {"knight": 2}}
    assert [event.kind for event in ctx.events] == ["teutons_return"]


def test_mongol_invasion_example_moved_by_four_players_in_turn() -> None:
    """Rulebook p. 29: Silesia, Polonia Maior, Masovia and Polonia Minor move the horde in turn; afterwards it
    leaves the map. 4 riders come the first time, 3 the next (resolution 29)."""
    state = new_state(4)
    state["princeps"]["holder"] = "SIL"
    state["princeps"]["direction"] = "cw"
    state["play"]["order"] = ["SIL", "PMA", "MAS", "PMI"]
    state, kinds = round_end(state, "H07", ["mongols"])
    assert "mongols_arrive" in kinds and state["offmap"]["rus"]["units"]["MON"] == {"knight": 4}
    movers = []
    for code, step in (
        ("SIL", "rus lublinum"),
        ("PMA", "lublinum radomia"),
        ("MAS", "radomia zarnovia"),
        ("PMI", "zarnovia siradia"),
    ):
        assert decision_of(state, code) == "invader_move"
        movers.append(code)
        state, kinds = run(state, code, *[f"move knight {step}"] * 4, "done")
    assert movers == ["SIL", "PMA", "MAS", "PMI"] and "mongols_leave" in kinds
    assert all("MON" not in land["units"] for land in state["lands"].values())
    assert "MON" not in state["offmap"]["rus"]["units"] and state["supply"]["units"]["MON"]["knight"] == 4
    state["round"] = 2
    state, kinds = round_end(state, "H07", ["mongols"])
    assert state["offmap"]["rus"]["units"]["MON"] == {"knight": 3} and state["mongol_invasions"] == 2


def test_resolution_29_beaten_mongols_withdraw_to_an_empty_land() -> None:
    state = new_state(4)
    put(state, "wizna", "MAS", footman=1)
    state, _ = round_end(state, "H07", ["mongols"])
    state, _ = run(state, "PMI", "move knight rus wizna", "done")
    # Mongol die: coin (2 swords against the gord's shield and a shield face); Masovia's Footman only wounds
    # the rider: nobody falls, the tie goes to the defender and the rider withdraws
    state, kinds = fight_through(state, [6, 3])
    assert "battle_result" in kinds and decision_of(state, "PMI") == "withdraw"
    options = [a for a in legal_actions(state, seat(state, "PMI")) if a.startswith("withdraw")]
    assert {a.split()[2] for a in options} == set(mongol_refuges(state, "wizna")) == {"ciechanow", "lucovia"}
    state, _ = run(state, "PMI", "withdraw knight lucovia")
    state, _ = fight_through(state, [6, 3])
    assert "MON" not in state["lands"]["wizna"]["units"] and state["lands"]["lucovia"]["units"]["MON"]
    assert decision_of(state, "SIL") == "invader_move"  # the next player moves the horde from there


def test_resolution_30_devastation_where_invaders_stand_alone() -> None:
    state = new_state(4)
    state["princeps"]["holder"] = "SIL"  # Silesia moves the Balts: Polonia Minor's Lucovia is fair game
    state["lands"]["lucovia"]["building"] = "tiltyard"
    state["lands"]["lucovia"]["cities"] = {"lucovia": "civitas"}
    state["play"]["assets"] = assets(state)  # the Tiltyard counts as held
    tokens = dict(state["supply"]["tokens"])
    state, _ = round_end(state, "H05", ["balt_raid"])
    state, kinds = run(state, "SIL", "done", "move knight lithuanians lucovia", "done")
    assert "devastation" in kinds and "invaders_home" in kinds
    assert state["lands"]["lucovia"]["cities"] == {} and state["lands"]["lucovia"]["building"] is None
    assert state["supply"]["tokens"]["tiltyard"] == tokens["tiltyard"] + 1
    assert state["supply"]["tokens"]["civitas"] == tokens["civitas"] + 1
    assert state["players"]["PMI"]["people"] == 3  # the Tiltyard's People point is gone with it
