"""The pure turn step (``bot.hosting.step``), run with no database at all: a ``Live`` built in memory from a
game's setup, a ``Turn`` of plain data, and the ``Stepped`` result looked at directly."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.hosting import step
from bot.hosting.live import CARD_KEY, RESULT_PREFIX, Live, dm_prompt_key, stand_in_level
from bot.models import HostError, SeatInfo
from bot.storage import games as stored_games
from bot.verify import commit_hash
from rules.engine import Game, Rng, get_game
from tests.support.games import SealedGuess

NOW = 1_800_000_000.0
SEED = 7
NONCE = "ab" * 16


def live_of(game: Game, players: int = 2, posts: str = "card", dm_users: set[str] | None = None) -> Live:
    """A started game as the host would load it, built from the game's own setup: no database."""
    row: dict[str, Any] = {
        "id": 12,
        "version": 3,
        "kind": game.key,
        "seed": SEED,
        "status": "active",
        "channel_id": "chan",
        "guild_id": "guild",
        "posts": posts,
        "deadline_seconds": 86400,
        "window_seconds": 7200,
        "rated": 1,
    }
    seats = [SeatInfo(seat, f"u{seat}", f"player{seat}", None) for seat in range(players)]
    state = game.setup(players, {}, Rng.for_event(SEED, 0))
    return Live(row, seats, game, state, 0, dm_users=dm_users or set())


def first_move(live: Live) -> tuple[int, str]:
    seat = min(live.game.pending(live.state))
    return seat, live.game.legal_actions(live.state, seat)[0]


def test_a_move_gives_its_event_and_the_tables_messages() -> None:
    live = live_of(get_game("babylone"))
    seat, action = first_move(live)
    stepped = step.turn_step(live, [(seat, action)], "u0", step.Turn(NOW))
    assert [(s, a, who) for s, a, _draws, who, _log in stepped.change.events] == [(seat, action, "u0")]
    assert stepped.live.state != live.state and stepped.live.seq == live.seq  # the store counts the events
    expected = live.game.apply(live.state, seat, action, Rng.for_event(SEED, 1)).state
    assert stepped.live.state == expected
    card = [d for d in stepped.change.deliveries if d.edit_key == CARD_KEY]
    assert len(card) == 1 and card[0].view is not None and card[0].keep_in_reach
    next_seat, decision = next(iter(live.game.pending(expected).items()))
    line = next(d for d in stepped.change.deliveries if d.kind == "public" and d.edit_key is None)
    assert line.mentions == [f"u{next_seat}"] and decision.prompt in line.text
    # the public prompt's deadline counts from the step's moment, not from a clock read inside it
    assert card[0].prompt is not None and card[0].prompt.deadline == NOW + 86400
    assert stepped.run is None and not stepped.change.statements


def test_turn_dms_go_to_the_seat_that_now_decides() -> None:
    live = live_of(get_game("babylone"), dm_users={"u1"})
    seat, action = first_move(live)
    stepped = step.turn_step(live, [(seat, action)], "u0", step.Turn(NOW))
    dms = [d for d in stepped.change.deliveries if d.kind == "private"]
    decision = live.game.pending(stepped.live.state)[1]
    assert [(d.user_id, d.edit_key) for d in dms] == [("u1", dm_prompt_key(1, decision.id))]


def test_every_move_posts_the_board_and_no_card() -> None:
    live = live_of(get_game("babylone"), posts="every-move")
    stepped = step.turn_step(live, [first_move(live)], "u0", step.Turn(NOW))
    assert not any(d.edit_key == CARD_KEY for d in stepped.change.deliveries)
    assert any(d.view is not None for d in stepped.change.deliveries)


def test_an_illegal_move_raises_and_leaves_the_change_alone() -> None:
    live = live_of(get_game("babylone"))
    seat, _action = first_move(live)
    given = step.Change(statements=[("SELECT 1", ())])
    with pytest.raises(HostError):
        step.turn_step(live, [(seat, "9>9")], "u0", step.Turn(NOW), given)
    assert given == step.Change(statements=[("SELECT 1", ())]) and not given.events


def test_a_move_out_of_turn_is_refused_before_any_step() -> None:
    live = live_of(get_game("babylone"))
    seat, action = first_move(live)
    with pytest.raises(HostError, match="not your turn"):
        step.parse_move(live, 1 - seat, action, None)
    decision = live.game.pending(live.state)[seat]
    assert step.parse_move(live, seat, action, decision.id) == (action, decision)
    with pytest.raises(HostError, match="no longer open"):
        step.parse_move(live, seat, action, "an-old-decision")


