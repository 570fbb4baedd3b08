"""The ``commands.Bot`` of Princes' Table and ``run_bot(config)``, what ``python -m bot`` runs.

Start-up: register the dynamic buttons (so old messages keep working after a restart), load the cogs, sync the
slash commands (to ``DEV_GUILD_ID`` at once when set, else globally), post whatever the outbox still holds,
let AI seats finish turns a crash interrupted, then arm the deadline loop from the database.

Several processes: with ``SHARD_COUNT`` (and ``SHARD_IDS`` for this process's part) the bot is discord.py's
``AutoShardedBot`` running those shards (``create_bot``). Every process serves whatever reaches its shards,
whichever game it concerns (DM interactions all arrive on shard 0), because nothing is owned by a process: the
database serialises actions by the game's version, claims timers and outbox rows per process (its worker name),
and each process sweeps the outbox for rows a crashed process left behind. Only the process running shard 0
syncs the slash commands.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.host import Host
from bot.hosting.core import StaleGame
from bot.runtime import settle_heap
from bot.storage.postgres import redact_url
from i18n import prepare as prepare_catalogs
from render import warm_up

from .common import UNREADABLE, HeavyLimits, Interaction, answer_error, answer_heavy, heavy_of, send
from .components import CUSTOM_ID_PREFIX, DYNAMIC_ITEMS
from .sender import Sender
from .timers import TimerLoop
from .translator import CatalogTranslator

log = logging.getLogger(__name__)

COGS = (
    "bot.discord.cogs.game",
    "bot.discord.cogs.play",
    "bot.discord.cogs.info",
    "bot.discord.cogs.places",
    "bot.discord.cogs.results",  # after the game cog: it adds /game replay to its group
    "bot.discord.cogs.away",
    "bot.discord.cogs.league",
)
#: how long ``close`` lets running interactions finish
DRAIN_S = 10.0
#: start-up runs of the AI seats' interrupted turns, when other processes keep changing the same games
RESUME_ATTEMPTS = 5


def intents() -> discord.Intents:
    """Only ``guilds`` (channel deletions, the guild cache): slash commands need no privileged intent."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class TrackedTree(app_commands.CommandTree[Any]):
    """The command tree, counting running commands (``PrincesBot.busy``), applying the acknowledgement policy
    to heavy commands (``common.answer_heavy``: deferred at once, limited) and answering every error.

    ``_call`` is discord.py's internal entry point for one interaction (pinned discord.py 2.7.1); wrapping it is
    the one place that sees a command from its start to its last follow-up.
    """

    async def _call(self, interaction: Interaction) -> None:
        bot = interaction.client
        assert isinstance(bot, PrincesBot)

        async def run() -> None:
            await bot.host.note_locale(str(interaction.user.id), str(interaction.locale))
            await super(TrackedTree, self)._call(interaction)

        async with bot.busy():
            try:
                policy = heavy_of(interaction)
                if policy is None:
                    await run()
                else:
                    await answer_heavy(interaction, policy, bot.limits, run)
            except app_commands.AppCommandError as error:
                await self.on_error(interaction, error)

    async def on_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        await answer_error(interaction, error)


