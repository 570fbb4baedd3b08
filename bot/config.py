"""Settings from the environment and an optional ``.env`` file (KEY=value lines; the environment wins)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = "data/princes-table.sqlite3"
#: the worker name of a process that runs every shard itself (see ``Config.worker``)
SINGLE_WORKER = "main"
#: heavy commands (``bot.discord.common``'s acknowledgement policy): a burst per user and family...
HEAVY_BURST = 3
#: ...then one more per this many seconds...
HEAVY_EVERY_S = 10.0
#: ...and at most this many running at once over all users (the reference machine has 2 cores)
HEAVY_AT_ONCE = 2


class ConfigError(ValueError):
    """A setting that cannot work, with a sentence saying which and why."""


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``"0,1"`` -> ``(0, 1)``; ranges are written out (``0,1,2``)."""
    try:
        ids = tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    except ValueError:
        raise ConfigError(
            f"SHARD_IDS must be shard numbers separated by commas, like 0,1 (got {text!r})"
        ) from None
    if len(set(ids)) != len(ids):
        raise ConfigError(f"SHARD_IDS names a shard twice: {text!r}")
    return ids


def check_shards(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> None:
    """discord.py needs the total count with explicit ids, and every id must be one of the count's shards."""
    if shard_count is not None and shard_count < 1:
        raise ConfigError(f"SHARD_COUNT must be at least 1 (got {shard_count})")
    if shard_ids is None:
        return
    if shard_count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT, the number of shards of all processes together")
    if not shard_ids:
        raise ConfigError("SHARD_IDS is empty: name the shards this process runs, like 0,1")
    wrong = [shard for shard in shard_ids if not 0 <= shard < shard_count]
    if wrong:
        raise ConfigError(
            f"SHARD_IDS {wrong} are not shards of SHARD_COUNT={shard_count} (0 to {shard_count - 1})"
        )


def _optional_int(values: dict[str, str], key: str) -> int | None:
    text = values.get(key, "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise ConfigError(f"{key} must be a whole number (got {text!r})")
    return int(text)


def _number(values: dict[str, str], key: str, default: float) -> float:
    text = values.get(key, "").strip()
    if not text:
        return default
    try:
        number = float(text)
    except ValueError:
        number = -1.0
    if not number >= 0:  # NaN too
        raise ConfigError(f"{key} must be a number, 0 or more (got {text!r})")
    return number


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
    #: gateway shards of all processes together (``SHARD_COUNT``); None: one process, Discord's default
    shard_count: int | None = None
    #: the shards this process runs (``SHARD_IDS``); None with a count: all of them
    shard_ids: tuple[int, ...] | None = None
    #: overrides the worker name derived from the shards (``WORKER_NAME``)
    worker_name: str | None = None
    #: heavy commands a user may ask in a burst, per family (``HEAVY_BURST``; 0: no cooldown)
    heavy_burst: int = HEAVY_BURST
    #: then one more per this many seconds (``HEAVY_EVERY_S``)
    heavy_every_s: float = HEAVY_EVERY_S
    #: heavy commands running at once over all users (``HEAVY_AT_ONCE``; 0: no cap)
    heavy_at_once: int = HEAVY_AT_ONCE

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def worker(self) -> str:
        """This process's name in the database's claims on timers and outbox rows. It must differ between
        processes running at the same time and stay the same across a restart (so a restarted process takes
        back its own claims at once): the shard ids give exactly that."""
        if self.worker_name:
            return self.worker_name
        if self.shard_ids is not None:
            return "shards-" + "-".join(str(shard) for shard in self.shard_ids)
        return SINGLE_WORKER

    @property
    def runs_shard_zero(self) -> bool:
        """Discord sends DMs and DM interactions to shard 0 only; the process running it also syncs commands."""
        return self.shard_ids is None or 0 in self.shard_ids

    @property
    def database(self) -> str:
        """What ``Host.open`` gets: the PostgreSQL URL when one is configured, else the SQLite file."""
        return self.database_url or self.database_path

    def __repr__(self) -> str:  # the token and the database password must never reach a log
        token = "set" if self.discord_token else "missing"
        database = "postgresql (DATABASE_URL)" if self.database_url else repr(self.database_path)
        shards = (
            f", shards={list(self.shard_ids) if self.shard_ids is not None else 'all'} of {self.shard_count}"
            if self.sharded
            else ""
        )
        return f"Config(token={token}, database={database}, dev_guild_id={self.dev_guild_id}{shards})"


def load_config(env_file: Path = Path(".env")) -> Config:
    values = {**read_env_file(env_file), **os.environ}
    guild = values.get("DEV_GUILD_ID", "").strip()
    shard_count = _optional_int(values, "SHARD_COUNT")
    ids_text = values.get("SHARD_IDS", "").strip()
    shard_ids = parse_shard_ids(ids_text) if ids_text else None
    check_shards(shard_count, shard_ids)
    return Config(
        discord_token=values.get("DISCORD_TOKEN", "").strip() or None,
        database_path=values.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE,
        dev_guild_id=int(guild) if guild.isdigit() else None,
        image_dir=values.get("IMAGE_DIR", "").strip() or "out",
        database_url=values.get("DATABASE_URL", "").strip() or None,
        shard_count=shard_count,
        shard_ids=shard_ids,
        worker_name=values.get("WORKER_NAME", "").strip() or None,
        heavy_burst=int(_number(values, "HEAVY_BURST", HEAVY_BURST)),
        heavy_every_s=_number(values, "HEAVY_EVERY_S", HEAVY_EVERY_S),
        heavy_at_once=int(_number(values, "HEAVY_AT_ONCE", HEAVY_AT_ONCE)),
    )
