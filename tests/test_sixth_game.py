"""A sixth game plugs in by one line (issue 44): the toy Nim of ``tests/toygame``, registered for a run by
``PRINCES_EXTRA_GAMES=nim=tests.toygame`` (``rules.engine.registry``), is picked up by the existing suites with no
other file changed. A pytest run in a subprocess selects its cases; this test lists the suites that ran it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from rules.engine.registry import EXTRA_GAMES_VARIABLE

ROOT = Path(__file__).resolve().parents[1]
#: the one registration line
REGISTRATION = "nim=tests.toygame"
#: the suites a new game must be played by: (test module, test name's start or "" for any test of it)
SUITES = {
    "conformance": ("tests.rules.test_conformance", ""),
    "views and secrets": (
        "tests.rules.test_conformance",
        "test_every_legal_action_applies_and_views_keep_secrets",
    ),
    "golden log": ("tests.golden.test_golden", ""),
    "verify": ("tests.host.test_verify", ""),
    "export/import": ("tests.host.test_export_import", ""),
    "replay": ("tests.render.test_replay", ""),
    "digest": ("tests.host.test_digest", ""),
    "ratings and stats": ("tests.host.test_ratings", ""),
    "a game through the fake Discord": ("tests.e2e.test_every_game", ""),
    "pace bench": ("tests.bench.test_pace_bench", ""),
    "alt text": ("tests.render.test_alt_text", ""),
}
#: the directories whose suites serve every game
DIRECTORIES = (
    "tests/rules",
    "tests/golden",
    "tests/host",
    "tests/render",
    "tests/e2e",
    "tests/bench",
    "tests/security",
)
#: a test case of Nim: its parameters name the game ("[nim]", "[nim-2p]", "[sqlite-nim]")
NIM_CASE = re.compile(r"[\[-]nim[\]-]")


@pytest.mark.whole_game
def test_a_toy_sixth_game_registered_by_one_line_is_played_by_the_existing_suites(tmp_path: Path) -> None:
    report = tmp_path / "nim.xml"
    env = {**os.environ, EXTRA_GAMES_VARIABLE: REGISTRATION}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:cacheprovider",
            "-k",
            "nim",
            f"--junitxml={report}",
            *DIRECTORIES,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    cases = [
        (case.get("classname", ""), case.get("name", ""), [child.tag for child in case])
        for case in ElementTree.parse(report).iter("testcase")
        if NIM_CASE.search(case.get("name", ""))
    ]
    failed = [f"{module}::{name}" for module, name, outcome in cases if {"failure", "error"} & set(outcome)]
    assert not failed, f"Nim failed in {failed}:\n{run.stdout[-3000:]}"
    ran = {module for module, _name, outcome in cases if "skipped" not in outcome}
    passed = {(module, name) for module, name, outcome in cases if "skipped" not in outcome}
    suites = {
        suite: module
        for suite, (module, test) in SUITES.items()
        if any(ran_module == module and name.startswith(test) for ran_module, name in passed)
    }
    print(f"\nNim ({REGISTRATION}) ran in {len(passed)} tests of {len(ran)} modules:")
    for module in sorted(ran):
        print(f"  {module}: {sum(1 for ran_module, _name in passed if ran_module == module)}")
    print("suites: " + ", ".join(suites))
    assert set(suites) == set(SUITES), f"not run by {sorted(set(SUITES) - set(suites))}"
