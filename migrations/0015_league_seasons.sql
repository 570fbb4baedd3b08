-- Issue 45, second pass: seasons of a league, its sign-up message, its notices through the outbox, and tables
-- played by fewer seats than paired (a player dropped before the table's game existed).

-- The season before this one (``/league season`` on a finished divisions league); NULL for a first season.
ALTER TABLE leagues ADD COLUMN previous_id INTEGER REFERENCES leagues(id);
-- The sign-up message (in the league's channel), edited as players join and leave and when the league starts.
ALTER TABLE leagues ADD COLUMN signup_message_id TEXT;
-- The last round whose opening was announced in the channel: the notice is written once, with this mark.
ALTER TABLE leagues ADD COLUMN announced_round INTEGER NOT NULL DEFAULT 0;

-- A season's division for a player of the season before (promoted, relegated or kept by its final standings);
-- NULL for a newcomer, placed at the start (see bot/leagues/service.py, ``season_divisions``).
ALTER TABLE league_entrants ADD COLUMN division INTEGER;

-- The users seated in the table's game, in seat order (JSON), when fewer than the pairing's seats: a player
-- dropped before the game was made and the others played without them. NULL: the pairing's seats.
ALTER TABLE league_tables ADD COLUMN game_seats TEXT;

-- A league's notices ("round 2 is open", "the league is over") are outbox rows like the games' messages, written
-- in the league's own transaction and posted by the same sender; they belong to no game, so game_id may be NULL.
-- PostgreSQL drops the constraint in place. SQLite cannot drop a NOT NULL constraint: the table is rebuilt with
-- every row's id kept (an id is its message's nonce: a row posted just before the upgrade and again after it
-- must carry the same one), and AUTOINCREMENT's counter follows the largest id copied.
-- only postgresql
ALTER TABLE outbox ALTER COLUMN game_id DROP NOT NULL;
-- only sqlite
CREATE TABLE outbox_rebuilt (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id       INTEGER REFERENCES games(id) ON DELETE CASCADE,  -- NULL: a league notice
    payload       TEXT NOT NULL,
    created_at    REAL NOT NULL,
    sent_at       REAL,
    claimed_by    TEXT,
    claimed_until REAL
);
-- only sqlite
INSERT INTO outbox_rebuilt (id, game_id, payload, created_at, sent_at, claimed_by, claimed_until)
    SELECT id, game_id, payload, created_at, sent_at, claimed_by, claimed_until FROM outbox ORDER BY id;
-- only sqlite
DROP TABLE outbox;
-- only sqlite
ALTER TABLE outbox_rebuilt RENAME TO outbox;
-- only sqlite
CREATE INDEX outbox_unsent ON outbox(id) WHERE sent_at IS NULL;
-- only sqlite
CREATE INDEX outbox_sent ON outbox(sent_at) WHERE sent_at IS NOT NULL;
