"""Game of Princes: move counts from the start, one scenario per rule, notation, and the AI's strength."""

from __future__ import annotations

import random

import pytest

from rules.engine import IllegalAction, InvalidAction, Rng
from rules.engine.playout import perft, play, start
from rules.game_of_princes import GAME, MOVE_LIMIT, board_of, store_board
from rules.game_of_princes.board import Board, components

RNG = Rng.for_event(0, 0)


def _state(
    carpets: dict[tuple[int, int], str],
    servitors: dict[tuple[int, int], int],
    princes: list[tuple[int, int]],
    to_move: int = 0,
    **options: str,
) -> dict:
    """A state holding a hand-built position (the rules never assume the standard start)."""
    state = GAME.setup(2, options, RNG)
    store_board(state, Board(dict(carpets), dict(servitors), list(princes)))
    state["to_move"] = to_move
    state["seen"] = {}
    return state


def _apply(state: dict, seat: int, action: str) -> dict:
    return GAME.apply(state, seat, action, RNG).state


# ---- the start and the move counts the issue asks for ---------------------------------------------------------
def test_start_position() -> None:
    state = start(GAME, 2, {}, 1).state
    board = board_of(state)
    assert len(board.carpets) == 24 and (3, 3) not in board.carpets
    assert {cell for cell, colour in board.carpets.items() if colour == "red"} == {
        (x, 1) for x in range(1, 6)
    }
    assert {cell for cell, colour in board.carpets.items() if colour == "blue"} == {
        (x, 5) for x in range(1, 6)
    }
    assert board.princes == [(3, 1), (3, 5)]
    assert GAME.pending(state).keys() == {0}


def test_perft_from_the_standard_start() -> None:
    state = start(GAME, 2, {}, 1).state
    assert perft(GAME, state, 1) == 38
    assert perft(GAME, state, 2) == 1446


def test_options_first_and_confined() -> None:
    assert GAME.pending(start(GAME, 2, {"first": "blue"}, 1).state).keys() == {1}
    confined = start(GAME, 2, {"confined": "yes"}, 1).state
    # only the 8 carpets around the empty centre can move, plus 10 servitor steps and 2 Prince steps
    assert len(GAME.legal_actions(confined, 0)) == 20
    with pytest.raises(IllegalAction, match="confined"):
        _apply(confined, 0, "C1,2>0,2")


# ---- carpets ----------------------------------------------------------------------------------------------------
LINE = {(1, 1): "red", (2, 1): "neutral", (3, 1): "neutral", (4, 1): "blue"}
LINE_SERVITORS = {(1, 1): 0, (4, 1): 1}
LINE_PRINCES = [(1, 1), (4, 1)]


def test_a_carpet_move_that_splits_the_carpets_is_refused() -> None:
    state = _state(LINE, LINE_SERVITORS, LINE_PRINCES)
    with pytest.raises(IllegalAction, match="split"):
        _apply(state, 0, "C2,1>1,2")
    assert "C2,1>1,2" not in GAME.legal_actions(state, 0)


def test_only_the_position_after_the_move_must_be_connected() -> None:
    # lifting 2,1 cuts the line for a moment; set down on 2,2 it touches both neighbours by a corner
    state = _state(LINE, LINE_SERVITORS, LINE_PRINCES)
    after = board_of(_apply(state, 0, "C2,1>2,2"))
    assert after.carpets[(2, 2)] == "neutral" and len(components(after.carpets)) == 1


def test_carpets_may_leave_the_original_grid() -> None:
    state = start(GAME, 2, {}, 1).state
    after = _apply(state, 0, "C1,2>0,1")
    assert board_of(after).carpets[(0, 1)] == "neutral"
    later = _apply(_apply(after, 1, "C5,4>6,4"), 0, "C0,1>0,0")
    assert board_of(later).carpets[(0, 0)] == "neutral"
    # a carpet set down where it touches no other carpet would float away: refused
    with pytest.raises(IllegalAction, match="split"):
        _apply(_apply(later, 1, "C6,4>7,4"), 0, "C0,0>-1,-1")


