"""PRINCIPES answers collected ahead (issue 18, ``history.ahead``): while a queued prompt (Division,
Urbanization, Release, a History text) asks one player, the later players of the queue answer theirs ahead; each
answer is given when its turn comes if it is still legal then (the first legal of its choices), else the player
is asked. Replay equality per kind: the game is the one in which each player clicked the same answer when asked."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules.engine import get_game
from rules.engine.pace import paced_play
from rules.engine.playout import replay, start, step
from rules.engine.standing import AHEAD, ahead_action, ahead_order, standing_answer
from rules.principes.play.history import AHEAD_KINDS

GAME = get_game("principes")
PLAYERS = 4
SEEDS = range(1, 5)


def _clicked(playout: Any) -> dict[str, Any]:
    """The same game, each recorded answer given by its seat when the game asked it (legal then)."""
    again = start(GAME, PLAYERS, {}, playout.seed)
    for record in playout.records:
        assert record.action in GAME.legal_actions(again.state, record.seat), record
        step(GAME, again, record.seat, record.action)
    return again.state


@pytest.mark.parametrize("kind", AHEAD_KINDS)
def test_each_kind_answered_ahead_is_the_game_of_the_same_clicks(kind: str) -> None:
    for seed in SEEDS:
        paced = paced_play(GAME, PLAYERS, seed, "basic", collect_ahead=True)
        if not paced.by_ahead[kind]:
            continue
        playout = paced.playout
        assert set(paced.by_ahead) <= set(AHEAD_KINDS), paced.by_ahead
        assert replay(GAME, PLAYERS, {}, playout.setup_draws, playout.records) == playout.state
        assert _clicked(playout) == playout.state
        return
    pytest.fail(f"no {kind} answered ahead in {len(SEEDS)} seeds")


def test_collected_ahead_counts_once_and_asks_again_when_illegal() -> None:
    """With answers collected ahead, a queued prompt is one wait for the whole queue; fewer waits in all."""
    counted: Counter[str] = Counter()
    for seed in SEEDS:
        plain = paced_play(GAME, PLAYERS, seed, "basic")
        ahead = paced_play(GAME, PLAYERS, seed, "basic", collect_ahead=True)
        counted["plain"] += sum(plain.waits.by_kind[kind] for kind in AHEAD_KINDS)
        counted["ahead"] += sum(ahead.waits.by_kind[kind] for kind in AHEAD_KINDS)
    assert counted["ahead"] < counted["plain"], counted


def _urbanization_with_a_queue() -> tuple[dict[str, Any], int, int]:
    """A state where one player is asked Urbanization and a later one may answer ahead: (state, asked, later)."""
    for seed in SEEDS:
        playout = paced_play(GAME, PLAYERS, seed, "basic").playout
        state = start(GAME, PLAYERS, {}, seed).state
        for record in playout.records:
            upcoming = {s: d for s, d in GAME.ahead(state).items() if d.kind == "urbanization"}
            asked = [s for s, d in GAME.pending(state).items() if d.kind == "urbanization"]
            if upcoming and asked:
                return state, asked[0], min(upcoming)
            state = GAME.apply(state, record.seat, record.action, _draws(record)).state
    raise AssertionError("no Urbanization with a queue")


def _draws(record: Any) -> Any:
    from rules.engine import ReplayRng

    return ReplayRng(list(record.draws))


def test_an_answer_given_ahead_is_given_at_its_turn_only_if_legal_then() -> None:
    state, asked, later = _urbanization_with_a_queue()
    decision = GAME.ahead(state)[later]
    preview = GAME.ahead_state(state, later)
    assert preview is not None
    assert GAME.pending(preview)[later].id == decision.id  # the decision posed as it will be asked
    mine = GAME.legal_actions(state, asked)
    answers = [a for a in GAME.legal_actions(preview, later) if a.startswith("found") and a in mine]
    assert answers
    # the earlier player founds the very City the later one wants: the later one's fallback is given
    taken, fallback = answers[0], "pass"
    orders = {AHEAD: ahead_order(decision.id, [taken, fallback])}
    after = GAME.apply(state, asked, taken, _draws_none()).state
    while later not in GAME.pending(after):
        seat = min(GAME.pending(after))
        after = GAME.apply(after, seat, "pass", _draws_none()).state
    now = GAME.pending(after)[later]
    legal = GAME.legal_actions(after, later)
    assert taken not in legal
    assert standing_answer(GAME, GAME.view(after, later), later, now, legal, orders) == fallback
    # an answer for another slot (another Round, another icon) is never given
    assert (
        ahead_action({AHEAD: ahead_order("r9:icon:urbanization:0", ["pass"])}, "r1:icon:x:0", ["pass"])
        is None
    )


def _draws_none() -> Any:
    from rules.engine.rng import NoChance

    return NoChance()


def test_asking_ahead_changes_no_state_and_no_view() -> None:
    """Asking ahead poses nothing in the game: only the copy the seat answers from holds its prompt."""
    state, asked, later = _urbanization_with_a_queue()
    before = GAME.copy_state(state)
    assert GAME.ahead_state(state, later) is not None
    assert state == before
    code = state["seats"][later]
    for seat in (*range(PLAYERS), None):
        assert code not in GAME.view(state, seat)["play"]["prompts"]
