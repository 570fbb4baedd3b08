"""Two users play Babylone end to end through the real discord.py client and the fake Discord."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.config import Config
from bot.discord.app import run_bot
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeUser

REQUIRED = {
    "game": {
        "new",
        "join",
        "leave",
        "start",
        "status",
        "ai",
        "abandon",
        "resign",
        "sub",
        "pause",
        "resume",
        "draw",
        "back",
    },
    "move": set(),
    "undo": set(),
    "board": set(),
    "hand": set(),
    "log": set(),
    "rules": set(),
    "mygames": set(),
    "settings": set(),
    "help": set(),
}


async def test_login_syncs_every_command_with_help(table: Table, fake: FakeDiscord) -> None:
    assert fake.command_syncs == 1 and fake.identifies == 1
    assert set(REQUIRED) <= set(fake.commands)
    for name, subcommands in REQUIRED.items():
        command = fake.commands[name]
        assert command["description"]
        options = command.get("options", [])
        assert {o["name"] for o in options if o["type"] == 1} >= subcommands
        for option in options:
            assert option["description"], (name, option["name"])
            for inner in option.get("options", []):
                assert inner["description"], (name, option["name"], inner["name"])


async def open_lobby(
    table: Table,
    creator: FakeUser,
    *others: FakeUser,
    options: str = "",
    channel_id: int | None = None,
    **extra: object,
) -> int:
    """``/game new babylone`` then everyone else presses Join on the lobby message; returns the game id. The
    board is posted after every move (``posts=every-move``) unless ``options`` chooses the live card: these
    tests read each move's message (tests/e2e/test_live_card.py plays the default, the live card)."""
    if "posts=" not in options:
        options = f"{options} posts=every-move".strip()
    record = await table.slash(creator, "game new", channel_id, game="babylone", options=options, **extra)
    [lobby] = table.fake.replies(record)
    assert "Babylone" in lobby.content and {b["label"] for b in lobby.buttons()} == {"Join", "Leave", "Start"}
    for user in others:
        await table.press(user, lobby, "Join")
        assert user.name in table.fake.messages[lobby.id].content
    game_id = int(lobby.custom_ids()[0].split(":")[2])
    return game_id


async def play_turn(table: Table, player: FakeUser, turn: int, channel_id: int | None = None) -> None:
    """A move: by autocomplete and /move, or (every third turn) through the turn message's select."""
    message = table.last_public(channel_id)
    if message.buttons() and not message.selects():
        await table.click(player, message, message.buttons()[0]["custom_id"])
        return
    if turn % 3 == 2 and message.selects():
        select = message.selects()[0]
        await table.click(player, message, select["custom_id"], [select["options"][0]["value"]])
        return
    choices = await table.fake.autocomplete(player, "move", "notation", channel_id)
    assert 0 < len(choices) <= 25
    record = await table.slash(player, "move", channel_id, notation=choices[0]["value"])
    assert "Done" in table.reply_text(record)


async def test_two_users_play_a_best_of_three_match(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await open_lobby(table, alice, bob, options="match=best-of-3")
    lobby = fake.channel_messages(fake.general)[0]
    await table.press(alice, lobby, "Start")
    assert "active" in fake.messages[lobby.id].content and not fake.messages[lobby.id].buttons()
    turns = 0
    while (player := table.turn_of([alice, bob])) is not None:
        await play_turn(table, player, turns)
        turns += 1
        assert turns < 200
    final = table.last_public()
    assert "Game over" in final.content
    assert turns >= 12
    boards = [m for m in fake.channel_messages(fake.general) if m.files]
    *earlier, (board, replay) = [m.files for m in boards]  # the last board comes with the animated replay
    assert all(
        name == "board.png" and data.startswith(b"\x89PNG") for files in earlier for name, data in files
    )
    assert board[0] == "board.png" and replay[0].startswith("replay-") and replay[1].startswith(b"GIF89a")
    assert len(boards) >= turns


async def test_run_bot_connects_with_a_config_and_never_logs_the_token(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    config = Config(
        discord_token=fake.token, database_path=str(tmp_path / "run.sqlite3"), dev_guild_id=fake.guild_id
    )
    running = asyncio.create_task(run_bot(config))
    await fake.wait_for(lambda: fake.identifies and "move" in fake.commands)
    alice = fake.add_user("alice")
    record = await fake.slash(alice, "help")
    await fake.wait_for(lambda: fake.replies(record))
    assert "/game new" in fake.replies(record)[0].text()
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert (tmp_path / "run.sqlite3").exists()
    assert fake.token not in caplog.text and "synced" in caplog.text


async def test_run_bot_without_a_token_says_so(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="DISCORD_TOKEN"):
        await run_bot(
            Config(discord_token=None, database_path=str(tmp_path / "x.sqlite3"), dev_guild_id=None)
        )
