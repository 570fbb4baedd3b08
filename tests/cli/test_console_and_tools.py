"""The console front-end scripted through stdin-like lines, and the command-line tools."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.__main__ import main
from bot.console import run_console
from bot.selfplay import run_selfplay

ROOT = Path(__file__).resolve().parents[2]


async def test_scripted_console_game_reaches_a_result(tmp_path) -> None:
    lines = [
        "/help",
        "/game new babylone first=1",
        "bob: /game join",
        "/game start given",
        "/board",
        "/moves",
    ]
    # enough moves for any Babylone game (at most 11); each /move goes to whoever must play
    output: list[str] = []
    await run_console(str(tmp_path / "c.sqlite3"), str(tmp_path / "img"), lines, output.append)
    played = list(output)
    for _ in range(12):
        moves = [line for line in played if "'s moves: " in line]
        if not moves or moves[-1].endswith("none"):
            break
        first_move = moves[-1].split(": ", 1)[1].split(", ")[0]
        await run_console(
            str(tmp_path / "c.sqlite3"),
            str(tmp_path / "img"),
            [f"/move {first_move}", "/moves"],
            played.append,
        )
    text = "\n".join(played)
    assert "Game over" in text and "wins" in text
    images = sorted((tmp_path / "img").glob("*.png"))
    assert images and all(path.stat().st_size > 1000 for path in images)
    assert "[image]" in text


async def test_console_errors_are_sentences(tmp_path) -> None:
    output: list[str] = []
    await run_console(
        str(tmp_path / "c.sqlite3"),
        str(tmp_path / "img"),
        ["/move 1>2", "/game new chess", "/dance", "/game new babylone", "/game start"],
        output.append,
    )
    assert output[0].startswith("! There is no game in this channel. Start one with /game new")
    assert any("no game 'chess'" in line for line in output)
    assert any("Unknown command /dance" in line for line in output)
    assert any("at least 2 players" in line for line in output)
    assert not any("Traceback" in line for line in output)


def test_perft_babylone(capsys) -> None:
    assert main(["perft", "babylone", "--depth", "2"]) == 0
    assert capsys.readouterr().out.split("\n")[:2] == ["1 132", "2 12360"]


async def test_selfplay_small_sample_perfect_ai_wins_as_second() -> None:
    report = await run_selfplay("babylone", games=10, seed=3, seats=["perfect", "easy"])
    assert report.errors == 0 and report.games == 10
    assert report.wins_by_seat["perfect@2"] == report.games_by_seat["perfect@2"] == 5
    assert report.counts["decision:move"] == report.turns > 0


def test_selfplay_json_line(tmp_path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "selfplay", "babylone", "--games", "4", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert set(data) >= {"game", "games", "errors", "draws", "wins", "turns", "seconds", "counts"}
    assert data["games"] == 4 and data["errors"] == 0


def test_render_command(tmp_path) -> None:
    out = tmp_path / "b.png"
    assert main(["render", "babylone", "--seed", "2", "--moves", "3", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_run_without_token_explains_and_exits_non_zero(tmp_path) -> None:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert result.returncode != 0
    assert "DISCORD_TOKEN" in result.stdout and "Reset Token" in result.stdout


async def test_an_edited_status_message_prints_only_its_new_lines(tmp_path) -> None:
    """A turn's steps gather in one Discord message that each step edits; the console prints each step once
    (issue 17: free-mode Movement re-echoed every earlier move after each step)."""
    from bot.console import Console
    from bot.models import Delivery

    class Host:
        @staticmethod
        def clock() -> float:
            return 0.0

        async def mark_sent(self, delivery_id: int) -> None:
            return None

    output: list[str] = []
    console = Console(Host(), tmp_path, output.append)  # type: ignore[arg-type]
    steps = ["A moves a Knight from Posnania to Gnesna.", "A moves a Knight from Gnesna to Landa."]
    for count in (1, 2):
        text = "\n".join([*steps[:count], "Now: A decides (movement): move, then done."])
        await console._show([Delivery(count, 1, "principes", "public", text, edit_key="status:7")])
    assert output == [
        "A moves a Knight from Posnania to Gnesna.\nNow: A decides (movement): move, then done.",
        "A moves a Knight from Gnesna to Landa.\nNow: A decides (movement): move, then done.",
    ]
