"""The league service over the host, as the Discord cog drives it (issue 45): sign-up, rounds opened at once and
played to the end, a restart halfway through opening a round, withdrawals, deadline misses, two processes.

Players here are scripted: each answers its decision with the first choice its prompt offers."""

from __future__ import annotations

import asyncio
import itertools
import json

import pytest

from bot.host import Host, HostError
from bot.leagues.service import LeagueService
from bot.models import Actor
from bot.storage import leagues as repo
from tests.conftest import FakeClock
from tests.support.played import play_first_choices

CHANNEL = "league-channel"
GUILD = "guild"
PLAYERS = [Actor(str(100 + n), f"player{n}") for n in range(1, 8)]
NAMES = {actor.user_id: actor.name for actor in PLAYERS}
#: thread ids are unique across every opener of a test (a restarted process keeps counting)
THREAD_NUMBERS = itertools.count(1)


class Threads:
    """The front-end's part: open a thread and say its id. ``fail_after`` makes it fail (a crash) once it has
    opened that many."""

    def __init__(self, fail_after: int | None = None) -> None:
        self.opened: list[str] = []
        self.fail_after = fail_after

    async def __call__(self, channel_id: str, name: str, adopt: bool = False) -> str:
        assert channel_id == CHANNEL
        if self.fail_after is not None and len(self.opened) >= self.fail_after:
            raise RuntimeError("the process died while opening threads")
        self.opened.append(name)
        return f"thread-{next(THREAD_NUMBERS)}"


async def _signed_up(service: LeagueService, count: int, **kwargs: object) -> None:
    options: dict[str, object] = {"format_": "swiss", "rounds": 3, "deadline": "1d", **kwargs}
    await service.new(GUILD, CHANNEL, PLAYERS[0], "babylone", **options)  # type: ignore[arg-type]
    for actor in PLAYERS[:count]:
        await service.join(CHANNEL, actor)


async def _play_out(host: Host, game_id: int) -> None:
    """Every pending player answers with the first choice offered, to the game's end."""
    await play_first_choices(host, game_id, NAMES)


async def _round_games(service: LeagueService, round_number: int) -> list[repo.TableRow]:
    league = await service.in_channel(CHANNEL)
    return await repo.tables(service.store, league.id, round_number)


async def test_a_swiss_league_is_played_to_its_end(host: Host) -> None:
    service = LeagueService(host)
    await _signed_up(service, 5)
    with pytest.raises(HostError, match="already signed up"):
        await service.join(CHANNEL, PLAYERS[1])
    await service.start(CHANNEL)
    threads = Threads()
    for round_number in (1, 2, 3):
        work = await service.run_tasks(threads)
        tables = await _round_games(service, round_number)
        assert len(tables) == 2 and all(table.step == repo.STARTED for table in tables)
        assert work.deliveries, "each game's start is posted"
        for table in tables:
            info = await host.game_info(table.game_id or 0)
            assert [seat.user_id for seat in info.seats] == list(table.seats)  # seated in the pairing's order
            assert info.channel_id == table.thread_id and info.deadline_seconds == 86_400
            await _play_out(host, info.game_id)
    work = await service.run_tasks(threads)
    league = await service.in_channel(CHANNEL)
    assert league.status == repo.DONE and any("is over" in notice.text for notice in work.deliveries)
    byes = await repo.byes(service.store, league.id)
    assert len({bye.user_id for bye in byes}) == 3  # a bye each round, never twice to one player
    lines = await service.standings(league.id)
    total = sum(line.points for line in lines)
    assert total == pytest.approx(6 + 3)  # six games of one point each, three byes
    for table_row in await repo.tables(service.store, league.id):
        result = await repo.game_result(service.store, table_row.game_id or 0)
        assert result is not None and table_row.points is not None
        winners = result["winners"]
        expected = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(2)]
        assert list(table_row.points) == pytest.approx(expected)


async def test_a_restart_while_a_round_opens_resumes_each_table_once(database: str, clock: FakeClock) -> None:
    first = await Host.open(database, clock=clock)
    service = LeagueService(first)
    await _signed_up(service, 6)
    await service.start(CHANNEL)
    dying = Threads(fail_after=2)
    await service.run_tasks(dying)  # two threads opened, then the 'process' fails on the third
    tables = await _round_games(service, 1)
    # the third was recorded as opening its thread before Discord was asked (which failed)
    assert [table.step for table in tables] == [repo.STARTED, repo.STARTED, repo.OPENING]
    await first.close()

    clock.now += 3600  # the failed task waits for its retry
    second = await Host.open(database, clock=clock)
    resumed = LeagueService(second)
    threads = Threads()
    await resumed.run_tasks(threads)
    tables = await _round_games(resumed, 1)
    assert len(threads.opened) == 1  # only the table that had no thread gets one
    assert all(table.step == repo.STARTED for table in tables)
    game_ids = [table.game_id for table in tables]
    assert len(set(game_ids)) == 3
    for table in tables:
        assert (await second.game_in_channel(table.thread_id or "")) is not None
    await second.close()


