"""What a game says of its seats and results reaches the statistics through the engine contract (issue 44): the
sides recorded with a result (``Game.seat_sides``), what a side is called (``Game.side_word``) and the game's own
report over its stored results (``Game.report``), with no game named in ``bot/``."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bot.host import Host
from bot.stats import game_report, player_records, side_word
from rules.engine import Game, ResultSeat, Rng, available_games, get_game
from rules.engine.registry import register, unregister
from tests.conftest import ALICE, BOB
from tests.support.games import SealedGuess

CHANNEL = "stats"


class SidedGuess(SealedGuess):
    """Sealed Guess whose seats play named sides and which reports how often each side won."""

    key = "test-sided-guess"
    title = "Sided Guess (test)"
    side_word = "banner"

    def seat_sides(self, view: Any, num_players: int) -> list[str]:
        return ["sun", "moon", "star"][:num_players]

    def report(self, results: Sequence[ResultSeat]) -> str | None:
        games = {seat.game for seat in results}
        won = sorted(f"{seat.side} (seat {seat.seat})" for seat in results if seat.won)
        people = sum(seat.by_person for seat in results)
        return f"{len(games)} games of {self.title}, {people} seats by people; won: {', '.join(won)}"


@pytest.fixture
def sided_game() -> Iterator[SidedGuess]:
    game = SidedGuess()
    register(game)
    yield game
    unregister(game.key)


def test_a_game_that_says_nothing_plays_seats_in_the_turn_order_and_has_no_report() -> None:
    game = SealedGuess()
    assert game.side_word == "seat" and game.seat_sides({}, 3) == ["first", "second", "third"]
    assert Game.seat_sides(game, {}, 5)[-1] == "seat 5" and game.report([]) is None


@pytest.mark.parametrize("key", available_games())
def test_every_game_names_a_side_for_each_seat(key: str) -> None:
    """Cheap and pure (it runs inside the transaction that ends a game): one side per seat, from the public view
    (a game that ended before it had a state has an empty view: at most one side per seat then)."""
    game = get_game(key)
    for players in range(game.min_players, game.max_players + 1):
        view = game.view(game.setup(players, {}, Rng.for_event(1, 0)), None)
        sides = game.seat_sides(view, players)
        assert len(sides) == players and all(isinstance(side, str) and side for side in sides)
        assert len(game.seat_sides({}, players)) <= players
    assert side_word(key) == game.side_word


async def test_the_sides_the_word_and_the_report_come_from_the_game(
    host: Host, sided_game: SidedGuess
) -> None:
    info = await host.create_game("guild", CHANNEL, ALICE, sided_game.key)
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    await host.resign(CHANNEL, ALICE)
    rows = await host.store.fetchall(
        "SELECT seat, side, won FROM result_seats WHERE game_id = ? ORDER BY seat", (info.game_id,)
    )
    assert [tuple(row) for row in rows] == [(0, "sun", 0), (1, "moon", 1)]
    (record,) = await player_records(host.store, BOB.user_id, sided_game.key)
    assert "favourite banner: moon (1 game)" in record.text()
    report = await game_report(host.store, sided_game.key)
    assert report == "1 games of Sided Guess (test), 2 seats by people; won: moon (seat 1)"


async def test_a_game_without_a_report_adds_nothing_to_its_statistics(host: Host) -> None:
    assert await game_report(host.store, "babylone") is None
    assert await game_report(host.store, "a-game-no-longer-here") is None
