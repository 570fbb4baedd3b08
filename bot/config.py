"""Settings from the environment and an optional ``.env`` file (KEY=value lines; the environment wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = "data/princes-table.sqlite3"


def read_env_file(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        values[key.strip()] = value.strip().strip('"').strip("'")
    return values


@dataclass(frozen=True)
class Config:
    discord_token: str | None
    database_path: str
    dev_guild_id: int | None
    image_dir: str = "out"
    #: a PostgreSQL URL (``DATABASE_URL``); when set it replaces the SQLite file ``database_path``
    database_url: str | None = None

    @property
    def database(self) -> str:
        """What ``Host.open`` gets: the PostgreSQL URL when one is configured, else the SQLite file."""
        return self.database_url or self.database_path

    def __repr__(self) -> str:  # the token and the database password must never reach a log
        token = "set" if self.discord_token else "missing"
        database = "postgresql (DATABASE_URL)" if self.database_url else repr(self.database_path)
        return f"Config(token={token}, database={database}, dev_guild_id={self.dev_guild_id})"


def load_config(env_file: Path = Path(".env")) -> Config:
    values = {**read_env_file(env_file), **os.environ}
    guild = values.get("DEV_GUILD_ID", "").strip()
    return Config(
        discord_token=values.get("DISCORD_TOKEN", "").strip() or None,
        database_path=values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE,
        dev_guild_id=int(guild) if guild.isdigit() else None,
        image_dir=values.get("IMAGE_DIR", "").strip() or "out",
        database_url=values.get("DATABASE_URL", "").strip() or None,
    )
