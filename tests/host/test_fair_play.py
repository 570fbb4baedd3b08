"""Issue 25: offers bound to the live turn, who may do what, bounded resources (host level)."""

from __future__ import annotations

import pytest

from bot.host import Host, HostError
from bot.hosting.core import LOBBY_IDLE_S, MAX_OPEN_LOBBIES, offer_key
from bot.models import Actor, Delivery
from rules.engine import State
from rules.engine.registry import register, unregister
from tests.conftest import ALICE, BOB, CAROL
from tests.support.games import SealedGuess

CHANNEL = "fair"
MOD = Actor("99", "mod", can_manage=True)


async def _start(host: Host, game_key: str, *players, deadline_hours: float = 2.0, **options) -> int:
    info = await host.create_game("g", CHANNEL, players[0], game_key, options, deadline_hours=deadline_hours)
    for player in players[1:]:
        await host.join(CHANNEL, player)
    await host.start(CHANNEL, players[0], order="given")
    return info.game_id


def _offers(deliveries: list[Delivery]) -> list[Delivery]:
    return [d for d in deliveries if d.prompt and d.prompt.expiry_id]


def _closed(deliveries: list[Delivery], offer: Delivery) -> bool:
    """Whether ``deliveries`` edit the offer's message to take its buttons off."""
    return any(d.edit_key == offer.edit_key and d.prompt is None for d in deliveries)


async def _alice_late(host: Host, clock) -> tuple[int, Delivery]:
    """Babylone, Alice to move with a 2 h deadline that passes: Bob gets the claim / wait / AI offer."""
    game_id = await _start(host, "babylone", ALICE, BOB, first="1")
    clock.advance(2 * 3600)
    (offer,) = _offers(await host.fire_due_timers())
    assert offer.edit_key == offer_key(offer.prompt.expiry_id)
    return game_id, offer


@pytest.mark.parametrize("choice", ["claim", "ai"])
async def test_an_offer_is_refused_after_pause_and_resume(host: Host, clock, choice: str) -> None:
    game_id, offer = await _alice_late(host, clock)
    await host.pause(CHANNEL, ALICE)
    paused = await host.pause(CHANNEL, BOB)
    assert _closed(paused, offer)  # the pause takes the offer's buttons off
    await host.resume(CHANNEL, ALICE)
    await host.resume(CHANNEL, BOB)
    with pytest.raises(HostError, match="offer is closed"):
        await host.answer_expiry(game_id, BOB, offer.prompt.expiry_id, choice)
    info = await host.game_info(game_id)
    assert info.status == "active" and not info.seats[0].is_ai and info.pending_users == [ALICE.user_id]


@pytest.mark.parametrize("choice", ["claim", "ai"])
async def test_an_offer_is_refused_after_a_move_and_its_undo(host: Host, clock, choice: str) -> None:
    game_id, offer = await _alice_late(host, clock)
    before = (await host.game_info(game_id)).pending_users
    move = (await host.prompt_of(game_id, ALICE.user_id)).choices[0].action
    moved = await host.act(game_id, ALICE, move)
    assert _closed(moved, offer)  # the turn changed: the buttons go at once
    await host.undo(CHANNEL, ALICE)
    assert (await host.game_info(game_id)).pending_users == before  # the same decision, a fresh deadline
    with pytest.raises(HostError, match="offer is closed"):
        await host.answer_expiry(game_id, BOB, offer.prompt.expiry_id, choice)
    info = await host.game_info(game_id)
    assert info.status == "active" and not info.seats[0].is_ai


async def test_keep_waiting_closes_the_offer_and_a_second_click_is_refused(host: Host, clock) -> None:
    game_id, offer = await _alice_late(host, clock)
    await host.answer_expiry(game_id, BOB, offer.prompt.expiry_id, "wait")
    with pytest.raises(HostError, match="offer is closed"):
        await host.answer_expiry(game_id, BOB, offer.prompt.expiry_id, "claim")
    assert (await host.game_info(game_id)).status == "active"


@pytest.mark.parametrize("forged", ["0:r1s0", "", "../..", "0" * 16, "x" * 500])
async def test_a_forged_or_old_style_offer_id_is_refused(host: Host, clock, forged: str) -> None:
    game_id, _offer = await _alice_late(host, clock)
    with pytest.raises(HostError, match="offer is closed"):
        await host.answer_expiry(game_id, BOB, forged, "claim")
    assert (await host.game_info(game_id)).status == "active"


async def test_a_live_offer_still_works(host: Host, clock) -> None:
    game_id, offer = await _alice_late(host, clock)
    await host.answer_expiry(game_id, BOB, offer.prompt.expiry_id, "claim")
    info = await host.game_info(game_id)
    assert info.status == "finished" and info.result["winners"] == [1]


class GuessWithoutDefault(SealedGuess):
    """A sealed decision with no deadline default: a late seat leaves the others an offer."""

    key = "test-guess-without-default"

    def on_deadline(self, state: State, seat: int) -> str | None:
        return None


@pytest.fixture
def no_default_game():
    game = GuessWithoutDefault()
    register(game)
    yield game
    unregister(game.key)


