"""Golden playthroughs: one recorded game per game and player count, kept in ``tests/golden/*.json``.

Stored games replay through today's rules, so a rule change can silently change games in progress. Each
golden file holds a whole game as the host stores one (setup draws, then every action with the chance results
it drew) with its final state's SHA-256 and its public log; ``test_golden`` replays each through the current
rules and requires the same final state and the same log. A change that alters one is a change to games
people are playing: bump the game's ``rules_version``, give ``upgrade`` what old states need, and record the
files again with ``python -m tests.golden.record`` (OpenSpiel keeps such playthroughs for the same reason).

The games are played by the cheaper AI levels (decisions from the seat's view), so they look like real games.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from rules.engine import Game, State, available_games, get_game
from rules.engine.playout import Chooser, play
from rules.engine.registry import GAMES

DIRECTORY = Path(__file__).resolve().parent
#: (game, players, options, AI level)
Playthrough = tuple[str, int, dict[str, str], str]


def playthroughs(key: str) -> list[Playthrough]:
    """A game's golden playthroughs (``Game.exercise``): one per player count with the default options, then the
    game's extra options, each played by its sample level."""
    game = get_game(key)
    level = game.exercise.level
    extra = [(players, dict(options)) for players, options in game.exercise.golden_options]
    return [
        (key, players, options, level)
        for players, options in [*((p, {}) for p in game.sample_players()), *extra]
    ]


#: the built-in games' playthroughs, kept in this directory (a game added for a run records into a temporary one)
PLAYTHROUGHS: tuple[Playthrough, ...] = tuple(
    playthrough for key in GAMES if key in available_games() for playthrough in playthroughs(key)
)
SEED = 2026


def file_name(key: str, players: int, options: dict[str, str]) -> str:
    extra = "".join(f"-{name}-{value}" for name, value in sorted(options.items()))
    return f"{key}-{players}p{extra}.json"


def state_digest(state: State) -> str:
    """SHA-256 of the state as canonical JSON (sorted keys): equal states, equal digests."""
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def ai_chooser(level: str) -> Chooser:
    def choose(game: Game, view: dict, seat: int, legal: list[str], rng: random.Random) -> str:
        return game.choose_action(view, seat, legal, level, rng)

    return choose


def record(key: str, players: int, options: dict[str, str], level: str) -> dict[str, Any]:
    game = get_game(key)
    resolved = game.resolve_options(options)
    chooser = ai_chooser(level)
    playout = play(game, players, SEED, resolved, choosers={seat: chooser for seat in range(players)})
    if not game.outcome(playout.state).finished:
        raise RuntimeError(f"{key} {players}p did not finish")
    return {
        "game": key,
        "players": players,
        "options": resolved,
        "seed": SEED,
        "rules_version": game.rules_version,
        "played_by": level,
        "setup_draws": playout.setup_draws,
        "records": [[r.seat, r.action, r.draws] for r in playout.records],
        "final_state_sha256": state_digest(playout.state),
        "log": [event.text for event in playout.events],
    }


def write(playthrough: Playthrough, directory: Path = DIRECTORY) -> Path:
    """Record one playthrough into ``directory`` as its golden file."""
    key, players, options, level = playthrough
    path = directory / file_name(key, players, options)
    path.write_text(json.dumps(record(key, players, options, level), separators=(",", ":")) + "\n")
    return path


def main() -> int:
    for playthrough in PLAYTHROUGHS:
        path = write(playthrough)
        actions = len(json.loads(path.read_text())["records"])
        print(f"{path.name}: {actions} actions, {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
