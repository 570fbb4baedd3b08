"""The Prince: fog of war and sealed secrets, the resolution rules, notation, deadlines and the AI."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence

import pytest

from rules.engine import IllegalAction, InvalidAction, Rng, State
from rules.engine.playout import Playout, play, random_chooser, start, step
from rules.engine.thinking import Budget
from rules.the_prince import FORCED_BUILD_AFTER, GAME, MAX_BATTLES, expert
from rules.the_prince.board import AREA, TILES, at, coastal, in_half, is_land, name, parse_tile, strength

Strength = tuple[int, int, int]
#: castle sites whose 3x3 areas never overlap, so each castle's strength can be set on its own
SITES = [at(x, y) for y in (2, 5, 8) for x in (2, 5, 8)]


def strategist(game, view, seat, legal, rng):  # noqa: ANN001, ANN201 - the playout chooser signature
    return game.choose_action(view, seat, legal, "strategist", rng)


# ---- building positions ------------------------------------------------------------------------------------
def battle_state(own: Sequence[Strength], enemy: Sequence[Strength]) -> State:
    """A phase 2 state (battle 1, step A) whose castles have exactly the given (offence, defence, bonus)."""
    state = GAME.setup(2, {}, Rng.for_event(1, 0))
    tiles = state["tiles"]
    for index in range(TILES):
        if is_land(tiles, index):
            tiles[index] = ["plains", "", 0]
    castles: list[list[dict]] = [[], []]
    sites = iter(SITES)
    for seat, strengths in ((0, own), (1, enemy)):
        for offence, defence, bonus in strengths:
            site = next(sites)
            free = iter(index for index in AREA[site] if is_land(tiles, index))
            for resource, amount in (("iron", offence), ("stone", defence), ("gold", bonus)):
                while amount > 0:
                    tiles[next(free)] = ["hills", resource, min(3, amount)]
                    amount -= min(3, amount)
            castles[seat].append({"tile": site, "damage": 0, "alive": True})
            assert strength(tiles, site) == {"offence": offence, "defence": defence, "bonus": bonus}
    state.update(
        castles=castles, phase="hide", battle=1, turn=12, seen=[[1] * TILES, [1] * TILES], prince=[None, None]
    )
    return state


def seal_both(state: State, first: str, second: str) -> State:
    """Both seats seal, in seat order, as the host applies them."""
    state = GAME.apply(state, 0, first, Rng.for_event(1, 1)).state
    assert GAME.pending(state).keys() == {1}, "the first sealed choice resolved alone"
    return GAME.apply(state, 1, second, Rng.for_event(1, 2)).state


def explore_state(prince0: str, prince1: str, turn: int = 5) -> State:
    """Phase 1 after landing, with the Princes on the given tiles and their surroundings seen."""
    state = GAME.setup(2, {}, Rng.for_event(4, 0))
    state.update(phase="explore", turn=turn)
    for seat, place in ((0, prince0), (1, prince1)):
        index = parse_tile(place)
        state["prince"][seat] = index
        for seen in AREA[index]:  # type: ignore[index]
            state["seen"][seat][seen] = 1
    return state


# ---- battle resolution -------------------------------------------------------------------------------------
def test_guard_stops_only_the_first_attack_on_its_castle() -> None:
    state = battle_state([(4, 5, 0), (3, 5, 0)], [(0, 18, 0), (0, 18, 0)])
    state = seal_both(state, "prince 1 guard 1", "prince 2 guard 1")
    assert GAME.view(state, 0)["guards"] == [1, 1]
    after = seal_both(state, "1+0>1 2+0>1", "1+0 2+0")
    attacks = after["last_battle"]["attacks"]
    assert [(a["from"], a["stopped"]) for a in attacks] == [(1, True), (2, False)]
    assert after["castles"][1][0]["damage"] == 3
    reversed_order = seal_both(state, "2+0>1 1+0>1", "1+0 2+0")
    assert reversed_order["castles"][1][0]["damage"] == 4, "the order decides which attack the Guard stops"
    unguarded = seal_both(state, "1+0>2 2+0>2", "1+0 2+0")
    assert unguarded["castles"][1][1]["damage"] == 7, "the Guard protects only its own castle"


def test_destroyed_castles_still_attack_and_two_fallen_princes_tie() -> None:
    state = battle_state([(6, 2, 0), (0, 9, 0)], [(6, 2, 0), (0, 9, 0)])
    state = seal_both(state, "prince 1 guard 2", "prince 1 guard 2")
    after = seal_both(state, "1+0>1 2+0", "1+0>1 2+0")
    assert not after["castles"][0][0]["alive"] and not after["castles"][1][0]["alive"]
    outcome = GAME.outcome(after)
    assert outcome.finished and outcome.draw and not outcome.winners
    assert outcome.reason == "Both Princes fell in the same battle."
    assert not GAME.pending(after)


def test_damage_persists_from_battle_to_battle_and_the_prince_falls_with_his_castle() -> None:
    state = battle_state([(3, 9, 0), (2, 9, 0)], [(0, 5, 2), (0, 9, 0)])
    state = seal_both(state, "prince 1 guard 1", "prince 2 guard 2")
    state = seal_both(state, "1+0>1 2+0", "1+2 2+0")
    assert state["castles"][1][0] == {"tile": state["castles"][1][0]["tile"], "damage": 3, "alive": True}
    assert state["phase"] == "hide" and state["battle"] == 2
    state = seal_both(state, "prince 1 guard 1", "prince 2 guard 2")
    state = seal_both(state, "2+0>1 1+0", "1+2 2+0")  # defence 5 (gold on offence) - 3 earlier - 2 now = 0
    assert not state["castles"][1][0]["alive"] and state["castles"][1][0]["damage"] == 5
    assert not GAME.outcome(state).finished, "the Prince was elsewhere"
    state = seal_both(state, "prince 1 guard 1", "prince 2 guard 2")
    with pytest.raises(IllegalAction, match="does not stand"):
        GAME.apply(state, 0, "1+0>1 2+0", Rng.for_event(1, 1))
    for battle in (3, 4, 5):  # the Guard stops castle 2's 2 each time; castle 1's 3 wears down defence 9
        if battle > 3:
            state = seal_both(state, "prince 1 guard 1", "prince 2 guard 2")
        state = seal_both(state, "2+0>2 1+0>2", "2+0")
        assert state["castles"][1][1]["damage"] == 3 * (battle - 2)
    outcome = GAME.outcome(state)
    assert outcome.finished and outcome.winners == (0,)
    assert "castle 2" in outcome.reason


def test_an_unreached_castle_stands_whatever_its_allotment() -> None:
    state = battle_state([(1, 0, 3)], [(1, 0, 3)])
    state = seal_both(state, "prince 1 guard 1", "prince 1 guard 1")
    after = seal_both(state, "1+3", "1+3")
    assert after["castles"][0][0]["alive"] and after["castles"][1][0]["alive"]


def test_fifteen_battles_without_a_result_tie() -> None:
    state = battle_state([(1, 9, 0), (1, 9, 0)], [(1, 9, 0), (1, 9, 0)])
    for battle in range(1, MAX_BATTLES + 1):
        assert state["battle"] == battle and not GAME.outcome(state).finished
        state = seal_both(state, "prince 1 guard 2", "prince 2 guard 1")
        state = seal_both(state, "1+0 2+0", "1+0 2+0")
    outcome = GAME.outcome(state)
    assert outcome.finished and outcome.draw and str(MAX_BATTLES) in outcome.reason


def test_plans_are_checked_against_the_castles() -> None:
    state = battle_state([(1, 1, 2), (1, 1, 0)], [(1, 1, 0), (1, 1, 0)])
    state = seal_both(state, "prince 1 guard 1", "prince 1 guard 1")
    for plan, message in (
        ("1+3>1 2+0", "only 2 gold"),
        ("1+0>1", "missing: 2"),
        ("1+0>3 2+0", "does not stand"),
    ):
        with pytest.raises(IllegalAction, match=message):
            GAME.apply(state, 0, plan, Rng.for_event(1, 1))
    with pytest.raises(InvalidAction):
        GAME.parse(state, 0, "1+0>1 1+0>2")
    assert GAME.legal_actions(state, 0), "a plan decision lists example plans"
    for plan in GAME.legal_actions(state, 0):
        GAME.apply(state, 0, plan, Rng.for_event(1, 1))


def test_sealed_choice_is_kept_until_both_have_sealed() -> None:
    state = battle_state([(1, 1, 0)], [(1, 1, 0)])
    once = GAME.apply(state, 0, "prince 1 guard 1", Rng.for_event(1, 1)).state
    assert once["phase"] == "hide" and GAME.view(once, 1)["guards"] == [None, None]
    assert "sealed:0:prince 1 guard 1" in json.dumps(GAME.view(once, 0))
    with pytest.raises(IllegalAction, match="already sealed"):
        GAME.apply(once, 0, "prince 1 guard 1", Rng.for_event(1, 2))


# ---- phase 1 -----------------------------------------------------------------------------------------------
def test_landing_is_on_your_own_coast_and_reveals_the_prince_surroundings() -> None:
    state = GAME.setup(2, {}, Rng.for_event(8, 0))
    for seat in (0, 1):
        tiles = [parse_tile(action.split()[1]) for action in GAME.legal_actions(state, seat)]
        assert tiles and all(coastal(state["tiles"], t) and in_half(t, seat) for t in tiles)  # type: ignore
    with pytest.raises(IllegalAction, match="coastal"):
        GAME.apply(state, 0, "land i5", Rng.for_event(8, 1))
    state = seal_both(state, "land b5", "land i5")
    seen = {index for index in range(TILES) if state["seen"][0][index]}
    assert seen == set(AREA[parse_tile("b5")])  # type: ignore[index]
    assert len(GAME.view(state, 0)["tiles"]) == 9
    public = GAME.view(state, None)
    assert not {"tiles", "princes", "castles"} & public.keys()


def test_symmetric_maps_repeat_under_a_half_turn() -> None:
    for seed in range(5):
        tiles = GAME.setup(2, {}, Rng.for_event(seed, 0))["tiles"]
        assert all(tiles[index] == tiles[TILES - 1 - index] for index in range(TILES))
        odd = GAME.setup(2, {"map": "asymmetric"}, Rng.for_event(seed, 0))["tiles"]
        assert any(odd[index] != odd[TILES - 1 - index] for index in range(TILES))
        assert all(not is_land(tiles, index) for index in range(TILES) if index < 10 or index % 10 in (0, 9))


def test_simultaneous_builds_on_one_tile_both_fail() -> None:
    state = explore_state("d5", "f5")
    for seat in (0, 1):
        for index in AREA[parse_tile("e5")]:  # type: ignore[index]
            state["seen"][seat][index] = 1
    applied = GAME.apply(state, 0, "stay build e5", Rng.for_event(1, 1))
    applied = GAME.apply(applied.state, 1, "stay build e5", Rng.for_event(1, 2))
    assert applied.state["castles"] == [[], []]
    assert [event.kind for event in applied.events].count("build-failed") == 2


def test_building_on_an_unseen_enemy_castle_fails_and_visible_ones_cannot_be_chosen() -> None:
    state = explore_state("c5", "h5")
    state["castles"][1].append({"tile": parse_tile("c3"), "damage": 0, "alive": True})
    state["seen"][0][parse_tile("c3")] = 1  # type: ignore[index]
    assert "stay build c3" in GAME.legal_actions(state, 0), "seat 1 cannot know the castle is there"
    after = seal_both(state, "stay build c3", "stay")
    assert after["castles"][0] == []
    assert "stay build c3" not in GAME.legal_actions(after, 0), "the failed builder now knows of the castle"
    assert GAME.view(after, 0)["taken"] == ["taken:0@c3"] and "taken:0@" not in json.dumps(
        GAME.view(after, 1)
    )
    near = explore_state("c4", "h5")
    near["castles"][1].append({"tile": parse_tile("c3"), "damage": 0, "alive": True})
    assert "stay build c3" not in GAME.legal_actions(near, 0), "a castle in sight is known"
    assert any(c["token"] == "castle:1#1@c3" for c in GAME.view(near, 0)["castles"])
    assert not any(c["seat"] == 1 for c in GAME.view(state, 0)["castles"])


def test_from_turn_21_a_player_short_of_castles_must_build() -> None:
    state = explore_state("c5", "h5", turn=FORCED_BUILD_AFTER)
    assert "stay" in GAME.legal_actions(state, 0)
    state["turn"] = FORCED_BUILD_AFTER + 1
    legal = GAME.legal_actions(state, 0)
    assert legal and all(" build " in action for action in legal)
    with pytest.raises(IllegalAction, match="must build"):
        GAME.apply(state, 0, "stay", Rng.for_event(1, 1))
    assert " build " in GAME.on_deadline(state, 0)  # type: ignore[operator]


def test_fifth_castle_takes_the_prince_off_the_map_and_both_fifths_reveal_the_island() -> None:
    state = explore_state("c5", "h5")
    sites = ["b4", "c4", "d4", "b5"]
    state["castles"] = [
        [{"tile": parse_tile(s), "damage": 0, "alive": True} for s in sites],
        [{"tile": parse_tile(s), "damage": 0, "alive": True} for s in ("g4", "h4")],
    ]
    state = seal_both(state, "stay build c5", "stay build h5")
    assert state["prince"][0] is None and GAME.pending(state).keys() == {1}
    state["castles"][1] += [{"tile": parse_tile(s), "damage": 0, "alive": True} for s in ("i4",)]
    state = GAME.apply(state, 1, "stay build h6", Rng.for_event(1, 3)).state
    assert state["phase"] == "hide"
    public = GAME.view(state, None)
    assert len(public["tiles"]) == TILES and len(public["castles"]) == 10


def test_deadline_defaults() -> None:
    state = GAME.setup(2, {}, Rng.for_event(2, 0))
    assert GAME.on_deadline(state, 0) in GAME.legal_actions(state, 0)
    assert GAME.on_deadline(explore_state("c5", "h5"), 1) == "stay"
    battle = battle_state([(3, 3, 3), (2, 2, 2)], [(3, 3, 3), (2, 2, 2)])
    hide = GAME.on_deadline(battle, 0)
    assert hide in GAME.legal_actions(battle, 0) and hide == GAME.on_deadline(battle, 0)
    battle = seal_both(battle, "prince 1 guard 1", "prince 2 guard 2")
    plan = GAME.on_deadline(battle, 1)
    assert plan is not None
    GAME.apply(battle, 1, plan, Rng.for_event(1, 1))


# ---- notation ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Land on B5", "land b5"),
        ("c 10", "land c10"),
        ("NE build c5", "ne build c5"),
        ("north-east", "ne"),
        ("build d4", "stay build d4"),
        ("go sw, build e2", "sw build e2"),
        ("p3 g1", "prince 3 guard 1"),
        ("Prince 2, Guard 2", "prince 2 guard 2"),
        ("3 + 2 > 1, 2>1, 4+1", "3+2>1 2+0>1 4+1"),
        ("5+0>- 1+1>2", "1+1>2 5+0"),
    ],
)
def test_notation_is_lenient_and_canonical(typed: str, canonical: str) -> None:
    state = GAME.setup(2, {}, Rng.for_event(1, 0))
    assert GAME.parse(state, 0, typed) == canonical
    assert GAME.parse(state, 0, canonical) == canonical
    assert GAME.describe(state, canonical)


def test_describe_reads_like_a_summary() -> None:
    state = GAME.setup(2, {}, Rng.for_event(1, 0))
    assert GAME.describe(state, "3+2>1 2+0>1 4+1") == (
        "castle 3: 2 gold to offence, attacks enemy castle 1 (1st); "
        "castle 2: 0 gold to offence, attacks enemy castle 1 (2nd); "
        "castle 4: 1 gold to offence, holds"
    )
    assert GAME.describe(state, "ne build c5") == "Move the Prince north-east, then build a castle on c5"
    for text in ("", "fly", "land z9", "9+1>1", "prince 7 guard 1"):
        with pytest.raises(InvalidAction):
            GAME.parse(state, 0, text)


# ---- secrets: the views never show what their viewer may not know ------------------------------------------
def _perturbed_views(state: State, secret_seat: int, viewer: int | None) -> list[State]:
    """Copies of ``state`` that differ only in what ``viewer`` may not know about ``secret_seat``."""
    copies = []
    if state["phase"] in ("landing", "explore"):
        hidden_tiles = GAME.copy_state(state)
        seen = state["seen"][viewer] if viewer is not None else [0] * TILES
        for index in range(TILES):
            if not seen[index] and is_land(state["tiles"], index):
                terrain, resource, amount = hidden_tiles["tiles"][index]
                hidden_tiles["tiles"][index] = [
                    "mountains" if terrain != "mountains" else "forest",
                    "" if resource else "iron",
                    0 if resource else 3,
                ]
        copies.append(hidden_tiles)
    elif state["hidden"][secret_seat] is not None and state["result"] is None:
        for number, castle in enumerate(state["castles"][secret_seat], 1):
            if castle["alive"] and number != state["hidden"][secret_seat]:
                moved = GAME.copy_state(state)
                moved["hidden"][secret_seat] = number
                copies.append(moved)
    sealed = state["sealed"][secret_seat]
    if sealed is not None and state["result"] is None:
        other = GAME.copy_state(state)
        other["sealed"][secret_seat] = sealed + " "  # any other submission: its text must not show
        copies.append(other)
    return copies


def check_views_keep_secrets(state: State) -> None:
    """The issue's requirement, position by position: no public or opponent view shows an unseen tile, a
    Prince or castle out of sight, the hidden Prince's castle or a sealed submission."""
    phase_one = state["phase"] in ("landing", "explore")
    for seat in (0, 1):
        for viewer in (None, 1 - seat):
            view = GAME.view(state, viewer)
            text = json.dumps(view)
            for secret in GAME.secrets(state, seat):
                assert secret not in text
            if phase_one and viewer is None:
                assert "tile:" not in text and "castle:" not in text and "prince:" not in text
            if phase_one and viewer is not None:
                for index in range(TILES):
                    if not state["seen"][viewer][index]:
                        assert f"tile:{name(index)}:" not in text, f"unseen {name(index)} shown"
                sight = AREA[state["prince"][viewer]] if state["prince"][viewer] is not None else ()
                for number, castle in enumerate(state["castles"][seat], 1):
                    token = f"castle:{seat}#{number}@"
                    assert (token in text) == (castle["tile"] in sight)
                where = state["prince"][seat]
                assert (f"prince:{seat}@" in text) == (where is not None and where in sight)
            if not phase_one and state["result"] is None:
                assert f"prince-in:{seat}#" not in text, "the hidden Prince's castle is shown"
            if state["sealed"][seat] is not None:
                assert f"sealed:{seat}:" not in text
            for copy in _perturbed_views(state, seat, viewer):
                assert GAME.view(copy, viewer) == view, "a view changes with something its viewer cannot see"


