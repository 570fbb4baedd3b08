-- Issue 47: how many of the game's messages were posted below a remembered message since it was posted (the live
-- card is posted again under the newest line once it has sunk: bot/discord/sender.py, CARD_REACH). Counted when
-- the outbox row of a new message in that channel is marked sent (HostCore.mark_sent, so once), back to 0 when
-- the message is remembered anew (QueriesMixin.remember_message).
ALTER TABLE messages ADD COLUMN below INTEGER NOT NULL DEFAULT 0;
