//! Storage: games, seats and moves as rows, on SQLite or PostgreSQL through `sqlx`'s `Any`
//! driver. Every statement is portable SQL with `$n` parameters. This module knows SQL and
//! nothing of the rules: the game service (`service.rs`) decides, inside the transactions
//! this module opens, what to write.
//!
//! A write starts its transaction with [`Store::lock_game`], an `UPDATE` of the game's row,
//! so it holds the game's lock (SQLite: the database's write lock; PostgreSQL: the row lock)
//! before it reads anything. `UNIQUE (game, number)` stays the last guard.
//!
//! Waits are bounded: SQLite waits at most [`BUSY_TIMEOUT`] for a lock, a connection is
//! waited for at most [`ACQUIRE_TIMEOUT`], and on SQLite one of the pool's connections
//! writes, for every writer in turn, committing their writes in groups ([`group`]: one
//! `fsync` for the writes that arrived together), so that readers (WAL: they never wait for
//! the writer) always find a connection.

use std::borrow::Cow;
use std::sync::LazyLock;
use std::time::Duration;

use rumis_core::{Colour, StuckRule, Variant};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{MigrateDatabase, Migration, MigrationType, Migrator};
use sqlx::{Any, AnyConnection, AnyPool, Row, SqlSafeStr, Transaction};

use crate::clock::Clock;
use crate::error::GameError;

mod clocks;
mod group;
mod leases;
mod leavings;
pub mod ops;
mod players;
mod reviews;
mod status;
mod training;
pub(crate) use clocks::{clock_from, CLOCK_COLUMNS};
pub use players::{LobbyRow, PlayerGame, PlayerRow, RatingChange, SeatPlayer};
pub use reviews::ReviewRow;
use status::status_from;
pub use status::{CalledOff, GameStatus};
pub use training::{FirstAttempt, Rated, TrainingRatingRow};

/// How long SQLite waits for another connection's lock before saying busy.
pub const BUSY_TIMEOUT: Duration = Duration::from_millis(1_000);
/// How long a request waits for a free connection.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);
/// SQLite: connections in the pool (one of them writes).
const SQLITE_CONNECTIONS: u32 = 8;

/// A game's setup, as stored.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The built-in board's name.
    pub board: String,
    pub players: usize,
    pub variant: Variant,
    /// Colours in order of play.
    pub colours: Vec<Colour>,
    /// Ruinas: the ruins as placements, in the order they were placed.
    pub ruins: Vec<String>,
    /// One token holds every human seat.
    pub hot_seat: bool,
    /// A board of one's own: its file as given at creation (the core accepted it); `None`
    /// on a scenario, found by `board`.
    pub board_file: Option<String>,
    /// What happens to a colour that cannot place (rules §6).
    pub stuck_rule: StuckRule,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    Human,
    Ai,
}

impl SeatKind {
    pub fn name(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Ai => "ai",
        }
    }
}

/// A player's seat: its colours, who plays it, and the hash of its token.
#[derive(Clone, Debug)]
pub struct Seat {
    pub seat: usize,
    pub colours: Vec<Colour>,
    pub kind: SeatKind,
    /// 1-9 for an AI seat, 0 for a human one.
    pub level: u8,
    pub token_hash: String,
}

#[derive(Clone, Debug)]
pub struct MoveRow {
    pub number: i64,
    pub placement: String,
    pub created: i64,
}

/// A game's rows.
#[derive(Clone, Debug)]
pub struct StoredGame {
    pub id: String,
    pub setup: Setup,
    pub seats: Vec<Seat>,
    pub moves: Vec<MoveRow>,
    pub status: GameStatus,
    pub created: i64,
    pub updated: i64,
    /// The game's clock, if it has one.
    pub clock: Option<Clock>,
    /// Colours that left the game, in order.
    pub retirements: Vec<RetireRow>,
    /// The address that created it.
    pub creator: String,
    /// A game made from a position: where it began.
    pub from_position: Option<FromPosition>,
    /// An aborted game: why it was called off, when that was kept.
    pub called_off: Option<CalledOff>,
}

