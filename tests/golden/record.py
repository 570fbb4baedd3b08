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

from rules.engine import Game, State, get_game
from rules.engine.playout import Chooser, play

DIRECTORY = Path(__file__).resolve().parent
#: (game, players, options, AI level)
PLAYTHROUGHS: tuple[tuple[str, int, dict[str, str], str], ...] = (
    ("babylone", 2, {}, "easy"),
    ("babylone", 3, {}, "easy"),
    ("babylone", 4, {}, "easy"),
    ("pharaoh", 2, {}, "greedy"),
    ("pharaoh", 3, {}, "greedy"),
    ("pharaoh", 4, {}, "greedy"),
    ("game-of-princes", 2, {}, "easy"),
    ("the-prince", 2, {}, "strategist"),
    ("principes", 2, {}, "strong"),
    ("principes", 2, {"neutrals": "active"}, "strong"),
    ("principes", 3, {}, "strong"),
    ("principes", 4, {}, "strong"),
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


def main() -> int:
    for key, players, options, level in PLAYTHROUGHS:
        data = record(key, players, options, level)
        path = DIRECTORY / file_name(key, players, options)
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(f"{path.name}: {len(data['records'])} actions, {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
