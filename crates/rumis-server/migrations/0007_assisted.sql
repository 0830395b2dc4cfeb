-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- A rated game against the AI alone in which a hint was asked for (fair play, rules §5.1's
-- neighbour in docs/server-api.md): hints stay allowed there, and the game is marked as
-- assisted on its table and its players' pages. 1: assisted.
ALTER TABLE lobby_games ADD COLUMN assisted BIGINT NOT NULL DEFAULT 0;
