-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- A finished game's review (service/review.rs), computed once and kept. status: 'queued',
-- 'running' or 'done'; done and total: its searches so far and known to be needed;
-- simulations: per position; review: the answer's JSON once done ('' before). asker: the
-- address that asked (its share of the AI's threads, and its cap of reviews under way).
-- holder and lease: the instance computing it and until when (ms since the epoch), pushed on
-- as it goes; a review whose lease expired (its instance stopped or died) is claimed by
-- another, or by the next start, in one conditional UPDATE, and computed again from its
-- start: never two at once, never stuck.
CREATE TABLE reviews (
    game TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    done BIGINT NOT NULL,
    total BIGINT NOT NULL,
    simulations BIGINT NOT NULL,
    review TEXT NOT NULL,
    asker TEXT NOT NULL,
    holder TEXT NOT NULL,
    lease BIGINT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE INDEX reviews_by_status ON reviews (status, lease);
