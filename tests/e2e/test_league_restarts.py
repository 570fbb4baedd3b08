"""Issue 45, second pass, end to end: what a crash may leave of a league, and its next season.

- A round's notice and the sign-up message's edit are outbox rows: written, then the process dies before posting
  them; the restarted bot posts each once (and a second restart posts nothing more).
- A table's thread that Discord opened just before the process died is found among the server's active threads
  (``GET /guilds/{id}/threads/active``) and adopted: no second, empty thread.
- ``/league season`` on a finished divisions league opens the next season's sign-up, its divisions promoted and
  relegated, and a newcomer joins it with the button.

The crashes are the service's work done without its posting (the cog's league loop stores, then posts): the
test calls the league service of the running bot, then restarts the bot over the same database.
"""

from __future__ import annotations

import pytest

from bot.leagues.service import LeagueService
from bot.storage import leagues as repo
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeUser
from tests.e2e.test_league_swiss import MANAGE_GUILD, THREAD, league_cog
from tests.support.played import play_first_choices

ROUND_OPEN = "The round's games are open."


async def signed_up(table: Table, fake: FakeDiscord, count: int, format: str = "swiss") -> list[FakeUser]:
    players = [fake.add_user(f"s{n}") for n in range(1, count + 1)]
    players[0].permissions |= MANAGE_GUILD
    await table.slash(players[0], "league new", game="babylone", format=format, rounds=1)
    for player in players:
        await table.slash(player, "league join")
    return players


def threads_named(fake: FakeDiscord, name: str) -> list[int]:
    return [int(c["id"]) for c in fake.channels.values() if c["type"] == THREAD and c["name"] == name]


async def test_league_notices_stored_before_a_crash_are_posted_once_after_it(
    table: Table, fake: FakeDiscord
) -> None:
    await signed_up(table, fake, 2)
    (signup,) = [m for m in fake.channel_messages(fake.general) if m.buttons()]
    service = LeagueService(table.running.host)
    await service.start(str(fake.general))  # stored: the round and the sign-up message's edit
    await service.run_tasks(league_cog(table)._open_thread)  # stored: the game and the round's notice
    assert not any(ROUND_OPEN in m.content for m in fake.channel_messages(fake.general))
    await table.stop_bot()  # the process dies before posting any of it
    await table.start_bot()
    await table.settle()
    assert sum(ROUND_OPEN in m.content for m in fake.channel_messages(fake.general)) == 1
    assert (
        "The league has started" in fake.messages[signup.id].content
        and not fake.messages[signup.id].buttons()
    )
    await table.stop_bot()
    await table.start_bot()
    await table.settle()
    assert sum(ROUND_OPEN in m.content for m in fake.channel_messages(fake.general)) == 1


async def test_a_thread_opened_just_before_a_crash_is_adopted(table: Table, fake: FakeDiscord) -> None:
    await signed_up(table, fake, 2)
    service = LeagueService(table.running.host)
    await service.start(str(fake.general))
    league = await service.in_channel(str(fake.general))
    [paired] = await repo.tables(service.store, league.id, 1)
    async with (
        service.store.transaction() as db
    ):  # the table recorded its opening, Discord opened the thread,
        await repo.table_opening(db, paired)  # and the process died before it stored the thread's id
    name = f"{league.name}: round 1, table 1"
    orphan = await league_cog(table)._open_thread(str(fake.general), name, False)
    await table.stop_bot()
    await table.start_bot()
    await league_cog(table).run_once()
    await table.settle()
    [opened] = await repo.tables(table.running.host.store, league.id, 1)
    assert opened.thread_id == orphan and threads_named(fake, name) == [int(orphan)]
    info = await table.running.host.game_in_channel(orphan)
    assert info is not None and info.status == "active"
    assert any(r.method == "GET" and r.path.endswith("threads/active") for r in fake.requests)


async def play_out(table: Table, game_id: int, names: dict[str, str]) -> None:
    """Each player answers with the first choice offered, to the game's end."""
    await play_first_choices(table.running.host, game_id, names)


async def test_a_new_season_follows_a_finished_divisions_league(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.leagues.service as service_module

    monkeypatch.setattr(service_module, "DIVISION_SIZE", 2)
    players = await signed_up(table, fake, 4, format="divisions")
    names = {str(p.id): p.name for p in players}
    await table.slash(players[0], "league start")
    service = LeagueService(table.running.host)
    for _ in range(4):  # the divisions' round robins, played to their end
        running = await repo.running_leagues(service.store)
        games = [
            t.game_id
            for r in running
            for t in await repo.tables(service.store, r.id)
            if t.step == repo.STARTED
        ]
        for game_id in games:
            await play_out(table, game_id or 0, names)
        await league_cog(table).run_once()
    refused = await table.slash(players[1], "league season")
    assert "Only a league manager" in table.reply_text(refused)
    told = table.reply_text(await table.slash(players[1], "league help"))
    assert "/league season opens the next season" in told and "drops before their table's game exists" in told

    record = await table.slash(players[0], "league season")
    (signup,) = fake.replies(record)
    assert "season 2" in signup.content and "Season 2: divisions from the last season" in signup.content
    assert "Signed up (4)" in signup.content and signup.buttons()
    newcomer = fake.add_user("s5")
    await table.press(newcomer, fake.messages[signup.id], "Join")
    assert "Signed up (5)" in fake.messages[signup.id].content
    league = await service.in_channel(str(fake.general))
    placed = {e.user_id: e.division for e in await repo.entrants(service.store, league.id)}
    assert placed[str(newcomer.id)] is None and sorted(d or 0 for d in placed.values()) == [0, 1, 1, 2, 2]
    assert not table.running.unexpected_errors
