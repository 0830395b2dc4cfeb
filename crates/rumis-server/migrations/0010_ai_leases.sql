-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- The lease on a game's AI turn (service/ai_turns.rs), so that an AI turn survives the death
-- of the instance computing it when several instances share the database. ai_holder: the
-- instance holding it ('' for none); ai_lease: when it expires (ms since the epoch, 0 for
-- none), pushed on by the holder's heartbeat while it searches; ai_lease_moves: the game's
-- move_count when it was taken, so that a lease from an earlier position holds nothing once
-- the game moved on. Another instance claims an AI turn whose lease expired, or that nobody
-- held for a lease's length, in one conditional UPDATE (one instance wins). The takeover's
-- look goes through games_by_ai_to_move, so these need no index of their own.
ALTER TABLE games ADD COLUMN ai_holder TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN ai_lease BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN ai_lease_moves BIGINT NOT NULL DEFAULT 0;
