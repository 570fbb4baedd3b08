"""The TypedDicts of ``rules.principes.schema`` describe what the rules really store and show: every state of the
golden playthroughs, and every seat's and the public view of it, has the declared keys with the declared types
and no other key (mypy checks the code against the schema; this checks the schema against the data)."""

from __future__ import annotations

import json
import types
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from rules.engine import ReplayRng, Rng, get_game
from rules.principes import schema
from tests.golden.record import DIRECTORY

GOLDEN = sorted(DIRECTORY.glob("principes-*.json"))


def problems(value: Any, hint: Any, where: str) -> list[str]:
    """Where ``value`` does not fit ``hint`` (a TypedDict, dict, list, union, literal or plain type)."""
    origin = get_origin(hint)
    if hint is Any:
        return []
    if origin is NotRequired:
        return problems(value, get_args(hint)[0], where)
    if origin in (Union, types.UnionType):
        return _union_problems(value, hint, where)
    if origin is Literal:
        return [] if value in get_args(hint) else [f"{where}: {value!r} not in {get_args(hint)}"]
    if is_typeddict(hint):
        return _typeddict_problems(value, hint, where)
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not a dict"]
        _, value_hint = get_args(hint)
        return [p for key, item in value.items() for p in problems(item, value_hint, f"{where}.{key}")]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        return [
            p
            for index, item in enumerate(value)
            for p in problems(item, get_args(hint)[0], f"{where}[{index}]")
        ]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r}, not None"]
    if hint is int and isinstance(value, bool):
        return [f"{where}: a bool, not an int"]
    return [] if isinstance(value, hint) else [f"{where}: {type(value).__name__}, not {hint.__name__}"]


def _union_problems(value: Any, hint: Any, where: str) -> list[str]:
    """None fits only the None option; any other value fits one of the others (the closest fit is reported)."""
    options = [option for option in get_args(hint) if (option is type(None)) == (value is None)]
    if not options:
        return [f"{where}: {value!r} fits none of {hint}"]
    found = [problems(value, option, where) for option in options]
    return [] if any(not each for each in found) else min(found, key=len)


def _typeddict_problems(value: Any, hint: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where}: {type(value).__name__}, not {hint.__name__}"]
    fields = get_type_hints(hint, include_extras=True)
    found = [f"{where}: key {key!r} not declared in {hint.__name__}" for key in value if key not in fields]
    # read from the resolved hints: the schema's postponed annotations hide NotRequired from __required_keys__
    required = [
        key for key, field in fields.items() if hint.__total__ and get_origin(field) is not NotRequired
    ]
    found += [f"{where}: {hint.__name__} lacks {key!r}" for key in required if key not in value]
    for key, field in fields.items():
        if key in value:
            found += problems(value[key], field, f"{where}.{key}")
    return found


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_every_state_and_view_of_a_golden_game_fits_the_schema(path: Any) -> None:
    data = json.loads(path.read_text())
    game = get_game("principes")
    state = game.setup(data["players"], data["options"], ReplayRng(data["setup_draws"]))
    seen: set[str] = set()
    for number, (seat, action, draws) in enumerate(data["records"]):
        if number % 5 == 0:  # every fifth position keeps the test short; every kind of state still shows up
            for found in problems(state, schema.PState, "state"):
                seen.add(found)
            for viewer in (None, *range(data["players"])):
                for found in problems(game.view(state, viewer), schema.PView, f"view[{viewer}]"):
                    seen.add(found)
        state = game.apply(state, seat, action, ReplayRng(draws)).state
    assert not seen, sorted(seen)[:20]


def test_the_check_finds_an_undeclared_key_a_missing_key_and_a_wrong_type() -> None:
    state: Any = get_game("principes").setup(2, {}, Rng.for_event(1, 0))
    state["players"]["PMA"]["gold"] = "5"
    state["lands"]["gnesna"]["moat"] = True
    del state["play"]["battles"]
    found = problems(state, schema.PState, "state")
    assert "state.players.PMA.gold: str, not int" in found
    assert "state.lands.gnesna: key 'moat' not declared in LandState" in found
    assert "state.play: Play lacks 'battles'" in found
