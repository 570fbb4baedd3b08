"""DMs and their fallback, restarts, stale and doubled clicks, refusals, table talk, lost channels, errors."""

from __future__ import annotations

import asyncio

import pytest

from bot.models import Delivery
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.test_play import open_lobby, play_turn


async def started(
    table: Table, *players: FakeUser, options: str = "first=1", channel_id: int | None = None, **extra: object
) -> int:
    """A started 2-player Babylone game (seat order as joined, the first player moves first)."""
    game_id = await open_lobby(
        table, players[0], *players[1:], options=options, channel_id=channel_id, **extra
    )
    await table.slash(players[0], "game start", channel_id, order="given")
    return game_id


def event_count(table: Table, channel_id: int | None = None) -> int:
    """Moves shown in the channel so far (each completed move posts one board)."""
    return sum(
        1 for m in table.fake.channel_messages(channel_id or table.fake.general) if "moves stack" in m.content
    )


def latest_with_components(messages: list[FakeMessage]) -> FakeMessage:
    return [m for m in messages if m.custom_ids()][-1]


async def test_turn_dms_carry_the_view_and_the_same_buttons(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    record = await table.slash(bob, "settings", turn_dms="on")
    assert "`turn_dms` = `on`" in table.reply_text(record)
    await started(table, alice, bob)
    await play_turn(table, alice, 0)
    prompt = latest_with_components(fake.dm_messages(bob))
    assert prompt.files and prompt.files[0][0] == "hand.png" and prompt.selects()
    select = prompt.selects()[0]
    before = event_count(table)
    await table.click(bob, prompt, select["custom_id"], [select["options"][0]["value"]])
    assert event_count(table) == before + 1
    assert not fake.messages[prompt.id].custom_ids()  # the answered DM prompt lost its components
    assert table.turn_of([alice, bob]) is alice


async def test_a_substitute_gets_the_prompt_by_dm_and_answers_there(table: Table, fake: FakeDiscord) -> None:
    alice, bob, dave = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("dave")
    await started(table, alice, bob)
    await play_turn(table, alice, 0)
    await table.slash(bob, "game sub", member=dave)
    prompt = latest_with_components(fake.dm_messages(dave))
    assert prompt.files and prompt.files[0][0] == "hand.png" and prompt.selects()
    select = prompt.selects()[0]
    before = event_count(table)
    await table.click(dave, prompt, select["custom_id"], [select["options"][0]["value"]])
    assert event_count(table) == before + 1 and table.turn_of([alice, dave]) is alice
    assert not fake.messages[prompt.id].custom_ids()  # the answered DM prompt lost its components


async def test_closed_dms_are_reported_and_fall_back_to_a_hand_button(
    table: Table, fake: FakeDiscord
) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    fake.close_dms(carol)
    elsewhere = await fake.create_channel("elsewhere")
    lobby = await table.slash(carol, "game new", elsewhere, game="babylone")
    assert "cannot send you direct messages" in table.reply_text(lobby)
    await started(table, alice, bob)
    await play_turn(table, alice, 0)
    await table.slash(bob, "game sub", member=carol)
    fallback = [m for m in fake.channel_messages(fake.general) if "could not DM you" in m.content]
    assert len(fallback) == 1 and f"<@{carol.id}>" in fallback[0].content
    assert not fallback[0].files  # nothing private in the channel
    opened = await table.press(carol, fallback[0], "Open my hand")
    [hand] = fake.replies(opened)
    assert hand.ephemeral and hand.visible_to == carol.id and hand.files[0][0] == "hand.png"
    select = hand.selects()[0]  # her choices come with it, and work from the ephemeral message
    before = event_count(table)
    await table.click(carol, hand, select["custom_id"], [select["options"][0]["value"]])
    assert event_count(table) == before + 1
    stranger = await table.press(fake.add_user("eve"), fallback[0], "Open my hand")
    assert "not playing" in table.reply_text(stranger)


async def test_restart_mid_game_keeps_old_buttons_working(table: Table, fake: FakeDiscord) -> None:
    alice, bob, dave = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("dave")
    other = await fake.create_channel("second")
    await open_lobby(table, dave, channel_id=other)
    lobby = fake.channel_messages(other)[0]
    await started(table, alice, bob)
    for turn in range(2):
        await play_turn(table, [alice, bob][turn % 2], turn + 1)
    turn_message = table.last_public()
    assert turn_message.selects() and table.turn_of([alice, bob]) is alice
    await table.stop_bot()
    await table.start_bot()
    assert fake.identifies == 2
    select = turn_message.selects()[0]
    before = event_count(table)
    await table.click(alice, turn_message, select["custom_id"], [select["options"][0]["value"]])
    assert event_count(table) == before + 1 and table.turn_of([alice, bob]) is bob
    await table.press(alice, lobby, "Join")  # a lobby opened before the restart
    assert "alice" in fake.messages[lobby.id].content


async def test_stale_and_doubled_clicks_never_apply_twice(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    prompt = table.last_public()
    select = prompt.selects()[0]
    value = select["options"][0]["value"]
    # the same choice clicked twice before either click is answered
    first = await fake.click(alice, prompt, select["custom_id"], [value])
    second = await fake.click(alice, prompt, select["custom_id"], [value])
    await asyncio.gather(table.settle(first), table.settle(second))
    assert event_count(table) == 1
    assert "no longer open" in table.reply_text(first) + table.reply_text(second)
    # bob answers by /move: his turn message keeps its select, which is stale afterwards
    bobs_prompt = table.last_public()
    choices = await fake.autocomplete(bob, "move", "notation")
    await table.slash(bob, "move", notation=choices[0]["value"])
    old = bobs_prompt.selects()[0]
    stale = await table.click(bob, bobs_prompt, old["custom_id"], [old["options"][0]["value"]])
    assert "no longer open" in table.reply_text(stale)
    assert event_count(table) == 2


async def test_moves_of_non_players_and_out_of_turn_are_refused(table: Table, fake: FakeDiscord) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    await started(table, alice, bob)
    refused = await table.slash(carol, "move", notation="1>2")
    [answer] = fake.replies(refused)
    assert answer.ephemeral and "not playing" in answer.content
    assert await fake.autocomplete(carol, "move", "notation") == []
    early = await table.slash(bob, "move", notation="1>2")
    assert "not your turn" in table.reply_text(early)
    message = table.last_public()
    select = message.selects()[0]
    grabbed = await table.click(bob, message, select["custom_id"], [select["options"][0]["value"]])
    assert "for alice" in table.reply_text(grabbed)
    nonsense = await table.slash(alice, "move", notation="over the hills")
    assert fake.replies(nonsense)[0].ephemeral and event_count(table) == 0


async def test_sub_then_resign_ends_the_game(table: Table, fake: FakeDiscord) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    await started(table, alice, bob)
    await table.slash(bob, "game sub", member=carol)
    assert "carol takes over seat 2" in table.last_public().content
    await play_turn(table, alice, 0)
    assert table.turn_of([alice, bob, carol]) is carol
    await table.slash(carol, "game resign")
    assert "Game over: alice wins" in table.last_public().content
    mine = await table.slash(carol, "mygames")
    assert "not in any game" in table.reply_text(mine)
    # a new game in the same channel: /move and its autocomplete find it, not the finished one
    await started(table, alice, bob)
    await play_turn(table, alice, 0)
    assert table.turn_of([alice, bob]) is bob


async def test_admin_sub_for_an_absent_player(table: Table, fake: FakeDiscord) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    mod = fake.add_user("mod", manage_channels=True)
    await started(table, alice, bob, deadline_hours=1.0)
    refused = await table.slash(alice, "game sub", member=carol, seat=2)
    assert "Manage Channels" in table.reply_text(refused)
    await play_turn(table, alice, 0)
    present = await table.slash(mod, "game sub", member=carol, seat=2)  # bob is playing: not his moderator's
    assert "bob is playing" in table.reply_text(present) and table.turn_of([alice, bob, carol]) is bob
    table.clock.advance(3601)  # type: ignore[attr-defined]
    await table.running.timers.fire_once()  # bob misses his deadline: now he counts as absent
    await table.slash(mod, "game sub", member=carol, seat=2)
    assert "carol takes over seat 2 from bob" in table.last_public().content


async def test_abandon_needs_every_player_or_a_moderator(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    mod = fake.add_user("mod", manage_channels=True)
    await started(table, alice, bob)
    await table.slash(alice, "game abandon")
    assert "Waiting for: bob" in table.last_public().content
    await table.slash(bob, "game abandon")
    assert "was abandoned" in table.last_public().content
    second = await fake.create_channel("second")
    await started(table, alice, bob, channel_id=second)
    await table.slash(mod, "game abandon", second)
    assert "was abandoned" in table.last_public(second).content
    status = await table.slash(alice, "game status", second)
    assert "was abandoned. Start another with /game new" in table.reply_text(status)


async def test_pause_and_resume_need_everyone(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    await table.slash(alice, "game pause")
    await table.slash(bob, "game pause")
    assert "paused" in table.last_public().content
    blocked = await table.slash(alice, "move", notation="1>2")
    assert "paused" in table.reply_text(blocked)
    await table.slash(alice, "game resume")
    await table.slash(bob, "game resume")
    assert "continues" in table.last_public().content and table.turn_of([alice, bob]) is alice


async def test_deadline_reminder_expiry_and_claim(table: Table, fake: FakeDiscord, clock: object) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob, deadline_hours=2.0)
    assert "Deadline <t:" in table.last_public().content
    table.clock.advance(1.6 * 3600)  # type: ignore[attr-defined]
    await table.running.timers.fire_once()
    reminder = table.last_public()
    assert "Reminder" in reminder.content and f"<@{alice.id}>" in reminder.content
    table.clock.advance(0.5 * 3600)
    await table.running.timers.fire_once()
    offer = table.last_public()
    assert f"<@{bob.id}>" in offer.content
    assert {b["label"] for b in offer.buttons()} == {
        "Claim the game",
        "Keep waiting",
        "Hand the seat to the AI",
    }
    own = await table.press(alice, offer, "Claim the game")
    assert "other players" in table.reply_text(own)
    await table.press(bob, offer, "Claim the game")
    assert "Game over: bob wins" in table.last_public().content
    assert not fake.messages[offer.id].buttons()


async def test_two_missed_deadlines_hand_the_seat_to_the_ai_until_back(
    table: Table, fake: FakeDiscord
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob, deadline_hours=1.0)
    table.clock.advance(3601)
    await table.running.timers.fire_once()
    await table.press(bob, table.last_public(), "Keep waiting")
    assert "keeps waiting" in table.last_public().content
    table.clock.advance(3601)
    await table.running.timers.fire_once()
    texts = [m.content for m in fake.channel_messages(fake.general)]
    assert any("missed 2 deadlines" in text for text in texts)
    assert table.turn_of([alice, bob]) is bob  # the AI moved for alice
    await table.slash(alice, "game back")
    assert "is back" in table.last_public().content


async def test_a_deleted_channel_pauses_the_game_and_it_resumes_elsewhere(
    table: Table, fake: FakeDiscord
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    room = await fake.create_channel("room")
    await started(table, alice, bob, channel_id=room)
    await fake.delete_channel(room)
    await fake.wait_for(
        lambda: all(any("paused" in m.content for m in fake.dm_messages(u)) for u in (alice, bob))
    )
    await table.settle()
    await table.slash(bob, "game resume", fake.general)  # moving the game takes both players (or a moderator)
    assert "bob asks to move the game to this channel. Waiting for: alice" in table.last_public().content
    await table.slash(alice, "game resume", fake.general)
    assert "continues" in table.last_public().content
    assert table.turn_of([alice, bob]) is alice
    await play_turn(table, alice, 0)
    assert table.turn_of([alice, bob]) is bob


async def test_unexpected_errors_get_an_apology_and_change_nothing(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await started(table, alice, bob)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(table.running.host, "suggestions", broken)
    monkeypatch.setattr(table.running.host, "act", broken)
    assert await fake.autocomplete(alice, "move", "notation") == []
    record = await table.slash(alice, "move", notation="1>2")
    [answer] = fake.replies(record)
    assert answer.ephemeral and "Sorry" in answer.content and "Traceback" not in answer.content
    assert len(table.running.unexpected_errors) == 1
    table.running.unexpected_errors.clear()
    monkeypatch.undo()
    info = await table.running.host.game_info(game_id)
    assert info.waiting_on_user(str(alice.id)) and event_count(table) == 0


async def test_information_commands(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    rules = await table.slash(alice, "rules", game="babylone")
    assert "Babylone" in table.reply_text(rules) and "match" in table.reply_text(rules)
    await started(table, alice, bob)
    mine = await table.slash(alice, "mygames")
    assert "your turn" in table.reply_text(
        mine
    ) and f"/channels/{fake.guild_id}/{fake.general}" in table.reply_text(mine)
    board = await table.slash(bob, "board")
    assert fake.replies(board)[0].files[0][0] == "board.png" and fake.replies(board)[0].ephemeral
    await play_turn(table, alice, 0)
    log = await table.slash(bob, "log")
    assert "moves stack" in table.reply_text(log)
    helped = await table.slash(bob, "help")
    assert "/move" in table.reply_text(helped) and "/game new" in table.reply_text(helped)
    status = await table.slash(bob, "game status")
    assert "Deadline for bob" in table.reply_text(status)


async def test_more_choices_pages_beyond_the_first_hundred(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    turn = table.last_public()
    assert len(turn.selects()) == 4 and all(len(s["options"]) == 25 for s in turn.selects())
    more = await table.press(alice, turn, "More choices…")
    [page] = fake.replies(more)
    assert page.ephemeral and len(page.selects()) == 2  # 132 moves: 100 on the message, 32 here
    shown = {o["value"] for s in turn.selects() + page.selects() for o in s["options"]}
    assert len(shown) == 132
    select = page.selects()[-1]
    await table.click(alice, page, select["custom_id"], [select["options"][-1]["value"]])
    assert event_count(table) == 1 and table.turn_of([alice, bob]) is bob


async def test_hand_undo_and_draw_commands(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    hand = await table.slash(alice, "hand")
    [answer] = fake.replies(hand)
    assert answer.ephemeral and answer.files[0][0] == "hand.png" and answer.selects()
    await play_turn(table, alice, 0)
    await table.slash(alice, "undo")
    assert "takes back" in table.last_public().content and table.turn_of([alice, bob]) is alice
    refused = await table.slash(bob, "undo")
    assert fake.replies(refused)[0].ephemeral
    draw = await table.slash(alice, "game draw")
    assert "draw" in table.reply_text(draw).lower() and not table.running.unexpected_errors


async def test_losing_access_to_the_channel_pauses_the_game(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    room = await fake.create_channel("room")
    await started(table, alice, bob, channel_id=room)
    fake.revoke_access(room)
    choices = await fake.autocomplete(alice, "move", "notation", room)
    await table.slash(alice, "move", room, notation=choices[0]["value"])
    for user in (alice, bob):
        assert any("paused" in m.content for m in fake.dm_messages(user))
    status = await table.slash(alice, "game status", room)
    assert "paused" in table.reply_text(status)


async def test_the_deadline_loop_fires_on_its_own(table: Table, fake: FakeDiscord) -> None:
    await table.stop_bot()
    await table.start_bot(run_timers=True)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob, deadline_hours=1.0)
    table.clock.advance(3601)
    assert table.host is not None
    table.host.timers_changed.set()  # as the host does when a timer is armed: the loop looks again
    await fake.wait_for(lambda: "Claim the game" in str(table.last_public().components))
    assert f"<@{bob.id}>" in table.last_public().content


async def test_a_status_delivery_with_an_edit_key_edits_one_message(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await started(table, alice, bob)
    before = len(fake.channel_messages(fake.general))
    for number, step in enumerate(("step 1 of 2", "step 2 of 2")):
        # outbox ids the store never handed out: marking them sent changes nothing
        status = Delivery(
            10_000 + number,
            game_id,
            "babylone",
            "public",
            f"Alice is moving: {step}",
            channel_id=str(fake.general),
            edit_key="status",
        )
        async with table.running.busy():
            await table.running.sender.deliver([status])
    messages = fake.channel_messages(fake.general)
    assert len(messages) == before + 1 and messages[-1].content == "Alice is moving: step 2 of 2"
    assert messages[-1].edits == 1


async def test_rules_take_a_section_with_autocomplete(table: Table, fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    contents = await table.slash(alice, "rules", game="principes")
    assert "`battles`: Battles" in table.reply_text(contents)
    choices = await fake.autocomplete(alice, "rules", "section", game="principes", section="batt")
    assert [choice["value"] for choice in choices] == ["battles", "cards"]  # "Court and Battle cards" too
    section = await table.slash(alice, "rules", game="principes", section="battles")
    assert "The defender has 1 shield per gord" in table.reply_text(section)