def _watched_playout(seed: int, choosers: dict[int, Callable]) -> tuple[Playout, int]:
    checked = 0
    playout = start(GAME, 2, {"map": "asymmetric" if seed % 3 == 0 else "symmetric"}, seed)
    agent = random.Random(seed)
    while GAME.pending(playout.state):
        check_views_keep_secrets(playout.state)
        checked += 1
        seat = min(GAME.pending(playout.state))
        legal = GAME.legal_actions(playout.state, seat)
        chooser = choosers.get(seat, random_chooser)
        step(GAME, playout, seat, chooser(GAME, GAME.view(playout.state, seat), seat, legal, agent))
    check_views_keep_secrets(playout.state)
    return playout, checked


def test_no_public_or_opponent_view_shows_an_unseen_tile_or_the_hidden_prince() -> None:
    phases: set[str] = set()
    positions = 0
    for seed in range(24):
        choosers = [{}, {0: strategist}, {1: strategist}, {0: strategist, 1: strategist}][seed % 4]
        playout, checked = _watched_playout(seed, choosers)
        positions += checked
        phases.update(entry[1][0] for entry in playout.state["submissions"])
        assert GAME.outcome(playout.state).finished
    assert phases >= {"l", "t", "b"} and positions > 500


def test_every_commit_matches_the_submission_published_at_the_end() -> None:
    """A host's commit and reveal over the game: every sealed text is published at the end, unchanged."""
    for seed in range(4):
        playout = start(GAME, 2, {}, seed)
        agent = random.Random(seed)
        commits: list[tuple[int, str, str]] = []
        nonces: list[str] = []
        while GAME.pending(playout.state):
            pending = GAME.pending(playout.state)
            seat = min(pending)
            assert pending[seat].sealed
            legal = GAME.legal_actions(playout.state, seat)
            action = (
                strategist(GAME, GAME.view(playout.state, seat), seat, legal, agent)
                if seed % 2
                else agent.choice(legal)
            )
            nonce = f"{seed}-{len(nonces)}-{agent.getrandbits(64):x}"
            nonces.append(nonce)
            commits.append((seat, pending[seat].id, hashlib.sha256((nonce + action).encode()).hexdigest()))
            assert "submissions" not in GAME.view(playout.state, None)
            step(GAME, playout, seat, action)
        published = GAME.view(playout.state, None)["submissions"]
        assert len(published) == len(commits)
        for (seat, decision, digest), nonce, (shown_seat, shown_decision, text) in zip(
            commits, nonces, published, strict=True
        ):
            assert (shown_seat, shown_decision) == (seat, decision)
            assert hashlib.sha256((nonce + text).encode()).hexdigest() == digest


