"""Kill -9 proof: a worker process plays many games through the real ``Host`` and is killed at random moments.

The worker (``python -m bench.bench_faults --worker ...``) keeps ``GAMES`` games going (Babylone, Pharaoh and
Game of Princes; some with a random-level AI seat), each move a random choice of the seat's prompt, and writes
a journal line, in one ``write``, at each step that matters:

- ``U id``: an outbox row it found unsent at start-up (stored before the previous worker was killed);
- ``R``: recovery done (outbox posted, interrupted AI turns finished), play starts;
- ``B game seq action``: it calls ``Host.act``; ``A game seq action``: the call returned (acknowledged);
- ``D id nonce time``: it "posted" outbox row ``id`` with the nonce the Discord sender sends with it
  (``Delivery.nonce``; the journal line is the post), then marks the row sent.

The parent kills the worker with SIGKILL after a random delay, restarts it, and repeats until ``TURNS`` actions
were acknowledged (and at least one kill interrupted a host call and one left an unsent outbox row). A last
worker recovers without being killed. Then, from the database alone:

- every acknowledged action (game id + event seq + action text) is stored, and no stored move lacks a call
  that asked for it (a doubled event would);
- every game's state, as a freshly started host loads it (snapshot + events), equals the replay of its events
  from seed and actions (``rules.engine.playout``), whose chance results equal the stored ones;
- every outbox row is marked sent, every row left unsent at a kill was posted after the restart, and no row
  was posted twice except when the kill fell between its post and its mark-sent (at-least-once delivery: the
  row id is the key a receiver dedupes on; the game effect is never doubled). The journal is read as Discord
  reads posts made with ``enforce_nonce``: a post whose nonce was used within ``NONCE_WINDOW_S`` creates no
  message, so "posted again" counts rows a channel would show twice, and "resent" the posts Discord absorbed.

Environment: BENCH_FAULT_TURNS (default 1000), BENCH_FAULT_GAMES (20), BENCH_FAULT_MAX_DELAY_S (0.25, the
longest a worker lives after recovery). PostgreSQL too when PRINCES_TEST_PG_URL is set (a schema of its own).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from uuid import uuid4

from bot.host import Actor, Delivery, Host, HostError
from rules.engine import get_game
from rules.engine.playout import Record, replay, start, step
from tests.e2e.fake_discord import NONCE_WINDOW_S

TURNS = int(os.environ.get("BENCH_FAULT_TURNS", "1000"))
GAMES = int(os.environ.get("BENCH_FAULT_GAMES", "20"))
MAX_DELAY_S = float(os.environ.get("BENCH_FAULT_MAX_DELAY_S", "0.25"))
KINDS = ("babylone", "pharaoh", "game-of-princes")
#: every this many games, the second seat is an AI (random level: fast), so AI turns follow acknowledged moves
AI_EVERY = 4
#: a worker that does not report ready within this many seconds is a failure, not a slow start
READY_TIMEOUT_S = 60.0
#: the most lives one proof may use, so a broken worker cannot loop for ever
MAX_LIVES = 5000
ROOT = Path(__file__).resolve().parents[1]


# ---- the worker -----------------------------------------------------------------------------------------------
class Journal:
    """Lines appended with one ``write`` each, so a kill leaves at most a truncated last line."""

    def __init__(self, path: str) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def write(self, *words: object) -> None:
        os.write(self._fd, (" ".join(str(word) for word in words) + "\n").encode())


def _players(slot: int) -> list[Actor]:
    return [Actor(f"s{slot}p{seat}", f"slot{slot}-{seat}") for seat in range(2)]


async def _post(host: Host, journal: Journal, deliveries: list[Delivery]) -> None:
    """What the Discord sender does, with the journal as the channel: post, then mark sent."""
    for delivery in deliveries:
        journal.write("D", delivery.id, delivery.nonce("p"), f"{time.time():.3f}")
        await host.mark_sent(delivery.id)


async def _ensure_game(host: Host, journal: Journal, slot: int) -> int:
    """The slot's running game; a new one (or a lobby a kill interrupted, completed) when there is none."""
    channel = f"fault-{slot}"
    info = await host.game_in_channel(channel)
    creator, other = _players(slot)
    if info is None:
        kind = KINDS[slot % len(KINDS)]
        info = await host.create_game("guild", channel, creator, kind, deadline_hours=24)
    if info.status == "lobby":
        if len(info.seats) < 2:
            if slot % AI_EVERY == AI_EVERY - 1:
                await host.add_ai(channel, creator, "random")
            else:
                await host.join(channel, other)
        await _post(host, journal, await host.start(channel, creator, order="given"))
    return info.game_id


