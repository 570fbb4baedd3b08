"""The catch-up digest through the host: a turn's DM is flagged to open on it, ``turn_digest`` gives it only when
there is more to tell than the turn's own message, ``catchup`` always answers, and both show what the seat's
own views show (the digest is built from the stored events, replayed for that seat)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.digest import build_digest, digest_text, last_action_index
from bot.host import Actor, Host
from bot.hosting import catchup as catchup_module
from bot.hosting.catchup import CATCHUP_CACHE, TURN_DIGEST_MIN_EVENTS
from bot.hosting.core import LruCache
from bot.hosting.live import seat_view
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
    assert row is not None
    events = await host.store.events(game_id, -1)
    live = await host.games.load(game_id)
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
        live = await host.games.load(info.game_id)
        assert caught.after == seat_view(live, seat)  # the seat's own view now, as /hand shows it
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
    live = await host.games.load(info.game_id)
    waiting = next(iter(live.game.pending(live.state)))
    assert await host.turn_digest(info.game_id, waiting) is None  # the turn's message shows that one move
    asked = await host.catchup(CHANNEL, [ALICE, BOB][waiting])
    assert asked.before is not None and asked.after is not None
    assert live.seats[1 - waiting].name in asked.text
    assert "{seat:" not in asked.text and f"- {live.seats[1 - waiting].name} moves stack" in asked.text


# ---- issue 46: from the nearest snapshot, answers kept while the game stands still ---------------------------
DAVE = Actor("400", "dave")


class BuildSpy:
    """Wraps ``build_digest`` as the host calls it: counts the builds and notes where each one started."""

    def __init__(self) -> None:
        self.starts: list[int] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = args[7] if len(args) > 7 else kwargs.get("start")
        self.starts.append(0 if start is None else start[0])
        return build_digest(*args, **kwargs)


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> BuildSpy:
    spy = BuildSpy()
    monkeypatch.setattr(catchup_module, "build_digest", spy)
    return spy


async def _principes(host: Host, players: list[Actor], seed: int) -> int:
    info = await host.create_game("guild", CHANNEL, players[0], "principes", {}, seed=seed)
    for player in players[1:]:
        await host.join(CHANNEL, player)
    await host.start(CHANNEL, players[0], order="given")
    return info.game_id


async def _same_as_from_the_setup(host: Host, game_id: int, players: list[Actor]) -> int:
    """Every seat's ``/catchup`` and turn digest equal the digest replayed from the setup over every stored
    event (text and both views); returns how many had something to tell."""
    told = 0
    for seat, player in enumerate(players):
        expected = await _expected(host, game_id, seat, player.user_id)
        asked = await host.catchup(CHANNEL, player)
        turn = await host.turn_digest(game_id, seat)
        if not expected.groups:
            assert asked.before is None and "nothing new" in asked.text and turn is None
            continue
        told += 1
        live = await host.games.load(game_id)
        heading = f"{live.game.title} #{game_id}: since your last move"
        assert asked.text == digest_text(expected, heading)
        assert asked.before == expected.before and asked.after == expected.after
        assert turn is None or turn == asked
    return told


@pytest.mark.parametrize(("seed", "players"), [(11, 4), (12, 4), (13, 3)])
async def test_catchup_from_a_snapshot_equals_the_digest_replayed_from_the_setup(
    host: Host, builds: BuildSpy, seed: int, players: int
) -> None:
    people = [ALICE, BOB, CAROL, DAVE][:players]
    game_id = await _principes(host, people, seed)
    told = 0
    for round_number in range(6):
        await _play(host, game_id, people, 23, seed=seed * 10 + round_number)
        told += await _same_as_from_the_setup(host, game_id, people)
    snapshots = await host.store.fetchall("SELECT seq FROM snapshots WHERE game_id = ?", (game_id,))
    assert len(snapshots) >= 5, "snapshots every 25 events"
    assert told and any(start > 0 for start in builds.starts), "digests began at snapshots after the setup"


async def test_a_game_with_no_snapshot_is_caught_up_from_its_setup(host: Host, builds: BuildSpy) -> None:
    people = [ALICE, BOB, CAROL]
    game_id = await _principes(host, people, 14)
    await _play(host, game_id, people, 60, seed=14)
    async with host.store.transaction() as db:  # as an imported game, or one stored before snapshots began
        await db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))
    assert await _same_as_from_the_setup(host, game_id, people)
    assert set(builds.starts) == {0}


async def test_a_repeated_catchup_is_kept_until_the_game_moves(host: Host, builds: BuildSpy) -> None:
    """Asked again with no new event, the answer is the one kept (nothing replayed, the same views, so the
    boards drawn of them are found again); a new event, and an undo (which adds none), make a new one."""
    info = await host.create_game("guild", CHANNEL, ALICE, "babylone", {"first": "1"}, seed=3)
    await host.join(CHANNEL, BOB)
    await host.start(CHANNEL, ALICE, order="given")
    await _play(host, info.game_id, [ALICE, BOB], 4, seed=3)
    live = await host.games.load(info.game_id)
    seat = next(iter(live.game.pending(live.state)))  # the asker: the other player moved last
    asker, other = [ALICE, BOB][seat], [ALICE, BOB][1 - seat]
    asked = await host.catchup(CHANNEL, asker)
    assert asked.before is not None and len(builds.starts) == 1
    assert await host.catchup(CHANNEL, asker) is asked and len(builds.starts) == 1
    await host.turn_digest(info.game_id, seat)  # the same seat's turn digest: the same kept digest
    assert len(builds.starts) == 1

    async def move(actor: Actor) -> None:
        prompt = await host.prompt_of(info.game_id, actor.user_id)
        assert prompt is not None
        await host.act(info.game_id, actor, prompt.choices[0].action)

    await move(asker)
    assert "nothing new" in (await host.catchup(CHANNEL, asker)).text
    await move(other)
    moved = await host.catchup(CHANNEL, asker)
    assert len(builds.starts) == 2 and moved.before is not None
    expected = await _expected(host, info.game_id, seat, asker.user_id)
    assert moved.text == digest_text(expected, f"Babylone #{info.game_id}: since your last move")
    assert await host.catchup(CHANNEL, asker) is moved
    await host.undo(CHANNEL, other)  # that event is marked undone: no new event number, a new version
    undone = await host.catchup(CHANNEL, asker)
    assert "nothing new" in undone.text and undone.before is None


async def test_a_digest_read_while_the_game_moved_is_right_but_not_kept(
    host: Host, builds: BuildSpy, monkeypatch: pytest.MonkeyPatch
) -> None:
    people = [ALICE, BOB, CAROL]
    game_id = await _principes(host, people, 15)
    await _play(host, game_id, people, 50, seed=15)

    async def moved(live: object) -> bool:
        return False

    monkeypatch.setattr(host.catchups, "_still_at", moved)
    assert await _same_as_from_the_setup(host, game_id, people)
    assert not host.catchups._catchups
    before = len(builds.starts)
    await host.catchup(CHANNEL, ALICE)
    assert len(builds.starts) == before + 1, "built again: nothing was kept"


async def test_the_kept_answers_are_bounded() -> None:
    assert CATCHUP_CACHE <= 512
    cache: LruCache[int, int] = LruCache(CATCHUP_CACHE)
    for number in range(CATCHUP_CACHE * 2):
        cache[number] = number
    assert len(cache) == CATCHUP_CACHE and min(cache) == CATCHUP_CACHE


async def test_the_store_reads_the_snapshot_at_or_before_an_event_and_the_events_heads(host: Host) -> None:
    people = [ALICE, BOB, CAROL]
    game_id = await _principes(host, people, 16)
    await _play(host, game_id, people, 60, seed=16)
    stored = [
        row["seq"]
        for row in await host.store.fetchall("SELECT seq FROM snapshots WHERE game_id = ?", (game_id,))
    ]
    assert {0, 25, 50} <= set(stored)
    for seq, expected in ((0, 0), (24, 0), (25, 25), (49, 25), (10_000, max(stored))):
        found = await host.store.snapshot_at_or_before(game_id, seq)
        assert found is not None and found[0] == expected
        latest = await host.store.latest_snapshot(game_id) if expected == max(stored) else None
        assert latest is None or latest == found
    assert await host.store.snapshot_at_or_before(game_id, -1) is None
    events = await host.store.events(game_id, -1)
    heads = await host.store.event_heads(game_id)
    assert [(h.seq, h.seat, h.user_id) for h in heads] == [(e.seq, e.seat, e.user_id) for e in events]
