-- The `posts` table option of /game new (bot/hosting/core.py, POSTS_CARD): `card` keeps one live message per
-- game (status, board, the buttons of the moment), edited as the game goes, with a short line per move;
-- `every-move` posts the board after every move. Games stored before this migration keep what they had.
ALTER TABLE games ADD COLUMN posts TEXT NOT NULL DEFAULT 'every-move';
