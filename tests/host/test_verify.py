"""The game verifier (``bot.verify``) through ``python -m bot verify``, ``/game verify`` and the console (issue 20).

A finished game's export verifies for every available game; one tampered die roll, sealed choice or nonce is
named by its event. Stored games with a 48-bit seed (and version-1 exports) still verify (issue 25 §2).
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.host import Host, HostError
from bot.verify import verify_export
from rules.engine import ReplayRng, available_games, get_game
from rules.engine.rng import KEYED_SCHEME, LEGACY_SCHEME, shuffle_seats
from tests.conftest import ALICE, BOB, CAROL, MOD
from tests.support.played import self_played

README = Path(__file__).resolve().parents[2] / "README.md"


def run_verify(tmp_path: Path, data: Any, capsys) -> tuple[int, list[str]]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False))
    code = main(["verify", str(path)])
    return code, capsys.readouterr().out.strip().splitlines()


def played_at(data: dict, record: dict) -> int:
    """The event at which a sealed choice was played (its seat's pending decision is the record's)."""
    game = get_game(data["game"]["kind"])
    events = [e for e in data["events"] if not e["undone"]]
    state = game.setup(data["game"]["num_players"], data["game"]["options"], ReplayRng(events[0]["draws"]))
    for event in events[1:]:
        decision = game.pending(state).get(event["seat"])
        if decision and decision.id == record["decision_id"] and event["seat"] == record["seat"]:
            return event["seq"]
        state = game.apply(state, event["seat"], event["action"], ReplayRng(event["draws"])).state
    raise AssertionError(f"sealed choice {record} was never played")


@pytest.mark.parametrize("key", available_games())
async def test_an_export_of_a_self_played_game_verifies(host: Host, tmp_path: Path, capsys, key: str) -> None:
    data = await self_played(host, key)
    assert data["game"]["rng"] == KEYED_SCHEME and len(data["game"]["seed"]) == 64
    code, lines = run_verify(tmp_path, data, capsys)
    assert (code, lines[0]) == (0, "verified"), lines
    assert f"{len(data['events'])} events replay" in lines[1]
    if data["sealed"]:
        assert f"its {len(data['sealed'])} sealed commits match" in lines[1]


@pytest.fixture
async def pharaoh(host: Host) -> dict:
    return await self_played(host, "pharaoh")


@pytest.fixture
async def prince(host: Host) -> dict:
    return await self_played(host, "the-prince")


async def test_one_tampered_die_roll_is_named_by_its_event(pharaoh: dict, tmp_path: Path, capsys) -> None:
    forged = copy.deepcopy(pharaoh)
    event = [e for e in forged["events"] if e["draws"]][-1]
    low, high = event["ranges"][0]
    true = event["draws"][0]
    event["draws"][0] = low if true != low else high  # still a possible die: only the seed can tell
    code, lines = run_verify(tmp_path, forged, capsys)
    assert code == 1
    assert lines == [
        f"not verified: event {event['seq']}: chance result 1 of {len(event['draws'])} is {event['draws'][0]}, "
        f"but the seed gives {true} (a number from {low} to {high})"
    ]


async def test_one_tampered_sealed_choice_is_named_by_its_event(prince: dict, tmp_path: Path, capsys) -> None:
    forged = copy.deepcopy(prince)
    # a sealed choice from the game's middle on that had another legal answer (the game's seed is random: a
    # choice with a single answer would leave nothing to forge it into)
    record, seq, other = next(
        (record, seq, others[0])
        for record, seq in ((r, played_at(forged, r)) for r in forged["sealed"][len(forged["sealed"]) // 2 :])
        if (others := [a for a in _legal_before(forged, seq) if a != record["action"]])
    )
    event = forged["events"][seq]
    assert event["action"] == record["action"]
    record["action"] = event["action"] = other  # both changed, so the replay alone would accept it
    code, lines = run_verify(tmp_path, forged, capsys)
    assert code == 1 and len(lines) == 1
    assert lines[0].startswith(f"not verified: event {seq}: seat {record['seat'] + 1} (")
    assert (
        f"sealed choice for {record['decision_id']!r}: the SHA-256 of its published nonce and choice"
        in lines[0]
    )
    assert f"not its commit {record['commit'][:16]}…" in lines[0]


def _legal_before(data: dict, seq: int) -> list[str]:
    game = get_game(data["game"]["kind"])
    events = data["events"]
    state = game.setup(data["game"]["num_players"], data["game"]["options"], ReplayRng(events[0]["draws"]))
    for event in events[1:seq]:
        state = game.apply(state, event["seat"], event["action"], ReplayRng(event["draws"])).state
    return game.legal_actions(state, events[seq]["seat"])


async def test_one_tampered_nonce_is_named_by_its_event(prince: dict, tmp_path: Path, capsys) -> None:
    forged = copy.deepcopy(prince)
    record = forged["sealed"][-1]
    record["nonce"] = ("1" if record["nonce"][0] == "0" else "0") + record["nonce"][1:]
    code, lines = run_verify(tmp_path, forged, capsys)
    assert code == 1
    assert lines[0].startswith(f"not verified: event {played_at(forged, record)}: ")
    assert "the SHA-256 of its published nonce and choice" in lines[0]


async def test_a_choice_played_against_its_seal_is_named(prince: dict) -> None:
    forged = copy.deepcopy(prince)
    # the game's seed is random: a sealed decision may have offered one action only, so take the first that
    # offered another
    for record in forged["sealed"]:
        seq = played_at(forged, record)
        others = [action for action in _legal_before(forged, seq) if action != record["action"]]
        if others:
            break
    else:
        raise LookupError("no sealed decision of the game offered a second action")
    other = others[0]
    forged["events"][seq]["action"] = other
    verdict = verify_export(forged)
    assert verdict.seq == seq and f"played `{other}`, but the sealed choice" in verdict.problem


async def test_a_sealed_decision_without_its_record_is_named(prince: dict) -> None:
    forged = copy.deepcopy(prince)
    record = forged["sealed"].pop(2)
    verdict = verify_export(forged)
    assert verdict.seq == played_at(prince, record)
    assert "with no sealed choice in the file" in verdict.problem


async def test_forged_ranges_are_named(pharaoh: dict) -> None:
    """The ranges let anyone check the draws without the rules; the verifier checks them against the rules."""
    forged = copy.deepcopy(pharaoh)
    event = next(e for e in forged["events"] if e["draws"] and e["seq"] > 0)
    event["ranges"][0] = [event["draws"][0], event["draws"][0]]
    verdict = verify_export(forged)
    assert verdict.seq == event["seq"] and "the rules asked for 1 to 6" in verdict.problem


async def test_chance_in_an_undone_move_and_moves_after_the_end_are_named(pharaoh: dict) -> None:
    forged = copy.deepcopy(pharaoh)
    event = next(e for e in forged["events"] if e["draws"] and e["seq"] > 0)
    event["undone"] = True
    assert "was taken back (/undo) yet used chance" in verify_export(forged).problem
    forged = copy.deepcopy(pharaoh)
    forged["events"].append({**forged["events"][-1], "seq": len(forged["events"])})
    verdict = verify_export(forged)
    assert verdict.seq == len(forged["events"]) - 1 and "comes after the end of the game" in verdict.problem


async def test_a_game_with_a_48_bit_seed_and_a_version_1_export_still_verify(host: Host) -> None:
    """Stored games keep their integer seed and its derivation: their exports, old and new, verify."""
    data = await self_played(host, "pharaoh", seed=2**48 - 3)
    assert (data["game"]["seed"], data["game"]["rng"]) == (str(2**48 - 3), LEGACY_SCHEME)
    assert verify_export(data).verified
    old = copy.deepcopy(data)  # as release 1 exported it: an integer seed, no rng, origin_id or ranges
    old["version"], old["game"]["seed"] = 1, 2**48 - 3
    del old["game"]["rng"], old["game"]["origin_id"]
    for event in old["events"]:
        del event["ranges"]
    verdict = verify_export(old)
    assert verdict.verified and verdict.scheme == LEGACY_SCHEME and verdict.draws > 0
    old["game"]["seed"] = 2**48 - 4
    assert "but the seed gives" in verify_export(old).problem


async def test_game_verify_answers_for_the_channels_game(host: Host, sealed_game) -> None:
    channel = "verify-sealed"
    await host.create_game("guild", channel, ALICE, sealed_game.key, {})
    await host.join(channel, BOB)
    game_id = (await host.start(channel, ALICE, order="given"))[0].game_id
    await host.act(game_id, ALICE, "pick 3")
    with pytest.raises(
        HostError, match="still being played: its seed and sealed choices stay secret until it ends"
    ):
        await host.verify(channel)
    while (await host.game_info(game_id)).status == "active":
        for actor in (ALICE, BOB):
            if not await host.has_sealed(game_id, actor.user_id):
                await host.act(game_id, actor, "pick 3" if actor is ALICE else "pick 1")
    verdict = await host.verify(channel)
    assert verdict.verified and verdict.commits == len(await host.sealed_record(game_id)) >= 4
    assert verdict.sentence().startswith(f"Verified. Sealed Guess (test) #{game_id}: ")
    with pytest.raises(HostError, match="no game in this channel"):
        await host.verify("no-such-channel")


async def test_the_console_verifies_a_finished_game(tmp_path: Path) -> None:
    from bot.console import run_console

    output: list[str] = []
    lines = ["/game new babylone first=1", "/game verify", "/game ai easy", "/game start given"]
    lines += ["/game resign", "/game verify"]
    await run_console(str(tmp_path / "c.sqlite3"), str(tmp_path / "out"), lines, output.append)
    assert any("Babylone #1 has not started: there is nothing to verify yet." in line for line in output)
    assert output[-1].startswith("Verified. Babylone #1: "), output[-1]
    assert "its players did (alice resigned.)" in output[-1]


def test_python_m_bot_export_writes_every_finished_game(tmp_path: Path, capsys) -> None:
    import asyncio

    database = tmp_path / "games.sqlite3"

    async def fill() -> list[int]:
        host = await Host.open(database)
        try:
            ids = [
                (await self_played(host, key, channel=f"c-{key}"))["game"]["id"]
                for key in ("babylone", "pharaoh")
            ]
            await host.create_game("guild", "running", ALICE, "babylone")  # a lobby: not over, not exported
            await host.create_game("guild", "closed", CAROL, "babylone")
            await host.leave("closed", CAROL)  # abandoned before it started: nothing to export
            return ids
        finally:
            await host.close()

    ids = asyncio.run(fill())
    out = tmp_path / "exports"
    assert main(["export", "--database", str(database), "--out", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"wrote 2 export files to {out}"
    files = sorted(out.iterdir())
    assert [path.name for path in files] == [f"babylone-{ids[0]}.json", f"pharaoh-{ids[1]}.json"]
    for path in files:
        assert main(["verify", str(path)]) == 0
        assert capsys.readouterr().out.startswith("verified\n")


def test_verify_of_an_unreadable_file_is_one_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "x.json"
    path.write_text("[1, 2")
    assert main(["verify", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path} is not JSON") and len(err.strip().splitlines()) == 1


# ---- the README's check, with no code of this project ------------------------------------------------------
def readme_check() -> str:
    """The Python block of the README's "Verifying a game" section."""
    section = README.read_text().split("## Verifying a game", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README shows how to check a game in Python"
    return match.group(1)


def run_readme_check(tmp_path: Path, data: dict) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    script = tmp_path / "check.py"
    script.write_text(readme_check())
    # run from an empty folder with -I: the script cannot import this project even by accident
    return subprocess.run(
        [sys.executable, "-I", str(script), str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
    )


async def test_the_readme_check_needs_no_code_of_this_project(
    prince: dict, pharaoh: dict, tmp_path: Path
) -> None:
    for data in (prince, pharaoh):
        done = run_readme_check(tmp_path, data)
        assert done.returncode == 0 and "every commit and chance result checks out" in done.stdout, (
            done.stderr
        )
    die = copy.deepcopy(pharaoh)
    event = [e for e in die["events"] if e["draws"]][-1]
    event["draws"][0] = 1 + event["draws"][0] % 6
    done = run_readme_check(tmp_path, die)
    assert done.returncode != 0 and f"event {event['seq']}" in done.stderr
    nonce = copy.deepcopy(prince)
    first = nonce["sealed"][0]["nonce"]
    nonce["sealed"][0]["nonce"] = ("1" if first[0] == "0" else "0") + first[1:]
    done = run_readme_check(tmp_path, nonce)
    assert done.returncode != 0 and "commit of" in done.stderr


async def test_the_readme_check_reads_legacy_seeds_too(host: Host, tmp_path: Path) -> None:
    data = await self_played(host, "pharaoh", seed=12345)
    done = run_readme_check(tmp_path, data)
    assert done.returncode == 0, done.stderr


# ---- seat order ----------------------------------------------------------------------------------------------
def test_the_seat_order_of_a_48_bit_seed_is_what_it_always_was() -> None:
    for seed in (0, 12345, 2**48 - 3):
        before, now, as_text = list(range(4)), list(range(4)), list(range(4))
        random.Random(seed).shuffle(before)
        shuffle_seats(seed, now)
        shuffle_seats(str(seed), as_text)  # the column is text since migration 5
        assert before == now == as_text


async def test_a_new_games_seat_order_comes_from_its_256_bit_seed(host: Host) -> None:
    orders = set()
    for number in range(6):
        channel = f"order-{number}"
        await host.create_game("guild", channel, ALICE, "babylone", seed=f"{number + 1:064x}")
        await host.join(channel, BOB)
        await host.join(channel, CAROL)
        await host.start(channel, ALICE)
        info = await host.game_info((await host.game_in_channel(channel)).game_id)
        names = [seat.name for seat in info.seats]
        expected = ["alice", "bob", "carol"]
        shuffle_seats(f"{number + 1:064x}", expected)
        assert names == expected
        orders.add(tuple(names))
    assert len(orders) > 1


async def test_game_log_names_the_seed_and_its_derivation_for_both_kinds(host: Host) -> None:
    new = await self_played(host, "pharaoh", channel="log-new")
    old = await self_played(host, "pharaoh", seed=2**48 - 3, channel="log-old")
    assert f"Seed {new['game']['seed']} (hmac-sha256). Chance results of these events: " in await host.log(
        "log-new"
    )
    assert f"Seed {2**48 - 3} (sha256-mt19937). Chance results of these events: " in await host.log("log-old")
    assert old["game"]["seed"] == str(2**48 - 3)


async def test_an_abandoned_game_with_an_unrevealed_seal_and_an_undone_move_verifies(
    host: Host, sealed_game
) -> None:
    channel = "verify-undo"
    await host.create_game("guild", channel, ALICE, "babylone", {"first": "1"})
    await host.join(channel, BOB)
    game_id = (await host.start(channel, ALICE, order="given"))[0].game_id
    first = (await host.suggestions(game_id, ALICE.user_id))[0].action
    await host.act(game_id, ALICE, first)
    await host.undo(channel, ALICE)
    await host.act(game_id, ALICE, (await host.suggestions(game_id, ALICE.user_id))[-1].action)
    await host.abandon(channel, MOD)
    data = await host.export_game(game_id)
    assert [e["undone"] for e in data["events"]] == [False, True, False]
    verdict = verify_export(data)
    assert verdict.verified and "abandoned before the rules ended it" in verdict.result

    channel = "verify-unrevealed"
    await host.create_game("guild", channel, ALICE, sealed_game.key, {})
    await host.join(channel, BOB)
    game_id = (await host.start(channel, ALICE, order="given"))[0].game_id
    await host.act(game_id, ALICE, "pick 2")  # sealed; Bob never answers
    await host.abandon(channel, MOD)
    data = await host.export_game(game_id)
    assert verify_export(data).verified and verify_export(data).commits == 1
    data["sealed"][0]["action"] = "pick 3"
    assert "(sealed, never revealed in play)" in verify_export(data).problem
