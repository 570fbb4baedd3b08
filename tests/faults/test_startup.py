"""Start-up over many stored games (small: the benchmark does 10,000 with ``python -m bench startup``), and the
start-up catch-up that finishes AI turns a crash interrupted without loading every other game."""

from __future__ import annotations

from pathlib import Path

from bench.bench_startup import TEMPLATES, build, start_once
from bot.host import Host
from bot.hosting.queries import games_awaiting_ai
from tests.conftest import ALICE

CHANNEL = "chan-crash"


async def test_a_start_up_over_copied_games_arms_their_timers_and_loads_them(tmp_path: Path) -> None:
    database = str(tmp_path / "many.sqlite3")
    quick = [(key, people, players, min(turns, 4)) for key, people, players, turns in TEMPLATES]
    counts = await build(database, 3 * len(TEMPLATES), quick)
    assert counts["active"] == 3 * len(TEMPLATES) and counts["timers"] >= counts["active"]
    startup = await start_once(database)
    assert startup.active_games == counts["active"]
    host = await Host.open(database)
    try:
        due = await host.store.fetchone("SELECT MIN(due) FROM timers")
        assert due is not None and startup.next_due == due[0]
        rows = await host.store.fetchall("SELECT id FROM games WHERE status = 'active' ORDER BY id")
        for row in rows[-len(TEMPLATES) :]:  # the copies are games the host can load and play on
            info = await host.game_info(row["id"])
            assert info.pending_users and all(user.endswith(f"-{row['id']}") for user in info.pending_users)
            assert (await host.games.load(row["id"])).state == await host.replay_state(row["id"])
    finally:
        await host.close()


async def test_start_up_finishes_an_ai_turn_a_crash_interrupted(host: Host) -> None:
    await host.create_game("guild", CHANNEL, ALICE, "babylone", {"first": "1"})
    await host.add_ai(CHANNEL, ALICE, "easy")
    game_id = (await host.start(CHANNEL, ALICE, order="given"))[0].game_id
    assert await games_awaiting_ai(host.store) == []  # waiting on alice, whose deadline is armed
    async with host.games.lock(game_id):  # alice's move stored, then the crash: the AI never answered
        live = await host.games.load(game_id)
        move = host.prompt_for(live, 0, live.game.pending(live.state)[0]).choices[0].action
        await host.play.act_locked(live, 0, ALICE.user_id, move, None)
    assert (await host.game_info(game_id)).pending_users == []
    assert await games_awaiting_ai(host.store) == [game_id]
    deliveries = await host.resume_all()
    assert deliveries and (await host.game_info(game_id)).pending_users == [ALICE.user_id]
    assert await games_awaiting_ai(host.store) == []
