-- Portable SQL: the same text runs on SQLite and PostgreSQL.
-- When a player was last seen (ms since the epoch): each lobby request made with the
-- player's key, and the web app's presence ping (`POST /players/me/presence`, every minute
-- while its lobby or a lobby game's page is open). A waiting lobby game whose creator has not been seen
-- for `Config::seek_idle` expires (service/lobby/seats.rs); reading it from here, not from
-- an instance's sockets, makes that survive restarts and agree across instances. The
-- expiry's look goes from the waiting games (games_by_status) to their lobby rows and
-- creators by primary key, so it needs no index of its own.
ALTER TABLE players ADD COLUMN seen BIGINT NOT NULL DEFAULT 0;
UPDATE players SET seen = created;
