"""The rulebook's worked examples, replayed through the PRINCIPES II rules of play."""

from __future__ import annotations

from rules.engine import ReplayRng
from rules.principes.play import battle, flow, legal_actions, pending
from rules.principes.play.common import Ctx
from rules.principes.play.council import qualifying_tracks
from rules.principes.state import might

from .scenario import (
    act,
    clear_units,
    decision_of,
    new_state,
    open_action,
    pass_empty_windows,
    put,
    run,
    seat,
    send_princesses,
)


def test_turn_order_example() -> None:
    """Polonia Minor, Princeps, clockwise: Polonia Minor, Silesia, Polonia Maior, Masovia (and the reverse)."""
    state = new_state(4)
    assert state["princeps"]["holder"] == "PMI"
    assert decision_of(state, "PMI") == "direction"
    clockwise = act(state, "PMI", "direction cw").state
    assert decision_of(clockwise, "PMI") == "princess"  # the Princesses' missions come first (resolution 31)
    clockwise = send_princesses(clockwise)
    assert clockwise["play"]["order"] == ["PMI", "SIL", "PMA", "MAS"]
    counter = act(state, "PMI", "direction ccw").state
    assert counter["play"]["order"] == ["PMI", "MAS", "PMA", "SIL"]
    assert all(decision.kind == "plan" and decision.sealed for decision in pending(clockwise).values())


def test_taxes_example() -> None:
    """Polonia Minor collects 5: 4 from its own lands and 1 from a land outside (Terra Siradiensis)."""
    state = new_state(4)
    put(state, "siradia", "PMI", footman=1)
    assert might(state)["PMI"] == 5
    state = open_action(state, "PMI", "taxes")
    gold, people = state["players"]["PMI"]["gold"], state["players"]["PMI"]["people"]
    after = act(state, "PMI", "collect").state
    assert after["players"]["PMI"]["gold"] == gold + 5
    assert after["players"]["PMI"]["people"] == people - 1


def test_assembly_example() -> None:
    """2 Knights and 1 Footman for 2 gold: a Footman and a Knight with the Prince, the other Knight in the
    Capital."""
    state = new_state(4)
    clear_units(state, "cracovia")
    put(state, "cracovia", "PMI", knight=1)
    put(state, "wislicia", "PMI", prince=1)
    state = open_action(state, "PMI", "assembly")
    targets = {
        action.split()[2]
        for action in legal_actions(state, seat(state, "PMI"))
        if action.startswith("assemble")
    }
    assert targets == {"wislicia", "cracovia"}
    state, _ = run(
        state, "PMI", "assemble footman wislicia", "assemble knight wislicia", "assemble knight cracovia"
    )
    assert state["players"]["PMI"]["gold"] == 3
    assert state["lands"]["wislicia"]["units"]["PMI"] == {"prince": 1, "footman": 2, "knight": 1}
    assert state["lands"]["cracovia"]["units"]["PMI"] == {"knight": 2}
    assert state["play"]["action"] is None  # three units: the action is over


def test_movement_example() -> None:
    """Polonia Minor passes through a land of Polonia Maior with its consent; the Clergy penalty is due for the
    Silesian land only (the Masovian land was already held, the central land is exempt)."""
    state = new_state(4)
    put(state, "zarnovia", "PMI", knight=3)
    put(state, "rava", "PMI", footman=1)  # Masovian land Polonia Minor already holds
    put(state, "radomia", "PMI", prince=1, footman=1)
    state = open_action(state, "PMI", "movement")
    state, kinds = run(
        state,
        "PMI",
        "move prince radomia rava",
        "move footman radomia rava",
        "move knight zarnovia siradia",
        "move knight zarnovia siradia",
        "ask calisia",
    )
    assert "consent_asked" in kinds
    assert decision_of(state, "PMA") == "consent"
    state, kinds = run(state, "PMA", "allow")
    assert "consent_allowed" in kinds
    state, kinds = run(state, "PMI", "move knight siradia calisia", "move knight calisia milicium")
    clergy = state["players"]["PMI"]["clergy"]
    state, kinds = run(state, "PMI", "done")
    assert decision_of(state, "PMI") == "clergy_penalty"  # gold and Clergy both available: the mover chooses
    assert state["play"]["action"]["penalties"] == ["milicium"]
    assert {a for a in legal_actions(state, seat(state, "PMI")) if a.startswith("penalty")} == {
        "penalty milicium clergy",
        "penalty milicium gold",
    }
    state, kinds = run(state, "PMI", "penalty milicium clergy")
    assert state["players"]["PMI"]["clergy"] == clergy - 1
    assert state["play"]["action"] is None  # no battle: the Movement is over
    assert state["lands"]["milicium"]["units"]["PMI"] == {"knight": 1}
    assert state["lands"]["siradia"]["units"]["PMI"] == {"knight": 1}
    assert state["lands"]["calisia"]["units"].get("PMI") is None


