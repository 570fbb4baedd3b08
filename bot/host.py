"""The host service: lobby, seats, turn flow, sealed decisions, AI seats, deadlines and the outbox.

It imports no discord. The Discord cogs, the console and the tests all drive this one class, so no front-end
holds game logic. Every change is one storage transaction: event(s), version bump, snapshot, timers and the
outbox rows of the messages it causes. Deliveries returned to the caller are those outbox rows.

``Host`` is a thin facade: it builds the parts in ``bot/hosting`` and hands each public call to the part that
owns it (explicitly, below). Each part names what it depends on in its constructor:

- ``core.Games`` (``host.games``): the shared part. It loads games (``Live``, cached per version), holds the
  per-game locks, stores a change in one transaction and owns the outbox; all SQL is in ``bot/storage``.
- ``play.Play`` (games): moves, sealed decisions, AI seats, undo. Each move is the pure turn step
  ``step.turn_step`` / ``step.seal_step`` (a loaded game and its moves in, the game after them and the
  ``Change`` to store out; no database, no clock) between loading the game and storing the change.
- ``away.Away`` (games, play): away mode and its yearly allowance.
- ``lobby.Lobby`` (games, play, away), ``table.Table`` (games, play): creating and starting games; pause,
  resign, draws, substitutes.
- ``deadlines.Deadlines`` (games, play, away): reminders, deadlines, automatic passes, orders' answers.
- ``queries.Queries``, ``catchup.CatchUps``, ``standing.Standing``, ``language.Language`` (games): answers
  that change no game, the catch-up digests, standing orders and answers ahead, languages.
"""

from __future__ import annotations

import time
from asyncio import Event
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any, Self

from i18n import DEFAULT
from rules.engine import Decision, Game, State
from rules.engine.rng import Seed

from .hosting import rules_pages
from .hosting.away import Away
from .hosting.catchup import CatchUp, CatchUps
from .hosting.core import DEFAULT_WORKER, SENT_RETENTION_S, Change, Games, Live, commit_hash
from .hosting.deadlines import Deadlines
from .hosting.language import Language
from .hosting.lobby import Lobby
from .hosting.play import Play
from .hosting.queries import Queries
from .hosting.standing import Standing
from .hosting.table import Table
from .models import (
    Actor,
    Choice,
    Clicked,
    Delivery,
    GameInfo,
    HostError,
    Prompt,
    Remembered,
    SeatInfo,
    Snapshot,
)
from .storage import Store
from .verify import Verdict


