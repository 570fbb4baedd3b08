"""The kill -9 proof, small: a worker playing games through the host is SIGKILLed and restarted until 60 actions
were acknowledged (the benchmark does 1,000: ``python -m bench faults``)."""

from __future__ import annotations

import asyncio

from bench.bench_faults import FaultReport, Journaled, _absorb, _check, prove
from bot.host import Host
from tests.e2e.fake_discord import NONCE_WINDOW_S


async def test_killed_workers_lose_and_double_nothing(backend: str, database: str) -> None:
    report = await asyncio.to_thread(prove, database, 60, 6, 3, 0.15, backend)
    assert report.ok, report.problems
    assert report.kills >= 2 and report.kills_in_action >= 1 and report.unsent_at_restart >= 1
    assert report.acknowledged >= 60 and report.found == report.acknowledged and report.doubled == 0
    assert report.replays_checked >= 6 and report.replays_differing == 0
    assert report.outbox_rows > report.acknowledged and report.deliveries_lost == 0


async def test_the_checks_see_a_lost_and_a_doubled_action(backend: str, database: str) -> None:
    """The control: a journal claiming an action the database lacks, and a stored move nobody asked for."""
    await asyncio.to_thread(prove, database, 10, 2, 5, 0.1, backend)
    host = await Host.open(database)
    try:
        rows = await host.store.fetchall(
            "SELECT game_id, seq, action FROM events WHERE seq > 0 AND user_id "
            "LIKE 's%' ORDER BY game_id, seq"
        )
        outbox = await host.store.fetchall("SELECT id FROM outbox")
    finally:
        await host.close()
    moves = [(row["game_id"], row["seq"], row["action"]) for row in rows]
    journaled = Journaled(begun=moves[1:], acked=[*moves, (moves[0][0], 10_000, "never played")])
    journaled.posted.update(row["id"] for row in outbox)
    report = FaultReport(backend)
    await _check(database, journaled, report, [])
    assert (report.acknowledged, report.found, report.doubled) == (len(moves) + 1, len(moves), 1)
    assert "1 acknowledged actions lost" in report.problems and "1 doubled events" in report.problems


def test_a_row_sent_again_with_its_nonce_is_shown_once() -> None:
    """The journal is read as Discord reads ``enforce_nonce``: a row posted again after a kill between its post
    and its mark-sent is absorbed by its nonce within the window, and would show twice past it."""
    journaled = Journaled()
    _absorb(journaled, [["D", "1", "pabc", "100.0"], ["D", "2", "pdef", "100.5"]])
    _absorb(journaled, [["U", "2"], ["D", "2", "pdef", "101.0"]])  # the next life posts row 2 again
    assert journaled.posted == {1: 1, 2: 2} and journaled.created == {1: 1, 2: 1}
    _absorb(journaled, [["U", "1"], ["D", "1", "pabc", str(100.0 + NONCE_WINDOW_S + 1)]])
    assert journaled.created[1] == 2, "past Discord's window the nonce no longer protects"
