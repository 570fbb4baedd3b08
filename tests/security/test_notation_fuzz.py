"""Hostile input for every game's notation parser: ``parse`` then ``apply`` on positions of random play.

Inputs are arbitrary unicode, huge strings, numbers and, above all, fragments of the position's own legal
actions mutated (tokens swapped, truncated, spliced, extra tokens, absurd numbers, odd characters): see
``hostile``. Only the rules' own errors (``InvalidAction``, ``IllegalAction``), each with a sentence, may come
out, and the state handed in must be left as it was. ``bench/bench_fuzz.py`` runs the same at volume.
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import Game, available_games, get_game
from tests.security.hostile import Position, fuzz_notation, hostile_text, sample_positions
from tests.support.games import SealedGuess

#: positions per game and how deep random play may go for them in CI (the bench plays games to the end)
POSITIONS, MAX_DEPTH = 6, 200
#: derandomized: CI runs the same examples every time (the bench explores with other seeds, at volume)
CI = settings(
    max_examples=80,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def fuzzed_games() -> dict[str, Game]:
    """Every playable registered game, and the test-only sealed game, by key."""
    games = {key: get_game(key) for key in available_games()}
    games[SealedGuess.key] = SealedGuess()
    return games


GAMES = fuzzed_games()


@cache
def positions_of(key: str) -> list[Position]:
    return sample_positions(GAMES[key], POSITIONS, max_depth=MAX_DEPTH)


def texts(legal: list[str]) -> st.SearchStrategy[str]:
    """Arbitrary text, and hostile variations on the legal actions (through a hypothesis-driven Random)."""
    return st.one_of(
        st.text(max_size=300),
        st.randoms(use_true_random=False).map(lambda rng: hostile_text(rng, legal)),
        st.integers().map(str),
        st.floats().map(str),
        st.sampled_from(legal or [""]),
    )


@pytest.mark.parametrize("key", sorted(GAMES))
@CI
@given(data=st.data())
def test_parser_and_apply_refuse_hostile_text_cleanly(key: str, data: st.DataObject) -> None:
    game = GAMES[key]
    position = data.draw(st.sampled_from(positions_of(key)), label="position")
    seat = data.draw(st.integers(0, position.players - 1), label="seat")
    legal = game.legal_actions(position.state, seat)
    text = data.draw(texts(legal), label="text")
    fuzz_notation(game, position, seat, text, rng_seed=data.draw(st.integers(0, 2**32), label="seed"))


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_legal_action_applies(key: str) -> None:
    """The fuzz's control group: in the sampled positions, the games' own actions parse and apply."""
    game, rng = GAMES[key], random.Random(key)
    applied = 0
    for position in positions_of(key):
        for seat in game.pending(position.state):
            for action in rng.sample(game.legal_actions(position.state, seat), k=1):
                assert fuzz_notation(game, position, seat, action, rng_seed=7) == "applied", action
                applied += 1
    assert applied > 0, f"{key}: no sampled position had a decision to take"
