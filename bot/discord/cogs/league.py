"""``/league``: a server's season of one game (issue 45): new, join, leave, start, drop, status, standings,
pairings, season, role, help. Each command is one call of the league service (``bot.leagues.service``); the league
loop here opens each round's threads and games, posts what they cause (the league's notices too: outbox rows,
posted by the same sender), and pairs the next round when one ends: at once when this process scored the round's
last game (the host sets ``league_work``), else on its next pass."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.leagues.service import LEAGUE_HELP, LeagueInfo, LeagueService
from bot.models import Actor, HostError
from forms.labels import fit
from i18n import localize
from render.standings import StandingsView, standings_alt_text, standings_png, standings_text

from ..app import PrincesBot
from ..common import Interaction, actor_of, actor_of_member, channel_key, send, within_ack
from ..league_button import signup_view
from .game import THREAD_NAME, game_key_autocomplete, open_thread, parse_options

log = logging.getLogger(__name__)
#: how often the league loop looks for work (a round to open or pair, deadline misses) when nothing wakes it
LOOP_S = 30.0
Format = Literal["swiss", "round-robin", "elimination", "divisions"]


@app_commands.guild_only()
class LeagueCog(
    commands.GroupCog,
    group_name="league",
    group_description="Leagues: a season of one game, paired by the bot",
):
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot
        self.service = LeagueService(bot.host)
        self._loop: asyncio.Task[None] | None = None
        super().__init__()

    async def cog_load(self) -> None:
        if self.bot.run_timers:
            self._loop = asyncio.create_task(self._run(), name="princes-table-leagues")

    async def cog_unload(self) -> None:
        if self._loop is not None:
            self._loop.cancel()

    # ---- the league loop -----------------------------------------------------------------------------------
    async def _run(self) -> None:
        await self.bot.wait_until_ready()
        woken = self.bot.host.league_work
        while True:
            woken.clear()  # before the pass: a round ending during it wakes the next one
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the league loop failed; trying again in %.0f s", LOOP_S)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(woken.wait(), LOOP_S)

    async def run_once(self) -> None:
        """Do the due league work (open rounds, pair the next, drop players over the deadline limit) and post
        what it caused: the games' messages in their threads, the league's notices in its channel."""
        async with self.bot.busy():
            work = await self.service.run_tasks(self._open_thread)
            work.deliveries += await self.service.sweep()
            await self.bot.sender.deliver(work.deliveries)

    async def _open_thread(self, channel_id: str, name: str, adopt: bool) -> str:
        """The table's thread; ``adopt``: a crash may have opened it already, so an active thread of that name
        in the channel is taken instead of opening a second one."""
        if adopt:
            found = await self._active_thread(int(channel_id), fit(name, THREAD_NAME))
            if found is not None:
                return found
        return await open_thread(self.bot, int(channel_id), name)

    async def _active_thread(self, channel_id: int, name: str) -> str | None:
        """The active thread of the channel with that name (GET /guilds/{id}/threads/active), if any."""
        channel = self.bot.get_channel(channel_id) or await self.bot.fetch_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if guild is None:
            return None
        for thread in await guild.active_threads():
            if thread.parent_id == channel_id and thread.name == name:
                return str(thread.id)
        return None

    async def _refresh_signup(self, info: LeagueInfo) -> None:
        """Edit the sign-up message to the list as it is now (a join or leave by command; the button edits the
        message it is on itself). A failed edit is left for the next one: each edit says the whole list."""
        message_id = info.league.signup_message_id
        if message_id is None:
            return
        language = await self.bot.host.guild_language(info.league.guild_id)
        view = signup_view(info, language)
        message = self.bot.get_partial_messageable(int(info.league.channel_id)).get_partial_message(
            int(message_id)
        )
        try:
            await message.edit(content=localize(info.signup_text(), language), view=view)
        except discord.HTTPException as error:
            log.info("league %s: the sign-up message was not edited: %s", info.id, error)
        finally:
            if view is not None:
                view.stop()

    # ---- who manages -------------------------------------------------------------------------------------
    async def _may_manage(self, interaction: Interaction, league_id: int | None = None) -> bool:
        """Manage Server, the server's league role, or (for an existing league) its creator."""
        actor = actor_of(interaction)
        if actor.can_manage_server:
            return True
        role = await self.service.league_role(str(interaction.guild_id))
        roles = getattr(interaction.user, "roles", [])
        if role is not None and any(str(held.id) == role for held in roles):
            return True
        return league_id is not None and await self.service.may_manage(league_id, actor)

    async def _require_manager(self, interaction: Interaction, league_id: int | None = None) -> None:
        if not await self._may_manage(interaction, league_id):
            raise HostError("Only a league manager may do that (Manage Server, or the server's league role).")

    # ---- sign-up -----------------------------------------------------------------------------------------
    @app_commands.command(name="new", description="Open a league's sign-up in this channel")
    @app_commands.describe(
        game="which game (see /rules)",
        format="`swiss`, `round-robin`, `elimination` or `divisions` (by rating)",
        rounds="how many rounds (round robin and elimination count their own)",
        deadline="time per decision in hours or days, e.g. 24, 36h or 2d (1 hour to 7 days)",
        pod="players at each table (default: the game's smallest)",
        options="game options as name=value pairs, as in /game new",
        name="the league's name (default: the game, the format and a number)",
    )
    @app_commands.autocomplete(game=game_key_autocomplete)
    async def new(
        self,
        interaction: Interaction,
        game: str,
        format: Format,
        rounds: app_commands.Range[int, 1, 30],
        deadline: app_commands.Range[str, 1, 10] = "24",
        pod: app_commands.Range[int, 2, 8] | None = None,
        options: app_commands.Range[str, 0, 200] = "",
        name: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        await self._require_manager(interaction)
        info = await self.service.new(
            str(interaction.guild_id),
            channel_key(interaction),
            actor_of(interaction),
            game,
            format,
            rounds,
            deadline,
            pod,
            parse_options(options),
            name,
            await self.bot.host.guild_language(str(interaction.guild_id)),
        )
        await self._post_signup(interaction, info)

    async def _post_signup(self, interaction: Interaction, info: LeagueInfo) -> None:
        """Answer with the sign-up message (its Join button) and remember it, to edit as the list changes."""
        language = await self.bot.host.guild_language(info.league.guild_id)
        view = signup_view(info, language) or discord.ui.View()
        await interaction.response.send_message(localize(info.signup_text(), language), view=view)
        view.stop()
        message = await interaction.original_response()
        await self.service.set_signup_message(info.id, str(message.id))

    @app_commands.command(name="join", description="Sign up for this channel's league")
    async def join(self, interaction: Interaction) -> None:
        info = await self.service.join(channel_key(interaction), actor_of(interaction))
        await send(interaction, f"You signed up for {info.league.name}.")
        await self._refresh_signup(info)

    @app_commands.command(name="leave", description="Take your name off the league before it starts")
    async def leave(self, interaction: Interaction) -> None:
        info = await self.service.leave(channel_key(interaction), actor_of(interaction))
        await send(interaction, f"You are no longer signed up for {info.league.name}.")
        await self._refresh_signup(info)

    @app_commands.command(name="start", description="Close the sign-up and open round 1 (league managers)")
    async def start(self, interaction: Interaction) -> None:
        league = await self.service.in_channel(channel_key(interaction))
        await self._require_manager(interaction, league.id)
        info, notices = await within_ack(
            interaction, self.service.start(channel_key(interaction)), ephemeral=False
        )
        await send(interaction, f"{info.league.name} has started: round 1 opens now.", ephemeral=False)
        await self.bot.sender.deliver(notices)  # the sign-up message says so and loses its Join button
        await self.run_once()

    @app_commands.command(
        name="season", description="Open the next season of a finished divisions league (league managers)"
    )
    async def season(self, interaction: Interaction) -> None:
        league = await self.service.in_channel(channel_key(interaction))
        await self._require_manager(interaction, league.id)
        language = await self.bot.host.guild_language(league.guild_id)
        info = await self.service.new_season(channel_key(interaction), actor_of(interaction), language)
        await self._post_signup(interaction, info)

    @app_commands.command(
        name="help", description="How leagues are played: formats, tie-breaks, drops, seasons"
    )
    async def help(self, interaction: Interaction) -> None:
        await send(interaction, LEAGUE_HELP)

    @app_commands.command(name="drop", description="Withdraw from the league, or (managers) drop a player")
    @app_commands.describe(player="the player to drop (managers only); leave empty to withdraw yourself")
    async def drop(self, interaction: Interaction, player: discord.Member | None = None) -> None:
        league = await self.service.in_channel(channel_key(interaction))
        target: Actor | None = None if player is None else actor_of_member(player)
        manager = target is not None and await self._may_manage(interaction, league.id)
        work = self.service.drop(channel_key(interaction), actor_of(interaction), target, manager)
        deliveries = await within_ack(interaction, work, ephemeral=False)
        who = (target or actor_of(interaction)).name
        await send(
            interaction, f"{who} is out of {league.name}; their running games are resigned.", ephemeral=False
        )
        await self.bot.sender.deliver(deliveries)
        await self.run_once()

    # ---- what everyone may read ------------------------------------------------------------------------------
    @app_commands.command(name="status", description="The league: its round, its players, who dropped")
    async def status(self, interaction: Interaction) -> None:
        await send(interaction, await self.service.status_text(channel_key(interaction)))

    @app_commands.command(name="pairings", description="A round's tables, their threads and results")
    @app_commands.describe(round="which round (default: the current one)")
    async def pairings(
        self, interaction: Interaction, round: app_commands.Range[int, 1, 30] | None = None
    ) -> None:
        await send(interaction, await self.service.pairings_text(channel_key(interaction), round))

    @app_commands.command(
        name="standings", description="The standings with their tie-breaks, as an image and a table"
    )
    async def standings(self, interaction: Interaction) -> None:
        views = await self.service.standings_views(channel_key(interaction))
        language = await self.bot.host.user_language(str(interaction.user.id), str(interaction.locale))
        await interaction.response.defer(ephemeral=True, thinking=True)
        for view in views:
            await self._send_standings(interaction, view, language)

    @staticmethod
    async def _send_standings(interaction: Interaction, view: StandingsView, language: str) -> None:
        png = await asyncio.to_thread(standings_png, view, language)
        picture = discord.File(
            io.BytesIO(png), filename="standings.png", description=standings_alt_text(view, language)[:1024]
        )
        await interaction.followup.send(standings_text(view, language), file=picture, ephemeral=True)

    # ---- the server's league role ----------------------------------------------------------------------------
    @app_commands.command(
        name="role", description="Choose the role whose members manage leagues (Manage Server)"
    )
    @app_commands.describe(role="the league managers' role; leave empty for Manage Server only")
    async def role(self, interaction: Interaction, role: discord.Role | None = None) -> None:
        text = await self.service.set_league_role(
            str(interaction.guild_id), actor_of(interaction), None if role is None else str(role.id)
        )
        await send(interaction, text)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, PrincesBot)
    await bot.add_cog(LeagueCog(bot))
