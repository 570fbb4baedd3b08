"""The SQL translations of the PostgreSQL backend (no server needed) and the choice of backend."""

from __future__ import annotations

from bot.config import load_config
from bot.storage import is_database_url
from bot.storage.base import code_segments
from bot.storage.postgres import _rowcount, numbered_placeholders, postgres_ddl, redact_url


def test_placeholders_are_numbered_in_order_outside_quotes_and_comments() -> None:
    sql = "SELECT '?', \"a?\" FROM t -- why?\nWHERE x = ? AND y IN (?, ?) /* ? */ AND z = 'it''s ?'"
    assert numbered_placeholders(sql) == (
        "SELECT '?', \"a?\" FROM t -- why?\nWHERE x = $1 AND y IN ($2, $3) /* ? */ AND z = 'it''s ?'"
    )


def test_code_segments_rebuild_the_statement() -> None:
    sql = "INSERT INTO t VALUES ('a;''b', ?) -- done\n; /* unterminated"
    assert "".join(text for _code, text in code_segments(sql)) == sql
    assert [text for code, text in code_segments(sql) if code] == ["INSERT INTO t VALUES (", ", ?) ", "\n; "]


def test_migration_types_are_widened_for_postgresql() -> None:
    statement = (
        "CREATE TABLE t (\n"
        "    id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
        "    seed INTEGER NOT NULL, -- INTEGER in a comment stays\n"
        "    due REAL NOT NULL,\n"
        "    real_name TEXT DEFAULT 'REAL INTEGER'\n"
        ")"
    )
    assert postgres_ddl(statement) == (
        "CREATE TABLE t (\n"
        "    id BIGSERIAL PRIMARY KEY,\n"
        "    seed BIGINT NOT NULL, -- INTEGER in a comment stays\n"
        "    due DOUBLE PRECISION NOT NULL,\n"
        "    real_name TEXT DEFAULT 'REAL INTEGER'\n"
        ")"
    )


def test_rowcount_is_read_from_the_command_tag() -> None:
    assert [_rowcount(tag) for tag in ("UPDATE 1", "DELETE 0", "INSERT 0 3", "CREATE TABLE", "SELECT 2")] == [
        1,
        0,
        3,
        0,
        2,
    ]


def test_urls_choose_postgresql_and_passwords_are_hidden() -> None:
    assert is_database_url("postgresql://bot@db:5432/princes") and is_database_url("postgres://h/d")
    assert not is_database_url("data/princes-table.sqlite3")
    assert redact_url("postgresql://bot:secret@db:5432/princes") == "postgresql://bot:***@db:5432/princes"
    assert redact_url("postgresql://bot@db/princes") == "postgresql://bot@db/princes"


def test_database_url_setting_replaces_the_sqlite_file(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    env = tmp_path / ".env"
    env.write_text("DATABASE_PATH=data/x.sqlite3\n")
    assert load_config(env).database == "data/x.sqlite3"
    env.write_text("DATABASE_PATH=data/x.sqlite3\nDATABASE_URL=postgresql://bot:secret@db/princes\n")
    config = load_config(env)
    assert config.database == "postgresql://bot:secret@db/princes"
    assert "secret" not in repr(config)
