"""``python -m bot import FILE``: a finished game's export stored again, only once the game verifier passes it.

Issue 25 §3: the command trusted its file. Each malformed or forged file below is refused with one line naming
the first problem, no traceback, and nothing stored; a channel never ends with two live games.
"""

from __future__ import annotations

import asyncio
import copy
import json
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import MAX_EXPORT_BYTES, main
from bot.host import Host, HostError
from rules.engine import available_games, get_game
from tests.conftest import ALICE, BOB
from tests.support.played import self_played

CHANNEL = "chan-import"


async def _finished_export(host: Host, key: str = "babylone", channel: str = CHANNEL) -> dict:
    await host.create_game("guild", channel, ALICE, key, {"first": "1"} if key == "babylone" else {})
    await host.add_ai(channel, ALICE, "easy" if key == "babylone" else None)
    game_id = (await host.start(channel, ALICE, order="given"))[0].game_id
    while (await host.game_info(game_id)).status == "active":
        await host.act(game_id, ALICE, (await host.suggestions(game_id, ALICE.user_id))[0].action)
    return json.loads(json.dumps(await host.export(channel)))


async def _ai_export(host: Host, key: str, channel: str, level: str) -> dict:
    """A game between two AI seats, played to its end through the host."""
    info = await host.create_game("guild", channel, ALICE, key, seat_creator=False)
    for _ in range(2):
        await host.add_ai(channel, ALICE, level)
    await host.start(channel, ALICE)
    assert (await host.game_info(info.game_id)).status == "finished"
    return json.loads(json.dumps(await host.export_game(info.game_id)))


async def _games(host: Host) -> int:
    return (await host.store.fetchone("SELECT COUNT(*) FROM games"))[0]


async def test_an_imported_game_exports_the_same_replays_and_verifies(host: Host, tmp_path: Path) -> None:
    export = await _ai_export(host, "the-prince", CHANNEL, "random")
    assert export["sealed"], "a game with sealed choices: their commits name the game's first number"
    await _imports_the_same(export, tmp_path)


@pytest.mark.parametrize("key", available_games())
async def test_every_game_exported_imports_and_exports_the_same(host: Host, tmp_path: Path, key: str) -> None:
    await _imports_the_same(await self_played(host, key, channel=CHANNEL), tmp_path)


async def _imports_the_same(export: dict, tmp_path: Path) -> None:
    """Imported into another database, ``export`` gets a number of its own, exports the same, replays to the
    stored state and verifies."""
    other = await Host.open(tmp_path / "other.sqlite3")
    try:
        await other.create_game(
            "guild", "elsewhere", BOB, "babylone"
        )  # the imported game gets another number
        game_id = await other.import_game(export)
        assert game_id != export["game"]["id"]
        again = await other.export_game(game_id)
        assert again["events"] == export["events"] and again["seats"] == export["seats"]
        assert again["sealed"] == export["sealed"]
        assert {**again["game"], "id": 0} == {**export["game"], "id": 0}
        assert again["game"]["origin_id"] == export["game"]["id"]
        assert (await other.games.load(game_id)).state == await other.replay_state(game_id)
        if get_game(export["game"]["kind"]).has_chance:  # the log of a game with chance shows its seed
            assert f"Seed {export['game']['seed']}" in await other.log(CHANNEL)  # the channel's last game
        assert (await other.verify(CHANNEL)).verified
    finally:
        await other.close()


async def test_a_running_or_altered_export_is_refused(host: Host) -> None:
    export = await _finished_export(host)
    with pytest.raises(HostError, match="while the game was running"):
        await host.import_game({**export, "complete": False})
    events = [dict(event) for event in export["events"]]
    events[-1]["action"] = "13>1"
    with pytest.raises(HostError, match=f"event {events[-1]['seq']}: the rules refuse"):
        await host.import_game({**export, "events": events})
    winners = export["game"]["result"]["winners"]
    other = {**export["game"], "result": {**export["game"]["result"], "winners": [1 - winners[0]]}}
    with pytest.raises(HostError, match="result: the replay ends won by seat"):
        await host.import_game({**export, "game": other})
    assert await _games(host) == 1  # nothing was stored


