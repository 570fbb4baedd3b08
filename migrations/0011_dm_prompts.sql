-- Issue 47: each decision prompt sent by DM (game, seat, decision), while its decision is open. When the decision
-- closes, however it closed (the player, a standing order, an answer given ahead, the automatic pass, a deadline,
-- an AI stand-in, an undo, a pause or the game's end), the row goes and the DM is edited: its buttons come off
-- (bot/hosting/core.py, HostCore._close_dm_prompts; the DM message itself is remembered in `messages`).
CREATE TABLE dm_prompts (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    decision_id TEXT NOT NULL,
    PRIMARY KEY (game_id, seat, decision_id)
);
