"""One owner of SQL: every statement the bot runs lives in ``bot/storage``; the rest of ``bot/`` calls the named
methods there (issue #44). This test reads the source of every other module and fails listing each place that
holds SQL text or calls the database directly."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"
STORAGE = BOT / "storage"
#: a string literal holding a statement starts with one of these keywords (upper case, as the code writes SQL)
SQL_START = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|WITH|CREATE|ALTER|DROP|PRAGMA|BEGIN)\b")
#: calls that run SQL on a connection, a database or the store
DATABASE_CALLS = frozenset({"execute", "executemany", "execute_alone", "fetchone", "fetchall", "fetchval"})


def sql_sites(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, what) for each SQL literal and each database call in a module. The pieces of an f-string are
    string constants too, so ``f"UPDATE {table} ..."`` is found by its first piece."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_START.match(node.value):
            yield node.lineno, f"SQL text {node.value.strip()[:50]!r}"
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in DATABASE_CALLS
        ):
            yield node.lineno, f"database call .{node.func.attr}()"


def modules_outside_storage() -> list[Path]:
    return sorted(path for path in BOT.rglob("*.py") if STORAGE not in path.parents)


def test_the_scanner_finds_sql_text_and_database_calls() -> None:
    source = (
        'async def f(db):\n    row = await db.fetchone("SELECT x FROM t WHERE id = ?", (1,))\n'
        '    label = "Select a move"\n    sql = f"UPDATE {table} SET a = 1"\n'
    )
    found = sorted(sql_sites(ast.parse(source)))
    assert [line for line, _ in found] == [2, 2, 4]
    assert any("fetchone" in what for _, what in found)


def test_no_sql_outside_storage() -> None:
    hits = [
        f"{path.relative_to(BOT.parent)}:{line}: {what}"
        for path in modules_outside_storage()
        for line, what in sorted(set(sql_sites(ast.parse(path.read_text(encoding="utf-8")))))
    ]
    assert not hits, "SQL outside bot/storage (move it into a repository method):\n" + "\n".join(hits)
