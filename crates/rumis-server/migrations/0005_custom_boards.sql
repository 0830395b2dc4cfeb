-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- board_file: a game on a board of one's own keeps that board's file, as given and accepted
-- by the core, so the game replays after a restart ('' for a scenario, found by `board`).
-- stuck_rule: what happens to a colour that cannot place (rules §6): 'out' (the rulebooks)
-- or 'pass' (the house rule).
ALTER TABLE games ADD COLUMN board_file TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN stuck_rule TEXT NOT NULL DEFAULT 'out';
