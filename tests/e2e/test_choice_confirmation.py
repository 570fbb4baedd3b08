"""Issue 17: a plain choice clicked in a DM (or an ephemeral answer) says what was sent, as the forms do."""

from __future__ import annotations

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_flows import latest_with_components, started
from tests.e2e.test_play import play_turn


async def test_a_dm_choice_confirms_what_was_sent(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await table.slash(bob, "settings", turn_dms="on")
    await started(table, alice, bob)
    await play_turn(table, alice, 0)
    prompt = latest_with_components(fake.dm_messages(bob))
    select = prompt.selects()[0]
    option = select["options"][0]
    text_before = prompt.content
    await table.click(bob, prompt, select["custom_id"], [option["value"]])
    after = fake.messages[prompt.id]
    assert not after.custom_ids()
    assert after.content.startswith(text_before)  # the prompt stays readable above the confirmation
    assert f"Sent: {option['label']}" in after.content


async def test_a_channel_prompt_keeps_its_text_when_answered(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    board = table.last_public()
    select = board.selects()[0]
    content = board.content
    await table.click(alice, board, select["custom_id"], [select["options"][0]["value"]])
    assert fake.messages[board.id].content == content and not fake.messages[board.id].custom_ids()
