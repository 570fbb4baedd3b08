"""Issue 19, one live game card per game (the default ``posts=card``): the channel keeps one message with the
status, the board and the buttons of the moment, edited as the game goes; each move posts a short line; the
result comes as its own message with the final board."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_play import open_lobby, play_turn


async def test_the_live_card_is_edited_rather_than_reposted(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await open_lobby(table, alice, bob, options="first=1 posts=card")
    await table.press(alice, fake.channel_messages(fake.general)[0], "Start")
    cards = [m for m in fake.channel_messages(fake.general) if m.files]
    assert len(cards) == 1
    card = cards[0]
    assert "Babylone" in card.content and card.selects()  # the buttons of the moment are on the card
    first_select = card.selects()[0]["custom_id"]
    turns = 0
    while (player := table.turn_of([alice, bob])) is not None and turns < 200:
        await play_turn(table, player, turns)
        turns += 1
        if turns == 1:  # the card now shows bob's move: edited in place, with new buttons
            edited = fake.messages[card.id]
            assert edited.edits >= 1 and edited.selects()
            # alice's old select is gone with the edit
            assert edited.selects()[0]["custom_id"] != first_select
    assert turns > 2
    with_boards = [m for m in fake.channel_messages(fake.general) if m.files]
    assert [m.id for m in with_boards][:1] == [card.id]
    assert len(with_boards) == 2 and "Game over" in with_boards[1].content  # the card and the result only
    assert fake.messages[card.id].edits >= turns and not fake.messages[card.id].custom_ids()
    lines = [m for m in fake.channel_messages(fake.general) if not m.files and "Now:" in m.content]
    assert len(lines) >= turns - 1  # a short line per move, pinging whoever is next
    assert not table.running.unexpected_errors
