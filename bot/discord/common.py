"""Helpers every cog and component uses: who is asking, answering within Discord's 3 s, errors, images.

The acknowledgement policy (issue 46), the only place it is written. Discord forgets an interaction whose first
response has not come within 3 s (10062 Unknown interaction: the player reads "The application did not
respond"), so:

1. Light work (a host call of milliseconds: /move in a game without an AI, buttons, /rules, /board, /hand,
   /log, the lobby) answers directly: one request. ``within_ack`` defers after ``ACK_WITHIN`` s should it be
   slow under load.
2. Heavy commands, whose work can exceed about a second, are marked ``@heavy(family)`` beside their
   ``@app_commands.command``: /game status (its time to finish replays the log, and for a game whose rules
   cannot tell their progress, self-plays whole games), /catchup (a replay and two boards),
   /game replay, /game verify, /game export, /stats, /leaderboard. ``TrackedTree._call`` runs them through
   ``answer_heavy``: deferred at once with "thinking…" (ephemeral, as their answers are), answered by
   follow-up.
3. A move that hands the turn to an AI (a move in a game where the AI plays a seat: the host lets the AI
   answer before it returns, a search of up to a second or more) is deferred at once too: ``within_ack(...,
   at_once=await ai_plays(...))``, for /move, a choice's button and a guided form's move; likewise what else
   lets the AI play at once: /game start and the lobby's Start button, /game resign, /game resume and a
   deadline offer's button in a game with an AI seat, and /away until (the AI takes the person's seats in every
   game). A replay's step button (a replay and a drawing) is acknowledged at once as well.
4. Heavy CPU work runs off the event loop: AI searches, animated replays and the self-play behind /game
   status's estimate in worker processes (``bot.workers``: beside the loop, without its interpreter lock,
   at a lower priority); shorter work (replaying a log, drawing a board, checking an export) in threads.
5. Heavy commands are limited (``HeavyLimits``, bot settings ``HEAVY_BURST``, ``HEAVY_EVERY_S``,
   ``HEAVY_AT_ONCE``): each user has a token bucket per family, a burst of ``HEAVY_BURST`` (3) then one per
   ``HEAVY_EVERY_S`` (10 s); a call beyond it runs nothing and is answered at once with one ephemeral sentence
   saying when to try again (``COOLDOWN``, a Discord relative timestamp). At most ``HEAVY_AT_ONCE`` (2) heavy
   commands run at once over all users; the others wait, already deferred, for a slot, so one person's flood
   neither fills the processor nor keeps the others' light commands from being answered. Moves, buttons and
   light commands are never limited.
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.config import HEAVY_AT_ONCE, HEAVY_BURST, HEAVY_EVERY_S
from bot.models import Actor, Choice, GameInfo, HostError, Prompt
from forms import FormError
from i18n import DEFAULT, command_path, localize
from render import RenderError, alt_text, in_language, render_png
from render.digest import digest_pngs

if TYPE_CHECKING:
    from .app import PrincesBot

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Discord's message length limit
MESSAGE_LIMIT = 2000
#: the largest game number a slash command's integer option accepts: Discord's integer options are ``Int53Type``
#: (at most 2**53 - 1), and one ``max_value`` past it gets the whole command sync refused (a bot with no commands)
MAX_GAME_ID = 2**53 - 1
#: answer (or defer) before this many seconds, well inside Discord's 3 s
ACK_WITHIN = 2.0
APOLOGY = "Sorry, something went wrong on my side. Nothing was changed; please try again in a moment."
NO_PINGS = discord.AllowedMentions.none()

Interaction = discord.Interaction[Any]


def bot_of(interaction: Interaction) -> PrincesBot:
    from .app import PrincesBot

    client = interaction.client
    assert isinstance(client, PrincesBot)
    return client


def actor_of(interaction: Interaction) -> Actor:
    """The host's view of the person who clicked or typed; ``can_manage`` = Manage Channels here."""
    user = interaction.user
    can_manage = bool(interaction.guild_id) and interaction.permissions.manage_channels
    can_manage_server = bool(interaction.guild_id) and interaction.permissions.manage_guild
    return Actor(str(user.id), user.display_name, can_manage=can_manage, can_manage_server=can_manage_server)


