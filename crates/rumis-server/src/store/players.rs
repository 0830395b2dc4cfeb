//! Storage of players, the lobby's games, seats bound to players and ratings (migration
//! 0003). SQL only: what to write is decided by the lobby service (`service/lobby.rs`).

use sqlx::any::AnyRow;
use sqlx::{AnyConnection, Row};

use super::{clock_from, status_from, GameStatus, SeatKind, Store, CLOCK_COLUMNS};
use crate::clock::Clock;
use crate::error::GameError;

/// A player as stored (never its key, only the key's hash, which stays in the database).
#[derive(Clone, Debug)]
pub struct PlayerRow {
    pub id: String,
    pub name: String,
    /// Weng-Lin mu and sigma.
    pub rating: f64,
    pub uncertainty: f64,
    pub rated_games: i64,
    pub created: i64,
}

/// A seat with the player bound to it, if any.
#[derive(Clone, Debug)]
pub struct SeatPlayer {
    pub game: String,
    pub seat: usize,
    pub colours: String,
    pub kind: SeatKind,
    pub level: u8,
    /// Someone holds the seat's token (a guest, or the bound player who accepted it). A seat
    /// the AI took over keeps its token's hash (service/leaving.rs), so it stays taken.
    pub taken: bool,
    pub player: Option<PlayerRow>,
    /// The seat's time left when its clock last stopped (a timed game).
    pub remaining_ms: i64,
}

/// A game's lobby row.
#[derive(Clone, Debug, Default)]
pub struct LobbyRow {
    pub game: String,
    pub rated: bool,
    pub quick: bool,
    /// Quick play: when the free seats get the AI (ms since the epoch; 0: never).
    pub fill_at: i64,
    pub fill_level: u8,
    pub rematch_of: String,
    pub rematch: String,
    pub rating_state: String,
    pub created_by: String,
    pub created: i64,
    /// A rated game against the AI alone in which a hint was asked for (migration 0007).
    pub assisted: bool,
}

/// A game listed in the lobby or on a player's page.
#[derive(Clone, Debug)]
pub struct PlayerGame {
    pub id: String,
    pub board: String,
    pub players: i64,
    pub variant: String,
    pub status: GameStatus,
    pub move_count: i64,
    pub created: i64,
    pub updated: i64,
    /// The lobby's row, when the game came through the lobby.
    pub lobby: Option<LobbyRow>,
    /// The game's clock (its seats' time left filled in with the seats), if it has one.
    pub clock: Option<Clock>,
}

/// One player's rating before and after one rated game.
#[derive(Clone, Debug)]
pub struct RatingChange {
    pub game: String,
    pub seat: usize,
    pub player: String,
    pub place: i64,
    pub before: (f64, f64),
    pub after: (f64, f64),
    pub created: i64,
}

fn player_from(r: &AnyRow, prefix: &str) -> Result<Option<PlayerRow>, sqlx::Error> {
    let col = |c: &str| format!("{prefix}{c}");
    let id: Option<String> = r.try_get(col("id").as_str())?;
    let Some(id) = id else { return Ok(None) };
    Ok(Some(PlayerRow {
        id,
        name: r
            .try_get::<Option<String>, _>(col("name").as_str())?
            .unwrap_or_default(),
        rating: r.try_get::<Option<f64>, _>(col("rating").as_str())?.unwrap_or(25.0),
        uncertainty: r
            .try_get::<Option<f64>, _>(col("uncertainty").as_str())?
            .unwrap_or(25.0 / 3.0),
        rated_games: r.try_get::<Option<i64>, _>(col("rated_games").as_str())?.unwrap_or(0),
        created: r.try_get::<Option<i64>, _>(col("created").as_str())?.unwrap_or(0),
    }))
}