def test_the_opponents_carpet_may_not_move() -> None:
    carpets = {(1, 1): "red", (2, 1): "blue", (3, 1): "blue", (2, 2): "neutral"}
    state = _state(carpets, {(1, 1): 0, (2, 1): 1}, [(1, 1), (2, 1)])
    with pytest.raises(IllegalAction, match="blue"):
        _apply(state, 0, "C3,1>3,2")
    assert not any(action.startswith("C3,1") for action in GAME.legal_actions(state, 0))
    assert any(
        action.startswith("C3,1")
        for action in GAME.legal_actions(
            _state(carpets, {(1, 1): 0, (2, 1): 1}, [(1, 1), (2, 1)], to_move=1), 1
        )
    )


def test_a_carpet_under_a_servitor_may_not_move() -> None:
    state = start(GAME, 2, {}, 1).state
    with pytest.raises(IllegalAction, match="servitor stands"):
        _apply(state, 0, "C1,1>0,0")


def test_carpet_moves_match_a_brute_force_connectivity_check() -> None:
    """The fast cut-point test agrees with moving each carpet and counting the groups."""
    playout = play(GAME, 2, 4, stop_after=60)
    board = board_of(playout.state)
    for seat in (0, 1):
        fast = {(src, dst) for _, src, dst in board.carpet_moves(seat, confined=False)}
        slow = set()
        for source in board.carpets:
            if not board.carpet_is_movable(source, seat):
                continue
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    target = (source[0] + dx, source[1] + dy)
                    if target in board.carpets:
                        continue
                    moved = set(board.carpets) - {source} | {target}
                    if len(components(moved)) == 1:
                        slow.add((source, target))
        assert fast == slow


# ---- servitors and Princes ------------------------------------------------------------------------------------
def test_a_servitor_carrying_his_prince_may_not_move() -> None:
    state = start(GAME, 2, {}, 1).state
    with pytest.raises(IllegalAction, match="carries your Prince"):
        _apply(state, 0, "S3,1>3,2")
    assert _apply(state, 0, "S2,1>3,2")  # another servitor may step diagonally onto a free carpet


def test_servitors_move_only_onto_free_carpets() -> None:
    state = start(GAME, 2, {}, 1).state
    with pytest.raises(IllegalAction, match="no carpet"):
        _apply(state, 0, "S1,1>0,0")
    with pytest.raises(IllegalAction, match="already stands"):
        _apply(state, 0, "S1,1>2,1")


def test_the_prince_steps_orthogonally_onto_his_own_servitor() -> None:
    state = start(GAME, 2, {}, 1).state
    assert board_of(_apply(state, 0, "P3,1>2,1")).princes[0] == (2, 1)
    after = _apply(_apply(state, 0, "S2,1>2,2"), 1, "C1,3>0,3")
    with pytest.raises(IllegalAction, match="orthogonally"):
        _apply(after, 0, "P3,1>2,2")


JUMP_CARPETS = {(3, 1): "red", (3, 2): "neutral", (3, 3): "neutral", (3, 4): "blue", (2, 4): "blue"}
JUMP_SERVITORS = {(3, 1): 0, (3, 4): 0, (2, 4): 1}


def test_win_by_stepping_onto_the_opponents_carpet() -> None:
    state = _state(JUMP_CARPETS, {(3, 1): 0, (3, 2): 0, (3, 3): 0, (3, 4): 0, (2, 4): 1}, [(3, 3), (2, 4)])
    after = GAME.apply(state, 0, "P3,3>3,4", RNG)
    outcome = GAME.outcome(after.state)
    assert outcome.finished and outcome.winners == (0,) and "3,4" in outcome.reason
    assert [event.kind for event in after.events] == ["move", "win"]
    assert GAME.pending(after.state) == {}


