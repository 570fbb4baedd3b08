-- Seeds become text. A new game's seed is 256 bits from `secrets`, written as 64 hexadecimal digits (see
-- rules/engine/rng.py): no 64-bit INTEGER (SQLite) or BIGINT (PostgreSQL) holds it. A stored game keeps its
-- 48-bit integer seed, now as its decimal digits, and with it the derivation it was played with: the form of the
-- text tells the two apart (decimal digits: sha256-mt19937; 64 hexadecimal digits: hmac-sha256).
-- SQLite cannot change a column's type, so the column is rebuilt under the same name on both backends.
ALTER TABLE games ADD COLUMN seed_text TEXT NOT NULL DEFAULT '';
UPDATE games SET seed_text = CAST(seed AS TEXT);
ALTER TABLE games DROP COLUMN seed;
ALTER TABLE games RENAME COLUMN seed_text TO seed;

-- An imported game gets a new id, but its sealed commits name the id it was played under (sha256 of
-- nonce|game|decision|seat|action): kept here so the game still verifies. NULL for a game played here.
ALTER TABLE games ADD COLUMN origin_id INTEGER;
