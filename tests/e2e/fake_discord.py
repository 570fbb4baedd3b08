"""A small Discord on loopback that the real discord.py client talks to (see docs/notes/discord-testing.md).

It serves the REST routes and the gateway a slash-command + button + DM + file flow needs, keeps every message
the bot posts (with its components and attachments), and lets a test act as users: push slash commands,
autocomplete requests and component clicks, delete channels, close someone's DMs. Every request is logged with
its arrival time and the channel it concerns, which the benchmark uses to measure latency.

Shards, as Discord routes them: a gateway connection that IDENTIFYs with ``shard: [id, count]`` receives READY
and GUILD_CREATE for the guilds of that shard only (``(guild_id >> 22) % count == id``) and the events of those
guilds; DMs and DM interactions go to shard 0. ``GET /gateway/bot`` answers ``shard_count``. A connection that
sends no shard is shard 0 of 1 and sees everything, as before.

Discord's contract (``discord_contract``): every request is checked against Discord's published API description
and the limits its developer docs state, before its handler runs. One that real Discord would refuse gets
Discord's 400 (or 404/405) with its error body, is not applied, and is kept in ``contract_violations``; a test
that provokes one on purpose says so with ``expect_violations()`` (the ``fake`` fixture fails any other). Each
interaction records when its first callback arrived (``InteractionRecord.first_response_s``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from tests.e2e import discord_contract

JSON = dict[str, Any]
#: ``python -c`` text that runs ``python -m bot run`` against the fake whose addresses are in the environment
#: (``FAKE_DISCORD_REST``, ``FAKE_DISCORD_GATEWAY``): a real bot process, as an admin starts it
BOT_LAUNCHER = """
import os, sys
import discord, yarl
discord.http.Route.BASE = os.environ["FAKE_DISCORD_REST"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])
from bot.__main__ import main
sys.exit(main(["run"]))
"""
DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 64
MANAGE_CHANNELS = 1 << 4
#: what an ordinary member may do in a text channel (view, send, embed, attach, read history, use commands)
MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
TIMESTAMP = "2026-01-01T00:00:00+00:00"
#: how long Discord remembers an enforced nonce ("the past few minutes" in its docs: the low end is taken, so a
#: test never relies on more than Discord promises)
NONCE_WINDOW_S = 120.0


class _Snowflakes:
    """Increasing snowflake ids whose timestamps are now, like Discord's."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(self._counter) & 0x3FFFFF)

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """An id (of a guild) that Discord would place on ``shard_id`` of ``shard_count``."""
        millis = int(time.time() * 1000) - DISCORD_EPOCH_MS
        millis -= (millis - shard_id) % shard_count
        return (millis << 22) | (next(self._counter) & 0x3FFFFF)


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: which shard receives a guild's events."""
    return (guild_id >> 22) % shard_count


