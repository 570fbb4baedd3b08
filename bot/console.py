"""The console front-end: several named local players in one terminal, with the slash commands' words.

Each line is a command, optionally prefixed by the player who types it: ``bob: /move 3>7``. Without a
prefix the current player speaks (``/as NAME`` changes who; ``alice`` at first, ``--name`` to choose). If the
speaker has nothing to decide and exactly one local player does, ``/move`` acts for that player, and ``/undo``
takes back the last move of whichever local player made it, so a hot-seat game needs no prefixes at all.
Images are saved to a folder and their paths printed. Reading stdin line by line lets tests script a whole game.

A terminal is not Discord: timestamps (``<t:...:R>``) print as local times, bold marks are dropped, and an
edited message (a multi-step turn's status, a round's status) prints only the lines its edit added.
"""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from render import encode_png, render_png
from render.digest import digest_boards

from .host import Actor, CatchUp, Delivery, Host, HostError
from .models import CLOSE_KIND
from .replay import animate, board_at, load_log
from .stats import game_report, leaderboard, leaderboard_text, player_records, records_text

CHANNEL = "console"
GUILD = "console"
#: who types a line without a prefix until ``/as`` says otherwise (a name, so sentences read "alice decides")
DEFAULT_PLAYER = "alice"
#: how the console's players appear to the host
USER_PREFIX = "console:"
#: Discord's timestamp markup, ``<t:SECONDS>`` or ``<t:SECONDS:STYLE>``
TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::([tTdDfFR]))?>")

HELP = """\
Commands (the same words as on Discord):
  /game new GAME [option=value ...] [deadline=HOURS]   open a game here (games: /rules)
  /game join | leave | ai [LEVEL] | start [random|given] | status | resign | abandon | draw | pause | resume | back
  /game export        the game's JSON with its events, written to a file (secrets only once it is over)
  /game verify        check the finished game: sealed commits, every die from the seed, the result
  /game replay [STEP] the finished game's animated replay (or its board at STEP), written to a file
  /stats [NAME] [GAME] a player's games, wins, rating      /leaderboard GAME  the game's best ratings
  /move NOTATION      make a move (try /moves to list yours)      /moves [TEXT]  your legal moves
  /board              the public board image                       /hand          your private view
  /log [N]            the last N log lines                         /undo          take back your last move
  /catchup            what happened since your last move, with the boards then and now
  /rules [GAME [PART]] rules notes (PART: a section, or all)       /as NAME       type as another player
  /orders [TOPIC CHOICE [NAMES, ...]]  your standing orders (answers given in advance), or set one
  /away until DATE | off | status | allowance DAYS   away (a day or more): the AI plays your later decisions
  /settings [name=value ...]   your notification settings (no value: show them)
  /ahead [ANSWER[, SECOND, THIRD]]   a decision of yours still to come (your own next turn, step by step; a
                      later turn of a queue; what your sealed plan implies): list it, or answer it now
  NAME: COMMAND       one command as NAME                          /quit          leave the console"""


def _relative(seconds: float) -> str:
    """A duration as a person says it: "in 3 h", "20 min ago", "now"."""
    span = abs(seconds)
    if span < 60:
        return "just now"
    if span < 3600:
        amount = f"{round(span / 60)} min"
    elif span < 48 * 3600:
        amount = f"{round(span / 3600)} h"
    else:
        amount = f"{round(span / 86400)} days"
    return f"in {amount}" if seconds > 0 else f"{amount} ago"


def for_terminal(text: str, now: float) -> str:
    """Discord markup a terminal cannot show, in plain words: timestamps as local times (relative ones with
    the distance from ``now``), bold marks dropped."""

    def local(match: re.Match[str]) -> str:
        moment = int(match[1])
        clock = time.strftime("%a %d %b %H:%M", time.localtime(moment))
        return f"{clock} ({_relative(moment - now)})" if match[2] == "R" else clock

    return TIMESTAMP.sub(local, text).replace("**", "")


