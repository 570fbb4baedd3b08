"""Issue 47: a decision prompt sent by DM loses its buttons when its decision closes, however it closed (by a
/move, a standing order, an answer given ahead or the automatic pass). Two players play the first Round of a
seeded PRINCIPES game and into the next through the fake Discord, both holding the typical standing orders, the
clock jumping past each order's moment; then no DM may still carry enabled buttons of a decision that is closed."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import pytest

from bench.bench_pace import TYPICAL_ORDERS
from tests.e2e.conftest import Table
from tests.e2e.fake_discord import FakeDiscord, FakeUser
from tests.e2e.test_answers_ahead import BOB_PLAN, Players, _script, seeded_principes

DECISION_BUTTONS = ("pt:c:", "pt:s:", "pt:m:")
STEPS = 70


async def _open_stale(table: Table, fake: FakeDiscord, game_id: int, users: list[FakeUser]) -> list[str]:
    """The DM messages whose buttons answer a decision that is no longer open for their seat."""
    host = table.running.host
    live = await host.games.load(game_id)
    pending = live.game.pending(live.state) if live.row["status"] == "active" else {}
    sealed = await host.games.sealed_for(live) if pending else {}
    stale = []
    for user in users:
        for message in fake.dm_messages(user):
            for custom_id in message.custom_ids():
                if not custom_id.startswith(DECISION_BUTTONS):
                    continue
                parts = custom_id.split(":")
                if int(parts[2]) != game_id:
                    continue
                seat, decision_id = int(parts[3]), unquote(parts[4])
                decision = pending.get(seat)
                if decision is None or decision.id != decision_id or seat in sealed:
                    stale.append(f"{user.name}: {decision_id} ({message.content[:60]!r})")
                    break
    return stale


async def test_a_dm_prompt_loses_its_buttons_when_its_decision_closes(
    table: Table, fake: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, alice, bob = await seeded_principes(table, fake, monkeypatch)
    for user in (alice, bob):
        for topic, order in TYPICAL_ORDERS["principes"].items():
            names: dict[str, Any] = {"names": ",".join(order.names)} if order.names else {}
            await table.slash(user, "orders", topic=topic, choice=order.choice, **names)
    players = Players(table, game_id, alice, bob)
    host = table.running.host
    closed_by_timer = 0
    for _ in range(STEPS):
        live = await host.games.load(game_id)
        if live.row["status"] != "active":
            break
        events = len(await host.store.events(game_id, 0))
        table.clock.advance(121)  # past every order's and automatic pass's moment
        await table.running.timers.fire_once()
        await table.running.wait_idle()
        if len(await host.store.events(game_id, 0)) > events:
            closed_by_timer += 1
            continue
        for user in (alice, bob):
            prompt = await players.open_prompt(user)
            if prompt is not None:
                await table.slash(user, "move", notation=_script(prompt, BOB_PLAN))
                break
    assert closed_by_timer > 0  # some decisions were closed by an order or the automatic pass
    assert await _open_stale(table, fake, game_id, [alice, bob]) == []
    assert not table.running.unexpected_errors
