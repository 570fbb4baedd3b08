"""Away mode (/away) across every game: the AI answers, channels are told, deadlines do not wait, allowance."""

from __future__ import annotations

import random

import pytest

from bot.host import Actor, Delivery, Host, HostError
from tests.conftest import ALICE, BOB, CAROL, MOD

DAY = 86400.0
ADMIN = Actor("900", "admin", can_manage_server=True)


async def _start(host: Host, guild: str, channel: str) -> int:
    info = await host.create_game(guild, channel, ALICE, "babylone", {"first": "1"}, deadline_hours=24)
    await host.join(channel, BOB)
    await host.start(channel, ALICE, order="given")
    return info.game_id


def _texts(deliveries: list[Delivery], channel: str) -> list[str]:
    return [d.text for d in deliveries if d.kind == "public" and d.channel_id == channel]


async def _deadline_seats(host: Host, game_id: int) -> set[int]:
    rows = await host.store.fetchall(
        "SELECT seat FROM timers WHERE game_id = ? AND kind = 'deadline'", (game_id,)
    )
    return {row["seat"] for row in rows}


async def test_away_player_is_played_for_in_every_game_and_comes_back(host: Host, clock) -> None:
    first, second = await _start(host, "g1", "c1"), await _start(host, "g2", "c2")
    assert (await host.game_info(first)).pending_users == [ALICE.user_id]
    left = await host.go_away(ALICE, "2027-01-17", guild_id="g1")  # the fake clock is 2027-01-15 08:00 UTC
    for channel in ("c1", "c2"):
        assert any(t.startswith("alice is away until <t:") for t in _texts(left, channel))
    for game_id in (first, second):
        info = await host.game_info(game_id)
        assert info.seats[0].vacation and info.pending_users == [ALICE.user_id]  # the waiting decision: hers
        prompt = await host.prompt_of(game_id, ALICE.user_id)
        await host.act(game_id, ALICE, prompt.choices[0].action)  # answered, the AI takes her seat (issue 42)
        assert (await host.game_info(game_id)).pending_users == [BOB.user_id]
        assert await _deadline_seats(host, game_id) == {1}  # no deadline waits for alice
        prompt = await host.prompt_of(game_id, BOB.user_id)
        await host.act(game_id, BOB, prompt.choices[0].action)
        assert (await host.game_info(game_id)).pending_users == [BOB.user_id]  # answered at once again
    with pytest.raises(HostError, match="/away off"):
        await host.act(first, ALICE, "anything")
    with pytest.raises(HostError, match="/away off"):
        await host.back("c1", ALICE)
    with pytest.raises(HostError, match="not handed over"):
        await host.sub("c1", MOD, CAROL, seat=0)  # a moderator cannot take the seat of a player on leave
    clock.advance(2 * DAY)
    back = await host.fire_due_timers()
    for channel in ("c1", "c2"):
        assert "alice is back and plays their seat again." in _texts(back, channel)
    for game_id in (first, second):
        assert not (await host.game_info(game_id)).seats[0].is_ai
    assert await host.away_until(ALICE.user_id) is None


async def test_away_off_gives_the_seats_back_at_once(host: Host, clock) -> None:
    game_id = await _start(host, "g1", "c1")
    await host.go_away(ALICE, "2027-01-20 12:00", guild_id="g1")
    prompt = await host.prompt_of(game_id, ALICE.user_id)  # the decision waiting when she left stays hers
    await host.act(game_id, ALICE, prompt.choices[0].action)
    prompt = await host.prompt_of(game_id, BOB.user_id)
    await host.act(game_id, BOB, prompt.choices[0].action)
    clock.advance(DAY)
    back = await host.come_back(ALICE)
    assert "alice is back and plays their seat again." in _texts(back, "c1")
    info = await host.game_info(game_id)
    assert not info.seats[0].is_ai and not info.seats[0].vacation
    prompt = await host.prompt_of(game_id, BOB.user_id)
    await host.act(game_id, BOB, prompt.choices[0].action)
    assert (await host.game_info(game_id)).pending_users == [ALICE.user_id]  # the AI answers no more
    assert 0 in await _deadline_seats(host, game_id)
    assert await host.away_days_used(ALICE.user_id, 2027) == 1  # the unused whole days come back
    clock.advance(10 * DAY)
    later = await host.fire_due_timers()  # alice's own deadline passes; the old period's end does nothing
    assert not any("away" in t or "is back" in t for t in _texts(later, "c1"))
    with pytest.raises(HostError, match="not away"):
        await host.come_back(ALICE)