def actor_of_member(member: discord.abc.User) -> Actor:
    return Actor(str(member.id), member.display_name)


def channel_key(interaction: Interaction) -> str:
    return str(interaction.channel_id)


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split long text at line ends into messages Discord accepts."""
    parts: list[str] = []
    current = ""
    for line in text.splitlines():
        while len(line) > limit:
            parts.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) + 1 > limit:
            parts.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current or not parts:
        parts.append(current)
    return parts


async def reader_language(interaction: Interaction, ephemeral: bool = True) -> str:
    """The language of an answer: the player's for what only they see (their /settings language, else their
    Discord client's), the server's (/game language) for what the channel sees."""
    host = bot_of(interaction).host
    if ephemeral or interaction.guild_id is None:
        return await host.user_language(str(interaction.user.id), str(interaction.locale))
    return await host.guild_language(str(interaction.guild_id))


def localized_prompt(prompt: Prompt | None, language: str) -> Prompt | None:
    """A copy of ``prompt`` whose text and choice labels read in ``language`` (the actions stay notation)."""
    if prompt is None or language == DEFAULT:
        return prompt
    choices = [Choice(choice.action, localize(choice.label, language)) for choice in prompt.choices]
    return replace(prompt, text=localize(prompt.text, language), choices=choices)


async def send(interaction: Interaction, text: str, *, ephemeral: bool = True, **extra: Any) -> None:
    """The interaction's response if none was given yet, else a follow-up (after a defer); in the reader's
    language (``reader_language``), in as many messages as the localised text needs."""
    # localised first, then cut at line ends: a translation may be longer than the English that fitted
    parts = chunks(localize(text, await reader_language(interaction, ephemeral)))
    kwargs = {key: value for key, value in extra.items() if value is not None}
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    for number, part in enumerate(parts):
        # the files and the view go with the last part, under the whole text
        sent = kwargs if number == len(parts) - 1 else {"allowed_mentions": kwargs["allowed_mentions"]}
        if interaction.response.is_done():
            await interaction.followup.send(part, ephemeral=ephemeral, **sent)
        else:
            await interaction.response.send_message(part, ephemeral=ephemeral, **sent)


async def within_ack(
    interaction: Interaction,
    work: Awaitable[T],
    *,
    ephemeral: bool = True,
    update: bool = False,
    at_once: bool = False,
) -> T:
    """Run ``work``; if it is not done within ``ACK_WITHIN`` seconds, defer so Discord keeps the interaction.

    Host calls take milliseconds, so usually the answer itself is the first response (one request instead of
    two); under load the defer keeps us inside Discord's 3 s. ``update`` defers a component click silently.
    ``at_once`` defers before the work starts: work known to take a while (see "The acknowledgement policy").
    """
    if at_once and not interaction.response.is_done():
        try:
            await _defer(interaction, ephemeral=ephemeral, update=update)
        except BaseException:
            if asyncio.iscoroutine(work):
                work.close()  # never started: no "never awaited" warning
            raise
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ACK_WITHIN)
    if not done and not interaction.response.is_done():
        await _defer(interaction, ephemeral=ephemeral, update=update)
    return await task


async def _defer(interaction: Interaction, *, ephemeral: bool, update: bool) -> None:
    """Acknowledge now, answer later: a component click silently (its message is edited afterwards), anything
    else with "thinking…" (ephemeral where the answer will be), which the first follow-up replaces."""
    if update:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


# ---------------------------------------------------------------------------------- the acknowledgement policy
# (the module's docstring says what it is; what follows is all of it)

#: buckets kept before the full ones are forgotten (a full bucket is the same as none)
BUCKETS_KEPT = 10_000
#: the one sentence a refused heavy command gets (``localize``d: the Polish entry is in the catalog)
COOLDOWN = "You asked for /{command} too often just now: try again {when}."
#: the key of ``Heavy`` in a command's ``extras``
HEAVY_KEY = "princes_table.heavy"


@dataclass(frozen=True)
class Heavy:
    """A heavy command's place in the policy: its cooldown family, and whether its answer is ephemeral."""

    family: str
    ephemeral: bool = True