class Console:
    def __init__(
        self,
        host: Host,
        image_dir: str | Path,
        write: Callable[[str], None] = print,
        player: str = DEFAULT_PLAYER,
    ) -> None:
        self.host = host
        self.image_dir = Path(image_dir)
        self._write = write
        self.speaker = player
        self.images = 0
        #: (game id, edit key) -> the lines of that message as last shown
        self.edited: dict[tuple[int, str], list[str]] = {}

    def write(self, text: str) -> None:
        self._write(for_terminal(text, self.host.clock()))

    def actor(self, name: str | None = None) -> Actor:
        name = name or self.speaker
        return Actor(user_id=f"{USER_PREFIX}{name}", name=name, can_manage=True, can_manage_server=True)

    async def run_lines(self, lines: list[str]) -> None:
        for line in lines:
            if not await self.handle(line):
                break

    async def run_stdin(self) -> None:
        self.write(
            f"Princes' Table console. You type as {self.speaker} (/as NAME or NAME: COMMAND for another "
            "player); /help lists the commands; /game new GAME starts a game (/rules lists the games)."
        )
        interactive = sys.stdin.isatty()
        while True:
            if interactive:
                sys.stdout.write(f"{self.speaker}> ")
                sys.stdout.flush()
            line = await asyncio.to_thread(sys.stdin.readline)
            if not line:
                break
            if not await self.handle(line):
                break

    async def handle(self, line: str) -> bool:
        """Run one command line; returns False on /quit. Errors print a sentence, never a traceback."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        speaker = None
        head, sep, rest = line.partition(":")
        if sep and not head.startswith("/") and " " not in head.strip():
            speaker, line = head.strip(), rest.strip()
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        if not words:
            return True
        if words[0] == "/quit":
            return False
        try:
            await self._dispatch(words, self.actor(speaker))
        except HostError as error:
            self.write(f"! {error}")
        return True

    async def _dispatch(self, words: list[str], actor: Actor) -> None:
        command, args = words[0].lower(), words[1:]
        handler = self._COMMANDS.get(command)
        if handler is None or (command in ("/as", "/leaderboard") and not args):
            raise HostError(f"Unknown command {command}. /help lists the commands.")
        await handler(self, args, actor)

    async def _board(self, args: list[str], _actor: Actor) -> None:
        snapshot = await self.host.board(CHANNEL, args[0] if args else None)
        self.write(snapshot.text)
        self.write(f"[image] {self._save(snapshot.game_key, snapshot.view, 'board')}")

    async def _hand(self, _args: list[str], actor: Actor) -> None:
        snapshot = await self.host.hand(CHANNEL, actor)
        self.write(f"(private to {actor.name}) {snapshot.text}")
        self.write(f"[image] {self._save(snapshot.game_key, snapshot.view, actor.name)}")

    async def _log(self, args: list[str], _actor: Actor) -> None:
        self.write(await self.host.log(CHANNEL, int(args[0]) if args and args[0].isdigit() else 20))

    async def _rules(self, args: list[str], _actor: Actor) -> None:
        self.write(self.host.rules_text(args[0] if args else None, args[1] if len(args) > 1 else None))

    async def _stats(self, args: list[str], actor: Actor) -> None:
        name = args[0] if args else actor.name
        records = await player_records(self.host.store, f"console:{name}", args[1] if len(args) > 1 else None)
        self.write(records_text(name, records).replace("**", ""))
        report = await game_report(self.host.store, args[1]) if len(args) > 1 else None
        if report is not None:
            self.write(report)

    async def _leaderboard(self, args: list[str], _actor: Actor) -> None:
        standings = await leaderboard(self.host.store, args[0])
        self.write(leaderboard_text(args[0], standings, "all servers").replace("**", ""))

    async def _as(self, args: list[str], _actor: Actor) -> None:
        self.speaker = args[0]
        self.write(f"Now typing as {self.speaker}.")

    async def _help(self, _args: list[str], _actor: Actor) -> None:
        self.write(HELP)

    _COMMANDS: dict[str, Callable[[Console, list[str], Actor], Awaitable[None]]] = {
        "/game": lambda self, args, actor: self._game(args, actor),
        "/move": lambda self, args, actor: self._move(" ".join(args), actor),
        "/moves": lambda self, args, actor: self._moves(" ".join(args), actor),
        "/board": _board,
        "/hand": _hand,
        "/catchup": lambda self, _args, actor: self._catchup_of(actor),
        "/log": _log,
        "/undo": lambda self, _args, actor: self._undo(actor),
        "/rules": _rules,
        "/stats": _stats,
        "/leaderboard": _leaderboard,
        "/orders": lambda self, args, actor: self._orders(args, actor),
        "/away": lambda self, args, actor: self._away(args, actor),
        "/ahead": lambda self, args, actor: self._ahead(args, actor),
        "/settings": lambda self, args, actor: self._settings(args, actor),
        "/as": _as,
        "/help": _help,
    }

    async def _ahead(self, args: list[str], actor: Actor) -> None:
        answers = " ".join(args)
        text = await (
            self.host.answer_ahead(CHANNEL, actor, answers)
            if answers
            else self.host.ahead_text(CHANNEL, actor)
        )
        self.write(f"(private to {actor.name}) {text}")

    async def _catchup_of(self, actor: Actor) -> None:
        await self._catchup(await self.host.catchup(CHANNEL, actor), actor.name)

    async def _orders(self, args: list[str], actor: Actor) -> None:
        """``/orders`` lists the speaker's standing orders; ``/orders TOPIC CHOICE [NAMES, ...]`` sets one."""
        if not args:
            text = await self.host.orders_text(CHANNEL, actor)
        elif len(args) == 1:
            raise HostError(
                "Give a topic and a choice, e.g. /orders consent deny (/orders lists the topics)."
            )
        else:
            text = await self.host.set_order(CHANNEL, actor, args[0], args[1], " ".join(args[2:]))
        self.write(f"(private to {actor.name}) {text}")

    async def _away(self, args: list[str], actor: Actor) -> None:
        """``/away until DATE``, ``/away off``, ``/away status``, ``/away allowance DAYS`` (as on Discord)."""
        sub, rest = (args[0].lower(), args[1:]) if args else ("status", [])
        if sub == "until" and rest:
            await self._show(await self.host.go_away(actor, " ".join(rest), GUILD))
        elif sub == "off":
            await self._show(await self.host.come_back(actor))
        elif sub == "allowance" and rest:
            try:
                days = float(rest[0])
            except ValueError:
                raise HostError("Write the allowance as a number of days, e.g. /away allowance 21.") from None
            self.write(await self.host.set_away_allowance(GUILD, actor, days))
            return
        elif sub != "status":
            raise HostError("Use /away until DATE, /away off, /away status or /away allowance DAYS.")
        self.write(await self.host.away_text(actor.user_id))

    async def _settings(self, args: list[str], actor: Actor) -> None:
        """``/settings [name=value ...]``: change the named settings, then show them all."""
        for word in args:
            key, _, value = word.partition("=")
            await self.host.set_setting(actor.user_id, key, value)
        self.write(await self.host.settings_text(actor.user_id))

    async def _game(self, args: list[str], actor: Actor) -> None:
        """``/game SUB ...``: one small method per sub-command (the table below)."""
        if not args:
            raise HostError("Say what to do: /game new GAME, join, start, status, ... (/help).")
        sub, rest = args[0].lower(), args[1:]
        handler = self._GAME_COMMANDS.get(sub)
        if handler is None:
            raise HostError(f"Unknown /game command {sub!r}. /help lists them.")
        await handler(self, sub, rest, actor)

    async def _game_new(self, _sub: str, rest: list[str], actor: Actor) -> None:
        if not rest:
            raise HostError("Name a game: " + self.host.rules_text(None))
        options = dict(word.split("=", 1) for word in rest[1:] if "=" in word)
        deadline = float(options.pop("deadline", "24"))
        info = await self.host.create_game(GUILD, CHANNEL, actor, rest[0], options, deadline)
        self.write(info.lobby_text())

    async def _game_lobby(self, sub: str, rest: list[str], actor: Actor) -> None:
        if sub == "ai":
            info = await self.host.add_ai(CHANNEL, actor, rest[0] if rest else None)
        else:
            info = await getattr(self.host, sub)(CHANNEL, actor)
        self.write(info.lobby_text())

    async def _game_start(self, _sub: str, rest: list[str], actor: Actor) -> None:
        await self._show(await self.host.start(CHANNEL, actor, rest[0] if rest else "random"))

    async def _game_status(self, _sub: str, _rest: list[str], _actor: Actor) -> None:
        self.write(await self.host.status(CHANNEL))

    async def _game_table(self, sub: str, _rest: list[str], actor: Actor) -> None:
        if sub == "resume":
            await self._show(await self.host.resume(CHANNEL, actor, guild_id=GUILD))
        elif sub == "draw":
            await self._show(await self.host.offer_draw(CHANNEL, actor))
        else:  # resign, abandon, pause, back
            await self._show(await getattr(self.host, sub)(CHANNEL, actor))

    async def _game_export(self, _sub: str, _rest: list[str], _actor: Actor) -> None:
        self.write(f"[export] {await self._export()}")

    async def _game_verify(self, _sub: str, _rest: list[str], _actor: Actor) -> None:
        self.write((await self.host.verify(CHANNEL)).sentence())

    async def _game_replay(self, _sub: str, rest: list[str], _actor: Actor) -> None:
        await self._replay(int(rest[0]) if rest and rest[0].isdigit() else None)

    _GAME_COMMANDS: dict[str, Callable[[Console, str, list[str], Actor], Awaitable[None]]] = {
        "new": _game_new,
        "join": _game_lobby,
        "leave": _game_lobby,
        "ai": _game_lobby,
        "start": _game_start,
        "status": _game_status,
        "resume": _game_table,
        "resign": _game_table,
        "abandon": _game_table,
        "pause": _game_table,
        "back": _game_table,
        "draw": _game_table,
        "export": _game_export,
        "verify": _game_verify,
        "replay": _game_replay,
    }

    async def _current_game(self) -> int:
        info = await self.host.game_in_channel(CHANNEL)
        if info is None:
            raise HostError(await self.host.no_game_text(CHANNEL))
        return info.game_id

    async def _undo(self, actor: Actor) -> None:
        """Take back the last move; in a hot seat, for the local player who made it."""
        mover = await self.host.last_mover(CHANNEL)
        if mover and mover.startswith(USER_PREFIX) and mover != actor.user_id:
            actor = self.actor(mover.removeprefix(USER_PREFIX))
        await self._show(await self.host.undo(CHANNEL, actor))

    async def _move(self, text: str, actor: Actor) -> None:
        game_id = await self._current_game()
        info = await self.host.game_info(game_id)
        local_pending = [s for s in info.seats if s.user_id in info.pending_users]
        if not info.waiting_on_user(actor.user_id) and len(local_pending) == 1:
            actor = self.actor(local_pending[0].name)
        await self._show(await self.host.act(game_id, actor, text))

    async def _moves(self, typed: str, actor: Actor) -> None:
        game_id = await self._current_game()
        info = await self.host.game_info(game_id)
        local_pending = [user for user in info.pending_users if user.startswith(USER_PREFIX)]
        if not info.waiting_on_user(actor.user_id) and len(local_pending) == 1:
            actor = self.actor(local_pending[0].removeprefix(USER_PREFIX))
        choices = await self.host.suggestions(game_id, actor.user_id, typed, limit=200)
        if choices:
            self.write(f"{actor.name}'s moves: " + ", ".join(c.action for c in choices))
        else:
            self.write(f"{actor.name} has no move to make now. /game status says whom the game waits for.")

    async def _show(self, deliveries: list[Delivery]) -> None:
        for delivery in deliveries:
            if delivery.kind == CLOSE_KIND:
                continue  # a DM prompt's buttons to take off: the console has none
            who = (delivery.user_id or "").removeprefix(USER_PREFIX)
            prefix = "" if delivery.kind == "public" else f"(private to {who}) "
            if delivery.catchup and delivery.seat is not None:  # the turn's DM opens on the digest
                caught = await self.host.turn_digest(delivery.game_id, delivery.seat)
                if caught is not None:
                    await self._catchup(caught, who)
            text = self._edited_text(delivery)
            if text:
                self.write(prefix + text)
            if delivery.view is not None:
                tag = "board" if delivery.kind == "public" else who
                self.write(f"[image] {self._save(delivery.game_key, delivery.view, tag)}")
            if delivery.replay:  # the finished game's animated replay, as Discord attaches it to the result
                self.write(f"[replay] {await self._write_replay(delivery.game_id)}")
            for attachment in delivery.attachments:  # written next to the images, as Discord attaches it
                self.image_dir.mkdir(parents=True, exist_ok=True)
                path = self.image_dir / Path(attachment.name).name
                path.write_text(attachment.text)
                self.write(f"[file] {path}")
            await self.host.mark_sent(delivery.id)

    def _edited_text(self, delivery: Delivery) -> str:
        """The delivery's text; for an edit of a message shown before, only the lines after those it still
        shares with it (a terminal cannot change what it printed)."""
        if not delivery.edit_key:
            return delivery.text
        lines = delivery.text.split("\n")
        key = (delivery.game_id, delivery.edit_key)
        before = self.edited.get(key, [])
        self.edited[key] = lines
        same = 0
        while same < min(len(lines), len(before)) and lines[same] == before[same]:
            same += 1
        return "\n".join(lines[same:])

    async def _replay(self, step: int | None) -> None:
        game_id = await self.host.last_over_in_channel(CHANNEL)
        if game_id is None:
            raise HostError("No game here is over yet: its replay opens once it is.")
        if step is None:
            self.write(f"[replay] {await self._write_replay(game_id)}")
            return
        game_log = await load_log(self.host.store, game_id)
        shown, png, _ = await asyncio.to_thread(board_at, game_log, step)
        self.image_dir.mkdir(parents=True, exist_ok=True)
        path = self.image_dir / f"{game_log.kind}-{game_log.game_id}-step-{shown.index}.png"
        path.write_bytes(png)
        self.write(f"{game_log.title} · {shown.title}\n{shown.line}\n[image] {path}")

    async def _write_replay(self, game_id: int) -> Path:
        game_log = await load_log(self.host.store, game_id)
        animation = await asyncio.to_thread(animate, game_log)
        self.image_dir.mkdir(parents=True, exist_ok=True)
        path = self.image_dir / f"replay-{game_log.kind}-{game_id}.gif"
        path.write_bytes(animation.data)
        return Path(f"{path} ({animation.describe()})")

    async def _export(self) -> Path:
        """Write the game's export next to the images, as the Discord command attaches it."""
        data = await self.host.export(CHANNEL)
        self.image_dir.mkdir(parents=True, exist_ok=True)
        path = self.image_dir / f"{data['game']['kind']}-{data['game']['id']}.json"
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False))
        return path

    async def _catchup(self, caught: CatchUp, who: str) -> None:
        self.write(f"(private to {who}) " + caught.text.replace("**", ""))
        if caught.before is None or caught.after is None:
            return
        for board in await asyncio.to_thread(digest_boards, caught.game_key, caught.before, caught.after):
            self.image_dir.mkdir(parents=True, exist_ok=True)
            self.images += 1
            path = self.image_dir / f"{caught.game_key}-{self.images:04d}-catchup-{who.replace(':', '_')}.png"
            path.write_bytes(encode_png(board.image))
            self.write(f"[image] {path} ({board.caption})")

    def _save(self, game_key: str, view: dict, tag: str) -> Path:
        self.image_dir.mkdir(parents=True, exist_ok=True)
        self.images += 1
        path = self.image_dir / f"{game_key}-{self.images:04d}-{tag.replace(':', '_')}.png"
        path.write_bytes(render_png(game_key, view))
        return path


async def run_console(
    database: str,
    image_dir: str,
    lines: list[str] | None = None,
    write: Callable[[str], None] = print,
    player: str = DEFAULT_PLAYER,
) -> None:
    host = await Host.open(database)
    try:
        console = Console(host, image_dir, write, player)
        await console._show(await host.pending_deliveries())  # anything a crash left unsent
        if lines is None:
            await console.run_stdin()
        else:
            await console.run_lines(lines)
    finally:
        await host.close()
