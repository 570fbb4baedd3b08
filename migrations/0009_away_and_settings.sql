-- Away mode (/away): a player's away periods, across every game on every server. While a period runs the AI
-- plays each of their seats (seats.vacation = 1 marks the seats it took, so /away off gives back those alone);
-- the periods of a calendar year count against the yearly allowance.
CREATE TABLE away_periods (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL,
    starts  REAL NOT NULL,
    ends    REAL NOT NULL                         -- set to the moment of /away off when the player returns early
);
CREATE INDEX away_periods_user ON away_periods(user_id);

ALTER TABLE seats ADD COLUMN vacation INTEGER NOT NULL DEFAULT 0;

-- Per-server settings a server admin changes (away_days: the yearly away allowance).
CREATE TABLE guild_settings (
    guild_id TEXT NOT NULL,
    key      TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (guild_id, key)
);
