"""Issue 45 end to end: a PRINCIPES league of 8 players in pods of 4 over 2 rounds, the AI standing in for two of
the humans.

Eight players sign up with ``/league join``; two of them go away (``/away until``) before the start, so the AI
plays their seats in every league game (the host's stand-in for an absent player, issue 42). ``/league start``
opens round 1: two games of four, each in its own thread, started at once. The six players present follow a
scripted model through the host (the bot's own service, as the Discord cogs call it; a whole PRINCIPES game
typed through the client would take minutes): each answers its open decision with its prompt's ``pass``,
``done``, ``keep`` or ``deny`` when offered, the plan ``taxes assembly building``, else the first choice. Round
2 is paired by score once both games ended; then ``/league standings`` shows all eight with two games each and
one point per game.
"""

from __future__ import annotations

import pytest

from bot.models import Actor, HostError
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_league_swiss import MANAGE_GUILD, ROW, new_threads, run_league_loop

EASY_ANSWERS = ("pass", "done", "keep", "deny")
PLAN = "plan taxes assembly building"


async def play_scripted(table: Table, game_ids: list[int], names: dict[str, str]) -> None:
    """The module docstring's model for every person seated, until the games are over (AI seats play
    themselves: the host runs them after each move)."""
    host = table.running.host
    for _ in range(20_000):
        moved = False
        for game_id in game_ids:
            info = await host.game_info(game_id)
            if info.status != "active":
                continue
            for user in info.pending_users:
                seat = info.seat_of(user)
                prompt = await host.prompt_of(game_id, user)
                if seat is None or seat.is_ai or prompt is None or await host.has_sealed(game_id, user):
                    continue
                actions = [choice.action for choice in prompt.choices]
                move = next((action for action in actions if action in EASY_ANSWERS), None)
                move = PLAN if prompt.kind == "plan" else move or actions[0]
                try:
                    await host.act(game_id, Actor(user, names[user]), move, prompt.decision_id)
                except HostError:
                    continue  # the decision moved on meanwhile (an AI seat answered first)
                moved = True
        if not moved:
            break
    for game_id in game_ids:
        assert (await host.game_info(game_id)).status == "finished", game_id


@pytest.mark.whole_game
async def test_a_principes_league_in_pods_of_four_with_ai_stand_ins(table: Table, fake: FakeDiscord) -> None:
    players = [fake.add_user(f"q{n}") for n in range(1, 9)]
    names = {str(p.id): p.name for p in players}
    manager = players[0]
    manager.permissions |= MANAGE_GUILD
    record = await table.slash(
        manager, "league new", game="principes", format="swiss", rounds=2, pod=4, deadline="2d"
    )
    assert "Players at a table: 4" in table.reply_text(record)
    for player in players:
        await table.slash(player, "league join")
    away = players[6:]
    for player in away:
        record = await table.slash(player, "away until", date="2030-03-20 12:00")
        assert "You are away until" in table.reply_text(record)
    await table.slash(manager, "league start")

    known: set[int] = set()
    pods: list[set[str]] = []
    seats_taken: dict[str, list[int]] = {}
    for round_number in (1, 2):
        if round_number > 1:
            await run_league_loop(table)
        threads = new_threads(fake, known)
        assert len(threads) == 2, f"round {round_number}: two games of four at once"
        game_ids = []
        for thread in threads:
            info = await table.running.host.game_in_channel(str(thread))
            assert info is not None and info.status == "active" and len(info.seats) == 4
            for seat in info.seats:  # the AI stands in for the away players, and for them only
                assert seat.is_ai == (seat.user_id in {str(p.id) for p in away}), seat
            pods.append({seat.user_id or "" for seat in info.seats})
            for seat in info.seats:
                seats_taken.setdefault(seat.user_id or "", []).append(seat.seat)
            game_ids.append(info.game_id)
        await play_scripted(table, game_ids, names)
    await run_league_loop(table)
    assert any("is over" in m.content for m in fake.channel_messages(fake.general))
    assert pods[2] != pods[0] and pods[2] != pods[1], "round 2 does not repeat a round 1 pod"
    assert all(len(set(taken)) == 2 for taken in seats_taken.values()), "seats (principalities) rotate"

    (answer,) = fake.replies(await table.slash(players[1], "league standings"))
    rows = [m for m in (ROW.match(line.strip()) for line in answer.content.splitlines()) if m]
    assert {row[2] for row in rows} == {p.name for p in players}
    assert all(int(row[8]) == 2 and not row[9] for row in rows), "two games each, no byes"
    assert sum(float(row[4]) for row in rows) == pytest.approx(4.0), "one point per game"
    assert not table.running.unexpected_errors
