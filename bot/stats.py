"""Statistics over the stored results (``bot.ratings``): a player's record, leaderboards, head-to-head results of
the AI levels, and a game's own report over its results (``Game.report``: win rates by side, say).

Everything here reads the ``results``, ``result_seats`` and ``ratings`` tables only, so it costs a few indexed
queries whatever the number of games, and the same texts serve ``/stats`` and ``/leaderboard`` on Discord and
``python -m bot stats`` on a database.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from rules.engine import Game, ResultSeat, get_game

from .ratings import Rating, conservative, is_ai_player, player_label
from .storage import Store
from .storage import ratings as stored

LEADERBOARD_SIZE = 20


def _stored_game(kind: str) -> Game[Any, Any] | None:
    """The game of a stored result; None for a game this release no longer has."""
    try:
        return get_game(kind, include_unplayable=True)
    except Exception:
        return None


def game_title(kind: str) -> str:
    game = _stored_game(kind)
    return game.title if game is not None else kind  # a game no longer here: its key still names it


def side_word(kind: str) -> str:
    """What a seat's side is called in the game (``Game.side_word``: "colour", "principality", "seat")."""
    game = _stored_game(kind)
    return game.side_word if game is not None else Game.side_word


def duration_text(seconds: float) -> str:
    """A length of time as a person says it: 40 s, 12 min, 3 h 5 min, 2 d 4 h."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


def rating_text(rating: Rating) -> str:
    return f"{rating[0]:.1f} ± {rating[1]:.1f}"


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


# ---------------------------------------------------------------------------------------------- one player
@dataclass(frozen=True)
class PlayerRecord:
    kind: str
    player: str
    name: str
    games: int
    rated_games: int
    wins: int
    rating: Rating | None
    #: 1-based place among everyone rated in this game (by rating minus three times its uncertainty)
    place: int | None
    rated_players: int
    favourite: tuple[str, int] | None
    decisions: int
    answer_seconds: float

    def text(self) -> str:
        head = f"**{game_title(self.kind)}**: {self.games} game{'s' if self.games != 1 else ''}"
        if self.rated_games != self.games:
            head += f" ({self.rated_games} rated)"
        parts = [f"{head}, {self.wins} win{'s' if self.wins != 1 else ''} ({percent(self.wins, self.games)})"]
        if self.rating is not None:
            place = f", #{self.place} of {self.rated_players}" if self.place else ""
            parts.append(f"rating {rating_text(self.rating)}{place}")
        else:
            parts.append("no rating yet (no rated game)")
        if self.favourite is not None:
            side, count = self.favourite
            parts.append(
                f"favourite {side_word(self.kind)}: {side} ({count} game{'s' if count != 1 else ''})"
            )
        if self.decisions:
            average = duration_text(self.answer_seconds / self.decisions)
            parts.append(f"average answer time {average} over {self.decisions} decisions")
        return "; ".join(parts) + "."


async def player_records(store: Store, player: str, kind: str | None = None) -> list[PlayerRecord]:
    """The player's record in each game they have finished (or in ``kind`` alone)."""
    rows = await stored.player_seats(store, player, kind)
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_kind[str(row["kind"])].append(dict(row))
    records = []
    for game_kind, seats in sorted(by_kind.items()):
        rating, place, rated_players = await _rating_and_place(store, game_kind, player)
        sides = Counter(str(seat["side"]) for seat in seats if seat["side"])
        records.append(
            PlayerRecord(
                kind=game_kind,
                player=player,
                name=str(seats[-1]["name"]),
                games=len(seats),
                rated_games=sum(1 for seat in seats if seat["rated"]),
                wins=sum(1 for seat in seats if seat["won"]),
                rating=rating,
                place=place,
                rated_players=rated_players,
                favourite=max(sides.items(), key=lambda item: item[1]) if sides else None,
                decisions=sum((int(seat["decisions"]) for seat in seats), 0),
                answer_seconds=sum((float(seat["answer_seconds"]) for seat in seats), 0.0),
            )
        )
    return records


async def _rating_and_place(store: Store, kind: str, player: str) -> tuple[Rating | None, int | None, int]:
    rows = await stored.ratings_of_kind(store, kind)
    ranked = sorted(rows, key=lambda r: (-conservative((r["mu"], r["sigma"])), r["player"]))
    for place, row in enumerate(ranked, start=1):
        if row["player"] == player:
            return (float(row["mu"]), float(row["sigma"])), place, len(ranked)
    return None, None, len(ranked)


def records_text(name: str, records: list[PlayerRecord]) -> str:
    if not records:
        return f"{name} has no finished game yet."
    return "\n".join([f"Statistics of **{name}**:", *(f"- {record.text()}" for record in records)])


