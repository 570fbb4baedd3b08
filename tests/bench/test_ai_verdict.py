"""``python -m bench ai``'s verdict: a challenger meets its goal only when both its share of the decided games
and its score (a draw counts half) reach it."""

from __future__ import annotations

import pytest

from bench.bench_ai import MATCHES, MatchResult, report


def _result(game: str, won: int, lost: int, drawn: int) -> MatchResult:
    match = next(match for match in MATCHES if match.game == game)
    times = {match.level_a: [900.0], match.level_b: [400.0]}
    return MatchResult(match, won, lost, drawn, times, 0, 1.0)


@pytest.mark.parametrize(
    ("won", "lost", "drawn", "met"),
    [
        (0, 0, 40, False),  # nothing decided
        (1, 0, 39, False),  # every decided game won, but a score of 51%
        (13, 7, 20, False),  # a score of 57.5% and 65% of the decided games
        (20, 0, 20, True),  # a score of 75%
        (26, 14, 0, True),  # no draws: both shares are 65%
    ],
)
def test_a_match_of_draws_does_not_pass_on_a_few_wins(won: int, lost: int, drawn: int, met: bool) -> None:
    result = _result("game-of-princes", won, lost, drawn)
    assert result.met is met
    first = report(result)[0]
    assert f"won {won}, lost {lost}, drawn {drawn}" in first
    assert ("NOT met" not in first) is met


def test_the_score_counts_a_draw_half() -> None:
    result = _result("the-prince", 37, 1, 2)
    assert result.score == pytest.approx(0.95)
    assert result.rate == pytest.approx(37 / 38)
    assert "score 95% (a draw counts half)" in report(result)[0]