def _battle_example_state():
    """Silesia (1 Knight, 2 Footmen) attacks Polonia Minor (1 Knight, 1 Footman) in the City of Sandomiria."""
    state = new_state(4)
    clear_units(state, "sandomiria")
    state["lands"]["sandomiria"]["cities"]["sandomiria"] = "city"
    put(state, "sandomiria", "PMI", knight=1, footman=1)
    put(state, "sandomiria", "SIL", knight=1, footman=2)
    state["players"]["SIL"]["hand"] = ["B13a", "B11a"]  # corners: sword, shield
    state["players"]["PMI"]["hand"] = ["B15a"]  # corner: sword or shield
    state = open_action(state, "SIL", "movement")
    state["play"]["action"].update({"stage": "resolve", "pieces": [], "penalties": [], "destroy": []})
    state["play"]["prompts"] = {}
    ctx = Ctx(state, ReplayRng([1, 5]))  # dice: Silesia a sword, Polonia Minor a sword and a shield
    flow.advance(ctx)
    # the 'before battle' windows are offered whatever the hands hold (no leaks): both pass, as auto-pass does
    return pass_empty_windows(state, [1, 5]), ctx


def test_battle_example() -> None:
    """5 swords against 3 shields; after the extra cards Polonia Minor wins, having toppled more units."""
    state, ctx = _battle_example_state()
    current = state["play"]["battle"]
    assert battle.swords_and_shields(state, current, "A") == (5, 0)
    assert battle.swords_and_shields(state, current, "D") == (4, 3)
    assert battle.damages(state, current) == {"D": 2, "A": 4}
    assert battle.casualties(current["units"]["D"], 2) == (
        {"footman": 1},
        1,
        0,
    )  # Footman toppled, Knight wounded
    assert battle.casualties(current["units"]["A"], 4) == ({"footman": 2, "knight": 1}, 0, 0)
    assert decision_of(state, "SIL") == "extra_cards"
    state, _ = run(state, "SIL", "extra b13a sword", "extra b11a shield", "pass")  # no card left: it passes
    current = state["play"]["battle"]
    assert battle.damages(state, current) == {"D": 3, "A": 3}
    assert decision_of(state, "PMI") == "extra_cards"
    people = {code: state["players"][code]["people"] for code in ("PMI", "SIL")}
    state, kinds = run(state, "PMI", "extra b15a shield", "pass")
    assert "battle_result" in kinds
    land = state["lands"]["sandomiria"]["units"]
    assert land["PMI"] == {"knight": 1}  # the Footman fell, the Knight was raised again
    assert "SIL" not in land  # both Footmen fell; the Knight had nowhere to withdraw
    assert state["players"]["PMI"]["people"] == people["PMI"] + 1
    assert state["players"]["SIL"]["people"] == people["SIL"] - 1


def test_council_example_resolution_46() -> None:
    """Resolution 46: Masovia and Polonia Minor qualify to take the Princeps token; the others do not."""
    table = {"PMA": (6, 3, 5), "MAS": (5, 7, 7), "PMI": (7, 7, 4), "SIL": (4, 5, 6)}
    assert {code for code in table if qualifying_tracks(table, code) >= 2} == {"MAS", "PMI"}


def test_council_claims_the_princeps_token() -> None:
    """A host highest on two tracks takes the token; the Round's turn order is kept (resolution 36)."""
    state = new_state(2)
    state["players"]["PMA"]["people"], state["players"]["PMA"]["clergy"] = 7, 7
    state = open_action(state, "PMA", "politics")
    order = list(state["play"]["order"])
    state, kinds = run(state, "PMA", "council")
    for code in order:  # the card phase in turn order: nobody plays a card
        assert decision_of(state, code) == "council"
        state, more = run(state, code, "done")
        kinds += more
    assert "princeps_claimed" in kinds and state["princeps"]["holder"] == "PMA"
    assert order[0] == "PMI"  # the Round had started with the former Princeps


def test_progress_takes_period_tiles_without_duplicates_and_refills() -> None:
    """Period I: one tile; the Market refills its colour; a second identical tile is never offered."""
    state = new_state(2)
    state = open_action(state, "PMA", "progress")
    takes = [a for a in legal_actions(state, seat(state, "PMA")) if a.startswith("take")]
    assert len(takes) == 12  # 6 colours x 2 face-up tiles
    tile = takes[0].split()[1]
    colour = next(c for c, pile in state["market"].items() if tile in [t.lower() for t in pile["face_up"]])
    state, kinds = run(state, "PMA", takes[0])
    assert "progress" in kinds and state["play"]["action"] is None  # Period I: one tile
    assert len(state["market"][colour]["face_up"]) == 2
    owned = [t.lower() for t in state["players"]["PMA"]["progress"][colour]]
    assert owned == [tile]
    state["period"] = 2
    state = open_action(state, "PMA", "progress")
    twin = tile[:-1] + ("b" if tile.endswith("a") else "a")
    assert f"take {twin}" not in legal_actions(state, seat(state, "PMA"))


def test_battle_between_two_neutral_factions() -> None:
    """Dice, losses and removal only: no cards, no prompts, coins ignored."""
    state = new_state(2)  # Masovia and Silesia are neutral
    clear_units(state, "siradia")
    put(state, "siradia", "SIL", knight=1)
    put(state, "siradia", "MAS", footman=1)
    state["play"]["prompts"] = {}
    gold = {code: state["players"][code]["gold"] for code in state["seats"]}
    ctx = Ctx(state, ReplayRng([6, 6]))
    battle.start(ctx, "siradia", "SIL")
    flow.advance(ctx)
    assert state["play"]["battle"] is None
    assert "MAS" not in state["lands"]["siradia"]["units"]  # the Footman fell (2 swords against 1 shield)
    assert {code: state["players"][code]["gold"] for code in state["seats"]} == gold
    assert {event.kind for event in ctx.events} >= {"battle", "dice", "battle_result"}