CommandT = TypeVar("CommandT", bound=app_commands.Command[Any, ..., Any])


def heavy(family: str, *, ephemeral: bool = True) -> Callable[[CommandT], CommandT]:
    """Mark a slash command heavy (put it above ``@app_commands.command``): deferred at once, limited per user
    and family, run when one of the ``HEAVY_AT_ONCE`` slots is free."""

    def mark(command: CommandT) -> CommandT:
        command.extras[HEAVY_KEY] = Heavy(family, ephemeral)
        return command

    return mark


def heavy_of(interaction: Interaction) -> Heavy | None:
    """The policy of the slash command an interaction invokes, when it is heavy (never for autocomplete)."""
    if interaction.type is not discord.InteractionType.application_command:
        return None
    command = interaction.command
    found = command.extras.get(HEAVY_KEY) if command is not None else None
    return found if isinstance(found, Heavy) else None


class Cooldowns:
    """A token bucket per (user, family), in memory: ``burst`` calls at once, then one per ``every_s``.
    ``burst`` 0 turns them off."""

    def __init__(self, burst: int, every_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.every_s = every_s
        self.clock = clock
        self._buckets: dict[tuple[str, str], tuple[float, float]] = {}

    def take(self, user_id: str, family: str) -> float:
        """Take a token: 0.0 when there was one (the call may run), else the seconds until there is one."""
        if self.burst <= 0 or self.every_s <= 0:
            return 0.0
        now = self.clock()
        key = (user_id, family)
        tokens, at = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - at) / self.every_s)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > BUCKETS_KEPT:
                self._forget_full(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) * self.every_s

    def _forget_full(self, now: float) -> None:
        full_after = self.burst * self.every_s
        for key, (_tokens, at) in list(self._buckets.items()):
            if now - at >= full_after:
                del self._buckets[key]


