"""Sealed decisions (commit and reveal) and deadlines with an injected clock."""

from __future__ import annotations

import hashlib

import pytest

from bot.host import Host, HostError, commit_hash
from bot.models import CLOSE_KIND
from rules.engine.registry import register, unregister
from tests.conftest import ALICE, BOB, CAROL
from tests.support.games import SealedGuess

CHANNEL = "sealed"


async def _start(host: Host, game_key: str, *players, deadline_hours: float = 24.0, **options) -> int:
    info = await host.create_game("g", CHANNEL, players[0], game_key, options, deadline_hours=deadline_hours)
    for player in players[1:]:
        await host.join(CHANNEL, player)
    await host.start(CHANNEL, players[0], order="given")
    return info.game_id


async def test_sealed_choices_commit_then_reveal_together(host: Host, sealed_game) -> None:
    game_id = await _start(host, sealed_game.key, ALICE, BOB, CAROL)
    assert await host.is_sealed_input(game_id, ALICE.user_id)
    first = await host.act(game_id, ALICE, "pick 3")
    # the channel's line, and her sealed decision's DM losing its buttons (which posts nothing)
    posted = [d for d in first if d.kind != CLOSE_KIND]
    assert len(posted) == 1 and "alice has sealed" in posted[0].text
    assert [(d.kind, d.user_id) for d in first if d.kind == CLOSE_KIND] == [(CLOSE_KIND, ALICE.user_id)]
    commit = first[0].text.split("`")[1]
    assert "3" not in first[0].text.replace(commit, "")  # the choice itself is not in the message
    with pytest.raises(HostError, match="cannot be changed"):
        await host.act(game_id, ALICE, "pick 1")
    with pytest.raises(HostError, match="Pick 1, 2 or 3"):
        await host.act(game_id, BOB, "pick 9")  # judged when sealed, not at the reveal
    await host.act(game_id, BOB, "pick 2")
    state = (await host.games.load(game_id)).state
    assert state["picks"] == [None, None, None]  # nothing applied before the last seal
    last = await host.act(game_id, CAROL, "pick 2")
    assert any("Round 1: picks [3, 2, 2]. alice scores." in d.text for d in last)
    record = await host.sealed_record(game_id)
    assert len(record) == 3
    for row in record:  # every published commit is the hash of what was applied
        assert row["commit_hash"] == commit_hash(
            row["nonce"], game_id, row["decision_id"], row["seat"], row["action"]
        )
        expected = f"{row['nonce']}|{game_id}|{row['decision_id']}|{row['seat']}|{row['action']}"
        assert row["commit_hash"] == hashlib.sha256(expected.encode()).hexdigest()
    assert record[0]["commit_hash"] == commit


async def test_sealed_game_reveals_nonces_at_the_end(host: Host, sealed_game) -> None:
    game_id = await _start(host, sealed_game.key, ALICE, BOB)
    deliveries = []
    for _ in range(2):
        deliveries += await host.act(game_id, ALICE, "pick 3")
        deliveries += await host.act(game_id, BOB, "pick 1")
    info = await host.game_info(game_id)
    assert info.status == "finished" and info.result["winners"] == [0]
    # a private prompt went to each seat by DM for each sealed decision, never their picks to others
    private = [d for d in deliveries if d.kind == "private"]
    assert private and all(d.view is not None and "secret-pick" not in str(d.view) for d in private)
    reveal = [d for d in deliveries if d.text.startswith("Sealed choices")]
    assert len(reveal) == 1 and len(reveal[0].attachments) == 1
    for row in await host.sealed_record(game_id):
        assert row["nonce"] in reveal[0].attachments[0].text
        assert row["commit_hash"] in reveal[0].attachments[0].text
    assert "alice scores" in await host.log(CHANNEL)


