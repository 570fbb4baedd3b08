"""``python -m bot`` runs the Discord bot; subcommands: console, selfplay, perft, render, import."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import sys
from pathlib import Path

from rules.engine import RulesError, get_game
from rules.engine.playout import perft, play, start

from .config import ConfigError, check_shards, load_config, parse_shard_ids
from .host import HostError

NO_TOKEN = """\
No DISCORD_TOKEN is set, so the bot cannot connect to Discord.
To get one: open https://discord.com/developers/applications, create an application, open "Bot",
press "Reset Token" and copy it into a file named .env here:  DISCORD_TOKEN=your-token
(.env.example lists every setting; the README's "Running on Discord" section has the invite link steps.)"""


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
    selfplay.add_argument("game", help="game key, e.g. babylone (/rules lists them)")
    selfplay.add_argument("--games", type=int, default=100)
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--players", type=int, default=None)
    selfplay.add_argument(
        "--seats", default=None, help="agent per seat, comma separated (random or an AI level)"
    )
    selfplay.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    selfplay.add_argument("--json", action="store_true", help="end with one JSON line of statistics")

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
    render.add_argument("--out", required=True)

    imported = commands.add_parser("import", help="store a finished game's /game export in the database")
    imported.add_argument("file", help="the .json file /game export attached")
    imported.add_argument(
        "--database", default=None, help="database (default: DATABASE_URL or DATABASE_PATH)"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stdout
    )
    try:
        if args.command in (None, "run"):
            return _run_bot(getattr(args, "shard_count", None), getattr(args, "shard_ids", None))
        if args.command == "console":
            return _console(args.database, args.images, args.name)
        if args.command == "selfplay":
            return _selfplay(args)
        if args.command == "perft":
            return _perft(args.game, args.depth)
        if args.command == "render":
            return _render(args)
        if args.command == "import":
            return _import(args.file, args.database)
    except (HostError, RulesError, ConfigError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 2


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

    asyncio.run(run_bot(config))
    return 0


def _console(database: str, images: str | None, name: str = "alice") -> int:
    from .console import run_console

    asyncio.run(run_console(database, images or load_config().image_dir, player=name))
    return 0


def _selfplay(args: argparse.Namespace) -> int:
    from .selfplay import format_report, run_selfplay

    options = dict(item.split("=", 1) for item in args.option if "=" in item)
    seats = [s.strip() for s in args.seats.split(",")] if args.seats else None
    report = asyncio.run(run_selfplay(args.game, args.games, args.seed, args.players, seats, options))
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
    image = render_view(game.key, game.view(playout.state, seat), args.region)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_bytes(encode_png(image))
    print(f"wrote {args.out} ({image.width}x{image.height})")
    return 0


def _import(file: str, database: str | None) -> int:
    import json

    from .host import Host

    async def store() -> tuple[int, str]:
        host = await Host.open(database or load_config().database)
        try:
            game_id = await host.import_game(data)
            return game_id, (await host.game_info(game_id)).title
        finally:
            await host.close()

    try:
        data = json.loads(Path(file).read_text())
    except (OSError, ValueError) as error:
        print(f"error: cannot read {file}: {error}", file=sys.stderr)
        return 2
    game_id, title = asyncio.run(store())
    print(f"imported {title} as game #{game_id} ({len(data['events'])} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
