"""Hostile-input fuzzing at volume (issues 12 and 17): 100,000 inputs to the games' notation parsers and host
calls, and 2,000 hostile clicks on the bot's components through discord.py and the fake Discord.

The same generators and checks as ``tests/security`` (``hostile``, ``hostfuzz``), with plain seeded randomness
instead of hypothesis so the volume stays affordable. Prints the number of inputs, the unhandled exceptions
(must be 0: only the rules' errors out of ``parse``/``apply``, only ``HostError`` out of the host, every game
equal to the replay of its events, outsiders and stale buttons changing nothing), the time, and per-input
latency against a floor measured in the same run (legal actions through ``parse``/``apply``; ``game_info``).
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from bench.stats import line
from bot.host import Host
from rules.engine import Game, available_games, get_game
from rules.engine.registry import register, unregister
from tests.security.hostfuzz import HostFuzz
from tests.security.hostile import Position, UnhandledError, fuzz_notation, hostile_text, sample_positions
from tests.security.selfplay import TickingClock, scratch_directory
from tests.support.games import CardWindows, SealedGuess

#: hostile clicks on the bot's components through the real client and the fake Discord (``componentfuzz``)
COMPONENT_CLICKS = 2_000
TOTAL_INPUTS = 100_000
#: host calls in the total (each is several database round trips plus a replay check, so far fewer of them)
HOST_CALLS = 2_000
PARSER_INPUTS = TOTAL_INPUTS - HOST_CALLS
#: calls per host world before a fresh one is set up (games end, lobbies fill: new worlds keep it varied)
CALLS_PER_WORLD = 100
POSITIONS_PER_GAME = 12
#: unhandled exceptions printed in full (the count covers all of them)
SHOWN = 5


def fuzzed_games() -> list[Game]:
    """Every playable game (the sealed and card-window test games are registered by ``run``, so they are among
    them)."""
    return [get_game(key) for key in available_games()]


def parser_fuzz(games: list[Game], inputs: int) -> tuple[list[float], list[float], list[str]]:
    """Hostile text through every game's parse/apply; (hostile ms samples, legal ms samples, failures)."""
    rng = random.Random(12)
    hostile_ms: list[float] = []
    legal_ms: list[float] = []
    failures: list[str] = []
    per_game = inputs // len(games)
    for game in games:
        positions = sample_positions(game, POSITIONS_PER_GAME, seed=12)
        for index in range(per_game + (inputs % len(games) if game is games[-1] else 0)):
            position = rng.choice(positions)
            seat = rng.randrange(position.players)
            legal = game.legal_actions(position.state, seat)
            hostile_ms.append(_timed_fuzz(game, position, seat, hostile_text(rng, legal), index, failures))
            if legal and index % 10 == 0:
                legal_ms.append(_timed_fuzz(game, position, seat, rng.choice(legal), index, failures))
    return hostile_ms, legal_ms, failures


def _timed_fuzz(
    game: Game, position: Position, seat: int, text: str, seed: int, failures: list[str]
) -> float:
    started = time.perf_counter()
    try:
        fuzz_notation(game, position, seat, text, seed)
    except UnhandledError as error:
        failures.append(str(error))
    return (time.perf_counter() - started) * 1000


async def host_fuzz(games: list[Game], calls: int) -> tuple[list[float], list[float], list[str]]:
    """Random hostile host calls in fresh worlds; (call ms samples, game_info ms samples, failures)."""
    call_ms: list[float] = []
    floor_ms: list[float] = []
    failures: list[str] = []
    world = 0
    while len(call_ms) < calls:
        game = games[world % len(games)]
        with scratch_directory() as directory:
            clock = TickingClock()
            host = await Host.open(Path(directory) / "fuzz.sqlite3", clock=clock)
            try:
                fuzz = HostFuzz(host, clock, random.Random(world), game.key)
                await fuzz.setup()
                for _ in range(min(CALLS_PER_WORLD, calls - len(call_ms))):
                    started = time.perf_counter()
                    try:
                        await fuzz.step()
                    except (UnhandledError, AssertionError) as error:
                        failures.append(f"{game.key} world {world}: {error}")
                    call_ms.append((time.perf_counter() - started) * 1000)
                    started = time.perf_counter()
                    await host.game_info(next(iter(fuzz.games.values())))
                    floor_ms.append((time.perf_counter() - started) * 1000)
            finally:
                await host.close()
        world += 1
    return call_ms, floor_ms, failures


