"""Components whose custom_id or value was tampered with (or made by an older version): each answers a clear
ephemeral sentence, never the apology, never silence, and acts on nothing it should not.

Through the real client and the fake Discord: a forged component is carried by a message of the bot's (Discord
sends clicks only for a message's components), as an older message or a modified client would present it.
"""

from __future__ import annotations

import asyncio
import re

from bot.discord.common import APOLOGY
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord
from tests.e2e.test_flows import event_count, started


def turn_message(table: Table) -> FakeMessage:
    """The channel's latest message with components (the turn prompt of a Babylone game)."""
    return [m for m in table.fake.channel_messages(table.fake.general) if m.custom_ids()][-1]


def choice_fields(message: FakeMessage) -> tuple[str, str, str]:
    """(game, seat, decision) of the first choice component on ``message``."""
    _, _, game, seat, decision, _ = message.custom_ids()[0].split(":")
    return game, seat, decision


async def forged(
    table: Table,
    user: FakeUser,
    custom_id: str,
    values: list[str] | None = None,
    channel_id: int | None = None,
) -> str:
    """Click a forged component; return the answer, which must be an ephemeral sentence and not the apology."""
    record = await table.fake.click_forged(user, custom_id, values, channel_id)
    await table.settle(record)
    return answer_of(table, record)


def answer_of(table: Table, record: InteractionRecord) -> str:
    replies = table.fake.replies(record)
    assert replies, f"no answer to {record.data}"
    assert all(reply.ephemeral for reply in replies), [reply.content for reply in replies]
    text = "\n".join(reply.content for reply in replies)
    assert text and APOLOGY not in text, text
    assert not table.running.unexpected_errors, table.running.unexpected_errors
    return text


async def test_a_seat_the_game_does_not_have_is_named_in_the_answer(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    game, _, decision = choice_fields(turn_message(table))
    general = fake.general
    answer = await forged(table, alice, f"pt:c:{game}:7:{decision}:%230", channel_id=general)
    assert "seat 8" in answer and "2 seats" in answer
    answer = await forged(table, alice, f"pt:s:{game}:7:{decision}:0", ["#0"], channel_id=general)
    assert "seat 8" in answer
    answer = await forged(table, alice, f"pt:m:{game}:7:{decision}:1", channel_id=general)
    assert "seat 8" in answer
    answer = await forged(table, alice, f"pt:f:{game}:7:{decision}:open:", channel_id=general)
    assert "seat 8" in answer
    assert event_count(table) == 0


async def test_a_choice_index_must_be_digits_within_the_list(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    game, seat, decision = choice_fields(turn_message(table))
    general = fake.general
    for token in ("#abc", "#-1", "#99999", "#", "#٣", "#²", "#0x1", "# 1"):
        button = await forged(table, alice, f"pt:c:{game}:{seat}:{decision}:{token.replace('#', '%23')}")
        select = await forged(table, alice, f"pt:s:{game}:{seat}:{decision}:0", [token], channel_id=general)
        for answer in (button, select):
            assert "choice" in answer, (token, answer)
    assert event_count(table) == 0  # "#-1" used to play the last choice of the list


async def test_a_page_of_choices_that_does_not_exist_is_refused(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    game, seat, decision = choice_fields(turn_message(table))
    for page in ("0", "5", "9999"):
        answer = await forged(table, alice, f"pt:m:{game}:{seat}:{decision}:{page}")
        assert "page" in answer, answer


async def test_a_game_that_does_not_exist_or_plays_elsewhere(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    game, seat, decision = choice_fields(turn_message(table))
    elsewhere = await fake.create_channel("elsewhere")
    for custom_id in (
        f"pt:c:{game}:{seat}:{decision}:%230",
        f"pt:s:{game}:{seat}:{decision}:0",
        f"pt:h:{game}",
        f"pt:l:{game}:join",
        f"pt:x:{game}:0%3A{decision}:claim",
        f"pt:f:{game}:{seat}:{decision}:open:",
    ):
        values = ["#0"] if custom_id.startswith("pt:s:") else None
        answer = await forged(table, alice, custom_id, values, channel_id=elsewhere)
        assert "another channel" in answer or "closed" in answer, (custom_id, answer)
        unknown = re.sub(rf"^(pt:[a-z]:){game}(?=:|$)", r"\g<1>424242", custom_id)
        answer = await forged(table, alice, unknown, values)
        assert "no game #424242" in answer or "lobby is closed" in answer, (custom_id, answer)
    huge = "9" * 30
    answer = await forged(table, alice, f"pt:c:{huge}:{seat}:{decision}:%230", channel_id=fake.general)
    assert "read" in answer or "no game" in answer
    assert event_count(table) == 0


async def test_a_custom_id_of_ours_that_does_not_parse_is_answered(table: Table, fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    for custom_id in ("pt:", "pt:zz", "pt:c:1", "pt:c:a:b:c:d", "pt:l:1:explode", "pt:x:1:0:nuke", "pt:h:-1"):
        answer = await forged(table, alice, custom_id, channel_id=fake.general)
        assert "cannot read" in answer, (custom_id, answer)


async def test_a_custom_id_without_our_prefix_is_left_to_discord_py(table: Table, fake: FakeDiscord) -> None:
    """Only our own prefix is answered: an ordinary discord.py view (random custom_ids) answers its own clicks."""
    alice = fake.add_user("alice")
    record = await fake.click_forged(alice, "other-app:button", channel_id=fake.general)
    await asyncio.sleep(0.2)
    await table.settle()
    assert not record.callback_types
