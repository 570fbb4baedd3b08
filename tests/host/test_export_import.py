"""``python -m bot import FILE``: a finished game's export stored again, checked by replaying it first."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.host import Host, HostError
from tests.conftest import ALICE

CHANNEL = "chan-import"


async def _finished_export(host: Host) -> dict:
    await host.create_game("guild", CHANNEL, ALICE, "babylone", {"first": "1"})
    await host.add_ai(CHANNEL, ALICE, "easy")
    game_id = (await host.start(CHANNEL, ALICE, order="given"))[0].game_id
    while (await host.game_info(game_id)).status == "active":
        await host.act(game_id, ALICE, (await host.suggestions(game_id, ALICE.user_id))[0].action)
    return json.loads(json.dumps(await host.export(CHANNEL)))


async def test_an_imported_game_exports_the_same_and_replays(host: Host, tmp_path: Path) -> None:
    export = await _finished_export(host)
    other = await Host.open(tmp_path / "other.sqlite3")
    try:
        game_id = await other.import_game(export)
        again = await other.export_game(game_id)
        assert again["events"] == export["events"] and again["seats"] == export["seats"]
        assert {**again["game"], "id": 0} == {**export["game"], "id": 0}
        assert (await other._load(game_id)).state == await other.replay_state(game_id)
        assert "wins" in await other.log(CHANNEL)  # the channel shows it as its last game
    finally:
        await other.close()


async def test_a_running_or_altered_export_is_refused(host: Host) -> None:
    export = await _finished_export(host)
    with pytest.raises(HostError, match="game that is over"):
        await host.import_game({**export, "complete": False})
    events = [dict(event) for event in export["events"]]
    events[-1]["action"] = "13>1"
    with pytest.raises(HostError, match="does not replay"):
        await host.import_game({**export, "events": events})
    winners = export["game"]["result"]["winners"]
    other = {**export["game"], "result": {**export["game"]["result"], "winners": [1 - winners[0]]}}
    with pytest.raises(HostError, match="recorded result"):
        await host.import_game({**export, "game": other})
    assert (await host.store.fetchone("SELECT COUNT(*) FROM games"))[0] == 1  # nothing was stored


def test_the_import_command(tmp_path: Path, capsys) -> None:
    async def exported() -> dict:
        host = await Host.open(tmp_path / "source.sqlite3")
        try:
            return await _finished_export(host)
        finally:
            await host.close()

    path = tmp_path / "game.json"
    path.write_text(json.dumps(asyncio.run(exported())))
    assert main(["import", str(path), "--database", str(tmp_path / "imported.sqlite3")]) == 0
    assert "imported Babylone as game #1" in capsys.readouterr().out
