"""Results and ratings (bot/ratings.py): recorded in the transaction that finishes a game, rebuilt identically
from the stored results, unrated games kept out, and each sealed choice's event naming its own sealer."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.host import Host, HostError
from bot.hosting.core import Games
from bot.ratings import STAND_IN_SHARE, rebuild, record_result, summarise
from bot.stats import ratings_report
from rules.engine import available_games, get_game
from tests.conftest import ALICE, BOB, CAROL

CHANNEL = "ratings"


async def _ratings(host: Host) -> dict[tuple[str, str], tuple[Any, ...]]:
    rows = await host.store.fetchall("SELECT kind, player, mu, sigma, games, wins, updated_at FROM ratings")
    return {(row["kind"], row["player"]): tuple(row)[2:] for row in rows}


async def _result_seats(host: Host) -> list[tuple[Any, ...]]:
    rows = await host.store.fetchall(
        "SELECT game_id, seat, player, rank, won, mu_before, sigma_before, mu_after, sigma_after "
        "FROM result_seats ORDER BY game_id, seat"
    )
    return [tuple(row) for row in rows]


async def _two_player_babylone(host: Host, channel: str, options: dict[str, str] | None = None) -> int:
    info = await host.create_game("guild", channel, ALICE, "babylone", options or {})
    await host.join(channel, BOB)
    await host.start(channel, ALICE, order="given")
    return info.game_id


async def _play_out(host: Host, game_id: int, actors: dict[str, Any]) -> None:
    """People play their first legal action until the game ends (AI seats answer through the host)."""
    for _ in range(500):
        info = await host.game_info(game_id)
        if info.status != "active":
            return
        user = info.pending_users[0]
        prompt = await host.prompt_of(game_id, user)
        assert prompt is not None
        await host.act(game_id, actors[user], prompt.choices[0].action, prompt.decision_id)
    raise AssertionError("the game did not end")


async def test_the_finishing_transaction_records_the_result_and_both_ratings(host: Host) -> None:
    game_id = await _two_player_babylone(host, CHANNEL)
    deliveries = await host.resign(CHANNEL, ALICE)
    told = [d for d in deliveries if "Game over:" in d.text]
    assert len(told) == 1 and told[0].replay
    assert f"Ratings for Babylone #{game_id}: alice 25.0 → " in told[0].text
    result = await host.store.fetchone("SELECT * FROM results WHERE game_id = ?", (game_id,))
    assert result["rated"] == 1 and result["draw"] == 0 and result["number"] == 1
    ratings = await _ratings(host)
    alice, bob = ratings[("babylone", ALICE.user_id)], ratings[("babylone", BOB.user_id)]
    assert bob[0] > 25 > alice[0] and bob[1] < 25 / 3 and alice[1] < 25 / 3
    assert (alice[2:4], bob[2:4]) == ((1, 0), (1, 1))
    seats = await _result_seats(host)
    assert [(s[2], s[3], s[4]) for s in seats] == [(ALICE.user_id, 2, 0), (BOB.user_id, 1, 1)]
    assert seats[1][7] == bob[0] and seats[1][5] == 25.0


async def test_rated_no_keeps_the_game_out_of_the_ratings(host: Host) -> None:
    with pytest.raises(HostError, match="Option rated takes yes or no"):
        await host.create_game("guild", CHANNEL, ALICE, "babylone", {"rated": "maybe"})
    game_id = await _two_player_babylone(host, CHANNEL, {"rated": "no", "replay": "no"})
    assert "rated" not in (await host.game_info(game_id)).options  # a table option, not a rule
    deliveries = await host.resign(CHANNEL, BOB)
    (told,) = [d for d in deliveries if "Game over:" in d.text]
    assert "is not rated: the table chose rated=no." in told.text and not told.replay
    assert await _ratings(host) == {}
    result = await host.store.fetchone(
        "SELECT rated, unrated_reason FROM results WHERE game_id = ?", (game_id,)
    )
    assert (result["rated"], result["unrated_reason"]) == (0, "the table chose rated=no")


async def test_a_seat_the_ai_played_for_most_of_the_game_is_left_out_of_the_ratings(host: Host) -> None:
    """Carol resigns at once in a 3-player game: the AI plays her seat to the end, so her seat is left out of the
    ratings (issue 42) and alice and bob are rated between themselves."""
    info = await host.create_game("guild", CHANNEL, ALICE, "babylone")
    await host.join(CHANNEL, BOB)
    await host.join(CHANNEL, CAROL)
    await host.start(CHANNEL, ALICE, order="given")
    await host.resign(CHANNEL, CAROL)
    await _play_out(host, info.game_id, {ALICE.user_id: ALICE, BOB.user_id: BOB})
    result = await host.store.fetchone(
        "SELECT rated, unrated_reason FROM results WHERE game_id = ?", (info.game_id,)
    )
    assert result["rated"] == 1 and result["unrated_reason"] is None
    carol = await host.store.fetchone(
        "SELECT unrated_reason, mu_after FROM result_seats WHERE game_id = ? AND seat = 2", (info.game_id,)
    )
    assert "carol's seat was played by the AI" in carol["unrated_reason"] and carol["mu_after"] is None
    assert {player for _kind, player in await _ratings(host)} == {ALICE.user_id, BOB.user_id}


async def test_each_sealed_choice_keeps_its_own_actor(host: Host, sealed_game) -> None:
    """The AI seals first and alice last: both choices are played together, each event naming its sealer
    (before migration 6 both named alice, whose seal revealed them)."""
    info = await host.create_game("guild", CHANNEL, ALICE, sealed_game.key)
    await host.add_ai(CHANNEL, ALICE, "random")
    await host.start(CHANNEL, ALICE, order="given")
    prompt = await host.prompt_of(info.game_id, ALICE.user_id)
    assert prompt is not None
    await host.act(info.game_id, ALICE, prompt.choices[0].action, prompt.decision_id)
    events = await host.store.events(info.game_id, 0)
    assert [(e.seat, e.user_id) for e in events[:2]] == [(0, ALICE.user_id), (1, "ai:random")]


async def test_a_failed_finishing_transaction_stores_neither_the_end_nor_a_rating(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await _two_player_babylone(host, CHANNEL)

    async def crash(*args: Any) -> None:
        raise RuntimeError("the process dies before the commit")

    monkeypatch.setattr(Games, "arm_timers", crash)  # runs after the result is recorded, in the same commit
    with pytest.raises(RuntimeError):
        await host.resign(CHANNEL, ALICE)
    monkeypatch.undo()
    assert (await host.game_info(game_id)).status == "active"
    assert await host.store.fetchall("SELECT * FROM results") == [] and await _ratings(host) == {}
    await host.resign(CHANNEL, ALICE)  # done again, it counts once
    assert [r["games"] for r in await host.store.fetchall("SELECT games FROM ratings")] == [1, 1]
    async with host.store.transaction() as db:  # and a second recording of the same end changes nothing
        assert await record_result(db, game_id, ["first", "second"], 0.0) is None
    assert [r["games"] for r in await host.store.fetchall("SELECT games FROM ratings")] == [1, 1]


async def test_the_rebuild_gives_exactly_the_incremental_ratings(host: Host, sealed_game) -> None:
    """Games of people and AI levels, 2 and 3 seats, a resignation, an agreed draw, a played-out end and a sealed
    game: rebuilding from the stored results gives the very same ratings and before/after values."""
    players = {ALICE.user_id: ALICE, BOB.user_id: BOB, CAROL.user_id: CAROL}
    for number, loser in enumerate((ALICE, BOB, ALICE)):
        await _two_player_babylone(host, f"duel-{number}")
        await host.resign(f"duel-{number}", loser)
    drawn = await host.create_game("guild", "drawn", BOB, "pharaoh")
    await host.join("drawn", CAROL)
    await host.start("drawn", BOB)
    await host.offer_draw("drawn", BOB)
    await host.offer_draw("drawn", CAROL)
    assert (await host.game_info(drawn.game_id)).status == "finished"
    three = await host.create_game("guild", "three", ALICE, "babylone")
    await host.join("three", CAROL)
    await host.add_ai("three", ALICE, "easy")
    await host.start("three", ALICE)
    await _play_out(host, three.game_id, players)
    versus = await host.create_game("guild", "versus", CAROL, sealed_game.key)
    await host.add_ai("versus", CAROL, "random")
    await host.start("versus", CAROL)
    await _play_out(host, versus.game_id, players)
    incremental, seats = await _ratings(host), await _result_seats(host)
    assert len(seats) == 13 and ("babylone", "ai:easy") in incremental
    done = await rebuild(host.store, 0.0)
    assert (done.results, done.rated, done.backfilled) == (6, 6, 0)
    assert await _ratings(host) == incremental
    assert await _result_seats(host) == seats


async def test_the_rebuild_records_a_game_finished_without_a_result(host: Host) -> None:
    game_id = await _two_player_babylone(host, CHANNEL)
    await host.resign(CHANNEL, BOB)
    recorded = await _ratings(host)
    async with host.store.transaction() as db:  # as a game finished before results were recorded
        await db.execute("DELETE FROM results WHERE game_id = ?", (game_id,))
        await db.execute("DELETE FROM ratings")
    done = await rebuild(host.store, 0.0)
    assert (done.backfilled, done.rated) == (1, 1)
    assert {key: value[:5] for key, value in (await _ratings(host)).items()} == {
        key: value[:5] for key, value in recorded.items()
    }


# ---------------------------------------------------------------------------------------------- summarise
def _event(seq: int, seat: int | None, actor: str, at: float, action: str = "a") -> dict[str, Any]:
    return {"seq": seq, "seat": seat, "action": action, "user_id": actor, "created_at": at, "undone": 0}


def _summary(events: list[dict[str, Any]], sealed: list[dict[str, Any]] | None = None, rated: int = 1):
    game = {"id": 1, "kind": "babylone", "guild_id": "g", "result": '{"winners": [0]}', "rated": rated}
    seats = [
        {"seat": 0, "user_id": "a", "name": "Ann", "ai_level": None},
        {"seat": 1, "user_id": "b", "name": "Ben", "ai_level": None},
    ]
    return summarise(
        game, seats, [_event(0, None, "a", 0.0), *events], sealed or [], ["first", "second"], 9.0
    )


def test_a_stand_in_share_up_to_the_limit_stays_rated_and_beyond_it_does_not() -> None:
    assert STAND_IN_SHARE == 0.25
    ann = [_event(n, 0, "a", float(n)) for n in range(1, 4)]
    ben = [_event(n, 1, "b", float(n)) for n in range(4, 8)]
    rated = _summary([*ann, _event(8, 0, "deadline", 8.0), *ben, _event(9, 0, "autopass", 9.0)])
    assert rated.rated and rated.seats[0].decisions == 3  # 1 of 4 decisions by a default: exactly the limit
    unrated = _summary([*ann, _event(8, 0, "deadline", 8.0), _event(9, 0, "deadline", 9.0), *ben])
    assert not unrated.rated and "Ann's seat was played by a stand-in" in str(unrated.unrated_reason)
    assert "2 of its 5 decisions" in str(unrated.unrated_reason)


def test_a_seat_belongs_to_whoever_took_most_of_its_decisions() -> None:
    """Ann handed her seat to Cid (a substitute) late: the seat's result is Ann's, and the game stays rated."""
    events = [_event(n, 0, "a", float(n)) for n in range(1, 5)] + [_event(5, 0, "c", 5.0)]
    summary = _summary([*events, _event(6, 1, "b", 6.0)])
    assert summary.seats[0].player == "a" and summary.rated


def test_answer_times_count_from_when_the_decision_was_asked_and_seals_when_sealed() -> None:
    """Ben answers 30 s after Ann's move; their sealed choices were sealed at 100 (Ann) and 160 (Ben), and both
    were played together at 160: Ann answered in 40 s, Ben in 100 s."""
    events = [
        _event(1, 0, "a", 50.0),
        _event(2, 1, "b", 60.0),
        _event(3, 0, "b", 160.0, "x"),  # the reveal: stored under the last sealer before migration 6
        _event(4, 1, "b", 160.0, "y"),
    ]
    sealed = [
        {"seat": 0, "action": "x", "actor": "a", "created_at": 100.0, "applied": 1},
        {"seat": 1, "action": "y", "actor": "b", "created_at": 160.0, "applied": 1},
    ]
    summary = _summary(events, sealed)
    ann, ben = summary.seats
    assert (ann.decisions, ann.answer_seconds) == (2, 50.0 + 40.0)
    assert (ben.decisions, ben.answer_seconds) == (2, 10.0 + 100.0)


async def test_games_ending_at_once_in_two_processes_rate_one_after_the_other(database: str, clock) -> None:
    """Two processes on one database finish two of alice's games at the same moment: the clock row makes the
    second wait for the first, so neither update is lost and the rebuild agrees."""
    first, second = await Host.open(database, clock=clock), await Host.open(database, clock=clock)
    try:
        for number in range(4):
            await _two_player_babylone(first, f"table-{number}")
        await asyncio.gather(
            *((first if number % 2 else second).resign(f"table-{number}", BOB) for number in range(4))
        )
        ratings = await _ratings(first)
        assert ratings[("babylone", ALICE.user_id)][2:4] == (4, 4)
        assert ratings[("babylone", BOB.user_id)][2:4] == (4, 0)
        numbers = await first.store.fetchall("SELECT number FROM results ORDER BY number")
        assert [row["number"] for row in numbers] == [1, 2, 3, 4]
        await rebuild(first.store, 0.0)
        assert await _ratings(first) == ratings
    finally:
        await first.close()
        await second.close()


def test_an_even_head_to_head_names_no_winner() -> None:
    from collections import Counter

    from bot.stats import head_to_head_text

    even = Counter({("ai:expert", "ai:expectimax"): 3, ("ai:expectimax", "ai:expert"): 3})
    assert head_to_head_text(even) == ["  AI expectimax and AI expert 3-3"]
    ahead = Counter({("ai:expert", "ai:greedy"): 4, ("ai:greedy", "ai:expert"): 2})
    assert head_to_head_text(ahead) == ["  AI expert beat AI greedy 4-2"]


@pytest.mark.parametrize("key", available_games())
async def test_every_game_finished_is_rated_and_counted_in_the_statistics(host: Host, key: str) -> None:
    """A two-player game of every available game, a person against its AI who resigns, records its result with
    both players' ratings in the finishing transaction, and ``python -m bot stats`` reports them."""
    game = get_game(key)
    info = await host.create_game("guild", CHANNEL, ALICE, key, {})
    await host.add_ai(CHANNEL, ALICE, game.quick_game()[1])
    await host.start(CHANNEL, ALICE, order="given")
    told = [d for d in await host.resign(CHANNEL, ALICE) if "Game over:" in d.text]
    assert len(told) == 1 and f"Ratings for {game.title} #{info.game_id}: alice 25.0 → " in told[0].text
    assert [seat for number, seat, *_ in await _result_seats(host) if number == info.game_id] == [0, 1]
    rated = {player for kind, player in await _ratings(host) if kind == key}
    assert rated == {ALICE.user_id, f"ai:{game.quick_game()[1]}"}
    report = await ratings_report(host.store, key)
    assert game.title in report and "alice" in report
