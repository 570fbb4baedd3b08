"""Issue 42, part 3 (in part): edges of a table through the fake Discord. ``/game sub`` onto a player who already
holds a seat at that table, and quiet hours across a daylight-saving change and in odd time zones (UTC+13:45,
UTC-09:30): a turn that comes in the quiet hours pings nobody, and its held ping comes exactly when they end in
the player's own zone."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord
from tests.e2e.test_flows import started
from tests.e2e.test_play import play_turn


async def test_sub_onto_a_player_already_seated_is_refused(table: Table, fake: FakeDiscord) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    mod = fake.add_user("mod", manage_channels=True)
    await started(table, alice, bob, deadline_hours=1.0)
    own = await table.slash(alice, "game sub", member=bob)  # her own seat, to the player across the table
    assert "bob already holds a seat in this game." in table.reply_text(own)
    await play_turn(table, alice, 0)
    table.clock.advance(3601)  # type: ignore[attr-defined]
    await table.running.timers.fire_once()  # bob misses his deadline: his seat may be handed over
    moderated = await table.slash(mod, "game sub", member=alice, seat=2)
    assert "alice already holds a seat in this game." in table.reply_text(moderated)
    status = table.reply_text(await table.slash(alice, "game status"))
    assert "Seats: 1. alice, 2. bob" in status, status
    assert not any("takes over seat" in m.content for m in fake.channel_messages(fake.general))


def _utc(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp()


@pytest.mark.parametrize(
    ("zone", "quiet", "turn_at", "ends_at"),
    [
        # Paris, the night the clocks go forward: 23:30 CET, quiet until 07:00 CEST (05:00 UTC, not 06:00)
        ("Europe/Paris", "22:00-07:00", "2030-03-30T22:30", "2030-03-31T05:00"),
        # Paris, the night the clocks go back: 23:30 CEST, quiet until 07:00 CET (06:00 UTC, not 05:00)
        ("Europe/Paris", "22:00-07:00", "2030-10-26T21:30", "2030-10-27T06:00"),
        # quiet hours ending at 02:30, a time the spring-forward night skips: they end as the clock jumps past
        # it, at 03:00 CEST (01:00 UTC), not at 03:30
        ("Europe/Paris", "23:00-02:30", "2030-03-30T22:30", "2030-03-31T01:00"),
        # Chatham Islands in summer, UTC+13:45: 23:00 local, quiet until 07:00 local
        ("Pacific/Chatham", "22:00-07:00", "2030-03-18T09:15", "2030-03-18T17:15"),
        # Marquesas Islands, UTC-09:30
        ("Pacific/Marquesas", "22:00-07:00", "2030-03-18T08:30", "2030-03-18T16:30"),
    ],
)
async def test_a_ping_held_by_quiet_hours_comes_when_they_end_in_the_players_zone(
    table: Table, fake: FakeDiscord, zone: str, quiet: str, turn_at: str, ends_at: str
) -> None:
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    table.clock.advance(_utc(turn_at) - table.clock.now)  # type: ignore[attr-defined]
    await started(table, alice, bob, options="first=2")
    record = await table.slash(alice, "settings", quiet_hours=quiet, time_zone=zone)
    assert f"`time_zone` = `{zone}`" in table.reply_text(record)
    before = len(fake.channel_messages(fake.general))
    await play_turn(table, bob, 0)  # alice's turn comes in her quiet hours
    mention = f"<@{alice.id}>"
    assert not any(mention in m.content for m in fake.channel_messages(fake.general)[before:])
    table.clock.advance(_utc(ends_at) - 60 - table.clock.now)  # type: ignore[attr-defined]
    await table.running.timers.fire_once()
    assert not any(mention in m.content for m in fake.channel_messages(fake.general)[before:])
    table.clock.advance(60)  # type: ignore[attr-defined]
    await table.running.timers.fire_once()
    pinged = [m.content for m in fake.channel_messages(fake.general)[before:] if mention in m.content]
    assert len(pinged) == 1 and pinged[0].startswith("Reminder: alice"), pinged


async def test_the_live_cards_old_buttons_after_the_turn_moved_on_change_nothing(
    table: Table, fake: FakeDiscord
) -> None:
    """A client that still shows the card as it was before an edit sends a click on its old select: alice's own,
    once her turn has passed, and bob's on alice's select. Each gets a sentence only the clicker sees; the game,
    the card and the channel stay as they were."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await started(table, alice, bob, options="first=1 posts=card")
    (card,) = [m for m in fake.channel_messages(fake.general) if m.files]
    old = card.selects()[0]
    stale = (old["custom_id"], [old["options"][-1]["value"]])
    await play_turn(table, alice, 0)  # alice moves: the card is edited for bob's turn
    assert table.turn_of([alice, bob]) is bob
    edits, messages = fake.messages[card.id].edits, len(fake.channel_messages(fake.general))
    status = table.reply_text(await table.slash(bob, "game status"))
    for user in (alice, bob):
        record = await fake.click_forged(user, stale[0], stale[1], fake.general, content=card.content)
        await table.settle(record)
        (answer,) = fake.replies(record)
        assert answer.ephemeral and ("no longer open" in answer.content or "for alice" in answer.content), (
            answer.content
        )
    assert fake.messages[card.id].edits == edits
    assert len(fake.channel_messages(fake.general)) == messages + 2  # the two forged copies, nothing else
    assert table.reply_text(await table.slash(bob, "game status")) == status
    assert table.turn_of([alice, bob]) is bob


async def test_4000_character_orders_and_ahead_texts_are_answered_with_a_short_sentence(
    table: Table, fake: FakeDiscord
) -> None:
    """``/orders`` topic and choice take any text Discord lets through (up to 6,000 characters); a refusal must
    not quote it back whole (Discord refuses a message over 2,000). The names (500) and ``/ahead``'s answers (300)
    are capped by their options: at their limit the answer is a sentence too."""
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    await table.slash(alice, "game new", game="principes")
    await table.slash(bob, "game join")
    await table.slash(alice, "game start", order="given")
    long = ("Scouts " * 600)[:4000]
    asked = [
        {"topic": long, "choice": "ask"},
        {"topic": "windows", "choice": long},
        {"topic": "consent", "choice": "named", "names": long[:500]},
        {"topic": "windows", "choice": "pass", "names": long[:500]},
    ]
    for options in asked:
        text = table.reply_text(await table.slash(bob, "orders", **options))
        assert 0 < len(text) <= 400 and text.rstrip().endswith((".", ")")), (options.keys(), text[:300])
    text = table.reply_text(await table.slash(bob, "ahead", answers=long[:300]))
    assert 0 < len(text) <= 400, text[:300]
    assert not table.running.unexpected_errors
