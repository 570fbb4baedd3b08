"""What PRINCIPES says of its seats and results: the principality each seat played, and for its designer the win
rates by principality, overall and by player count, over every stored result (people and AI alike): which
principality, with its reconstructed cards, wins too often."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.engine import ResultSeat, plural

from .play.common import NAMES
from .schema import PView


def principality_sides(view: PView, sides: list[str]) -> list[str]:
    """``sides`` (the seats' places in the turn order) with each seat's principality named where the view has it."""
    codes = view.get("seats") or []
    return [
        NAMES.get(code, code) if isinstance(code, str) else side
        for code, side in zip(codes, sides, strict=False)
    ]


def win_rates(title: str, results: Sequence[ResultSeat]) -> str:
    """Win rates by principality, overall and by player count, over ``results`` (every stored seat of the game)."""
    if not results:
        return f"No game of {title} has finished yet."
    games = {seat.game for seat in results}
    with_people = {seat.game for seat in results if seat.by_person}
    draws = {seat.game for seat in results if seat.draw}
    lines = [
        f"{title}: {plural(len(games), 'finished game')} "
        f"({len(with_people)} with people, {len(draws)} without a winner)."
    ]
    lines.append("Win rate by principality (games it was played in):")
    lines += _side_lines(results)
    for count in sorted({seat.num_players for seat in results}):
        some = [seat for seat in results if seat.num_players == count]
        lines.append(f"{count} players ({plural(len({seat.game for seat in some}), 'game')}):")
        lines += _side_lines(some)
    return "\n".join(lines)


def _side_lines(results: Sequence[ResultSeat]) -> list[str]:
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for seat in results:
        side = str(seat.side)
        played[side] += 1
        won[side] += int(seat.won)
    ranked = sorted(played, key=lambda side: (-won[side] / played[side], side))
    return [
        f"  {side}: {won[side]} wins of {played[side]} ({_percent(won[side], played[side])})"
        for side in ranked
    ]


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%"