async def _play_one(host: Host, journal: Journal, game_id: int, rng: random.Random) -> bool:
    """One random move of a seat the game waits for; False when the game is over."""
    info = await host.game_info(game_id)
    if info.status != "active" or not info.pending_users:
        return False
    user = rng.choice(info.pending_users)
    actor = next(seat for seat in info.seats if seat.user_id == user)
    prompt = await host.prompt_of(game_id, user)
    if prompt is None or not prompt.choices:
        return False
    action = rng.choice(prompt.choices).action
    row = await host.store.fetchone("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,))
    seq = int(row[0]) + 1 if row and row[0] is not None else 0
    journal.write("B", game_id, seq, action)
    deliveries = await host.act(game_id, Actor(user, actor.name), action, prompt.decision_id)
    journal.write("A", game_id, seq, action)
    await _post(host, journal, deliveries)
    return True


async def _worker(database: str, journal_path: str, seed: int, games: int, drain: bool) -> None:
    journal = Journal(journal_path)
    host = await Host.open(database)
    try:
        unsent = await host.pending_deliveries()
        for delivery in unsent:
            journal.write("U", delivery.id)
        await _post(host, journal, unsent)  # what the bot does at start-up
        await _post(host, journal, await host.resume_all())
        journal.write("R")
        if drain:
            return
        rng = random.Random(seed)
        while True:
            slot = rng.randrange(games)
            game_id = await _ensure_game(host, journal, slot)
            try:
                await _play_one(host, journal, game_id, rng)
            except HostError as error:  # none expected: report it in the journal, the parent fails on it
                journal.write("E", game_id, json.dumps(str(error)))
    finally:
        await host.close()


# ---- the parent -----------------------------------------------------------------------------------------------
@dataclass
class Journaled:
    begun: list[tuple[int, int, str]] = field(default_factory=list)
    acked: list[tuple[int, int, str]] = field(default_factory=list)
    posted: Counter[int] = field(default_factory=Counter)
    #: messages a nonce-honouring Discord created per row (a post repeating a recent nonce creates none)
    created: Counter[int] = field(default_factory=Counter)
    #: nonce -> when the message it created was posted
    nonces: dict[str, float] = field(default_factory=dict)
    #: outbox ids found unsent at a start-up, and whether a post followed in the same life
    unsent_at_start: list[int] = field(default_factory=list)
    unsent_posted_after: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass
class FaultReport:
    backend: str
    acknowledged: int = 0
    found: int = 0
    doubled: int = 0
    kills: int = 0
    kills_in_action: int = 0
    kills_in_action_committed: int = 0
    replays_checked: int = 0
    replays_differing: int = 0
    unsent_at_restart: int = 0
    unsent_delivered_after: int = 0
    outbox_rows: int = 0
    outbox_unsent_at_end: int = 0
    deliveries_lost: int = 0
    #: rows a channel shows twice (posted again with no recent nonce to absorb it)
    deliveries_reposted: int = 0
    #: rows sent again because the kill fell between the post and its mark-sent, absorbed by their nonce
    deliveries_resent: int = 0
    deliveries_reposted_unexplained: int = 0
    #: games in progress that wait on nobody (an AI turn a kill interrupted and no restart finished)
    stalled: int = 0
    events: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        return [
            f"{self.backend}: {self.kills} kills -9 in {self.seconds:.1f} s; {self.events} events stored",
            f"actions acknowledged {self.acknowledged}, found {self.found}, doubled {self.doubled}",
            f"kills that interrupted an action in progress: {self.kills_in_action} "
            f"({self.kills_in_action_committed} had committed, {self.kills_in_action - self.kills_in_action_committed}"
            " rolled back)",
            f"replays checked {self.replays_checked}, differing {self.replays_differing}; games in progress "
            f"waiting on nobody {self.stalled}",
            f"outbox: {self.outbox_rows} rows, {self.outbox_unsent_at_end} unsent at the end, "
            f"{self.unsent_at_restart} unsent at a restart and {self.unsent_delivered_after} of them delivered "
            f"after it, lost {self.deliveries_lost}, posted again {self.deliveries_reposted} "
            f"(unexplained {self.deliveries_reposted_unexplained}); sent again after a kill between post and "
            f"mark-sent {self.deliveries_resent}, each absorbed by its nonce",
        ]


def _read_journal(path: Path) -> list[list[str]]:
    """Complete lines only: a kill may cut the last one."""
    text = path.read_text() if path.exists() else ""
    return [line.split(" ", 3) for line in text.split("\n")[:-1] if line]


def _spawn(database: str, journal: Path, seed: int, games: int, drain: bool) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "bench.bench_faults",
        "--worker",
        database,
        str(journal),
        str(seed),
        str(games),
    ]
    return subprocess.Popen([*command, "--drain"] if drain else command, cwd=ROOT)