def _exported(tmp_path: Path, key: str = "babylone") -> dict:
    async def exported() -> dict:
        host = await Host.open(tmp_path / f"source-{key}.sqlite3")
        try:
            if key == "babylone":
                return await _finished_export(host)
            return await _ai_export(host, key, CHANNEL, "random" if key == "the-prince" else "greedy")
        finally:
            await host.close()

    return asyncio.run(exported())


def test_the_import_command(tmp_path: Path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_exported(tmp_path)))
    assert main(["import", str(path), "--database", str(tmp_path / "imported.sqlite3")]) == 0
    assert "imported Babylone as game #1" in capsys.readouterr().out


def _set(data: dict, path: tuple[Any, ...], value: Any) -> dict:
    forged = copy.deepcopy(data)
    target = forged
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return forged


def _forged_luck(data: dict) -> dict:
    """One chance result changed to another value in its range (the last event that drew one): in range, so a
    replay alone would accept it."""
    forged = copy.deepcopy(data)
    event, index = next(
        (e, i)
        for e in reversed(forged["events"])
        for i, (low, high) in enumerate(e["ranges"] or [])
        if low < high
    )
    low, high = event["ranges"][index]
    event["draws"][index] = low if event["draws"][index] != low else high
    return forged


def _forged_result(data: dict) -> dict:
    """The other player wins (or, after a game with no winner, the first one does)."""
    winners = data["game"]["result"]["winners"]
    forged = _set(data, ("game", "result", "winners"), [1 - winners[0]] if winners else [0])
    return _set(forged, ("game", "result", "draw"), False)


