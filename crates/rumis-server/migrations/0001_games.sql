-- Portable SQL: the same text runs on SQLite and PostgreSQL.
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    board TEXT NOT NULL,
    players BIGINT NOT NULL,
    variant TEXT NOT NULL,
    colours TEXT NOT NULL,
    ruins TEXT NOT NULL,
    hot_seat BIGINT NOT NULL,
    status TEXT NOT NULL,
    to_move TEXT NOT NULL,
    move_count BIGINT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE INDEX games_by_status ON games (status, updated);

CREATE TABLE seats (
    game TEXT NOT NULL REFERENCES games (id),
    seat BIGINT NOT NULL,
    colours TEXT NOT NULL,
    kind TEXT NOT NULL,
    level BIGINT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);

CREATE TABLE moves (
    game TEXT NOT NULL REFERENCES games (id),
    number BIGINT NOT NULL,
    placement TEXT NOT NULL,
    colour TEXT NOT NULL,
    created BIGINT NOT NULL,
    UNIQUE (game, number)
);
