"""Self-played games through the host, recorded so each message can be checked against the state it came from.

The host stamps each stored step (its events and the outbox rows of the messages it causes) with one reading
of its clock. A clock that moves on at every reading gives each step a timestamp of its own, and the state
a message was produced from is the replay of the events stamped no later than the message: this is how the
leak scan knows, for each delivery, which secrets existed at the time, without reaching into the host.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.host import Actor, Delivery, Host
from rules.engine import Game, State, get_game
from rules.engine.playout import replay_steps, setup_state

GUILD = "guild-1"
#: people who may sit at a table in these games; the first one opens the lobby
PLAYERS = tuple(
    Actor(str(100 * (index + 1)), name) for index, name in enumerate(("alice", "bob", "carol", "dave"))
)


def scratch_directory() -> tempfile.TemporaryDirectory[str]:
    """A temporary directory for throw-away databases, in memory (/dev/shm) where the system has one: these
    tests make thousands of small commits, and waiting for a disk's fsync would be most of their time."""
    memory = Path("/dev/shm")
    usable = memory.is_dir() and os.access(memory, os.W_OK)
    return tempfile.TemporaryDirectory(prefix="princes-security-", dir=memory if usable else None)


class TickingClock:
    """A fake clock that moves on a little at every reading: each stored step gets a timestamp of its own."""

    def __init__(self, now: float = 1_800_000_000.0, tick: float = 0.01) -> None:
        self.now = now
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Stamped:
    """One outbox row as a front-end would post it, with the state the host had when it was stored."""

    delivery: Delivery
    state: State | None


@dataclass
class PlayedGame:
    game_id: int
    game: Game
    seat_users: list[str | None]
    seat_names: list[str]
    deliveries: list[Stamped]
    #: the sealed submissions with their nonces (the host publishes them when the game ends)
    sealed: list[dict[str, Any]]
    final_state: State
    #: what was asked for during play (/board, /hand, log, status): (seat or None for public, view, state)
    snapshots: list[tuple[int | None, dict[str, Any], State]] = field(default_factory=list)


async def open_game(
    host: Host, key: str, channel: str, humans: int, players: int, seed: int, ai_level: str
) -> int:
    """A started game of ``key`` with ``humans`` people (the first of PLAYERS) and AI seats for the rest."""
    creator = PLAYERS[0]
    info = await host.create_game(GUILD, channel, creator, key, seed=seed, seat_creator=humans > 0)
    for actor in PLAYERS[1:humans]:
        await host.join(channel, actor)
    for _ in range(players - humans):
        await host.add_ai(channel, creator, ai_level)
    await host.start(channel, creator)
    return info.game_id


async def play_turn(host: Host, game_id: int, rng: random.Random) -> bool:
    """One person whose decision is open answers it with a random offered choice; False when nobody can act.

    Now and then the answer is typed instead of clicked, to go through the parser as well.
    """
    return await play_one(host, game_id, rng) is not None


async def play_one(host: Host, game_id: int, rng: random.Random) -> list[Delivery] | None:
    """``play_turn``'s move, returning what the host delivered for it (None when nobody could act)."""
    info = await host.game_info(game_id)
    if info.status != "active":
        return None
    waiting = [user for user in info.pending_users if not await host.has_sealed(game_id, user)]
    if not waiting:
        return None
    user = rng.choice(waiting)
    actor = next(actor for actor in PLAYERS if actor.user_id == user)
    prompt = await host.prompt_of(game_id, user)
    assert prompt is not None and prompt.choices, f"game {game_id}: {actor.name} is awaited without a choice"
    choice = rng.choice(prompt.choices)
    typed = rng.random() < 0.15
    return await host.act(game_id, actor, choice.action, None if typed else prompt.decision_id)


async def state_now(host: Host, game_id: int) -> State:
    """The game's current state, rebuilt from its stored events alone."""
    return await host.replay_state(game_id)


async def take_snapshots(host: Host, played: PlayedGame, channel: str) -> None:
    """Ask for the public board, log and status and every person's hand, as /board, /game log, /game status
    and /hand do, and keep what came back (the texts under a "text" key, to be scanned like a view)."""
    state = await state_now(host, played.game_id)
    board = await host.board(channel)
    played.snapshots.append((None, board.view, state))
    texts = [board.text, await host.log(channel, 200)]
    if (await host.game_info(played.game_id)).status == "active":
        texts.append(await host.status(channel))
    played.snapshots.append((None, {"text": "\n".join(texts)}, state))
    for seat, user in enumerate(played.seat_users):
        actor = next((actor for actor in PLAYERS if actor.user_id == user), None)
        if actor is not None:
            played.snapshots.append((seat, (await host.hand(channel, actor)).view, state))


async def self_play(
    host: Host,
    key: str,
    channel: str,
    seed: int,
    humans: int,
    players: int,
    ai_level: str = "random",
    max_turns: int = 400,
    snapshot_every: int = 7,
) -> PlayedGame:
    """Play one game to its end (or ``max_turns`` human turns) and return every message it caused, stamped."""
    rng = random.Random(seed)
    game_id = await open_game(host, key, channel, humans, players, seed, ai_level)
    info = await host.game_info(game_id)
    played = PlayedGame(
        game_id,
        get_game(key),
        [seat.user_id for seat in info.seats],
        [seat.name for seat in info.seats],
        [],
        [],
        {},
    )
    for turn in range(max_turns):
        if turn % snapshot_every == 0:
            await take_snapshots(host, played, channel)
        if not await play_turn(host, game_id, rng):
            break
    played.deliveries = await stamped_deliveries(host, game_id)
    played.sealed = await host.sealed_record(game_id)
    played.final_state = await state_now(host, game_id)
    return played


async def stamped_deliveries(host: Host, game_id: int) -> list[Stamped]:
    """Every outbox row of the game, each with the replayed state as of the step that stored it."""
    row = await host.store.fetchone("SELECT num_players, options FROM games WHERE id = ?", (game_id,))
    assert row is not None
    game = get_game((await host.game_info(game_id)).key)
    events = await host.store.events(game_id, -1)
    timeline: list[tuple[float, State]] = []
    start = setup_state(game, row["num_players"], json.loads(row["options"]), events[0])
    timeline.append((events[0].created_at, start))
    for event, _before, state in replay_steps(game, start, events[1:]):
        timeline.append((event.created_at, state))
    rows = await host.store.fetchall(
        "SELECT id, payload, created_at FROM outbox WHERE game_id = ? ORDER BY id", (game_id,)
    )
    stamped = []
    for outbox in rows:
        delivery = Delivery.from_payload(outbox["id"], json.loads(outbox["payload"]))
        known = [state for stamp, state in timeline if stamp <= outbox["created_at"]]
        stamped.append(Stamped(delivery, known[-1] if known else None))
    return stamped
