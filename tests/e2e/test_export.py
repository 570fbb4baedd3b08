"""``/game export`` through the fake Discord: an ephemeral answer with the game's JSON attached."""

from __future__ import annotations

import json

from bot.models import Actor
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_flows import started
from tests.e2e.test_play import play_turn


async def test_export_attaches_the_games_json_to_an_ephemeral_answer(table: Table, fake: FakeDiscord) -> None:
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    game_id = await started(table, alice, bob)
    await play_turn(table, alice, 0)
    record = await table.slash(carol, "game export")  # anyone at the table may: it shows the public log only
    (reply,) = table.fake.replies(record)
    assert reply.ephemeral and reply.visible_to == carol.id
    assert f"#{game_id} (active)" in reply.content
    ((name, data),) = reply.files
    assert name == f"babylone-{game_id}.json"
    export = json.loads(data)
    assert export["game"]["id"] == game_id and export["complete"] is False
    assert [event["actor"] for event in export["events"]] == [str(alice.id), str(alice.id)]
    assert export["events"][1]["action"] and export["events"][1]["log"]
    assert not any(
        message.files and message.files[0][0].endswith(".json")
        for message in fake.channel_messages(fake.general)
    ), "the export is posted nowhere else"


async def test_export_without_a_game_is_a_sentence(table: Table, fake: FakeDiscord) -> None:
    record = await table.slash(fake.add_user("alice"), "game export")
    assert "no game in this channel" in table.reply_text(record)


async def test_game_verify_answers_the_asker_before_and_after_the_end(
    table: Table, fake: FakeDiscord
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    game_id = await started(table, alice, bob)
    running = await table.slash(bob, "game verify")
    (reply,) = table.fake.replies(running)
    assert reply.ephemeral and "still being played: its seed and sealed choices stay secret" in reply.content
    await table.slash(alice, "game resign")
    done = await table.slash(bob, "game verify")
    (reply,) = table.fake.replies(done)
    assert reply.ephemeral and reply.content.startswith(f"Verified. Babylone #{game_id}: ")


async def test_the_sealed_choices_reach_the_channel_as_a_file(table: Table, fake: FakeDiscord) -> None:
    """Issue 17: every sealed choice of a long The Prince game is published, in a file attached to one message."""
    channel = await fake.create_channel("prince")
    host, director = table.running.host, Actor("1", "director")
    info = await host.create_game(
        str(fake.guild_id), str(channel), director, "the-prince", seat_creator=False
    )
    for level in ("strategist", "random"):
        await host.add_ai(str(channel), director, level)
    await table.running.sender.deliver(await host.start(str(channel), director))
    record = await host.sealed_record(info.game_id)
    assert len(record) >= 16
    (message,) = [m for m in fake.channel_messages(channel) if m.content.startswith("Sealed choices")]
    assert len(message.content) <= 2000 and f"all {len(record)} " in message.content
    ((name, data),) = message.files
    assert name == f"sealed-choices-the-prince-{info.game_id}.txt"
    text = data.decode()
    for row in record:
        assert (
            f"text:   {row['nonce']}|{info.game_id}|{row['decision_id']}|{row['seat']}|{row['action']}"
            in text
        )
        assert f"commit: {row['commit_hash']}" in text
    verified = await table.slash(fake.add_user("carol"), "game verify", channel)
    assert f"its {len(record)} sealed commits match" in table.reply_text(verified)
