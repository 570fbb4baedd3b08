"""Posting host deliveries to Discord: the channel's board + log + mention, private views by DM.

Every delivery is an outbox row; it is marked sent only once Discord accepted it, so after a crash or an outage
the rest goes out at start-up (``flush``). Each message goes with a nonce derived from its row
(``Delivery.nonce``) and discord.py's ``enforce_nonce``: a row posted again after a crash that fell between its
post and its mark-sent gets back the message Discord already made (within Discord's few minutes) instead of a
second copy. A DM that Discord refuses (closed DMs) becomes a mention in the
game's channel with an "Open my hand" button answered ephemerally: nothing private ever goes to the channel.
A channel that is gone or unreachable pauses the game (``Host.channel_lost``) and its players are told by DM.

Several processes: the process that stored a change posts its messages, over REST, whichever shard sees the
channel (REST needs no gateway connection; the outbox rows are claimed for it when written, see
``Store.add_outbox``). Rows a crashed process left are taken over by any process's sweep (``start_sweeping``)
once their claim has lapsed, and a row is marked sent only after Discord accepted it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.hosting.core import CARD_KEY
from bot.models import AHEAD_KIND, CLOSE_KIND, LEAGUE_KIND, Delivery, GameInfo
from i18n import localize

from .common import Interaction, board_file, clip, digest_files, localized_prompt, reader_language, send
from .components import HandButton, form_text, hand_view, prompt_view
from .replays import replay_post

if TYPE_CHECKING:
    from .app import PrincesBot

log = logging.getLogger(__name__)

#: Discord error codes meaning "this channel is gone for us" (unknown channel, missing access/permissions, and
#: 50083: a game's thread a moderator archived and locked, which a message cannot unarchive; a 400, not a 403)
CHANNEL_GONE = {10003, 50001, 50013, 50083}
UNKNOWN_MESSAGE = 10008
CANNOT_DM = 50007
RETRY_AFTER_S = 30.0
REMEMBER_SENT = 10_000
#: how many of a game's messages may stand below its live card (the newest line and one more: a ping is at most
#: one message away from the buttons) before the card is posted again under the newest one (issue 47)
CARD_REACH = 2
#: how often the outbox is checked for rows nobody posts (a crashed process's, after their claim lapsed)
SWEEP_EVERY_S = 30.0


@dataclass
class Posted:
    """What posting one delivery did, for its mark (``Host.mark_sent``): the message to remember under its edit
    key (channel, message), the channel where it posted a new message below the game's live card, and the old
    card when the card was posted again (deleted once the new one is remembered)."""

    remember: tuple[str, str] | None = None
    below_card_in: str | None = None
    sunk: discord.PartialMessage | None = None


class ChannelLost(Exception):
    def __init__(self, channel_id: str) -> None:
        super().__init__(channel_id)
        self.channel_id = channel_id


class Sender:
    def __init__(self, bot: PrincesBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        #: ids posted by this process (an outbox flush racing a command must not post one twice)
        self._sent: OrderedDict[int, None] = OrderedDict()
        self._retry: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None

    # ---- entry points ------------------------------------------------------------------------------------
    async def deliver(self, deliveries: list[Delivery]) -> None:
        """Post in order; one failing delivery does not stop the others (it stays in the outbox)."""
        for delivery in deliveries:
            await self._deliver_one(delivery)

    async def deliver_while(self, deliveries: list[Delivery], answer: Awaitable[None]) -> None:
        """Post ``deliveries`` while the interaction is being answered (drawing the board overlaps the
        answer's round trip); both are finished on return."""
        posting = asyncio.ensure_future(self.deliver(deliveries))
        try:
            await answer
        finally:
            await posting

    async def flush(self) -> None:
        """Post the unsent outbox rows this process may take (its own, and those whose claim lapsed), at start-up,
        after a failure and on each sweep."""
        host = self.bot.host
        for delivery in await host.pending_deliveries():
            # posting a batch takes a while: renew each row's claim before posting it, and leave it to another
            # process that took it over meanwhile (the batch's claim may have lapsed)
            if delivery.id not in self._sent and await host.claim_delivery(delivery.id):
                await self._deliver_one(delivery)

    def start_sweeping(self) -> None:
        """Post, every ``SWEEP_EVERY_S``, the outbox rows no live process holds (and this one's failed ones)."""
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.create_task(self._sweep(), name="princes-table-outbox-sweep")

    async def stop_sweeping(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):  # the cancellation asked for just above
                await self._sweeper
            self._sweeper = None

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY_S)
            try:
                async with self.bot.busy():
                    await self.flush()
                    await self.bot.host.prune_sent_deliveries()
            except Exception:
                log.exception("outbox sweep failed; trying again in %.0f s", SWEEP_EVERY_S)

    async def check_dm_reach(self, interaction: Interaction, info: GameInfo) -> None:
        """At join: greet by DM; if Discord refuses, tell the player (ephemerally) how they will get views."""
        text = (
            f"You joined **{info.title}** #{info.game_id} in <#{info.channel_id}>. Private views, prompts "
            "and (with /settings turn_dms on) turn notices come here."
        )
        text = localize(text, await reader_language(interaction))
        try:
            dm = await self.bot.create_dm(discord.Object(interaction.user.id))
            await dm.send(text)
        except discord.Forbidden:
            # the button's label as the player will read it on the channel's fallback: in the server's language
            button = localize(HandButton.LABEL, await self.bot.host.guild_language(info.guild_id))
            await send(
                interaction,
                "I cannot send you direct messages (they are closed for this server or for "
                "me). When the game has something private for you, I will mention you here "
                f'with a button labelled "{button}" instead.',
                ephemeral=True,
            )

    # ---- one delivery ------------------------------------------------------------------------------------
    async def _deliver_one(self, delivery: Delivery) -> None:
        if delivery.id in self._sent:
            return
        lock = self._locks.setdefault(delivery.game_id, asyncio.Lock())
        try:
            async with lock:  # one game's messages keep their order
                if delivery.id in self._sent:
                    return
                if delivery.kind == CLOSE_KIND:
                    await self._close_dm_prompt(delivery)
                    posted = Posted()
                elif delivery.kind == LEAGUE_KIND:
                    await self._league_notice(delivery)
                    posted = Posted()
                elif delivery.kind == "private":
                    posted = await self._private(delivery)
                else:
                    posted = await self._public(delivery)
                # remembered (with the mark) before the sunk card goes: a crash in between leaves an old card
                # (whose buttons name their decision, so they refuse to act on a newer state), never a game
                # without one
                await self._done(delivery, posted)
                if posted.sunk is not None:
                    await self._delete_sunk_card(delivery, posted.sunk)
        except ChannelLost as lost:
            await self._done(delivery)  # the channel will never take it; the players hear by DM instead
            log.warning(
                "game %s: channel %s is gone or unreachable, pausing the game",
                delivery.game_id,
                lost.channel_id,
            )
            await self.deliver(await self.bot.host.channel_lost(lost.channel_id))
        except discord.HTTPException as error:
            log.warning(
                "game %s: delivery %s failed (%s %s); retrying later",
                delivery.game_id,
                delivery.id,
                error.status,
                error.code,
            )
            self._retry_later()

    async def _done(self, delivery: Delivery, posted: Posted | None = None) -> None:
        """Mark the delivery sent, with what its posting did (``Posted``): one host call, one transaction."""
        below = posted.below_card_in if posted else None
        remember = posted.remember if posted else None
        await self.bot.host.mark_sent(
            delivery.id,
            (delivery.game_id, below) if below else None,
            (delivery.game_id, delivery.edit_key, *remember) if remember and delivery.edit_key else None,
        )
        self._sent[delivery.id] = None
        while len(self._sent) > REMEMBER_SENT:
            self._sent.popitem(last=False)

    def _retry_later(self) -> None:
        if self._retry is None or self._retry.done():
            self._retry = asyncio.create_task(self._retry_after(RETRY_AFTER_S))

    async def _retry_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.bot.busy():
            await self.flush()

    # ---- public ------------------------------------------------------------------------------------------
    async def _public(self, delivery: Delivery) -> Posted:
        """Post or edit; what was posted (a new message other than the live card stands below the card)."""
        channel_id = delivery.channel_id or (await self.bot.host.game_info(delivery.game_id)).channel_id
        language = await self._language(delivery)
        content, mentions = self._content(delivery, language=language)
        prompt = localized_prompt(delivery.prompt, language)
        view = prompt_view(prompt, game_key=delivery.game_key, language=language) if prompt else None
        replay: list[discord.File] = []
        # the game is over: its animated replay goes with the result (bot.discord.replays)
        if delivery.replay:
            replay, view, line = await replay_post(self.bot, delivery.game_id, language)
            content = clip(f"{content}\n{localize(line, language)}".strip())
        message, sunk = await self._post_or_edit(
            delivery, channel_id, content, mentions, view, replay, language
        )
        if message is None:
            return Posted()
        return Posted(
            (channel_id, str(message.id)) if delivery.edit_key else None,
            None if delivery.edit_key == CARD_KEY else channel_id,
            sunk,
        )

    async def _language(self, delivery: Delivery) -> str:
        """The reader's language: read in the commit that made the delivery, else (a row posted later) now."""
        if delivery.addressed is not None:
            return delivery.addressed.language
        if delivery.kind == "public":
            return await self.bot.host.game_language(delivery.game_id)
        return await self.bot.host.user_language(delivery.user_id)

    async def _delete_sunk_card(self, delivery: Delivery, sunk: discord.PartialMessage) -> None:
        try:
            await sunk.delete()
        except discord.HTTPException as error:  # gone already, or Discord failing: its buttons refuse anyway
            log.info(
                "game %s: the sunk live card %s was not deleted (%s %s)",
                delivery.game_id,
                sunk.id,
                error.status,
                error.code,
            )

    async def _post_or_edit(
        self,
        delivery: Delivery,
        channel_id: str,
        content: str,
        mentions: discord.AllowedMentions,
        view: discord.ui.View | None,
        more_files: list[discord.File] | None = None,
        language: str = "en",
    ) -> tuple[discord.Message | None, discord.PartialMessage | None]:
        """The message posted (None when one was edited in place) and, for a live card that had sunk under
        more than ``CARD_REACH`` of the game's messages and was posted again under them, the old card."""
        channel = self.bot.get_partial_messageable(int(channel_id))
        file = (
            await board_file(delivery.game_key, delivery.view, language=language) if delivery.view else None
        )
        files = ([file] if file else []) + _attached(delivery) + (more_files or [])
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        try:
            sunk = None
            if delivery.edit_key:
                found, below = await self._remembered(delivery)
                if found is not None and found[0] == channel_id:
                    old = channel.get_partial_message(int(found[1]))
                    if delivery.keep_in_reach and below > CARD_REACH:
                        sunk = old  # posted again below, then deleted: one request more than an edit
                    else:
                        try:
                            await old.edit(
                                content=content,
                                attachments=files,
                                view=view,
                                allowed_mentions=mentions,
                            )
                            return None, None
                        except discord.NotFound as error:
                            if error.code != UNKNOWN_MESSAGE:
                                raise
            if files:
                extra["files"] = files
            posted = await channel.send(
                content, allowed_mentions=mentions, nonce=delivery.nonce("p"), **extra
            )
            return posted, sunk
        except discord.HTTPException as error:
            if error.status in (400, 403, 404) and error.code in CHANNEL_GONE:
                raise ChannelLost(channel_id) from error
            raise
        finally:
            if view is not None:
                view.stop()  # dynamic items dispatch by custom_id; the view object need not stay in memory

    async def _remembered(self, delivery: Delivery) -> tuple[tuple[str, str] | None, int]:
        """The message remembered under the delivery's edit key and, for the live card, how many of the game's
        messages stand below it (``Host.message_to_edit``: no query for a delivery just stored)."""
        found = await self.bot.host.message_to_edit(delivery)
        return (None, 0) if found is None else ((found.channel_id, found.message_id), found.below)

    # ---- a league's notices ------------------------------------------------------------------------------
    async def _league_notice(self, delivery: Delivery) -> None:
        """A league's message in its channel (``LEAGUE_KIND``: its text already in the server's language), or the
        edit of its sign-up message (``edit_key``: the message's id; the edit takes its Join button off). A
        channel or message that is gone takes nothing: the row is marked sent."""
        assert delivery.channel_id is not None
        channel = self.bot.get_partial_messageable(int(delivery.channel_id))
        content = clip(delivery.text)
        try:
            if delivery.edit_key is not None:
                await channel.get_partial_message(int(delivery.edit_key)).edit(content=content, view=None)
            else:
                await channel.send(
                    content, allowed_mentions=discord.AllowedMentions.none(), nonce=delivery.nonce("l")
                )
        except discord.HTTPException as error:
            if error.status in (400, 403, 404) and (
                error.code in CHANNEL_GONE or error.code == UNKNOWN_MESSAGE
            ):
                log.warning(
                    "league notice %s: channel %s unreachable (%s)",
                    delivery.id,
                    delivery.channel_id,
                    error.code,
                )
                return
            raise

    # ---- private -----------------------------------------------------------------------------------------
    async def _private(self, delivery: Delivery) -> Posted:
        """Post by DM; closed DMs make it a mention in the game's channel instead (below the live card)."""
        assert delivery.user_id is not None
        language = await self._language(delivery)
        if delivery.catchup and delivery.seat is not None:
            await self._catchup(delivery, language)
        prompt = localized_prompt(delivery.prompt, language)
        content, _ = self._content(
            delivery,
            mention=False,
            form=form_text(delivery.prompt, delivery.game_key, delivery.view, language),
            language=language,
        )
        view = (
            prompt_view(prompt, game_key=delivery.game_key, seat_view=delivery.view, language=language)
            if prompt
            else None
        )
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        files = (
            [await board_file(delivery.game_key, delivery.view, name="hand.png", language=language)]
            if delivery.view
            else []
        )
        files += _attached(delivery)
        if files:
            extra["files"] = files
        try:
            dm = await self.bot.create_dm(discord.Object(int(delivery.user_id)))
            message = await dm.send(content, nonce=delivery.nonce("m"), **extra)
            # a decision's prompt (an edit key) is remembered with the mark: its buttons come off when it closes
            return Posted((str(dm.id), str(message.id)) if delivery.edit_key else None)
        except discord.Forbidden:
            return Posted(below_card_in=await self._dm_fallback(delivery))
        except discord.NotFound:
            log.warning(
                "game %s: user %s is unknown to Discord; private delivery dropped",
                delivery.game_id,
                delivery.user_id,
            )
        finally:
            if view is not None:
                view.stop()
        return Posted()

    async def _close_dm_prompt(self, delivery: Delivery) -> None:
        """A decision prompt's decision closed: its DM (remembered under the edit key when posted) loses its
        buttons, its text stays as it was. A prompt never posted by DM (closed DMs) or deleted since needs
        nothing."""
        found = await self.bot.host.message_to_edit(delivery)
        if found is None:
            return
        channel = self.bot.get_partial_messageable(int(found.channel_id))
        message = channel.get_partial_message(int(found.message_id))
        try:
            await message.edit(view=None)
        except (discord.NotFound, discord.Forbidden):
            log.info("game %s: a closed prompt's DM is gone; nothing to edit", delivery.game_id)

    async def _catchup(self, delivery: Delivery, language: str) -> None:
        """A turn's DM opens on what happened since the player last moved, as its own message (text and two
        boards), when there is enough to tell (``Host.turn_digest``). Closed DMs: /catchup shows it."""
        assert delivery.seat is not None and delivery.user_id is not None
        catchup = await self.bot.host.turn_digest(delivery.game_id, delivery.seat)
        if catchup is None or catchup.before is None or catchup.after is None:
            return
        files = await digest_files(catchup.game_key, catchup.before, catchup.after, language)
        try:
            dm = await self.bot.create_dm(discord.Object(int(delivery.user_id)))
            await dm.send(localize(catchup.text, language), files=files, nonce=delivery.nonce("c"))
        except (discord.Forbidden, discord.NotFound):
            return  # the prompt that follows falls back to the channel as usual

    async def _dm_fallback(self, delivery: Delivery) -> str | None:
        """Closed DMs: mention the player in the game's channel with a button that shows their hand ephemerally;
        returns that channel."""
        if not (delivery.prompt or delivery.view):
            return None  # nothing to look at (say, "your channel is gone"): there is no channel to send it to
        if delivery.prompt is not None and delivery.prompt.kind == AHEAD_KIND:
            # an offer to answer ahead: a mention now would tell the table that the player has one (what their
            # plan holds); /ahead shows it to them alone
            return None
        info = await self.bot.host.game_info(delivery.game_id)
        if info.status not in ("active", "paused"):
            return None
        language = await self.bot.host.game_language(delivery.game_id)  # the channel reads the server's
        text = (
            f"<@{delivery.user_id}>, I could not DM you ({info.title} #{info.game_id}). "
            "Your private view and choices are one click away:"
        )
        text = localize(text, language)
        channel = self.bot.get_partial_messageable(int(info.channel_id))
        view = hand_view(delivery.game_id, language)
        try:
            await channel.send(
                text,
                view=view,
                nonce=delivery.nonce("f"),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(int(delivery.user_id or 0))], everyone=False, roles=False
                ),
            )
        except discord.HTTPException as error:
            if error.status in (400, 403, 404) and error.code in CHANNEL_GONE:
                raise ChannelLost(info.channel_id) from error
            raise
        finally:
            view.stop()
        return info.channel_id

    # ---- text --------------------------------------------------------------------------------------------
    @staticmethod
    def _content(
        delivery: Delivery, mention: bool = True, form: str | None = None, language: str = "en"
    ) -> tuple[str, discord.AllowedMentions]:
        """The text with the mentions of whoever must act (pinged once, here) and the deadline, if any; a DM
        that opens on a guided form shows the form's first page under the game's line."""
        users = [user for user in dict.fromkeys(delivery.mentions) if user and user.isdigit()]
        lines = [localize(delivery.text, language), f"\n{form}" if form else ""]
        prompt = delivery.prompt
        if prompt is not None and prompt.deadline and not prompt.expiry_id:
            lines.append(localize(f"Deadline <t:{int(prompt.deadline)}:R>.", language))
        if prompt is not None and prompt.choices and len(prompt.choices) > 100 and not prompt.expiry_id:
            many = f"{len(prompt.choices)} choices: type /move (it autocompletes) or pick below."
            lines.append(localize(many, language))
        if mention and users:
            lines.append(" ".join(f"<@{user}>" for user in users))
        allowed = discord.AllowedMentions(
            users=[discord.Object(int(u)) for u in users], everyone=False, roles=False, replied_user=False
        )
        return clip("\n".join(line for line in lines if line)), allowed


def _attached(delivery: Delivery) -> list[discord.File]:
    """The delivery's text files (the sealed choices at a game's end) as uploads."""
    return [discord.File(io.BytesIO(a.text.encode()), filename=a.name) for a in delivery.attachments]
