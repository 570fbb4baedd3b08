"""What players read through Discord right after a game ends, and after sealing a choice while others decide."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_flows import started
from tests.e2e.test_play import play_turn


async def test_after_the_end_move_status_and_board_say_the_game_is_over(
    table: Table, fake: FakeDiscord
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await started(table, alice, bob)
    turns = 0
    while (player := table.turn_of([alice, bob])) is not None:
        await play_turn(table, player, turns)
        turns += 1
    over = f"Babylone #{game_id} is over: "
    for command, options in (("move", {"notation": "1>2"}), ("game status", {}), ("board", {}), ("hand", {})):
        answer = table.reply_text(await table.slash(alice, command, **options))
        assert over in answer and " wins." in answer, (command, answer)
        assert "There is no game" not in answer
    # in a DM (no channel) the player's last game answers
    dm = fake.dm_channels.setdefault(bob.id, 4_000_000_000)  # a channel of no guild
    answer = table.reply_text(await table.slash(bob, "move", dm, notation="1>2"))
    assert over in answer


async def test_a_sealed_hand_shows_the_wait_and_nothing_to_pick(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    lobby = fake.replies(await table.slash(alice, "game new", game="the-prince"))[0]
    await table.press(bob, lobby, "Join")
    await table.slash(alice, "game start", order="given")
    before = fake.replies(await table.slash(alice, "hand"))[-1]
    assert before.custom_ids()  # the landing form
    landing = (await fake.autocomplete(alice, "move", "notation"))[0]["value"]
    await table.slash(alice, "move", notation=landing)
    assert await fake.autocomplete(alice, "move", "notation") == []
    hand = fake.replies(await table.slash(alice, "hand"))
    assert not any(message.custom_ids() for message in hand)
    text = "\n".join(message.text() for message in hand)
    assert "You have sealed your choice (landing); waiting for bob." in text
    status = table.reply_text(await table.slash(bob, "game status"))
    assert "alice: sealed (landing), waiting for bob." in status and "Now: bob seals (landing)" in status