class HeavyLimits:
    """The limits of heavy commands: the per-user cooldowns and the slots for running at once (``at_once`` 0:
    no cap)."""

    def __init__(
        self,
        burst: int = HEAVY_BURST,
        every_s: float = HEAVY_EVERY_S,
        at_once: int = HEAVY_AT_ONCE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cooldowns = Cooldowns(burst, every_s, clock)
        self.at_once = at_once
        self._slots = asyncio.Semaphore(at_once) if at_once > 0 else None

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        if self._slots is None:
            yield
            return
        async with self._slots:
            yield


async def answer_heavy(
    interaction: Interaction, policy: Heavy, limits: HeavyLimits, run: Callable[[], Awaitable[None]]
) -> None:
    """A heavy command: refused at once with ``COOLDOWN`` when its user's bucket is empty, else deferred at once
    ("thinking…") and ``run`` when a slot is free (its answers are follow-ups)."""
    wait = limits.cooldowns.take(str(interaction.user.id), policy.family)
    if wait > 0:
        command = interaction.command.qualified_name if interaction.command is not None else policy.family
        when = f"<t:{math.ceil(time.time() + wait)}:R>"
        try:
            # the command as the reader's client names it (/gra stan), the sentence localised by ``send``
            named = command_path(await reader_language(interaction), command)
            await send(interaction, COOLDOWN.format(command=named, when=when), ephemeral=True)
        except discord.HTTPException:  # the interaction expired meanwhile: nothing more we can say
            log.warning("could not refuse /%s of user %s", command, interaction.user.id)
        return
    await _defer(interaction, ephemeral=policy.ephemeral, update=False)
    async with limits.slot():
        await run()


def ai_seated(info: GameInfo | None) -> bool:
    """Whether the AI plays a seat of this game not over yet (for good, or standing in for an absent player): an
    action in it may hand the turn to the AI, which the host lets answer before it returns."""
    return (
        info is not None
        and info.status in ("lobby", "active", "paused")
        and any(seat.is_ai for seat in info.seats)
    )


async def ai_plays(interaction: Interaction, game_id: int) -> bool:
    """``ai_seated`` for a game by its id: a move in it is deferred at once."""
    return ai_seated(await bot_of(interaction).host.game_info(game_id))


async def ai_plays_here(interaction: Interaction) -> bool:
    """``ai_seated`` for the channel's game: its start, a resignation or a resume is deferred at once."""
    return ai_seated(await bot_of(interaction).host.game_in_channel(channel_key(interaction)))


async def board_file(
    game_key: str,
    view: dict[str, Any],
    region: str | None = None,
    name: str = "board.png",
    language: str = DEFAULT,
) -> discord.File:
    """The view drawn as a PNG in a worker thread (drawing takes ~10 ms: never on the event loop), with its alt
    text (``render.alt_text``: from the same view, so it describes what this audience may see); its words in
    ``language`` (the renderers read ``view["locale"]``)."""
    view = in_language(view, language)
    png, description = await asyncio.to_thread(_drawn, game_key, view, region)
    return discord.File(io.BytesIO(png), filename=file_name(name, language), description=description)


def file_name(name: str, language: str = DEFAULT) -> str:
    """An image's file name in ``language`` (Discord shows it with the image): its stem is a command's name, as
    the reader's client shows the command ("board.png" -> "plansza.png", like /plansza; "catchup-1.png")."""
    stem, dot, rest = name.partition(".")
    word, dash, number = stem.partition("-")
    return f"{command_path(language, word)}{dash}{number}{dot}{rest}"


def _drawn(game_key: str, view: dict[str, Any], region: str | None) -> tuple[bytes, str]:
    return render_png(game_key, view, region), alt_text(game_key, view)


async def digest_files(
    game_key: str, before: dict[str, Any], after: dict[str, Any], language: str = DEFAULT
) -> list[discord.File]:
    """The catch-up digest's two captioned boards (when the seat last moved, and now), with their alt texts, in
    ``language``; Discord shows several images of one message as a gallery. A board drawn before for the same
    view and language is not drawn again (``render.digest.digest_pngs``): a repeated /catchup costs no drawing."""
    before, after = in_language(before, language), in_language(after, language)
    drawn = await asyncio.to_thread(digest_pngs, game_key, before, after)
    return [
        discord.File(
            io.BytesIO(png),
            filename=file_name(f"catchup-{number + 1}.png", language),
            description=description,
        )
        for number, (png, description) in enumerate(drawn)
    ]


def user_sentence(error: BaseException) -> str | None:
    """The sentence to show for an error a user caused, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, HostError | RenderError | FormError):  # a form's refusal reads like the host's
        return str(error)
    if isinstance(error, app_commands.TransformerError):
        return f"I could not read {error.value!r} as {error.type.name.lower()}."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "That command works in a server channel, not in DMs."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You may not use that command here."
    return None


async def answer_error(interaction: Interaction, error: BaseException) -> None:
    """An ephemeral sentence for a user error; for anything else a log line with the game id and an apology."""
    sentence = user_sentence(error)
    if sentence is None:
        original = getattr(error, "original", error)
        log.error(
            "unexpected error in %s (game %s, channel %s)",
            _what(interaction),
            interaction.extras.get("game_id", "?"),
            interaction.channel_id,
            exc_info=(type(original), original, original.__traceback__),
        )
        bot_of(interaction).unexpected_errors.append(original)
        sentence = APOLOGY
    try:
        await send(interaction, sentence, ephemeral=True)
    except discord.HTTPException:  # the interaction expired meanwhile: nothing more we can say
        log.warning("could not answer %s with %r", _what(interaction), sentence)


def _what(interaction: Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = dict(interaction.data or {}).get("custom_id", "?")
    return f"component {custom_id}"


#: what a click on one of our components whose custom_id cannot be read gets (forged, or an older version's)
UNREADABLE = (
    "I cannot read that button or menu (it may come from an older version of the bot, or it was altered). "
    "Nothing was changed: use the latest message, or /move."
)


def game_number(text: str) -> int:
    """A game id from a custom_id field: ASCII digits that a database integer can hold, else a sentence."""
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 2**63:
        raise HostError(UNREADABLE)
    return int(text)


def small_number(text: str, what: str) -> int:
    """A seat or page number from a custom_id field (ASCII digits, at most four), else a sentence."""
    if not (text.isascii() and text.isdigit()) or len(text) > 4:
        raise HostError(f"That {what} number cannot be read. {UNREADABLE}")
    return int(text)


def check_seat_exists(info: GameInfo, seat: int) -> None:
    """A seat number from a component must be one of the game's seats."""
    if not 0 <= seat < len(info.seats):
        raise HostError(
            f"Game #{info.game_id} has no seat {seat + 1} (it has {len(info.seats)} seats): "
            "that button was not made for this game. Use the latest message."
        )


def check_place(interaction: Interaction, info: GameInfo) -> None:
    """A game's components work in its own channel and in DMs; a copy posted in another channel does not."""
    if interaction.guild_id is not None and str(interaction.channel_id) != info.channel_id:
        raise HostError(
            f"That button belongs to {info.title} #{info.game_id}, which plays in another channel "
            f"(<#{info.channel_id}>). Use the messages there."
        )


class Handled:
    """Mixed into every item: tracks the work (tests and shutdown wait for it) and turns errors into sentences.

    Each item defines ``handle``; ``callback`` is what discord.py calls once it rebuilt the item from its id.
    An item whose fields could not be read carries ``problem`` and answers it instead (see ``rebuilt``).
    """

    game_id: int
    handle: Callable[[Interaction], Awaitable[None]]
    problem: str | None = None
    #: False for an item whose ``handle`` notes the clicker's locale itself (with what else it reads)
    notes_locale: bool = True

    async def callback(self, interaction: Interaction) -> None:
        interaction.extras["game_id"] = getattr(self, "game_id", "?")
        bot = bot_of(interaction)
        async with bot.busy():
            try:
                if self.notes_locale or self.problem is not None:
                    await bot.host.note_locale(str(interaction.user.id), str(interaction.locale))
                if self.problem is not None:
                    raise HostError(self.problem)
                await self.handle(interaction)
            except Exception as error:  # every failure becomes a sentence or an apology, never a traceback
                await answer_error(interaction, error)


ItemT = TypeVar("ItemT", bound=discord.ui.DynamicItem[Any])


def rebuilt(cls: type[ItemT], item: discord.ui.Item[Any], read: Callable[[], dict[str, Any]]) -> ItemT:
    """The dynamic item for a component exactly as Discord sent it, with the fields ``read`` parses from its
    custom_id set on it. The component itself is reused: building it anew from forged fields could fail (a label
    or custom_id too long), and discord.py drops a click silently when ``from_custom_id`` raises. Fields that do
    not read become the item's ``problem``, answered as a sentence when it is clicked."""
    built = cls.__new__(cls)
    discord.ui.DynamicItem.__init__(built, item)
    try:
        fields = read()
    except HostError as error:
        built.problem = str(error)  # type: ignore[attr-defined]
    except ValueError:
        built.problem = UNREADABLE  # type: ignore[attr-defined]
    else:
        for name, value in fields.items():
            setattr(built, name, value)
    return built