/// Where a game made from a position began, as stored: the moves it was given at its
/// creation (its first moves) and the server game they came from, if one was named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FromPosition {
    pub moves: i64,
    pub game: Option<String>,
}

/// A colour that left the game, as stored.
#[derive(Clone, Debug)]
pub struct RetireRow {
    pub after_move: i64,
    pub colour: Colour,
    pub reason: String,
}

/// A new game's row.
pub struct NewGame<'a> {
    pub id: &'a str,
    pub setup: &'a Setup,
    /// `(colours, kind, level, token hash)` by seat.
    pub seats: Vec<(Vec<Colour>, SeatKind, u8, String)>,
    pub progress: Progress,
    pub creator: &'a str,
    pub now: i64,
}

/// What a write changes in a game's row.
#[derive(Clone, Debug)]
pub struct Progress {
    pub status: GameStatus,
    pub to_move: Option<Colour>,
    pub move_count: i64,
    pub ai_to_move: bool,
}

/// A game in a listing.
#[derive(Clone, Debug)]
pub struct Summary {
    pub id: String,
    pub board: String,
    pub players: i64,
    pub variant: String,
    pub status: GameStatus,
    pub to_move: String,
    pub move_count: i64,
    pub created: i64,
    pub updated: i64,
    /// On a board of the players' own.
    pub custom: bool,
}

/// A write transaction: `tx` is its connection (by deref) and `tx.commit()` ends it.
pub struct WriteTx {
    pub tx: Tx,
}

/// PostgreSQL: a transaction of its own; SQLite: a place in the group commit
/// ([`group`]). Dropped without a commit, either is rolled back.
pub enum Tx {
    Own(Transaction<'static, Any>),
    Grouped(group::Member),
}

impl Tx {
    /// Commits; returns once the write is durable.
    pub async fn commit(self) -> Result<(), GameError> {
        match self {
            Tx::Own(tx) => Ok(tx.commit().await?),
            Tx::Grouped(m) => m.commit().await,
        }
    }
}

impl std::ops::Deref for Tx {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        match self {
            Tx::Own(tx) => tx,
            Tx::Grouped(m) => m,
        }
    }
}

impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        match self {
            Tx::Own(tx) => tx,
            Tx::Grouped(m) => m,
        }
    }
}

pub struct Store {
    pool: AnyPool,
    /// PostgreSQL: events go out with `pg_notify`.
    postgres: bool,
    url: String,
    /// SQLite: the one writer, committing in groups (see [`group`]).
    writers: Option<std::sync::Arc<group::Group>>,
}

/// The schema's migrations, `migrations/NNNN_name.sql`: (version, description, text), listed
/// and embedded at build time by `build.rs` (as `sqlx::migrate!` would, without its
/// proc-macro crate). A text starting `-- no-transaction` runs outside a transaction, as
/// sqlx's own reading of the folder has it.
const MIGRATIONS: &[(i64, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// sqlx records each applied migration in `_sqlx_migrations` by version and the SHA-384 of
/// its text, and refuses to start on a database whose applied migration's text has changed;
/// the description it stores is not compared (so databases migrated when this list was
/// written by hand, with `custom_boards` for `custom boards`, are accepted as they are).
static MIGRATOR: LazyLock<Migrator> = LazyLock::new(|| {
    Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .map(|&(version, description, text)| {
                let no_tx = text.starts_with("-- no-transaction");
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    text.into_sql_str(),
                    no_tx,
                )
            })
            .collect(),
    )
});

fn colours_text(colours: &[Colour]) -> String {
    colours.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

fn parse_colours(text: &str) -> Result<Vec<Colour>, GameError> {
    text.split_whitespace()
        .map(|w| {
            w.chars()
                .next()
                .and_then(Colour::from_letter)
                .ok_or_else(|| GameError::internal(format!("stored colour '{w}' is not a colour")))
        })
        .collect()
}

/// Whether a database error means "locked or slow, try again".
fn is_transient(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(d) => {
            let code = d.code().map(|c| c.into_owned()).unwrap_or_default();
            // SQLite: BUSY, LOCKED, BUSY_SNAPSHOT; PostgreSQL: serialization failure, deadlock.
            matches!(code.as_str(), "5" | "6" | "517" | "261" | "40001" | "40P01")
                || d.message().contains("database is locked")
        }
        sqlx::Error::PoolTimedOut => true,
        _ => false,
    }
}