fn lobby_from(r: &AnyRow) -> Result<Option<LobbyRow>, sqlx::Error> {
    let game: Option<String> = r.try_get("l_game")?;
    let Some(game) = game else { return Ok(None) };
    Ok(Some(LobbyRow {
        game,
        rated: r.try_get::<i64, _>("l_rated")? != 0,
        quick: r.try_get::<i64, _>("l_quick")? != 0,
        fill_at: r.try_get("l_fill_at")?,
        fill_level: r.try_get::<i64, _>("l_fill_level")?.clamp(0, 9) as u8,
        rematch_of: r.try_get("l_rematch_of")?,
        rematch: r.try_get("l_rematch")?,
        rating_state: r.try_get("l_rating_state")?,
        created_by: r.try_get("l_created_by")?,
        created: r.try_get("l_created")?,
        assisted: r.try_get::<i64, _>("l_assisted")? != 0,
    }))
}

const PLAYER_COLUMNS: &str = "p.id AS p_id, p.name AS p_name, p.rating AS p_rating, p.uncertainty AS p_uncertainty, \
     p.rated_games AS p_rated_games, p.created AS p_created";

const LOBBY_COLUMNS: &str = "l.game AS l_game, l.rated AS l_rated, l.quick AS l_quick, l.fill_at AS l_fill_at, \
     l.fill_level AS l_fill_level, l.rematch_of AS l_rematch_of, l.rematch AS l_rematch, \
     l.rating_state AS l_rating_state, l.created_by AS l_created_by, l.created AS l_created, \
     l.assisted AS l_assisted";

fn seat_from(r: &AnyRow) -> Result<SeatPlayer, sqlx::Error> {
    let kind: String = r.try_get("kind")?;
    let hash: String = r.try_get("token_hash")?;
    Ok(SeatPlayer {
        game: r.try_get("game")?,
        seat: r.try_get::<i64, _>("seat")? as usize,
        colours: r.try_get("colours")?,
        kind: if kind == "ai" { SeatKind::Ai } else { SeatKind::Human },
        level: r.try_get::<i64, _>("level")?.clamp(0, 9) as u8,
        taken: !hash.is_empty(),
        player: player_from(r, "p_")?,
        remaining_ms: r.try_get("remaining_ms")?,
    })
}

fn game_from(r: &AnyRow) -> Result<PlayerGame, sqlx::Error> {
    Ok(PlayerGame {
        id: r.try_get("id")?,
        board: r.try_get("board")?,
        players: r.try_get("players")?,
        variant: r.try_get("variant")?,
        status: status_from(r, "status")?,
        move_count: r.try_get("move_count")?,
        created: r.try_get("created")?,
        updated: r.try_get("updated")?,
        lobby: lobby_from(r)?,
        clock: clock_from(r, Vec::new())?,
    })
}

impl Store {
    /// A new player; `name_key` is its name folded (`name_key` in service/lobby/mod.rs):
    /// `NameTaken` when another player's folds the same.
    pub async fn insert_player(&self, p: &PlayerRow, name_key: &str, key_hash: &str) -> Result<(), GameError> {
        let inserted = sqlx::query(
            "INSERT INTO players (id, name, name_key, key_hash, rating, uncertainty, rated_games, created, seen) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
        )
        .bind(&p.id)
        .bind(&p.name)
        .bind(name_key)
        .bind(key_hash)
        .bind(p.rating)
        .bind(p.uncertainty)
        .bind(p.rated_games)
        .bind(p.created)
        .execute(&self.pool)
        .await;
        match inserted {
            // The id and the key's hash are random (64 and 128 bits): the name is what collides.
            Err(sqlx::Error::Database(d)) if d.is_unique_violation() => Err(GameError::NameTaken(p.name.clone())),
            Err(e) => Err(e.into()),
            Ok(_) => Ok(()),
        }
    }

