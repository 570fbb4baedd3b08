"""Game of Princes AI: how it prices a blocked route, and that its decisions depend on the rng alone."""

from __future__ import annotations

import random

import pytest

from rules.engine.playout import play, replay
from rules.engine.thinking import Budget
from rules.game_of_princes import GAME, board_of
from rules.game_of_princes.ai import (
    ROUTE_WEIGHT,
    TEMPO,
    WIN,
    balanced_evaluate,
    choose_move,
    evaluate,
    route_cells,
    route_cost,
)
from rules.game_of_princes.board import Board, format_move
from rules.game_of_princes.search import CONTEMPT, RELEVANT_FROM, WON, AlphaBeta, forced_walk, gapped_walk


def _blocked_start(free_carpet: tuple[int, int]) -> Board:
    """Red's Prince on 1,1 next to Blue's only free-standing carpet 1,2, which a Blue servitor holds; a
    neutral carpet lies free on ``free_carpet``."""
    carpets = {(1, 1): "red", (1, 2): "blue", (2, 1): "neutral", (3, 3): "neutral", free_carpet: "neutral"}
    servitors = {(1, 1): 0, (2, 1): 0, (1, 2): 1, (3, 3): 1}
    return Board(carpets, servitors, [(1, 1), (3, 3)])


def test_a_blocker_that_cannot_leave_makes_the_route_dearer() -> None:
    stuck = _blocked_start((3, 2))  # no free carpet touches 1,2: Blue's servitor there cannot move
    movable = _blocked_start((2, 2))  # 2,2 touches 1,2: Blue's servitor may step off
    assert stuck.carpets_connected() and movable.carpets_connected()
    assert not any(move[1] == (1, 2) for move in stuck.servitor_moves(1))
    assert any(move[1] == (1, 2) for move in movable.servitor_moves(1))
    assert route_cost(stuck, 0, confined=False) > route_cost(movable, 0, confined=False)


@pytest.mark.parametrize("level", [level for level in GAME.ai_levels if level != "expert"])
def test_the_same_position_and_rng_give_the_same_move(level: str) -> None:
    # the search budget counts evaluations, not seconds: a loaded machine must not change the choice
    state = play(GAME, 2, 3, stop_after=30).state
    seat = state["to_move"]
    view = GAME.view(state, seat)
    legal = GAME.legal_actions(state, seat)
    choices = {GAME.choose_action(view, seat, legal, level, random.Random(7)) for _ in range(2)}
    assert len(choices) == 1 and choices <= set(legal)


def _expert_move(view: dict, seat: int, seed: int) -> str:
    """``expert`` with its budget counted in positions only (no clock): what a game replays."""
    move = choose_move(
        board_of(view),
        seat,
        view["confined"],
        view["long_jump"],
        "expert",
        random.Random(seed),
        view["seen"],
        view["moves"],
        budget=Budget(4_000, None),
    )
    return format_move(move)


def test_expert_decides_the_same_from_two_states_that_give_the_same_view() -> None:
    playout = play(GAME, 2, 11, stop_after=40)
    rebuilt = replay(GAME, 2, {}, playout.setup_draws, playout.records)  # the same game, from its log alone
    seat = playout.state["to_move"]
    first, second = GAME.view(playout.state, seat), GAME.view(rebuilt, seat)
    assert first == second and first is not second
    action = _expert_move(first, seat, 5)
    assert action == _expert_move(second, seat, 5)
    assert action in GAME.legal_actions(playout.state, seat)


def test_expert_reads_nothing_but_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    state = play(GAME, 2, 12, stop_after=20).state
    seat = state["to_move"]
    view = GAME.view(state, seat)
    read: set[str] = set()

    class Spy(dict):  # records the view's keys the AI reads
        def __getitem__(self, key: str) -> object:
            read.add(key)
            return super().__getitem__(key)

    expected = _expert_move(view, seat, 3)
    assert _expert_move(Spy(view), seat, 3) == expected
    assert read <= set(view) and {"carpets", "servitors", "princes", "seen", "moves"} <= read


