"""What a league adds to the words about one of its games: the catch-up digest's opening line ("Your round 3 game
against X has started.") and the ``/mygames`` line ("league <name>, round 3"). Reads the league's rows only."""

from __future__ import annotations

from collections.abc import Sequence

from ..storage import leagues as repo
from ..storage.leagues import Reader


async def started_line(db: Reader, game_id: int, seat: int, names: Sequence[str]) -> str | None:
    """The digest's opening line for a seat of a league game that has not moved yet; None for any other."""
    found = await repo.league_of_game(db, game_id)
    if found is None or await repo.seat_has_acted(db, game_id, seat):
        return None
    others = ", ".join(name for number, name in enumerate(names) if number != seat)
    return f"Your round {found[1]} game against {others} has started."


async def league_lines(db: Reader, user_id: str) -> dict[int, str]:
    """Game id -> "↳ league <name>, round <n>" for the user's running league games (``/mygames``)."""
    return {
        game_id: f"↳ league {name}, round {round_number}"
        for game_id, (name, round_number) in (await repo.league_games_of(db, user_id)).items()
    }
