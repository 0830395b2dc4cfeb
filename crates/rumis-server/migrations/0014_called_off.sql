-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- called_off: why an aborted game was called off ('aborted' by a seated player before the
-- second move, 'expired' while its creator was gone, 'rematch_declined' by a player it
-- offered a seat), so that its page says why however late it is opened; '' for any other
-- game, and for games called off before this column (their pages say "aborted").
ALTER TABLE games ADD COLUMN called_off TEXT NOT NULL DEFAULT '';
