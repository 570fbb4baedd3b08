"""Lobby: open a game in a channel, join, leave, fill seats with AI players, start."""

from __future__ import annotations

import inspect
import json
import secrets
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

from rules.engine import (
    Event,
    Game,
    Rng,
    RulesError,
    get_game,
)
from rules.engine.rng import SEED_BYTES, Seed, seed_scheme, shuffle_seats
from rules.engine.thinking import LevelError, split_level

from ..models import Actor, Delivery, GameInfo, HostError, SeatInfo
from ..ratings import pop_table_flags
from ..storage import Connection
from ..storage import games as stored_games
from ..storage import timers as stored_timers
from ..storage.base import run
from .away import Away
from .core import (
    LOBBY_IDLE_S,
    MAX_DEADLINE_H,
    MAX_OPEN_LOBBIES,
    MIN_DEADLINE_H,
    Change,
    Games,
    Live,
)
from .live import POSTS_CARD, POSTS_EVERY_MOVE, private
from .play import Play
from .standing import shipped_orders, shipped_orders_notice


class Lobby:
    """The lobby: creating a game, joining, leaving, adding AI seats, and starting it."""

    def __init__(self, games: Games, play: Play, away: Away) -> None:
        self.games = games
        self.play = play
        self.away = away

    async def create_game(
        self,
        guild_id: str | None,
        channel_id: str,
        actor: Actor,
        game_key: str,
        options: dict[str, str] | None = None,
        deadline_hours: float = 24.0,
        seat_creator: bool = True,
        seed: Seed | None = None,
    ) -> GameInfo:
        """Open a lobby; the creator takes the first seat unless ``seat_creator`` is False (self-play).

        A new game's seed is 256 bits from ``secrets`` (64 hex digits, the ``hmac-sha256`` scheme of
        ``rules.engine.rng``); self-play and tests may pass their own, an integer giving the legacy scheme.
        """
        options = dict(options or {})
        window_text = options.pop(
            "window", None
        )  # the card-window deadline in hours: a table option, not a rule
        table = pop_table_flags(options)  # rated=yes|no, replay=yes|no: table options too (bot.ratings)
        posts = _posts(options.pop("posts", POSTS_CARD))
        try:
            game = get_game(game_key)
            resolved = game.resolve_options(options)
        except RulesError as error:
            raise HostError(str(error)) from None
        window_hours = _window_hours(window_text, deadline_hours)
        if not MIN_DEADLINE_H <= deadline_hours <= MAX_DEADLINE_H:
            raise HostError("The decision deadline must be between 1 hour and 7 days (168 hours).")
        seed_text = secrets.token_hex(SEED_BYTES) if seed is None else str(seed)
        seed_scheme(seed_text)  # a seed given by a caller must be one the generators take
        if await self.games.game_in_channel(channel_id):
            raise HostError("This channel already has a game. Finish or abandon it first (/game status).")
        await self._check_lobby_cap(actor)
        now = self.games.clock()
        window = int(window_hours * 3600)
        async with self.games.store.transaction() as db:
            game_id = await stored_games.create_lobby(
                db,
                (
                    guild_id,
                    channel_id,
                    game.key,
                    json.dumps(resolved),
                    seed_text,
                    game.rules_version,
                    actor.user_id,
                    int(deadline_hours * 3600),
                    window,
                    now,
                    now,
                    int(table["rated"]),
                    int(table["replay"]),
                    posts,
                ),
            )
            if seat_creator:
                await stored_games.seat_creator(db, game_id, actor.user_id, actor.name)
            # a lobby nobody starts closes by itself (see Deadlines._close_idle_lobby)
            await run(db, stored_timers.lobby_idle(game_id, now + LOBBY_IDLE_S))
        self.games.timers_changed.set()
        return await self.games.game_info(game_id)

    async def _check_lobby_cap(self, actor: Actor) -> None:
        """A user may keep only a few lobbies open at once (across all servers), so nobody fills the database
        or a server's channels with lobbies nobody starts."""
        lobbies = await stored_games.open_lobbies_of(self.games.store, actor.user_id)
        if len(lobbies) >= MAX_OPEN_LOBBIES:
            where = ", ".join(f"#{game_id} (<#{channel_id}>)" for game_id, channel_id in lobbies)
            raise HostError(
                f"You already have {len(lobbies)} open lobbies, the most one person may keep: {where}. Start or "
                "abandon one of them first (/game start, /game abandon in its channel)."
            )

    async def _lobby(self, channel_id: str) -> Live:
        live = await self.games.live_in_channel(channel_id)
        if live.row["status"] != "lobby":
            raise HostError("The game has already started.")
        return live

    async def join(self, channel_id: str, actor: Actor) -> GameInfo:
        live = await self._lobby(channel_id)
        if any(seat.user_id == actor.user_id for seat in live.seats):
            raise HostError("You have already joined this game.")
        await self._add_seat(live, actor.user_id, actor.name, None)
        return await self.games.game_info(live.id)

    async def add_ai(self, channel_id: str, actor: Actor, level: str | None = None) -> GameInfo:
        live = await self._lobby(channel_id)
        self.games.require_seated_or_creator(live, actor)
        level = " ".join((level or live.game.ai_levels[0]).lower().split())
        try:
            name, seconds = split_level(level)
        except LevelError as error:
            raise HostError(str(error)) from None
        if name not in self.games.ai_levels(live.game):
            raise HostError(f"AI levels for {live.game.title}: {', '.join(self.games.ai_levels(live.game))}.")
        level = name if seconds is None else f"{name}:{seconds:g}s"  # the seat's own time cap (thinking.py)
        await self._add_seat(live, None, f"AI {level}", level)
        return await self.games.game_info(live.id)

    async def _add_seat(self, live: Live, user_id: str | None, name: str, level: str | None) -> None:
        if len(live.seats) >= live.game.max_players:
            raise HostError(f"{live.game.title} is full ({live.game.max_players} players).")
        async with self.games.store.transaction() as db:
            await self.games.store.bump_version(db, live.id, live.version, self.games.clock())
            await stored_games.add_seat(db, live.id, len(live.seats), user_id, name, level)

    async def leave(self, channel_id: str, actor: Actor) -> GameInfo:
        live = await self._lobby(channel_id)
        if not any(seat.user_id == actor.user_id for seat in live.seats):
            raise HostError("You are not in this game.")
        remaining = [seat for seat in live.seats if seat.user_id != actor.user_id]
        async with self.games.store.transaction() as db:
            await self.games.store.bump_version(db, live.id, live.version, self.games.clock())
            await self._write_seats(db, live.id, remaining)
            if not any(seat.user_id for seat in remaining):
                await stored_games.abandon_now(db, live.id)
        return await self.games.game_info(live.id)

    @staticmethod
    async def _write_seats(db: Connection, game_id: int, seats: list[SeatInfo]) -> None:
        await stored_games.replace_seats(
            db, game_id, [(s.user_id, s.name, s.ai_level, s.away) for s in seats]
        )

    async def start(self, channel_id: str, actor: Actor, order: str = "random") -> list[Delivery]:
        live = await self._lobby(channel_id)
        self.games.require_seated_or_creator(live, actor)
        game, row = live.game, live.row
        if len(live.seats) < game.min_players:
            raise HostError(
                f"{game.title} needs at least {game.min_players} players; "
                f"{len(live.seats)} joined. Others can /game join, or add an AI with /game ai."
            )
        seats = list(live.seats)
        if order == "random":
            shuffle_seats(row["seed"], seats)
        elif order != "given":
            raise HostError("Seat order is `random` or `given`.")
        rng = Rng.for_event(row["seed"], 0)
        try:
            state = game.setup(len(seats), json.loads(row["options"]), rng)
        except RulesError as error:
            raise HostError(str(error)) from None
        now = self.games.clock()
        seats = [SeatInfo(i, s.user_id, s.name, s.ai_level, s.away) for i, s in enumerate(seats)]
        change = Change()
        change.events.append((None, "setup", list(rng.draws), actor.user_id, []))
        change.statements += [
            stored_games.start(live.id, len(seats)),
            stored_timers.clear_lobby_idle(live.id),
        ]
        people = [seat.user_id for seat in seats if seat.user_id is not None]
        shipped, orders = await shipped_orders(self.games.store, game, live.id, people, now)
        change.statements += shipped
        started = replace(
            live,
            row={**row, "status": "active", "num_players": len(seats)},
            seats=seats,
            state=state,
            seq=-1,
            orders=orders,
        )
        order_text = ", ".join(f"{s.seat + 1}. {s.label}" for s in seats)
        self.games.turn_deliveries(
            started, {}, [Event("start", f"{game.title} begins. Seats: {order_text}.")], change
        )
        change.deliveries += [
            told
            for seat in seats
            if seat.user_id in orders
            and (
                told := private(
                    started, seat.seat, shipped_orders_notice(game, live.id, orders[seat.user_id]), False
                )
            )
        ]
        async with self.games.lock(live.id):
            async with self.games.store.transaction() as db:
                await self.games.store.bump_version(db, live.id, live.version, now)
                await self._write_seats(db, live.id, seats)
                await self.games.write_change(db, started, change, now)
        self.games.known[live.id] = replace(started, pending_state=state, pending_seq=0)
        return change.deliveries + await self.away.cover_away_seats(live.id) + await self.play.run_ai(live.id)


