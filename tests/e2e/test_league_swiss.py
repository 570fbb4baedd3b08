"""Issue 45 end to end: a 7-player Swiss league of Babylone over 3 rounds through the real client.

Sign-up by the Join button (four players) and ``/league join`` (three); ``/league start`` opens round 1: three
games, each in its own thread of the league's channel, and a bye. In round 2 one player withdraws with
``/league drop`` (their game is resigned: a forfeit), and the bot is restarted mid-round (a new client and host
over the same database); round 3 pairs the six players left, so it has no bye. Then ``/league standings``: its
points, Buchholz and Sonneborn-Berger are computed again here, independently, from the games' results as the
test saw them and the byes ``/league pairings`` announced, following the definitions in
``bot/leagues/standings.py``'s docstring.

The player model: whoever the latest message of a game's thread mentions plays the first move the bot's
``/move`` autocomplete offers them. The league loop is run by the test (``LeagueCog.run_once``), as other tests
fire the deadline timers themselves.
"""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from bot.discord.cogs.league import LeagueCog
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeUser

MANAGE_GUILD = 1 << 5
THREAD = 11
#: a row of the standings table: rank, name (a * when dropped), points, Buchholz, SB, wins/games, byes (a column shown
#: only when someone had a bye)
ROW = re.compile(r"^(\d+)\s+(\S+?)(\*?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)/(\d+)(?:\s+(\d+))?$")


def league_cog(table: Table) -> LeagueCog:
    cog = table.running.get_cog("LeagueCog")
    # discord.py loads an extension as a module object of its own: the class is not this module's LeagueCog
    assert cog is not None and type(cog).__name__ == "LeagueCog"
    return cog  # type: ignore[return-value]


async def run_league_loop(table: Table) -> None:
    await league_cog(table).run_once()
    await table.settle()


def new_threads(fake: FakeDiscord, known: set[int]) -> list[int]:
    threads = [
        int(c["id"]) for c in fake.channels.values() if c["type"] == THREAD and int(c["id"]) not in known
    ]
    known.update(threads)
    return sorted(threads)


async def play_to_the_end(table: Table, players: list[FakeUser], thread: int) -> None:
    """The player model of the module docstring, until the game is over."""
    for _ in range(400):
        player = table.turn_of(players, thread)
        if player is None:
            return
        choices = await table.fake.autocomplete(player, "move", "notation", thread)
        assert choices, "a player whose turn it is has a move"
        await table.slash(player, "move", thread, notation=choices[0]["value"])
    raise AssertionError(f"the game in thread {thread} did not end")


class Seen:
    """What the test saw of the league: each game's seats (by name) and result, and the byes announced."""

    def __init__(self) -> None:
        self.games: list[tuple[tuple[str, str], tuple[float, float]]] = []
        self.byes: list[str] = []
        self.game_ids: dict[int, int] = {}  # thread -> game

    async def note_games(self, table: Table, threads: list[int]) -> None:
        for thread in threads:
            info = await table.running.host.game_in_channel(str(thread))
            assert info is not None and info.status == "active", "each table's game started at once"
            self.game_ids[thread] = info.game_id

    async def note_results(self, table: Table, threads: list[int]) -> None:
        for thread in threads:
            info = await table.running.host.game_info(self.game_ids[thread])
            assert info.status == "finished" and info.result is not None
            winners = info.result["winners"]
            share = 1.0 / len(winners) if winners else 0.5
            points = tuple(share if seat.seat in winners else 0.0 for seat in info.seats)
            if not winners:  # a draw
                points = (0.5, 0.5)
            names = tuple(seat.name for seat in info.seats)
            assert len(names) == 2
            self.games.append(((names[0], names[1]), (points[0], points[1])))


def independent_standings(seen: Seen) -> dict[str, tuple[float, float, float, int, int, int]]:
    """Points, Buchholz, Sonneborn-Berger, wins, games, byes by the docstring's definitions."""
    points: dict[str, float] = defaultdict(float)
    for (a, b), (pa, pb) in seen.games:
        points[a] += pa
        points[b] += pb
    for name in seen.byes:
        points[name] += 1.0
    buchholz: dict[str, float] = defaultdict(float)
    sonneborn: dict[str, float] = defaultdict(float)
    wins: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    for (a, b), (pa, pb) in seen.games:
        for me, mine, other in ((a, pa, b), (b, pb, a)):
            buchholz[me] += points[other]
            sonneborn[me] += mine * points[other]
            wins[me] += mine == 1.0
            games[me] += 1
    byes = {name: seen.byes.count(name) for name in points}
    return {n: (points[n], buchholz[n], sonneborn[n], wins[n], games[n], byes[n]) for n in points}


def pairing_byes(text: str) -> list[str]:
    line = next((line for line in text.splitlines() if line.startswith("Bye: ")), "")
    return [name.strip() for name in line.removeprefix("Bye: ").split(",") if name.strip()]


