"""Golden playthroughs replay to the same final state and the same public log (see ``record``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine import Event, ReplayRng, RulesError, available_games, get_game
from rules.engine.registry import GAMES
from tests.golden.record import DIRECTORY, PLAYTHROUGHS, file_name, playthroughs, state_digest, write

FILES = sorted(DIRECTORY.glob("*.json"))
HOW_TO = (
    "A rules change altered a recorded game, so it would alter games people are playing. If that is intended, "
    "bump the game's rules_version, make its upgrade() carry states saved by the old version, and record the "
    "golden files again: python -m tests.golden.record."
)


def test_every_game_has_a_golden_playthrough_for_each_player_count() -> None:
    recorded = {
        (json.loads(path.read_text())["game"], json.loads(path.read_text())["players"]) for path in FILES
    }
    for key in GAMES:
        game = get_game(key)
        for players in game.sample_players():
            assert (key, players) in recorded, f"no golden playthrough of {key} with {players} players"
    assert {path.name for path in FILES} == {file_name(k, p, o) for k, p, o, _level in PLAYTHROUGHS}


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_a_golden_playthrough_replays_the_same(path: Path) -> None:
    replays_the_same(path)


#: games added for this run (``rules.engine.registry.EXTRA_GAMES``) keep no golden files here
ADDED = [key for key in available_games() if key not in GAMES]


@pytest.mark.parametrize("key", ADDED)
def test_a_game_added_for_the_run_records_golden_playthroughs_that_replay_the_same(
    key: str, tmp_path: Path
) -> None:
    for playthrough in playthroughs(key):
        replays_the_same(write(playthrough, tmp_path))


def replays_the_same(path: Path) -> None:
    data = json.loads(path.read_text())
    game = get_game(data["game"])
    assert game.rules_version == data["rules_version"], (
        f"{game.title}'s rules_version is {game.rules_version}, the golden file's {data['rules_version']}: "
        "check that upgrade() carries games saved by the old version, then record the files again "
        "(python -m tests.golden.record)."
    )
    state = game.setup(data["players"], data["options"], ReplayRng(data["setup_draws"]))
    events: list[Event] = []
    for number, (seat, action, draws) in enumerate(data["records"], start=1):
        try:
            applied = game.apply(state, seat, action, ReplayRng(draws))
        except (RulesError, RuntimeError) as error:
            pytest.fail(
                f"{path.name}: action {number} ({action!r} by seat {seat}) no longer applies: {error}. {HOW_TO}"
            )
        state, events = applied.state, events + applied.events
    log = [event.text for event in events]
    for index, (now, then) in enumerate(zip(log, data["log"], strict=False)):
        assert now == then, f"{path.name}: log line {index + 1} was {then!r}, is now {now!r}. {HOW_TO}"
    assert len(log) == len(data["log"]), (
        f"{path.name}: the log has {len(log)} lines, had {len(data['log'])}. {HOW_TO}"
    )
    assert game.outcome(state).finished
    assert state_digest(state) == data["final_state_sha256"], (
        f"{path.name}: the final state differs. {HOW_TO}"
    )
