"""``python -m bench pace`` runs on every available game (its list comes from the registry), here at one seed."""

from __future__ import annotations

import re

import pytest

from bench import bench_pace


@pytest.mark.parametrize(
    ("key", "counts", "level"), bench_pace.GAMES, ids=[key for key, *_ in bench_pace.GAMES]
)
def test_the_pace_bench_measures_every_available_game(
    key: str, counts: tuple[int, ...], level: str, capsys: pytest.CaptureFixture[str]
) -> None:
    players = min(counts)
    bench_pace.run(seeds=1, games=[(key, (players,), level)])
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith(f"pace {key} {players}p "))
    assert f"automatic pass on, {level})" in line and "baseline" in line
    for name in ("defaults", "keen", "orders", *bench_pace.OPTION_LINES.get(key, {})):  # each with its ratio
        assert re.search(rf"\b{name} \d+\.\d\d \(\d+ waits\)", line), (name, line)
