-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- A game made from a position (POST /api/v1/games with `moves`; service.rs): from_moves,
-- the moves it was given at its creation, stored as its first moves (0: a game from the
-- start), and from_game, the server game whose first moves they are ('' when none was
-- named). Such a game is never rated (it is no lobby game), and a hot-seat undo never takes
-- back a move it was given.
ALTER TABLE games ADD COLUMN from_game TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN from_moves BIGINT NOT NULL DEFAULT 0;