def _window_hours(text: str | None, deadline_hours: float) -> float:
    """Hours a card window stays open (option ``window=H``): default 2, never longer than the decision deadline."""
    if text is None:
        return min(2.0, deadline_hours)
    try:
        hours = float(text)
    except ValueError:
        raise HostError("Option `window` takes a number of hours, for example `window=2`.") from None
    if not 0.25 <= hours <= deadline_hours:
        raise HostError(
            f"Card windows last from 0.25 hours up to the decision deadline ({deadline_hours:g} h)."
        )
    return hours


def _measured(game: Game, level: str) -> tuple[int, int, int, str] | None:
    """(won, lost, drawn, against) of an AI level's head-to-head in ``rules/<game>/strength.json`` (written by
    ``python -m bench ai`` and a game's own benchmark); None when unmeasured or unreadable."""
    figures = _strength_figures(type(game)).get(split_level(level)[0]) if level else None
    if not isinstance(figures, dict):
        return None
    try:
        return int(figures["won"]), int(figures["lost"]), int(figures["drawn"]), str(figures["against"])
    except (KeyError, TypeError, ValueError):
        return None


def level_strength(game: Game, level: str) -> str | None:
    """What the benchmark measured of an AI level head to head, as a short phrase; None when unmeasured."""
    measured = _measured(game, level)
    if measured is None:
        return None
    won, lost, drawn, against = measured
    # read back by the catalog ("against {level}: {wins}, {loss}, {loss2} of {games}..."), each count by its own
    # plural entry ("won {n}", "lost {n}", "drawn {n}", "{n} games")
    decided = won + lost
    total = won + lost + drawn
    share = f" ({won / decided:.0%} of the decided games)" if decided else ""
    games = f"{total} game" if total == 1 else f"{total} games"
    return f"against `{against}`: won {won}, lost {lost}, drawn {drawn} of {games}{share}"