async def test_a_game_created_before_a_crash_is_adopted(host: Host) -> None:
    service = LeagueService(host)
    await _signed_up(service, 2, rounds=1)
    await service.start(CHANNEL)
    [table] = await _round_games(service, 1)
    async with (
        host.store.transaction() as db
    ):  # the crash came after the thread, before the game was recorded
        await repo.table_opened(db, table, "thread-crash")
    seated = Actor(table.seats[0], NAMES[table.seats[0]])
    orphan = await host.create_game(GUILD, "thread-crash", seated, "babylone", {}, 24)
    await service.run_tasks(Threads())
    [table] = await _round_games(service, 1)
    assert table.game_id == orphan.game_id and table.step == repo.STARTED


async def test_a_withdrawal_forfeits_and_leaves_later_pairings(host: Host) -> None:
    service = LeagueService(host)
    await _signed_up(service, 4, rounds=2)
    await service.start(CHANNEL)
    threads = Threads()
    await service.run_tasks(threads)
    leaving = PLAYERS[0]
    await service.drop(CHANNEL, leaving)
    with pytest.raises(HostError, match="dropped already"):
        await service.drop(CHANNEL, leaving)
    with pytest.raises(HostError, match="Only a league manager"):
        await service.drop(CHANNEL, PLAYERS[1], PLAYERS[2])
    tables = await _round_games(service, 1)
    forfeited = next(table for table in tables if leaving.user_id in table.seats)
    assert forfeited.step == repo.FINISHED and forfeited.forfeit
    seat = forfeited.seats.index(leaving.user_id)
    assert forfeited.points is not None and forfeited.points[seat] == 0 and forfeited.points[1 - seat] == 1
    for table in tables:
        if table is not forfeited:
            await _play_out(host, table.game_id or 0)
    await service.run_tasks(threads)
    round_two = await _round_games(service, 2)
    assert all(leaving.user_id not in table.seats for table in round_two)
    league = await service.in_channel(CHANNEL)
    assert [bye.user_id for bye in await repo.byes(service.store, league.id) if bye.round == 2] != []
    standing = next(line for line in await service.standings(league.id) if line.player == leaving.user_id)
    assert standing.dropped and standing.points == 0


async def test_two_missed_deadlines_drop_a_player(host: Host, clock: FakeClock) -> None:
    service = LeagueService(host)
    await _signed_up(service, 2, rounds=2, deadline="1")
    await service.start(CHANNEL)
    await service.run_tasks(Threads())
    [table] = await _round_games(service, 1)
    game_id = table.game_id or 0
    late = (await host.game_info(game_id)).pending_users[0]
    for _ in range(2):  # the same player lets two deadlines pass (each offer answered "keep waiting")
        clock.now += 3 * 3600
        await host.fire_due_timers()
        if late in (await host.game_info(game_id)).pending_users:
            continue
    misses = await repo.seat_misses(host.store, table.league_id)
    assert misses.get(late, 0) >= 2, misses
    await service.sweep()
    entrants = {entrant.user_id: entrant for entrant in await repo.entrants(host.store, table.league_id)}
    assert entrants[late].dropped and entrants[late].drop_reason == "deadlines"
    [table] = await _round_games(service, 1)
    seat = table.seats.index(late)
    assert table.points is not None and table.points[seat] == 0 and table.forfeit


async def test_two_processes_claiming_one_task_do_it_once(database: str, clock: FakeClock) -> None:
    first = await Host.open(database, clock=clock, worker="one")
    second = await Host.open(database, clock=clock, worker="two")
    await _signed_up(LeagueService(first), 6)
    await LeagueService(first).start(CHANNEL)
    threads = Threads()
    await asyncio.gather(LeagueService(first).run_tasks(threads), LeagueService(second).run_tasks(threads))
    tables = await _round_games(LeagueService(first), 1)
    assert len(threads.opened) == 3 and all(table.step == repo.STARTED for table in tables)
    rows = await first.store.fetchall("SELECT COUNT(*) AS n FROM games WHERE kind = 'babylone'")
    assert rows[0]["n"] == 3
    await first.close()
    await second.close()


