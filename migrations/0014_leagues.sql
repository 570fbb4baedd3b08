-- Issue 45: leagues. A league is a season of one game in one server channel: sign-up, rounds of games paired by
-- bot/leagues/pairing.py, each game in its own thread. Everything is here so a restart resumes where it stopped;
-- the league's SQL lives in bot/storage/leagues.py.

CREATE TABLE leagues (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         TEXT NOT NULL,
    channel_id       TEXT NOT NULL,                -- where sign-up happens and where the round threads open
    name             TEXT NOT NULL,
    kind             TEXT NOT NULL,                -- game key
    format           TEXT NOT NULL,                -- swiss | round-robin | elimination | divisions
    rounds           INTEGER NOT NULL,
    pod              INTEGER NOT NULL,             -- players per table
    deadline_seconds INTEGER NOT NULL,
    options          TEXT NOT NULL DEFAULT '{}',   -- JSON, the game and table options every table gets
    status           TEXT NOT NULL,                -- signup | running | finished | cancelled
    round            INTEGER NOT NULL DEFAULT 0,   -- the round being played (0 before the start)
    creator_id       TEXT NOT NULL,
    parent_id        INTEGER REFERENCES leagues(id), -- divisions: the league they divide (or the last season)
    season           INTEGER NOT NULL DEFAULT 1,
    division         INTEGER,                      -- 1 is the top division
    created_at       REAL NOT NULL
);
CREATE INDEX leagues_channel ON leagues(channel_id);
CREATE INDEX leagues_status ON leagues(status);

CREATE TABLE league_entrants (
    league_id     INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL,
    name          TEXT NOT NULL,
    joined        INTEGER NOT NULL,                -- sign-up order, 1 first
    dropped       INTEGER NOT NULL DEFAULT 0,
    drop_reason   TEXT,                            -- withdrew | removed | deadlines
    dropped_round INTEGER,
    PRIMARY KEY (league_id, user_id)
);

-- One row per game of a round. step: paired -> thread (its thread opened) -> created (its game exists) ->
-- started -> finished; each step is recorded once done, so a restart resumes each table where it stopped.
CREATE TABLE league_tables (
    league_id  INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    round      INTEGER NOT NULL,
    table_no   INTEGER NOT NULL,                   -- 1-based within the round
    seats      TEXT NOT NULL,                      -- JSON list of user ids in seat order
    step       TEXT NOT NULL DEFAULT 'paired',
    thread_id  TEXT,
    game_id    INTEGER,
    points     TEXT,                               -- JSON list of league points by seat, once finished
    forfeit    INTEGER NOT NULL DEFAULT 0,         -- ended or scored by a withdrawal or a drop
    PRIMARY KEY (league_id, round, table_no)
);
CREATE UNIQUE INDEX league_tables_game ON league_tables(game_id) WHERE game_id IS NOT NULL;

CREATE TABLE league_byes (
    league_id INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    round     INTEGER NOT NULL,
    user_id   TEXT NOT NULL,
    points    REAL NOT NULL,
    PRIMARY KEY (league_id, round, user_id)
);

-- Work a league's loop does (open a round's tables, pair the next round), claimed like timers: claimed_by names
-- the process, claimed_until ends its lease, so two processes never do one task at once and a crashed
-- process's task is taken over when its lease ends. A task row is deleted once its work is done.
CREATE TABLE league_tasks (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    league_id     INTEGER NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
    kind          TEXT NOT NULL,                   -- open (a round's tables) | advance (score, pair the next)
    round         INTEGER NOT NULL,
    due           REAL NOT NULL,
    claimed_by    TEXT,
    claimed_until REAL,
    UNIQUE (league_id, kind, round)
);
CREATE INDEX league_tasks_due ON league_tasks(due);