class PrincesBot(commands.Bot):
    def __init__(
        self,
        host: Host,
        *,
        dev_guild_id: int | None = None,
        sync_commands: bool = True,
        run_timers: bool = True,
        limits: HeavyLimits | None = None,
        **client_options: Any,
    ) -> None:
        """``run_timers`` runs the background loops (deadlines, outbox sweep); ``limits`` bound the heavy commands
        (per-user cooldowns and how many run at once: ``common.HeavyLimits``, its defaults when None);
        ``client_options`` go to discord.py (``shard_count``/``shard_ids`` for a ``ShardedPrincesBot``)."""
        # the bot never joins a voice channel: discord.py's start-up warnings that its voice libraries are not
        # installed only worried the admins reading the log
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=TrackedTree,
            # no message pings anyone unless it names them: a display name like "@everyone <@&1>" stays text
            allowed_mentions=discord.AllowedMentions.none(),
            **client_options,
        )
        self.host = host
        self.dev_guild_id = dev_guild_id
        self.sync_on_start = sync_commands
        self.run_timers = run_timers
        self.limits = limits or HeavyLimits()
        self.sender = Sender(self)
        self.timers = TimerLoop(self)
        #: unexpected exceptions answered with an apology (tests assert there are none)
        self.unexpected_errors: list[BaseException] = []
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._catch_up_task: asyncio.Task[None] | None = None
        #: channel id -> its game's id, a hint that spares a lookup per command (see ``where.on_caller_game``)
        self.channel_games: dict[str, int] = {}

    # ---- activity tracking -------------------------------------------------------------------------------
    @asynccontextmanager
    async def busy(self) -> AsyncIterator[None]:
        """Mark work in progress: an interaction, a timer firing, an outbox flush."""
        self._running += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._running -= 1
            if self._running == 0:
                self._idle.set()

    async def wait_idle(self, timeout: float = 10.0) -> None:
        """Until no interaction, timer or flush is running (tests; a graceful shutdown)."""
        await asyncio.wait_for(self._idle.wait(), timeout)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a component of ours that no dynamic item reads (forged, damaged, or made by an older
        version) gets a sentence: discord.py would drop it silently, and the user would see "This interaction
        failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(dict(interaction.data or {}).get("custom_id", ""))  # type: ignore[call-overload]
        if not custom_id.startswith(CUSTOM_ID_PREFIX) or any(
            item.__discord_ui_compiled_template__.fullmatch(custom_id)  # type: ignore[attr-defined]
            for item in DYNAMIC_ITEMS
        ):
            return
        async with self.busy():
            try:
                await send(interaction, UNREADABLE, ephemeral=True)
            except discord.HTTPException:
                log.warning("could not answer the unreadable component %r", custom_id[:100])

    # ---- life cycle --------------------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        await asyncio.to_thread(prepare_catalogs)  # compiled once here, not in the first player's answer
        await self.tree.set_translator(CatalogTranslator())
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for name in COGS:
            await self.load_extension(name)
        if self.sync_on_start:
            await self.sync_commands()
        self._catch_up_task = asyncio.create_task(self._catch_up(), name="princes-table-catch-up")
        if self.run_timers:
            self.timers.start()
            self.sender.start_sweeping()

    async def sync_commands(self) -> list[app_commands.AppCommand]:
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), self.dev_guild_id)
        else:
            synced = await self.tree.sync()
            log.info(
                "synced %d global commands (Discord may take up to an hour to show changes)", len(synced)
            )
        return synced

    async def _catch_up(self) -> None:
        """Post what a crash left in the outbox and let AI seats play turns a crash interrupted."""
        async with self.busy():
            try:
                await self.sender.flush()
                await self._resume_ai_turns()
            except Exception:
                log.exception("catching up after start-up failed; the outbox is retried on the next failure")

    async def _resume_ai_turns(self) -> None:
        """Let AI seats finish interrupted turns. Processes starting together race on the same games: the one
        that loses a race stops with ``StaleGame`` and starts over (the games already done have nothing left to
        play), then posts what the lost run had stored."""
        for attempt in range(1, RESUME_ATTEMPTS + 1):
            try:
                await self.sender.deliver(await self.host.resume_all())
                return
            except StaleGame:
                log.info("resuming AI turns met another process (attempt %d); starting over", attempt)
                await self.sender.flush()
        log.warning(
            "AI turns not resumed after %d attempts; they continue at the next action", RESUME_ATTEMPTS
        )

    async def on_ready(self) -> None:
        user = self.user
        log.info("connected as %s (id %s) to %d servers", user, user.id if user else "?", len(self.guilds))

    async def close(self) -> None:
        await self.timers.stop()
        await self.sender.stop_sweeping()
        try:
            await self.wait_idle(DRAIN_S)
        except TimeoutError:
            log.warning("closing with interactions still running")
        await super().close()