async def test_each_late_seat_of_a_sealed_decision_has_its_own_offer(
    host: Host, clock, no_default_game
) -> None:
    game_id = await _start(host, no_default_game.key, ALICE, BOB, CAROL)
    await host.act(game_id, ALICE, "pick 1")
    clock.advance(2 * 3600)
    offers = _offers(await host.fire_due_timers())
    by_seat = {offer.prompt.seat: offer for offer in offers}
    assert set(by_seat) == {1, 2}
    sealed = await host.act(game_id, BOB, "pick 2")  # Bob answers late: his offer closes, Carol's stays
    assert _closed(sealed, by_seat[1]) and not _closed(sealed, by_seat[2])
    with pytest.raises(HostError, match="offer is closed"):
        await host.answer_expiry(game_id, CAROL, by_seat[1].prompt.expiry_id, "claim")
    await host.answer_expiry(game_id, ALICE, by_seat[2].prompt.expiry_id, "ai")
    assert (await host.game_info(game_id)).seats[2].is_ai


# ---- bounded resources: lobbies ------------------------------------------------------------------------------


async def test_a_user_keeps_at_most_three_open_lobbies(host: Host) -> None:
    for number in range(MAX_OPEN_LOBBIES):
        await host.create_game("g", f"room-{number}", ALICE, "babylone")
    with pytest.raises(HostError, match="already have 3 open lobbies") as refused:
        await host.create_game("g", "room-9", ALICE, "babylone")
    assert "<#room-0>" in str(refused.value)
    await host.create_game("g", "room-9", BOB, "babylone")  # the cap is per person
    await host.abandon("room-0", ALICE)
    await host.create_game("g", "room-9b", ALICE, "babylone")


async def test_an_idle_lobby_closes_by_itself_and_a_touched_one_waits_longer(host: Host, clock) -> None:
    info = await host.create_game("g", CHANNEL, ALICE, "babylone")
    clock.advance(LOBBY_IDLE_S - 3600)
    await host.join(CHANNEL, BOB)  # a change: the week counts from here
    clock.advance(3600)
    assert await host.fire_due_timers() == []
    assert (await host.game_info(info.game_id)).status == "lobby"
    clock.advance(LOBBY_IDLE_S)
    (closed,) = await host.fire_due_timers()
    assert "closed after 7 days without a start" in closed.text and closed.edit_key == "lobby"
    assert (await host.game_info(info.game_id)).status == "abandoned"
    assert await host.next_timer_due() is None
    await host.create_game("g", CHANNEL, ALICE, "babylone")  # the channel is free again


async def test_the_lobby_timer_survives_a_restart(database, clock) -> None:
    first = await Host.open(database, clock=clock)
    info = await first.create_game("g", CHANNEL, ALICE, "babylone")
    await first.close()
    clock.advance(LOBBY_IDLE_S + 1)
    second = await Host.open(database, clock=clock)
    try:
        assert await second.fire_due_timers()
        assert (await second.game_info(info.game_id)).status == "abandoned"
    finally:
        await second.close()


async def test_a_started_game_leaves_its_lobby_timer_idle(host: Host, clock) -> None:
    game_id = await _start(host, "babylone", ALICE, BOB, deadline_hours=168.0, first="1")
    clock.advance(LOBBY_IDLE_S + 1)
    await host.fire_due_timers()
    assert (await host.game_info(game_id)).status == "active"


# ---- bounded resources: the games and locks a process keeps --------------------------------------------------


class QueryCounter:
    """Counts the store's reads while installed."""

    def __init__(self, host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        for name in ("fetchone", "fetchall"):
            original = getattr(host.store, name)

            async def counted(*args, _original=original, **kwargs):
                self.count += 1
                return await _original(*args, **kwargs)

            monkeypatch.setattr(host.store, name, counted)


async def test_the_known_games_are_bounded_and_a_hot_game_still_loads_in_one_query(
    host: Host, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(host.games.known, "size", 8)  # noqa: SLF001 - a small bound, to go past it quickly
    first = await _start(host, "babylone", ALICE, BOB, first="1")
    others = []
    for number in range(12):  # more games than the bound
        channel = f"other-{number}"
        info = await host.create_game("g", channel, ALICE, "babylone", {"first": "1"})
        await host.join(channel, BOB)
        await host.start(channel, ALICE, order="given")
        others.append(info.game_id)
    assert len(host.games.known) == 8 and first not in host.games.known  # noqa: SLF001 - the oldest went first
    hot = others[-1]
    await host.act(hot, ALICE, (await host.prompt_of(hot, ALICE.user_id)).choices[0].action)
    counter = QueryCounter(host, monkeypatch)
    await host.games.load(hot)  # noqa: SLF001 - the game this process stored last: its row only
    assert counter.count == 1
    live = await host.games.load(first)  # noqa: SLF001 - forgotten: rebuilt from its snapshot and events
    assert counter.count > 2 and live.state == await host.replay_state(first)


async def test_a_lock_is_kept_while_held_or_awaited_and_dropped_after(host: Host) -> None:
    import asyncio
    import gc

    order: list[str] = []

    async def hold(name: str, pause: float) -> None:
        async with host.games.lock(7):  # noqa: SLF001
            order.append(f"{name} in")
            gc.collect()  # nothing may drop the lock the other task waits on
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    await asyncio.gather(hold("a", 0.01), hold("b", 0))
    assert order == ["a in", "a out", "b in", "b out"]
    gc.collect()
    assert 7 not in host.games._locks  # noqa: SLF001