async def test_sign_up_refusals(host: Host) -> None:
    service = LeagueService(host)
    with pytest.raises(HostError, match="format is one of"):
        await service.new(GUILD, CHANNEL, PLAYERS[0], "babylone", "ladder", 3, "1d")
    with pytest.raises(HostError, match="between 1 hour and 7 days"):
        await service.new(GUILD, CHANNEL, PLAYERS[0], "babylone", "swiss", 3, "9d")
    with pytest.raises(HostError, match="hours or days"):
        await service.new(GUILD, CHANNEL, PLAYERS[0], "babylone", "swiss", 3, "soon")
    with pytest.raises(HostError, match="from 2 to 4"):
        await service.new(GUILD, CHANNEL, PLAYERS[0], "babylone", "swiss", 3, "1d", pod=5)
    with pytest.raises(HostError, match="no option"):
        await service.new(GUILD, CHANNEL, PLAYERS[0], "babylone", "swiss", 3, "1d", options={"colour": "red"})
    await _signed_up(service, 1)
    with pytest.raises(HostError, match="at least 2 needed"):
        await service.start(CHANNEL)
    await service.leave(CHANNEL, PLAYERS[0])
    with pytest.raises(HostError, match="not signed up"):
        await service.leave(CHANNEL, PLAYERS[0])
    league = await service.in_channel(CHANNEL)
    assert json.loads(json.dumps(league.options)) == {}


async def test_a_league_is_named_in_the_server_language_or_as_its_manager_says(host: Host) -> None:
    service = LeagueService(host)
    first = await service.new(GUILD, CHANNEL, PLAYERS[0], "babylone", "swiss", 3, "1d", language="pl")
    assert first.league.name == "Babylone: liga swiss nr 1"
    second = await service.new(
        GUILD, "another channel", PLAYERS[0], "babylone", "swiss", 3, "1d", name="  Autumn \n cup  "
    )
    assert second.league.name == "Autumn cup"


async def _play_rounds(host: Host, service: LeagueService, league_ids: list[int]) -> None:
    """Open and play every round of the leagues to their end."""
    threads = Threads()
    for _ in range(10):
        await service.run_tasks(threads)
        running = [table for league_id in league_ids for table in await repo.tables(host.store, league_id)]
        open_games = [table.game_id for table in running if table.step == repo.STARTED and table.game_id]
        if not open_games:
            return
        for game_id in open_games:
            await _play_out(host, game_id)
    raise AssertionError("the leagues did not end")


async def test_an_elimination_ends_with_one_player_left(host: Host) -> None:
    service = LeagueService(host)
    await _signed_up(service, 4, format_="elimination", rounds=1)
    info, _ = await service.start(CHANNEL)
    assert info.league.rounds == 2  # the format counts its own rounds: 4 players, 2 rounds
    await _play_rounds(host, service, [info.id])
    league = await service.in_channel(CHANNEL)
    assert league.status == repo.DONE
    tables = await repo.tables(host.store, league.id)
    assert [table.round for table in tables] == [1, 1, 2]
    final = tables[-1]
    winners = {table.seats[table.points.index(1.0)] for table in tables[:2] if table.points}
    assert set(final.seats) == winners  # the final is between the two winners of round 1


async def test_divisions_play_a_league_each_and_end_together(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.leagues.service as service_module

    monkeypatch.setattr(service_module, "DIVISION_SIZE", 2)
    service = LeagueService(host)
    await _signed_up(service, 4, format_="divisions", rounds=1)
    parent, _ = await service.start(CHANNEL)
    divisions = await repo.children(host.store, parent.id)
    assert [len(await repo.entrants(host.store, d.id)) for d in divisions] == [2, 2]
    assert all(d.format == "round-robin" and d.rounds == 1 for d in divisions)
    await _play_rounds(host, service, [d.id for d in divisions])
    assert (await repo.league(host.store, parent.id)).status == repo.DONE  # type: ignore[union-attr]
    views = await service.standings_views(CHANNEL)
    assert [len(view.rows) for view in views] == [2, 2]
    assert "division 2" in await service.pairings_text(CHANNEL)


async def test_an_abandoned_game_scores_as_a_draw(host: Host) -> None:
    service = LeagueService(host)
    await _signed_up(service, 2, rounds=1)
    await service.start(CHANNEL)
    await service.run_tasks(Threads())
    [table] = await _round_games(service, 1)
    for user in table.seats:  # every player agrees to abandon it
        await host.abandon(table.thread_id or "", Actor(user, NAMES[user]))
    await service.sweep()
    [table] = await _round_games(service, 1)
    assert table.points == (0.5, 0.5) and table.step == repo.FINISHED
    await service.run_tasks(Threads())
    assert (await service.in_channel(CHANNEL)).status == repo.DONE
