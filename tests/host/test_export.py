"""``/game export``: a game's JSON with its events; only what the public log shows until the game is over."""

from __future__ import annotations

import json

import pytest

from bot.host import Host, HostError
from rules.engine import ReplayRng, get_game
from tests.conftest import ALICE, BOB, MOD
from tests.security.selfplay import self_play

CHANNEL = "chan-export"


def _replayed(export: dict) -> dict:
    """The state rebuilt from an export alone: the proof that a complete export holds the whole game."""
    game = get_game(export["game"]["kind"])
    events = [event for event in export["events"] if not event["undone"]]
    state = game.setup(
        export["game"]["num_players"], export["game"]["options"], ReplayRng(events[0]["draws"])
    )
    for event in events[1:]:
        state = game.apply(state, event["seat"], event["action"], ReplayRng(event["draws"])).state
    return state


async def test_a_finished_game_exports_everything_and_replays(host: Host) -> None:
    await host.create_game("guild", CHANNEL, ALICE, "babylone", {"first": "1"})
    await host.add_ai(CHANNEL, ALICE, "easy")
    game_id = (await host.start(CHANNEL, ALICE, order="given"))[0].game_id
    running = await host.export(CHANNEL)
    assert running["complete"] is False and running["game"]["status"] == "active"
    # Babylone has neither chance nor hidden information: a running game already shows its seed and moves
    assert running["game"]["seed"] is not None and running["withheld"] == ""
    while (await host.game_info(game_id)).status == "active":
        choice = (await host.suggestions(game_id, ALICE.user_id))[0]
        await host.act(game_id, ALICE, choice.action)
    export = json.loads(json.dumps(await host.export(CHANNEL)))  # what the attached file holds
    row = await host.games.row(game_id)
    assert export["format"] == "princes-table-game" and export["complete"] is True
    assert export["game"]["id"] == game_id and export["game"]["seed"] == row["seed"]
    assert export["game"]["result"] == json.loads(row["result"])
    assert [seat["name"] for seat in export["seats"]] == ["alice", "AI easy"]
    stored = await host.store.events(game_id, -1)
    assert [(e["seq"], e["action"], e["actor"]) for e in export["events"]] == [
        (e.seq, e.action, e.user_id) for e in stored
    ]
    assert {e["actor"] for e in export["events"][1:]} == {ALICE.user_id, "ai:easy"}
    assert all(e["time"] >= export["game"]["created_at"] for e in export["events"])
    assert _replayed(export) == await host.replay_state(game_id)


async def test_a_running_hidden_game_exports_only_the_public_log(host: Host) -> None:
    played = await self_play(host, "the-prince", CHANNEL, seed=4, humans=2, players=2, max_turns=12)
    assert not played.game.outcome(played.final_state).finished
    export = await host.export(CHANNEL)
    text = json.dumps(export, ensure_ascii=False)
    assert export["complete"] is False and export["game"]["seed"] is None
    assert all(event["action"] is None and event["draws"] is None for event in export["events"])
    assert any(event["log"] for event in export["events"]), "the public log is part of the export"
    assert any(played.game.secrets(played.final_state, seat) for seat in range(2)), "nothing to keep secret"
    for seat in range(len(played.seat_names)):
        for secret in played.game.secrets(played.final_state, seat):
            assert not secret or secret not in text, f"seat {seat + 1}'s secret {secret!r} is in the export"
    assert "leaves out the seed" in export["withheld"]
    await host.abandon(CHANNEL, MOD)
    over = await host.export_game(played.game_id)
    assert over["complete"] is True and over["withheld"] == ""
    assert over["game"]["seed"] == (await host.games.row(played.game_id))["seed"]
    assert _replayed(over) == played.final_state


async def test_sealed_choices_show_their_commits_until_the_end(host: Host, sealed_game) -> None:
    await host.create_game("guild", CHANNEL, ALICE, sealed_game.key, {})
    await host.join(CHANNEL, BOB)
    game_id = (await host.start(CHANNEL, ALICE, order="given"))[0].game_id
    await host.act(game_id, ALICE, "pick 3")
    nonce = (await host.sealed_record(game_id))[0]["nonce"]
    export = await host.export(CHANNEL)
    assert nonce not in json.dumps(export)
    assert export["sealed"] == [
        {
            "decision_id": "round-1",
            "seat": 0,
            "commit": export["sealed"][0]["commit"],
            "action": None,
            "nonce": None,
        }
    ]
    while (await host.game_info(game_id)).status == "active":
        for actor in (ALICE, BOB):
            if not await host.has_sealed(game_id, actor.user_id):
                await host.act(game_id, actor, "pick 3" if actor is ALICE else "pick 1")
    over = await host.export(CHANNEL)
    assert over["complete"] is True
    assert over["sealed"][0]["nonce"] == nonce and over["sealed"][0]["action"] == "pick 3"


async def test_a_channel_without_a_game_has_nothing_to_export(host: Host) -> None:
    with pytest.raises(HostError, match="no game in this channel"):
        await host.export("empty-channel")


async def test_the_console_writes_the_export_to_a_file(tmp_path) -> None:
    from bot.console import run_console

    output: list[str] = []
    lines = ["/game new babylone first=1", "/game ai easy", "/game start given", "/game export"]
    await run_console(str(tmp_path / "c.sqlite3"), str(tmp_path / "out"), lines, output.append)
    path = next(line.removeprefix("[export] ") for line in output if line.startswith("[export] "))
    export = json.loads(open(path).read())
    assert export["game"]["kind"] == "babylone" and export["events"][0]["action"] == "setup"
