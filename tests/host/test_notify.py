"""Notification settings: mentions, quiet hours (pings wait, deadlines do not move), reminder schedule, mute."""

from __future__ import annotations

import pytest

from bot.host import Delivery, Host, HostError
from bot.hosting.notify import quiet_until
from tests.conftest import ALICE, BOB

HOUR = 3600.0
CHANNEL = "c1"


async def _start(host: Host) -> int:
    info = await host.create_game("g1", CHANNEL, ALICE, "babylone", {"first": "1"}, deadline_hours=24)
    await host.join(CHANNEL, BOB)
    deliveries = await host.start(CHANNEL, ALICE, order="given")
    host.started = deliveries  # type: ignore[attr-defined]
    return info.game_id


def _mentioned(deliveries: list[Delivery]) -> list[str]:
    return [user for d in deliveries for user in d.mentions]


async def _timers(host: Host, game_id: int, kind: str) -> list[float]:
    rows = await host.store.fetchall(
        "SELECT due FROM timers WHERE game_id = ? AND kind = ? AND seat = 0 ORDER BY due", (game_id, kind)
    )
    return [row["due"] for row in rows]


def test_quiet_hours_across_midnight_end_in_the_players_zone() -> None:
    # 2027-01-15 21:30 UTC is 22:30 in Paris: quiet until 07:00 Paris, 06:00 UTC the next day
    evening = 1_800_000_000.0 + 13.5 * HOUR
    assert quiet_until(evening, "22:00-07:00", "Europe/Paris") == 1_800_000_000.0 + 22 * HOUR
    assert quiet_until(evening, "22:00-07:00", "UTC") is None  # 21:30 in London is not quiet yet
    assert quiet_until(evening, "13:00-23:00", "UTC") == 1_800_000_000.0 + 15 * HOUR


async def test_quiet_hours_hold_the_turn_ping_until_morning(host: Host, clock) -> None:
    await host.set_setting(ALICE.user_id, "time_zone", "Europe/Paris")
    await host.set_setting(ALICE.user_id, "quiet_hours", "22:00-07:00")
    clock.advance(13.5 * HOUR)  # 22:30 in Paris
    started_at = clock.now
    game_id = await _start(host)
    assert ALICE.user_id not in _mentioned(host.started)  # type: ignore[attr-defined]
    morning = 1_800_000_000.0 + 22 * HOUR  # 07:00 in Paris
    assert morning in await _timers(host, game_id, "reminder")
    assert await _timers(host, game_id, "deadline") == [
        started_at + 24 * HOUR
    ]  # the deadline does not shrink
    clock.advance(morning - clock.now - 60)
    assert await host.fire_due_timers() == []
    clock.advance(60)
    fired = await host.fire_due_timers()
    assert [d.text.split(",")[0] for d in fired if ALICE.user_id in d.mentions] == ["Reminder: alice"]
    assert await _timers(host, game_id, "deadline") == [started_at + 24 * HOUR]


async def test_a_reminder_due_in_quiet_hours_waits_for_their_end(host: Host, clock) -> None:
    await host.set_setting(ALICE.user_id, "reminders", "50%")
    await host.set_setting(ALICE.user_id, "quiet_hours", "19:00-23:00")  # UTC; the clock says 08:00
    game_id = await _start(host)
    assert ALICE.user_id in _mentioned(host.started)  # type: ignore[attr-defined]
    assert await _timers(host, game_id, "reminder") == [clock.now + 12 * HOUR]  # 20:00: quiet
    clock.advance(12 * HOUR)
    assert _mentioned(await host.fire_due_timers()) == []
    assert await _timers(host, game_id, "reminder") == [clock.now + 3 * HOUR]
    clock.advance(3 * HOUR)
    assert _mentioned(await host.fire_due_timers()) == [ALICE.user_id]
    assert await _timers(host, game_id, "deadline") == [clock.now + 9 * HOUR]