def test_the_same_input_gives_the_same_output() -> None:
    live = live_of(get_game("babylone"))
    kept = copy.deepcopy(live.state)
    moves = [first_move(live)]
    first = step.turn_step(live, moves, "u0", step.Turn(NOW))
    second = step.turn_step(live, moves, "u0", step.Turn(NOW))
    assert first == second
    assert live.state == kept  # the loaded game is not changed by stepping from it


def test_sealing_before_the_last_seat_stores_the_commit_and_plays_nothing() -> None:
    live = live_of(SealedGuess())
    decision = live.game.pending(live.state)[0]
    sealing = step.Sealing(0, "pick 2", "u0", NONCE)
    stepped = step.seal_step(live, decision, sealing, step.Turn(NOW))
    digest = commit_hash(NONCE, live.id, decision.id, 0, "pick 2")
    assert stepped.live is live and not stepped.change.events
    [statement] = stepped.change.statements
    assert statement[1] == (live.id, decision.id, 0, "pick 2", NONCE, digest, NOW, "u0")
    texts = [d.text for d in stepped.change.deliveries if d.kind == "public"]
    assert any(digest in text and "revealing" not in text for text in texts)


def test_the_last_sealing_reveals_and_plays_every_choice_under_its_sealer() -> None:
    live = live_of(SealedGuess())
    decision = live.game.pending(live.state)[1]
    sealing = step.Sealing(1, "pick 1", "u1", NONCE, sealed={0: "pick 3"}, sealers={0: "u0"})
    stepped = step.seal_step(live, decision, sealing, step.Turn(NOW))
    assert [(s, a, who) for s, a, _d, who, _l in stepped.change.events] == [
        (0, "pick 3", "u0"),
        (1, "pick 1", "u1"),
    ]
    assert stepped.live.state["score"] == [1, 0]
    assert any("All choices are sealed: revealing." in d.text for d in stepped.change.deliveries)
    assert stepped.change.statements[-1][0].startswith("UPDATE sealed SET applied = 1")


def test_a_decision_is_sealed_once_and_only_with_a_legal_choice() -> None:
    live = live_of(SealedGuess())
    decision = live.game.pending(live.state)[0]
    with pytest.raises(HostError, match="already sealed"):
        step.seal_step(
            live, decision, step.Sealing(0, "pick 1", "u0", NONCE, sealed={0: "pick 2"}), step.Turn(NOW)
        )
    with pytest.raises(HostError):
        step.seal_step(live, decision, step.Sealing(0, "pick 7", "u0", NONCE), step.Turn(NOW))


def test_a_finishing_move_tells_the_result_and_asks_no_one() -> None:
    live = live_of(SealedGuess())
    for _round in range(2):  # seat 0 picks highest alone twice: first to 2 points
        stepped = step.turn_step(live, [(0, "pick 3"), (1, "pick 1")], "u0", step.Turn(NOW))
        live = stepped.live
    assert live.game.outcome(live.state).finished
    results = [d for d in stepped.change.deliveries if RESULT_PREFIX in d.text]
    assert len(results) == 1 and "player0 wins" in results[0].text and results[0].view is not None
    assert not any(d.prompt for d in stepped.change.deliveries) and not any(d.mentions for d in results)


def test_an_away_players_seat_goes_to_the_ai_once_their_kept_decision_is_answered() -> None:
    live = live_of(get_game("babylone"))
    seat, action = first_move(live)
    other = 1 - seat
    live.seats[other] = SeatInfo(other, f"u{other}", f"player{other}", None, vacation=True)
    stepped = step.turn_step(live, [(seat, action)], f"u{seat}", step.Turn(NOW))
    assert stepped.live.seats[other].is_ai and stepped.live.seats[other].away
    level = stand_in_level(live)
    assert stepped.change.statements == [stored_games.hand_seat_to_ai(live.id, other, level, True)]


def test_a_step_of_a_multi_step_action_continues_the_run_it_is_given() -> None:
    live = live_of(get_game("babylone"))
    seat, _action = first_move(live)
    decision = live.game.pending(live.state)[seat]
    change = step.Change()
    run = step.step_delivery(
        live, seat, decision, ["first line"], change, NOW, (seat, "status:1", ["before"])
    )
    assert run == (seat, "status:1", ["before", "first line"])
    assert change.deliveries[0].edit_key == "status:1" and change.deliveries[0].text.startswith(
        "before\nfirst line"
    )
