# Princes' Table. Everything runs from a local virtual environment that these targets create.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-pg console selfplay bench lint format typecheck clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip
	@$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

## run: start the bot (needs DISCORD_TOKEN in .env; without it, the console in a terminal)
run: $(STAMP)
	@$(PY) -m bot

## test: the whole suite, lint and type checks (the tests on every core: TEST_JOBS=1 runs them in one process)
TEST_JOBS ?= auto
test: $(STAMP)
	@$(PY) -m ruff check .
	@$(PY) -m ruff format --check --quiet .
	@$(PY) -m mypy
	@$(PY) -m pytest -n $(TEST_JOBS) --dist worksteal --durations=15

## test-pg: the storage and host suites and the two-shard test against a throw-away PostgreSQL cluster (needs `apt-get install postgresql`)
test-pg: $(STAMP)
	@dir=$$(mktemp -d); trap 'scripts/pg_test_cluster.sh stop "'"$$dir"'"' EXIT; \
	url=$$(scripts/pg_test_cluster.sh start "$$dir") && \
	PRINCES_TEST_PG_URL=$$url $(PY) -m pytest -n $(TEST_JOBS) --dist worksteal tests/storage tests/host tests/e2e/test_shards.py

## console: play in this terminal with several local players
console: $(STAMP)
	@$(PY) -m bot console

## selfplay: 200 Babylone games between the AI levels (GAME=... ARGS=... for others)
GAME ?= babylone
ARGS ?= --games 200
selfplay: $(STAMP)
	@$(PY) -m bot selfplay $(GAME) $(ARGS) --json

## bench: latency and throughput benchmarks with their floors
bench: $(STAMP)
	@$(PY) -m bench

lint: $(STAMP)
	@$(PY) -m ruff check .
	@$(PY) -m ruff format --check .

format: $(STAMP)
	@$(PY) -m ruff format .
	@$(PY) -m ruff check --fix .

typecheck: $(STAMP)
	@$(PY) -m mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
