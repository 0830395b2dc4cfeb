-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- Display names are unique, whatever their case (service/lobby/mod.rs `name_key`: one
-- player cannot take another's name and pass for them). name_key is the name folded as the
-- server folds it. Players made before this keep their names: the first of each name
-- (lower() here folds ASCII on SQLite, every letter on PostgreSQL) holds it, any later one
-- gets a key no name folds to ('#' and its id), so nobody new can take the name.
ALTER TABLE players ADD COLUMN name_key TEXT;
UPDATE players SET name_key = lower(name)
    WHERE id = (SELECT q.id FROM players q WHERE lower(q.name) = lower(players.name)
                ORDER BY q.created, q.id LIMIT 1);
UPDATE players SET name_key = '#' || id WHERE name_key IS NULL;
CREATE UNIQUE INDEX players_by_name_key ON players (name_key);
