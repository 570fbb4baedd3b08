"""Hostile clicks on every kind of component, through the real client (see ``componentfuzz``)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.e2e.componentfuzz import ComponentFuzz
from tests.e2e.conftest import Table

EXAMPLES = 12
CLICKS = 20


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**32 - 1))
async def test_hostile_clicks_get_a_sentence_and_change_nothing_they_should_not(
    table: Table, seed: int
) -> None:
    """The table (and its games) carries on from example to example, so each example draws from a generator
    seeded by hypothesis: a failure names its seed, and ``ComponentFuzz(table, random.Random(seed))`` replays
    it on a fresh table of the same history."""
    fuzz = ComponentFuzz(table, random.Random(seed))
    if getattr(table, "_fuzz_users", None):  # the same table across examples: its games go on
        fuzz.users, fuzz.channels = table._fuzz_users  # type: ignore[attr-defined]
    counts = await fuzz.run(CLICKS)
    table._fuzz_users = (fuzz.users, fuzz.channels)  # type: ignore[attr-defined]
    assert counts["clicks"] == CLICKS and counts["unanswered"] == 0