    async fn player_where(&self, clause: &'static str, value: &str) -> Result<Option<PlayerRow>, GameError> {
        let q = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE {clause} = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(value)
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(r) => Ok(player_from(&r, "p_")?),
            None => Ok(None),
        }
    }

    pub async fn player(&self, id: &str) -> Result<Option<PlayerRow>, GameError> {
        self.player_where("p.id", id).await
    }

    pub async fn player_by_key_hash(&self, key_hash: &str) -> Result<Option<PlayerRow>, GameError> {
        self.player_where("p.key_hash", key_hash).await
    }

    /// Inside a write: the player whose key has this hash.
    pub async fn player_by_key_hash_in(
        conn: &mut AnyConnection,
        key_hash: &str,
    ) -> Result<Option<PlayerRow>, GameError> {
        let q = format!("SELECT {PLAYER_COLUMNS} FROM players p WHERE p.key_hash = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(key_hash)
            .fetch_optional(&mut *conn)
            .await?;
        match row {
            Some(r) => Ok(player_from(&r, "p_")?),
            None => Ok(None),
        }
    }

    /// A player was seen now (a request with their key): inside a write.
    pub async fn touch_player_in(conn: &mut AnyConnection, player: &str, now: i64) -> Result<(), GameError> {
        sqlx::query("UPDATE players SET seen = $1 WHERE id = $2 AND seen < $1")
            .bind(now)
            .bind(player)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// A player was seen now (the presence ping).
    pub async fn touch_player(&self, player: &str, now: i64) -> Result<(), GameError> {
        let mut conn = self.pool.acquire().await?;
        Store::touch_player_in(&mut conn, player, now).await
    }

    /// When a player was last seen (`None`: no such player).
    pub async fn player_seen_in(conn: &mut AnyConnection, player: &str) -> Result<Option<i64>, GameError> {
        let row = sqlx::query("SELECT seen FROM players WHERE id = $1")
            .bind(player)
            .fetch_optional(&mut *conn)
            .await?;
        Ok(row.map(|r| r.try_get("seen")).transpose()?)
    }

    /// Waiting lobby games whose creator was last seen before `cutoff`, oldest first.
    pub async fn stale_seeks(&self, cutoff: i64, limit: i64) -> Result<Vec<String>, GameError> {
        let rows = sqlx::query(
            "SELECT l.game FROM lobby_games l JOIN games g ON g.id = l.game JOIN players p ON p.id = l.created_by \
             WHERE g.status = 'waiting' AND p.seen < $1 ORDER BY l.created, l.game LIMIT $2",
        )
        .bind(cutoff)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get("game")).collect::<Result<_, _>>()?)
    }

    /// The seats of a game with their players.
    pub async fn seat_players_in(conn: &mut AnyConnection, game: &str) -> Result<Vec<SeatPlayer>, GameError> {
        let q = format!(
            "SELECT s.game, s.seat, s.colours, s.kind, s.level, s.token_hash, s.remaining_ms, {PLAYER_COLUMNS} \
             FROM seats s LEFT JOIN players p ON p.id = s.player WHERE s.game = $1 ORDER BY s.seat"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(game)
            .fetch_all(&mut *conn)
            .await?;
        Ok(rows.iter().map(seat_from).collect::<Result<_, _>>()?)
    }

    pub async fn seat_players(&self, game: &str) -> Result<Vec<SeatPlayer>, GameError> {
        let mut conn = self.pool.acquire().await?;
        Store::seat_players_in(&mut conn, game).await
    }

    /// Binds a seat: a human seat to a player (or none) with the hash of the token that
    /// moves for it (empty: not taken yet).
    pub async fn bind_seat_in(
        conn: &mut AnyConnection,
        game: &str,
        seat: usize,
        player: Option<&str>,
        token_hash: &str,
    ) -> Result<(), GameError> {
        sqlx::query(
            "UPDATE seats SET kind = 'human', level = 0, player = $1, token_hash = $2 WHERE game = $3 AND seat = $4",
        )
        .bind(player)
        .bind(token_hash)
        .bind(game)
        .bind(seat as i64)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    /// Gives a seat to the AI at a level.
    pub async fn seat_to_ai_in(conn: &mut AnyConnection, game: &str, seat: usize, level: u8) -> Result<(), GameError> {
        sqlx::query(
            "UPDATE seats SET kind = 'ai', level = $1, player = NULL, token_hash = '' WHERE game = $2 AND seat = $3",
        )
        .bind(level as i64)
        .bind(game)
        .bind(seat as i64)
        .execute(&mut *conn)
        .await?;
        // The game's count of human seats (AI-only limits read it).
        sqlx::query(
            "UPDATE games SET humans = (SELECT COUNT(*) FROM seats WHERE seats.game = $1 AND seats.kind = 'human') \
             WHERE id = $1",
        )
        .bind(game)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    pub async fn insert_lobby_in(conn: &mut AnyConnection, l: &LobbyRow) -> Result<(), GameError> {
        sqlx::query(
            "INSERT INTO lobby_games (game, rated, quick, fill_at, fill_level, rematch_of, rematch, rating_state, \
             created_by, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&l.game)
        .bind(l.rated as i64)
        .bind(l.quick as i64)
        .bind(l.fill_at)
        .bind(l.fill_level as i64)
        .bind(&l.rematch_of)
        .bind(&l.rematch)
        .bind(&l.rating_state)
        .bind(&l.created_by)
        .bind(l.created)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    pub async fn lobby_row_in(conn: &mut AnyConnection, game: &str) -> Result<Option<LobbyRow>, GameError> {
        let q = format!("SELECT {LOBBY_COLUMNS} FROM lobby_games l WHERE l.game = $1");
        let row = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(game)
            .fetch_optional(&mut *conn)
            .await?;
        match row {
            Some(r) => Ok(lobby_from(&r)?),
            None => Ok(None),
        }
    }

    pub async fn lobby_row(&self, game: &str) -> Result<Option<LobbyRow>, GameError> {
        let mut conn = self.pool.acquire().await?;
        Store::lobby_row_in(&mut conn, game).await
    }

    /// Records the rematch offered after a game.
    pub async fn set_rematch_in(conn: &mut AnyConnection, game: &str, rematch: &str) -> Result<(), GameError> {
        sqlx::query("UPDATE lobby_games SET rematch = $1 WHERE game = $2")
            .bind(rematch)
            .bind(game)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// The quick-play wait is over (or no longer applies).
    pub async fn clear_fill_in(conn: &mut AnyConnection, game: &str) -> Result<(), GameError> {
        sqlx::query("UPDATE lobby_games SET fill_at = 0 WHERE game = $1")
            .bind(game)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Moves a game's rating state from `from` to `to`; `false` when it was not `from`
    /// (another instance counted it, or it was aborted).
    pub async fn set_rating_state_in(
        conn: &mut AnyConnection,
        game: &str,
        from: &str,
        to: &str,
    ) -> Result<bool, GameError> {
        let r = sqlx::query("UPDATE lobby_games SET rating_state = $1 WHERE game = $2 AND rating_state = $3")
            .bind(to)
            .bind(game)
            .bind(from)
            .execute(&mut *conn)
            .await?;
        Ok(r.rows_affected() > 0)
    }

    /// Marks a rated game as assisted (a hint was asked for in it); nothing for another.
    pub async fn mark_assisted(&self, game: &str) -> Result<(), GameError> {
        sqlx::query("UPDATE lobby_games SET assisted = 1 WHERE game = $1 AND rated = 1 AND assisted = 0")
            .bind(game)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The lobby games a player created that still wait for players.
    pub async fn seeks_waiting_by_in(conn: &mut AnyConnection, player: &str) -> Result<i64, GameError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM lobby_games l JOIN games g ON g.id = l.game \
             WHERE l.created_by = $1 AND g.status = 'waiting'",
        )
        .bind(player)
        .fetch_one(&mut *conn)
        .await?;
        Ok(n)
    }

    /// Rated games that two players both had counted since `since` (ms since the epoch).
    pub async fn rated_together_in(conn: &mut AnyConnection, a: &str, b: &str, since: i64) -> Result<i64, GameError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM rating_changes x JOIN rating_changes y ON y.game = x.game \
             WHERE x.player = $1 AND y.player = $2 AND x.created >= $3",
        )
        .bind(a)
        .bind(b)
        .bind(since)
        .fetch_one(&mut *conn)
        .await?;
        Ok(n)
    }

    /// Takes the lobby's lock inside a write (see migration 0003).
    pub async fn lock_lobby_in(conn: &mut AnyConnection) -> Result<(), GameError> {
        sqlx::query("UPDATE lobby_lock SET n = n + 1 WHERE id = 1")
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Lobby games of a status, newest first, with their seats.
    pub async fn lobby_games(
        &self,
        status: GameStatus,
        limit: i64,
    ) -> Result<Vec<(PlayerGame, Vec<SeatPlayer>)>, GameError> {
        let q = format!(
            "SELECT g.id, g.board, g.players, g.variant, g.status, g.move_count, g.created, g.updated, {LOBBY_COLUMNS}, {CLOCK_COLUMNS} \
             FROM lobby_games l JOIN games g ON g.id = l.game WHERE g.status = $1 ORDER BY g.created DESC, g.id LIMIT $2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(status.as_str())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        let games: Vec<PlayerGame> = rows.iter().map(game_from).collect::<Result<_, _>>()?;
        self.with_seats(games).await
    }

    async fn with_seats(&self, games: Vec<PlayerGame>) -> Result<Vec<(PlayerGame, Vec<SeatPlayer>)>, GameError> {
        if games.is_empty() {
            return Ok(Vec::new());
        }
        // One query for every listed game's seats: `$1, $2, ...` for the ids.
        let marks: Vec<String> = (1..=games.len()).map(|i| format!("${i}")).collect();
        let q = format!(
            "SELECT s.game, s.seat, s.colours, s.kind, s.level, s.token_hash, s.remaining_ms, {PLAYER_COLUMNS} \
             FROM seats s LEFT JOIN players p ON p.id = s.player WHERE s.game IN ({}) ORDER BY s.game, s.seat",
            marks.join(", ")
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(q));
        for g in &games {
            query = query.bind(g.id.clone());
        }
        let rows = query.fetch_all(&self.pool).await?;
        let seats: Vec<SeatPlayer> = rows.iter().map(seat_from).collect::<Result<_, _>>()?;
        Ok(games
            .into_iter()
            .map(|mut g| {
                let mine: Vec<SeatPlayer> = seats.iter().filter(|s| s.game == g.id).cloned().collect();
                if let Some(c) = g.clock.as_mut() {
                    c.remaining = mine.iter().map(|s| s.remaining_ms).collect();
                }
                (g, mine)
            })
            .collect())
    }

    /// Waiting quick-play games with a seat free whose creator was seen since `seen`
    /// (ms since the epoch), oldest first.
    pub async fn quick_waiting_in(
        conn: &mut AnyConnection,
        seen: i64,
        limit: i64,
    ) -> Result<Vec<PlayerGame>, GameError> {
        let q = format!(
            "SELECT g.id, g.board, g.players, g.variant, g.status, g.move_count, g.created, g.updated, {LOBBY_COLUMNS}, {CLOCK_COLUMNS} \
             FROM lobby_games l JOIN games g ON g.id = l.game \
             WHERE g.status = 'waiting' AND l.quick = 1 AND EXISTS (SELECT 1 FROM seats s WHERE s.game = g.id \
             AND s.kind = 'human' AND s.token_hash = '' AND s.player IS NULL) \
             AND EXISTS (SELECT 1 FROM players c WHERE c.id = l.created_by AND c.seen >= $2) \
             ORDER BY g.created, g.id LIMIT $1"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(limit)
            .bind(seen)
            .fetch_all(&mut *conn)
            .await?;
        Ok(rows.iter().map(game_from).collect::<Result<_, _>>()?)
    }

    /// A player's games (seats taken), most recently updated first.
    pub async fn player_games(
        &self,
        player: &str,
        limit: i64,
    ) -> Result<Vec<(PlayerGame, Vec<SeatPlayer>)>, GameError> {
        let q = format!(
            "SELECT g.id, g.board, g.players, g.variant, g.status, g.move_count, g.created, g.updated, {LOBBY_COLUMNS}, {CLOCK_COLUMNS} \
             FROM games g LEFT JOIN lobby_games l ON l.game = g.id \
             WHERE g.id IN (SELECT s.game FROM seats s WHERE s.player = $1) ORDER BY g.updated DESC, g.id LIMIT $2"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(player)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        let games: Vec<PlayerGame> = rows.iter().map(game_from).collect::<Result<_, _>>()?;
        self.with_seats(games).await
    }

    /// Waiting games whose quick-play wait is over.
    pub async fn due_fills(&self, now: i64, limit: i64) -> Result<Vec<String>, GameError> {
        let rows = sqlx::query(
            "SELECT l.game FROM lobby_games l JOIN games g ON g.id = l.game \
             WHERE l.fill_at > 0 AND l.fill_at <= $1 AND g.status = 'waiting' ORDER BY l.fill_at LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get("game")).collect::<Result<_, _>>()?)
    }

    /// Rated games that ended and are not counted yet.
    pub async fn ratings_due(&self, limit: i64) -> Result<Vec<String>, GameError> {
        let rows = sqlx::query(
            "SELECT l.game FROM lobby_games l JOIN games g ON g.id = l.game \
             WHERE l.rating_state = 'pending' AND g.status = 'finished' ORDER BY g.updated LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| r.try_get("game")).collect::<Result<_, _>>()?)
    }

    pub async fn set_player_rating_in(
        conn: &mut AnyConnection,
        player: &str,
        rating: f64,
        uncertainty: f64,
    ) -> Result<(), GameError> {
        sqlx::query("UPDATE players SET rating = $1, uncertainty = $2, rated_games = rated_games + 1 WHERE id = $3")
            .bind(rating)
            .bind(uncertainty)
            .bind(player)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    pub async fn insert_rating_change_in(conn: &mut AnyConnection, c: &RatingChange) -> Result<(), GameError> {
        sqlx::query(
            "INSERT INTO rating_changes (game, seat, player, place, before_rating, after_rating, before_uncertainty, \
             after_uncertainty, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&c.game)
        .bind(c.seat as i64)
        .bind(&c.player)
        .bind(c.place)
        .bind(c.before.0)
        .bind(c.after.0)
        .bind(c.before.1)
        .bind(c.after.1)
        .bind(c.created)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    /// A player's rating changes, newest first.
    pub async fn rating_changes(&self, player: &str, limit: i64) -> Result<Vec<RatingChange>, GameError> {
        let rows = sqlx::query(
            "SELECT game, seat, player, place, before_rating, after_rating, before_uncertainty, after_uncertainty, created \
             FROM rating_changes WHERE player = $1 ORDER BY created DESC, game LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingChange {
                    game: r.try_get("game")?,
                    seat: r.try_get::<i64, _>("seat")? as usize,
                    player: r.try_get("player")?,
                    place: r.try_get("place")?,
                    before: (r.try_get("before_rating")?, r.try_get("before_uncertainty")?),
                    after: (r.try_get("after_rating")?, r.try_get("after_uncertainty")?),
                    created: r.try_get("created")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(GameError::from)
    }

    /// Players with rated games against at least `opponents` distinct opponents (another
    /// player, or an AI level: each level one), best first.
    pub async fn leaderboard(&self, limit: i64, opponents: i64) -> Result<Vec<PlayerRow>, GameError> {
        let q = format!(
            "SELECT {PLAYER_COLUMNS} FROM players p WHERE p.rated_games > 0 AND \
             (SELECT COUNT(DISTINCT CASE WHEN s.player IS NOT NULL THEN s.player \
                                         WHEN s.kind = 'ai' THEN 'ai' || s.level END) \
              FROM rating_changes rc JOIN seats s ON s.game = rc.game AND s.seat <> rc.seat \
              WHERE rc.player = p.id) >= $2 \
             ORDER BY p.rating DESC, p.id LIMIT $1"
        );
        let rows = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(limit)
            .bind(opponents)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .filter_map(|r| player_from(r, "p_").transpose())
            .collect::<Result<_, sqlx::Error>>()
            .map_err(GameError::from)
    }
}
