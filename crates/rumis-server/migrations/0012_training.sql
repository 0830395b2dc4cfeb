-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- The game's puzzles (the files of puzzles/, built into the server; service/training.rs):
-- their ratings and the players' attempts. Glicko-2 ratings (rating, deviation,
-- volatility), as lichess rates puzzles: each rated attempt is a game between the player
-- and the puzzle.

-- A player's puzzle rating, kept with their key's player; attempts: rated attempts.
CREATE TABLE training_ratings (
    player TEXT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

-- A puzzle's rating now, from its first rated attempt on (before: the file's starting
-- values); attempts and solves: rated attempts and how many of them found the best.
CREATE TABLE training_puzzles (
    id TEXT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    solves BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

-- A player's attempts at a puzzle: the first one (its placement, whether it solved the
-- puzzle, the ratings before and after; it alone is rated) and how many there were in all.
-- The primary key makes one first attempt: of two sent at once, one is first.
CREATE TABLE training_attempts (
    player TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    placement TEXT NOT NULL,
    solved BIGINT NOT NULL,
    before_rating DOUBLE PRECISION NOT NULL,
    after_rating DOUBLE PRECISION NOT NULL,
    tries BIGINT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    PRIMARY KEY (player, puzzle)
);