def _import_refusal(tmp_path: Path, capsys, content: str | bytes) -> str:
    """Import ``content``; the command must refuse it with one line on stderr and store nothing."""
    path = tmp_path / "forged.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    database = tmp_path / "target.sqlite3"
    assert main(["import", str(path), "--database", str(database)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    assert "Traceback" not in captured.err + captured.out and captured.out == ""
    if database.exists():

        async def count() -> int:
            host = await Host.open(database)
            try:
                return await _games(host)
            finally:
                await host.close()

        assert asyncio.run(count()) == 0, "a refused file stored something"
    return lines[0]


@pytest.fixture(scope="module")
def pharaoh_export(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _exported(tmp_path_factory.mktemp("pharaoh"), "pharaoh")


@pytest.fixture(scope="module")
def prince_export(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return _exported(tmp_path_factory.mktemp("prince"), "the-prince")


@pytest.mark.parametrize(
    ("name", "forge", "says"),
    [
        ("a top-level list", lambda d: [d], "holds a list, not a Princes' Table game export"),
        ("no game", lambda d: {k: v for k, v in d.items() if k != "game"}, "The file has no 'game'"),
        (
            "no seed key",
            lambda d: _set(d, ("game",), {k: v for k, v in d["game"].items() if k != "seed"}),
            "no 'seed'",
        ),
        ("a text for a number", lambda d: _set(d, ("game", "num_players"), "2"), "'num_players' is a text"),
        ("a number for a list", lambda d: _set(d, ("events",), 3), "'events' is a whole number, not a list"),
        (
            "truth for a seat",
            lambda d: _set(d, ("events", 2, "seat"), True),
            "Event 2's 'seat' is true or false",
        ),
        ("an active game", lambda d: _set(d, ("game", "status"), "active"), "status is 'active'"),
        ("a paused game", lambda d: _set(d, ("game", "status"), "paused"), "only a game that is over"),
        ("a running export", lambda d: _set(d, ("complete",), False), "while the game was running"),
        ("a seat out of range", lambda d: _set(d, ("events", 2, "seat"), 7), "Event 2's seat is 7"),
        ("forged commit 00", lambda d: _set(d, ("sealed", 0, "commit"), "00"), "not its commit 00"),
        ("forged luck", _forged_luck, "but the seed gives"),
        ("a result the replay does not reach", _forged_result, "result: the replay ends"),
        ("a foreign seed", lambda d: _set(d, ("game", "seed"), "0" * 64), "but the seed gives"),
        ("a bad seed", lambda d: _set(d, ("game", "seed"), "not a seed"), "is not a seed"),
    ],
)
def test_a_malformed_or_forged_file_is_refused_in_one_line(
    tmp_path: Path, capsys, prince_export: dict, name: str, forge, says: str
) -> None:
    line = _import_refusal(tmp_path, capsys, json.dumps(forge(prince_export)))
    assert says in line, f"{name}: {line}"


def test_forged_dice_in_pharaoh_are_refused(tmp_path: Path, capsys, pharaoh_export: dict) -> None:
    line = _import_refusal(tmp_path, capsys, json.dumps(_forged_luck(pharaoh_export)))
    assert "is not imported: event " in line and "but the seed gives" in line


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "is not JSON"),
        ("[" * 100_000 + "]" * 100_000, "too deeply"),
        (b"\xff\xfe\x00", "is not UTF-8"),
        ('{"format": "princes-table-game", "version": 2, "complete": NaN}', "NaN is not a number"),
        ('{"format": "something else"}', "is not a Princes' Table game export"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused_in_one_line(
    tmp_path: Path, capsys, content: str | bytes, says: str
) -> None:
    assert says in _import_refusal(tmp_path, capsys, content)


def test_a_file_over_the_cap_is_refused_without_being_read(tmp_path: Path, capsys) -> None:
    line = _import_refusal(tmp_path, capsys, " " * (MAX_EXPORT_BYTES + 1))
    assert "larger than 16 MiB" in line


def test_a_missing_file_is_a_sentence(tmp_path: Path, capsys) -> None:
    assert main(["import", str(tmp_path / "nowhere.json"), "--database", str(tmp_path / "t.sqlite3")]) == 2
    assert capsys.readouterr().err.startswith("error: cannot read")


async def test_mentions_in_an_imported_file_never_ping(host: Host, prince_export: dict) -> None:
    """A seat named ``@everyone <@&4242>`` (a name is just text): stored with its mentions defused."""
    forged = copy.deepcopy(prince_export)
    forged["seats"][0]["name"] = "@everyone <@&4242> <@100> @here"
    forged["events"][1]["log"] = [["note", "@everyone look"]]
    forged["game"]["result"]["reason"] = "<@100> @everyone"
    game_id = await host.import_game(forged)
    seats = await host.store.fetchall("SELECT name FROM seats WHERE game_id = ?", (game_id,))
    texts = [seats[0]["name"], await host.log(prince_export["game"]["channel_id"], 200)]
    texts.append((await host.game_info(game_id)).result["reason"])
    for text in texts:
        for mention in ("@everyone", "@here", "<@&4242>", "<@100>"):
            assert mention not in text, f"{mention!r} would ping in {text!r}"
    assert "everyone" in seats[0]["name"], "the name is kept, only defused"


async def test_a_channel_never_ends_with_two_live_games(host: Host, prince_export: dict) -> None:
    channel = prince_export["game"]["channel_id"]
    await host.create_game("guild", channel, ALICE, "babylone")  # the channel's live game (a lobby)
    for status in ("active", "paused", "lobby"):
        with pytest.raises(HostError, match="only a game that is over"):
            await host.import_game(_set(prince_export, ("game", "status"), status))
    await host.import_game(prince_export)  # a finished game may join the channel's past games
    live = await host.store.fetchall(
        "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active', 'paused')", (channel,)
    )
    assert len(live) == 1 and (await host.game_in_channel(channel)).key == "babylone"