class Host:
    """The one service every front-end drives (see the module docstring)."""

    def __init__(
        self, store: Store, clock: Callable[[], float] = time.time, worker: str = DEFAULT_WORKER
    ) -> None:
        self.games = Games(store, clock, worker)
        self.play = Play(self.games)
        self.away = Away(self.games, self.play)
        self.lobby = Lobby(self.games, self.play, self.away)
        self.table = Table(self.games, self.play)
        self.deadlines = Deadlines(self.games, self.play, self.away)
        self.queries = Queries(self.games)
        self.catchups = CatchUps(self.games)
        self.standing = Standing(self.games)
        self.language = Language(self.games)

    @classmethod
    async def open(
        cls, database: str | Path, clock: Callable[[], float] = time.time, worker: str = DEFAULT_WORKER
    ) -> Self:
        return cls(await Store.open(database), clock, worker)

    # ---- what front-ends read of the shared part ----------------------------------------------------------
    @property
    def store(self) -> Store:
        return self.games.store

    @property
    def clock(self) -> Callable[[], float]:
        return self.games.clock

    @property
    def worker(self) -> str:
        """This process's name in the claims on timers and outbox rows."""
        return self.games.worker

    @property
    def timers_changed(self) -> Event:
        """Set when a timer is added, so a front-end's timer loop can wake up early."""
        return self.games.timers_changed

    @property
    def league_work(self) -> Event:
        """Set when a league round's last game ended here, so the front-end's league loop runs at once."""
        return self.games.league_work

    @property
    def autopass_rng(self) -> Random:
        """Draws the delay before an automatic pass (tests seed it)."""
        return self.games.autopass_rng

    # ---- games, the outbox and the texts every part uses (``core.Games``) ------------------------
    async def close(self) -> None:
        return await self.games.close()

    async def replay_state(self, game_id: int) -> State:
        return await self.games.replay_state(game_id)

    async def game_info(self, game_id: int) -> GameInfo:
        return await self.games.game_info(game_id)

    async def game_in_channel(self, channel_id: str) -> GameInfo | None:
        return await self.games.game_in_channel(channel_id)

    async def no_game_text(self, channel_id: str | None = None, user_id: str | None = None) -> str:
        return await self.games.no_game_text(channel_id, user_id)

    @staticmethod
    def ai_levels(game: Game) -> list[str]:
        return Games.ai_levels(game)

    async def sealed_record(self, game_id: int) -> list[dict[str, Any]]:
        return await self.games.sealed_record(game_id)

    def prompt_for(self, live: Live, seat: int, decision: Decision) -> Prompt:
        return self.games.prompt_for(live, seat, decision)

    async def pending_deliveries(self) -> list[Delivery]:
        return await self.games.pending_deliveries()

    async def claim_delivery(self, delivery_id: int) -> bool:
        return await self.games.claim_delivery(delivery_id)

    async def mark_sent(
        self,
        delivery_id: int,
        posted: tuple[int, str] | None = None,
        remember: tuple[int, str, str, str] | None = None,
    ) -> None:
        return await self.games.mark_sent(delivery_id, posted, remember)

    async def message_to_edit(self, delivery: Delivery) -> Remembered | None:
        return await self.games.message_to_edit(delivery)

    async def prune_sent_deliveries(self, keep_s: float = SENT_RETENTION_S) -> int:
        return await self.games.prune_sent_deliveries(keep_s)

    @staticmethod
    def stand_in_level(live: Live) -> str:
        return Games.stand_in_level(live)

    # ---- the turn flow (``play.Play``) -----------------------------------------------------------
    async def act(
        self, game_id: int, actor: Actor, text: str, decision_id: str | None = None
    ) -> list[Delivery]:
        return await self.play.act(game_id, actor, text, decision_id)

    async def has_sealed(self, game_id: int, user_id: str) -> bool:
        return await self.play.has_sealed(game_id, user_id)

    async def resume_all(self) -> list[Delivery]:
        return await self.play.resume_all()

    async def undo(self, channel_id: str, actor: Actor) -> list[Delivery]:
        return await self.play.undo(channel_id, actor)

    # ---- away mode (``away.Away``) ---------------------------------------------------------------
    async def away_until(self, user_id: str) -> float | None:
        return await self.away.away_until(user_id)

    async def away_days_used(self, user_id: str, year: int) -> float:
        return await self.away.away_days_used(user_id, year)

    async def away_allowance(self, guild_id: str | None) -> float:
        return await self.away.away_allowance(guild_id)

    async def away_text(self, user_id: str) -> str:
        return await self.away.away_text(user_id)

    async def set_away_allowance(self, guild_id: str | None, actor: Actor, days: float) -> str:
        return await self.away.set_away_allowance(guild_id, actor, days)

    async def go_away(self, actor: Actor, until_text: str, guild_id: str | None = None) -> list[Delivery]:
        return await self.away.go_away(actor, until_text, guild_id)

    async def come_back(self, actor: Actor) -> list[Delivery]:
        return await self.away.come_back(actor)

    async def cover_away_seats(self, game_id: int) -> list[Delivery]:
        return await self.away.cover_away_seats(game_id)

    # ---- the lobby (``lobby.Lobby``) -------------------------------------------------------------
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
        return await self.lobby.create_game(
            guild_id, channel_id, actor, game_key, options, deadline_hours, seat_creator, seed
        )

    async def join(self, channel_id: str, actor: Actor) -> GameInfo:
        return await self.lobby.join(channel_id, actor)

    async def add_ai(self, channel_id: str, actor: Actor, level: str | None = None) -> GameInfo:
        return await self.lobby.add_ai(channel_id, actor, level)

    async def leave(self, channel_id: str, actor: Actor) -> GameInfo:
        return await self.lobby.leave(channel_id, actor)

    async def start(self, channel_id: str, actor: Actor, order: str = "random") -> list[Delivery]:
        return await self.lobby.start(channel_id, actor, order)

    # ---- table talk (``table.Table``) ------------------------------------------------------------
    async def resign(self, channel_id: str, actor: Actor) -> list[Delivery]:
        return await self.table.resign(channel_id, actor)

    async def abandon(self, channel_id: str, actor: Actor) -> list[Delivery]:
        return await self.table.abandon(channel_id, actor)

    async def pause(self, channel_id: str, actor: Actor) -> list[Delivery]:
        return await self.table.pause(channel_id, actor)

    async def resume(self, channel_id: str, actor: Actor, guild_id: str | None = None) -> list[Delivery]:
        return await self.table.resume(channel_id, actor, guild_id)

    async def channel_lost(self, channel_id: str) -> list[Delivery]:
        return await self.table.channel_lost(channel_id)

    async def offer_draw(self, channel_id: str, actor: Actor) -> list[Delivery]:
        return await self.table.offer_draw(channel_id, actor)

    async def sub(self, channel_id: str, actor: Actor, new: Actor, seat: int | None = None) -> list[Delivery]:
        return await self.table.sub(channel_id, actor, new, seat)

    async def back(self, channel_id: str, actor: Actor) -> list[Delivery]:
        return await self.table.back(channel_id, actor)

    # ---- timers (``deadlines.Deadlines``) --------------------------------------------------------
    async def next_timer_due(self) -> float | None:
        return await self.deadlines.next_timer_due()

    async def fire_due_timers(self) -> list[Delivery]:
        return await self.deadlines.fire_due_timers()

    async def answer_expiry(self, game_id: int, actor: Actor, offer_id: str, choice: str) -> list[Delivery]:
        return await self.deadlines.answer_expiry(game_id, actor, offer_id, choice)

    # ---- queries (``queries.Queries``) -----------------------------------------------------------
    async def suggestions(self, game_id: int, user_id: str, typed: str = "", limit: int = 25) -> list[Choice]:
        return await self.queries.suggestions(game_id, user_id, typed, limit)

    async def is_sealed_input(self, game_id: int, user_id: str) -> bool:
        return await self.queries.is_sealed_input(game_id, user_id)

    async def board(self, channel_id: str, region: str | None = None) -> Snapshot:
        return await self.queries.board(channel_id, region)

    async def hand(self, channel_id: str, actor: Actor) -> Snapshot:
        return await self.queries.hand(channel_id, actor)

    async def prompt_of(self, game_id: int, user_id: str) -> Prompt | None:
        return await self.queries.prompt_of(game_id, user_id)

    async def click_context(self, game_id: int, user_id: str, locale: str) -> Clicked:
        return await self.queries.click_context(game_id, user_id, locale)

    async def status(self, channel_id: str) -> str:
        return await self.queries.status(channel_id)

    async def last_mover(self, channel_id: str) -> str | None:
        return await self.queries.last_mover(channel_id)

    async def log(self, channel_id: str, n: int = 20) -> str:
        return await self.queries.log(channel_id, n)

    @staticmethod
    def rules_sections(game_key: str | None, language: str = DEFAULT) -> list[tuple[str, str]]:
        return Queries.rules_sections(game_key, language)

    @staticmethod
    def rules_page(
        game_key: str | None = None, section: str | None = None, language: str = DEFAULT
    ) -> rules_pages.RulesPage:
        return Queries.rules_page(game_key, section, language)

    @staticmethod
    def rules_text(game_key: str | None = None, section: str | None = None, language: str = DEFAULT) -> str:
        return Queries.rules_text(game_key, section, language)

    async def my_games(self, user_id: str) -> list[GameInfo]:
        return await self.queries.my_games(user_id)

    async def last_over_in_channel(self, channel_id: str) -> int | None:
        return await self.queries.last_over_in_channel(channel_id)

    async def over_games(self) -> list[int]:
        return await self.queries.over_games()

    async def game_kind(self, game_id: int) -> str | None:
        return await self.queries.game_kind(game_id)

    async def get_settings(self, user_id: str) -> dict[str, str]:
        return await self.queries.get_settings(user_id)

    async def settings_text(self, user_id: str) -> str:
        return await self.queries.settings_text(user_id)

    async def set_setting(self, user_id: str, key: str, value: str) -> None:
        return await self.queries.set_setting(user_id, key, value)

    async def remember_message(self, game_id: int, purpose: str, channel_id: str, message_id: str) -> None:
        return await self.queries.remember_message(game_id, purpose, channel_id, message_id)

    async def find_message(self, game_id: int, purpose: str) -> tuple[str, str] | None:
        return await self.queries.find_message(game_id, purpose)

    async def find_card(self, game_id: int) -> tuple[str, str, int] | None:
        return await self.queries.find_card(game_id)

    async def export(self, channel_id: str) -> dict[str, Any]:
        return await self.queries.export(channel_id)

    async def export_game(self, game_id: int) -> dict[str, Any]:
        return await self.queries.export_game(game_id)

    async def verify(self, channel_id: str) -> Verdict:
        return await self.queries.verify(channel_id)

    async def import_game(self, data: Any) -> int:
        return await self.queries.import_game(data)

    # ---- catch-up digests (``catchup.CatchUps``) -------------------------------------------------
    async def catchup(self, channel_id: str, actor: Actor) -> CatchUp:
        return await self.catchups.catchup(channel_id, actor)

    async def turn_digest(self, game_id: int, seat: int) -> CatchUp | None:
        return await self.catchups.turn_digest(game_id, seat)

    # ---- standing orders and answers ahead (``standing.Standing``) -------------------------------
    async def orders_text(self, channel_id: str, actor: Actor) -> str:
        return await self.standing.orders_text(channel_id, actor)

    def order_topics(self, game_key: str) -> list[tuple[str, str, list[tuple[str, str]]]]:
        return self.standing.order_topics(game_key)

    async def set_order(self, channel_id: str, actor: Actor, topic: str, choice: str, names: str = "") -> str:
        return await self.standing.set_order(channel_id, actor, topic, choice, names)

    async def ahead_prompts(self, channel_id: str, actor: Actor) -> list[Prompt]:
        return await self.standing.ahead_prompts(channel_id, actor)

    async def ahead_text(self, channel_id: str, actor: Actor) -> str:
        return await self.standing.ahead_text(channel_id, actor)

    async def answer_ahead(self, channel_id: str, actor: Actor, text: str) -> str:
        return await self.standing.answer_ahead(channel_id, actor, text)

    async def answer_ahead_slot(self, game_id: int, actor: Actor, slot: str, action: str) -> str:
        return await self.standing.answer_ahead_slot(game_id, actor, slot, action)

    async def turn_step_prompt(self, game_id: int, actor: Actor) -> Prompt | None:
        return await self.standing.turn_step_prompt(game_id, actor)

    # ---- languages (``language.Language``) -------------------------------------------------------
    async def user_language(self, user_id: str | None, interaction_locale: str | None = None) -> str:
        return await self.language.user_language(user_id, interaction_locale)

    async def note_locale(self, user_id: str, locale: str) -> None:
        return await self.language.note_locale(user_id, locale)

    async def guild_language(self, guild_id: str | None) -> str:
        return await self.language.guild_language(guild_id)

    async def game_language(self, game_id: int) -> str:
        return await self.language.game_language(game_id)

    async def set_guild_language(self, guild_id: str | None, actor: Actor, code: str) -> str:
        return await self.language.set_guild_language(guild_id, actor, code)


__all__ = [
    "Actor",
    "CatchUp",
    "Change",
    "Choice",
    "Delivery",
    "GameInfo",
    "Host",
    "HostError",
    "Live",
    "Prompt",
    "SeatInfo",
    "Snapshot",
    "commit_hash",
]
