"""A league game's end scores the league, inside the transaction that records the game's result.

``score_league_game`` is the host's one league hook (``Games._record_result``): for any other game it finds
no league table and does nothing. It reads only the league's own rows and the game's stored result, so it needs
nothing of the host. When the round's last table is scored it schedules the league's ``advance`` task (pair and
open the next round, or end the league), claimed for the process that scored it, which runs it right after the
commit (the host wakes its league loop): a crash before the commit leaves both the result and the task unstored,
a crash after it leaves the task to any process once its claim lapses.

A table whose game was made without a player who dropped before it existed (``TableRow.game_seats``) maps the
game's seats back to the pairing's: the absent player scores 0, as a forfeit.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..storage import Connection
from ..storage import leagues as repo
from .pairing import game_points

#: the kind of the task that pairs the next round once a round's last game is scored
ADVANCE = "advance"


def table_points(
    seats: int, winners: Sequence[int], draw: bool, forfeited: Collection[int] = ()
) -> tuple[float, ...]:
    """League points by seat (0-based) of a game that ended: ``game_points`` of its winners; a seat whose
    player withdrew or was dropped (``forfeited``) scores 0 and its opponents the win: the game's winners among
    them, or, when the game's winner was the forfeited seat (the AI played it to the end), all of them."""
    if not forfeited:
        return game_points(seats, list(winners), draw)
    kept = [seat for seat in winners if seat not in forfeited]
    if not kept:
        kept = [seat for seat in range(seats) if seat not in forfeited]
    return game_points(seats, kept, False) if kept else (0.0,) * seats


async def score_league_game(db: Connection, game_id: int, now: float, worker: str | None = None) -> bool:
    """Score the league table whose game ``game_id`` just ended (nothing for a game outside any league). True
    when that ended its round: the ``advance`` task is then claimed for ``worker``, to run after the commit."""
    table = await repo.table_of_game(db, game_id)
    if table is None or table.step == repo.FINISHED:
        return False
    result = await repo.game_result(db, game_id)
    if result is None:
        return False
    dropped = {entrant.user_id for entrant in await repo.entrants(db, table.league_id) if entrant.dropped}
    played = table.played_seats
    forfeited = [seat for seat, user in enumerate(table.seats) if user in dropped or user not in played]
    # the game's seat numbers are those of the players it seated: back to the pairing's seats
    winners = [
        table.seats.index(played[int(seat)])
        for seat in result.get("winners") or []
        if 0 <= int(seat) < len(played)
    ]
    points = table_points(len(table.seats), winners, bool(result.get("draw")), forfeited)
    return await finish_table(db, table, points, bool(forfeited), now, worker)


async def finish_table(
    db: Connection,
    table: repo.TableRow,
    points: Sequence[float],
    forfeit: bool,
    now: float,
    worker: str | None = None,
) -> bool:
    """Store a table's points once; the round's last table schedules the next round (claimed for ``worker``
    when given). True when this ended the round."""
    if not await repo.table_finished(db, table, points, forfeit):
        return False
    if await repo.unfinished_tables(db, table.league_id, table.round) != 0:
        return False
    await repo.add_task(db, table.league_id, ADVANCE, table.round, now, claimed_by=worker)
    return True
