//! Storage of the game's puzzles' ratings and attempts (migration 0012). SQL only: what an
//! attempt changes is decided by the training service (`service/training.rs`).
//!
//! A rated attempt takes its rows' locks before it reads them: the first attempt's row is
//! inserted first (`ON CONFLICT DO NOTHING`: of two first attempts sent at once, one
//! inserts and the other finds it), then the player's and the puzzle's rating rows are
//! made if missing and updated in place ([`Store::lock_training_rating_in`]), so that two
//! attempts at one puzzle by two players never write over each other's change.

use std::collections::HashMap;

use sqlx::{AnyConnection, Row};

use super::Store;
use crate::error::GameError;

/// A Glicko-2 rating as stored, with its rated attempts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingRatingRow {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub attempts: i64,
}

/// Which table a rating is in: a player's or a puzzle's.
#[derive(Clone, Copy, Debug)]
pub enum Rated {
    Player,
    Puzzle,
}

impl Rated {
    fn table(self) -> &'static str {
        match self {
            Rated::Player => "training_ratings",
            Rated::Puzzle => "training_puzzles",
        }
    }

    fn key(self) -> &'static str {
        match self {
            Rated::Player => "player",
            Rated::Puzzle => "id",
        }
    }
}

/// A player's first attempt at a puzzle.
#[derive(Clone, Debug)]
pub struct FirstAttempt<'a> {
    pub player: &'a str,
    pub puzzle: &'a str,
    pub placement: &'a str,
    pub solved: bool,
    /// The player's rating before (after: the same, until the rated attempt sets it).
    pub before: f64,
    pub now: i64,
}

impl Store {
    /// A rating, if it has a row (`None`: the player has no rated attempt yet, or the
    /// puzzle has its file's starting values).
    pub async fn training_rating(&self, which: Rated, id: &str) -> Result<Option<TrainingRatingRow>, GameError> {
        let mut conn = self.pool.acquire().await?;
        Self::training_rating_in(&mut conn, which, id).await
    }

    pub async fn training_rating_in(
        conn: &mut AnyConnection,
        which: Rated,
        id: &str,
    ) -> Result<Option<TrainingRatingRow>, GameError> {
        let q = format!(
            "SELECT rating, deviation, volatility, attempts FROM {} WHERE {} = $1",
            which.table(),
            which.key()
        );
        let row = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
        Ok(match row {
            Some(r) => Some(TrainingRatingRow {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
                attempts: r.try_get("attempts")?,
            }),
            None => None,
        })
    }

    /// Every puzzle's rating that has moved from its file's, by id.
    pub async fn training_puzzle_ratings(&self) -> Result<HashMap<String, f64>, GameError> {
        let rows = sqlx::query("SELECT id, rating FROM training_puzzles")
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("rating")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(GameError::from)
    }

    /// The puzzles a player has tried.
    pub async fn training_tried(&self, player: &str) -> Result<Vec<String>, GameError> {
        let rows = sqlx::query("SELECT puzzle FROM training_attempts WHERE player = $1")
            .bind(player)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| r.try_get("puzzle")).collect::<Result<_, _>>()?)
    }

    /// Whether a player has tried a puzzle.
    pub async fn training_has_tried(&self, player: &str, puzzle: &str) -> Result<bool, GameError> {
        let row = sqlx::query("SELECT tries FROM training_attempts WHERE player = $1 AND puzzle = $2")
            .bind(player)
            .bind(puzzle)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.is_some())
    }

    /// Records a player's first attempt at a puzzle; `false` (and nothing written but one
    /// more try counted) when they had tried it before.
    pub async fn insert_first_attempt_in(conn: &mut AnyConnection, a: &FirstAttempt<'_>) -> Result<bool, GameError> {
        let r = sqlx::query(
            "INSERT INTO training_attempts \
             (player, puzzle, placement, solved, before_rating, after_rating, tries, created, updated) \
             VALUES ($1, $2, $3, $4, $5, $5, 1, $6, $6) ON CONFLICT (player, puzzle) DO NOTHING",
        )
        .bind(a.player)
        .bind(a.puzzle)
        .bind(a.placement)
        .bind(a.solved as i64)
        .bind(a.before)
        .bind(a.now)
        .execute(&mut *conn)
        .await?;
        if r.rows_affected() > 0 {
            return Ok(true);
        }
        sqlx::query("UPDATE training_attempts SET tries = tries + 1, updated = $3 WHERE player = $1 AND puzzle = $2")
            .bind(a.player)
            .bind(a.puzzle)
            .bind(a.now)
            .execute(&mut *conn)
            .await?;
        Ok(false)
    }

    /// The rating after a first attempt, on its row.
    pub async fn set_first_attempt_after_in(
        conn: &mut AnyConnection,
        player: &str,
        puzzle: &str,
        after: f64,
    ) -> Result<(), GameError> {
        sqlx::query("UPDATE training_attempts SET after_rating = $3 WHERE player = $1 AND puzzle = $2")
            .bind(player)
            .bind(puzzle)
            .bind(after)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Takes a rating row's lock inside a write, making the row with `start` if it is
    /// missing, and reads it.
    pub async fn lock_training_rating_in(
        conn: &mut AnyConnection,
        which: Rated,
        id: &str,
        start: TrainingRatingRow,
        now: i64,
    ) -> Result<TrainingRatingRow, GameError> {
        let (table, key) = (which.table(), which.key());
        let extra = match which {
            Rated::Player => "",
            Rated::Puzzle => ", solves",
        };
        let extra_value = match which {
            Rated::Player => "",
            Rated::Puzzle => ", 0",
        };
        let insert = format!(
            "INSERT INTO {table} ({key}, rating, deviation, volatility, attempts, updated{extra}) \
             VALUES ($1, $2, $3, $4, $5, $6{extra_value}) ON CONFLICT ({key}) DO NOTHING"
        );
        sqlx::query(sqlx::AssertSqlSafe(insert))
            .bind(id)
            .bind(start.rating)
            .bind(start.deviation)
            .bind(start.volatility)
            .bind(start.attempts)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        let lock = format!("UPDATE {table} SET updated = $2 WHERE {key} = $1");
        sqlx::query(sqlx::AssertSqlSafe(lock))
            .bind(id)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        Self::training_rating_in(conn, which, id)
            .await?
            .ok_or_else(|| GameError::internal(format!("the rating of {id} was not written")))
    }

    /// Writes a rating after a rated attempt (`solved`: counted among a puzzle's solves).
    pub async fn set_training_rating_in(
        conn: &mut AnyConnection,
        which: Rated,
        id: &str,
        r: TrainingRatingRow,
        solved: bool,
    ) -> Result<(), GameError> {
        let (table, key) = (which.table(), which.key());
        let solves = match which {
            Rated::Player => "",
            Rated::Puzzle => ", solves = solves + $6",
        };
        let q = format!(
            "UPDATE {table} SET rating = $2, deviation = $3, volatility = $4, attempts = $5{solves} WHERE {key} = $1"
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(q))
            .bind(id)
            .bind(r.rating)
            .bind(r.deviation)
            .bind(r.volatility)
            .bind(r.attempts);
        if matches!(which, Rated::Puzzle) {
            query = query.bind(solved as i64);
        }
        query.execute(&mut *conn).await?;
        Ok(())
    }
}
