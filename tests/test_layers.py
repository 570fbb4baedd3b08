"""Issue 44: what a game knows about itself lives in its own packages (``rules/<package>``, ``render/<package>.py``,
``forms/<package>.py``, its catalog ``rules/<package>/locales``), behind the engine contract; the host, the bot
and the shared catalogs name no game. And the layers import downward only: ``rules`` nothing above it, ``render``
and ``forms`` neither the bot nor each other, ``forms`` never Discord.

The names looked for come from the registry (every built-in game's key and package name, in both spellings, and
its title), so a game added later is covered too. Comments and docstrings count: an example naming a game is
game knowledge in the wrong place. The grep reads every file under ``bot/`` and ``i18n/`` (names and contents);
the per-game catalogs are not there (they live in ``rules/<package>/locales``), so the shared catalogs under
``i18n/locales`` are read too.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.engine import get_game
from rules.engine.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
#: the folders that must not name a game
GAME_FREE = ("bot", "i18n")
#: files whose bytes are not text (none are expected; listed so a new one is a decision, not an accident)
SKIPPED_SUFFIXES = (".pyc",)

#: known exceptions, as (file relative to the root, the line's text as a regex): each needs its reason here. None
#: is left: the shared catalogs' board words are sorted into each game's domain, ``/ahead``'s refusal names no game
#: and each game's glossary lives in its domain (``rules/<package>/locales/glossary``).
KNOWN: tuple[tuple[str, str], ...] = ()


def game_names() -> list[str]:
    """Every spelling that names a built-in game: its key and package name (``-`` and ``_`` alike), its title."""
    names: set[str] = set()
    for key, package in GAMES.items():
        for name in (key, package):
            names |= {name, name.replace("-", "_"), name.replace("_", "-")}
        names.add(get_game(key).title)
    return sorted(names, key=len, reverse=True)


def name_pattern(names: list[str]) -> re.Pattern[str]:
    """Keys and package names in any case (``PRINCIPES`` is the key written as a title); a title of several words
    as written (``Game of Princes``), since in lower case its words are ordinary English (``a game of Princes'
    Table``, ``the Prince``)."""
    keys = [re.escape(name) for name in names if " " not in name]
    titles = [re.escape(name) for name in names if " " in name]
    any_case = rf"(?i:\b(?:{'|'.join(keys)})\b)"
    return re.compile("|".join([any_case, *(rf"\b{title}\b" for title in titles)]))


def files_under(folders: tuple[str, ...]) -> Iterator[Path]:
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in SKIPPED_SUFFIXES:
                yield path


def known(relative: str, line: str) -> bool:
    return any(relative == where and re.search(text, line) for where, text in KNOWN)


def game_names_in(folders: tuple[str, ...]) -> list[str]:
    """``file:line: text`` of every place that names a game, known exceptions left out."""
    pattern = name_pattern(game_names())
    hits = []
    for path in files_under(folders):
        relative = path.relative_to(ROOT).as_posix()
        if pattern.search(relative):
            hits.append(f"{relative}: the file's name")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and not known(relative, line):
                hits.append(f"{relative}:{number}: {line.strip()}")
    return hits


def test_the_bot_and_the_shared_catalogs_name_no_game() -> None:
    hits = game_names_in(GAME_FREE)
    assert not hits, "game knowledge outside the game's packages:\n" + "\n".join(hits)


def test_the_grep_finds_each_spelling_of_a_game() -> None:
    """The pattern itself: keys, package names and titles found, ordinary English words not."""
    pattern = name_pattern(game_names())
    for text in (
        "PRINCIPES' rules",
        "game-of-princes",
        "rules/the_prince",
        "The Prince's forms",
        "a Pharaoh",
    ):
        assert pattern.search(text), text
    for text in ("a game of Princes' Table", "moved the Prince", "principles", "princes-table"):
        assert not pattern.search(text), text


def test_every_known_exception_is_still_needed() -> None:
    """An exception whose line is gone is removed from ``KNOWN``, so it cannot hide a later one."""
    pattern = name_pattern(game_names())
    for where, text in KNOWN:
        lines = (ROOT / where).read_text(encoding="utf-8").splitlines()
        assert any(re.search(text, line) and pattern.search(line) for line in lines), (where, text)


# ---------------------------------------------------------------------------------------------- imports
def imported_modules(path: Path) -> Iterator[str]:
    """Every module a file imports, at any level (relative imports resolved within its package)."""
    package = path.relative_to(ROOT).with_suffix("").parts[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            yield ".".join([*base, node.module or ""]).strip(".")


#: package -> the top-level packages (of this project, and Discord) it must never import
FORBIDDEN_IMPORTS = {
    "rules": ("render", "forms", "bot", "i18n", "discord"),
    "render": ("bot", "forms", "discord"),
    "forms": ("bot", "render", "discord"),
}


@pytest.mark.parametrize("package", sorted(FORBIDDEN_IMPORTS))
def test_the_layers_import_downward_only(package: str) -> None:
    forbidden = FORBIDDEN_IMPORTS[package]
    wrong = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for module in imported_modules(path)
        if module.split(".")[0] in forbidden
    ]
    assert not wrong, wrong
