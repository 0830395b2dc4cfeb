//! Storage of finished games' reviews (migration 0011). SQL only: when a review is asked,
//! claimed, advanced or finished is decided by the review service (`service/review.rs`).
//!
//! Every change of a review under way is one conditional `UPDATE` on its holder or its
//! lease, so that two instances (or a restarted one and its previous life) never both
//! compute one review: PostgreSQL evaluates the condition again on the row's newest version
//! after waiting for its lock, and SQLite has one writer at a time.

use std::time::Duration;

use sqlx::any::AnyRow;
use sqlx::Row;

use super::Store;
use crate::error::GameError;

/// How long a review's write waits for the writer before answering busy.
const REVIEW_WRITE_WAIT: Duration = Duration::from_secs(2);

/// A review as stored.
#[derive(Clone, Debug)]
pub struct ReviewRow {
    pub status: String,
    pub done: i64,
    pub total: i64,
    pub simulations: i64,
    /// The answer's JSON once done, `''` before.
    pub review: String,
    pub asker: String,
    pub holder: String,
    pub lease: i64,
}

fn review_from(r: &AnyRow) -> Result<ReviewRow, sqlx::Error> {
    Ok(ReviewRow {
        status: r.try_get("status")?,
        done: r.try_get("done")?,
        total: r.try_get("total")?,
        simulations: r.try_get("simulations")?,
        review: r.try_get("review")?,
        asker: r.try_get("asker")?,
        holder: r.try_get("holder")?,
        lease: r.try_get("lease")?,
    })
}

impl Store {
    pub async fn read_review(&self, id: &str) -> Result<Option<ReviewRow>, GameError> {
        let row = sqlx::query(
            "SELECT status, done, total, simulations, review, asker, holder, lease FROM reviews WHERE game = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(review_from).transpose()?)
    }

    /// Reviews under way that `asker` asked for.
    pub async fn reviews_under_way_by(&self, asker: &str) -> Result<i64, GameError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM reviews WHERE asker = $1 AND status <> 'done'")
            .bind(asker)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Asks for a game's review, held by `holder` until `until`; `false` when it was asked
    /// for already (the first ask wins, on both databases, by the primary key).
    pub async fn insert_review(
        &self,
        id: &str,
        asker: &str,
        simulations: u64,
        holder: &str,
        until: i64,
        now: i64,
    ) -> Result<bool, GameError> {
        let mut w = self.begin_write(REVIEW_WRITE_WAIT).await?;
        let r = sqlx::query(
            "INSERT INTO reviews (game, status, done, total, simulations, review, asker, holder, lease, created, updated) \
             VALUES ($1, 'queued', 0, 0, $2, '', $3, $4, $5, $6, $7) ON CONFLICT (game) DO NOTHING",
        )
        .bind(id)
        .bind(simulations as i64)
        .bind(asker)
        .bind(holder)
        .bind(until)
        .bind(now)
        .bind(now)
        .execute(&mut *w.tx)
        .await?;
        w.tx.commit().await?;
        Ok(r.rows_affected() > 0)
    }

    /// Takes over a review under way whose lease expired before `now`, for `holder` until
    /// `until`, to compute it again from its start; `false` when it is done or held.
    pub async fn claim_review(
        &self,
        id: &str,
        holder: &str,
        simulations: u64,
        now: i64,
        until: i64,
    ) -> Result<bool, GameError> {
        let mut w = self.begin_write(REVIEW_WRITE_WAIT).await?;
        let r = sqlx::query(
            "UPDATE reviews SET holder = $1, lease = $2, status = 'queued', done = 0, total = 0, \
             simulations = $3, updated = $4 WHERE game = $5 AND status <> 'done' AND lease < $6",
        )
        .bind(holder)
        .bind(until)
        .bind(simulations as i64)
        .bind(now)
        .bind(id)
        .bind(now)
        .execute(&mut *w.tx)
        .await?;
        w.tx.commit().await?;
        Ok(r.rows_affected() > 0)
    }

    /// Reviews under way whose lease expired before `now` (games' ids), oldest first.
    pub async fn reviews_unheld(&self, now: i64, limit: i64) -> Result<Vec<String>, GameError> {
        let rows =
            sqlx::query("SELECT game FROM reviews WHERE status <> 'done' AND lease < $1 ORDER BY lease LIMIT $2")
                .bind(now)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows.iter().map(|r| r.try_get("game")).collect::<Result<_, _>>()?)
    }

    /// A review's progress, and its lease renewed, if `holder` still holds it; `false`
    /// when another took it over (this one stalled past its lease).
    #[allow(clippy::too_many_arguments)]
    pub async fn set_review_progress(
        &self,
        id: &str,
        holder: &str,
        status: &str,
        done: usize,
        total: usize,
        until: i64,
        now: i64,
    ) -> Result<bool, GameError> {
        let mut w = self.begin_write(REVIEW_WRITE_WAIT).await?;
        let r = sqlx::query(
            "UPDATE reviews SET status = $1, done = $2, total = $3, lease = $4, updated = $5 \
             WHERE game = $6 AND holder = $7 AND status <> 'done'",
        )
        .bind(status)
        .bind(done as i64)
        .bind(total as i64)
        .bind(until)
        .bind(now)
        .bind(id)
        .bind(holder)
        .execute(&mut *w.tx)
        .await?;
        w.tx.commit().await?;
        Ok(r.rows_affected() > 0)
    }

    /// Keeps a finished review (its answer's JSON), if `holder` still holds it.
    pub async fn finish_review(
        &self,
        id: &str,
        holder: &str,
        review: &str,
        searches: usize,
        now: i64,
    ) -> Result<bool, GameError> {
        let mut w = self.begin_write(REVIEW_WRITE_WAIT).await?;
        let r = sqlx::query(
            "UPDATE reviews SET status = 'done', done = $1, total = $2, review = $3, holder = '', lease = 0, \
             updated = $4 WHERE game = $5 AND holder = $6 AND status <> 'done'",
        )
        .bind(searches as i64)
        .bind(searches as i64)
        .bind(review)
        .bind(now)
        .bind(id)
        .bind(holder)
        .execute(&mut *w.tx)
        .await?;
        w.tx.commit().await?;
        Ok(r.rows_affected() > 0)
    }
}
