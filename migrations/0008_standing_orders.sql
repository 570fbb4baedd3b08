-- Standing orders (issue 18): answers a player gives in advance, per game and topic (rules.engine.standing). The
-- host gives them for the player, as a click, when a decision of the topic arises. "ask" (the default) is no row.
-- Only the owner ever sees them: no view, delivery or export shows them to anyone else.
CREATE TABLE standing_orders (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL,
    topic      TEXT NOT NULL,
    choice     TEXT NOT NULL,
    names      TEXT NOT NULL DEFAULT '[]',
    updated_at REAL NOT NULL,
    PRIMARY KEY (game_id, user_id, topic)
);
