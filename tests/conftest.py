from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit
from uuid import uuid4

import pytest

from bot.host import Actor, Host
from rules.engine.registry import register, unregister
from tests.support.games import SealedGuess


class FakeClock:
    """An injectable clock: tests move time forward instead of sleeping."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


#: a PostgreSQL database the storage and host suites may use (they create and drop a schema of their own)
PG_URL_VARIABLE = "PRINCES_TEST_PG_URL"
PG_SKIP_REASON = (
    f"PostgreSQL tests skipped: {PG_URL_VARIABLE} is not set (scripts/pg_test_cluster.sh starts a throw-away "
    "cluster; .ci/run does it)"
)


def pg_test_url() -> str | None:
    return os.environ.get(PG_URL_VARIABLE, "").strip() or None


def _backend_notice() -> str:
    url = pg_test_url()
    if url is None:
        return PG_SKIP_REASON
    from bot.storage.postgres import redact_url

    return f"PostgreSQL tests run against {redact_url(url)} ({PG_URL_VARIABLE})"


def pytest_report_header(config: pytest.Config) -> str:
    return _backend_notice()


@dataclass
class FirstResponses:
    """Across the run: how many interactions the fake Discord saw answered, and the slowest first response. Each
    test using it reports its share as a user property (``FIRST_RESPONSES_PROPERTY``), which travels with the
    test's report: the figure adds up here, in the process that reports the run, also when the tests run in
    parallel workers (pytest-xdist)."""

    answered: int = 0
    slowest_s: float = 0.0
    slowest_test: str = ""
    slowest_what: str = ""

    def add(self, test: str, answered: int, slowest_s: float, what: str) -> None:
        self.answered += answered
        if slowest_s > self.slowest_s:
            self.slowest_s, self.slowest_test, self.slowest_what = slowest_s, test, what


FIRST_RESPONSES = FirstResponses()
FIRST_RESPONSES_PROPERTY = "fake_discord_first_responses"


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    for name, value in report.user_properties:
        if name == FIRST_RESPONSES_PROPERTY and report.when == "teardown":
            answered, slowest_s, what = value
            FIRST_RESPONSES.add(report.nodeid, int(answered), float(slowest_s), str(what))


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    if FIRST_RESPONSES.answered:
        terminalreporter.write_sep("-", "interactions' first responses (fake Discord)")
        terminalreporter.write_line(
            f"{FIRST_RESPONSES.answered} interactions answered; slowest first response "
            f"{FIRST_RESPONSES.slowest_s * 1000:.0f} ms: {FIRST_RESPONSES.slowest_what} in "
            f"{FIRST_RESPONSES.slowest_test}"
        )
    # the header is hidden under -q (the default here): say it again at the end, next to the skip count
    terminalreporter.write_line(_backend_notice(), yellow=pg_test_url() is None)


def with_search_path(url: str, schema: str) -> str:
    """``url`` whose connections use ``schema`` (asyncpg passes unknown query parameters as server settings)."""
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query) if key != "search_path"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("search_path", schema)])))


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    """Each storage and host test runs on SQLite always and on PostgreSQL when a test cluster is configured."""
    if request.param == "postgresql" and pg_test_url() is None:
        pytest.skip(PG_SKIP_REASON)
    return str(request.param)


@pytest.fixture
async def database(backend: str, tmp_path) -> AsyncIterator[str]:
    """An empty database a test may open, close and open again: an SQLite file, or a PostgreSQL schema of its
    own (dropped afterwards), so tests never see each other's rows."""
    if backend == "sqlite":
        yield str(tmp_path / "test.sqlite3")
        return
    import asyncpg

    url = pg_test_url()
    assert url is not None
    schema = f"test_{uuid4().hex[:16]}"
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        yield with_search_path(url, schema)
    finally:
        await admin.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        await admin.close()


@pytest.fixture
async def host(database: str, clock) -> AsyncIterator[Host]:
    opened = await Host.open(database, clock=clock)
    yield opened
    await opened.close()


@pytest.fixture
def sealed_game():
    game = SealedGuess()
    register(game)
    yield game
    unregister(game.key)


ALICE = Actor("100", "alice")
BOB = Actor("200", "bob")
CAROL = Actor("300", "carol")
MOD = Actor("900", "moderator", can_manage=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that play whole games (``whole_game``) first: the run's parallel workers (pytest-xdist hands
    tests out in order) then start the longest ones at once instead of finishing on one of them alone."""
    items.sort(key=lambda item: item.get_closest_marker("whole_game") is None)
