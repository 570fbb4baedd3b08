-- Princes' Table: the first schema. Each migration runs once, in one transaction, recorded in schema_version.

CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         TEXT,
    channel_id       TEXT NOT NULL,
    kind             TEXT NOT NULL,               -- game key: babylone, pharaoh, ...
    status           TEXT NOT NULL,               -- lobby | active | paused | finished | abandoned
    options          TEXT NOT NULL DEFAULT '{}',  -- JSON, resolved lobby options
    seed             INTEGER NOT NULL,
    version          INTEGER NOT NULL DEFAULT 0,  -- bumped by every stored change; guards concurrent writers
    rules_version    INTEGER NOT NULL DEFAULT 1,
    num_players      INTEGER,
    creator_id       TEXT NOT NULL,
    deadline_seconds INTEGER NOT NULL DEFAULT 86400,
    window_seconds   INTEGER NOT NULL DEFAULT 7200,
    result           TEXT,                        -- JSON {winners, draw, reason} once over
    paused_reason    TEXT,
    created_at       REAL NOT NULL,
    updated_at       REAL NOT NULL
);
-- one active game per channel
CREATE UNIQUE INDEX games_active_channel ON games(channel_id) WHERE status IN ('lobby', 'active', 'paused');
CREATE INDEX games_status ON games(status);

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,                   -- 0-based; lobby order until start, play order after
    user_id   TEXT,                               -- NULL for an AI seat
    name      TEXT NOT NULL,
    ai_level  TEXT,                               -- set for AI seats, and while an absent player's seat is played
    away      INTEGER NOT NULL DEFAULT 0,         -- 1 while the AI stands in after missed deadlines
    missed    INTEGER NOT NULL DEFAULT 0,         -- deadlines missed in a row
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats(user_id);

CREATE TABLE events (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,                  -- 0 is the setup
    seat       INTEGER,                           -- NULL for the setup
    action     TEXT NOT NULL,                     -- canonical notation ('setup' for seq 0)
    draws      TEXT NOT NULL DEFAULT '[]',        -- JSON list of chance results this event used
    user_id    TEXT,                              -- who acted: the player, 'ai:<level>' or 'deadline'
    log        TEXT NOT NULL DEFAULT '[]',        -- JSON list of [kind, text] public log lines
    undone     INTEGER NOT NULL DEFAULT 0,        -- taken back by /undo; replay skips it
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,                     -- state after this event
    state   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE sealed (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    decision_id TEXT NOT NULL,
    seat        INTEGER NOT NULL,
    action      TEXT NOT NULL,
    nonce       TEXT NOT NULL,
    commit_hash TEXT NOT NULL,                    -- sha256(nonce|game|decision|seat|action)
    applied     INTEGER NOT NULL DEFAULT 0,
    created_at  REAL NOT NULL,
    PRIMARY KEY (game_id, decision_id, seat)
);

CREATE TABLE timers (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,                    -- reminder | deadline
    seat        INTEGER,
    decision_id TEXT,
    due         REAL NOT NULL,
    payload     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX timers_due ON timers(due);

CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    payload    TEXT NOT NULL,                     -- JSON of a Delivery (text, view to render, prompt, ...)
    created_at REAL NOT NULL,
    sent_at    REAL
);
CREATE INDEX outbox_unsent ON outbox(id) WHERE sent_at IS NULL;

CREATE TABLE messages (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL,                     -- lobby | status | turn | dm:<seat> ...
    channel_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (game_id, purpose)
);

CREATE TABLE votes (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    kind    TEXT NOT NULL,                        -- abandon | pause | resume | draw
    user_id TEXT NOT NULL,
    PRIMARY KEY (game_id, kind, user_id)
);

CREATE TABLE user_settings (
    user_id TEXT NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (user_id, key)
);