def test_what_the_search_keeps_only_saves_work() -> None:
    """``expert`` keeps each searched position's legal moves for the next deepening iteration, and every search
    keeps the game-record digests it builds for the next decision: both save time (under the wall-time cap,
    positions), not positions: the search counted in positions visits as many and here finds the same."""
    state = play(GAME, 2, 6, stop_after=40).state
    seat = state["to_move"]
    board = board_of(state)
    results = []
    for keep_moves in (False, True):
        search = AlphaBeta(
            board.copy(), False, False, dict(state["seen"]), state["moves"], Budget(3_000, None).stopwatch()
        )
        if keep_moves:
            search.moves_of = {}
        results.append(search.choose(seat, board.moves(seat, False, False)))
        assert search.board.digest(seat) == search._digest(seat, search._side_key(seat))
        assert search.board.digest(1 - seat) == search._digest(1 - seat, search._side_key(1 - seat))
    assert results[0] == results[1]
    assert results[1].depth >= 3 and results[1].iterations == 3_000


def test_the_search_score_does_not_flip_with_the_depth() -> None:
    """Issue 17: ``hard`` searched with a score that capped only the opponent's route, so from either side a
    position with two long routes scored as bad: lines ending on the opponent's move made it defend and
    nothing else, lines ending on its own move attack and nothing else. The score both sides now read alike
    keeps a quiet position's value steady from one depth to the next."""
    state = play(GAME, 2, 5, stop_after=30).state
    seat = state["to_move"]
    board = board_of(state)
    moves = board.moves(seat, False, False)
    scores = []
    for depth in (3, 4):
        search = AlphaBeta(
            board.copy(), False, False, dict(state["seen"]), state["moves"], Budget(10**6, None).stopwatch()
        )
        scores.append(search.choose(seat, list(moves), max_depth=depth).score)
    assert abs(scores[0] - scores[1]) <= 2 * ROUTE_WEIGHT, scores


def test_the_score_reads_alike_from_both_sides() -> None:
    for stop in (10, 30, 50):
        board = board_of(play(GAME, 2, 8, stop_after=stop).state)
        assert balanced_evaluate(board, 0, False) + balanced_evaluate(board, 1, False) == 2 * TEMPO


def test_the_searching_levels_see_the_draw_coming_by_the_move_limit() -> None:
    """Ahead on the board but one move before the 200-move limit: every move draws, so the search scores the
    position as the draw (less its contempt) rather than as the lead."""
    state = play(GAME, 2, 5, stop_after=30).state
    seat = state["to_move"]
    board = board_of(state)
    search = AlphaBeta(board.copy(), False, False, {}, 199, Budget(10**5, None).stopwatch())
    assert search.choose(seat, board.moves(seat, False, False), max_depth=3).score == -CONTEMPT


def test_a_move_the_opponent_can_take_back_is_no_draw() -> None:
    """A position met once before is not a draw (the third occurrence is). The search used to score any
    position of the game's record as a draw, so the opponent "refuted" every neutral carpet move by moving
    the carpet back to the position before it: ``hard`` saw a draw behind all such moves and shuffled its own
    far-off carpets until the 200-move limit, even against a random player."""
    state = play(GAME, 2, 6, stop_after=40).state  # the side to move is ahead: a draw would be worse for it
    seat = state["to_move"]
    board = board_of(state)
    assert board.digest(seat) in state["seen"] and max(state["seen"].values()) == 1
    reversible = [
        move
        for move in board.carpet_moves(seat, False)
        if board.carpets[move[1]] == "neutral" and _can_move_back(board, seat, move)
    ]
    assert reversible
    for move in reversible[:3]:
        scores = []
        for seen in ({}, dict(state["seen"])):
            search = AlphaBeta(
                board.copy(), False, False, seen, state["moves"], Budget(10**6, None).stopwatch()
            )
            search.root_seat = seat
            scores.append(search._search_move(seat, move, 0, 2, -WIN - 1, WIN + 1, 0))
        assert scores[0] == scores[1], (format_move(move), scores)


def _can_move_back(board: Board, seat: int, move: tuple) -> bool:
    board.play(seat, move)
    try:
        return (move[0], move[2], move[1]) in board.carpet_moves(1 - seat, False)
    finally:
        board.unplay(seat, move)


def test_easy_walks_its_own_prince_forward_while_both_routes_are_long() -> None:
    """``easy`` looks one ply ahead; over the score that caps only the opponent's route it saw the position
    from the opponent's side, so its own progress counted for nothing while its route was long: it drew 38 of
    40 games against a random player. From the start it now shortens its own route (but for its blunders)."""
    board = Board.start()
    before = route_cost(board, 0, False, 20)
    forward = 0
    for seed in range(10):
        move = choose_move(board, 0, False, False, "easy", random.Random(seed))
        board.play(0, move)
        forward += route_cost(board, 0, False, 20) < before
        board.unplay(0, move)
    assert forward >= 6


