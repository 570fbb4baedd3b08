"""``python -m bot`` runs the Discord bot; subcommands: console, selfplay, perft, render, import, verify, export,
stats, rebuild-ratings, replay."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.engine import RulesError, get_game
from rules.engine.playout import perft, play, start

from .config import ConfigError, check_shards, load_config, parse_shard_ids
from .host import HostError

NO_TOKEN = """\
No DISCORD_TOKEN is set, so the bot cannot connect to Discord.
To get one: open https://discord.com/developers/applications, create an application, open "Bot",
press "Reset Token" and copy it into a file named .env here:  DISCORD_TOKEN=your-token
(.env.example lists every setting; the README's "Running on Discord" section has the invite link steps.)"""
#: the largest export file ``import`` and ``verify`` read (the longest game's, four players, is well under 1 MiB)
MAX_EXPORT_BYTES = 16 * 1024 * 1024


class UnreadableExport(Exception):
    """The file cannot be read as an export; ``str(error)`` is the one line to print."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Princes' Table: board games on Discord."
    )
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("run", help="run the Discord bot (the default)")
    run.add_argument(
        "--shard-count",
        type=int,
        default=None,
        help="gateway shards of all processes together (overrides SHARD_COUNT)",
    )
    run.add_argument(
        "--shard-ids",
        default=None,
        metavar="0,1",
        help="the shards this process runs (overrides SHARD_IDS; needs a shard count)",
    )
    console = commands.add_parser("console", help="play in this terminal with several local players")
    console.add_argument("--database", default="data/console.sqlite3", help="SQLite file for console games")
    console.add_argument("--images", default=None, help="folder for board images (default: IMAGE_DIR or out)")
    console.add_argument("--name", default="alice", help="the name you type as (default alice)")

    selfplay = commands.add_parser("selfplay", help="AI or random agents play games through the host")
    selfplay.add_argument("game", help="game key (/rules lists them)")
    selfplay.add_argument("--games", type=int, default=100)
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--players", type=int, default=None)
    selfplay.add_argument(
        "--seats", default=None, help="agent per seat, comma separated (random or an AI level)"
    )
    selfplay.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    selfplay.add_argument("--json", action="store_true", help="end with one JSON line of statistics")
    selfplay.add_argument(
        "--database",
        default=None,
        help="keep the games (and their results and ratings) in this database instead of a temporary one",
    )
    selfplay.add_argument(
        "--round-robin",
        action="store_true",
        help="play --games games of every pair of the game's AI levels and random (instead of --seats)",
    )

    perft_cmd = commands.add_parser("perft", help="count leaves of the legal-action tree from the start")
    perft_cmd.add_argument("game")
    perft_cmd.add_argument("--depth", type=int, default=2)

    render = commands.add_parser("render", help="write the image of a position after N random moves")
    render.add_argument("game")
    render.add_argument("--players", type=int, default=None)
    render.add_argument("--seed", type=int, default=1)
    render.add_argument("--moves", type=int, default=0)
    render.add_argument("--seat", type=int, default=None, help="1-based seat whose private view to draw")
    render.add_argument("--region", default=None, help="a zoomed region, where the game has regions")
    render.add_argument("--locale", default=None, help="the language of the image's words (pl, qps...)")
    render.add_argument("--out", required=True)

    imported = commands.add_parser(
        "import", help="store a finished game's /game export in the database, once it verifies"
    )
    imported.add_argument("file", help="the .json file /game export attached")
    imported.add_argument(
        "--database", default=None, help="database (default: DATABASE_URL or DATABASE_PATH)"
    )

    verify = commands.add_parser(
        "verify", help="check a finished game's /game export: sealed commits, chance against the seed, result"
    )
    verify.add_argument("file", help="the .json file /game export attached")

    exported = commands.add_parser("export", help="write the /game export file of every game that is over")
    exported.add_argument(
        "--database", default=None, help="database (default: DATABASE_URL or DATABASE_PATH)"
    )
    exported.add_argument("--out", required=True, help="folder for the files (made if missing)")

    stats = commands.add_parser(
        "stats",
        help="ratings of every game (or one), a player's record, a game's own report (win rates by side, say)",
    )
    stats.add_argument(
        "game", nargs="?", default=None, help="one game key (adds the game's own report, if it has one)"
    )
    stats.add_argument("--player", default=None, help="a player's record: their user id, or ai:<level>")
    stats.add_argument("--database", default=None, help="database (default: DATABASE_URL or DATABASE_PATH)")

    rerate = commands.add_parser(
        "rebuild-ratings", help="recompute every rating from the stored results (and record missing results)"
    )
    rerate.add_argument("--database", default=None, help="database (default: DATABASE_URL or DATABASE_PATH)")

    replay = commands.add_parser("replay", help="an animated GIF of a finished game's board from its export")
    replay.add_argument("file", help="the .json file /game export attached")
    replay.add_argument("--out", required=True, help="the image to write (.gif)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stdout
    )
    try:
        return _COMMANDS.get(args.command or "run", lambda _args: 2)(args)
    except (UnreadableExport, HostError, RulesError, ConfigError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


#: each subcommand and what runs it (``argparse`` gives the parsed arguments)
_COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": lambda a: _run_bot(getattr(a, "shard_count", None), getattr(a, "shard_ids", None)),
    "console": lambda a: _console(a.database, a.images, a.name),
    "selfplay": lambda a: _selfplay(a),
    "perft": lambda a: _perft(a.game, a.depth),
    "render": lambda a: _render(a),
    "import": lambda a: _import(a.file, a.database),
    "verify": lambda a: _verify(a.file),
    "export": lambda a: _export_all(a.database, a.out),
    "stats": lambda a: _stats(a.database, a.game, a.player),
    "rebuild-ratings": lambda a: _rebuild_ratings(a.database),
    "replay": lambda a: _replay(a.file, a.out),
}


def _run_bot(shard_count: int | None = None, shard_ids: str | None = None) -> int:
    config = load_config()
    if shard_count is not None or shard_ids is not None:  # the command line wins over the environment
        config = dataclasses.replace(
            config,
            shard_count=shard_count if shard_count is not None else config.shard_count,
            shard_ids=parse_shard_ids(shard_ids) if shard_ids is not None else config.shard_ids,
        )
        check_shards(config.shard_count, config.shard_ids)
    if not config.discord_token:
        print(NO_TOKEN)
        if sys.stdin.isatty():
            print("\nStarting the console instead, so you can play right away.\n")
            return _console("data/console.sqlite3", None)
        return 2
    from .discord.app import run_bot  # discord.py is imported only when the bot really runs

    try:
        asyncio.run(run_bot(config))
    except KeyboardInterrupt:  # Ctrl-C pressed twice: the first one's close was cut short
        print("stopped")
        return 130
    return 0


def _console(database: str, images: str | None, name: str = "alice") -> int:
    from .console import run_console

    asyncio.run(run_console(database, images or load_config().image_dir, player=name))
    return 0


def _selfplay(args: argparse.Namespace) -> int:
    from .selfplay import format_report, run_selfplay

    options = dict(item.split("=", 1) for item in args.option if "=" in item)
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    report = asyncio.run(
        run_selfplay(
            args.game,
            args.games,
            args.seed,
            args.players,
            seats,
            options,
            database=args.database,
            round_robin=args.round_robin,
        )
    )
    for message in report.error_messages[:20]:
        print(message, file=sys.stderr)
    print(format_report(report, args.json))
    return 1 if report.errors else 0


def _perft(key: str, depth: int) -> int:
    game = get_game(key)
    if game.has_chance:
        print(
            f"error: {game.title} uses dice or shuffles during play; perft needs a game without chance",
            file=sys.stderr,
        )
        return 2
    state = start(game, game.min_players, {}, seed=0).state
    for level in range(1, depth + 1):
        print(level, perft(game, state, level), flush=True)
    return 0


def _render(args: argparse.Namespace) -> int:
    from render import encode_png, render_view

    game = get_game(args.game, include_unplayable=True)
    players = args.players or game.min_players
    if not game.playable and args.moves:
        print(f"error: {game.title} cannot be played yet, so only --moves 0 can be drawn", file=sys.stderr)
        return 2
    playout = (
        play(game, players, args.seed, stop_after=args.moves)
        if game.playable
        else start(game, players, {}, args.seed)
    )
    seat = None if args.seat is None else args.seat - 1
    view = game.view(playout.state, seat)
    if args.locale:
        view["locale"] = args.locale
    image = render_view(game.key, view, args.region)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_bytes(encode_png(image))
    print(f"wrote {args.out} ({image.width}x{image.height})")
    return 0


def read_export(file: str) -> Any:
    """The JSON data of an export file, at most ``MAX_EXPORT_BYTES``; ``UnreadableExport`` in one line else."""
    try:
        with open(file, "rb") as handle:
            raw = handle.read(MAX_EXPORT_BYTES + 1)
    except OSError as error:
        raise UnreadableExport(f"cannot read {file}: {error.strerror or error}") from None
    if len(raw) > MAX_EXPORT_BYTES:
        raise UnreadableExport(
            f"{file} is larger than {MAX_EXPORT_BYTES // (1024 * 1024)} MiB, the most an export file may be"
        )
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise UnreadableExport(f"{file} is not UTF-8 text, so it is not a /game export") from None
    except ValueError as error:
        raise UnreadableExport(f"{file} is not JSON ({error})") from None
    except RecursionError:
        raise UnreadableExport(f"{file} nests its JSON too deeply to be a /game export") from None


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number an export holds")


def _import(file: str, database: str | None) -> int:
    from .host import Host

    data = read_export(file)

    async def store() -> tuple[int, str]:
        host = await Host.open(database or load_config().database)
        try:
            game_id = await host.import_game(data)
            return game_id, (await host.game_info(game_id)).title
        finally:
            await host.close()

    try:
        game_id, title = asyncio.run(store())
    except HostError as error:
        print(f"error: {file} is not imported: {error}", file=sys.stderr)
        return 2
    print(f"imported {title} as game #{game_id} ({len(data['events'])} events)")
    return 0


def _verify(file: str) -> int:
    """``verified`` (and what was checked) with exit code 0, else the first problem with exit code 1."""
    from .verify import verify_export

    verdict = verify_export(read_export(file))
    if verdict.verified:
        print("verified")
        print(verdict.details())
        return 0
    print(f"not verified: {verdict.problem}")
    return 1


def _export_all(database: str | None, out: str) -> int:
    """Every game that is over (finished, or abandoned after it started) as its /game export file."""
    from .host import Host

    folder = Path(out)

    async def write() -> int:
        host = await Host.open(database or load_config().database)
        try:
            game_ids = await host.over_games()
            folder.mkdir(parents=True, exist_ok=True)
            for game_id in game_ids:
                data = await host.export_game(game_id)
                path = folder / f"{data['game']['kind']}-{data['game']['id']}.json"
                path.write_text(json.dumps(data, indent=1, ensure_ascii=False))
            return len(game_ids)
        finally:
            await host.close()

    try:
        count = asyncio.run(write())
    except OSError as error:
        print(f"error: cannot write to {out}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"wrote {count} export file{'s' if count != 1 else ''} to {folder}")
    return 0


def _stats(database: str | None, game: str | None, player: str | None) -> int:
    """Ratings (all games, or one), a player's record, and a game's own report (``Game.report``) if it has one."""
    from .host import Host
    from .stats import game_report, player_records, ratings_report, records_text

    if game is not None:
        game = get_game(game).key  # an unknown key is refused in one line

    async def report() -> str:
        host = await Host.open(database or load_config().database)
        try:
            if player is not None:
                records = await player_records(host.store, player, game)
                return records_text(records[-1].name if records else player, records).replace("**", "")
            text = await ratings_report(host.store, game)
            report = await game_report(host.store, game) if game is not None else None
            if report is not None:
                text += "\n\n" + report
            return text
        finally:
            await host.close()

    print(asyncio.run(report()))
    return 0


def _rebuild_ratings(database: str | None) -> int:
    import time

    from .host import Host
    from .ratings import rebuild

    async def run() -> str:
        host = await Host.open(database or load_config().database)
        try:
            done = await rebuild(host.store, time.time())
        finally:
            await host.close()
        return (
            f"rebuilt {len(done.ratings)} ratings from {done.results} results ({done.rated} rated; "
            f"{done.backfilled} recorded now for games finished without one)"
        )

    print(asyncio.run(run()))
    return 0


def _replay(file: str, out: str) -> int:
    """The animated replay of an export file: ``replay.gif`` under Discord's upload limit."""
    from .replay import GameLog, ReplayError, animate

    try:
        log = GameLog.from_export(read_export(file))
        animation = animate(log, progress=_progress_line)
    except ReplayError as error:
        print(f"\nerror: {error}", file=sys.stderr)
        return 2
    try:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        Path(out).write_bytes(animation.data)
    except OSError as error:
        print(f"\nerror: cannot write {out}: {error.strerror or error}", file=sys.stderr)
        return 2
    print(f"\nwrote {out}: {animation.describe()}")
    return 0


def _progress_line(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\rdrawing frame {done} of {total}", end="", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