async def test_reminder_schedule_follows_the_players_setting(host: Host, clock) -> None:
    await host.set_setting(ALICE.user_id, "reminders", "10%, 50%")
    assert (await host.get_settings(ALICE.user_id))["reminders"] == "50%,10%"
    started = clock.now
    game_id = await _start(host)
    assert await _timers(host, game_id, "reminder") == pytest.approx(
        [started + 12 * HOUR, started + 21.6 * HOUR]
    )
    clock.advance(12 * HOUR)
    assert _mentioned(await host.fire_due_timers()) == [ALICE.user_id]
    clock.advance(9.6 * HOUR)
    assert _mentioned(await host.fire_due_timers()) == [ALICE.user_id]
    await host.set_setting(BOB.user_id, "reminders", "off")
    prompt = await host.prompt_of(game_id, ALICE.user_id)
    await host.act(game_id, ALICE, prompt.choices[0].action)
    rows = await host.store.fetchall("SELECT kind FROM timers WHERE game_id = ? AND seat = 1", (game_id,))
    assert [row["kind"] for row in rows] == ["deadline"]


async def test_a_muted_game_neither_mentions_nor_reminds(host: Host, clock) -> None:
    game_id = await _start(host)
    await host.set_setting(BOB.user_id, "mute", f"#{game_id}")
    prompt = await host.prompt_of(game_id, ALICE.user_id)
    moved = await host.act(game_id, ALICE, prompt.choices[0].action)
    assert BOB.user_id not in _mentioned(moved)
    rows = await host.store.fetchall("SELECT kind FROM timers WHERE game_id = ? AND seat = 1", (game_id,))
    assert [row["kind"] for row in rows] == ["deadline"]
    assert f"muted games: #{game_id}" in await host.settings_text(BOB.user_id)
    await host.set_setting(BOB.user_id, "unmute", str(game_id))
    await host.set_setting(BOB.user_id, "mentions", "off")  # mentions off: no ping either, reminders still
    prompt = await host.prompt_of(game_id, BOB.user_id)
    moved = await host.act(game_id, BOB, prompt.choices[0].action)
    assert ALICE.user_id in _mentioned(moved)


async def test_settings_show_defaults_and_refuse_bad_values(host: Host) -> None:
    text = await host.settings_text(ALICE.user_id)
    for line in (
        "`mentions` = `on`",
        "`turn_dms` = `off`",
        "`quiet_hours` = `off`",
        "`time_zone` = `UTC`",
        "`reminders` = `25%`",
    ):
        assert line in text
    assert "muted games: none" in text
    bad = [
        ("time_zone", "Mars/Olympus", "IANA name"),
        ("quiet_hours", "22-7", "two different times"),
        ("quiet_hours", "07:00-07:00", "two different times"),
        ("reminders", "50%,0%", "1% to 99%"),
        ("reminders", "90%,50%,20%,10%", "At most 3"),
        ("mentions", "loud", "on or off for mentions"),
        ("colour", "red", "no setting"),
        ("mute", "12; DROP TABLE", "by its number"),
        ("mute", "99", "no seat in game #99"),
    ]
    for key, value, error in bad:
        with pytest.raises(HostError, match=error):
            await host.set_setting(ALICE.user_id, key, value)
    await host.set_setting(ALICE.user_id, "quiet_hours", " 22:30 - 06:45 ")
    assert (await host.get_settings(ALICE.user_id))["quiet_hours"] == "22:30-06:45"


def test_quiet_hours_end_when_the_clock_reaches_their_end_across_daylight_saving() -> None:
    """Issue 42: an end the spring-forward night skips (02:30 in Paris) comes as the clocks jump past it (03:00
    CEST); an end the fall-back night shows twice comes at its first showing still ahead."""
    from datetime import UTC, datetime

    def utc(text: str) -> float:
        return datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()

    assert quiet_until(utc("2030-03-30T22:30"), "23:00-02:30", "Europe/Paris") == utc("2030-03-31T01:00")
    assert quiet_until(utc("2030-10-26T23:30"), "01:00-02:30", "Europe/Paris") == utc("2030-10-27T00:30")
    assert quiet_until(utc("2030-10-27T01:10"), "01:00-02:30", "Europe/Paris") == utc("2030-10-27T01:30")
    assert quiet_until(utc("2030-03-18T09:15"), "22:00-07:00", "Pacific/Chatham") == utc("2030-03-18T17:15")
    assert quiet_until(utc("2030-03-18T08:30"), "22:00-07:00", "Pacific/Marquesas") == utc("2030-03-18T16:30")