@pytest.mark.whole_game
async def test_a_seven_player_swiss_league_of_babylone(table: Table, fake: FakeDiscord) -> None:
    players = [fake.add_user(f"p{n}") for n in range(1, 8)]
    manager = players[0]
    manager.permissions |= MANAGE_GUILD
    refused = await table.slash(players[1], "league new", game="babylone", format="swiss", rounds=3)
    assert "Only a league manager" in table.reply_text(refused)

    record = await table.slash(
        manager, "league new", game="babylone", format="swiss", rounds=3, deadline="24"
    )
    (signup,) = fake.replies(record)
    assert "Babylone" in signup.content and signup.buttons()
    for player in players[:4]:
        await table.press(player, fake.messages[signup.id], "Join")
    assert "Signed up (4)" in fake.messages[signup.id].content
    for player in players[4:]:
        joined = await table.slash(player, "league join")
        assert "You signed up" in table.reply_text(joined)
    again = await table.slash(players[4], "league join")
    assert "already signed up" in table.reply_text(again)
    assert "Signed up (7)" in fake.messages[signup.id].content, "/league join refreshes the sign-up message"
    await table.slash(players[6], "league leave")
    assert "Signed up (6)" in fake.messages[signup.id].content and players[6].name not in (
        fake.messages[signup.id].content
    )
    await table.slash(players[6], "league join")

    seen, known = Seen(), set[int]()
    started = await table.slash(manager, "league start")
    assert "has started" in table.reply_text(started)
    closed = fake.messages[
        signup.id
    ]  # the sign-up message says so, with the count, and its Join button is gone
    assert "The league has started" in closed.content and "Signed up (7)" in closed.content
    assert not closed.buttons()
    dropper: FakeUser | None = None
    for round_number in (1, 2, 3):
        if round_number > 1:
            await run_league_loop(table)  # the round's end pairs and opens the next
        threads = new_threads(fake, known)
        assert len(threads) == 3, f"round {round_number}: three games at once"
        await seen.note_games(table, threads)
        if round_number == 1:  # /mygames and the catch-up digest name the league game
            info = await table.running.host.game_info(seen.game_ids[threads[0]])
            second = next(p for p in players if str(p.id) == info.seats[1].user_id)
            mine = table.reply_text(await table.slash(second, "mygames"))
            assert "league Babylone swiss league #1, round 1" in mine
            caught = table.reply_text(await table.slash(second, "catchup", threads[0]))
            assert f"Your round 1 game against {info.seats[0].name} has started." in caught
        listed = table.reply_text(await table.slash(players[6], "league pairings"))
        assert f"round {round_number}" in listed
        seen.byes += pairing_byes(listed)
        assert len(pairing_byes(listed)) == (1 if round_number < 3 else 0)
        if round_number == 2:
            info = await table.running.host.game_info(seen.game_ids[threads[0]])
            dropper = next(p for p in players if str(p.id) == info.seats[0].user_id)
            dropped = await table.slash(dropper, "league drop")
            assert "is out of" in table.reply_text(dropped)
            await play_to_the_end(table, players, threads[1])
            await table.stop_bot()  # a restart mid-round: one game over, one forfeited, one running
            await table.start_bot()
        for thread in threads:
            await play_to_the_end(table, players, thread)
        await seen.note_results(table, threads)

    await run_league_loop(table)  # the last round's end closes the league
    assert any("is over" in m.content for m in fake.channel_messages(fake.general))
    assert dropper is not None and dropper.name not in [n for game in seen.games[6:] for n in game[0]]
    assert len(set(seen.byes)) == 2, "no player has two byes"

    record = await table.slash(players[2], "league standings")
    (answer,) = fake.replies(record)
    assert answer.files, "the standings image"
    rows = [ROW.match(line.strip()) for line in answer.content.splitlines()]
    shown = {m[2]: m for m in rows if m}
    expected = independent_standings(seen)
    assert set(shown) == set(expected) == {p.name for p in players}
    for name, (points, buchholz, sonneborn, wins, games, byes) in expected.items():
        row = shown[name]
        assert float(row[4]) == pytest.approx(points, abs=0.051), name
        assert float(row[5]) == pytest.approx(buchholz, abs=0.051), name
        assert float(row[6]) == pytest.approx(sonneborn, abs=0.051), name
        assert (int(row[7]), int(row[8]), int(row[9] or 0)) == (wins, games, byes), name
        assert (row[3] == "*") == (name == dropper.name)
    order = [m[2] for m in rows if m]
    keys = [tuple(round(v, 6) for v in expected[name][:3]) + (expected[name][3],) for name in order]
    assert keys == sorted(keys, reverse=True), "ranked by points, Buchholz, Sonneborn-Berger, wins"
    assert not table.running.unexpected_errors
