"""The league sign-up message's Join button: a persistent ``DynamicItem`` carrying the league's id (issue 45).

Its own module (not ``cogs/league.py``) because ``components.DYNAMIC_ITEMS`` lists it and the cogs import the
bot's app, which imports the components."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.leagues.service import LeagueInfo, LeagueService
from forms.labels import BUTTON_LABEL, fit
from i18n import DEFAULT, localize

from .common import Handled, Interaction, actor_of, bot_of, rebuilt, within_ack
from .custom_ids import IdFormat, digits, one_of

LEAGUE_BUTTON_ID = IdFormat("pt:lg", (("league_id", digits(18)), ("op", one_of("join"))))


class LeagueButton(Handled, discord.ui.DynamicItem[Any], template=LEAGUE_BUTTON_ID.template):
    """Join the league whose sign-up message holds the button (its sign-up must still be open)."""

    def __init__(self, league_id: int, op: str = "join", language: str = DEFAULT) -> None:
        self.league_id, self.op = league_id, op
        self.game_id = 0  # no game: Handled notes the id of what was clicked
        label = fit(localize("Join", language), BUTTON_LABEL)
        custom_id = LEAGUE_BUTTON_ID.build(league_id=league_id, op=op)
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.success, custom_id=custom_id)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeagueButton:
        return rebuilt(cls, item, lambda: LEAGUE_BUTTON_ID.parse(match))

    async def handle(self, interaction: Interaction) -> None:
        bot = bot_of(interaction)
        service = LeagueService(bot.host)
        info = await within_ack(
            interaction, service.join_league(self.league_id, actor_of(interaction)), update=True
        )
        language = await bot.host.guild_language(info.league.guild_id)
        content = localize(info.signup_text(), language)
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, view=signup_view(info, language))
        else:
            await interaction.response.edit_message(content=content, view=signup_view(info, language))


def signup_view(info: LeagueInfo, language: str = DEFAULT) -> discord.ui.View | None:
    """The Join button while the sign-up is open; nothing once the league has started."""
    if info.league.status != "signup":
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LeagueButton(info.id, "join", language))
    return view


#: the league's persistent items, registered with the others (``components.DYNAMIC_ITEMS``)
LEAGUE_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (LeagueButton,)
