"""Issue 19: a player away for two days in two games on two servers is played for by the AI, each channel is
told when they leave and come back, and a ping that falls in their quiet hours waits until morning."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.conftest import Clock, Table
from tests.e2e.fake_discord import FakeDiscord, FakeUser
from tests.e2e.test_play import open_lobby, play_turn

#: 2030-03-17 18:00 UTC
EVENING = 1_900_000_800.0
HOUR = 3600.0


async def _alice_to_move(table: Table, alice: FakeUser, bob: FakeUser, channel: int) -> None:
    """Start the lobby of ``channel`` and play bob's turn if he begins, so the game waits for alice."""
    lobby = table.fake.channel_messages(channel)[0]
    await table.press(alice, lobby, "Start")
    if table.turn_of([alice, bob], channel) is bob:
        await play_turn(table, bob, 0, channel)
    assert table.turn_of([alice, bob], channel) is alice


def _texts(fake: FakeDiscord, channel: int) -> list[str]:
    return [message.content for message in fake.channel_messages(channel)]


async def test_away_two_days_in_two_games_on_two_servers(fake: FakeDiscord, tmp_path: Path) -> None:
    other_guild = fake.add_guild("Another server")
    first, second = fake.general, fake.add_channel("tables", other_guild)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    clock = Clock(EVENING)
    table = Table(fake, tmp_path / "bot.sqlite3", clock)
    await table.start_bot()
    try:
        for channel in (first, second):
            await open_lobby(table, alice, bob, options="first=1", channel_id=channel)
            await _alice_to_move(table, alice, bob, channel)
        record = await table.slash(alice, "settings", first, quiet_hours="22:00-07:00", time_zone="UTC")
        assert "`quiet_hours` = `22:00-07:00`" in table.reply_text(record)
        record = await table.slash(alice, "away until", first, date="2030-03-19 23:00")
        assert "You are away until" in table.reply_text(record)
        for channel in (first, second):
            assert any(re.match(r"alice is away until <t:\d+:f>", text) for text in _texts(fake, channel))
            assert table.turn_of([alice, bob], channel) is alice  # the decision waiting when she left: hers
            await play_turn(table, alice, 0, channel)  # she answers it; the AI takes her later ones
            assert table.turn_of([alice, bob], channel) is bob
            await play_turn(table, bob, 0, channel)
            assert table.turn_of([alice, bob], channel) is bob  # and again: the game never waits for her
        clock.advance(1_900_191_600.0 - clock.now)  # 2030-03-19 23:00 UTC: the away period ends
        await table.running.timers.fire_once()
        for channel in (first, second):
            assert "alice is back and plays their seat again." in _texts(fake, channel), _texts(
                fake, channel
            )[-4:]
        before = len(fake.channel_messages(first))
        await play_turn(table, bob, 1, first)  # now alice must move again, in her quiet hours
        new = fake.channel_messages(first)[before:]
        assert new and not any(f"<@{alice.id}>" in message.content for message in new), [
            m.content for m in new
        ]
        clock.advance(8 * HOUR - 60)  # 06:59: still quiet
        await table.running.timers.fire_once()
        assert not any(
            f"<@{alice.id}>" in message.content for message in fake.channel_messages(first)[before:]
        )
        clock.advance(60)  # 07:00: the held ping comes
        await table.running.timers.fire_once()
        pinged = [m.content for m in fake.channel_messages(first)[before:] if f"<@{alice.id}>" in m.content]
        assert len(pinged) == 1 and pinged[0].startswith("Reminder: alice")
        assert not table.running.unexpected_errors
    finally:
        await table.stop_bot()


async def test_back_from_two_days_away_the_first_dm_is_the_digest_and_the_cards_were_edited(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 19's Must show in one run: away two days in two games on two servers (the live card of each game
    kept up to date, not one per move, while the AI plays for her), back by the away period's end; her first DM after that is
    the catch-up digest with its two boards, followed by her turn's prompt; a ping in her quiet hours waits until
    morning. (The standing orders that answer before the AI: tests/host/test_away.py.)"""
    other_guild = fake.add_guild("Another server")
    first, second = fake.general, fake.add_channel("tables", other_guild)
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    clock = Clock(EVENING)
    table = Table(fake, tmp_path / "bot.sqlite3", clock)
    await table.start_bot()
    try:
        for channel in (first, second):
            await open_lobby(table, alice, bob, options="first=1 posts=card", channel_id=channel)
            await _alice_to_move(table, alice, bob, channel)
        cards = {
            channel: [m for m in fake.channel_messages(channel) if m.files] for channel in (first, second)
        }
        assert all(len(found) == 1 for found in cards.values())
        edits = {channel: fake.messages[found[0].id].edits for channel, found in cards.items()}
        await table.slash(alice, "settings", first, quiet_hours="22:00-07:00", time_zone="UTC", turn_dms="on")
        await table.slash(alice, "away until", first, date="2030-03-19 23:00")
        for channel in (first, second):
            assert any(re.match(r"alice is away until <t:\d+:f>", text) for text in _texts(fake, channel))
            await play_turn(table, alice, 0, channel)  # the decision waiting when she left stays hers
            await play_turn(table, bob, 0, channel)  # bob moves, the AI answers for alice at once
            assert table.turn_of([alice, bob], channel) is bob
            # the live card followed every move: edited, or posted again under the newest line (issue 47)
            (card,) = [m for m in fake.channel_messages(channel) if m.files]
            assert card.id != cards[channel][0].id or card.edits > edits[channel]
        dms_before = len(fake.dm_messages(alice))
        clock.advance(1_900_191_600.0 - clock.now)  # 2030-03-19 23:00 UTC: the away period ends
        await table.running.timers.fire_once()
        for channel in (first, second):
            assert "alice is back and plays their seat again." in _texts(fake, channel)
        await play_turn(table, bob, 1, first)  # alice's turn again, in her quiet hours
        new_dms = fake.dm_messages(alice)[dms_before:]
        assert new_dms, "her turn came: a DM"
        digest = new_dms[0]
        assert "since your last move" in digest.content and "(played by the AI)" in digest.content
        assert [name for name, _png in digest.files] == ["catchup-1.png", "catchup-2.png"]
        assert len(new_dms) > 1 and new_dms[1].custom_ids()  # then the turn's prompt with its buttons
        assert not any(f"<@{alice.id}>" in m.content for m in fake.channel_messages(first)[-3:])
        clock.advance(8 * HOUR)  # 07:00: the held ping comes
        await table.running.timers.fire_once()
        assert any(
            m.content.startswith("Reminder: alice") and f"<@{alice.id}>" in m.content
            for m in fake.channel_messages(first)
        )
        assert not table.running.unexpected_errors
    finally:
        await table.stop_bot()
