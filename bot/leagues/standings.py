"""A league's standings from its history: pure, deterministic, no I/O.

Definitions (a test recomputes them from this text):

- **points**: the league points a player scored in every game (:func:`bot.leagues.pairing.game_points`: 1 for
  a sole win, a shared win or a draw splits 1, forfeits as recorded) plus each bye's points (1 by default).
- A player's **final points** are their points after every recorded game and bye.
- **Buchholz**: for each game the player played (forfeits included; a bye adds nothing), the mean final points
  of the other players at that table, summed over the games. In a two-player game that mean is the opponent's
  final points, so this is the classic Buchholz: the sum of the final points of every opponent met.
- **Sonneborn-Berger**: for each game, the points the player scored in it times the mean final points of the
  others at that table, summed. Two players: the sum over games of (points scored against that opponent x that
  opponent's final points), so a draw counts half the opponent's points and a loss nothing.
- **wins**: games in which the player scored a whole point alone at the table (sole wins, forfeits included,
  byes not).
- **games**: games played, forfeits included, byes not; **byes**: byes received.
- Order: points, then Buchholz, then Sonneborn-Berger, then wins, all highest first. Players equal on all four
  share a rank (standard competition ranking: 1, 2, 2, 4) and are listed in sign-up order. Values are compared
  after rounding to 9 decimal places, so thirds summed in different orders still tie.
- A dropped player stays in the table, ranked by the same rules, marked ``dropped``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from render.standings import StandingRow

from .pairing import Bye, Played, final_points

#: decimal places kept when comparing tie-breaks (means over 3-4 player tables are thirds)
_PLACES = 9


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings."""

    player: str
    #: 1-based; equal ranks only when every tie-break is equal
    rank: int
    points: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    #: games played (a bye is not a game)
    games: int
    byes: int
    dropped: bool


def standing_row(line: Standing, name: str) -> StandingRow:
    """The line as the standings image and table show it, under the player's display ``name``."""
    return StandingRow(
        line.rank,
        name,
        line.points,
        line.buchholz,
        line.sonneborn_berger,
        line.wins,
        line.games,
        line.byes,
        line.dropped,
    )


def _others_mean(game: Played, seat: int, points: dict[str, float]) -> float:
    others = [points.get(player, 0.0) for index, player in enumerate(game.seats) if index != seat]
    return sum(others) / len(others) if others else 0.0


def standings(
    entrants: Sequence[str], played: Sequence[Played], byes: Sequence[Bye], dropped: Collection[str] = ()
) -> list[Standing]:
    """The league's table, best first (the module's docstring defines every column).

    ``entrants`` are every player who signed up, in sign-up order (dropped ones too); a player found only in
    the history is added after them.

    >>> games = [Played(1, ("a", "b"), (1.0, 0.0)), Played(2, ("c", "a"), (0.5, 0.5))]
    >>> for row in standings(["a", "b", "c"], games, [Bye(1, "c"), Bye(2, "b")]):
    ...     print(row.rank, row.player, row.points, row.buchholz, row.sonneborn_berger, row.wins)
    1 a 1.5 2.5 1.75 1
    2 c 1.5 1.5 0.75 0
    3 b 1.0 1.5 0.0 0
    """
    points = final_points(played, byes)
    everyone = list(
        dict.fromkeys([*entrants, *(p for game in played for p in game.seats), *(b.player for b in byes)])
    )
    buchholz: defaultdict[str, float] = defaultdict(float)
    sonneborn: defaultdict[str, float] = defaultdict(float)
    wins: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for game in played:
        for seat, (player, scored) in enumerate(zip(game.seats, game.points, strict=True)):
            others = _others_mean(game, seat, points)
            buchholz[player] += others
            sonneborn[player] += scored * others
            games[player] += 1
            if scored == 1.0 and sum(1 for value in game.points if value > 0) == 1:
                wins[player] += 1
    bye_counts = Counter(bye.player for bye in byes)

    def key(player: str) -> tuple[float, float, float, int]:
        return (
            -round(points.get(player, 0.0), _PLACES),
            -round(buchholz[player], _PLACES),
            -round(sonneborn[player], _PLACES),
            -wins[player],
        )

    order = sorted(everyone, key=lambda player: (key(player), everyone.index(player)))
    table: list[Standing] = []
    for position, player in enumerate(order, start=1):
        rank = table[-1].rank if table and key(table[-1].player) == key(player) else position
        table.append(
            Standing(
                player=player,
                rank=rank,
                points=points.get(player, 0.0),
                buchholz=buchholz[player],
                sonneborn_berger=sonneborn[player],
                wins=wins[player],
                games=games[player],
                byes=bye_counts[player],
                dropped=player in dropped,
            )
        )
    return table
