-- Offers after a missed deadline ("claim the game, keep waiting, or hand the seat to the AI"). Each offer has an
-- unguessable id that its buttons carry; it is valid only while its row exists, and the row is deleted (and the
-- offer's buttons taken off) as soon as the late seat's turn changes, the game is paused, resumed or undone, or
-- the seat gets a new deadline. An old button can therefore never end, or hand to the AI, a live turn.
CREATE TABLE offers (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    offer_id    TEXT NOT NULL,
    seat        INTEGER NOT NULL,
    decision_id TEXT NOT NULL,
    created_at  REAL NOT NULL,
    PRIMARY KEY (game_id, offer_id)
);

-- Open lobbies per creator are capped (Host.create_game): this index counts them.
CREATE INDEX games_open_lobbies ON games(creator_id) WHERE status = 'lobby';
