"""Issue 19, one live game card per game (the default ``posts=card``): the channel keeps one message with the
status, the board and the buttons of the moment, edited as the game goes; each move posts a short line; the
result comes as its own message with the final board. Issue 47: the card stays within a message of the latest
ping (posted again under the newest line once it has sunk, the old one deleted)."""

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
    assert len(with_boards) == 2 and "Game over" in with_boards[1].content  # the card and the result only
    final = with_boards[0]  # the card, posted again under the lines when it had sunk (issue 47), edited else
    assert "game is over" in final.content and final.edits >= 1 and not final.custom_ids()
    lines = [m for m in fake.channel_messages(fake.general) if not m.files and "Now:" in m.content]
    assert len(lines) >= turns - 1  # a short line per move, pinging whoever is next
    assert not table.running.unexpected_errors


def between_ping_and_buttons(fake: FakeDiscord, channel_id: int) -> int:
    """How many of the channel's messages stand between the latest ping and the one message with buttons."""
    messages = fake.channel_messages(channel_id)
    with_buttons = [i for i, m in enumerate(messages) if m.custom_ids()]
    assert len(with_buttons) == 1, [messages[i].content[:40] for i in with_buttons]  # the old card is gone
    pings = [i for i, m in enumerate(messages) if "<@" in m.content and not m.files]
    return abs(with_buttons[0] - pings[-1]) - 1


async def test_a_pinged_player_finds_the_card_within_a_line_of_the_ping(
    table: Table, fake: FakeDiscord
) -> None:
    """Issue 47: however many moves were played, the card (board and buttons of the moment) stands next to the
    latest ping, or one message away from it: once it has sunk further, it is posted again under the newest line
    and the old one is deleted, so reaching the buttons takes one tap, not a scroll through the game."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await open_lobby(table, alice, bob, options="first=1 posts=card match=best-of-3")
    await table.press(alice, fake.channel_messages(fake.general)[0], "Start")
    assert between_ping_and_buttons(fake, fake.general) in (0, 1)
    turns = 0
    while (player := table.turn_of([alice, bob])) is not None and turns < 20:
        await play_turn(table, player, turns)
        turns += 1
        if table.turn_of([alice, bob]) is not None:
            assert between_ping_and_buttons(fake, fake.general) in (0, 1), turns
    assert turns >= 12
    # a move costs no more than a card re-posted every other move: a post and a delete instead of an edit
    deletes = [r for r in fake.requests if r.method == "DELETE" and "/messages/" in r.path]
    assert 0 < len(deletes) <= turns // 2 + 1 and all(r.status == 204 for r in deletes)
    assert not table.running.unexpected_errors
