"""Pharaoh scenarios: one per rule (costs, entries, captures, goal lines, wins mid-turn, dice, turn limit)."""

from __future__ import annotations

import random
import re

import pytest

from rules.engine import IllegalAction, InvalidAction, NoChance, ReplayRng, Rng
from rules.engine.playout import play, random_chooser, replay
from rules.engine.thinking import Budget
from rules.pharaoh import END, GAME, TURN_LIMIT, ai
from rules.pharaoh.board import GOAL_LINES, cell_name, chance_at_least, goal_line_names

LETTERS = "SML"


def position(
    players: int, pieces: dict[int, dict[str, str]], to_move: int = 0, left: int = 6, **options: str
) -> dict:
    """A state with the given pieces on the board (``{seat: {"M": "c3"}}``), ``to_move`` holding ``left`` points."""
    state = GAME.setup(players, options, Rng.for_event(1, 0))
    state["pieces"] = [[None, None, None] for _ in range(players)]
    for seat, placed in pieces.items():
        for letter, cell in placed.items():
            state["pieces"][seat][LETTERS.index(letter)] = cell
    state.update(to_move=to_move, roll=[min(left, 6)], points=left, left=left, steps=0)
    return state


def step(
    state: dict, action: str, seat: int | None = None, draws: list[int] | None = None
) -> tuple[dict, list]:
    """Apply ``action`` for the seat to move; ``draws`` are the next rolls (none expected by default)."""
    rng = NoChance() if draws is None else ReplayRng(draws)
    applied = GAME.apply(state, state["to_move"] if seat is None else seat, action, rng)
    return applied.state, applied.events


# ---- setup and dice ------------------------------------------------------------------------------------------------
def test_roll_off_ties_roll_again_and_the_highest_starts() -> None:
    state = GAME.setup(3, {}, ReplayRng([5, 2, 5, 3, 6, 4]))
    assert state["rolloff"] == [[[0, 5], [1, 2], [2, 5]], [[0, 3], [2, 6]]]
    assert state["to_move"] == 2
    assert state["roll"] == [4] and state["points"] == state["left"] == 4 and state["turn"] == 1


def test_two_dice_option_adds_both_dice() -> None:
    state = GAME.setup(2, {"dice": "2"}, ReplayRng([6, 1, 3, 5]))
    assert state["to_move"] == 0
    assert state["roll"] == [3, 5] and state["points"] == 8


def test_seats_sit_clockwise_on_their_edges() -> None:
    assert GAME.setup(2, {}, Rng.for_event(1, 0))["edges"] == ["south", "north"]
    assert GAME.setup(3, {}, Rng.for_event(1, 0))["edges"] == ["south", "west", "north"]
    assert GAME.setup(4, {}, Rng.for_event(1, 0))["edges"] == ["south", "west", "north", "east"]


def test_end_turn_rolls_for_the_next_seat_clockwise_and_says_so() -> None:
    state = position(3, {0: {"S": "c1"}}, to_move=0, left=5)
    after, events = step(state, END, draws=[3])
    assert after["to_move"] == 1 and after["roll"] == [3] and after["left"] == 3 and after["turn"] == 2
    assert "5 points unused" in events[0].text
    assert re.search(r"\{seat:1\} \(yellow\) rolls 3: 3 movement points", events[-1].text)
    assert state["to_move"] == 0 and state["left"] == 5, "apply must not change its input"


def test_every_roll_is_in_the_event_texts_and_the_same_seed_gives_the_same_dice() -> None:
    first = play(GAME, 2, 42)
    again = play(GAME, 2, 42)
    rolls = [
        int(match.group(1))
        for event in first.events
        for match in [re.search(r"rolls (\d)", event.text)]
        if match
    ]
    turn_draws = [draw for record in first.records for draw in record.draws]
    assert rolls == turn_draws
    assert [event.text for event in first.events] == [event.text for event in again.events]


# ---- costs -----------------------------------------------------------------------------------------------------------
def test_entry_costs_the_pips_and_only_on_your_own_edge() -> None:
    state = position(2, {}, to_move=1, left=3)
    after, events = step(state, "M c5")
    assert after["pieces"][1][1] == "c5" and after["left"] == 1
    assert "enter medium at c5 (2 points)" in events[0].text
    with pytest.raises(IllegalAction, match="only enter on your edge"):
        step(state, "M c1")
    assert "M c1" not in GAME.legal_actions(state, 1)


