"""Issue 19: a game in its own thread (``/game new ... thread:True``), and Discord's limit of active threads
answered with a sentence."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_live_card import between_ping_and_buttons
from tests.e2e.test_play import play_turn


async def test_a_game_plays_in_its_own_thread(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    record = await table.slash(alice, "game new", game="babylone", options="first=1", thread=True)
    threads = [c for c in fake.channels.values() if c["type"] == 11]
    assert len(threads) == 1 and threads[0]["parent_id"] == str(fake.general)
    thread = int(threads[0]["id"])
    assert f"<#{thread}>" in table.reply_text(record)
    (lobby,) = fake.channel_messages(thread)
    assert "Babylone" in lobby.content and {b["label"] for b in lobby.buttons()} >= {"Join", "Start"}
    await table.press(bob, lobby, "Join")
    await table.press(alice, fake.messages[lobby.id], "Start")
    turns = 0
    while (player := table.turn_of([alice, bob], thread)) is not None and turns < 300:
        await play_turn(table, player, turns, thread)
        turns += 1
        if table.turn_of([alice, bob], thread) is not None:  # the live card stays by the ping (issue 47)
            assert between_ping_and_buttons(fake, thread) in (0, 1), turns
    assert any("Game over" in m.content for m in fake.channel_messages(thread))
    # the parent channel holds only the pointer to the thread; the game lives in the thread
    assert [m for m in fake.channel_messages(fake.general) if "Game over" in m.content or m.files] == []
    # the channel itself is free for another game
    again = await table.slash(bob, "game new", game="babylone")
    assert "Babylone" in table.reply_text(again)
    assert not table.running.unexpected_errors


async def test_the_thread_limit_and_a_refused_lobby_answer_with_sentences(
    table: Table, fake: FakeDiscord
) -> None:
    alice = fake.add_user("alice")
    fake.thread_limit = 0
    record = await table.slash(alice, "game new", game="babylone", thread=True)
    assert "limit of 1,000 active threads" in table.reply_text(record)
    fake.thread_limit = 1000
    record = await table.slash(alice, "game new", game="babylone", options="colour=red", thread=True)
    assert "colour" in table.reply_text(record).lower()
    assert [c for c in fake.channels.values() if c["type"] == 11] == []  # the refused lobby's thread is gone
    assert not table.running.unexpected_errors
