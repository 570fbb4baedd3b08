"""Issue 19, the catch-up digest through the real client: a turn's DM opens on what happened since the player's
last move with the two boards (then and now, with alt texts), and ``/catchup`` answers the asker alone."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_play import open_lobby, play_turn


async def test_a_turn_dm_opens_on_the_digest_and_catchup_answers(table: Table, fake: FakeDiscord) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    players = [alice, bob, carol]
    await open_lobby(table, alice, bob, carol, options="first=1")
    await table.press(alice, fake.channel_messages(fake.general)[0], "Start")
    await table.slash(alice, "settings", turn_dms="on")
    turn = 0
    while turn < 7 and (player := table.turn_of(players)) is not None:
        await play_turn(table, player, turn)
        turn += 1
    digests = [m for m in fake.dm_messages(alice) if "since your last move" in m.content]
    assert digests, [m.content[:60] for m in fake.dm_messages(alice)]
    latest = digests[-1]
    assert "bob" in latest.content and "carol" in latest.content
    assert [name for name, _png in latest.files] == ["catchup-1.png", "catchup-2.png"]
    assert all(png.startswith(b"\x89PNG") for _name, png in latest.files)
    # the digest comes before the turn's prompt in the DM
    after = fake.dm_messages(alice)[fake.dm_messages(alice).index(latest) + 1 :]
    # the turn's prompt: its buttons, taken off (an edit) once the turn was played
    assert after and (after[0].custom_ids() or after[0].edits)

    record = await table.slash(bob, "catchup")
    (answer,) = fake.replies(record)
    assert answer.ephemeral and answer.visible_to == bob.id
    assert "since your last move" in answer.content or "nothing new" in answer.content
    assert not table.running.unexpected_errors


async def test_closed_dms_the_hand_button_answers_the_digest_first(table: Table, fake: FakeDiscord) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    players = [alice, bob, carol]
    await open_lobby(table, alice, bob, carol, options="first=1")
    await table.press(alice, fake.channel_messages(fake.general)[0], "Start")
    await table.slash(carol, "settings", turn_dms="on")
    fake.close_dms(carol)
    host = table.running.host
    game_id = (await host.game_in_channel(str(fake.general))).game_id
    carol_seat = next(s.seat for s in (await host.game_info(game_id)).seats if s.user_id == str(carol.id))
    turn = 0
    while turn < 12 and (player := table.turn_of(players)) is not None:
        if player is carol and turn > 2 and await host.turn_digest(game_id, carol_seat) is not None:
            break  # carol's turn, with more to catch up on than the turn's own message shows
        # by /move: the channel's latest message may be carol's "Open my hand" fallback, not a turn's buttons
        choices = await fake.autocomplete(player, "move", "notation")
        await table.slash(player, "move", notation=choices[0]["value"])
        turn += 1
    assert table.turn_of(players) is carol
    fallbacks = [m for m in fake.channel_messages(fake.general) if "could not DM you" in m.content]
    assert fallbacks and f"<@{carol.id}>" in fallbacks[-1].content
    record = await table.press(carol, fallbacks[-1], "Open my hand")
    replies = fake.replies(record)
    assert len(replies) >= 2 and all(r.ephemeral and r.visible_to == carol.id for r in replies)
    assert "since your last move" in replies[0].content
    assert [name for name, _png in replies[0].files] == ["catchup-1.png", "catchup-2.png"]
    assert "view" in replies[1].content and replies[1].files  # then the hand, as before
    assert not table.running.unexpected_errors
