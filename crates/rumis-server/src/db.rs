//! Storage: games, seats and moves, on SQLite or PostgreSQL through `sqlx`'s `Any` driver.
//! Every statement is portable SQL with `$n` parameters.
//!
//! A write (a move, an undo) starts its transaction with an `UPDATE` of the game's row, so
//! it holds the game's lock (SQLite: the database's write lock; PostgreSQL: the row lock)
//! before it reads anything; then it replays the stored moves with the core, checks the
//! expected move number and inserts. `UNIQUE (game, number)` stays the last guard.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::http::StatusCode;
use rumis_core::{Board, Colour, Game, MoveError, Site, Variant};
use serde_json::json;
use sha2::{Digest, Sha256};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::migrate::{MigrateDatabase, Migration, MigrationType, Migrator};
use sqlx::{AnyConnection, AnyPool, Row, SqlSafeStr};

use crate::error::{printable, ApiError};
use crate::events::{self, Event};

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

/// A seat as asked for when creating a game.
#[derive(Clone, Debug)]
pub struct NewSeat {
    pub kind: SeatKind,
    pub level: u8,
}

#[derive(Clone, Debug)]
pub struct MoveRow {
    pub number: i64,
    pub placement: String,
    pub colour: String,
    pub created: i64,
}

/// A game read from the database and replayed.
pub struct Loaded {
    pub id: String,
    pub setup: Setup,
    pub seats: Vec<Seat>,
    pub moves: Vec<MoveRow>,
    pub game: Game,
    pub created: i64,
    pub updated: i64,
}

impl Loaded {
    /// The next move's number (1-based).
    pub fn move_number(&self) -> i64 {
        self.game.moves().len() as i64 + 1
    }

    pub fn seat_of(&self, colour: Colour) -> Option<&Seat> {
        self.seats.iter().find(|s| s.colours.contains(&colour))
    }

    /// The seat to move, if the game is not over.
    pub fn seat_to_move(&self) -> Option<&Seat> {
        self.seat_of(self.game.to_move()?)
    }
}

/// A game in a listing.
#[derive(Clone, Debug)]
pub struct Summary {
    pub id: String,
    pub board: String,
    pub players: i64,
    pub variant: String,
    pub status: String,
    pub to_move: String,
    pub move_count: i64,
    pub created: i64,
    pub updated: i64,
}

/// Who submits a move.
pub enum Actor<'a> {
    /// A client with the token it gave (if any).
    Token(Option<&'a str>),
    /// The server, for the AI seat with this index.
    Ai(usize),
}

/// A move committed to the database.
#[derive(Clone, Debug)]
pub struct Accepted {
    pub game: String,
    pub number: i64,
    pub colour: Colour,
    pub placement: String,
    pub by: SeatKind,
    /// Colours that went out because of this move.
    pub newly_out: Vec<Colour>,
    pub to_move: Option<Colour>,
    pub over: bool,
    pub scores: Vec<(Colour, i32)>,
    pub winners: Vec<usize>,
}

/// An undo committed to the database.
#[derive(Clone, Debug)]
pub struct Undone {
    pub game: String,
    /// The numbers of the moves taken back.
    pub removed: Vec<i64>,
    pub move_number: i64,
    pub to_move: Option<Colour>,
}

pub struct Store {
    pool: AnyPool,
    /// PostgreSQL: events go out with `pg_notify` (see `events`).
    postgres: bool,
    url: String,
}

const MIGRATIONS: [(i64, &str, &str); 1] = [(1, "games", include_str!("../migrations/0001_games.sql"))];

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// 16 random bytes from the operating system, as 32 hex digits.
pub fn new_token() -> Result<String, ApiError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("no randomness: {e}")))?;
    Ok(hex(&bytes))
}