def test_orthogonal_step_costs_pips_and_diagonal_twice() -> None:
    state = position(2, {0: {"L": "c2"}}, left=6)
    after, _ = step(state, "L c3")
    assert after["left"] == 3 and after["to_move"] == 0
    after, events = step(state, "L d3", draws=[2])
    assert "c2 to d3 diagonally (6 points)" in events[0].text and "0 points left" in events[0].text
    assert after["pieces"][0][2] == "d3" and after["to_move"] == 1, "no points left: the turn ended"
    short = position(2, {0: {"L": "c2"}}, left=5)
    assert "L d3" not in GAME.legal_actions(short, 0) and "L c3" in GAME.legal_actions(short, 0)
    with pytest.raises(IllegalAction, match="costs 6 points and you have 5"):
        step(short, "L d3")


def test_one_cell_at_a_time_and_several_steps_per_turn() -> None:
    state = position(2, {0: {"S": "b2"}}, left=4)
    with pytest.raises(IllegalAction, match="one cell at a time"):
        step(state, "S b4")
    state, _ = step(state, "S b3")
    state, _ = step(state, "S b4")
    assert state["pieces"][0][0] == "b4" and state["left"] == 2 and state["to_move"] == 0


def test_turn_ends_by_itself_when_no_step_is_affordable() -> None:
    state = position(2, {0: {"M": "c2", "L": "d2"}, 1: {"S": "c4"}}, left=2)
    state["pieces"][0][0] = "b2"
    after, events = step(state, "M c3", draws=[4])
    assert after["to_move"] == 1 and after["left"] == 4
    assert any(event.kind == "end-turn" for event in events)


# ---- captures ----------------------------------------------------------------------------------------------------------
def test_capture_of_an_equal_piece_returns_it_to_its_reserve() -> None:
    state = position(2, {0: {"M": "c2"}, 1: {"M": "c3"}}, left=6)
    after, events = step(state, "M c3")
    assert after["pieces"][0][1] == "c3" and after["pieces"][1][1] is None
    assert events[0].kind == "capture" and "capturing yellow medium" in events[0].text


def test_capture_of_a_smaller_piece_and_re_entry_later() -> None:
    state = position(2, {0: {"L": "c2"}, 1: {"S": "c3"}}, left=3)
    after, _ = step(state, "L c3", draws=[2])
    assert after["pieces"][1][0] is None and after["to_move"] == 1
    assert "S c5" in GAME.legal_actions(after, 1)
    again, _ = step(after, "S c5")
    assert again["pieces"][1][0] == "c5"


def test_larger_enemy_and_own_pieces_cannot_be_entered() -> None:
    state = position(2, {0: {"S": "c2", "M": "b2"}, 1: {"M": "c3"}}, left=6)
    legal = GAME.legal_actions(state, 0)
    assert "S c3" not in legal and "S b2" not in legal and "M c3" in legal
    with pytest.raises(IllegalAction, match="larger than your small"):
        step(state, "S c3")
    with pytest.raises(IllegalAction, match="Your own medium"):
        step(state, "S b2")


def test_entry_can_capture_on_your_edge() -> None:
    state = position(2, {1: {"S": "c1"}}, to_move=0, left=1)
    after, _ = step(state, "S c1", draws=[3])
    assert after["pieces"][0][0] == "c1" and after["pieces"][1][0] is None


# ---- goal lines and winning --------------------------------------------------------------------------------------------
def _finish(players: int, cells: tuple[str, str, str], last: str, **options: str) -> dict:
    """Seat 0 holds two of ``cells`` and steps the large pyramid from ``last`` onto the third."""
    placed = {"S": cells[0], "M": cells[1], "L": last}
    state = position(players, {0: placed}, left=6, **options)
    return step(state, f"L {cells[2]}", draws=[1])[0]


