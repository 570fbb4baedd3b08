"""Random sequences of host calls with hostile arguments, and the invariants that must hold after each one.

A table is set up in guild 1 (alice and bob seated, plus AI seats as the game needs), another game runs in
guild 2 (eve's), and a lobby stays open in a third channel. Then random calls follow: real moves (so games
progress and end), hostile text, stale and garbage button ids, expiry answers, outsiders, moderators and
non-moderators, lobby commands with absurd arguments, read-only queries, time jumps that fire deadlines.

After every call:
- only ``HostError`` (with a sentence) reached the caller (``UnhandledError`` otherwise);
- each started game's stored state equals the replay of its events, cached or rebuilt from a snapshot;
- a call by someone not seated at the table, a stale button, or an admin command without the permission
  changed nothing (version, events, outbox, sealed choices, seats, votes: all as before).

Shared by ``test_host_fuzz`` (a hypothesis-driven ``random.Random``) and ``bench/bench_fuzz.py`` (volume).
"""

from __future__ import annotations

import math
import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.host import Actor, Host, HostError
from bot.replay import load_log
from rules.engine import available_games, get_game
from tests.security.hostile import UnhandledError, hostile_text

ALICE, BOB = Actor("100", "alice"), Actor("200", "bob")
#: not seated anywhere
MALLORY = Actor("666", "mallory")
#: seated only in the game of another guild
EVE = Actor("777", "eve")
#: Manage Channels in guild 1, not seated
MOD = Actor("900", "moderator", can_manage=True)
#: takes over seats when a seat is handed on (/game sub)
SAM = Actor("555", "sam")
ACTORS = (ALICE, BOB, MALLORY, EVE, MOD, SAM)
TABLE, FOREIGN, LOBBY = "guild-1/table", "guild-2/foreign", "guild-1/lobby"
CHANNELS = (TABLE, FOREIGN, LOBBY, "guild-1/empty", "")
#: odd game ids a forged or corrupted button could carry
ODD_IDS = (-1, 0, 10**12, 2**63 - 1, 2**63, 2**70)
#: the seat part of a forged expiry id
EXPIRY_SEATS = ("0", "1", "7", "-1", "99999999999999999999", "-0", "1_000", "٣", "nan", "", "move", ":")
DEADLINES = (0.0, -1.0, 0.5, 1.0, 24.0, 168.0, 168.01, 1e308, math.inf, -math.inf, math.nan)