def _walk_ready() -> Board:
    """Red's servitors stand in a line from his Prince (1,1) to Blue's carpet 1,4: three Prince moves win, and
    nothing Blue does can stop them (carpets under servitors cannot move); Blue's Prince is far from Red's."""
    carpets = {(1, 1): "red", (1, 2): "neutral", (1, 3): "neutral", (1, 4): "blue", (2, 4): "neutral"}
    carpets |= {(3, 4): "neutral", (4, 4): "neutral", (5, 4): "neutral", (5, 5): "blue"}
    servitors = {(1, 1): 0, (1, 2): 0, (1, 3): 0, (1, 4): 0, (5, 5): 1, (4, 4): 1}
    return Board(carpets, servitors, [(1, 1), (5, 5)])


def _search(board: Board, **flags: bool) -> AlphaBeta:
    """A search of ``board`` without a clock, with the ``expert`` switches named in ``flags`` set."""
    search = AlphaBeta(board.copy(), False, False, {}, 0, Budget(10**5, None).stopwatch())
    for name, value in flags.items():
        setattr(search, name, value)
    return search


def _depth_one_score(board: Board, seat: int, **flags: bool) -> int:
    return _search(board, **flags).choose(seat, board.moves(seat, False, False), max_depth=1).score


def _play_out(board: Board, seat: int, plies: int) -> int:
    """``expert`` plays both sides from ``board``, ``seat`` first, until a side wins or ``plies`` are played:
    the index of the last ply."""
    seen: dict[str, int] = {}
    rng = random.Random(1)
    for ply in range(plies):
        mover = (seat + ply) % 2
        move = choose_move(board, mover, False, False, "expert", rng, seen, ply, Budget(3_000, None))
        board.play(mover, move)
        if board.has_won(mover):
            break
    return ply


@pytest.mark.parametrize("seat", [0, 1])
def test_expert_scores_a_walk_nobody_can_stop_as_won_beyond_its_depth(seat: int) -> None:
    """``expert`` reads a finished race at any depth: one ply deep it scores Red's three-move walk as won
    (and, for Blue to move, as lost); ``hard`` sees a win only one Prince move away."""
    board = _walk_ready()
    assert board.carpets_connected() and forced_walk(board, 0) == 3 and forced_walk(board, 1) is None

    sign = 1 if seat == 0 else -1
    assert sign * _depth_one_score(board, seat, forced=True) >= WON
    assert abs(_depth_one_score(board, seat, forced=False)) < WON
    # played out, Red walks home in three moves whatever Blue does
    ply = _play_out(board, seat, 6)
    assert board.has_won(0) and ply == (4 if seat == 0 else 5)


def _attacking_search(board: Board) -> AlphaBeta:
    return _search(board, attacking=True)


def test_the_attacking_search_measures_leaves_from_the_searched_position() -> None:
    """``expert`` scores its leaves with :func:`evaluate` for the searching seat alone, less the searched
    position's own score: unchanged, the position scores 0 for that seat (and 0 for the other), so a draw
    (``-CONTEMPT``) means "worse than now". Before that measure, two long routes scored about -800 and the
    draw looked better than any move: the search repeated positions early in the game."""
    board = board_of(play(GAME, 2, 5, stop_after=30).state)
    assert evaluate(board, 0, False) < -CONTEMPT  # the unmeasured score would prefer the draw
    for seat in (0, 1):
        search = _attacking_search(board)
        search.choose(seat, board.moves(seat, False, False), max_depth=1)
        assert search.baseline == evaluate(board, seat, False)
        key = search._side_key(seat)
        assert search._leaf(seat, key) == 0
        assert search._leaf(1 - seat, search._side_key(1 - seat)) == 0


def test_the_attacking_search_looks_deeper_only_at_moves_touching_a_route() -> None:
    """From its second move on (``RELEVANT_FROM``) the attacking search keeps the Prince moves and the moves
    onto or off a cell of either side's cheapest route (or a Prince's cell); before it, every move."""
    board = board_of(play(GAME, 2, 5, stop_after=30).state)
    seat = 0
    cells = route_cells(board, 0, False) | route_cells(board, 1, False)
    assert board.princes[0] in cells and board.princes[1] in cells
    moves = board.moves(seat, False, False)
    search = _attacking_search(board)
    assert sorted(search._ordered(moves, None, RELEVANT_FROM - 1)) == sorted(moves)
    kept = search._ordered(moves, None, RELEVANT_FROM)
    assert kept and len(kept) < len(moves)
    assert all(move[0] == "P" or move[1] in cells or move[2] in cells for move in kept)
    assert {move for move in moves if move[1] in cells or move[2] in cells} <= set(kept)


