"""Helpers every cog and component uses: who is asking, answering within Discord's 3 s, errors, images."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.models import Actor, Choice, GameInfo, HostError, Prompt
from i18n import DEFAULT, localize
from render import RenderError, alt_text, encode_png, in_language, render_png
from render.digest import digest_boards

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
    language (``reader_language``)."""
    text = localize(text, await reader_language(interaction, ephemeral))
    kwargs = {key: value for key, value in extra.items() if value is not None}
    kwargs.setdefault("allowed_mentions", NO_PINGS)
    if interaction.response.is_done():
        await interaction.followup.send(clip(text), ephemeral=ephemeral, **kwargs)
    else:
        await interaction.response.send_message(clip(text), ephemeral=ephemeral, **kwargs)


async def within_ack(
    interaction: Interaction, work: Awaitable[T], *, ephemeral: bool = True, update: bool = False
) -> T:
    """Run ``work``; if it is not done within ``ACK_WITHIN`` seconds, defer so Discord keeps the interaction.

    Host calls take milliseconds, so usually the answer itself is the first response (one request instead of
    two); under load the defer keeps us inside Discord's 3 s. ``update`` defers a component click silently.
    """
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ACK_WITHIN)
    if not done and not interaction.response.is_done():
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    return await task


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
    return discord.File(io.BytesIO(png), filename=name, description=description)


def _drawn(game_key: str, view: dict[str, Any], region: str | None) -> tuple[bytes, str]:
    return render_png(game_key, view, region), alt_text(game_key, view)


async def digest_files(
    game_key: str, before: dict[str, Any], after: dict[str, Any], language: str = DEFAULT
) -> list[discord.File]:
    """The catch-up digest's two captioned boards (when the seat last moved, and now), with their alt texts, in
    ``language``; Discord shows several images of one message as a gallery."""
    before, after = in_language(before, language), in_language(after, language)
    boards = await asyncio.to_thread(digest_boards, game_key, before, after)
    files = []
    for number, board in enumerate(boards):
        png = await asyncio.to_thread(encode_png, board.image)
        files.append(
            discord.File(io.BytesIO(png), filename=f"catchup-{number + 1}.png", description=board.alt_text)
        )
    return files


def user_sentence(error: BaseException) -> str | None:
    """The sentence to show for an error a user caused, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, HostError | RenderError):
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

    async def callback(self, interaction: Interaction) -> None:
        interaction.extras["game_id"] = getattr(self, "game_id", "?")
        bot = bot_of(interaction)
        async with bot.busy():
            try:
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