@pytest.mark.parametrize(
    ("players", "options", "line", "wins"),
    [
        (2, {}, ("b3", "d3", "c3"), True),
        (2, {}, ("c2", "c4", "c3"), False),
        (2, {"goal": "across"}, ("c2", "c4", "c3"), True),
        (2, {"goal": "across"}, ("b3", "d3", "c3"), False),
        (3, {}, ("b3", "d3", "c3"), True),
        (3, {}, ("c2", "c4", "c3"), True),
        (3, {}, ("b2", "d4", "c3"), False),
        (4, {}, ("b2", "d4", "c3"), True),
        (4, {}, ("b4", "d2", "c3"), True),
        (4, {}, ("b3", "d3", "c3"), True),
    ],
)
def test_goal_lines_per_player_count(
    players: int, options: dict[str, str], line: tuple[str, str, str], wins: bool
) -> None:
    state = _finish(players, line, "c2" if line[0] != "c2" else "b3", **options)
    outcome = GAME.outcome(state)
    assert outcome.finished is wins
    if wins:
        assert outcome.winners == (0,) and sorted(state["win_line"]) == sorted(line)


def test_goal_line_table() -> None:
    names = {players: goal_line_names(players, "between") for players in (2, 3, 4)}
    assert names == {2: ("row",), 3: ("row", "column"), 4: ("row", "column", "rising", "falling")}
    assert [cell_name(cell) for cell in GOAL_LINES["row"]] == ["b3", "c3", "d3"]


def test_win_in_the_middle_of_a_turn_ends_the_game_at_once() -> None:
    state = position(2, {0: {"S": "b3", "M": "d3", "L": "c2"}}, left=6)
    rng = Rng.for_event(1, 1)
    applied = GAME.apply(state, 0, "L c3", rng)
    assert rng.draws == [], "no roll after a win"
    assert applied.state["left"] == 3 and GAME.outcome(applied.state).winners == (0,)
    assert GAME.pending(applied.state) == {} and GAME.legal_actions(applied.state, 1) == []
    assert applied.events[-1].kind == "win" and "b3-c3-d3" in applied.events[-1].text


def test_three_hundred_turns_without_a_win_is_a_draw() -> None:
    state = position(2, {0: {"S": "c1"}}, left=2)
    state["turn"] = TURN_LIMIT
    after, events = step(state, END)
    outcome = GAME.outcome(after)
    assert outcome.finished and outcome.draw and events[-1].kind == "draw"


# ---- notation, deadline, undo, views -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("m c3", "M c3"),
        ("medium to c3", "M c3"),
        ("L@b1", "L b1"),
        ("3 c3", "L c3"),
        ("s-c2", "S c2"),
        ("b2-c3", "M c3"),
        ("b2 c3", "M c3"),
        ("End Turn", "end"),
        ("done", "end"),
    ],
)
def test_parse_reads_what_players_type(typed: str, canonical: str) -> None:
    state = position(2, {0: {"M": "b2"}})
    assert GAME.parse(state, 0, typed) == canonical


@pytest.mark.parametrize("typed", ["", "x c3", "M f3", "c3-c4", "forward"])
def test_parse_refuses_with_a_sentence(typed: str) -> None:
    state = position(2, {0: {"M": "b2"}})
    with pytest.raises(InvalidAction) as error:
        GAME.parse(state, 0, typed)
    assert str(error.value)


def test_blocked_corner_and_deadline() -> None:
    state = position(2, {0: {"S": "b1"}})
    with pytest.raises(IllegalAction, match="blocked"):
        step(state, "S a1")
    assert GAME.on_deadline(state, 0) == END and GAME.on_deadline(state, 1) is None


def test_undo_only_while_the_turn_goes_on() -> None:
    state = position(2, {0: {"S": "c2"}}, left=3)
    assert GAME.can_undo(state, 0, "S c3")
    assert not GAME.can_undo(state, 0, END)
    last_point = position(2, {0: {"S": "c2"}}, left=1)
    assert not GAME.can_undo(last_point, 0, "S c3")


def test_views_show_the_roll_points_left_goal_lines_and_edges() -> None:
    state = position(4, {}, left=5)
    view = GAME.view(state, None)
    assert view["roll"] == [5] and view["left"] == 5 and view["points"] == 5
    assert len(view["goal_lines"]) == 4 and view["edge_cells"][3] == ["e2", "e3", "e4"]
    assert view["turn_limit"] == TURN_LIMIT


def test_dice_odds_table() -> None:
    assert chance_at_least(1, 4) == pytest.approx(0.5)
    assert chance_at_least(2, 12) == pytest.approx(1 / 36)
    assert chance_at_least(1, 7) == 0.0 and chance_at_least(2, 0) == 1.0


