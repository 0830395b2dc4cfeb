//! Storage of a game's clock: its rule and state on the game's row, each seat's time left
//! on the seat's, and the games whose running clock ran out (which `clock.rs` fires).

use sqlx::{AnyConnection, Row};

use super::Store;
use crate::clock::{self, Clock, OnTimeout};
use crate::error::GameError;

impl Store {
    /// A game's clock (rule and state), if it has one.
    pub async fn read_clock_in(conn: &mut AnyConnection, id: &str) -> Result<Option<Clock>, GameError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CLOCK_COLUMNS} FROM games g WHERE g.id = $1"
        )))
        .bind(id)
        .fetch_optional(&mut *conn)
        .await?;
        let Some(row) = row else { return Ok(None) };
        if clock::Kind::from_name(&row.try_get::<String, _>("clock_kind")?).is_none() {
            return Ok(None);
        }
        let remaining = sqlx::query("SELECT remaining_ms FROM seats WHERE game = $1 ORDER BY seat")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?
            .iter()
            .map(|r| r.try_get::<i64, _>("remaining_ms"))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(clock_from(&row, remaining)?)
    }

    /// Stores a game's clock: its rule, its state and when the running seat's time runs
    /// out (`due`, which the timeout task looks for).
    pub async fn write_clock_in(conn: &mut AnyConnection, id: &str, c: &Clock) -> Result<(), GameError> {
        sqlx::query(
            "UPDATE games SET clock_kind = $1, clock_initial_ms = $2, clock_increment_ms = $3, clock_per_move_ms = $4, \
             on_timeout = $5, timeout_level = $6, clock_running = $7, clock_since = $8, due = $9 WHERE id = $10",
        )
        .bind(c.rule.kind.name())
        .bind(c.rule.initial_ms)
        .bind(c.rule.increment_ms)
        .bind(c.rule.per_move_ms)
        .bind(c.rule.on_timeout.name())
        .bind(match c.rule.on_timeout {
            OnTimeout::Ai(l) => l as i64,
            OnTimeout::Out => 0,
        })
        .bind(c.running.map_or(-1, |s| s as i64))
        .bind(c.since)
        .bind(c.due())
        .bind(id)
        .execute(&mut *conn)
        .await?;
        for (seat, ms) in c.remaining.iter().enumerate() {
            sqlx::query("UPDATE seats SET remaining_ms = $1 WHERE game = $2 AND seat = $3")
                .bind(*ms)
                .bind(id)
                .bind(seat as i64)
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    }

    /// Games whose running clock ran out by `now`, soonest first, at most `limit`.
    pub async fn due_games(&self, now: i64, limit: i64) -> Result<Vec<String>, GameError> {
        let rows = sqlx::query("SELECT id FROM games WHERE due <= $1 AND status = 'open' ORDER BY due LIMIT $2")
            .bind(now)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| r.try_get::<String, _>("id"))
            .collect::<Result<_, _>>()
            .map_err(GameError::from)
    }

    /// Claims a game whose clock ran out by `now`, inside a write: PostgreSQL locks its row
    /// and skips it when another instance holds it (`FOR UPDATE SKIP LOCKED`); SQLite holds
    /// the database's write lock already. `false`: not due (any more), or claimed elsewhere.
    pub async fn claim_due_in(conn: &mut AnyConnection, id: &str, now: i64, postgres: bool) -> Result<bool, GameError> {
        let q = if postgres {
            "SELECT id FROM games WHERE id = $1 AND due <= $2 AND status = 'open' FOR UPDATE SKIP LOCKED"
        } else {
            "SELECT id FROM games WHERE id = $1 AND due <= $2 AND status = 'open'"
        };
        let row = sqlx::query(q).bind(id).bind(now).fetch_optional(&mut *conn).await?;
        Ok(row.is_some())
    }
}

/// The columns of a game's clock, as `SELECT`ed by [`Store::read_clock_in`] and the lobby's
/// lists (`CLOCK_COLUMNS`).
pub(crate) const CLOCK_COLUMNS: &str = "g.clock_kind, g.clock_initial_ms, g.clock_increment_ms, g.clock_per_move_ms, \
     g.on_timeout, g.timeout_level, g.clock_running, g.clock_since";

/// A game's clock from its row's clock columns and its seats' time left (by seat); `None`
/// for an untimed game.
pub(crate) fn clock_from(row: &sqlx::any::AnyRow, remaining: Vec<i64>) -> Result<Option<Clock>, sqlx::Error> {
    let kind: String = row.try_get("clock_kind")?;
    let Some(kind) = clock::Kind::from_name(&kind) else {
        return Ok(None);
    };
    let on_timeout = match row.try_get::<String, _>("on_timeout")?.as_str() {
        "ai" => OnTimeout::Ai(row.try_get::<i64, _>("timeout_level")?.clamp(1, 9) as u8),
        _ => OnTimeout::Out,
    };
    let running: i64 = row.try_get("clock_running")?;
    Ok(Some(Clock {
        rule: clock::Rule {
            kind,
            initial_ms: row.try_get("clock_initial_ms")?,
            increment_ms: row.try_get("clock_increment_ms")?,
            per_move_ms: row.try_get("clock_per_move_ms")?,
            on_timeout,
        },
        running: usize::try_from(running).ok(),
        since: row.try_get("clock_since")?,
        remaining,
    }))
}