def test_win_by_long_jump() -> None:
    state = _state(JUMP_CARPETS, JUMP_SERVITORS, [(3, 1), (2, 4)], **{"long-jump": "yes"})
    assert "P3,1>3,4" in GAME.legal_actions(state, 0)
    assert GAME.outcome(_apply(state, 0, "P3,1>3,4")).winners == (0,)
    plain = _state(JUMP_CARPETS, JUMP_SERVITORS, [(3, 1), (2, 4)])
    with pytest.raises(IllegalAction, match="long-jump"):
        _apply(plain, 0, "P3,1>3,4")


def test_long_jump_stops_at_the_first_servitor_which_must_be_his() -> None:
    servitors = {**JUMP_SERVITORS, (3, 2): 1}
    state = _state(JUMP_CARPETS, servitors, [(3, 1), (2, 4)], **{"long-jump": "yes"})
    assert not any(action.startswith("P") for action in GAME.legal_actions(state, 0))


# ---- draws ------------------------------------------------------------------------------------------------------
def test_threefold_repetition_draws() -> None:
    state = start(GAME, 2, {}, 1).state
    cycle = [(0, "C1,3>0,3"), (1, "C5,3>6,3"), (0, "C0,3>1,3"), (1, "C6,3>5,3")]
    for seat, action in cycle:
        state = _apply(state, seat, action)
    assert not GAME.outcome(state).finished  # the start, the second time
    for seat, action in cycle[:-1]:
        state = _apply(state, seat, action)
    assert not GAME.outcome(state).finished
    outcome = GAME.outcome(_apply(state, *cycle[-1]))
    assert outcome.finished and outcome.draw and "third time" in outcome.reason


def test_no_legal_move_means_pass_and_two_passes_draw() -> None:
    # every carpet carries a servitor, each servitor carries a Prince: nobody can move
    state = _state({(1, 1): "red", (2, 1): "blue"}, {(1, 1): 0, (2, 1): 1}, [(1, 1), (2, 1)])
    assert GAME.legal_actions(state, 0) == ["pass"]
    state = _apply(state, 0, "pass")
    assert not GAME.outcome(state).finished and GAME.legal_actions(state, 1) == ["pass"]
    outcome = GAME.outcome(_apply(state, 1, "pass"))
    assert outcome.finished and outcome.draw and "Neither" in outcome.reason


def test_a_single_pass_does_not_end_the_game() -> None:
    carpets = {(1, 1): "red", (2, 1): "blue", (3, 1): "blue", (3, 2): "blue"}
    state = _state(carpets, {(1, 1): 0, (2, 1): 1, (3, 1): 1}, [(1, 1), (2, 1)])
    assert GAME.legal_actions(state, 0) == ["pass"]
    state = _apply(state, 0, "pass")
    state = _apply(state, 1, "S3,1>3,2")
    assert state["passes"] == 0 and not GAME.outcome(state).finished


def test_passing_with_a_legal_move_is_refused() -> None:
    with pytest.raises(IllegalAction, match="only when"):
        _apply(start(GAME, 2, {}, 1).state, 0, "pass")


def test_move_limit_draws() -> None:
    state = start(GAME, 2, {}, 1).state
    state["moves"] = MOVE_LIMIT - 1
    outcome = GAME.outcome(_apply(state, 0, "C1,3>0,3"))
    assert outcome.draw and str(MOVE_LIMIT) in outcome.reason


# ---- notation ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("S2,1>2,2", "S2,1>2,2"),
        ("s2,1-2,2", "S2,1>2,2"),
        ("2 1 to 2 2", "S2,1>2,2"),
        ("(3,1) > (2,1)", "P3,1>2,1"),
        ("prince 3,1 2,1", "P3,1>2,1"),
        ("1,2-0,1", "C1,2>0,1"),
        ("c1,2 > -0,1", "C1,2>0,1"),
        ("PASS", "pass"),
    ],
)
def test_parse_is_lenient_and_canonical(typed: str, canonical: str) -> None:
    state = start(GAME, 2, {}, 1).state
    assert GAME.parse(state, 0, typed) == canonical
    assert GAME.parse(state, 0, canonical) == canonical