@dataclass
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    permissions: int = MEMBER_PERMISSIONS
    #: the locale of the user's Discord client, sent in each of their interactions (issue 23)
    locale: str = "en-US"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class FakeMessage:
    """A message as the bot left it: the latest content, components, embeds and attachments."""

    id: int
    channel_id: int
    content: str = ""
    components: list[JSON] = field(default_factory=list)
    embeds: list[JSON] = field(default_factory=list)
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = False
    #: the user an ephemeral message is shown to
    visible_to: int | None = None
    loading: bool = False
    edits: int = 0
    created: float = field(default_factory=time.perf_counter)

    def custom_ids(self) -> list[str]:
        return [
            item["custom_id"]
            for row in self.components
            for item in row.get("components", [])
            if "custom_id" in item
        ]

    def buttons(self) -> list[JSON]:
        return [
            item for row in self.components for item in row.get("components", []) if item.get("type") == 2
        ]

    def selects(self) -> list[JSON]:
        return [
            item for row in self.components for item in row.get("components", []) if item.get("type") == 3
        ]

    def button(self, label: str) -> JSON:
        for item in self.buttons():
            if item.get("label") == label:
                return item
        raise LookupError(
            f"no button {label!r} on message {self.id}: {[b.get('label') for b in self.buttons()]}"
        )

    def text(self) -> str:
        """Content plus embed titles and descriptions, what a reader sees."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title") or "", embed.get("description") or ""]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in embed.get("fields", [])]
        return "\n".join(part for part in parts if part)


@dataclass(frozen=True)
class Shown:
    """What the bot showed at one time: the channel (a DM's for a DM), the one user an ephemeral answer or an
    autocomplete list is shown to (None: everyone in the channel), and each piece of text a reader sees or
    hears from a screen reader, named by where it stands ("content", "button", "alt", "file"...)."""

    channel_id: int
    visible_to: int | None
    texts: tuple[tuple[str, str], ...]


def readable_texts(body: JSON, files: Iterable[str] = ()) -> list[tuple[str, str]]:
    """Every piece of text a message body shows a reader: content; embeds' title, description, fields, footer and
    author; buttons' labels; selects' placeholders and options' labels and descriptions; attachments' file names
    and alt text (``description``), as Discord shows them. An option described by its own value is
    "option notation" (what it sends, typed the same in every language)."""
    found: list[tuple[str, str]] = [("content", body.get("content") or "")]
    for embed in body.get("embeds") or []:
        found += [("embed title", embed.get("title") or ""), ("embed", embed.get("description") or "")]
        for item in embed.get("fields") or []:
            found += [("embed field", item.get("name") or ""), ("embed field", item.get("value") or "")]
        found += [("embed footer", (embed.get("footer") or {}).get("text") or "")]
        found += [("embed author", (embed.get("author") or {}).get("name") or "")]
    for row in body.get("components") or []:
        for item in row.get("components") or []:
            found += [("button" if item.get("type") == 2 else "placeholder", item.get("label") or "")]
            found += [("placeholder", item.get("placeholder") or "")]
            for option in item.get("options") or []:
                described = option.get("description") or ""
                found += [("option", option.get("label") or "")]
                # a description that is the option's very value shows the notation the option sends
                notation = described == option.get("value")
                found += [("option notation" if notation else "option description", described)]
    for attachment in body.get("attachments") or []:
        found += [("file", attachment.get("filename") or ""), ("alt", attachment.get("description") or "")]
    found += [("file", name) for name in files]
    return [(where, text) for where, text in found if text]


@dataclass
class InteractionRecord:
    """One interaction pushed by a test and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    data: JSON
    pushed_at: float
    responded: asyncio.Event = field(default_factory=asyncio.Event)
    callback_types: list[int] = field(default_factory=list)
    #: ids of the messages this interaction created (the response message, then follow-ups)
    message_ids: list[int] = field(default_factory=list)
    original_id: int | None = None
    #: the message carrying the clicked component
    message_id: int | None = None
    choices: list[JSON] | None = None
    #: the shards whose gateway connections received it
    shards: list[int] = field(default_factory=list)
    #: when its first callback (the interaction response) arrived, whatever came of it
    first_callback_at: float | None = None

    @property
    def first_response_s(self) -> float | None:
        """Seconds from the push to the first callback (Discord wants one within 3 s), None while unanswered."""
        return None if self.first_callback_at is None else self.first_callback_at - self.pushed_at


@dataclass
class ContractViolation:
    """A request real Discord would have refused: what it answered instead (``errors``: the nested error body)."""

    method: str
    path: str
    status: int
    errors: JSON
    body: Any
    #: made inside ``expect_violations()``
    expected: bool = False


@dataclass
class RequestLog:
    method: str
    path: str
    at: float
    channel_id: int | None
    status: int


class FakeDiscord:
    """The server. ``await start()`` binds 127.0.0.1 on a free port; ``rest_base``/``gateway_url`` go to the client."""

    def __init__(self) -> None:
        self._ids = _Snowflakes()
        self.token = "fake-token.not-a-secret"
        self.app_id = self._ids.next()
        self.bot_user = FakeUser(self._ids.next(), "Princes Table", bot=True)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guild_id = self._ids.next()
        self.guild_name = "Test Guild"
        #: guild id -> name; the first is ``guild_id``, the one ``add_channel`` uses by default
        self.guilds: dict[int, str] = {self.guild_id: self.guild_name}
        #: what ``GET /gateway/bot`` recommends
        self.shard_count = 1
        #: [id, count] of every IDENTIFY, in order
        self.identified_shards: list[tuple[int, int]] = []
        self._socket_shard: dict[web.WebSocketResponse, tuple[int, int]] = {}
        self.channels: dict[int, JSON] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.deleted_channels: set[int] = set()
        self.forbidden_channels: set[int] = set()
        #: Discord's limit of active threads in a server (1,000); a test lowers it to reach it
        self.thread_limit = 1000
        self.messages: dict[int, FakeMessage] = {}
        #: nonce -> (message id, when): messages created with ``enforce_nonce`` (see ``_nonce_message``)
        self._nonces: dict[str, tuple[int, float]] = {}
        #: messages posted with an enforced nonce, and those that repeated a recent one (not created again)
        self.nonces_seen = 0
        self.nonce_repeats = 0
        #: (message id, content, allowed_mentions) of every message body the bot sent or edited
        self.mention_log: list[tuple[int, str, JSON | None]] = []
        #: every text the bot showed anybody, in order: ``Shown`` (a message as posted or edited, an autocomplete
        #: answer, a thread's name), so a test can read what each reader was shown at any time
        self.shown: list[Shown] = []
        self._by_channel: dict[int, list[FakeMessage]] = {}
        #: when the bot last made a request concerning each channel (the benchmark's latency end point)
        self.last_request_at: dict[int, float] = {}
        self.commands: dict[str, JSON] = {}
        self.command_syncs = 0
        self.requests: list[RequestLog] = []
        self.interactions: dict[str, InteractionRecord] = {}
        #: while set, interaction responses wait for this event before they are answered (a slow Discord)
        self.hold_callbacks: asyncio.Event | None = None
        #: interaction responses that arrived while held
        self.callbacks_held = 0
        self.identifies = 0
        #: check every request against Discord's contract (``discord_contract``); refuse what Discord would
        self.check_contract = True
        self.contract_violations: list[ContractViolation] = []
        self._expecting: list[list[ContractViolation]] = []
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = itertools.count(1)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.general = self.add_channel("general")

    # ---- set-up ---------------------------------------------------------------------------------------------
    @property
    def rest_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def add_user(self, name: str, *, manage_channels: bool = False, locale: str = "en-US") -> FakeUser:
        permissions = MEMBER_PERMISSIONS | (MANAGE_CHANNELS if manage_channels else 0)
        user = FakeUser(self._ids.next(), name, permissions=permissions, locale=locale)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, shard: tuple[int, int] | None = None) -> int:
        """Another guild with the bot in it; ``shard=(id, count)`` picks an id that lands on that shard."""
        guild_id = self._ids.next_on_shard(*shard) if shard else self._ids.next()
        self.guilds[guild_id] = name
        return guild_id

    def guild_of(self, channel_id: int) -> int | None:
        channel = self.channels.get(channel_id)
        return int(channel["guild_id"]) if channel else None

    def add_channel(self, name: str, guild_id: int | None = None) -> int:
        channel_id = self._ids.next()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(guild_id or self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        return channel_id

    async def create_channel(self, name: str, guild_id: int | None = None) -> int:
        """A channel created while the bot runs (the gateway tells it, as Discord does)."""
        channel_id = self.add_channel(name, guild_id)
        await self.dispatch("CHANNEL_CREATE", self.channels[channel_id])
        return channel_id

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        # a test ends with its bot gone: a connection still open (a killed bot's) is not waited for 60 s
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ---- what a test reads -----------------------------------------------------------------------------------
    def channel_messages(self, channel_id: int) -> list[FakeMessage]:
        """Messages everyone in the channel sees (ephemeral ones excluded), oldest first."""
        return [m for m in self._by_channel.get(channel_id, []) if not m.ephemeral and m.id in self.messages]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        channel_id = self.dm_channels.get(user.id)
        return (
            []
            if channel_id is None
            else [m for m in self._by_channel.get(channel_id, []) if m.id in self.messages]
        )

    def replies(self, record: InteractionRecord) -> list[FakeMessage]:
        return [self.messages[i] for i in record.message_ids if i in self.messages]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until ``predicate()`` is truthy (re-checked after every request the bot makes)."""
        async with self._changed:
            result = predicate()
            if result:
                return result
            await asyncio.wait_for(self._changed.wait_for(predicate), timeout)
            return predicate()

    # ---- what a test does ------------------------------------------------------------------------------------
    async def slash(
        self, user: FakeUser, command: str, channel_id: int | None = None, **options: Any
    ) -> InteractionRecord:
        """Run ``/command sub ...`` with named options; a member or user option may be given as a FakeUser."""
        data = self._command_data(command, options, focused=None)
        return await self._push(2, user, channel_id, data)

    async def autocomplete(
        self, user: FakeUser, command: str, focused: str, channel_id: int | None = None, **options: Any
    ) -> list[JSON]:
        data = self._command_data(command, options, focused=focused)
        record = await self._push(4, user, channel_id, data)
        await asyncio.wait_for(record.responded.wait(), 10)
        return record.choices or []

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str, values: Iterable[str] | None = None
    ) -> InteractionRecord:
        """Press a button (or pick ``values`` in a select) on a message the bot posted."""
        if custom_id not in message.custom_ids():
            raise LookupError(f"{custom_id!r} is not on message {message.id}")
        data: JSON = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
        if values is not None:
            data["values"] = list(values)
        return await self._push(3, user, message.channel_id, data, message=message)

    async def click_forged(
        self,
        user: FakeUser,
        custom_id: str,
        values: Iterable[str] | None = None,
        channel_id: int | None = None,
        content: str = "",
    ) -> InteractionRecord:
        """Press a component the bot did not make as it is (an older version's, or a forged one): a message of the
        bot's carrying it is stored first, since Discord only sends clicks on a message's components. The
        message goes to ``channel_id``, or to the user's DM when None."""
        if channel_id is None:
            channel_id = self.dm_channels.setdefault(user.id, self._ids.next())
        if values is None:
            component: JSON = {"type": 2, "style": 1, "label": "?", "custom_id": custom_id}
        else:
            options = [{"label": value[:100] or "-", "value": value} for value in dict.fromkeys(values)]
            component = {
                "type": 3,
                "custom_id": custom_id,
                "options": options or [{"label": "-", "value": "-"}],
            }
            if len(options) > 1:  # a select sends as many values as its max_values lets it
                component["max_values"] = len(options)
        body: JSON = {"content": content, "components": [{"type": 1, "components": [component]}]}
        # stored without REST, so checked here: Discord only sends clicks on components a message could carry
        refusal = discord_contract.check("POST", f"channels/{channel_id}/messages", body)
        if refusal is not None:
            raise ValueError(f"Discord would refuse a message carrying {component}: {refusal.errors}")
        message = self._store(channel_id, body, [])
        return await self.click(user, message, custom_id, values)

    async def delete_channel(self, channel_id: int) -> None:
        """Delete a guild channel: later requests to it answer 404 and the gateway says CHANNEL_DELETE (for a
        thread THREAD_DELETE, with only its id, guild, parent and type, as Discord sends it)."""
        channel = self.channels.pop(channel_id)
        self.deleted_channels.add(channel_id)
        if channel["type"] == 11:
            keys = ("id", "guild_id", "parent_id", "type")
            await self.dispatch("THREAD_DELETE", {key: channel[key] for key in keys})
            return
        await self.dispatch("CHANNEL_DELETE", channel)

    async def archive_thread(self, thread_id: int, locked: bool = False) -> None:
        """A thread archives (by itself after its auto-archive duration, or a moderator's; ``locked``: a moderator
        also locked it): the gateway says THREAD_UPDATE. A message posted to an archived thread unarchives it,
        unless it is locked: then Discord answers 400 with code 50083 (Thread is archived)."""
        thread = self.channels[thread_id]
        thread["thread_metadata"] = {**thread["thread_metadata"], "archived": True, "locked": locked}
        await self.dispatch("THREAD_UPDATE", thread)

    def revoke_access(self, channel_id: int) -> None:
        """The bot loses access to a channel (a moderator changed its permissions): requests answer 403."""
        self.forbidden_channels.add(channel_id)

    def close_dms(self, user: FakeUser) -> None:
        user.dms_open = False

    # ---- interactions ----------------------------------------------------------------------------------------
    def _command_data(self, command: str, options: dict[str, Any], focused: str | None) -> JSON:
        names = command.split()
        registered = self.commands.get(names[0])
        if registered is None:
            raise LookupError(f"/{names[0]} was not synced: {sorted(self.commands)}")
        resolved: JSON = {"users": {}, "members": {}}
        leaf: list[JSON] = []
        schema = registered
        for name, value in options.items():
            option: JSON = {"name": name, "value": value}
            if isinstance(value, FakeUser):
                option.update(type=6, value=str(value.id))
                resolved["users"][str(value.id)] = value.payload()
                resolved["members"][str(value.id)] = self._member(value, with_user=False)
            else:
                option["type"] = (
                    4
                    if isinstance(value, int) and not isinstance(value, bool)
                    else (10 if isinstance(value, float) else 5 if isinstance(value, bool) else 3)
                )
            if name == focused:
                option["focused"] = True
            leaf.append(option)
        if focused is not None and focused not in options:
            leaf.append({"name": focused, "type": 3, "value": "", "focused": True})
        nested: list[JSON] = leaf
        for sub in reversed(names[1:]):
            schema_types = {o["name"]: o["type"] for o in schema.get("options", [])}
            nested = [{"name": sub, "type": schema_types.get(sub, 1), "options": nested}]
        data: JSON = {
            "id": registered["id"],
            "name": names[0],
            "type": 1,
            "options": nested,
            "guild_id": str(self.guild_id),
        }
        if resolved["users"]:
            data["resolved"] = resolved
        return data

    def _member(self, user: FakeUser, with_user: bool = True) -> JSON:
        member: JSON = {
            "roles": [],
            "joined_at": TIMESTAMP,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(user.permissions),
            "nick": None,
            "avatar": None,
        }
        if with_user:
            member["user"] = user.payload()
        return member

    async def _push(
        self,
        kind: int,
        user: FakeUser,
        channel_id: int | None,
        data: JSON,
        message: FakeMessage | None = None,
    ) -> InteractionRecord:
        channel_id = channel_id or (message.channel_id if message else self.general)
        interaction_id = self._ids.next()
        token = f"itoken-{interaction_id}"
        record = InteractionRecord(
            interaction_id,
            token,
            kind,
            user,
            channel_id,
            data,
            time.perf_counter(),
            message_id=message.id if message else None,
        )
        self.interactions[token] = record
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.app_id),
            "type": kind,
            "token": token,
            "version": 1,
            "data": data,
            "locale": user.locale,
            "attachment_size_limit": 10 * 1024 * 1024,
            "authorizing_integration_owners": {},
            "entitlements": [],
            "channel_id": str(channel_id),
        }
        if channel_id in self.channels:
            if "guild_id" in data:
                data["guild_id"] = self.channels[channel_id]["guild_id"]
            payload.update(
                guild_id=self.channels[channel_id]["guild_id"],
                guild_locale="en-US",
                context=0,
                channel=self.channels[channel_id],
                member=self._member(user),
                app_permissions=str(MEMBER_PERMISSIONS | MANAGE_CHANNELS),
            )
        else:
            payload.update(
                user=user.payload(),
                context=1,
                channel={"id": str(channel_id), "type": 1, "recipients": [user.payload()]},
            )
        if message is not None:
            payload["message"] = self._message_payload(message)
        record.shards = await self.dispatch("INTERACTION_CREATE", payload)
        return record

    # ---- gateway ---------------------------------------------------------------------------------------------
    async def dispatch(self, event: str, data: JSON) -> list[int]:
        """Send an event to the connections of the shard it belongs to: its guild's, or shard 0 for DMs.
        Returns the shards it went to."""
        frame = json.dumps({"op": 0, "t": event, "s": next(self._seq), "d": data})
        guild = data.get("guild_id")
        sent_to = []
        for socket in list(self._sockets):
            shard_id, shard_count = self._socket_shard.get(socket, (0, 1))
            wanted = shard_of(int(guild), shard_count) if guild else 0
            if not socket.closed and shard_id == wanted:
                await socket.send_str(frame)
                sent_to.append(shard_id)
        return sent_to

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        try:
            async for frame in socket:
                if frame.type != aiohttp.WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                if message["op"] == 1:
                    await socket.send_str(json.dumps({"op": 11}))
                elif message["op"] == 2:
                    self.identifies += 1
                    shard_id, shard_count = message["d"].get("shard") or (0, 1)
                    self._socket_shard[socket] = (shard_id, shard_count)
                    self.identified_shards.append((shard_id, shard_count))
                    await self._ready(socket, shard_id, shard_count)
                    await self._notify()
        finally:
            self._sockets.remove(socket)
            self._socket_shard.pop(socket, None)
        return socket

    async def _ready(self, socket: web.WebSocketResponse, shard_id: int = 0, shard_count: int = 1) -> None:
        guilds = [guild for guild in self.guilds if shard_of(guild, shard_count) == shard_id]
        ready = {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [{"id": str(guild), "unavailable": True} for guild in guilds],
            "shard": [shard_id, shard_count],
            "session_id": "fake-session",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await socket.send_str(json.dumps({"op": 0, "t": "READY", "s": next(self._seq), "d": ready}))
        for guild_id in guilds:
            guild = self._guild_payload(guild_id)
            await socket.send_str(
                json.dumps({"op": 0, "t": "GUILD_CREATE", "s": next(self._seq), "d": guild})
            )

    def _guild_payload(self, guild_id: int) -> JSON:
        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id],
            "owner_id": str(self.bot_user.id),
            "unavailable": False,
            "member_count": 1,
            "large": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "position": 0,
                    "permissions": str(MEMBER_PERMISSIONS),
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [c for c in self.channels.values() if c["guild_id"] == str(guild_id)],
            "threads": [],
            "members": [self._member(self.bot_user)],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": TIMESTAMP,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "afk_timeout": 300,
            "system_channel_flags": 0,
        }

    # ---- REST ------------------------------------------------------------------------------------------------
    _ROUTES: list[tuple[str, re.Pattern[str], str]] = [
        ("GET", re.compile(r"users/@me"), "_get_me"),
        ("GET", re.compile(r"gateway/bot"), "_get_gateway_bot"),
        ("GET", re.compile(r"oauth2/applications/@me"), "_get_application"),
        ("PUT", re.compile(r"applications/\d+(?:/guilds/\d+)?/commands"), "_put_commands"),
        ("GET", re.compile(r"applications/\d+(?:/guilds/\d+)?/commands"), "_get_commands"),
        ("POST", re.compile(r"interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback"), "_callback"),
        ("POST", re.compile(r"webhooks/\d+/(?P<token>[^/]+)"), "_followup"),
        (
            "PATCH",
            re.compile(r"webhooks/\d+/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)"),
            "_edit_webhook",
        ),
        ("GET", re.compile(r"webhooks/\d+/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)"), "_get_webhook"),
        (
            "DELETE",
            re.compile(r"webhooks/\d+/(?P<token>[^/]+)/messages/(?P<mid>@original|\d+)"),
            "_delete_webhook",
        ),
        ("POST", re.compile(r"users/@me/channels"), "_open_dm"),
        ("GET", re.compile(r"users/(?P<uid>\d+)"), "_get_user"),
        ("POST", re.compile(r"channels/(?P<cid>\d+)/messages"), "_post_message"),
        ("PATCH", re.compile(r"channels/(?P<cid>\d+)/messages/(?P<mid>\d+)"), "_edit_message"),
        ("GET", re.compile(r"channels/(?P<cid>\d+)/messages/(?P<mid>\d+)"), "_get_message"),
        ("DELETE", re.compile(r"channels/(?P<cid>\d+)/messages/(?P<mid>\d+)"), "_delete_message"),
        ("GET", re.compile(r"channels/(?P<cid>\d+)"), "_get_channel"),
        ("POST", re.compile(r"channels/(?P<cid>\d+)/threads"), "_start_thread"),
        ("GET", re.compile(r"guilds/(?P<gid>\d+)/threads/active"), "_active_threads"),
        ("DELETE", re.compile(r"channels/(?P<cid>\d+)"), "_delete_channel"),
    ]

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.match_info["tail"]
        for method, pattern, handler in self._ROUTES:
            match = pattern.fullmatch(path)
            if match and method == request.method:
                body, files = await self._read_body(request)
                params = match.groupdict()
                channel_id = self._channel_of(params)
                if handler == "_callback":
                    self._note_first_callback(params)
                refused = self._refused(request.method, path, params, body)
                if refused is not None:
                    response = refused
                elif channel_id in self.deleted_channels:
                    response = self._error(404, 10003, "Unknown Channel")
                elif channel_id in self.forbidden_channels and "cid" in params:
                    response = self._error(403, 50001, "Missing Access")
                else:
                    if handler == "_callback" and self.hold_callbacks is not None:
                        self.callbacks_held += 1
                        await self._notify()
                        await self.hold_callbacks.wait()
                    response = await getattr(self, handler)(params, body, files)
                now = time.perf_counter()
                self.requests.append(RequestLog(request.method, path, now, channel_id, response.status))
                if channel_id is not None:
                    self.last_request_at[channel_id] = now
                await self._notify()
                return response
        self.requests.append(RequestLog(request.method, path, time.perf_counter(), None, 404))
        return self._error(404, 0, f"fake Discord has no route {request.method} {path}")

    def _note_first_callback(self, params: dict[str, str]) -> None:
        record = self.interactions.get(params["token"])
        if record is not None and record.first_callback_at is None:
            record.first_callback_at = time.perf_counter()

    def _refused(self, method: str, path: str, params: dict[str, str], body: Any) -> web.Response | None:
        """Discord's answer to a request outside its contract (logged in ``contract_violations``), else None."""
        if not self.check_contract:
            return None
        record = self.interactions.get(params["token"]) if "iid" in params else None
        refusal = discord_contract.check(method, path, body, interaction_type=record.type if record else None)
        if refusal is None:
            return None
        violation = ContractViolation(
            method, path, refusal.status, refusal.errors or refusal.body, body, expected=bool(self._expecting)
        )
        self.contract_violations.append(violation)
        for expected in self._expecting:
            expected.append(violation)
        return self._json(refusal.body, refusal.status)

    @contextlib.contextmanager
    def expect_violations(self) -> Iterator[list[ContractViolation]]:
        """Requests refused inside this block are expected (a test of the refusal itself); the ``fake`` fixture
        fails a test on any other. Yields the list of those refused inside, filled as they come."""
        refused: list[ContractViolation] = []
        self._expecting.append(refused)
        try:
            yield refused
        finally:
            self._expecting = [sink for sink in self._expecting if sink is not refused]

    def unexpected_violations(self) -> list[ContractViolation]:
        return [violation for violation in self.contract_violations if not violation.expected]

    def _channel_of(self, params: dict[str, str]) -> int | None:
        if "cid" in params:
            return int(params["cid"])
        record = self.interactions.get(params.get("token", ""))
        return record.channel_id if record else None

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[JSON, list[tuple[str, bytes]]]:
        if request.content_type.startswith("multipart/"):
            body: JSON = {}
            files: list[tuple[str, bytes]] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, aiohttp.BodyPartReader):
                    continue
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append((part.filename or part.name or "file", bytes(await part.read())))
            return body, files
        raw = await request.read()
        return (json.loads(raw) if raw else {}), []

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # exactly application/json: discord.py's login fails on aiohttp's default "; charset=utf-8"
        return web.Response(
            body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
        )

    def _error(self, status: int, code: int, message: str) -> web.Response:
        return self._json({"code": code, "message": message}, status)

    async def _get_me(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        return self._json(self.bot_user.payload())

    async def _get_gateway_bot(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        return self._json(
            {
                "url": self.gateway_url,
                "shards": self.shard_count,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _get_application(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        return self._json(
            {
                "id": str(self.app_id),
                "name": "Princes Table",
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": self.bot_user.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "summary": "",
                "team": None,
            }
        )

    async def _put_commands(
        self, params: dict[str, str], body: Any, files: list[tuple[str, bytes]]
    ) -> web.Response:
        self.command_syncs += 1
        self.commands = {}
        for command in body:
            command = dict(command, id=str(self._ids.next()), application_id=str(self.app_id), version="1")
            self.commands[command["name"]] = command
        return self._json(list(self.commands.values()))

    async def _get_commands(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        return self._json(list(self.commands.values()))

    async def _get_user(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        user = self.users.get(int(params["uid"]))
        return self._json(user.payload()) if user else self._error(404, 10013, "Unknown User")

    async def _start_thread(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        """A public thread without a starter message (POST /channels/{id}/threads); Discord's limit of active
        threads per server answers 400 with code 160006 once ``thread_limit`` threads are active."""
        parent = self.channels.get(int(params["cid"]))
        if parent is None:
            return self._error(404, 10003, "Unknown Channel")
        if parent["type"] != 0:
            return self._error(400, 50024, "Cannot execute action on this channel type")
        active = [
            c for c in self.channels.values() if c["type"] == 11 and c["guild_id"] == parent["guild_id"]
        ]
        if len(active) >= self.thread_limit:
            return self._error(400, 160006, "Maximum number of active threads reached")
        thread_id = self.add_channel(str(body.get("name") or "thread"), int(parent["guild_id"]))
        self.shown.append(Shown(thread_id, None, (("thread name", str(body.get("name") or "")),)))
        thread = self.channels[thread_id]
        thread.update(
            type=11,
            parent_id=str(parent["id"]),
            owner_id=str(self.bot_user.id),
            thread_metadata={
                "archived": False,
                "auto_archive_duration": int(body.get("auto_archive_duration") or 1440),
                "archive_timestamp": "2026-11-25T00:00:00+00:00",
                "locked": False,
            },
            message_count=0,
            member_count=1,
        )
        await self.dispatch("THREAD_CREATE", thread)
        return self._json(thread, 201)

    async def _active_threads(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        """The server's active threads (GET /guilds/{id}/threads/active, Discord's ``ThreadsResponse``): the
        threads that are not archived, and a thread member object for each one the bot is in (the fake's bot is
        in the threads it opened)."""
        guild_id = params["gid"]
        if int(guild_id) not in self.guilds:
            return self._error(404, 10004, "Unknown Guild")
        threads = [
            c
            for c in self.channels.values()
            if c["type"] == 11
            and c["guild_id"] == guild_id
            and not (c.get("thread_metadata") or {}).get("archived")
        ]
        members = [
            {"id": t["id"], "user_id": str(self.bot_user.id), "join_timestamp": TIMESTAMP, "flags": 0}
            for t in threads
            if t.get("owner_id") == str(self.bot_user.id)
        ]
        return self._json({"threads": threads, "members": members, "has_more": False})

    async def _delete_channel(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        channel = self.channels.get(int(params["cid"]))
        if channel is None:
            return self._error(404, 10003, "Unknown Channel")
        await self.delete_channel(int(channel["id"]))
        return self._json(channel)

    async def _get_channel(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        channel = self.channels.get(int(params["cid"]))
        return self._json(channel) if channel else self._error(404, 10003, "Unknown Channel")

    async def _open_dm(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        user = self.users[int(body["recipient_id"])]
        channel_id = self.dm_channels.setdefault(user.id, self._ids.next())
        return self._json(
            {"id": str(channel_id), "type": 1, "recipients": [user.payload()], "last_message_id": None}
        )

    def _dm_recipient(self, channel_id: int) -> FakeUser | None:
        for user_id, dm_id in self.dm_channels.items():
            if dm_id == channel_id:
                return self.users[user_id]
        return None

    async def _post_message(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        channel_id = int(params["cid"])
        recipient = self._dm_recipient(channel_id)
        if recipient is None and channel_id not in self.channels:
            return self._error(404, 10003, "Unknown Channel")
        if recipient is not None and not recipient.dms_open:
            return self._error(403, 50007, "Cannot send messages to this user")
        archived = (self.channels.get(channel_id) or {}).get("thread_metadata")
        if archived is not None and archived["archived"]:
            if archived["locked"]:
                return self._error(400, 50083, "Thread is archived")
            archived["archived"] = False  # a message unarchives a thread nobody locked
            await self.dispatch("THREAD_UPDATE", self.channels[channel_id])
        repeated = self._nonce_message(body)
        if repeated is not None:
            return self._json(self._message_payload(repeated))
        message = self._store(channel_id, body, files)
        if body.get("nonce") is not None and body.get("enforce_nonce"):
            self._nonces[str(body["nonce"])] = (message.id, time.monotonic())
        return self._json(self._message_payload(message))

    def _nonce_message(self, body: JSON) -> FakeMessage | None:
        """Discord's ``enforce_nonce``: a message created with a nonce that the same author (here always the
        bot) used within the past few minutes is not created again; the earlier message is returned."""
        if body.get("nonce") is None or not body.get("enforce_nonce"):
            return None
        self.nonces_seen += 1
        earlier = self._nonces.get(str(body["nonce"]))
        if earlier is None or time.monotonic() - earlier[1] > NONCE_WINDOW_S:
            return None
        self.nonce_repeats += 1
        return self.messages.get(earlier[0])

    async def _edit_message(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        message = self.messages.get(int(params["mid"]))
        if message is None or message.channel_id != int(params["cid"]):
            return self._error(404, 10008, "Unknown Message")
        self._apply_edit(message, body, files)
        return self._json(self._message_payload(message))

    async def _delete_message(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        """Discord's Delete Message: 204 No Content, or 404 10008 for a message not in that channel."""
        message = self.messages.get(int(params["mid"]))
        if message is None or message.channel_id != int(params["cid"]):
            return self._error(404, 10008, "Unknown Message")
        del self.messages[message.id]
        return web.Response(status=204)

    async def _get_message(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        message = self.messages.get(int(params["mid"]))
        return (
            self._json(self._message_payload(message))
            if message
            else self._error(404, 10008, "Unknown Message")
        )

    async def _callback(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        record = self.interactions.get(params["token"])
        if record is None or record.callback_types:
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        kind = body["type"]
        data = body.get("data") or {}
        record.callback_types.append(kind)
        message: FakeMessage | None = None
        if kind in (4, 5):  # a message, or "thinking" replaced by the first follow-up
            message = self._store(record.channel_id, data, files, record=record, loading=kind == 5)
            record.message_ids.append(message.id)
            record.original_id = message.id
        elif kind in (6, 7):  # (deferred) update of the message carrying the component
            message_id = record.message_id or 0
            record.original_id = message_id
            message = self.messages.get(message_id)
            if kind == 7 and message is not None:
                self._apply_edit(message, data, files)
        elif kind == 8:
            record.choices = data.get("choices", [])
            names = tuple(
                # a choice named by its very value shows what the player types (a level, a move)
                (
                    "autocomplete value" if choice["name"] == choice["value"] else "autocomplete",
                    str(choice["name"]),
                )
                for choice in record.choices or []
            )
            self.shown.append(Shown(record.channel_id, record.user.id, names))
        record.responded.set()
        answer: JSON = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool((data.get("flags") or 0) & EPHEMERAL),
            }
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = str(message.id)
            answer["resource"] = {"type": kind, "message": self._message_payload(message)}
        else:
            answer["resource"] = {"type": kind}
        return self._json(answer)

    async def _followup(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        record = self.interactions.get(params["token"])
        if record is None or not record.callback_types:
            return self._error(404, 10015, "Unknown Webhook")
        original = self.messages.get(record.original_id or 0)
        if original is not None and original.loading:  # the first follow-up replaces "thinking..."
            original.loading = False
            self._apply_edit(original, body, files)
            return self._json(self._message_payload(original))
        message = self._store(record.channel_id, body, files, record=record)
        record.message_ids.append(message.id)
        return self._json(self._message_payload(message))

    def _webhook_message(self, params: dict[str, str]) -> FakeMessage | None:
        record = self.interactions.get(params["token"])
        if record is None:
            return None
        message_id = record.original_id if params["mid"] == "@original" else int(params["mid"])
        return self.messages.get(message_id or 0)

    async def _edit_webhook(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        message = self._webhook_message(params)
        if message is None:
            return self._error(404, 10008, "Unknown Message")
        message.loading = False
        self._apply_edit(message, body, files)
        return self._json(self._message_payload(message))

    async def _get_webhook(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        message = self._webhook_message(params)
        return (
            self._json(self._message_payload(message))
            if message
            else self._error(404, 10008, "Unknown Message")
        )

    async def _delete_webhook(
        self, params: dict[str, str], body: JSON, files: list[tuple[str, bytes]]
    ) -> web.Response:
        message = self._webhook_message(params)
        if message is None:
            return self._error(404, 10008, "Unknown Message")
        del self.messages[message.id]
        return web.Response(status=204)

    # ---- messages --------------------------------------------------------------------------------------------
    def _store(
        self,
        channel_id: int,
        body: JSON,
        files: list[tuple[str, bytes]],
        record: InteractionRecord | None = None,
        loading: bool = False,
    ) -> FakeMessage:
        ephemeral = bool((body.get("flags") or 0) & EPHEMERAL)
        message = FakeMessage(
            self._ids.next(),
            channel_id,
            body.get("content") or "",
            body.get("components") or [],
            body.get("embeds") or [],
            list(files),
            ephemeral=ephemeral,
            visible_to=record.user.id if record and ephemeral else None,
            loading=loading,
        )
        self.messages[message.id] = message
        self._by_channel.setdefault(channel_id, []).append(message)
        self._record_mentions(message, body)
        self._record_shown(message, body, files)
        return message

    def _record_shown(self, message: FakeMessage, body: JSON, files: list[tuple[str, bytes]]) -> None:
        texts = readable_texts(body, (name for name, _ in files))
        if texts:
            self.shown.append(Shown(message.channel_id, message.visible_to, tuple(texts)))

    def _record_mentions(self, message: FakeMessage, body: JSON) -> None:
        """Every message body the bot sent or edited, with its allowed_mentions (absent: Discord's default,
        which pings whatever the content mentions)."""
        if "content" in body:
            self.mention_log.append((message.id, body.get("content") or "", body.get("allowed_mentions")))

    def _apply_edit(self, message: FakeMessage, body: JSON, files: list[tuple[str, bytes]]) -> None:
        self._record_mentions(message, body)
        self._record_shown(message, body, files)
        message.edits += 1
        if "content" in body:
            message.content = body["content"] or ""
        if "components" in body:
            message.components = body["components"] or []
        if "embeds" in body:
            message.embeds = body["embeds"] or []
        if files or "attachments" in body:
            kept = {str(a.get("id")) for a in body.get("attachments") or [] if "filename" not in a}
            message.files = [f for i, f in enumerate(message.files) if str(i) in kept] + list(files)

    def _message_payload(self, message: FakeMessage) -> JSON:
        attachments = [
            {
                "id": str(index),
                "filename": name,
                "size": len(data),
                "url": f"http://127.0.0.1:{self.port}/cdn/{message.id}/{name}",
                "proxy_url": f"http://127.0.0.1:{self.port}/cdn/{message.id}/{name}",
                "content_type": "image/png" if name.endswith(".png") else "application/octet-stream",
            }
            for index, (name, data) in enumerate(message.files)
        ]
        payload: JSON = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "type": 0,
            "author": self.bot_user.payload(),
            "content": message.content,
            "tts": False,
            "embeds": message.embeds,
            "components": message.components,
            "attachments": attachments,
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "flags": EPHEMERAL if message.ephemeral else 0,
        }
        if message.channel_id in self.channels:
            payload["guild_id"] = self.channels[message.channel_id]["guild_id"]
        return payload