async def test_reminder_then_default_on_deadline(host: Host, sealed_game, clock) -> None:
    game_id = await _start(host, sealed_game.key, ALICE, BOB, deadline_hours=10)
    await host.act(game_id, ALICE, "pick 2")
    due = await host.next_timer_due()
    assert due == pytest.approx(clock.now + 7.5 * 3600)
    clock.advance(7.5 * 3600)
    reminders = await host.fire_due_timers()
    assert len(reminders) == 1 and "Reminder" in reminders[0].text  # alice has sealed: no reminder for her
    assert reminders[0].mentions == [BOB.user_id]
    clock.advance(2.5 * 3600)
    fired = await host.fire_due_timers()
    texts = " ".join(d.text for d in fired)
    assert "bob's deadline passed" in texts and "Round 1: picks [2, 1]" in texts
    assert await host.fire_due_timers() == []  # each timer fires once


async def test_no_default_offers_claim_and_ai_takeover(host: Host, clock) -> None:
    game_id = await _start(host, "babylone", ALICE, BOB, deadline_hours=1, first="1")
    clock.advance(3600)
    fired = await host.fire_due_timers()
    offer = [d for d in fired if d.prompt and d.prompt.expiry_id]
    assert len(offer) == 1 and offer[0].mentions == [BOB.user_id]
    expiry = offer[0].prompt.expiry_id
    with pytest.raises(HostError, match="other players"):
        await host.answer_expiry(game_id, ALICE, expiry, "claim")
    await host.answer_expiry(game_id, BOB, expiry, "wait")
    clock.advance(3600)
    await host.fire_due_timers()  # second miss in a row: the AI stands in
    info = await host.game_info(game_id)
    assert info.seats[0].away and info.pending_users == [BOB.user_id]
    prompt = await host.prompt_of(game_id, BOB.user_id)
    await host.act(game_id, BOB, prompt.choices[0].action)
    await host.back(CHANNEL, ALICE)
    assert not (await host.game_info(game_id)).seats[0].away


async def test_claim_ends_the_game(host: Host, clock) -> None:
    game_id = await _start(host, "babylone", ALICE, BOB, deadline_hours=1, first="2")
    clock.advance(3601)
    offer = [d for d in await host.fire_due_timers() if d.prompt and d.prompt.expiry_id][0]
    deliveries = await host.answer_expiry(game_id, ALICE, offer.prompt.expiry_id, "claim")
    info = await host.game_info(game_id)
    assert info.status == "finished" and info.result["winners"] == [0]
    assert "alice wins" in deliveries[0].text
    assert await host.next_timer_due() is None


async def test_timers_survive_a_restart(database, clock, sealed_game) -> None:
    first = await Host.open(database, clock=clock)
    await _start(first, sealed_game.key, ALICE, BOB, deadline_hours=2)
    due = await first.next_timer_due()
    await first.close()
    second = await Host.open(database, clock=clock)
    try:
        assert await second.next_timer_due() == due
        clock.advance(2 * 3600)
        fired = await second.fire_due_timers()
        assert any("deadline passed" in d.text for d in fired)
    finally:
        await second.close()


class _OnlyPass(SealedGuess):
    """A sealed test game in which seat 2 never has a real choice: the host may pass for it."""

    key = "test-only-pass"

    def auto_pass(self, state, seat):
        return "pick 1" if seat == 1 and seat in self.pending(state) else None


@pytest.fixture
def only_pass_game():
    game = _OnlyPass()
    register(game)
    yield game
    unregister(game.key)


async def test_auto_pass_after_a_random_delay_unless_turned_off(host: Host, clock, only_pass_game) -> None:
    host.autopass_rng.seed(1)
    game_id = await _start(host, only_pass_game.key, ALICE, BOB)
    due = await host.next_timer_due()
    assert clock.now + 20 <= due <= clock.now + 120  # a random moment, not at once
    clock.advance(120)
    fired = await host.fire_due_timers()
    assert any("bob has sealed" in d.text for d in fired)
    assert await host.has_sealed(game_id, BOB.user_id) and not await host.has_sealed(game_id, ALICE.user_id)
    await host.act(game_id, ALICE, "pick 3")
    assert (await host.games.load(game_id)).state["round"] == 2
    # bob turns automatic passing off: the next round waits for him, even with its timer already armed
    await host.set_setting(BOB.user_id, "autopass", "off")
    await host.act(game_id, ALICE, "pick 2")
    clock.advance(3600)
    assert not any("bob has sealed" in d.text for d in await host.fire_due_timers())
    assert (await host.games.load(game_id)).state["round"] == 2
