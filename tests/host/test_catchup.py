"""The catch-up digest through the host: a turn's DM is flagged to open on it, ``turn_digest`` gives it only when
there is more to tell than the turn's own message, ``catchup`` always answers, and both show what the seat's
own views show (the digest is built from the stored events, replayed for that seat)."""

from __future__ import annotations

import json
import random

from bot.digest import build_digest, last_action_index
from bot.host import Actor, Host
from bot.hosting.catchup import TURN_DIGEST_MIN_EVENTS
from tests.conftest import ALICE, BOB, CAROL

CHANNEL = "catchup"


async def _play(host: Host, game_id: int, players: list[Actor], actions: int, seed: int) -> list:
    """Random legal play by the people of ``players`` for ``actions`` actions; the deliveries made."""
    rng = random.Random(seed)
    deliveries = []
    for _ in range(actions):
        info = await host.game_info(game_id)
        if info.status != "active":
            break
        waiting = [u for u in info.pending_users if not await host.has_sealed(game_id, u)]
        actor = next(p for p in players if p.user_id in waiting)
        prompt = await host.prompt_of(game_id, actor.user_id)
        assert prompt is not None and prompt.choices
        deliveries += await host.act(game_id, actor, rng.choice(prompt.choices).action)
    return deliveries


async def _expected(host: Host, game_id: int, seat: int, user_id: str):
    """The digest built straight from the stored events, as a test would by hand."""
    row = await host.store.fetchone("SELECT options FROM games WHERE id = ?", (game_id,))
    events = await host.store.events(game_id, -1)
    live = await host._load(game_id)
    records = events[1:]
    return build_digest(
        live.game,
        json.loads(row["options"]),
        events[0].draws,
        records,
        [s.name for s in live.seats],
        seat,
        last_action_index(records, seat, user_id),
    )


async def test_a_principes_turn_dm_opens_on_what_the_seat_may_see(host: Host) -> None:
    players = [ALICE, BOB, CAROL]
    info = await host.create_game("guild", CHANNEL, ALICE, "principes", {}, seed=5)
    for player in players[1:]:
        await host.join(CHANNEL, player)
    await host.start(CHANNEL, ALICE, order="given")
    deliveries = await _play(host, info.game_id, players, 60, seed=5)
    turn_dms = [d for d in deliveries if d.kind == "private" and d.catchup]
    assert turn_dms, "a fresh decision's DM asks for the digest"
    assert all(d.prompt is not None for d in turn_dms)
    told = 0
    for seat, player in enumerate(players):
        caught = await host.turn_digest(info.game_id, seat)
        expected = await _expected(host, info.game_id, seat, player.user_id)
        by_others = sum(len(g.steps) for g in expected.groups if g.seat != seat)
        if by_others < TURN_DIGEST_MIN_EVENTS:
            assert caught is None
            continue
        told += 1
        assert caught is not None
        assert caught.before == expected.before and caught.after == expected.after
        live = await host._load(info.game_id)
        assert caught.after == host._view(live, seat)  # the seat's own view now, as /hand shows it
        assert "since your last move" in caught.text and len(caught.text) <= 2000
        assert "Seat " not in caught.text and "{seat:" not in caught.text
        asked = await host.catchup(CHANNEL, player)
        assert asked.text == caught.text
    assert told, "in 60 actions of a 3-player game somebody has something to catch up on"


async def test_one_move_by_the_other_player_is_no_turn_digest_but_catchup_answers(host: Host) -> None:
    info = await host.create_game("guild", CHANNEL, ALICE, "babylone", {"first": "1"}, seed=3)
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    asked = await host.catchup(CHANNEL, ALICE)
    assert "nothing new" in asked.text and asked.before is None
    await _play(host, info.game_id, [ALICE, BOB], 3, seed=3)  # alice, bob, alice: bob's turn
    live = await host._load(info.game_id)
    waiting = next(iter(live.game.pending(live.state)))
    assert await host.turn_digest(info.game_id, waiting) is None  # the turn's message shows that one move
    asked = await host.catchup(CHANNEL, [ALICE, BOB][waiting])
    assert asked.before is not None and asked.after is not None
    assert live.seats[1 - waiting].name in asked.text
    assert "{seat:" not in asked.text and f"- {live.seats[1 - waiting].name} moves stack" in asked.text
