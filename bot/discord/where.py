"""Which game a command means: the channel's game, or (in DMs) the caller's game, or the one they name."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.models import GameInfo, HostError

from .common import Interaction, bot_of

T = TypeVar("T")


async def caller_game(interaction: Interaction, game_id: int | None = None) -> GameInfo:
    """``game_id`` if given (one of the caller's games), else the channel's active game, else (in a DM or a
    channel without a game) the caller's game that waits for them, or their only game."""
    bot = bot_of(interaction)
    user_id = str(interaction.user.id)
    if game_id is not None:
        info = await bot.host.game_info(game_id)
        if info.seat_of(user_id) is None and info.channel_id != str(interaction.channel_id):
            raise HostError(f"You are not playing in game #{game_id}.")
        interaction.extras["game_id"] = info.game_id
        return info
    if interaction.guild_id is not None:
        here = await bot.host.game_in_channel(str(interaction.channel_id))
        if here is not None:
            interaction.extras["game_id"] = here.game_id
            return here
    mine = [info for info in await bot.host.my_games(user_id) if info.status != "lobby"]
    waiting = [info for info in mine if info.waiting_on_user(user_id)]
    for candidates in (waiting, mine):
        if len(candidates) == 1:
            interaction.extras["game_id"] = candidates[0].game_id
            return candidates[0]
    if not mine:  # right after a game ended: its result (the channel's game, in a DM the caller's)
        channel = str(interaction.channel_id) if interaction.guild_id is not None else None
        raise HostError(await bot.host.no_game_text(channel, user_id))
    listed = ", ".join(f"#{info.game_id} ({info.title})" for info in (waiting or mine))
    raise HostError(f"You play several games: add the option game with one of {listed}.")


async def caller_channel(interaction: Interaction, game_id: int | None = None) -> str:
    """The channel id to hand to the host's channel-based calls (/board, /hand, /log, /undo)."""
    if game_id is None and interaction.guild_id is not None:
        return str(interaction.channel_id)
    return (await caller_game(interaction, game_id)).channel_id


async def caller_game_id(interaction: Interaction, game_id: int | None = None, *, fresh: bool = False) -> int:
    """Like ``caller_game`` but only the id, remembering each channel's game so a turn costs no lookup.

    The remembered id is a hint: ``on_caller_game`` asks again when the host refuses an action on it.
    """
    bot = bot_of(interaction)
    channel = str(interaction.channel_id)
    if game_id is None and interaction.guild_id is not None and not fresh:
        known = bot.channel_games.get(channel)
        if known is not None:
            interaction.extras["game_id"] = known
            return known
    info = await caller_game(interaction, game_id)
    if info.channel_id == channel:
        bot.channel_games[channel] = info.game_id
    return info.game_id


async def on_caller_game(
    interaction: Interaction, game_id: int | None, work: Callable[[int], Awaitable[T]]
) -> T:
    """Run ``work(game id)``; if the host refuses it, look the channel's game up again and retry if it changed
    (a new game replaced the remembered one)."""
    remembered = await caller_game_id(interaction, game_id)
    try:
        return await work(remembered)
    except HostError:
        current = await caller_game_id(interaction, game_id, fresh=True)
        if current == remembered:
            raise
        return await work(current)