class ShardedPrincesBot(PrincesBot, commands.AutoShardedBot):
    """The same bot over several gateway shards (``shard_count`` and, for one process's part, ``shard_ids``)."""


def create_bot(host: Host, config: Config, **options: Any) -> PrincesBot:
    """The bot ``config`` asks for: a plain one for a single process (Discord's default, one shard), else a
    sharded one running ``SHARD_IDS`` of ``SHARD_COUNT``. Only the process with shard 0 syncs commands."""
    options.setdefault("sync_commands", config.runs_shard_zero)
    options.setdefault("limits", HeavyLimits(config.heavy_burst, config.heavy_every_s, config.heavy_at_once))
    if not config.sharded:
        return PrincesBot(host, dev_guild_id=config.dev_guild_id, **options)
    shard_ids = list(config.shard_ids) if config.shard_ids is not None else None
    return ShardedPrincesBot(
        host, dev_guild_id=config.dev_guild_id, shard_count=config.shard_count, shard_ids=shard_ids, **options
    )


def _report_warm_up(task: asyncio.Task[list[str]]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:  # the first boards are only slower: nothing else depends on the warm-up
        log.warning("drawing the opening boards at start-up failed: %r", error)
    else:
        log.info("opening boards drawn for %s", ", ".join(task.result()))


def close_on_stop_signals(bot: PrincesBot) -> None:
    """Close on SIGTERM (``systemctl stop``, ``docker stop``) or Ctrl-C: timers stopped, the interactions being
    answered finished (up to ``DRAIN_S``), the gateway left, then the database and the worker processes closed.
    Python's defaults ended the process on the spot (SIGTERM) or with two tracebacks (Ctrl-C): nothing stored is
    lost that way (each move is one transaction), but a click being answered at that moment failed, and the
    worker processes' semaphores were left to the resource tracker, which warned of them. A second SIGTERM
    leaves the close under way alone; a second Ctrl-C stops at once, as a person pressing it again means."""
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()  # the loop keeps only a weak reference to a task

    def close(number: int) -> None:
        name = "Ctrl-C" if number == signal.SIGINT else signal.Signals(number).name
        if closing:
            log.info("%s received again: still closing", name)
            return
        if number == signal.SIGINT:  # the next Ctrl-C interrupts as Python's default does
            loop.remove_signal_handler(signal.SIGINT)
            log.info("Ctrl-C received: closing (press it again to stop at once)")
        else:
            log.info("%s received: closing", name)
        task = loop.create_task(bot.close(), name="princes-table-close")
        closing.add(task)
        task.add_done_callback(closing.discard)

    for number in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(number, close, number)
        except (NotImplementedError, RuntimeError):
            # Windows' event loops take no signal handlers (NotImplementedError), nor does a loop outside the
            # main thread (RuntimeError): the signal keeps Python's default there
            log.info("%s ends the bot at once here", signal.Signals(number).name)


async def run_bot(config: Config) -> None:
    """Open the database (migrating it), connect to Discord and run until stopped."""
    if not logging.getLogger().handlers:
        logging.basicConfig(
            level=logging.INFO, stream=sys.stdout, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
        )
    if not config.discord_token:
        raise SystemExit("No DISCORD_TOKEN is set: see 'Running on Discord' in README.md.")
    host = await Host.open(config.database, worker=config.worker)
    log.info("database %s open", redact_url(config.database))
    if config.sharded:
        log.info("worker %s: shards %s of %d", config.worker, config.shard_ids or "all", config.shard_count)
    bot = create_bot(host, config)
    close_on_stop_signals(bot)
    settle_heap()  # what start-up loaded lives as long as the process: out of the collector's way
    warming = asyncio.create_task(asyncio.to_thread(warm_up), name="princes-table-warm-up")
    warming.add_done_callback(_report_warm_up)
    try:
        async with bot:
            await bot.start(config.discord_token)
    except discord.LoginFailure:
        raise SystemExit(
            "Discord refused the token (DISCORD_TOKEN): reset it in the developer portal and update .env."
        ) from None
    finally:
        await host.close()
        log.info("closed")
