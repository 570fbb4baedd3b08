"""SHARD_COUNT / SHARD_IDS: which bot a process runs, its worker name, and settings that cannot work."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import SINGLE_WORKER, ConfigError, load_config

SHARD_VARIABLES = ("SHARD_COUNT", "SHARD_IDS", "WORKER_NAME", "DISCORD_TOKEN", "DATABASE_URL")


@pytest.fixture
def env_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in SHARD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return tmp_path / ".env"


def test_without_shard_settings_one_plain_process(env_file: Path) -> None:
    env_file.write_text("DISCORD_TOKEN=x\n")
    config = load_config(env_file)
    assert not config.sharded and config.shard_ids is None and config.worker == SINGLE_WORKER
    assert config.runs_shard_zero and "shards" not in repr(config)


def test_shard_ids_name_the_worker_and_only_shard_zero_syncs(env_file: Path) -> None:
    env_file.write_text("SHARD_COUNT=4\nSHARD_IDS=2, 3\n")
    config = load_config(env_file)
    assert (config.shard_count, config.shard_ids, config.worker) == (4, (2, 3), "shards-2-3")
    assert not config.runs_shard_zero and "shards=[2, 3] of 4" in repr(config)
    env_file.write_text("SHARD_COUNT=4\nSHARD_IDS=0,1\nWORKER_NAME=eu-1\n")
    config = load_config(env_file)
    assert config.runs_shard_zero and config.worker == "eu-1"
    env_file.write_text("SHARD_COUNT=2\n")  # one process running every shard
    config = load_config(env_file)
    assert config.sharded and config.shard_ids is None and config.runs_shard_zero


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ("SHARD_IDS=0,1\n", "needs SHARD_COUNT"),
        ("SHARD_COUNT=2\nSHARD_IDS=1,2\n", r"\[2\] are not shards"),
        ("SHARD_COUNT=2\nSHARD_IDS=1,1\n", "twice"),
        ("SHARD_COUNT=2\nSHARD_IDS=one\n", "separated by commas"),
        ("SHARD_COUNT=0\n", "at least 1"),
        ("SHARD_COUNT=two\n", "whole number"),
    ],
)
def test_impossible_shard_settings_say_why(env_file: Path, settings: str, message: str) -> None:
    env_file.write_text(settings)
    with pytest.raises(ConfigError, match=message):
        load_config(env_file)


def test_the_bot_class_follows_the_shard_settings(env_file: Path) -> None:
    from bot.discord.app import PrincesBot, ShardedPrincesBot, create_bot

    env_file.write_text("DISCORD_TOKEN=x\n")
    plain = create_bot(None, load_config(env_file))  # type: ignore[arg-type]
    assert type(plain) is PrincesBot and plain.sync_on_start
    env_file.write_text("SHARD_COUNT=2\nSHARD_IDS=1\n")
    sharded = create_bot(None, load_config(env_file))  # type: ignore[arg-type]
    assert isinstance(sharded, ShardedPrincesBot)
    assert (sharded.shard_count, sharded.shard_ids, sharded.sync_on_start) == (2, [1], False)


class RacingHost:
    """A host whose start-up AI run loses races to another process twice, then finds nothing left to play."""

    def __init__(self) -> None:
        self.resume_runs = 0
        self.flushes = 0

    async def resume_all(self) -> list:
        from bot.hosting.core import StaleGame

        self.resume_runs += 1
        if self.resume_runs <= 2:
            raise StaleGame("The game changed at the same moment")
        return []

    async def pending_deliveries(self) -> list:
        self.flushes += 1
        return []


async def test_start_up_ai_turns_start_over_when_another_process_got_in_first() -> None:
    from bot.discord.app import PrincesBot

    host = RacingHost()
    bot = PrincesBot(host, sync_commands=False)  # type: ignore[arg-type]
    await bot._resume_ai_turns()
    assert host.resume_runs == 3 and host.flushes == 2  # what the lost runs stored is posted too
