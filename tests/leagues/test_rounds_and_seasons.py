"""Issue 45, second pass, at the service level: a player dropped before their table's game exists, a thread
opened by Discord just before a crash, the next round opened at once by the process that ended the last one, the
league's notices as outbox rows that outlive a restart, and the next season of a divisions league.

Players are scripted as in ``test_service``: each answers with the first choice its prompt offers."""

from __future__ import annotations

import itertools

import pytest

from bot.host import Host, HostError
from bot.leagues.pairing import promote_relegate
from bot.leagues.service import LeagueService
from bot.models import LEAGUE_KIND, Actor
from bot.storage import leagues as repo
from tests.conftest import FakeClock
from tests.leagues.test_service import (
    CHANNEL,
    NAMES,
    PLAYERS,
    Threads,
    _play_out,
    _play_rounds,
    _round_games,
    _signed_up,
)

THREAD_IDS = itertools.count(1000)


def _shares(seats: tuple[str, ...], winners: set[str], absent: set[str]) -> list[float]:
    """League points by seat: the winners among the players present share one point."""
    counted = [user for user in seats if user in winners and user not in absent]
    return [1.0 / len(counted) if user in counted else 0.0 for user in seats]


async def test_a_player_dropped_before_the_game_exists_leaves_the_others_to_play(host: Host) -> None:
    service = LeagueService(host)
    await _signed_up(service, 3, rounds=1, pod=3)
    await service.start(CHANNEL)
    [table] = await _round_games(service, 1)
    leaving = table.seats[1]
    await service.drop(CHANNEL, Actor(leaving, NAMES[leaving]))
    await service.run_tasks(Threads())
    [table] = await _round_games(service, 1)
    kept = (table.seats[0], table.seats[2])
    assert table.step == repo.STARTED and table.game_seats == kept
    info = await host.game_info(table.game_id or 0)
    assert tuple(seat.user_id for seat in info.seats) == kept  # the seats left, in the pairing's order
    await _play_out(host, info.game_id)
    [table] = await _round_games(service, 1)
    result = await repo.game_result(host.store, info.game_id)
    assert result is not None
    winners = {info.seats[seat].user_id or "" for seat in result["winners"]} or set(kept)
    assert table.forfeit and table.points == pytest.approx(_shares(table.seats, winners, {leaving}))


async def test_a_two_player_table_without_its_second_player_is_won_by_forfeit(host: Host) -> None:
    service = LeagueService(host)
    await _signed_up(service, 2, rounds=1)
    await service.start(CHANNEL)
    [table] = await _round_games(service, 1)
    leaving = table.seats[0]
    await service.drop(CHANNEL, Actor(leaving, NAMES[leaving]))
    threads = Threads()
    await service.run_tasks(threads)
    [table] = await _round_games(service, 1)
    assert threads.opened == [] and table.game_id is None  # nobody to play: no thread, no game
    assert table.step == repo.FINISHED and table.forfeit and table.points == (0.0, 1.0)


class Discord:
    """Threads by name, as Discord keeps them; ``die_once`` makes the process die right after Discord opened a
    thread, before its id reached the service."""

    def __init__(self) -> None:
        self.threads: dict[str, str] = {}
        self.opened = 0
        self.adopted = 0
        self.die_once = False

    async def __call__(self, channel_id: str, name: str, adopt: bool = False) -> str:
        if adopt and name in self.threads:
            self.adopted += 1
            return self.threads[name]
        self.opened += 1
        self.threads[name] = f"thread-{next(THREAD_IDS)}"
        if self.die_once:
            self.die_once = False
            raise RuntimeError("the process died before the thread's id was stored")
        return self.threads[name]


async def test_a_thread_opened_just_before_a_crash_is_adopted(host: Host, clock: FakeClock) -> None:
    service = LeagueService(host)
    await _signed_up(service, 4, rounds=1)
    await service.start(CHANNEL)
    discord = Discord()
    discord.die_once = True
    await service.run_tasks(discord)
    tables = await _round_games(service, 1)
    assert sorted(table.step for table in tables) == [repo.OPENING, repo.PAIRED]
    clock.now += 3600  # the failed task's retry
    await service.run_tasks(discord)
    tables = await _round_games(service, 1)
    assert all(table.step == repo.STARTED for table in tables)
    assert discord.opened == 2 and discord.adopted == 1  # two tables, two threads: none left empty
    assert sorted(table.thread_id or "" for table in tables) == sorted(discord.threads.values())