def test_events_never_name_a_tile_during_exploration() -> None:
    playout = play(GAME, 2, 13, choosers={0: strategist})
    tile_names = {name(index) for index in range(TILES)}
    for event in playout.events:
        if event.kind in ("landing", "turn", "build", "build-failed", "sealed"):
            assert not set(event.text.replace(".", " ").replace(":", " ").split()) & tile_names, event.text


# ---- the AI ------------------------------------------------------------------------------------------------
def test_strategist_beats_random_play() -> None:
    wins = 0
    games = 16
    for seed in range(games):
        seat = seed % 2
        outcome = GAME.outcome(play(GAME, 2, 1000 + seed, choosers={seat: strategist}).state)
        wins += outcome.winners == (seat,)
    assert wins >= games * 0.8, f"the strategist won only {wins} of {games}"


def test_strategist_plan_concentrates_on_what_it_can_destroy() -> None:
    state = battle_state([(5, 1, 0), (4, 1, 0), (1, 9, 2)], [(0, 4, 0), (0, 18, 0), (0, 8, 0)])
    state = seal_both(state, "prince 3 guard 3", "prince 1 guard 1")
    view = GAME.view(state, 0)
    plan = GAME.choose_action(view, 0, GAME.legal_actions(state, 0), "strategist", random.Random(1))
    # castle 1 of the enemy needs 4 behind its Guard: castle 3 (weakest) opens, castle 2 finishes it;
    # castle 1 (5) alone destroys nothing else, so it wears down enemy castle 3 (defence 8)
    assert plan == "3+0>1 2+0>1 1+0>3"