def level_share(game: Game, level: str) -> str | None:
    """The short form of ``level_strength`` for a list of levels (an autocomplete name holds 100 characters):
    "won 60% against `greedy`"; None when unmeasured or nothing was decided."""
    measured = _measured(game, level)
    if measured is None or not measured[0] + measured[1]:
        return None
    won, lost, _drawn, against = measured
    return f"won {won / (won + lost):.0%} against `{against}`"


def strength_lines(game: Game, levels: list[str]) -> list[str]:
    """One line per measured level among ``levels`` (in their order, each once)."""
    lines = []
    for level in dict.fromkeys(split_level(level)[0] for level in levels):
        measured = level_strength(game, level)
        if measured:
            lines.append(f"`{level}`: {measured}")
    return lines


@cache
def _strength_figures(game_class: type) -> dict[str, Any]:
    """The game package's strength file, read once (an absent or broken file measures nothing)."""
    try:
        path = Path(inspect.getfile(game_class)).parent / "strength.json"
        data = json.loads(path.read_text())
    except (OSError, TypeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def lobby_message(info: GameInfo) -> str:
    """The lobby's text, with the AI levels' measured strength (from the benchmark's head-to-heads)."""
    game = get_game(info.key)
    lines = strength_lines(game, Games.ai_levels(game))
    if not lines:
        return info.lobby_text()
    return (
        info.lobby_text() + "\nAI levels, measured head to head:\n" + "\n".join(f"- {line}" for line in lines)
    )


def _posts(text: str) -> str:
    """The ``posts`` table option: ``card`` (one live card per game, edited) or ``every-move`` (a board each move)."""
    value = text.strip().lower()
    if value not in (POSTS_CARD, POSTS_EVERY_MOVE):
        shown = text.replace("`", "'")
        raise HostError(f"Option `posts` takes `{POSTS_CARD}` or `{POSTS_EVERY_MOVE}`, not `{shown}`.")
    return value
