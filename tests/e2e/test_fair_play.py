"""Issue 25 through the fake Discord: an old deadline offer never acts on a live turn; who may take a seat."""

from __future__ import annotations

import copy

import pytest

from bot.hosting.core import LOBBY_IDLE_S, MAX_OPEN_LOBBIES
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.test_flows import started
from tests.e2e.test_play import open_lobby

CLAIM, AI = "Claim the game", "Hand the seat to the AI"


async def alice_misses_her_deadline(table: Table, alice: FakeUser, bob: FakeUser) -> FakeMessage:
    """Alice (to move, 2 h deadline) lets it pass: the channel offers Bob claim / wait / AI. Returns a copy of
    that message as Bob's client shows it then (buttons included), to press later."""
    await started(table, alice, bob, deadline_hours=2.0)
    table.clock.advance(2 * 3600 + 1)  # type: ignore[attr-defined]
    await table.running.timers.fire_once()
    offer = table.last_public()
    assert "let the deadline pass" in offer.content and offer.button(CLAIM)
    return copy.deepcopy(offer)


def assert_refused_and_alive(table: Table, record: object, alice: FakeUser, bob: FakeUser) -> None:
    reply = table.fake.replies(record)  # type: ignore[arg-type]
    assert reply and reply[0].ephemeral and "offer is closed" in reply[0].text()
    texts = [m.content for m in table.fake.channel_messages(table.fake.general)]
    assert not any("Game over" in text for text in texts)
    assert not any("hands alice's seat to the AI" in text for text in texts)
    assert table.turn_of([alice, bob]) is alice and not table.running.unexpected_errors


@pytest.mark.parametrize("label", [CLAIM, AI])
async def test_an_old_offer_after_pause_and_resume_is_refused(
    table: Table, fake: FakeDiscord, label: str
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    old = await alice_misses_her_deadline(table, alice, bob)
    for who in (alice, bob):
        await table.slash(who, "game pause")
    assert not fake.messages[old.id].buttons()  # the pause took the offer's buttons off
    for who in (alice, bob):
        await table.slash(who, "game resume")
    pressed = await table.press(bob, old, label)
    assert_refused_and_alive(table, pressed, alice, bob)


@pytest.mark.parametrize("label", [CLAIM, AI])
async def test_an_old_offer_after_a_move_and_its_undo_is_refused(
    table: Table, fake: FakeDiscord, label: str
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    old = await alice_misses_her_deadline(table, alice, bob)
    choices = await fake.autocomplete(alice, "move", "notation")
    await table.slash(alice, "move", notation=choices[0]["value"])
    assert not fake.messages[old.id].buttons()  # her move took the offer's buttons off
    await table.slash(alice, "undo")
    assert table.turn_of([alice, bob]) is alice  # the same decision again, with a fresh deadline
    pressed = await table.press(bob, old, label)
    assert_refused_and_alive(table, pressed, alice, bob)


async def test_a_live_offer_still_ends_the_game(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    offer = await alice_misses_her_deadline(table, alice, bob)
    await table.press(bob, offer, CLAIM)
    assert "Game over: bob wins" in table.last_public().content


async def test_an_idle_lobby_closes_and_loses_its_buttons(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await open_lobby(table, alice)
    lobby = fake.channel_messages(fake.general)[0]
    table.clock.advance(LOBBY_IDLE_S + 1)  # type: ignore[attr-defined]
    await table.running.timers.fire_once()
    assert "closed after 7 days without a start" in fake.messages[lobby.id].content
    assert not fake.messages[lobby.id].buttons()
    status = await table.slash(bob, "game status")
    assert "was abandoned" in table.reply_text(status)


async def test_the_fourth_open_lobby_is_refused_with_a_sentence(table: Table, fake: FakeDiscord) -> None:
    alice = fake.add_user("alice")
    for number in range(MAX_OPEN_LOBBIES):
        await open_lobby(table, alice, channel_id=await fake.create_channel(f"room-{number}"))
    refused = await table.slash(alice, "game new", game="babylone")
    reply = fake.replies(refused)[0]
    assert reply.ephemeral and "already have 3 open lobbies" in reply.text()
