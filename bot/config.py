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

    def __repr__(self) -> str:  # the token must never reach a log
        token = "set" if self.discord_token else "missing"
        return f"Config(token={token}, database_path={self.database_path!r}, dev_guild_id={self.dev_guild_id})"


def load_config(env_file: Path = Path(".env")) -> Config:
    values = {**read_env_file(env_file), **os.environ}
    guild = values.get("DEV_GUILD_ID", "").strip()
    return Config(
        discord_token=values.get("DISCORD_TOKEN", "").strip() or None,
        database_path=values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE,
        dev_guild_id=int(guild) if guild.isdigit() else None,
        image_dir=values.get("IMAGE_DIR", "").strip() or "out",
    )
