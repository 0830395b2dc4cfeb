-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- ai_to_move: 1 while an AI seat is to move in an open game, so that a restart resumes
-- exactly those games without reading every open one. humans: the number of human seats
-- (0: an AI-only game, limited per creator). creator: the address that created the game.
ALTER TABLE games ADD COLUMN ai_to_move BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN humans BIGINT NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN creator TEXT NOT NULL DEFAULT '';

UPDATE games SET humans = (SELECT COUNT(*) FROM seats WHERE seats.game = games.id AND seats.kind = 'human');
UPDATE games SET ai_to_move = 1 WHERE status = 'open' AND to_move <> '' AND EXISTS (
    SELECT 1 FROM seats WHERE seats.game = games.id AND seats.kind = 'ai'
    AND (' ' || seats.colours || ' ') LIKE ('% ' || games.to_move || ' %'));

CREATE INDEX games_by_ai_to_move ON games (ai_to_move, status);
CREATE INDEX games_by_creator ON games (creator, status, humans);