impl From<sqlx::Error> for GameError {
    fn from(e: sqlx::Error) -> GameError {
        if is_transient(&e) {
            GameError::Busy(format!("the database is busy: {e}"))
        } else if matches!(&e, sqlx::Error::Database(d) if d.is_unique_violation()) {
            GameError::StaleMoveNumber {
                move_number: 0,
                reason: "another submission for this move was accepted first".into(),
            }
        } else {
            GameError::internal(format!("database: {e}"))
        }
    }
}

impl Store {
    /// Connects (creating an SQLite file if needed), sets SQLite to WAL, runs migrations.
    pub async fn open(url: &str) -> Result<Store, String> {
        sqlx::any::install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url = if sqlite && !url.contains("mode=") {
            format!("{url}{}mode=rwc", if url.contains('?') { '&' } else { '?' })
        } else {
            url.to_string()
        };
        if url.starts_with("postgres") {
            // Create the database if it is missing (and we may); if we cannot tell, connecting
            // will say what is wrong.
            if let Ok(false) = sqlx::Any::database_exists(&url).await {
                sqlx::Any::create_database(&url)
                    .await
                    .map_err(|e| format!("cannot create the database {}: {e}", redact(&url)))?;
            }
        }
        let busy = format!("PRAGMA busy_timeout = {}", BUSY_TIMEOUT.as_millis());
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { SQLITE_CONNECTIONS } else { 16 })
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .after_connect(move |conn, _meta| {
                let busy = busy.clone();
                Box::pin(async move {
                    if conn.backend_name().eq_ignore_ascii_case("sqlite") {
                        sqlx::query(sqlx::AssertSqlSafe(busy)).execute(&mut *conn).await?;
                        for pragma in ["PRAGMA foreign_keys = ON", "PRAGMA synchronous = FULL"] {
                            sqlx::query(pragma).execute(&mut *conn).await?;
                        }
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|e| format!("cannot open the database {}: {e}", redact(&url)))?;
        if sqlite {
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await
                .map_err(|e| format!("cannot set WAL mode: {e}"))?;
        }
        MIGRATOR
            .run(&pool)
            .await
            .map_err(|e| format!("cannot migrate the database: {e}"))?;
        Ok(Store {
            writers: sqlite.then(|| group::Group::new(pool.clone())),
            pool,
            postgres: url.starts_with("postgres:") || url.starts_with("postgresql:"),
            url,
        })
    }

    pub fn is_postgres(&self) -> bool {
        self.postgres
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Begins a write transaction (waiting at most `wait` for a writer's place).
    pub async fn begin_write(&self, wait: Duration) -> Result<WriteTx, GameError> {
        let tx = match &self.writers {
            Some(group) => Tx::Grouped(group.begin(wait).await?),
            None => Tx::Own(self.pool.begin().await?),
        };
        Ok(WriteTx { tx })
    }

    /// Takes the game's lock inside a write (and marks it updated); `false` when there is
    /// no such game.
    pub async fn lock_game(conn: &mut AnyConnection, id: &str, now: i64) -> Result<bool, GameError> {
        let r = sqlx::query("UPDATE games SET updated = $1 WHERE id = $2")
            .bind(now)
            .bind(id)
            .execute(&mut *conn)
            .await?;
        Ok(r.rows_affected() > 0)
    }

    /// PostgreSQL: queues payloads on the connection; inside a transaction they are
    /// delivered at its commit, in commit order, and dropped if it rolls back.
    pub async fn notify_in(conn: &mut AnyConnection, channel: &str, payloads: &[String]) -> Result<(), GameError> {
        for p in payloads {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(channel)
                .bind(p)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    /// PostgreSQL: sends payloads at once, outside a change.
    pub async fn notify(&self, channel: &str, payloads: &[String]) -> Result<(), GameError> {
        let mut conn = self.pool.acquire().await?;
        Store::notify_in(&mut conn, channel, payloads).await
    }

    pub async fn insert_game(conn: &mut AnyConnection, g: &NewGame<'_>) -> Result<(), GameError> {
        let humans = g.seats.iter().filter(|s| s.1 == SeatKind::Human).count();
        sqlx::query(
            "INSERT INTO games (id, board, players, variant, colours, ruins, hot_seat, status, to_move, move_count, \
             created, updated, ai_to_move, humans, creator) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        )
        .bind(g.id)
        .bind(&g.setup.board)
        .bind(g.setup.players as i64)
        .bind(g.setup.variant.name())
        .bind(colours_text(&g.setup.colours))
        .bind(g.setup.ruins.join(" "))
        .bind(g.setup.hot_seat as i64)
        .bind(g.progress.status.as_str())
        .bind(g.progress.to_move.map(|c| c.to_string()).unwrap_or_default())
        .bind(g.progress.move_count)
        .bind(g.now)
        .bind(g.now)
        .bind(g.progress.ai_to_move as i64)
        .bind(humans as i64)
        .bind(g.creator)
        .execute(&mut *conn)
        .await?;
        for (i, (colours, kind, level, hash)) in g.seats.iter().enumerate() {
            sqlx::query(
                "INSERT INTO seats (game, seat, colours, kind, level, token_hash) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(g.id)
            .bind(i as i64)
            .bind(colours_text(colours))
            .bind(kind.name())
            .bind(*level as i64)
            .bind(hash)
            .execute(&mut *conn)
            .await?;
        }
        Ok(())
    }

    /// Stores where a new game made from a position began (in the transaction that inserts
    /// it, with its moves so far).
    pub async fn set_from_position(conn: &mut AnyConnection, id: &str, from: &FromPosition) -> Result<(), GameError> {
        sqlx::query("UPDATE games SET from_game = $1, from_moves = $2 WHERE id = $3")
            .bind(from.game.as_deref().unwrap_or(""))
            .bind(from.moves)
            .bind(id)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Stores a new game's own board and stuck-colour rule (in the transaction that
    /// inserts it): columns of their own, written only when they differ from a scenario's
    /// game under the rulebooks' rule.
    pub async fn set_board_and_rule(conn: &mut AnyConnection, id: &str, setup: &Setup) -> Result<(), GameError> {
        if setup.board_file.is_none() && setup.stuck_rule == StuckRule::Out {
            return Ok(());
        }
        sqlx::query("UPDATE games SET board_file = $1, stuck_rule = $2 WHERE id = $3")
            .bind(setup.board_file.as_deref().unwrap_or(""))
            .bind(setup.stuck_rule.name())
            .bind(id)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    pub async fn insert_move(
        conn: &mut AnyConnection,
        id: &str,
        number: i64,
        placement: &str,
        colour: Colour,
        now: i64,
    ) -> Result<(), GameError> {
        sqlx::query("INSERT INTO moves (game, number, placement, colour, created) VALUES ($1, $2, $3, $4, $5)")
            .bind(id)
            .bind(number)
            .bind(placement)
            .bind(colour.to_string())
            .bind(now)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Removes the moves from `from` on.
    pub async fn delete_moves_from(conn: &mut AnyConnection, id: &str, from: i64) -> Result<(), GameError> {
        sqlx::query("DELETE FROM moves WHERE game = $1 AND number >= $2")
            .bind(id)
            .bind(from)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    pub async fn set_progress(conn: &mut AnyConnection, id: &str, p: &Progress) -> Result<(), GameError> {
        sqlx::query("UPDATE games SET status = $1, to_move = $2, move_count = $3, ai_to_move = $4 WHERE id = $5")
            .bind(p.status.as_str())
            .bind(p.to_move.map(|c| c.to_string()).unwrap_or_default())
            .bind(p.move_count)
            .bind(p.ai_to_move as i64)
            .bind(id)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Keeps why a game was called off (its status is set apart, by `set_progress`).
    pub async fn set_called_off(conn: &mut AnyConnection, id: &str, why: CalledOff) -> Result<(), GameError> {
        sqlx::query("UPDATE games SET called_off = $1 WHERE id = $2")
            .bind(why.as_str())
            .bind(id)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Removes a game with its seats and moves.
    pub async fn delete_game(conn: &mut AnyConnection, id: &str) -> Result<(), GameError> {
        for q in [
            "DELETE FROM retirements WHERE game = $1",
            "DELETE FROM reviews WHERE game = $1",
            "DELETE FROM moves WHERE game = $1",
            "DELETE FROM seats WHERE game = $1",
            "DELETE FROM games WHERE id = $1",
        ] {
            sqlx::query(q).bind(id).execute(&mut *conn).await?;
        }
        Ok(())
    }

    /// Reads a game's rows in one snapshot.
    pub async fn read(&self, id: &str) -> Result<Option<StoredGame>, GameError> {
        let mut tx = self.pool.begin().await?;
        let game = Store::read_in(&mut tx, id).await;
        let _ = tx.rollback().await;
        game
    }

    pub async fn read_in(conn: &mut AnyConnection, id: &str) -> Result<Option<StoredGame>, GameError> {
        let row: Option<AnyRow> = sqlx::query(
            "SELECT board, players, variant, colours, ruins, hot_seat, status, created, updated, board_file, stuck_rule, creator, \
             from_game, from_moves, called_off FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let variant_name: String = row.try_get("variant")?;
        let ruins: String = row.try_get("ruins")?;
        let board_file: String = row.try_get("board_file")?;
        let rule_name: String = row.try_get("stuck_rule")?;
        let from_game: String = row.try_get("from_game")?;
        let from_moves: i64 = row.try_get("from_moves")?;
        let setup = Setup {
            board: row.try_get("board")?,
            players: row.try_get::<i64, _>("players")? as usize,
            variant: Variant::from_name(&variant_name)
                .ok_or_else(|| GameError::internal(format!("stored variant '{variant_name}' is unknown")))?,
            colours: parse_colours(&row.try_get::<String, _>("colours")?)?,
            ruins: ruins.split_whitespace().map(String::from).collect(),
            hot_seat: row.try_get::<i64, _>("hot_seat")? != 0,
            board_file: (!board_file.is_empty()).then_some(board_file),
            stuck_rule: StuckRule::from_name(&rule_name)
                .ok_or_else(|| GameError::internal(format!("stored stuck-colour rule '{rule_name}' is unknown")))?,
        };
        let seat_rows =
            sqlx::query("SELECT seat, colours, kind, level, token_hash FROM seats WHERE game = $1 ORDER BY seat")
                .bind(id)
                .fetch_all(&mut *conn)
                .await?;
        let mut seats = Vec::new();
        for r in &seat_rows {
            let kind: String = r.try_get("kind")?;
            seats.push(Seat {
                seat: r.try_get::<i64, _>("seat")? as usize,
                colours: parse_colours(&r.try_get::<String, _>("colours")?)?,
                kind: if kind == "ai" { SeatKind::Ai } else { SeatKind::Human },
                level: r.try_get::<i64, _>("level")?.clamp(0, 9) as u8,
                token_hash: r.try_get("token_hash")?,
            });
        }
        let move_rows = sqlx::query("SELECT number, placement, created FROM moves WHERE game = $1 ORDER BY number")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
        let mut moves = Vec::new();
        for r in &move_rows {
            moves.push(MoveRow {
                number: r.try_get("number")?,
                placement: r.try_get("placement")?,
                created: r.try_get("created")?,
            });
        }
        Ok(Some(StoredGame {
            id: id.to_string(),
            setup,
            seats,
            moves,
            status: status_from(&row, "status")?,
            created: row.try_get("created")?,
            updated: row.try_get("updated")?,
            clock: Store::read_clock_in(&mut *conn, id).await?,
            retirements: Store::read_retirements_in(&mut *conn, id).await?,
            creator: row.try_get("creator")?,
            from_position: (from_moves > 0 || !from_game.is_empty()).then(|| FromPosition {
                moves: from_moves,
                game: (!from_game.is_empty()).then_some(from_game),
            }),
            called_off: CalledOff::parse(&row.try_get::<String, _>("called_off")?),
        }))
    }

    /// Open games with an AI seat to move (to resume after a restart), with whether a human
    /// plays in them and who created them; least recently updated first, at most `limit`.
    pub async fn ai_to_move(&self, limit: i64) -> Result<Vec<(String, bool, String)>, GameError> {
        let rows = sqlx::query(
            "SELECT id, humans, creator FROM games WHERE ai_to_move = 1 AND status = 'open' ORDER BY updated LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(ai_turn_from).collect::<Result<_, _>>()?)
    }

    /// PostgreSQL: waits until no other transaction is creating an AI-only game (until its
    /// commit or rollback). SQLite has one writer at a time already.
    pub async fn order_ai_only_creations(conn: &mut AnyConnection) -> Result<(), GameError> {
        if conn.backend_name().eq_ignore_ascii_case("postgresql") {
            // The key is arbitrary: "rumis ai-only" in ASCII, truncated to 8 bytes.
            sqlx::query("SELECT pg_advisory_xact_lock(8245906626011721585)")
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    /// Open games without a human seat: by this creator, and in all (inside a write).
    pub async fn ai_only_open_in(conn: &mut AnyConnection, creator: &str) -> Result<(i64, i64), GameError> {
        let row = sqlx::query(
            "SELECT COALESCE(SUM(CASE WHEN creator = $1 THEN 1 ELSE 0 END), 0) AS mine, COUNT(*) AS total \
             FROM games WHERE status = 'open' AND humans = 0",
        )
        .bind(creator)
        .fetch_one(&mut *conn)
        .await?;
        Ok((row.try_get::<i64, _>("mine")?, row.try_get::<i64, _>("total")?))
    }

    /// Marks open games not updated since `cutoff` abandoned; returns their ids.
    pub async fn expire(&self, cutoff: i64, limit: i64) -> Result<Vec<String>, GameError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = 'open' AND updated < $1 ORDER BY updated LIMIT $2")
            .bind(cutoff)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        let ids: Vec<String> = rows.iter().map(|r| r.try_get("id")).collect::<Result<_, _>>()?;
        for id in &ids {
            // `updated` checked again: a move may have come in meanwhile.
            sqlx::query("UPDATE games SET status = 'abandoned', ai_to_move = 0, due = NULL WHERE id = $1 AND status = 'open' AND updated < $2")
                .bind(id)
                .bind(cutoff)
                .execute(&self.pool)
                .await?;
        }
        Ok(ids)
    }

    /// The most recently updated games of a status.
    pub async fn list(&self, status: &str, limit: i64) -> Result<Vec<Summary>, GameError> {
        let rows = sqlx::query(
            "SELECT id, board, players, variant, status, to_move, move_count, created, updated, \
             CAST(CASE WHEN board_file = '' THEN 0 ELSE 1 END AS BIGINT) AS custom \
             FROM games WHERE status = $1 ORDER BY updated DESC, id LIMIT $2",
        )
        .bind(status)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Summary {
                    id: r.try_get("id")?,
                    board: r.try_get("board")?,
                    players: r.try_get("players")?,
                    variant: r.try_get("variant")?,
                    status: status_from(r, "status")?,
                    to_move: r.try_get("to_move")?,
                    move_count: r.try_get("move_count")?,
                    created: r.try_get("created")?,
                    updated: r.try_get("updated")?,
                    custom: r.try_get::<i64, _>("custom")? != 0,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(GameError::from)
    }
}

/// Drops a database (a PostgreSQL database, or a SQLite file), closing its connections:
/// for tests and tools.
pub async fn drop_database(url: &str) -> Result<(), String> {
    sqlx::any::install_default_drivers();
    sqlx::Any::force_drop_database(url)
        .await
        .map_err(|e| format!("cannot drop the database {}: {e}", redact(url)))
}

/// A database URL without its password, for messages.
pub fn redact(url: &str) -> String {
    // postgres://user:password@host/db: hide the password.
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// A game whose AI seat is to move, as `SELECT id, humans, creator` reads it: its id,
/// whether a human plays in it, and who created it.
pub(crate) fn ai_turn_from(r: &AnyRow) -> Result<(String, bool, String), sqlx::Error> {
    Ok((
        r.try_get("id")?,
        r.try_get::<i64, _>("humans")? > 0,
        r.try_get("creator")?,
    ))
}
