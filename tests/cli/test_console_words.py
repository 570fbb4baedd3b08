"""The console as a person reads it: players by name, local times, hot-seat /undo, a turn's steps printed once,
and a finished game's result when asked about it."""

from __future__ import annotations

import random
import re

from bot.console import Console, run_console
from bot.host import Host

STEP_LINE = re.compile(r"^(alice|bob|Seat \d) \((red|yellow)\): ")  # (Seat N: the old words)


async def _console(tmp_path, lines: list[str]) -> list[str]:
    output: list[str] = []
    await run_console(str(tmp_path / "c.sqlite3"), str(tmp_path / "img"), lines, output.append)
    return output


async def test_the_console_speaks_of_its_players_by_name(tmp_path) -> None:
    output = await _console(
        tmp_path,
        [
            "/game new the-prince",
            "bob: /game join",
            "/game start given",
            "/moves",
            "/move land e2",
            "/hand",
            "/game status",
        ],
    )
    text = "\n".join(output)
    assert "Now: alice seals (landing)" in text and "alice has sealed (landing)" in text
    assert "(private to alice) The Prince #1" in text
    for wrong in ("you ", "you's", "console:", "<t:", "Seat 1", "seat 1"):
        assert wrong not in text, wrong
    assert "alice's moves: land " in text
    assert "alice: sealed (landing), waiting for bob." in text


def test_discord_timestamps_read_as_local_times() -> None:
    from bot.console import for_terminal

    now = 1_800_000_000
    text = for_terminal(
        f"Deadline <t:{now + 7200}:R>, since <t:{now - 600}:R>, on <t:{now}:f>. **Round 1**", now
    )
    assert "<t:" not in text and "**" not in text
    assert "(in 2 h)" in text and "(10 min ago)" in text and "Round 1" in text
    assert re.search(r"\d\d:\d\d", text)


async def test_hot_seat_undo_takes_back_the_last_local_move(tmp_path) -> None:
    output = await _console(
        tmp_path,
        [
            "/game new babylone first=1",
            "bob: /game join",
            "/game start given",
            "/move 1>2",  # alice's turn
            "/move 3>4",  # bob's, typed by alice's keyboard
            "/undo",  # takes back bob's move, whoever is speaking
            "/undo",
        ],
    )
    text = "\n".join(output)
    assert "bob takes back 3>4." in text and "alice takes back 1>2." in text
    assert "own last move" not in text


async def test_a_finished_game_answers_with_its_result(tmp_path) -> None:
    await _console(tmp_path, ["/game new babylone first=1", "bob: /game join", "/game start given"])
    for _ in range(12):  # each /move goes to whoever must play; /moves answers with the result at the end
        moves = (await _console(tmp_path, ["/moves"]))[-1]
        if moves.startswith("!"):
            break
        await _console(tmp_path, [f"/move {moves.split(': ', 1)[1].split(', ')[0]}"])
    after = await _console(tmp_path, ["/move 1>2", "/game status", "/board", "/undo"])
    assert after[0].startswith("! Babylone #1 is over: ") and " wins." in after[0]
    assert after[1].startswith("Babylone #1 is over: ") and after[1].endswith("Start another with /game new.")
    assert after[2].startswith("Babylone #1 is over: ") and after[3].startswith("[image]")
    assert after[4].startswith("! Babylone #1 is over: ")


async def test_a_multi_step_turn_prints_each_step_once(tmp_path) -> None:
    """Pharaoh: the console shows an edited status message as the lines the edit added."""
    output: list[str] = []
    host = await Host.open(tmp_path / "p.sqlite3")
    try:
        console = Console(host, tmp_path / "img", output.append)
        for line in ("/game new pharaoh", "bob: /game join", "/game start given"):
            await console.handle(line)
        rng = random.Random(2)
        for _ in range(80):
            info = await host.game_in_channel("console")
            if info is None:  # the game ended (its seed is new each run): what was printed is checked below
                break
            user = info.pending_users[0]
            choices = await host.suggestions(info.game_id, user, "", 200)
            await console.handle(f"{user.split(':')[1]}: /move {rng.choice(choices).action}")
        log = await host.log("console", 200)
    finally:
        await host.close()
    printed = [line for text in output for line in text.splitlines() if STEP_LINE.match(line)]
    logged = [line.split(". ", 1)[1] for line in log.splitlines() if STEP_LINE.match(line.split(". ", 1)[-1])]
    assert len(printed) > 20 and printed == logged
