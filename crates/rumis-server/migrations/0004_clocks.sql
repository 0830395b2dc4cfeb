-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- Clocks (src/clock.rs). clock_kind '' means an untimed game. The rule: clock_initial_ms
-- and clock_increment_ms (real-time), clock_per_move_ms (correspondence), on_timeout
-- ('out' or 'ai') with timeout_level. The state: clock_running (the seat whose time runs,
-- -1 for none) since clock_since; each seat's time left in seats.remaining_ms. due: when
-- the running seat's time runs out (NULL when no time runs), indexed for the timeout task,
-- which claims due games in the database so that a timeout fires once, after a restart
-- too, with any number of instances.
ALTER TABLE games ADD COLUMN clock_kind TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN clock_initial_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_increment_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_per_move_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN on_timeout TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN timeout_level BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN clock_running BIGINT NOT NULL DEFAULT -1;
ALTER TABLE games ADD COLUMN clock_since BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN due BIGINT;
ALTER TABLE seats ADD COLUMN remaining_ms BIGINT NOT NULL DEFAULT 0;

CREATE INDEX games_by_due ON games (due);

-- Colours that left the game (resigned, or out of time), at the point they left: after
-- `after_move` moves; `seq` orders them within a game. Replayed with the moves.
CREATE TABLE retirements (
    game TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    after_move BIGINT NOT NULL,
    colour TEXT NOT NULL,
    reason TEXT NOT NULL,
    created BIGINT NOT NULL,
    UNIQUE (game, seq)
);