fn new_game_id() -> Result<String, ApiError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("no randomness: {e}")))?;
    Ok(hex(&bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Compares two hashes in time independent of where they differ.
fn same_hash(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn colours_text(colours: &[Colour]) -> String {
    colours.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

fn parse_colours(text: &str) -> Result<Vec<Colour>, ApiError> {
    text.split_whitespace()
        .map(|w| {
            w.chars()
                .next()
                .and_then(Colour::from_letter)
                .ok_or_else(|| ApiError::internal(format!("stored colour '{w}' is not a colour")))
        })
        .collect()
}

/// Prepared sites, shared: a site is immutable and costly to enumerate.
fn site_for(setup: &Setup) -> Result<Arc<Site>, String> {
    type Key = (String, usize, Variant, Vec<Colour>);
    static SITES: OnceLock<Mutex<HashMap<Key, Arc<Site>>>> = OnceLock::new();
    let key = (setup.board.clone(), setup.players, setup.variant, setup.colours.clone());
    let sites = SITES.get_or_init(Default::default);
    if let Some(s) = sites.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(s.clone());
    }
    let board = Board::builtin(&setup.board)
        .ok_or_else(|| {
            format!(
                "unknown board '{}'; the boards are {}",
                printable(&setup.board),
                Board::builtin_names()
            )
        })?
        .clone();
    let site = Arc::new(Site::new(board, setup.players, setup.variant, Some(setup.colours.clone())).map_err(|e| e.0)?);
    let mut map = sites.lock().unwrap_or_else(|e| e.into_inner());
    if map.len() > 256 {
        map.clear();
    }
    map.insert(key, site.clone());
    Ok(site)
}

/// The game before its first move.
pub fn start_game(setup: &Setup) -> Result<Game, String> {
    let site = site_for(setup)?;
    if setup.ruins.is_empty() {
        Ok(Game::new(site))
    } else {
        let ruins: Vec<&str> = setup.ruins.iter().map(String::as_str).collect();
        Game::with_ruin_texts(site, &ruins)
    }
}

/// Whether a database error is worth trying the transaction again for.
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

fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// The outcome of one attempt at a write.
enum Attempt<T> {
    Done(T),
    Failed(ApiError),
    /// A transient database error: try again.
    Retry(sqlx::Error),
}

impl<T> From<sqlx::Error> for Attempt<T> {
    fn from(e: sqlx::Error) -> Self {
        if is_transient(&e) {
            Attempt::Retry(e)
        } else if is_unique_violation(&e) {
            Attempt::Failed(ApiError::conflict(
                "stale_move_number",
                "another submission for this move was accepted first",
            ))
        } else {
            Attempt::Failed(e.into())
        }
    }
}

impl<T> From<ApiError> for Attempt<T> {
    fn from(e: ApiError) -> Self {
        Attempt::Failed(e)
    }
}

macro_rules! attempt {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Attempt::from(e),
        }
    };
}

fn sql(s: &'static str) -> impl SqlSafeStr {
    s
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
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 8 } else { 16 })
            .acquire_timeout(Duration::from_secs(30))
            .after_connect(|conn, _meta| {
                Box::pin(async move {
                    if conn.backend_name().eq_ignore_ascii_case("sqlite") {
                        for pragma in [
                            "PRAGMA busy_timeout = 15000",
                            "PRAGMA foreign_keys = ON",
                            "PRAGMA synchronous = FULL",
                        ] {
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
        let migrations = MIGRATIONS
            .iter()
            .map(|&(v, d, s)| Migration::new(v, d.into(), MigrationType::Simple, sql(s).into_sql_str(), false))
            .collect();
        Migrator::with_migrations(migrations)
            .run(&pool)
            .await
            .map_err(|e| format!("cannot migrate the database: {e}"))?;
        Ok(Store {
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

    /// PostgreSQL: sends events to every listening instance (at once, outside a change).
    pub async fn notify(&self, events: &[Event]) -> Result<(), ApiError> {
        if self.postgres {
            let mut conn = self.pool.acquire().await?;
            notify_in(&mut conn, events).await?;
        }
        Ok(())
    }

    /// Creates a game; returns its id and the tokens of the human seats (by seat index).
    pub async fn create(&self, setup: &Setup, seats: &[NewSeat]) -> Result<(String, Vec<Option<String>>), ApiError> {
        let game = start_game(setup).map_err(|e| ApiError::bad_request("bad_setup", e))?;
        let site = game.site();
        let player_count = match setup.variant {
            Variant::TwoPlayerFourColors => 2,
            _ => setup.players,
        };
        if seats.len() != player_count {
            return Err(ApiError::bad_request(
                "bad_setup",
                format!(
                    "this game has {player_count} players, so it needs {player_count} seats, not {}",
                    seats.len()
                ),
            ));
        }
        let shared = if setup.hot_seat { Some(new_token()?) } else { None };
        let mut tokens = Vec::new();
        for s in seats {
            tokens.push(match (s.kind, &shared) {
                (SeatKind::Ai, _) => None,
                (SeatKind::Human, Some(t)) => Some(t.clone()),
                (SeatKind::Human, None) => Some(new_token()?),
            });
        }
        let id = new_game_id()?;
        let now = now_ms();
        let (status, to_move) = match game.to_move() {
            Some(c) => ("open", c.to_string()),
            None => ("finished", String::new()),
        };
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, board, players, variant, colours, ruins, hot_seat, status, to_move, move_count, created, updated) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(&id)
        .bind(&site.board.name)
        .bind(setup.players as i64)
        .bind(setup.variant.name())
        .bind(colours_text(&site.order))
        .bind(setup.ruins.join(" "))
        .bind(setup.hot_seat as i64)
        .bind(status)
        .bind(to_move)
        .bind(0i64)
        .bind(now)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for (i, s) in seats.iter().enumerate() {
            sqlx::query(
                "INSERT INTO seats (game, seat, colours, kind, level, token_hash) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&id)
            .bind(i as i64)
            .bind(colours_text(&site.colours_of(i)))
            .bind(s.kind.name())
            .bind(s.level as i64)
            .bind(tokens[i].as_deref().map(hash_token).unwrap_or_default())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok((id, tokens))
    }

    /// Reads and replays a game.
    pub async fn load(&self, id: &str) -> Result<Loaded, ApiError> {
        let mut tx = self.pool.begin().await?;
        let loaded = load_in::<()>(&mut tx, id).await;
        let _ = tx.rollback().await;
        match loaded {
            Ok(l) => Ok(l),
            Err(Attempt::Failed(e)) => Err(e),
            Err(Attempt::Retry(e)) => Err(e.into()),
            Err(Attempt::Done(_)) => unreachable!(),
        }
    }

    /// Games not finished (for resuming AI turns), oldest first.
    pub async fn open_games(&self) -> Result<Vec<String>, ApiError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = $1 ORDER BY created")
            .bind("open")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>("id").map_err(ApiError::from))
            .collect()
    }

    /// The most recently updated games of a status.
    pub async fn list(&self, status: &str, limit: i64) -> Result<Vec<Summary>, ApiError> {
        let rows = sqlx::query(
            "SELECT id, board, players, variant, status, to_move, move_count, created, updated \
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
                    status: r.try_get("status")?,
                    to_move: r.try_get("to_move")?,
                    move_count: r.try_get("move_count")?,
                    created: r.try_get("created")?,
                    updated: r.try_get("updated")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(ApiError::from)
    }

    /// Accepts a move: one transaction checks the seat, the expected move number and (by the
    /// core) the move, and inserts it; it is committed before this returns.
    pub async fn submit(&self, id: &str, actor: &Actor<'_>, text: &str, expected: i64) -> Result<Accepted, ApiError> {
        let mut attempt = 0;
        loop {
            match self.try_submit(id, actor, text, expected).await {
                Attempt::Done(a) => return Ok(a),
                Attempt::Failed(e) => return Err(e),
                Attempt::Retry(e) => {
                    attempt += 1;
                    if attempt > 8 {
                        return Err(ApiError::new(
                            StatusCode::SERVICE_UNAVAILABLE,
                            "busy",
                            format!("the database stayed busy: {e}"),
                        ));
                    }
                    tokio::time::sleep(Duration::from_millis(5 << attempt.min(6))).await;
                }
            }
        }
    }

    async fn try_submit(&self, id: &str, actor: &Actor<'_>, text: &str, expected: i64) -> Attempt<Accepted> {
        let now = now_ms();
        let mut tx = attempt!(self.pool.begin().await);
        // Take the game's lock before reading anything.
        let locked = attempt!(
            sqlx::query("UPDATE games SET updated = $1 WHERE id = $2")
                .bind(now)
                .bind(id)
                .execute(&mut *tx)
                .await
        );
        if locked.rows_affected() == 0 {
            return Attempt::Failed(ApiError::not_found(id));
        }
        let mut loaded = match load_in(&mut tx, id).await {
            Ok(l) => l,
            Err(a) => return a,
        };
        // Who may move.
        let mover_seat = match actor {
            Actor::Ai(seat) => {
                let ok = loaded
                    .seat_to_move()
                    .is_some_and(|s| s.seat == *seat && s.kind == SeatKind::Ai);
                if !ok {
                    return Attempt::Failed(ApiError::conflict("not_your_turn", "the AI seat is not to move"));
                }
                *seat
            }
            Actor::Token(token) => {
                let held = attempt!(authorise(&loaded, *token));
                if loaded.game.is_over() {
                    return Attempt::Failed(ApiError::conflict("game_over", "the game is over"));
                }
                let seat = loaded.seat_to_move().map(|s| s.seat);
                match seat {
                    Some(s) if held.contains(&s) => s,
                    _ => {
                        let colour = loaded.game.to_move().map(|c| c.name()).unwrap_or("nobody");
                        return Attempt::Failed(
                            ApiError::conflict(
                                "not_your_turn",
                                format!("it is {colour}'s turn, and this token does not hold that seat"),
                            )
                            .with(json!({ "to_move": loaded.game.to_move().map(|c| c.to_string()) })),
                        );
                    }
                }
            }
        };
        let number = loaded.move_number();
        if expected != number {
            return Attempt::Failed(
                ApiError::conflict(
                    "stale_move_number",
                    format!("the next move is number {number}, not {expected}"),
                )
                .with(json!({ "move_number": number })),
            );
        }
        let game = &mut loaded.game;
        let colour = game.to_move().expect("checked: the game is not over");
        let out_before: Vec<Colour> = game
            .site()
            .order
            .iter()
            .copied()
            .filter(|&c| game.position().is_out(c))
            .collect();
        let m = match game.play_text(text) {
            Ok(m) => m,
            Err(MoveError::Syntax(s)) => {
                return Attempt::Failed(ApiError::bad_request("malformed_move", s));
            }
            Err(MoveError::Illegal(i)) => {
                return Attempt::Failed(ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "illegal_move",
                    format!("{}: {i}", printable(text)),
                ));
            }
        };
        let placement = game.notation(m);
        let newly_out: Vec<Colour> = game
            .site()
            .order
            .iter()
            .copied()
            .filter(|&c| game.position().is_out(c) && !out_before.contains(&c))
            .collect();
        let to_move = game.to_move();
        let over = game.is_over();
        attempt!(
            sqlx::query("INSERT INTO moves (game, number, placement, colour, created) VALUES ($1, $2, $3, $4, $5)")
                .bind(id)
                .bind(number)
                .bind(&placement)
                .bind(colour.to_string())
                .bind(now)
                .execute(&mut *tx)
                .await
        );
        attempt!(
            sqlx::query("UPDATE games SET status = $1, to_move = $2, move_count = $3 WHERE id = $4")
                .bind(if over { "finished" } else { "open" })
                .bind(to_move.map(|c| c.to_string()).unwrap_or_default())
                .bind(number)
                .bind(id)
                .execute(&mut *tx)
                .await
        );
        let outcome = game.outcome();
        let accepted = Accepted {
            game: id.to_string(),
            number,
            colour,
            placement,
            by: loaded.seats[mover_seat].kind,
            newly_out,
            to_move,
            over,
            scores: outcome.scores,
            winners: outcome.winners,
        };
        if self.postgres {
            attempt!(notify_in(&mut tx, &events::for_move(&accepted)).await);
        }
        attempt!(tx.commit().await);
        Attempt::Done(accepted)
    }

    /// Hot-seat only: takes back the last move made by a human seat, and the AI moves after it.
    pub async fn undo(&self, id: &str, token: Option<&str>, expected: i64) -> Result<Undone, ApiError> {
        let mut attempt = 0;
        loop {
            match self.try_undo(id, token, expected).await {
                Attempt::Done(u) => return Ok(u),
                Attempt::Failed(e) => return Err(e),
                Attempt::Retry(e) => {
                    attempt += 1;
                    if attempt > 8 {
                        return Err(ApiError::new(
                            StatusCode::SERVICE_UNAVAILABLE,
                            "busy",
                            format!("the database stayed busy: {e}"),
                        ));
                    }
                    tokio::time::sleep(Duration::from_millis(5 << attempt.min(6))).await;
                }
            }
        }
    }

    async fn try_undo(&self, id: &str, token: Option<&str>, expected: i64) -> Attempt<Undone> {
        let now = now_ms();
        let mut tx = attempt!(self.pool.begin().await);
        let locked = attempt!(
            sqlx::query("UPDATE games SET updated = $1 WHERE id = $2")
                .bind(now)
                .bind(id)
                .execute(&mut *tx)
                .await
        );
        if locked.rows_affected() == 0 {
            return Attempt::Failed(ApiError::not_found(id));
        }
        let mut loaded = match load_in(&mut tx, id).await {
            Ok(l) => l,
            Err(a) => return a,
        };
        attempt!(authorise(&loaded, token));
        if !loaded.setup.hot_seat {
            return Attempt::Failed(ApiError::new(
                StatusCode::FORBIDDEN,
                "undo_not_allowed",
                "undo is only for hot-seat games, where one token holds every human seat",
            ));
        }
        let number = loaded.move_number();
        if expected != number {
            return Attempt::Failed(
                ApiError::conflict(
                    "stale_move_number",
                    format!("the next move is number {number}, not {expected}"),
                )
                .with(json!({ "move_number": number })),
            );
        }
        // The last move made by a human seat.
        let game = &loaded.game;
        let human = (0..game.moves().len()).rev().find(|&i| {
            game.mover(i)
                .and_then(|c| loaded.seat_of(c))
                .is_some_and(|s| s.kind == SeatKind::Human)
        });
        let Some(first) = human else {
            return Attempt::Failed(ApiError::conflict("nothing_to_undo", "no human move to take back"));
        };
        let from = first as i64 + 1;
        attempt!(
            sqlx::query("DELETE FROM moves WHERE game = $1 AND number >= $2")
                .bind(id)
                .bind(from)
                .execute(&mut *tx)
                .await
        );
        while loaded.game.moves().len() > first {
            loaded.game.undo();
        }
        let to_move = loaded.game.to_move();
        attempt!(
            sqlx::query("UPDATE games SET status = $1, to_move = $2, move_count = $3 WHERE id = $4")
                .bind(if loaded.game.is_over() { "finished" } else { "open" })
                .bind(to_move.map(|c| c.to_string()).unwrap_or_default())
                .bind(first as i64)
                .bind(id)
                .execute(&mut *tx)
                .await
        );
        let undone = Undone {
            game: id.to_string(),
            removed: (from..number).collect(),
            move_number: from,
            to_move,
        };
        if self.postgres {
            attempt!(notify_in(&mut tx, &events::for_undo(&undone)).await);
        }
        attempt!(tx.commit().await);
        Attempt::Done(undone)
    }
}

/// The seats a token holds: 401 without a token, 403 when it holds none.
fn authorise(loaded: &Loaded, token: Option<&str>) -> Result<Vec<usize>, ApiError> {
    let Some(token) = token else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "missing_token",
            "moving needs the seat's token: 'Authorization: Bearer <token>' or \"token\" in the body",
        ));
    };
    let hash = hash_token(token);
    let held: Vec<usize> = loaded
        .seats
        .iter()
        .filter(|s| s.kind == SeatKind::Human && same_hash(&s.token_hash, &hash))
        .map(|s| s.seat)
        .collect();
    if held.is_empty() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "wrong_token",
            "this token holds no seat of this game",
        ));
    }
    Ok(held)
}