class HostFuzz:
    """One world of games on one host, driven by ``rng``; ``step`` makes one random call and checks."""

    def __init__(self, host: Host, clock: Any, rng: random.Random, key: str) -> None:
        self.host, self.clock, self.rng, self.key = host, clock, rng, key
        self.games: dict[str, int] = {}
        #: every decision id ever offered, per game: the stale buttons of later steps
        self.seen_decisions: dict[int, set[str]] = {}
        self.calls = 0

    # ---- set-up -------------------------------------------------------------------------------------------
    async def setup(self) -> None:
        game = get_game(self.key)
        await self._table(TABLE, [ALICE, BOB], game.max_players, guild="guild-1")
        await self._table(FOREIGN, [EVE], game.min_players, guild="guild-2")
        await self.host.create_game("guild-1", LOBBY, Actor("300", "carol"), self.key)

    async def _table(self, channel: str, people: list[Actor], players: int, guild: str) -> None:
        seated = people[: max(1, min(len(people), players))]
        info = await self.host.create_game(
            guild, channel, seated[0], self.key, seed=self.rng.randrange(2**32)
        )
        for actor in seated[1:]:
            await self.host.join(channel, actor)
        for _ in range(max(0, self.rng.randint(get_game(self.key).min_players, players) - len(seated))):
            await self.host.add_ai(channel, seated[0], "random")
        await self.host.start(channel, seated[0], order=self.rng.choice(["random", "given"]))
        self.games[channel] = info.game_id

    # ---- one step -----------------------------------------------------------------------------------------
    async def step(self) -> str:
        """One random call; returns its name. Raises ``UnhandledError`` or ``AssertionError`` on a bug."""
        name, operation, must_not_change = self.rng.choice(self._operations())
        before = {gid: await self.fingerprint(gid) for gid in self.games.values()} if must_not_change else {}
        description, call = await operation()
        self.calls += 1
        refused = await self._run(description, call)
        for gid, fingerprint in before.items():
            assert await self.fingerprint(gid) == fingerprint, f"{description} changed game {gid}"
            assert refused or name == "outsider query", f"{description} was accepted"
        await self.check_replay()
        return name

    def _operations(self) -> list[tuple[str, Callable[[], Awaitable[tuple[str, Any]]], bool]]:
        return [
            ("move", self.legal_move, False),
            ("move", self.legal_move, False),
            ("move", self.legal_move, False),
            ("hostile move", self.hostile_move, False),
            ("stale button", self.stale_button, True),
            ("outsider", self.outsider_call, True),
            ("outsider query", self.outsider_query, True),
            ("no permission", self.unauthorised_admin, True),
            ("table", self.table_call, False),
            ("expiry", self.expiry_answer, False),
            ("time", self.time_passes, False),
            ("lobby", self.lobby_call, False),
            ("query", self.query_call, False),
        ]

    async def _run(self, description: str, call: Awaitable[Any]) -> bool:
        """Await the call; True when the host refused it with a sentence."""
        try:
            await call
        except HostError as error:
            if not is_sentence(str(error)):
                raise UnhandledError(f"{description}: HostError {str(error)!r} is not a sentence") from error
            return True
        except Exception as error:  # noqa: BLE001 - anything but HostError reaching a caller is the bug
            raise UnhandledError(f"{description}: {type(error).__name__}: {error}") from error
        return False

    # ---- invariants ---------------------------------------------------------------------------------------
    async def fingerprint(self, game_id: int) -> tuple[Any, ...]:
        """Everything a call could change about a game."""
        store = self.host.store
        row = await store.fetchone("SELECT version, status, channel_id FROM games WHERE id = ?", (game_id,))
        counts = []
        for table in ("events", "outbox", "sealed", "votes", "timers"):
            counted = await store.fetchone(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?", (game_id,))
            counts.append(counted[0] if counted else None)
        seats = await store.fetchall(
            "SELECT seat, user_id, ai_level, away, missed FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return (tuple(row) if row else None, *counts, tuple(tuple(seat) for seat in seats))

    async def check_replay(self) -> None:
        """The stored game equals the replay of its events: as this process has it cached, and as rebuilt."""
        for game_id in self.games.values():
            replayed = await self.host.replay_state(game_id)
            cached = await self.host.games.load(game_id)  # noqa: SLF001 - the loaded state is what is checked
            assert cached.state == replayed, (
                f"game {game_id}: the loaded state is not the replay of its events"
            )
            self.host.games.known.pop(game_id, None)  # noqa: SLF001 - force a rebuild from snapshot and events
            rebuilt = await self.host.games.load(game_id)  # noqa: SLF001
            assert rebuilt.state == replayed, f"game {game_id}: snapshot + events is not the replay"

    # ---- helpers ------------------------------------------------------------------------------------------
    def _game_id(self) -> int:
        if self.rng.random() < 0.1:
            return self.rng.choice(ODD_IDS)
        return self.rng.choice(list(self.games.values()))

    def _text(self, legal: list[str]) -> str:
        return hostile_text(self.rng, legal)

    def _away_text(self) -> str:
        """What ``/away until`` gets: hostile text, or a real moment (issue 42) too soon for a spell's day, a day
        or a few away (a decision waiting for the seat then stays its player's), or beyond any allowance."""
        if self.rng.random() < 0.5:
            return self._text([])
        now = self.clock.now
        return f"<t:{int(now + self.rng.choice([120, 86400 + 60, 3 * 86400, 400 * 86400]))}>"

    async def _legal(self, game_id: int, user_id: str) -> list[str]:
        return [choice.action for choice in await self.host.suggestions(game_id, user_id, limit=200)]

    async def _answers(self, game_id: int, actor: Actor) -> list[str]:
        """The actor's legal actions that answer a decision. Free actions (PRINCIPES' gifts and sales)
        answer none: by the engine contract they are taken whatever prompt is open, so their buttons never go
        stale."""
        info = await self.host.game_info(game_id)
        seat = info.seat_of(actor.user_id)
        if seat is None or info.status != "active":
            return []
        game, state = get_game(info.key), await self.host.replay_state(game_id)
        return [a for a in await self._legal(game_id, actor.user_id) if not game.is_free(state, seat.seat, a)]

    def _remember(self, game_id: int, decision_id: str) -> None:
        self.seen_decisions.setdefault(game_id, set()).add(decision_id)

    # ---- the calls ----------------------------------------------------------------------------------------
    async def legal_move(self) -> tuple[str, Awaitable[Any]]:
        """A seated person answers their open decision as offered: games move on and reach their end."""
        game_id = self.rng.choice(list(self.games.values()))
        info = await self.host.game_info(game_id)
        users = [u for u in info.pending_users if not await self.host.has_sealed(game_id, u)]
        user = self.rng.choice(users) if users else ALICE.user_id
        actor = next((a for a in ACTORS if a.user_id == user), ALICE)
        prompt = await self.host.prompt_of(game_id, actor.user_id)
        if prompt is None or not prompt.choices:
            return "legal move (nobody to move)", self.host.act(game_id, actor, "pass")
        self._remember(game_id, prompt.decision_id)
        choice = self.rng.choice(prompt.choices)
        return f"move {choice.action!r} by {actor.name}", self.host.act(
            game_id, actor, choice.action, prompt.decision_id
        )

    async def hostile_move(self) -> tuple[str, Awaitable[Any]]:
        game_id = self._game_id()
        actor = self.rng.choice(ACTORS)
        legal = await self._legal(game_id, actor.user_id) if game_id in self.games.values() else []
        text = self._text(legal)
        decision_id = self.rng.choice([None, self._text([]), "", "round-1"])
        return f"act({game_id}, {actor.name}, {text[:80]!r}, {decision_id!r})", self.host.act(
            game_id, actor, text, decision_id
        )

    async def stale_button(self) -> tuple[str, Awaitable[Any]]:
        """A seated player clicks a button of a decision that is no longer open (or never was)."""
        game_id = self.rng.choice([self.games[TABLE], self.games[FOREIGN]])
        actor = EVE if game_id == self.games[FOREIGN] else self.rng.choice([ALICE, BOB])
        current = await self.host.prompt_of(game_id, actor.user_id)
        old = sorted(self.seen_decisions.get(game_id, set()) - {current.decision_id if current else ""})
        stale = self.rng.choice([*old, f"stale-{self.rng.randrange(1000)}", "x" * 300])
        action = self.rng.choice(await self._answers(game_id, actor) or ["pass"])
        if current is not None and stale == current.decision_id:  # pragma: no cover - excluded above
            stale = "never-offered"
        return f"stale button {stale[:40]!r} {action!r} by {actor.name}", self.host.act(
            game_id, actor, action, stale
        )

    async def outsider_call(self) -> tuple[str, Awaitable[Any]]:
        """Someone not seated at the guild-1 table tries to change it: every such call is refused."""
        actor = self.rng.choice([MALLORY, EVE])
        game_id = self.games[TABLE]
        legal = (await self._legal(game_id, ALICE.user_id)) or ["pass"]
        calls: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            ("act", lambda: self.host.act(game_id, actor, self.rng.choice(legal))),
            ("undo", lambda: self.host.undo(TABLE, actor)),
            ("resign", lambda: self.host.resign(TABLE, actor)),
            ("pause", lambda: self.host.pause(TABLE, actor)),
            ("resume", lambda: self.host.resume(TABLE, actor, guild_id="guild-1")),
            ("draw", lambda: self.host.offer_draw(TABLE, actor)),
            ("abandon", lambda: self.host.abandon(TABLE, actor)),
            ("back", lambda: self.host.back(TABLE, actor)),
            ("sub", lambda: self.host.sub(TABLE, actor, MALLORY)),
            ("hand", lambda: self.host.hand(TABLE, actor)),
            ("expiry", lambda: self.host.answer_expiry(game_id, actor, "0:round-1", "claim")),
        ]
        name, make = self.rng.choice(calls)
        return f"{name} by outsider {actor.name}", make()

    async def outsider_query(self) -> tuple[str, Awaitable[Any]]:
        """Read-only calls by an outsider: answered or refused, never a change, never someone's hand."""
        actor = self.rng.choice([MALLORY, EVE])
        game_id = self.games[TABLE]

        async def queries() -> None:
            assert await self.host.suggestions(game_id, actor.user_id, self._text([])) == []
            assert await self.host.prompt_of(game_id, actor.user_id) is None
            assert not await self.host.has_sealed(game_id, actor.user_id)
            await self.host.status(TABLE)

        return f"queries by outsider {actor.name}", queries()

    async def unauthorised_admin(self) -> tuple[str, Awaitable[Any]]:
        """Admin powers without Manage Channels: handing over another's seat is refused."""
        actor = self.rng.choice([ALICE, BOB, MALLORY])
        seat = self.rng.choice([0, 1, -1, 5, 10**9])
        return f"sub of seat {seat} by {actor.name}", self.host.sub(TABLE, actor, MALLORY, seat)

    async def table_call(self) -> tuple[str, Awaitable[Any]]:
        """Seated players and the moderator use the table commands at random moments."""
        channel = self.rng.choice([TABLE, FOREIGN])
        actor = EVE if channel == FOREIGN else self.rng.choice([ALICE, BOB, MOD])
        seat = self.rng.choice([None, 0, 1, 3, -1, 10**6])
        calls: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            ("undo", lambda: self.host.undo(channel, actor)),
            ("resign", lambda: self.host.resign(channel, actor)),
            ("pause", lambda: self.host.pause(channel, actor)),
            ("resume", lambda: self.host.resume(channel, actor, guild_id=channel.split("/")[0])),
            ("draw", lambda: self.host.offer_draw(channel, actor)),
            ("back", lambda: self.host.back(channel, actor)),
            ("sub", lambda: self.host.sub(channel, actor, SAM, seat)),
            ("abandon", lambda: self.host.abandon(channel, actor)),
            ("channel lost", lambda: self.host.channel_lost(channel)),
        ]
        weights = [3, 1, 2, 2, 2, 1, 1, 1 if self.rng.random() < 0.3 else 0, 1]
        name, make = self.rng.choices(calls, weights)[0]
        return f"{name} in {channel} by {actor.name} (seat {seat})", make()

    async def expiry_answer(self) -> tuple[str, Awaitable[Any]]:
        """Answers to "the deadline passed" prompts, mostly with forged or garbage ids and choices."""
        game_id = self._game_id()
        actor = self.rng.choice(ACTORS)
        seat = self.rng.choice(EXPIRY_SEATS)
        expiry_id = self.rng.choice([f"{seat}:{self._text([])}", f"{seat}:round-1", seat])
        choice = self.rng.choice(["claim", "wait", "ai", "", self._text(["claim", "wait", "ai"])])
        return f"answer_expiry({game_id}, {actor.name}, {expiry_id[:60]!r}, {choice[:30]!r})", (
            self.host.answer_expiry(game_id, actor, expiry_id, choice)
        )

    async def time_passes(self) -> tuple[str, Awaitable[Any]]:
        hours = self.rng.choice([0.5, 6, 20, 30, 80, 200])
        self.clock.advance(hours * 3600)
        return f"{hours} h pass, timers fire", self.host.fire_due_timers()

    async def lobby_call(self) -> tuple[str, Awaitable[Any]]:
        channel = self.rng.choice(CHANNELS)
        actor = self.rng.choice(ACTORS)
        keys = [*available_games(), self.key, "", "principes", "BABYLONE ", self._text(available_games())]
        key = self.rng.choice(keys)
        options = self.rng.choice(
            [
                {},
                {self._text([]): self._text([])},
                {"first": self._text([])},
                {"dice": "", "goal": "-1"},
                {"map": "\x00"},
            ]
        )
        deadline = self.rng.choice(DEADLINES)
        level = self.rng.choice([None, "random", "", self._text(["random", "strategist", "perfect"])])
        calls: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            (
                f"create {key[:30]!r} {options} {deadline} h",
                lambda: self.host.create_game(
                    "guild-1",
                    channel,
                    actor,
                    key,
                    options,
                    deadline,
                    seed=self.rng.choice([None, 1, -5, 2**70]),
                ),
            ),
            ("join", lambda: self.host.join(channel, actor)),
            ("leave", lambda: self.host.leave(channel, actor)),
            (f"add_ai {level!r}", lambda: self.host.add_ai(channel, actor, level)),
            ("start", lambda: self.host.start(channel, actor, self.rng.choice(["random", "given", "", "x"]))),
        ]
        name, make = self.rng.choice(calls)
        return f"{name} in {channel!r} by {actor.name}", make()

    async def query_call(self) -> tuple[str, Awaitable[Any]]:
        channel = self.rng.choice(CHANNELS)
        actor = self.rng.choice(ACTORS)
        game_id = self._game_id()
        calls: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            (
                "suggestions",
                lambda: self.host.suggestions(
                    game_id, actor.user_id, self._text([]), self.rng.choice([0, -3, 1, 25, 10**6])
                ),
            ),
            ("board", lambda: self.host.board(channel, self._text([]))),
            ("hand", lambda: self.host.hand(channel, actor)),
            ("log", lambda: self.host.log(channel, self.rng.choice([-(10**9), 0, 1, 20, 10**9]))),
            ("status", lambda: self.host.status(channel)),
            ("rules", lambda: _as_awaitable(lambda: self.host.rules_text(self._text(available_games())))),
            ("game info", lambda: self.host.game_info(game_id)),
            ("prompt", lambda: self.host.prompt_of(game_id, actor.user_id)),
            ("my games", lambda: self.host.my_games(actor.user_id)),
            (
                "setting",
                lambda: self.host.set_setting(
                    actor.user_id,
                    self.rng.choice(
                        [
                            "turn_dms",
                            "x",
                            "",
                            "mentions",
                            "quiet_hours",
                            "time_zone",
                            "reminders",
                            "mute",
                            "unmute",
                        ]
                    ),
                    self.rng.choice(
                        ["on", "off", "ON", "22:00-07:00", "50%,10%", "Europe/Paris", self._text([])]
                    ),
                ),
            ),
            ("away", lambda: self.host.go_away(actor, self._away_text(), self.rng.choice(["guild-1", None]))),
            ("away off", lambda: self.host.come_back(actor)),
            ("away status", lambda: self.host.away_text(actor.user_id)),
            ("export", lambda: self.host.export(channel)),
            ("replay log", lambda: load_log(self.host.store, game_id)),
        ]
        name, make = self.rng.choice(calls)
        return f"{name} ({channel!r}, {game_id}, {actor.name})", make()


#: the names a refusal may begin with: Discord names are often written in lower case ("bob is away ...")
NAMES = (*(actor.name for actor in ACTORS), "carol")


def is_sentence(text: str) -> bool:
    """What a player is shown: starts with a capital (or a name, a quote, a mark) and ends like a sentence.

    >>> is_sentence("bob is away (/away): their seat is not handed over."), is_sentence("no such seat.")
    (True, False)
    """
    text = text.strip()
    named = any(text.startswith(f"{name} ") for name in NAMES)
    return bool(text) and (named or not text[0].islower()) and text[-1] in ".!?)`'\""


async def _as_awaitable(function: Callable[[], Any]) -> Any:
    """Run a synchronous host call where an awaitable is expected (so its errors are judged the same way)."""
    return function()


async def run_fuzz(host: Host, clock: Any, rng: random.Random, key: str, steps: int) -> dict[str, int]:
    """Set up a world for game ``key`` and make ``steps`` random calls; returns how many of each kind ran."""
    fuzz = HostFuzz(host, clock, rng, key)
    await fuzz.setup()
    counts: dict[str, int] = {}
    for _ in range(steps):
        name = await fuzz.step()
        counts[name] = counts.get(name, 0) + 1
    return counts
