"""Draw the README's league standings image (``docs/images/league-standings.png``) from a realistic league.

Seven players, a Swiss league over three rounds of a two-player game: each round paired by the league's own
pairing (``bot.leagues.pairing.pair_swiss``: a bye each round), the games decided by a seeded coin weighted by
each player's strength (a draw now and then), one player withdrawing after round 2 (left out of round 3's
pairing, marked in the standings); the standings by ``bot.leagues.standings``, drawn by ``render.standings`` as
``/league standings`` shows them.

    .venv/bin/python scripts/league_standings_image.py [OUT.png] [--language pl]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.leagues.pairing import Bye, Played, game_points, pair_swiss  # noqa: E402
from bot.leagues.standings import standing_row, standings  # noqa: E402
from render.standings import StandingsView, standings_png  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "docs" / "images" / "league-standings.png"
NAMES = ("Agnieszka", "Bartosz", "Celina", "Dawid", "Ewa", "Filip", "Grażyna")
#: each player's chance weight in a game (a stronger player wins more often)
STRENGTH = {"Agnieszka": 5, "Bartosz": 3, "Celina": 4, "Dawid": 2, "Ewa": 4, "Filip": 1, "Grażyna": 3}
ROUNDS = 3
WITHDRAWS = ("Dawid", 2)  # who withdraws, after which round
SEED = 45


def play(rng: random.Random, seats: tuple[str, ...]) -> tuple[float, ...]:
    """One game's league points: a draw one time in eight, else a win weighted by strength."""
    if rng.random() < 0.125:
        return game_points(len(seats), [], draw=True)
    weights = [STRENGTH[player] for player in seats]
    winner = rng.choices(range(len(seats)), weights)[0]
    return game_points(len(seats), [winner])


def league_view() -> StandingsView:
    rng = random.Random(SEED)
    played: list[Played] = []
    byes: list[Bye] = []
    dropped: set[str] = set()
    for round_number in range(1, ROUNDS + 1):
        still_in = [name for name in NAMES if name not in dropped]
        pairing = pair_swiss(still_in, played, byes, round=round_number)
        byes += [Bye(round_number, player) for player in pairing.byes]
        played += [Played(round_number, seats, play(rng, seats)) for seats in pairing.tables]
        if round_number == WITHDRAWS[1]:
            dropped.add(WITHDRAWS[0])
    rows = tuple(standing_row(line, line.player) for line in standings(list(NAMES), played, byes, dropped))
    return StandingsView("Babylone Swiss league #3", ROUNDS, ROUNDS, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=OUT)
    parser.add_argument("--language", default="en")
    arguments = parser.parse_args()
    arguments.out.parent.mkdir(parents=True, exist_ok=True)
    arguments.out.write_bytes(standings_png(league_view(), arguments.language))
    print(f"{arguments.out}: {arguments.out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