def _gap_ready(gap_colour: str = "neutral") -> Board:
    """:func:`_walk_ready` with Red's servitor gone from 1,3: a servitor of his on 2,2 can step in. Blue may
    move a neutral carpet 1,3 to 2,3 (it still joins both halves), not a red one."""
    board = _walk_ready()
    del board.servitors[(1, 3)]
    board.carpets.update({(1, 3): gap_colour, (2, 2): "neutral"})
    board.servitors[(2, 2)] = 0
    return board


def test_a_gap_the_other_side_can_spoil_counts_only_when_the_seat_fills_it_first() -> None:
    board = _gap_ready()
    assert board.carpets_connected() and forced_walk(board, 0) is None
    assert gapped_walk(board, 0, True, False) == 4  # a step in, three Prince moves
    assert gapped_walk(board, 0, False, False) is None  # Blue moves first: 1,3 to 2,3
    assert ("C", (1, 3), (2, 3)) in board.moves(1, False, False)


def test_a_gap_the_other_side_cannot_spoil_counts_whoever_moves_first() -> None:
    board = _gap_ready("red")  # Blue may not move Red's carpet and has no servitor beside it
    assert gapped_walk(board, 0, False, False) == 4
    board.carpets[(2, 3)] = "neutral"
    board.servitors[(2, 3)] = 1  # ... now he has: he steps onto 1,3
    assert gapped_walk(board, 0, False, False) is None
    assert gapped_walk(board, 0, True, False) == 4


def test_two_gaps_need_two_servitors_and_the_second_out_of_reach() -> None:
    board = _gap_ready()
    del board.servitors[(1, 2)]
    board.carpets[(1, 2)] = "red"  # the gap filled second: Blue can spoil neither this one...
    assert gapped_walk(board, 0, True, False) is None  # ... but 2,2 cannot fill both
    board.carpets[(2, 1)] = "neutral"
    board.servitors[(2, 1)] = 0
    assert board.carpets_connected()
    assert gapped_walk(board, 0, True, False) == 5  # 2,2 onto 1,3 first, 2,1 onto 1,2, three Prince moves
    assert gapped_walk(board, 0, False, False) is None  # Blue, moving first, may move the neutral 1,3 away


def _two_gaps_ready() -> Board:
    """Red's walk lacks servitors on 1,2 and 1,3, both on Red's carpets with no Blue servitor near: his 2,1 and
    2,2 step in, and nothing Blue does can stop it."""
    board = _gap_ready("red")
    del board.servitors[(1, 2)]
    board.carpets.update({(1, 2): "red", (2, 1): "neutral"})
    board.servitors[(2, 1)] = 0
    return board


@pytest.mark.parametrize("seat", [0, 1])
def test_expert_scores_a_walk_it_can_still_complete_as_won(seat: int) -> None:
    """One ply deep, ``expert`` scores Red's walk with two cells still to fill as won for Red whoever moves
    (and lost for Blue); without ``gapped`` it does not see it. Played out, Red wins in five moves."""
    board = _two_gaps_ready()
    assert board.carpets_connected() and gapped_walk(board, 0, True, False) == 5
    assert gapped_walk(board, 0, False, False) == 5  # Blue's servitors are too far to reach either in time

    sign = 1 if seat == 0 else -1
    assert sign * _depth_one_score(board, seat, forced=True, gapped=True) >= WON
    assert abs(_depth_one_score(board, seat, forced=True, gapped=False)) < WON
    ply = _play_out(board, seat, 10)
    assert board.has_won(0) and ply == (8 if seat == 0 else 9)


def test_a_gap_filled_later_must_be_out_of_reach_for_longer() -> None:
    """A Blue servitor two steps from both gaps: moving first, Red fills one at once and the other before the
    servitor arrives; moving second, Red's second fill comes after two Blue moves, when it may be there."""
    board = _two_gaps_ready()
    board.carpets[(3, 2)] = "neutral"
    board.servitors[(3, 2)] = 1
    assert board.carpets_connected()
    assert gapped_walk(board, 0, True, False) == 5
    assert gapped_walk(board, 0, False, False) is None
