-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- Players: a display name and the hash of the player's key (the key itself is never
-- stored); the Weng-Lin rating (mu, sigma) and how many rated games it counts.
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    rating DOUBLE PRECISION NOT NULL,
    uncertainty DOUBLE PRECISION NOT NULL,
    rated_games BIGINT NOT NULL DEFAULT 0,
    created BIGINT NOT NULL
);
CREATE INDEX players_by_rating ON players (rated_games, rating);

-- The player bound to a seat (NULL: a guest by seat token, or an AI). A human seat with an
-- empty token_hash is not taken yet: free when player is NULL, offered to that player
-- (a rematch) otherwise.
ALTER TABLE seats ADD COLUMN player TEXT;
CREATE INDEX seats_by_player ON seats (player);

-- Games made through the lobby (seeks, quick play, rematches): public, maybe rated.
-- fill_at: quick play, when the seats still free get the AI at fill_level (0: never).
-- rating_state: 'none' (unrated or aborted), 'pending' (rated, not yet counted), 'done'.
CREATE TABLE lobby_games (
    game TEXT PRIMARY KEY,
    rated BIGINT NOT NULL,
    quick BIGINT NOT NULL,
    fill_at BIGINT NOT NULL,
    fill_level BIGINT NOT NULL,
    rematch_of TEXT NOT NULL,
    rematch TEXT NOT NULL,
    rating_state TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX lobby_games_by_fill ON lobby_games (fill_at);
CREATE INDEX lobby_games_by_rating_state ON lobby_games (rating_state);

-- Each rated game's effect on each player's rating.
CREATE TABLE rating_changes (
    game TEXT NOT NULL,
    seat BIGINT NOT NULL,
    player TEXT NOT NULL,
    place BIGINT NOT NULL,
    before_rating DOUBLE PRECISION NOT NULL,
    after_rating DOUBLE PRECISION NOT NULL,
    before_uncertainty DOUBLE PRECISION NOT NULL,
    after_uncertainty DOUBLE PRECISION NOT NULL,
    created BIGINT NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player, created);

-- One row whose update serialises quick play (find a waiting game or make one) across
-- instances, so that two players asking at once meet instead of each opening a game.
CREATE TABLE lobby_lock (
    id BIGINT PRIMARY KEY,
    n BIGINT NOT NULL
);
INSERT INTO lobby_lock (id, n) VALUES (1, 0);
