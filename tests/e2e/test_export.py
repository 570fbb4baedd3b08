"""``/game export`` through the fake Discord: an ephemeral answer with the game's JSON attached."""

from __future__ import annotations

import json

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
