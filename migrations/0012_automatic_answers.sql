-- Issue 47: the decisions a player's standing order or answer given ahead answered for them. The event stays the
-- player's own click (undo, the log, exports and replays show it as theirs); only /game status' time to finish
-- reads this, to count such an answer as automatic (no wait) as it does the AI's, the automatic pass's and a
-- deadline's default, which the event's actor names.
CREATE TABLE automatic_answers (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    decision_id TEXT NOT NULL,
    seat        INTEGER NOT NULL,
    PRIMARY KEY (game_id, decision_id, seat)
);