# ---- AI ------------------------------------------------------------------------------------------------------------------
def test_ai_takes_a_win_within_reach() -> None:
    state = position(2, {0: {"S": "b2", "M": "d3", "L": "c2"}, 1: {"L": "c4"}}, left=5)
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    for level in GAME.ai_levels:
        first = GAME.choose_action(view, 0, legal, level, random.Random(1))
        after, _ = step(state, first, draws=[1])
        second = GAME.choose_action(
            GAME.view(after, 0), 0, GAME.legal_actions(after, 0), level, random.Random(1)
        )
        assert GAME.outcome(step(after, second, draws=[1])[0]).winners == (0,)


def test_expectimax_beats_random_in_a_small_sample() -> None:
    """The 200-game check (>= 90%) is in bench/bench_pharaoh.py; here 12 games, seats rotating."""
    wins = 0
    for game in range(12):
        hero = game % 2

        def ai(game_, view, seat, legal, rng):
            return game_.choose_action(view, seat, legal, "expectimax", rng)

        playout = play(GAME, 2, 500 + game, choosers={hero: ai, 1 - hero: random_chooser})
        wins += GAME.outcome(playout.state).winners == (hero,)
    assert wins >= 11


def _ai_turn(state: dict, level: str) -> dict:
    """Let the AI play the seat to move until its turn ends (the next roll is a 1)."""
    seat = state["to_move"]
    rng = random.Random(3)
    while state["to_move"] == seat and not GAME.outcome(state).finished:
        action = GAME.choose_action(GAME.view(state, seat), seat, GAME.legal_actions(state, seat), level, rng)
        state = step(state, action, draws=[1])[0]
    return state


@pytest.mark.parametrize("level", GAME.ai_levels)
def test_ai_breaks_a_line_the_opponent_is_about_to_complete(level: str) -> None:
    # yellow needs only L c4-c3 (3 points: two rolls in three) to hold b3-c3-d3; red's large can take b3
    state = position(2, {0: {"L": "c2"}, 1: {"S": "b3", "M": "d3", "L": "c4"}}, left=6)
    after = _ai_turn(state, level)
    assert after["to_move"] == 1
    assert None in after["pieces"][1], f"{level} left the yellow line intact: {after['pieces']}"


def _expert_step(view: dict, seat: int, legal: list[str], seed: int, iterations: int = 20_000) -> str:
    """``expert`` with its budget counted in placements only (no clock): what a game replays."""
    return ai.decide(view, seat, legal, "expert", random.Random(seed), budget=Budget(iterations, None))


def test_expert_is_deterministic_for_a_seed_and_budget_and_legal() -> None:
    # Pharaoh hides nothing (a seat's view is the whole state), so the same view means the same position
    for stop in (12, 24):
        playout = play(GAME, 2, 40 + stop, stop_after=stop)
        seat = playout.state["to_move"]
        legal = GAME.legal_actions(playout.state, seat)
        view = GAME.view(playout.state, seat)
        actions = {_expert_step(view, seat, legal, 7) for _ in range(2)}
        assert len(actions) == 1 and actions <= set(legal)
        assert _expert_step(view, seat, legal, 7, iterations=5_000) in legal  # a smaller budget: still legal


def test_expert_decides_the_same_from_two_states_that_give_the_same_view() -> None:
    playout = play(GAME, 2, 31, stop_after=25)
    rebuilt = replay(GAME, 2, {}, playout.setup_draws, playout.records)  # the same game, from its log alone
    seat = playout.state["to_move"]
    legal = GAME.legal_actions(playout.state, seat)
    first, second = GAME.view(playout.state, seat), GAME.view(rebuilt, seat)
    assert first == second and first is not second and len(legal) > 2
    action = _expert_step(first, seat, legal, 4)
    assert action == _expert_step(second, seat, legal, 4) and action in legal


def test_expert_reads_nothing_but_the_view() -> None:
    playout = play(GAME, 2, 32, stop_after=30)
    seat = playout.state["to_move"]
    legal = GAME.legal_actions(playout.state, seat)
    view = GAME.view(playout.state, seat)
    read: set[str] = set()

    class Spy(dict):  # records the view's keys the AI reads
        def __getitem__(self, key: str) -> object:
            read.add(key)
            return super().__getitem__(key)

    assert _expert_step(Spy(view), seat, legal, 2) == _expert_step(view, seat, legal, 2)
    assert read <= set(view) and {"pieces", "left", "dice"} <= read