def _wait_ready(process: subprocess.Popen[bytes], journal: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while not any(words[0] == "R" for words in _read_journal(journal)):
        if process.poll() is not None:
            raise RuntimeError(f"the worker exited with {process.returncode} before it was ready")
        if time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("the worker did not get ready")
        time.sleep(0.01)


def _life(
    database: str,
    folder: Path,
    life: int,
    games: int,
    rng: random.Random,
    max_delay: float,
    drain: bool = False,
) -> list[list[str]]:
    """One worker life: start, wait until it recovered, let it play a random while, SIGKILL it."""
    journal = folder / f"life-{life}.log"
    process = _spawn(database, journal, rng.randrange(2**31), games, drain)
    try:
        _wait_ready(process, journal)
        if drain:
            process.wait(READY_TIMEOUT_S)
            if process.returncode != 0:
                raise RuntimeError(f"the draining worker exited with {process.returncode}")
        else:
            time.sleep(rng.uniform(0, max_delay))
            process.send_signal(signal.SIGKILL)
            process.wait()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return _read_journal(journal)


def _absorb(journaled: Journaled, lines: list[list[str]]) -> None:
    unsent: set[int] = set()
    for words in lines:
        kind = words[0]
        if kind in ("B", "A"):
            identity = (int(words[1]), int(words[2]), words[3])
            (journaled.begun if kind == "B" else journaled.acked).append(identity)
        elif kind == "U":
            unsent.add(int(words[1]))
            journaled.unsent_at_start.append(int(words[1]))
        elif kind == "D":
            delivery = int(words[1])
            journaled.posted[delivery] += 1
            nonce, at = words[2], words[3]
            created_at = journaled.nonces.get(nonce)
            if created_at is None or float(at) - created_at > NONCE_WINDOW_S:
                journaled.created[delivery] += 1
                journaled.nonces[nonce] = float(at)
            if delivery in unsent:
                journaled.unsent_posted_after += 1
                unsent.discard(delivery)
        elif kind == "E":
            journaled.errors.append(" ".join(words[1:]))


def _in_action(lines: list[list[str]]) -> tuple[int, int, str] | None:
    """The action a kill interrupted: a last ``B`` line with no ``A`` after it."""
    calls = [words for words in lines if words[0] in ("B", "A")]
    if calls and calls[-1][0] == "B":
        return int(calls[-1][1]), int(calls[-1][2]), calls[-1][3]
    return None


async def _stored_events(host: Host) -> dict[tuple[int, int], tuple[str, str | None]]:
    rows = await host.store.fetchall("SELECT game_id, seq, action, user_id FROM events WHERE undone = 0")
    return {(row["game_id"], row["seq"]): (row["action"], row["user_id"]) for row in rows}


async def _check_replays(host: Host, report: FaultReport) -> None:
    """Each game as a fresh host loads it == the replay from seed and actions (and the draws match)."""
    rows = await host.store.fetchall(
        "SELECT id, kind, seed, options, num_players FROM games WHERE num_players IS NOT NULL ORDER BY id"
    )
    for row in rows:
        game = get_game(row["kind"])
        events = await host.store.events(row["id"], -1)
        options = json.loads(row["options"])
        playout = start(game, row["num_players"], options, row["seed"])
        for event in events[1:]:
            step(game, playout, event.seat or 0, event.action)
        recorded = replay(
            game,
            row["num_players"],
            options,
            events[0].draws,
            [Record(e.seat or 0, e.action, e.draws) for e in events[1:]],
        )
        loaded = (await host.games.load(row["id"])).state
        draws_match = playout.setup_draws == events[0].draws and all(
            record.draws == event.draws for record, event in zip(playout.records, events[1:], strict=True)
        )
        report.replays_checked += 1
        if not (draws_match and playout.state == recorded == loaded):
            report.replays_differing += 1
            report.problems.append(f"game {row['id']} differs from the replay of its events")


async def _check(
    database: str, journaled: Journaled, report: FaultReport, interrupted: list[tuple[int, int, str]]
) -> None:
    host = await Host.open(database)
    try:
        stored = await _stored_events(host)
        report.events = len(stored)
        report.acknowledged = len(journaled.acked)
        report.found = sum(1 for g, q, a in journaled.acked if stored.get((g, q), ("",))[0] == a)
        asked = Counter(journaled.begun)
        # the players' own moves (not the setup, not AI turns): each must answer exactly one call that asked
        moves = {
            key: value for key, value in stored.items() if key[1] > 0 and (value[1] or "").startswith("s")
        }
        report.doubled = sum(1 for (g, q), (a, _) in moves.items() if asked[(g, q, a)] == 0)
        report.doubled += sum(1 for identity in set(journaled.acked) if journaled.acked.count(identity) > 1)
        report.kills_in_action_committed = sum(
            1 for g, q, a in interrupted if stored.get((g, q), ("",))[0] == a
        )
        await _check_replays(host, report)
        active = await host.store.fetchall("SELECT id FROM games WHERE status = 'active'")
        report.stalled = sum([not (await host.game_info(row["id"])).pending_users for row in active])
        rows = await host.store.fetchall("SELECT id, sent_at FROM outbox")
        report.outbox_rows = len(rows)
        report.outbox_unsent_at_end = sum(1 for row in rows if row["sent_at"] is None)
        report.deliveries_lost = sum(1 for row in rows if journaled.posted[row["id"]] == 0)
        again = [delivery for delivery, times in journaled.created.items() if times > 1]
        report.deliveries_reposted = len(again)
        report.deliveries_resent = sum(1 for times in journaled.posted.values() if times > 1)
        report.deliveries_reposted_unexplained = len(set(again) - set(journaled.unsent_at_start))
    finally:
        await host.close()
    report.unsent_at_restart = len(journaled.unsent_at_start)
    report.unsent_delivered_after = journaled.unsent_posted_after
    expectations = [
        (
            report.found == report.acknowledged,
            f"{report.acknowledged - report.found} acknowledged actions lost",
        ),
        (report.doubled == 0, f"{report.doubled} doubled events"),
        (report.stalled == 0, f"{report.stalled} games wait on nobody"),
        (report.outbox_unsent_at_end == 0, f"{report.outbox_unsent_at_end} outbox rows never sent"),
        (report.deliveries_lost == 0, f"{report.deliveries_lost} deliveries never posted"),
        (report.deliveries_reposted == 0, f"{report.deliveries_reposted} deliveries shown twice"),
        (
            report.unsent_delivered_after == report.unsent_at_restart,
            "an unsent row was not posted after restart",
        ),
        (
            report.deliveries_reposted_unexplained == 0,
            "a delivery was posted twice without a kill in between",
        ),
        (not journaled.errors, f"host errors in the worker: {journaled.errors[:3]}"),
    ]
    report.problems += [problem for fine, problem in expectations if not fine]


def prove(
    database: str,
    turns: int,
    games: int,
    seed: int = 1,
    max_delay: float = MAX_DELAY_S,
    backend: str = "sqlite",
) -> FaultReport:
    """Kill and restart a worker until ``turns`` acknowledged actions, then check everything (see the module)."""
    report = FaultReport(backend)
    rng = random.Random(seed)
    journaled = Journaled()
    interrupted: list[tuple[int, int, str]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="princes-faults-") as scratch:
        folder = Path(scratch)
        for life in range(MAX_LIVES):
            enough = len(journaled.acked) >= turns and interrupted and journaled.unsent_at_start
            if enough:
                break
            lines = _life(database, folder, life, games, rng, max_delay)
            report.kills += 1
            _absorb(journaled, lines)
            cut = _in_action(lines)
            if cut is not None:
                interrupted.append(cut)
        _absorb(journaled, _life(database, folder, MAX_LIVES, games, rng, max_delay, drain=True))
    report.kills_in_action = len(interrupted)
    asyncio.run(_check(database, journaled, report, interrupted))
    report.seconds = time.perf_counter() - started
    return report


# ---- the benchmark --------------------------------------------------------------------------------------------
def _postgres_schema() -> tuple[str, str] | None:
    """(url, schema) of a fresh schema when PRINCES_TEST_PG_URL is set, else None."""
    url = os.environ.get("PRINCES_TEST_PG_URL", "").strip()
    if not url:
        return None
    import asyncpg

    from tests.conftest import with_search_path

    schema = f"faults_{uuid4().hex[:12]}"

    async def create() -> None:
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(f'CREATE SCHEMA "{schema}"')
        finally:
            await admin.close()

    asyncio.run(create())
    return with_search_path(url, schema), schema


def _drop_schema(schema: str) -> None:
    import asyncpg

    async def drop() -> None:
        admin = await asyncpg.connect(os.environ["PRINCES_TEST_PG_URL"].strip())
        try:
            await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await admin.close()

    asyncio.run(drop())


def run() -> None:
    reports = []
    with tempfile.TemporaryDirectory(prefix="princes-faults-db-") as folder:
        reports.append(prove(str(Path(folder) / "faults.sqlite3"), TURNS, GAMES))
    postgres = _postgres_schema()
    if postgres is None:
        print("   PostgreSQL: skipped (PRINCES_TEST_PG_URL is not set)")
    else:
        url, schema = postgres
        try:
            reports.append(prove(url, TURNS, GAMES, backend="postgresql"))
        finally:
            _drop_schema(schema)
    for report in reports:
        for text in report.lines():
            print(f"   {text}")
        for problem in report.problems:
            print(f"   PROBLEM: {problem}")
    if not all(report.ok for report in reports):
        raise RuntimeError("the kill -9 proof found problems")


if __name__ == "__main__":
    if len(sys.argv) >= 6 and sys.argv[1] == "--worker":
        asyncio.run(
            _worker(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), "--drain" in sys.argv)
        )
    else:
        run()