def _floor(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[len(ordered) // 2] if ordered else 0.0


async def component_fuzz(clicks: int) -> tuple[list[float], list[str]]:
    """``clicks`` hostile clicks (``tests.e2e.componentfuzz``) on a bot talking to a fake Discord; the time of
    each click until its answer and everything it caused were delivered, and the failures."""
    import discord
    import yarl

    from tests.e2e.componentfuzz import ComponentFuzz
    from tests.e2e.conftest import Clock, Table
    from tests.e2e.fake_discord import FakeDiscord

    fake = FakeDiscord()
    await fake.start()
    saved = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.rest_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    times: list[float] = []
    failures: list[str] = []
    try:
        with scratch_directory() as directory:
            table = Table(fake, Path(directory) / "components.sqlite3", Clock())
            await table.start_bot()
            try:
                fuzz = ComponentFuzz(table, random.Random(17))
                await fuzz.set_up()
                for _ in range(clicks):
                    started = time.perf_counter()
                    try:
                        await fuzz.click_once()
                    except AssertionError as failure:
                        failures.append(str(failure))
                        table.running.unexpected_errors.clear()
                    times.append((time.perf_counter() - started) * 1000)
                await fuzz.check_games()
            finally:
                table.running.unexpected_errors.clear()
                await table.stop_bot()
    finally:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = saved
        await fake.stop()
    return times, failures


def run() -> None:
    sealed, windows = SealedGuess(), CardWindows()
    register(sealed)
    register(windows)  # card windows passed automatically: what a running game's export shows of them
    try:
        games = fuzzed_games()
        started = time.perf_counter()
        hostile_ms, legal_ms, parser_failures = parser_fuzz(games, PARSER_INPUTS)
        parser_seconds = time.perf_counter() - started
        started = time.perf_counter()
        call_ms, info_ms, host_failures = asyncio.run(host_fuzz(games, HOST_CALLS))
        host_seconds = time.perf_counter() - started
    finally:
        unregister(sealed.key)
        unregister(windows.key)
    started = time.perf_counter()
    click_ms, component_failures = asyncio.run(component_fuzz(COMPONENT_CLICKS))
    component_seconds = time.perf_counter() - started
    print(
        f"fuzz components: {len(click_ms)} hostile clicks through discord.py and the fake Discord in "
        f"{component_seconds:.1f} s; every one answered, never the apology: "
        f"{'met' if not component_failures else 'NOT met'} ({len(component_failures)} failures)"
    )
    print(line("fuzz component click (answer and deliveries)", click_ms, None))
    for failure in component_failures[:SHOWN]:
        print(f"  component: {failure[:400]}")
    print(line("fuzz parse+apply, hostile input", hostile_ms, _floor(legal_ms)))
    print(line("fuzz host call + invariant checks", call_ms, _floor(info_ms)))
    failures = parser_failures + host_failures
    print(
        f"fuzz: {len(hostile_ms) + len(call_ms)} inputs ({len(hostile_ms)} to the parsers of "
        f"{len(games)} games in {parser_seconds:.1f} s, {len(call_ms)} host calls in {host_seconds:.1f} s); "
        f"unhandled exceptions: {len(failures)} (goal 0: {'met' if not failures else 'NOT met'})"
    )
    for failure in failures[:SHOWN]:
        print(f"  unhandled: {failure[:400]}")
