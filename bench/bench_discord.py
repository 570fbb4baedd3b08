"""N concurrent Babylone games played to the end through the fake Discord by the real bot.

The bot runs in its own process (as in production: it has a core to itself) against the fake Discord on
loopback, which runs here with the simulated players. Each game has its own channel and two players; a player
thinks for a random while, asks /move's autocomplete for their moves, then plays one with /move. Latency is from
pushing the /move interaction to the bot's last request about that channel (the board post with the next
mention); the floor is the same measure for /rules, a command that does no game work, measured in the same run.
A move that ends a game is measured apart: its last request is the result message, which waits for the game's
animated replay to be drawn (in a worker process) and carries it, slow work of its own with no goal here.

Tables open at random moments over the first think period, as they would on a server; the think time sets the
offered load (about GAMES / THINK_S turns per second, each turn two interactions: autocomplete and /move).
Environment: BENCH_DISCORD_GAMES (default 100), BENCH_DISCORD_THINK_S (mean think time, default 10).
``bench_load`` runs the same tables with 1,000 games (``measure`` takes the numbers).
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench.stats import line, summary
from bot.host import Host
from tests.e2e.fake_discord import FakeDiscord, FakeUser, InteractionRecord

if TYPE_CHECKING:
    from bot.discord.app import PrincesBot

GAMES = int(os.environ.get("BENCH_DISCORD_GAMES", "100"))
THINK_S = float(os.environ.get("BENCH_DISCORD_THINK_S", "10.0"))
GOAL_P99_MS = 150.0
FLOOR_SAMPLES = 40
WAIT_S = 60.0
ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Load:
    """What one run offers: games at once, the mean think time, and turns per game (None: to the end)."""

    games: int
    think_s: float
    turns: int | None = None

    def describe(self) -> str:
        played = "played to the end" if self.turns is None else f"{self.turns} turns each"
        return f"{self.games} concurrent Babylone games ({played}), 2 players each, mean think time {self.think_s:g} s"


@dataclass
class Results:
    move_ms: list[float] = field(default_factory=list)
    #: the moves that ended a game: their last request is the result message with the animated replay
    final_move_ms: list[float] = field(default_factory=list)
    autocomplete_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    turns: int = 0
    #: CPU seconds used during the run by the bot's process, and by this one (the fake Discord and the players)
    bot_cpu_s: float = 0.0
    here_cpu_s: float = 0.0


def _last_request_ms(fake: FakeDiscord, channel_id: int, pushed_at: float) -> float:
    """Milliseconds from ``pushed_at`` to the bot's last request concerning the channel (read once the next
    interaction is due, so a request arriving after the awaited post still counts)."""
    return (fake.last_request_at[channel_id] - pushed_at) * 1000


def _public_posts(fake: FakeDiscord, channel_id: int) -> int:
    return len(fake.channel_messages(channel_id))


def _new_post(fake: FakeDiscord, channel_id: int) -> Callable[[], bool]:
    """A condition: the channel got a message since now (the board of the move just made)."""
    posts = _public_posts(fake, channel_id)
    return lambda: _public_posts(fake, channel_id) > posts


async def _play_game(fake: FakeDiscord, index: int, results: Results, rng: random.Random, load: Load) -> None:
    await asyncio.sleep(rng.uniform(0, 2 * load.think_s))  # tables open over a while, not all in one instant
    channel = await fake.create_channel(f"table-{index}")
    alice, bob = fake.add_user(f"a{index}"), fake.add_user(f"b{index}")
    # a board message per move: the player below reads the latest channel message (the live card is edited)
    await fake.slash(alice, "game new", channel, game="babylone", options="posts=every-move")
    await fake.wait_for(lambda: _public_posts(fake, channel) == 1, WAIT_S)
    message = fake.channel_messages(channel)[0]
    await fake.click(bob, message, message.button("Join")["custom_id"])
    await fake.wait_for(lambda: bob.name in fake.messages[message.id].content, WAIT_S)
    started = _new_post(fake, channel)
    await fake.click(alice, message, message.button("Start")["custom_id"])
    await fake.wait_for(started, WAIT_S)
    players = {str(alice.id): alice, str(bob.id): bob}
    last_move: InteractionRecord | None = None
    turns = 0
    while True:
        latest = fake.channel_messages(channel)[-1]
        over = "Game over" in latest.content
        enough = load.turns is not None and turns >= load.turns
        if not over:
            await asyncio.sleep(rng.uniform(0, 2 * load.think_s))
        if last_move is not None:  # by now every request the move caused has arrived
            measured = results.final_move_ms if over else results.move_ms
            measured.append(_last_request_ms(fake, channel, last_move.pushed_at))
            reply = "\n".join(m.text() for m in fake.replies(last_move))
            if not reply.startswith("Done"):
                results.errors.append(f"game {index}: {reply[:120]!r}")
        if over or enough:
            return
        player = _mentioned(latest.content, players)
        if player is None:
            results.errors.append(f"game {index}: nobody to move in {latest.content[:120]!r}")
            return
        asked = time.perf_counter()
        choices = await fake.autocomplete(player, "move", "notation", channel)
        results.autocomplete_ms.append((time.perf_counter() - asked) * 1000)
        if not choices:
            results.errors.append(f"game {index}: no moves offered to {player.name}")
            return
        moved = _new_post(fake, channel)
        last_move = await fake.slash(player, "move", channel, notation=rng.choice(choices)["value"])
        await fake.wait_for(moved, WAIT_S)
        results.turns += 1
        turns += 1


def _mentioned(content: str, players: dict[str, FakeUser]) -> FakeUser | None:
    found = [user for user_id, user in players.items() if f"<@{user_id}>" in content]
    return found[-1] if found else None


async def _floor(fake: FakeDiscord) -> list[float]:
    user = fake.add_user("floor")
    samples = []
    for _ in range(FLOOR_SAMPLES):
        record = await fake.slash(user, "rules", fake.general, game="babylone")
        await asyncio.wait_for(record.responded.wait(), WAIT_S)
        samples.append(_last_request_ms(fake, fake.general, record.pushed_at))
    return samples


async def measure(load: Load) -> None:
    """Run ``load`` against the real bot in its own process and print the report; raises on any error."""
    fake = FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        bot = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.bench_discord",
                "--bot",
                str(fake.port),
                str(Path(folder) / "bench.sqlite3"),
                str(fake.guild_id),
                fake.token,
            ],
            cwd=ROOT,
        )
        try:
            await fake.wait_for(lambda: fake.command_syncs and fake.identifies, WAIT_S)
            await asyncio.sleep(0.5)  # READY and GUILD_CREATE processed
            floor = await _floor(fake)
            results = Results()
            rng = random.Random(7)
            bot_cpu_before, here_cpu_before = _cpu_seconds(bot.pid), time.process_time()
            started = time.perf_counter()
            outcomes = await asyncio.gather(
                *(_play_game(fake, i, results, random.Random(rng.random()), load) for i in range(load.games)),
                return_exceptions=True,
            )
            elapsed = time.perf_counter() - started
            results.bot_cpu_s = _cpu_seconds(bot.pid) - bot_cpu_before
            results.here_cpu_s = time.process_time() - here_cpu_before
        finally:
            bot.terminate()
            bot.wait(10)
    await fake.stop()
    results.errors += [f"{type(o).__name__}: {o}" for o in outcomes if isinstance(o, BaseException)]
    failed = [r for r in fake.requests if r.status >= 400]
    results.errors += [f"HTTP {r.status} {r.method} {r.path}" for r in failed]
    _report(load, results, floor, elapsed)


def _report(load: Load, results: Results, floor: list[float], elapsed: float) -> None:
    floor_median, _ = summary(floor)
    print(
        f"   {load.describe()}: "
        f"{results.turns} turns in {elapsed:.1f} s = {results.turns / elapsed:.1f} turns/s"
    )
    if results.bot_cpu_s:
        print(
            f"   CPU during the games: bot process {results.bot_cpu_s:.1f} s "
            f"({1000 * results.bot_cpu_s / max(1, results.turns):.0f} ms per turn, lobbies included), "
            f"fake Discord and players {results.here_cpu_s:.1f} s; machine load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
    if results.move_ms:
        print(
            "   "
            + line("/move: interaction -> bot's last request", results.move_ms, floor_median, GOAL_P99_MS)
        )
    if results.final_move_ms:
        print(
            "   "
            + line(
                f"/move that ends a game ({len(results.final_move_ms)}): interaction -> result with the animated "
                "replay",
                results.final_move_ms,
                floor_median,
            )
        )
    if results.autocomplete_ms:
        print("   " + line("/move autocomplete round trip", results.autocomplete_ms))
    print("   " + line("floor: /rules (no game work)", floor))
    print(f"   errors: {len(results.errors)}")
    for error in results.errors[:10]:
        print(f"     {error}")
    if results.errors:
        raise RuntimeError(f"{len(results.errors)} errors in the Discord benchmark")


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux ``/proc``; 0 where there is none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run() -> None:
    asyncio.run(measure(Load(GAMES, THINK_S)))


def serve_bot(port: int, database: str, token: str, make_bot: Callable[[Host], PrincesBot]) -> None:
    """A bot process: ``make_bot(host)`` on the database, pointed at the fake Discord on loopback, until SIGTERM
    (the benchmark ends it as a service manager does)."""
    import discord
    import yarl

    from bot.discord.app import close_on_stop_signals

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")

    async def main() -> None:
        host = await Host.open(database)
        bot = make_bot(host)
        close_on_stop_signals(bot)
        try:
            async with bot:
                await bot.start(token, reconnect=False)
        finally:
            await host.close()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass


def _run_bot(port: int, database: str, guild_id: int, token: str) -> None:
    """The bot process: the real PrincesBot, its commands synced to the test guild."""
    from bot.discord.app import PrincesBot

    serve_bot(
        port, database, token, lambda host: PrincesBot(host, dev_guild_id=guild_id, guild_ready_timeout=0.01)
    )


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--bot":
        _run_bot(int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        run()
