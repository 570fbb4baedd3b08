-- Results, ratings and the table options that decide them (bot/ratings.py).
--
-- A game's result is recorded in the transaction that finishes it: one `results` row, one `result_seats` row per
-- seat and, for a rated game, the new ratings of its players. `number` orders the results as they were recorded
-- (the `rating_clock` row hands the numbers out and, being locked by the UPDATE that takes one, serialises
-- finishing games on PostgreSQL), so a rebuild that applies them in that order gives the same ratings.

-- Table options (like `window`, not rules): rated=yes|no and replay=yes|no at /game new.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN post_replay INTEGER NOT NULL DEFAULT 1;

-- Who sealed each choice (the player, `ai:<level>` or `deadline`): the choices are applied together when the last
-- seat seals, and each event must still name its own actor. NULL for choices sealed before this migration.
ALTER TABLE sealed ADD COLUMN actor TEXT;

CREATE TABLE rating_clock (
    id   INTEGER PRIMARY KEY,
    last INTEGER NOT NULL                         -- the number of the last recorded result
);
INSERT INTO rating_clock (id, last) VALUES (1, 0);

CREATE TABLE results (
    game_id        INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    number         INTEGER NOT NULL UNIQUE,       -- recording order; ratings are applied in this order
    kind           TEXT NOT NULL,
    guild_id       TEXT,
    num_players    INTEGER NOT NULL,
    draw           INTEGER NOT NULL,
    rated          INTEGER NOT NULL,
    unrated_reason TEXT,                          -- why not, for an unrated game
    finished_at    REAL NOT NULL
);
CREATE INDEX results_kind ON results(kind, number);

CREATE TABLE result_seats (
    game_id        INTEGER NOT NULL REFERENCES results(game_id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL,
    player         TEXT NOT NULL,                 -- a user id, or ai:<level> for an AI seat
    name           TEXT NOT NULL,
    side           TEXT,                          -- principality, colour or seat position played
    rank           INTEGER NOT NULL,              -- 1 for the winners (everyone on a draw), 2 for the others
    won            INTEGER NOT NULL,
    decisions      INTEGER NOT NULL,              -- decisions the player took themselves
    answer_seconds REAL NOT NULL,                 -- the time they took for those, added up
    mu_before      REAL,                          -- the rating before and after (NULL when unrated)
    sigma_before   REAL,
    mu_after       REAL,
    sigma_after    REAL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX result_seats_player ON result_seats(player);

CREATE TABLE ratings (
    kind       TEXT NOT NULL,
    player     TEXT NOT NULL,                     -- a user id, or ai:<level>
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    games      INTEGER NOT NULL,                  -- rated games
    wins       INTEGER NOT NULL,
    updated_at REAL NOT NULL,
    PRIMARY KEY (kind, player)
);
