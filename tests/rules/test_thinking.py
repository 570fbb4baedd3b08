"""The searching AIs' budgets: a level's time cap as a seat writes it, and the count that makes them replay."""

from __future__ import annotations

import pytest

from rules.engine.thinking import Budget, LevelError, split_level


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("expert", ("expert", None)),
        ("expert:3s", ("expert", 3.0)),
        ("Expert 2.5s", ("expert", 2.5)),
        ("expert:1", ("expert", 1.0)),
        ("hard", ("hard", None)),
    ],
)
def test_a_level_may_name_its_time_cap(text: str, expected: tuple[str, float | None]) -> None:
    assert split_level(text) == expected


@pytest.mark.parametrize("text", ["expert:0s", "expert:60s", "expert 11"])
def test_a_time_cap_out_of_range_is_refused_with_a_sentence(text: str) -> None:
    with pytest.raises(LevelError, match="from 0.1 to 10 seconds"):
        split_level(text)


def test_the_count_stops_a_search_without_a_clock() -> None:
    watch = Budget(100, None).stopwatch(clock=lambda: pytest.fail("a budget without seconds reads no clock"))
    assert not watch.tick(99)
    assert watch.tick()
    assert not watch.timed_out


def test_the_time_cap_stops_a_search_short_of_its_count() -> None:
    now = [0.0]
    watch = Budget(10**9, 1.0).stopwatch(clock=lambda: now[0])
    assert not watch.tick(1000)
    now[0] = 0.95  # past the share of the second a search may use (the rest is for answering)
    assert watch.tick(1000) and watch.timed_out


def test_a_level_text_sets_the_cap_of_a_budget() -> None:
    assert Budget(50, 1.0).for_level("expert:3s") == Budget(50, 3.0)
    assert Budget(50, 1.0).for_level("expert") == Budget(50, 1.0)
