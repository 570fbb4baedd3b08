"""``/game``: lobby (new, join, leave, ai, start), status, and table talk (abandon, resign, sub, pause, resume,
draw, back). Every command turns into one host call; what it causes is posted by the sender."""

from __future__ import annotations

import io
import json
import logging
import re
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.host import Host
from bot.hosting.core import LOBBY_MESSAGE
from bot.hosting.lobby import level_share, level_strength, lobby_message
from bot.models import Delivery, GameInfo, HostError
from forms.labels import CHOICE_NAME, distinct_labels, fit
from i18n import localize
from rules.engine import RulesError, available_games, get_game

from ..app import PrincesBot
from ..common import (
    Interaction,
    actor_of,
    actor_of_member,
    ai_plays_here,
    channel_key,
    heavy,
    reader_language,
    send,
    within_ack,
)
from ..components import lobby_view

log = logging.getLogger(__name__)
OPTION_PAIR = re.compile(r"([\w-]+)\s*[=:]\s*([^\s,;]+)")
LOBBY = LOBBY_MESSAGE
LOBBY_HINT = "\nJoin with the button or /game join; add an AI with /game ai."
#: Discord's error code when a server has reached its limit of active threads (1,000)
THREAD_LIMIT_REACHED = 160006
#: a game's thread archives itself after this long without a message (minutes: Discord's longest, 7 days)
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
#: Discord's longest thread name
THREAD_NAME = 100


async def open_thread(bot: PrincesBot, channel_id: int, name: str) -> str:
    """A public thread of ``channel_id`` (no starter message); Discord's refusals as sentences."""
    try:
        data = await bot.http.start_thread_without_message(
            channel_id,
            name=fit(name, THREAD_NAME),
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            type=discord.ChannelType.public_thread.value,
            reason="a game of Princes' Table",
        )
    except discord.Forbidden:
        raise HostError(
            "I may not open threads here (I need Create Public Threads and Send Messages in Threads). "
            "Start the game without thread, or ask a moderator."
        ) from None
    except discord.HTTPException as error:
        if error.code == THREAD_LIMIT_REACHED:
            raise HostError(
                "This server has reached Discord's limit of 1,000 active threads. Archive some threads, or "
                "start the game here without thread."
            ) from None
        if error.status == 400:
            raise HostError("I cannot open a thread in this kind of channel: use a text channel.") from None
        raise
    return str(data["id"])


def parse_options(text: str) -> dict[str, str]:
    """``first=2 match=best-of-3`` (commas or spaces between pairs) into a dict; anything else is refused."""
    pairs = OPTION_PAIR.findall(text or "")
    leftover = OPTION_PAIR.sub("", text or "").replace(",", " ").replace(";", " ").strip()
    if leftover:
        raise HostError(f"I could not read {leftover!r}: write options as name=value, e.g. first=1.")
    return {name.lower(): value for name, value in pairs}


async def game_key_autocomplete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    choices = []
    for key in available_games():
        title = get_game(key).title
        if typed in key or typed in title.lower():
            choices.append(app_commands.Choice(name=title, value=key))
    return choices[:25]


