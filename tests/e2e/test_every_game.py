"""Every available game (``rules.engine.registry``) is played through the real discord.py client and the fake
Discord: a lobby opened with ``/game new``, joined and started with its buttons, moves typed with ``/move`` from
its autocomplete while it offers any, each board posted, and the game ended (by its rules or a resignation)."""

from __future__ import annotations

import pytest

from rules.engine import available_games, get_game
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord

#: moves played before the player to move resigns, if the game has not ended by then
MOVES = 6


@pytest.mark.parametrize("key", available_games())
async def test_every_game_is_played_through_discord(table: Table, fake: FakeDiscord, key: str) -> None:
    game = get_game(key)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    record = await table.slash(alice, "game new", game=key, options="posts=every-move")
    [lobby] = fake.replies(record)
    assert game.title in lobby.content
    await table.press(bob, lobby, "Join")
    await table.press(alice, lobby, "Start")
    moves = 0
    while (player := table.turn_of([alice, bob])) is not None and moves < MOVES:
        choices = await fake.autocomplete(player, "move", "notation")
        assert len(choices) <= 25
        if (
            not choices
        ):  # a decision typed in full (The Prince's landing) or taken in a DM form: enough played
            break
        done = await table.slash(player, "move", notation=choices[0]["value"])
        assert "Done" in table.reply_text(done)
        moves += 1
    if player is not None:
        await table.slash(player, "game resign")
    posted = fake.channel_messages(fake.general)
    assert any("Game over" in message.content for message in posted)
    boards = [message for message in posted if message.files and message.files[0][0] == "board.png"]
    assert boards and all(message.files[0][1].startswith(b"\x89PNG") for message in boards)