# ---------------------------------------------------------------------------------------------- leaderboards
@dataclass(frozen=True)
class Standing:
    player: str
    name: str
    rating: Rating
    games: int
    wins: int

    @property
    def label(self) -> str:
        return player_label(self.player, self.name)


async def leaderboard(
    store: Store, kind: str, guild_id: str | None = None, limit: int = LEADERBOARD_SIZE
) -> list[Standing]:
    """The best ratings of a game, by rating minus three times its uncertainty; with ``guild_id``, only players
    who finished a game of it on that server (their rating is the one they have across all servers)."""
    rows = await stored.ratings_of_kind(store, kind, guild_id)
    ranked = sorted(rows, key=lambda r: (-conservative((r["mu"], r["sigma"])), r["player"]))[:limit]
    names = await _latest_names(store, [str(row["player"]) for row in ranked])
    return [
        Standing(
            str(row["player"]),
            names.get(str(row["player"]), str(row["player"])),
            (float(row["mu"]), float(row["sigma"])),
            int(row["games"]),
            int(row["wins"]),
        )
        for row in ranked
    ]


async def _latest_names(store: Store, players: list[str]) -> dict[str, str]:
    names: dict[str, str] = {}
    for player in players:
        names[player] = await stored.latest_name(store, player) or player
    return names


def leaderboard_text(kind: str, standings: list[Standing], scope: str) -> str:
    title = f"**{game_title(kind)} leaderboard ({scope})**"
    if not standings:
        return f"{title}\nNo rated game of {game_title(kind)} has finished yet."
    lines = [f"{title}, by rating − 3 × its uncertainty:"]
    for place, standing in enumerate(standings, start=1):
        lines.append(
            f"{place}. {standing.label} — {rating_text(standing.rating)} · {standing.games} rated "
            f"game{'s' if standing.games != 1 else ''}, {standing.wins} win{'s' if standing.wins != 1 else ''}"
        )
    return "\n".join(lines)


async def rated_kinds(store: Store) -> list[str]:
    return await stored.rated_kinds(store)


# ---------------------------------------------------------------------------------------------- AI levels
async def head_to_head(store: Store, kind: str) -> Counter[tuple[str, str]]:
    """Wins of one AI level over another in the two-seat games between two different AI levels."""
    rows = await stored.duel_seats(store, kind)
    games: dict[int, list[tuple[str, bool]]] = defaultdict(list)
    for row in rows:
        games[int(row["game_id"])].append((str(row["player"]), bool(row["won"])))
    wins: Counter[tuple[str, str]] = Counter()
    for seats in games.values():
        (first, first_won), (second, _) = seats
        if first != second and is_ai_player(first) and is_ai_player(second):
            wins[(first, second) if first_won else (second, first)] += 1
    return wins


def head_to_head_text(wins: Counter[tuple[str, str]]) -> list[str]:
    pairs = sorted({tuple(sorted(pair)) for pair in wins})
    lines = []
    for a, b in pairs:
        a_wins, b_wins = wins[(a, b)], wins[(b, a)]
        if b_wins > a_wins:
            a, b, a_wins, b_wins = b, a, b_wins, a_wins
        verb = "and" if a_wins == b_wins else "beat"  # an even record names no winner
        lines.append(f"  {player_label(a, a)} {verb} {player_label(b, b)} {a_wins}-{b_wins}")
    return lines


async def ratings_report(store: Store, kind: str | None = None) -> str:
    """Every game's ratings (or one game's), with the AI levels' head-to-head results: ``python -m bot stats``."""
    kinds = [kind] if kind else await rated_kinds(store)
    if not kinds:
        return "No rated game has finished yet."
    blocks = []
    for game_kind in kinds:
        standings = await leaderboard(store, game_kind, limit=10_000)
        lines = [leaderboard_text(game_kind, standings, "all servers").replace("**", "")]
        duels = head_to_head_text(await head_to_head(store, game_kind))
        if duels:
            lines += ["AI levels head to head (two-player games):", *duels]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# ---------------------------------------------------------------------------------------------- a game's report
async def game_report(store: Store, kind: str) -> str | None:
    """The game's own statistics over every stored result of it (``Game.report``, win rates by
    principality, say), for ``/stats`` about that game; None when the game has no report."""
    game = _stored_game(kind)
    if game is None or type(game).report is Game.report:  # no report: no need to read its results
        return None
    rows = await stored.result_seats_of_kind(store, kind)
    return game.report(
        [
            ResultSeat(
                game=int(row["game_id"]),
                num_players=int(row["num_players"]),
                draw=bool(row["draw"]),
                seat=int(row["seat"]),
                side=None if row["side"] is None else str(row["side"]),
                won=bool(row["won"]),
                by_person=not is_ai_player(str(row["player"])),
            )
            for row in rows
        ]
    )
