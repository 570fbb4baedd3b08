"""Self-play that keeps its games (``selfplay --database``), ``python -m bot stats`` and ``rebuild-ratings`` (the
AI levels' ratings come out in the order their head-to-head results give), and ``python -m bot replay``."""

from __future__ import annotations

import asyncio
import itertools
import json
import re
from pathlib import Path

from PIL import Image

from bot.__main__ import main
from bot.host import Host
from bot.selfplay import run_selfplay
from bot.stats import head_to_head, player_records
from render.replay import CAPTION_HEIGHT

GAMES_PER_PAIR = 20


def _leaderboard(text: str, title: str) -> list[str]:
    """The AI levels of one game's block of ``stats`` output, best first."""
    block = text.split(f"{title} leaderboard", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\d+\. AI (\S+) — ", block, flags=re.MULTILINE)


def test_selfplay_keeps_its_games_and_the_ratings_follow_the_head_to_head(tmp_path: Path, capsys) -> None:
    database = str(tmp_path / "selfplay.sqlite3")
    assert (
        main(
            ["selfplay", "babylone", "--games", str(GAMES_PER_PAIR), "--round-robin", "--database", database]
        )
        == 0
    )
    played = capsys.readouterr().out
    assert f"babylone: {3 * GAMES_PER_PAIR} games, 0 errors" in played
    assert main(["stats", "--database", database]) == 0
    printed = capsys.readouterr().out
    order = _leaderboard(printed, "Babylone")
    assert order[0] == "perfect" and sorted(order) == ["easy", "perfect", "random"], printed

    async def duels() -> dict[tuple[str, str], int]:
        host = await Host.open(database)
        try:
            return dict(await head_to_head(host.store, "babylone"))
        finally:
            await host.close()

    # every pair of levels is ordered as its duels say (Babylone's easy level picks at random, so easy and
    # random split theirs about evenly: whichever won more of them is rated above the other)
    wins = asyncio.run(duels())
    for better, worse in itertools.combinations(order, 2):
        a, b = f"ai:{better}", f"ai:{worse}"
        assert wins.get((a, b), 0) > wins.get((b, a), 0), f"{better} is rated above {worse}: {wins}"
        assert f"AI {better} beat AI {worse} {wins[(a, b)]}-{wins.get((b, a), 0)}" in printed
    assert wins[("ai:perfect", "ai:easy")] == wins[("ai:perfect", "ai:random")] == GAMES_PER_PAIR
    assert main(["rebuild-ratings", "--database", database]) == 0
    assert f"from {3 * GAMES_PER_PAIR} results ({3 * GAMES_PER_PAIR} rated" in capsys.readouterr().out
    assert main(["stats", "--database", database]) == 0
    assert capsys.readouterr().out == printed  # the rebuild gave the very same ratings


def test_stats_principes_prints_win_rates_by_principality_and_player_count(tmp_path: Path, capsys) -> None:
    database = str(tmp_path / "principes.sqlite3")
    report = asyncio.run(run_selfplay("principes", 2, 11, seats=["strong", "basic"], database=database))
    assert report.errors == 0
    assert main(["stats", "principes", "--database", database]) == 0
    printed = capsys.readouterr().out
    assert "PRINCIPES leaderboard (all servers)" in printed and "AI strong" in printed
    assert "PRINCIPES: 2 finished games (0 with people" in printed
    assert "Win rate by principality (games it was played in):" in printed
    assert "2 players (2 games):" in printed
    rates = re.findall(
        r"^  (Polonia Maior|Polonia Minor|Masovia|Silesia): (\d+) wins? of (\d+)", printed, re.M
    )
    assert rates and sum(int(wins) for _, wins, _ in rates) == 2 * 2  # each game's winner, overall and for 2

    async def record() -> str:
        host = await Host.open(database)
        try:
            return (await player_records(host.store, "ai:strong", "principes"))[0].text()
        finally:
            await host.close()

    line = asyncio.run(record())
    assert line.startswith("**PRINCIPES**: 2 games") and "favourite principality: " in line


def test_stats_of_an_unknown_game_is_one_line(tmp_path: Path, capsys) -> None:
    assert main(["stats", "chess", "--database", str(tmp_path / "empty.sqlite3")]) == 2
    assert "chess" in capsys.readouterr().err


def test_replay_of_a_four_player_principes_export_is_an_animation_under_the_upload_limit(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """``python -m bot replay EXPORT --out replay.gif`` on a 4-player PRINCIPES game. The whole game has ~500
    completed actions (~15 s of drawing, see the README for that run); here the action limit is lowered so the
    replay shows one frame per round, the same path a longer game takes."""
    database = str(tmp_path / "principes4.sqlite3")
    report = asyncio.run(
        run_selfplay("principes", 1, 7, seats=["strong", "basic", "strong", "basic"], database=database)
    )
    assert report.errors == 0
    assert main(["export", "--database", database, "--out", str(tmp_path / "exports")]) == 0
    (export,) = (tmp_path / "exports").glob("principes-*.json")
    monkeypatch.setattr("bot.replay.MAX_ACTION_FRAMES", 40)
    capsys.readouterr()
    out = tmp_path / "replay.gif"
    assert main(["replay", str(export), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}: " in printed and "(one per round)" in printed
    data = out.read_bytes()
    with Image.open(out) as image:
        assert image.format == "GIF" and image.n_frames > 1 and image.size == (1600, 1200 + CAPTION_HEIGHT)
        assert image.info.get("loop") == 0
    assert len(data) < 10 * 1024 * 1024


def test_replay_refuses_an_export_made_while_the_game_ran(tmp_path: Path, capsys) -> None:
    path = tmp_path / "running.json"
    path.write_text(json.dumps({"format": "princes-table-game", "version": 2, "complete": False}))
    assert main(["replay", str(path), "--out", str(tmp_path / "x.gif")]) == 2
    assert "made while the game was running" in capsys.readouterr().err
    assert not (tmp_path / "x.gif").exists()