@app_commands.guild_only()
class GameCog(commands.GroupCog, group_name="game", group_description="Create, join and manage board games"):
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def host(self) -> Host:
        return self.bot.host

    # ---- lobby -------------------------------------------------------------------------------------------
    @app_commands.command(name="new", description="Open a lobby for a new game in this channel")
    @app_commands.describe(
        game="which game (see /rules)",
        options="game options as name=value pairs, e.g. first=1 match=best-of-3 (see /rules)",
        deadline_hours="hours each player has per decision, 1 to 168 (default 24)",
        thread="play in a new thread of this channel (its own place for the game's messages)",
    )
    @app_commands.autocomplete(game=game_key_autocomplete)
    async def new(
        self,
        interaction: Interaction,
        game: str,
        options: str = "",
        deadline_hours: app_commands.Range[float, 1, 168] = 24.0,
        thread: bool = False,
    ) -> None:
        parsed = parse_options(options)
        if thread:
            await self._new_in_thread(interaction, game, parsed, deadline_hours)
            return
        info = await self.host.create_game(
            str(interaction.guild_id),
            channel_key(interaction),
            actor_of(interaction),
            game,
            parsed,
            deadline_hours,
        )
        interaction.extras["game_id"] = info.game_id
        language = await self.host.guild_language(info.guild_id)
        view = lobby_view(info, language) or discord.ui.View()
        text = localize(lobby_message(info) + LOBBY_HINT, language)
        callback = await interaction.response.send_message(text, view=view)
        view.stop()
        if callback.message_id is not None:
            await self.host.remember_message(info.game_id, LOBBY, info.channel_id, str(callback.message_id))
        await self.bot.sender.check_dm_reach(interaction, info)

    async def _new_in_thread(
        self, interaction: Interaction, game: str, options: dict[str, str], deadline_hours: float
    ) -> None:
        """``/game new ... thread:True``: a public thread of this channel holds the game (its lobby, card, lines
        and every command typed there); the channel gets one line pointing to it. A lobby the host refuses
        (an unknown game or option) takes its thread away again."""
        if interaction.guild_id is None:
            raise HostError("Threads live in server channels: start the game in a channel of a server.")
        try:
            title = f"{get_game(game).title} ({interaction.user.display_name})"
        except RulesError as error:
            raise HostError(str(error)) from None
        await interaction.response.defer(thinking=True)
        thread_id = await open_thread(self.bot, int(channel_key(interaction)), title)
        try:
            info = await self.host.create_game(
                str(interaction.guild_id), thread_id, actor_of(interaction), game, options, deadline_hours
            )
        except HostError:
            await self.bot.http.delete_channel(int(thread_id), reason="its game's lobby was refused")
            raise
        interaction.extras["game_id"] = info.game_id
        # the thread's lobby reads the server's language, as a lobby in the channel does
        language = await self.host.guild_language(info.guild_id)
        view = lobby_view(info, language) or discord.ui.View()
        posted = await self.bot.get_partial_messageable(int(thread_id)).send(
            localize(lobby_message(info) + LOBBY_HINT, language), view=view
        )
        view.stop()
        await self.host.remember_message(info.game_id, LOBBY, info.channel_id, str(posted.id))
        await send(
            interaction,
            f"{info.title} #{info.game_id} opened in <#{thread_id}>: join it there.",
            ephemeral=False,
        )
        await self.bot.sender.check_dm_reach(interaction, info)

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: Interaction) -> None:
        info = await self.host.join(channel_key(interaction), actor_of(interaction))
        await send(interaction, f"You joined {info.title} #{info.game_id} (seat {len(info.seats)}).")
        await self.refresh_lobby(info)
        await self.bot.sender.check_dm_reach(interaction, info)

    @app_commands.command(name="leave", description="Give up your seat in this channel's lobby")
    async def leave(self, interaction: Interaction) -> None:
        info = await self.host.leave(channel_key(interaction), actor_of(interaction))
        await send(
            interaction,
            "You left the lobby."
            if info.status == LOBBY
            else "You left; nobody is seated any more, so the lobby is closed.",
        )
        await self.refresh_lobby(info)

    @app_commands.command(name="ai", description="Fill the next seat of the lobby with an AI player")
    @app_commands.describe(
        seat="the seat number it takes (seats fill in order: leave empty for the next one)",
        level="how strong (the list shows what each level measured); expert:3s lets expert think up to 3 s",
    )
    async def ai(
        self,
        interaction: Interaction,
        seat: app_commands.Range[int, 1, 12] | None = None,
        level: str | None = None,
    ) -> None:
        channel = channel_key(interaction)
        current = await self.host.game_in_channel(channel)
        if current is not None and seat is not None and seat != len(current.seats) + 1:
            raise HostError(f"Seats fill in order: the next free seat is {len(current.seats) + 1}.")
        info = await self.host.add_ai(channel, actor_of(interaction), level)
        added = info.seats[-1]
        measured = level_strength(get_game(info.key), added.ai_level or "")
        strength = f" Measured head to head: {measured}." if measured else ""
        await send(interaction, f"{added.label} takes seat {len(info.seats)}.{strength}")
        await self.refresh_lobby(info)

    @ai.autocomplete("level")
    async def ai_level_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        info = await self.host.game_in_channel(channel_key(interaction))
        if info is None:
            return []
        game = get_game(info.key)
        language = await reader_language(interaction)  # the list is shown to its user alone
        levels = Host.ai_levels(game)
        shown = [level for level in levels if current.lower() in level][:25]
        labels = []
        for level in shown:
            measured = level_share(game, level)
            labels.append(f"{level}: {localize(measured, language)}" if measured else level)
        names = distinct_labels(labels, CHOICE_NAME, shown)
        return [app_commands.Choice(name=name, value=level) for name, level in zip(names, shown, strict=True)]

    @app_commands.command(name="start", description="Start the game of this channel's lobby")
    @app_commands.describe(order="seat order: random (default) or the order of joining")
    async def start(self, interaction: Interaction, order: Literal["random", "given"] = "random") -> None:
        at_once = await ai_plays_here(interaction)  # an AI seat may play the first turns before the answer
        deliveries = await within_ack(
            interaction,
            self.host.start(channel_key(interaction), actor_of(interaction), order),
            at_once=at_once,
        )
        await send(interaction, "The game starts.")
        if deliveries:
            await self.refresh_lobby(await self.host.game_info(deliveries[0].game_id))
        await self.bot.sender.deliver(deliveries)

    async def refresh_lobby(self, info: GameInfo) -> None:
        """Edit the lobby message so it shows the seats now (buttons gone once the game started)."""
        found = await self.host.find_message(info.game_id, LOBBY)
        if found is None:
            return
        language = await self.host.guild_language(info.guild_id)
        view = lobby_view(info, language)
        try:
            message = self.bot.get_partial_messageable(int(found[0])).get_partial_message(int(found[1]))
            await message.edit(content=localize(lobby_message(info), language), view=view)
        except discord.HTTPException as error:  # a deleted lobby message is no reason to fail the command
            log.info("game %s: lobby message not updated (%s)", info.game_id, error)
        finally:
            if view is not None:
                view.stop()

    # ---- status ------------------------------------------------------------------------------------------
    @app_commands.command(
        name="language", description="The language of this server's public messages (Manage Server)"
    )
    @app_commands.describe(language="en (English) or pl (Polski)")
    async def language(self, interaction: Interaction, language: Literal["en", "pl"]) -> None:
        guild = str(interaction.guild_id) if interaction.guild_id else None
        await send(interaction, await self.host.set_guild_language(guild, actor_of(interaction), language))

    @heavy("status")
    @app_commands.command(name="status", description="Who the game in this channel waits for, and until when")
    async def status(self, interaction: Interaction) -> None:
        await send(interaction, await self.host.status(channel_key(interaction)))

    @heavy("export")
    @app_commands.command(
        name="export",
        description="This channel's game as a JSON file with every event (secrets once it is over)",
    )
    async def export(self, interaction: Interaction) -> None:
        data = await self.host.export(channel_key(interaction))
        game = data["game"]
        note = data["withheld"] or "Everything is included."
        payload = json.dumps(data, indent=1, ensure_ascii=False).encode()
        file = discord.File(io.BytesIO(payload), filename=f"{game['kind']}-{game['id']}.json")
        await send(
            interaction, f"Export of {game['title']} #{game['id']} ({game['status']}). {note}", file=file
        )

    @heavy("verify")
    @app_commands.command(
        name="verify",
        description="Check this channel's finished game: sealed commits, every die from the seed, the result",
    )
    async def verify(self, interaction: Interaction) -> None:
        verdict = await within_ack(interaction, self.host.verify(channel_key(interaction)))
        await send(interaction, verdict.sentence())

    # ---- table talk --------------------------------------------------------------------------------------
    async def _run(self, interaction: Interaction, deliveries: list[Delivery], answer: str) -> None:
        await send(interaction, answer)
        await self.bot.sender.deliver(deliveries)

    @app_commands.command(
        name="abandon", description="End the game without a result (all players agree, or Manage Channels)"
    )
    async def abandon(self, interaction: Interaction) -> None:
        work = self.host.abandon(channel_key(interaction), actor_of(interaction))
        await self._run(interaction, await within_ack(interaction, work), "Noted.")

    @app_commands.command(name="resign", description="Resign: you lose (with 3+ players the AI plays on)")
    async def resign(self, interaction: Interaction) -> None:
        at_once = await ai_plays_here(interaction)  # with 3+ players the AI plays on, perhaps at once
        work = self.host.resign(channel_key(interaction), actor_of(interaction))
        await self._run(interaction, await within_ack(interaction, work, at_once=at_once), "You resigned.")

    @app_commands.command(
        name="sub",
        description="Hand your seat to someone (or, with Manage Channels, an absent player's seat)",
    )
    @app_commands.describe(
        member="who takes the seat over",
        seat="moderators: the seat of an absent player (missed a deadline or away; default: your own seat)",
    )
    async def sub(
        self,
        interaction: Interaction,
        member: discord.Member,
        seat: app_commands.Range[int, 1, 12] | None = None,
    ) -> None:
        if member.bot:
            raise HostError("A bot cannot take a seat; use /game ai in the lobby or let the AI stand in.")
        work = self.host.sub(
            channel_key(interaction),
            actor_of(interaction),
            actor_of_member(member),
            None if seat is None else seat - 1,
        )
        await self._run(
            interaction, await within_ack(interaction, work), f"{member.display_name} has the seat."
        )

    @app_commands.command(name="pause", description="Pause the game and its deadlines (all players agree)")
    async def pause(self, interaction: Interaction) -> None:
        work = self.host.pause(channel_key(interaction), actor_of(interaction))
        await self._run(interaction, await within_ack(interaction, work), "Noted.")

    @app_commands.command(
        name="resume", description="Resume a paused game (here, if its channel was deleted)"
    )
    async def resume(self, interaction: Interaction) -> None:
        guild = str(interaction.guild_id) if interaction.guild_id is not None else None
        at_once = await ai_plays_here(interaction)  # an AI seat whose turn it is plays on resuming
        work = self.host.resume(channel_key(interaction), actor_of(interaction), guild_id=guild)
        await self._run(interaction, await within_ack(interaction, work, at_once=at_once), "Noted.")

    @app_commands.command(name="draw", description="Offer or accept a draw, where the game allows one")
    async def draw(self, interaction: Interaction) -> None:
        work = self.host.offer_draw(channel_key(interaction), actor_of(interaction))
        await self._run(interaction, await within_ack(interaction, work), "Noted.")

    @app_commands.command(name="back", description="Play your seat yourself again after the AI stood in")
    async def back(self, interaction: Interaction) -> None:
        work = self.host.back(channel_key(interaction), actor_of(interaction))
        await self._run(interaction, await within_ack(interaction, work), "Welcome back.")


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, PrincesBot)
    await bot.add_cog(GameCog(bot))