def test_strategist_does_not_repeat_a_clashed_build() -> None:
    state = explore_state("d5", "f5")
    legal = GAME.legal_actions(state, 0)
    first = GAME.choose_action(GAME.view(state, 0), 0, legal, "strategist", random.Random(3))
    state["turn"] = FORCED_BUILD_AFTER + 1  # forced: the strategist builds now
    legal = GAME.legal_actions(state, 0)
    chosen = GAME.choose_action(GAME.view(state, 0), 0, legal, "strategist", random.Random(3)).split()[2]
    state["clashed"][0].append(parse_tile(chosen))
    again = GAME.choose_action(GAME.view(state, 0), 0, legal, "strategist", random.Random(3))
    assert first in GAME.legal_actions(explore_state("d5", "f5"), 0)
    assert again.split()[2] != chosen, "the rival wants that site too: try another"


def test_listed_plans_are_valid_and_varied() -> None:
    state = battle_state([(3, 3, 3), (2, 2, 2), (1, 4, 2)], [(3, 3, 3), (2, 2, 2), (2, 1, 1)])
    state = seal_both(state, "prince 1 guard 1", "prince 2 guard 3")
    plans = GAME.legal_actions(state, 0)
    assert len(plans) >= 12 and len(set(plans)) == len(plans)
    targets = {order.split(">")[1] for plan in plans for order in plan.split() if ">" in order}
    assert targets == {"1", "2", "3"}
    assert len({plan.split()[0] for plan in plans}) > 1, "attack orders vary"
    for plan in plans:
        GAME.apply(state, 0, plan, Rng.for_event(1, 1))


