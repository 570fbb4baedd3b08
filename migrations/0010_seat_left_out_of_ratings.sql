-- Issue 42: a seat whose decisions stand-ins took beyond their share (the AI for more than 10%, any stand-in for
-- more than 25%) is left out of a game's ratings, and the other seats are rated among themselves. NULL: the seat
-- counts whenever its game does (every result recorded before this migration); else why it was left out.
-- `python -m bot rebuild-ratings` leaves these seats out too.
ALTER TABLE result_seats ADD COLUMN unrated_reason TEXT;
