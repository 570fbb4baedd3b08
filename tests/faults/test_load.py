"""The load benchmark, small: a few concurrent tables through the fake Discord with the real client and bot in
its own process (``python -m bench load`` runs 1,000)."""

from __future__ import annotations

from bench.bench_discord import Load, measure


async def test_concurrent_tables_play_without_errors(capsys) -> None:
    await measure(Load(games=6, think_s=0.05, turns=2))  # raises on any error, any HTTP 4xx/5xx
    report = capsys.readouterr().out
    assert "6 concurrent Babylone games (2 turns each)" in report and "12 turns in" in report
    assert "errors: 0" in report