# ---- the expert ----------------------------------------------------------------------------------------------
#: a small search, and no clock: the same view, rng and budget give the same action on any machine
SMALL = Budget(120, None)


def planning_state(enemy_prince: int, enemy_plan: str) -> State:
    """Battle 1, step B, seat 2 hidden in castle ``enemy_prince`` and already sealed ``enemy_plan``."""
    state = battle_state([(3, 3, 3), (2, 2, 2), (1, 4, 2)], [(3, 3, 3), (2, 2, 2), (2, 1, 1)])
    state = seal_both(state, "prince 1 guard 1", f"prince {enemy_prince} guard 2")
    return GAME.apply(state, 1, enemy_plan, Rng.for_event(1, 3)).state


def test_expert_cannot_depend_on_what_it_cannot_see() -> None:
    """Two states differing only in the enemy's hiding place and sealed plan give one view, so one action."""
    first, second = planning_state(2, "1+3>1 2+2>1 3+1>2"), planning_state(3, "3+0>3 1+0 2+0")
    assert first != second and GAME.view(first, 0) == GAME.view(second, 0)
    legal = GAME.legal_actions(first, 0)
    assert legal == GAME.legal_actions(second, 0)
    chosen = [
        expert.choose(GAME.view(state, 0), 0, legal, random.Random(5), SMALL) for state in (first, second)
    ]
    assert chosen[0] == chosen[1]