/// Drops a database (a PostgreSQL database, or a SQLite file), closing its connections:
/// for tests and tools.
pub async fn drop_database(url: &str) -> Result<(), String> {
    sqlx::any::install_default_drivers();
    sqlx::Any::force_drop_database(url)
        .await
        .map_err(|e| format!("cannot drop the database {}: {e}", redact(url)))
}

/// PostgreSQL: queues events on the connection; inside a transaction they are delivered at
/// its commit, in commit order, and dropped if it rolls back.
async fn notify_in(conn: &mut AnyConnection, events: &[Event]) -> Result<(), sqlx::Error> {
    for e in events {
        sqlx::query("SELECT pg_notify($1, $2)")
            .bind(events::CHANNEL)
            .bind(e.to_payload())
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
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

async fn load_in<T>(conn: &mut AnyConnection, id: &str) -> Result<Loaded, Attempt<T>> {
    let row: Option<AnyRow> = sqlx::query(
        "SELECT board, players, variant, colours, ruins, hot_seat, created, updated FROM games WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Err(Attempt::Failed(ApiError::not_found(id)));
    };
    let variant_name: String = row.try_get("variant")?;
    let ruins: String = row.try_get("ruins")?;
    let setup = Setup {
        board: row.try_get("board")?,
        players: row.try_get::<i64, _>("players")? as usize,
        variant: Variant::from_name(&variant_name)
            .ok_or_else(|| ApiError::internal(format!("stored variant '{variant_name}' is unknown")))?,
        colours: parse_colours(&row.try_get::<String, _>("colours")?)?,
        ruins: ruins.split_whitespace().map(String::from).collect(),
        hot_seat: row.try_get::<i64, _>("hot_seat")? != 0,
    };
    let created: i64 = row.try_get("created")?;
    let updated: i64 = row.try_get("updated")?;
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
    let move_rows = sqlx::query("SELECT number, placement, colour, created FROM moves WHERE game = $1 ORDER BY number")
        .bind(id)
        .fetch_all(&mut *conn)
        .await?;
    let mut moves = Vec::new();
    for r in &move_rows {
        moves.push(MoveRow {
            number: r.try_get("number")?,
            placement: r.try_get("placement")?,
            colour: r.try_get("colour")?,
            created: r.try_get("created")?,
        });
    }
    let mut game = start_game(&setup).map_err(|e| ApiError::internal(format!("stored game {id}: {e}")))?;
    for (i, m) in moves.iter().enumerate() {
        if m.number != i as i64 + 1 {
            return Err(Attempt::Failed(ApiError::internal(format!(
                "stored game {id}: move {} is missing",
                i + 1
            ))));
        }
        game.play_text(&m.placement).map_err(|e| {
            ApiError::internal(format!(
                "stored game {id}: move {} '{}' does not replay: {e}",
                m.number, m.placement
            ))
        })?;
    }
    Ok(Loaded {
        id: id.to_string(),
        setup,
        seats,
        moves,
        game,
        created,
        updated,
    })
}
