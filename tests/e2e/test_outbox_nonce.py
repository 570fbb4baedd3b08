"""Posting exactly once across a crash: every outbox message carries a nonce derived from its row, and Discord
(the fake honours ``enforce_nonce`` as Discord documents it) returns the message already made when a row is
posted again because the bot died between posting it and marking it sent."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_flows import started
from tests.e2e.test_play import play_turn


def visible(fake: FakeDiscord, *channels: int) -> list[tuple[int, str]]:
    return [(m.channel_id, m.content) for channel in channels for m in fake.channel_messages(channel)]


async def test_rows_posted_again_after_a_crash_are_not_doubled(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    host = table.host
    assert host is not None
    # the process dies after Discord accepted each message and before its row is marked sent
    with monkeypatch.context() as crash:
        crash.setattr(host, "mark_sent", _never_marked)
        await play_turn(table, alice, 1)
    unsent = await host.pending_deliveries()
    assert unsent, "the turn's deliveries stay in the outbox, as after a crash"
    dms = [fake.dm_channels[user.id] for user in (alice, bob) if user.id in fake.dm_channels]
    before = visible(fake, fake.general, *dms)
    repeats = fake.nonce_repeats
    await table.stop_bot()
    await table.start_bot()  # start-up posts the unsent rows again
    await table.running.wait_idle()
    assert visible(fake, fake.general, *dms) == before
    assert fake.nonce_repeats - repeats >= len(unsent) > 0
    assert table.host is not None and not await table.host.pending_deliveries()


async def test_without_the_nonce_the_same_crash_posts_twice(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: a Discord that ignored nonces would show the turn's board twice after the same crash."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob)
    assert table.host is not None
    with monkeypatch.context() as crash:
        crash.setattr(table.host, "mark_sent", _never_marked)
        await play_turn(table, alice, 1)
    before = len(fake.channel_messages(fake.general))
    monkeypatch.setattr(fake, "_nonce_message", lambda body: None)
    await table.stop_bot()
    await table.start_bot()
    await table.running.wait_idle()
    assert len(fake.channel_messages(fake.general)) > before


async def _never_marked(delivery_id: int, posted: object = None, remember: object = None) -> None:
    return None
