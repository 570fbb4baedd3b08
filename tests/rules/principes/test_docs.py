"""The documents the PRINCIPES code cites live in the repository (issue 21): every "resolution N" the rules,
their notes and their tests cite is numbered in docs/principes/principes-resolutions.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[3]
RESOLUTIONS = ROOT / "docs" / "principes" / "principes-resolutions.md"
CITING = [ROOT / "rules" / "principes", ROOT / "tests" / "rules" / "principes"]
#: "resolution 12", "resolutions 28 and 53", "resolutions 35, 36 and 46", "resolutions 47-53"
CITATION = re.compile(r"[Rr]esolutions? (\d+(?:(?:, | and |-)\d+)*)")


def numbered() -> set[int]:
    return {int(match) for match in re.findall(r"^\s*(\d+)\. ", RESOLUTIONS.read_text(), flags=re.MULTILINE)}


def _numbers(text: str) -> list[int]:
    """``23, 28-30 and 46`` -> [23, 28, 29, 30, 46]."""
    numbers: list[int] = []
    for part in re.split(r", | and ", text):
        first, _, last = part.partition("-")
        numbers += range(int(first), int(last or first) + 1)
    return numbers


def cited() -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for folder in CITING:
        for path in sorted(folder.rglob("*.py")):
            for match in CITATION.finditer(path.read_text()):
                for number in _numbers(match.group(1)):
                    found.setdefault(number, []).append(path.name)
    return found


def test_the_resolutions_and_the_content_brief_are_in_the_repository() -> None:
    assert RESOLUTIONS.is_file() and (RESOLUTIONS.parent / "principes-content-brief.md").is_file()
    assert numbered() >= set(range(1, 54))


def test_every_cited_resolution_is_numbered_in_the_repository() -> None:
    missing = {number: files for number, files in cited().items() if number not in numbered()}
    assert not missing, f"cited but not in {RESOLUTIONS.relative_to(ROOT)}: {missing}"
    assert cited().keys() >= {47, 48, 49, 50, 51, 52, 53}


def test_the_code_points_to_the_repository_copies() -> None:
    for folder in (ROOT / "rules", ROOT / "bot", ROOT / "render"):
        for path in folder.rglob("*"):
            if path.suffix in (".py", ".json") and path.is_file():
                assert "/work/shared" not in path.read_text(), path