@pytest.mark.parametrize("phase", ["hide", "plan"])
def test_expert_is_deterministic_for_a_seed_and_budget_and_legal(phase: str) -> None:
    state = battle_state([(3, 3, 3), (2, 2, 2), (1, 4, 2)], [(3, 3, 3), (2, 2, 2), (2, 1, 1)])
    if phase == "plan":
        state = seal_both(state, "prince 3 guard 1", "prince 1 guard 1")
    legal = GAME.legal_actions(state, 0)
    view = GAME.view(state, 0)
    runs = [expert.choose(view, 0, legal, random.Random(seed), SMALL) for seed in (7, 7, 8)]
    assert runs[0] == runs[1] and all(action in legal for action in runs)
    GAME.apply(state, 0, runs[0], Rng.for_event(1, 4))
    assert GAME.choose_action(view, 0, legal, "expert:0.5s", random.Random(7)) in legal


def test_expert_reads_the_guard_as_the_prince_s_likely_place() -> None:
    """Its Guard mostly stands with a Prince: given the means to break a guarded castle, the expert does."""
    state = battle_state([(4, 3, 0), (4, 3, 0), (1, 3, 0)], [(0, 3, 0), (0, 3, 0), (0, 3, 0)])
    state = seal_both(state, "prince 1 guard 1", "prince 3 guard 3")
    legal = GAME.legal_actions(state, 0)
    plan = expert.choose(GAME.view(state, 0), 0, legal, random.Random(2), Budget(300, None))
    attacks = [order.split(">") for order in plan.split() if ">" in order]
    assert len([target for _, target in attacks if target == "3"]) >= 2, plan
