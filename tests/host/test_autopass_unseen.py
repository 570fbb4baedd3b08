"""Issue 42, part 2: while a game runs, an automatic pass (given when "pass" was the seat's only answer) looks
exactly like a pass the player chose, in the export, the log, the replay and the catch-up: the other players must
not learn, window by window, that the seat held no playable card. Once the game is over the distinction shows."""

from __future__ import annotations

import pytest

from bot.host import Host
from bot.replay import load_log, steps
from rules.engine.registry import register, unregister
from tests.conftest import ALICE, BOB
from tests.support.games import CardWindows

CHANNEL = "windows"


@pytest.fixture
def windows_game():
    game = CardWindows()
    register(game)
    yield game
    unregister(game.key)


async def _two_windows(host: Host, clock) -> int:
    """Round 1: bob holds no card, his window passes by itself; round 2: he holds one and passes by choice."""
    host.autopass_rng.seed(1)
    info = await host.create_game("g", CHANNEL, ALICE, CardWindows.key, {})
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    await host.act(info.game_id, ALICE, "play")
    clock.advance(120)
    await host.fire_due_timers()
    assert (await host.game_info(info.game_id)).pending_users == [ALICE.user_id], "bob was not passed"
    await host.act(info.game_id, ALICE, "play")
    clock.advance(45)
    await host.act(info.game_id, BOB, "pass")
    return info.game_id


async def test_a_running_games_export_shows_an_automatic_pass_as_a_chosen_pass(
    host: Host, clock, windows_game
) -> None:
    game_id = await _two_windows(host, clock)
    stored = [e.user_id for e in await host.store.events(game_id, 0) if e.seat == 1]
    assert stored == ["autopass", BOB.user_id]  # the host's own record keeps the truth
    export = await host.export(CHANNEL)
    assert export["complete"] is False
    automatic, chosen = [event for event in export["events"] if event["seat"] == 1]
    differing = {key for key in automatic if automatic[key] != chosen[key]}
    assert differing <= {"seq", "time"}, {key: (automatic[key], chosen[key]) for key in differing}
    assert automatic["actor"] == chosen["actor"] == BOB.user_id


async def test_a_running_games_log_and_catch_up_show_an_automatic_pass_as_a_chosen_pass(
    host: Host, clock, windows_game, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the test game has no board image: the digest names its players by name alone
    monkeypatch.setattr("bot.digest.player_label", lambda _key, view, seat: view["seat_names"][seat])
    monkeypatch.setattr("bot.digest.view_changes", lambda _key, _before, _after: [])
    await _two_windows(host, clock)
    lines = (await host.log(CHANNEL)).splitlines()
    assert lines == ["1. alice plays.", "2. bob passes.", "3. alice plays.", "4. bob passes."]
    digest = (await host.catchup(CHANNEL, ALICE)).text
    assert "bob passes." in digest and "played by" not in digest and "automatic" not in digest


async def test_once_the_game_is_over_the_automatic_passes_show(host: Host, clock, windows_game) -> None:
    game_id = await _two_windows(host, clock)
    for round_number in range(3, 7):
        await host.act(game_id, ALICE, "play")
        if round_number % 2 == 0:
            await host.act(game_id, BOB, "pass")
        else:
            clock.advance(120)
            await host.fire_due_timers()
    assert (await host.game_info(game_id)).status == "finished"
    export = await host.export(CHANNEL)
    actors = [event["actor"] for event in export["events"] if event["seat"] == 1]
    assert actors == ["autopass", BOB.user_id] * 3
    lines = (await host.log(CHANNEL)).splitlines()
    assert "2. bob passes. (automatic pass)" in lines and "4. bob passes." in lines
    said = [step.line for step in steps(await load_log(host.store, game_id)) if step.seat == 1]
    assert said[:2] == ["bob passes. (automatic pass)", "bob passes."]