async def test_the_last_game_of_a_round_opens_the_next_at_once(database: str, clock: FakeClock) -> None:
    first = await Host.open(database, clock=clock, worker="one")
    second = await Host.open(database, clock=clock, worker="two")
    service = LeagueService(first)
    await _signed_up(service, 2, rounds=2)
    await service.start(CHANNEL)
    await service.run_tasks(Threads())
    [table] = await _round_games(service, 1)
    assert not first.league_work.is_set()
    await _play_out(first, table.game_id or 0)
    assert first.league_work.is_set(), "the process that ended the round is woken"
    await LeagueService(second).run_tasks(Threads())  # the task is this process's: the other leaves it
    assert await _round_games(service, 2) == []
    await service.run_tasks(Threads())
    [opened] = await _round_games(service, 2)
    assert opened.step == repo.STARTED
    await first.close()
    await second.close()


async def test_a_league_notice_written_before_a_crash_is_posted_once_after(
    database: str, clock: FakeClock
) -> None:
    first = await Host.open(database, clock=clock)
    service = LeagueService(first)
    await _signed_up(service, 2, rounds=1)
    league = await service.in_channel(CHANNEL)
    await service.set_signup_message(league.id, "555")
    _, started = await service.start(CHANNEL)
    assert [(notice.kind, notice.edit_key) for notice in started] == [(LEAGUE_KIND, "555")]
    assert "has started" in started[0].text and "Signed up (2)" in started[0].text
    work = await service.run_tasks(Threads())
    [opened] = [notice for notice in work.deliveries if notice.kind == LEAGUE_KIND]
    assert "The round's games are open." in opened.text and opened.channel_id == CHANNEL
    await service._open_round(league, 1, Threads())  # the round's opening again: announced once only
    await first.close()  # the process dies after the commits, before posting anything

    second = await Host.open(database, clock=clock)
    pending = [d for d in await second.pending_deliveries() if d.kind == LEAGUE_KIND]
    assert [d.id for d in pending] == [started[0].id, opened.id]
    assert pending[1].text == opened.text and pending[0].edit_key == "555"
    for delivery in pending:
        await second.mark_sent(delivery.id)
    assert not [d for d in await second.pending_deliveries() if d.kind == LEAGUE_KIND]
    await second.close()


async def test_a_new_season_promotes_relegates_and_takes_newcomers(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.leagues.service as service_module

    monkeypatch.setattr(service_module, "DIVISION_SIZE", 2)
    service = LeagueService(host)
    await _signed_up(service, 4, format_="divisions", rounds=1)
    with pytest.raises(HostError, match="has finished"):
        await service.new_season(CHANNEL, PLAYERS[0])
    parent, _ = await service.start(CHANNEL)
    last = await repo.children(host.store, parent.id)
    await _play_rounds(host, service, [division.id for division in last])
    finals = [[line.player for line in await service.standings(d.id)] for d in last]

    season = await service.new_season(CHANNEL, PLAYERS[0])
    assert season.league.name == f"{parent.league.name}, season 2" and season.league.previous_id == parent.id
    assert season.league.status == repo.SIGNUP and season.league.rounds == parent.league.rounds
    placed = {entrant.user_id: entrant.division for entrant in season.entrants}
    assert placed[finals[1][0]] == 1 and placed[finals[0][-1]] == 2  # the winner up, the last down
    assert placed[finals[0][0]] == 1 and placed[finals[1][-1]] == 2
    with pytest.raises(HostError, match="open already"):
        await service.new_season(CHANNEL, PLAYERS[0])
    newcomer = PLAYERS[4]
    await service.join(CHANNEL, newcomer)
    await service.start(CHANNEL)
    divisions = await repo.children(host.store, season.id)
    members = [{e.user_id for e in await repo.entrants(host.store, d.id)} for d in divisions]
    expected = [set(group) for group in promote_relegate(finals)]
    expected[-1].add(newcomer.user_id)  # a newcomer starts in the bottom division
    assert members == expected