def test_parse_reads_negative_coordinates_by_legality() -> None:
    carpets = {(1, 1): "red", (2, 1): "blue", (0, 1): "neutral", (0, 2): "neutral"}
    state = _state(carpets, {(1, 1): 0, (2, 1): 1}, [(1, 1), (2, 1)])
    # "0,2 -1,1" could mean 0,2 to -1,1 or 0,2 to 1,1 (taken): the legal reading wins
    assert GAME.parse(state, 0, "0,2 -1,1") == "C0,2>-1,1"
    assert "C0,2>-1,1" in GAME.legal_actions(state, 0)
    assert board_of(_apply(state, 0, "C0,2>-1,1")).carpets[(-1, 1)] == "neutral"


def test_parse_refuses_gibberish() -> None:
    with pytest.raises(InvalidAction):
        GAME.parse(start(GAME, 2, {}, 1).state, 0, "castle kingside")


def test_describe_names_the_piece() -> None:
    state = start(GAME, 2, {}, 1).state
    assert GAME.describe(state, "P3,1>2,1") == "Red Prince 3,1 to 2,1"
    assert GAME.describe(state, "C1,2>0,1") == "neutral carpet 1,2 to 0,1"


def test_apply_leaves_its_input_alone() -> None:
    state = start(GAME, 2, {}, 1).state
    before = GAME.copy_state(state)
    _apply(state, 0, "S2,1>2,2")
    assert state == before


def test_no_default_on_deadline() -> None:
    assert GAME.on_deadline(start(GAME, 2, {}, 1).state, 0) is None


def test_rules_notes_name_every_option() -> None:
    for option in GAME.options:
        assert f"`{option.name}" in GAME.rules_notes


# ---- AI ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["hard", "medium"])  # easy blunders at random now and then, by design
def test_ai_takes_a_win_in_one(level: str) -> None:
    state = _state(JUMP_CARPETS, {(3, 1): 0, (3, 2): 0, (3, 3): 0, (3, 4): 0, (2, 4): 1}, [(3, 3), (2, 4)])
    legal = GAME.legal_actions(state, 0)
    for seed in range(5):
        assert GAME.choose_action(GAME.view(state, 0), 0, legal, level, random.Random(seed)) == "P3,3>3,4"


@pytest.mark.parametrize("level", ["hard", "medium"])
def test_ai_does_not_open_the_way_to_a_losing_jump(level: str) -> None:
    # long jump: Red's servitor on 2,3 is all that stops Blue's Prince (2,4) jumping to Blue's servitor on
    # Red's carpet 2,2; moving that servitor loses at once, moving a free carpet does not
    carpets = {
        (1, 1): "red",
        (2, 2): "red",
        (2, 3): "neutral",
        (2, 4): "blue",
        (1, 2): "neutral",
        (3, 3): "neutral",
    }
    servitors = {(1, 1): 0, (2, 2): 1, (2, 3): 0, (2, 4): 1}
    state = _state(carpets, servitors, [(1, 1), (2, 4)], **{"long-jump": "yes"})
    legal = GAME.legal_actions(state, 0)
    assert any(action.startswith("S2,3") for action in legal)
    for seed in range(4):
        action = GAME.choose_action(GAME.view(state, 0), 0, legal, level, random.Random(seed))
        assert not action.startswith("S2,3")
        after = _apply(state, 0, action)
        assert "P2,4>2,2" not in GAME.legal_actions(after, 1)


@pytest.mark.whole_game
def test_hard_ai_beats_random_in_a_small_sample() -> None:
    """The benchmark plays 200 games (``python -m bench game_of_princes``); here 4 games, seats alternating, must
    all be won (each game is some 18 s of searching: a sample, the measure is the benchmark's)."""

    def hard(game, view, seat, legal, rng):
        return game.choose_action(view, seat, legal, "hard", rng)

    wins = 0
    for game_number in range(4):
        seat = game_number % 2
        playout = play(GAME, 2, 700 + game_number, choosers={seat: hard})
        wins += GAME.outcome(playout.state).winners == (seat,)
    assert wins == 4