async def test_yearly_allowance_is_enforced_and_set_per_server(host: Host, clock) -> None:
    await _start(host, "g1", "c1")
    with pytest.raises(HostError, match=r"14 away days left in 2027 \(14 a year"):
        await host.go_away(ALICE, "2027-02-15", guild_id="g1")
    with pytest.raises(HostError, match="Manage Server"):
        await host.set_away_allowance("g1", ALICE, 40)
    with pytest.raises(HostError, match="between 0 and 366"):
        await host.set_away_allowance("g1", ADMIN, 1000)
    await host.set_away_allowance("g1", ADMIN, 40)
    await host.go_away(ALICE, "2027-02-15", guild_id="g1")
    await host.come_back(ALICE)
    await _start(host, "g2", "c2")
    await host.set_away_allowance("g2", ADMIN, 3)  # away mode covers every server: the strictest rule holds
    with pytest.raises(HostError, match="a server where you play"):
        await host.go_away(ALICE, "2027-01-20", guild_id="g1")
    await host.go_away(ALICE, "2027-01-17", guild_id="g1")  # 1 day 16 h: 2 whole days, beside the day used
    assert "Away days used in 2027: 3 of 3." in await host.away_text(ALICE.user_id)


@pytest.mark.parametrize(
    ("text", "error"),
    [("next tuesday", "could not read"), ("2027-02-30", "not a real date"), ("2027-01-01", "has passed")],
)
async def test_away_dates_are_read_strictly(host: Host, text: str, error: str) -> None:
    with pytest.raises(HostError, match=error):
        await host.go_away(ALICE, text)


async def test_a_game_started_while_away_is_covered(host: Host, clock) -> None:
    await host.go_away(ALICE, "2027-01-17")
    game_id = await _start(host, "g1", "c1")
    info = await host.game_info(game_id)
    assert info.seats[0].vacation and info.pending_users == [BOB.user_id]


async def test_an_away_players_standing_orders_answer_before_the_ai(host: Host) -> None:
    """Issue 19: while away, the player's standing orders answer first (as their own answers, by their user id),
    the AI the rest."""
    info = await host.create_game("g1", "p1", ALICE, "principes", {}, seed=4)
    await host.join("p1", BOB)
    await host.start("p1", ALICE, order="given")
    topics = (
        "taxes",
        "windows",
        "consent",
        "council",
        "release",
        "division",
        "urbanization",
        "history_build",
    )
    choices = {"taxes": "collect", "windows": "pass", "consent": "deny", "council": "keep"}
    for topic in topics:
        await host.set_order("p1", ALICE, topic, choices.get(topic, "default"))
    await host.go_away(ALICE, "2027-01-20", guild_id="g1")
    rng = random.Random(4)
    for _ in range(400):
        game = await host.game_info(info.game_id)
        if game.status != "active" or BOB.user_id not in game.pending_users:
            break
        prompt = await host.prompt_of(info.game_id, BOB.user_id)
        await host.act(info.game_id, BOB, rng.choice(prompt.choices).action)
    events = await host.store.events(info.game_id, 0)
    alice_seat = next(
        s.seat for s in (await host.game_info(info.game_id)).seats if s.user_id == ALICE.user_id
    )
    by = {event.user_id for event in events if event.seat == alice_seat}
    assert ALICE.user_id in by, "an order answered for alice while she was away"
    assert any(who and who.startswith("ai:") for who in by), "the AI decided what no order covers"
