//! Storage of the leases on AI turns (migration 0010). SQL only: when to take, renew,
//! release or claim a lease is decided by the game service (`service/ai_turns.rs`).
//!
//! Each change is one conditional `UPDATE` of the game's row, so that it is atomic on both
//! databases: PostgreSQL evaluates the condition again on the row's newest version after
//! waiting for its lock (of two instances claiming one turn, the second finds it held and
//! changes nothing), and SQLite has one writer at a time.

use std::time::Duration;

use sqlx::Row;

use super::{ai_turn_from, Store};
use crate::error::GameError;

/// How long a lease's write waits for the writer before answering busy.
const LEASE_WRITE_WAIT: Duration = Duration::from_secs(2);

/// An AI turn another instance may take (parameters `$1`: now, `$2`: waited since): no
/// lease is held on it at the game's present position, and either one taken there has
/// expired (its holder stopped its heartbeat) or the game has not changed since `$2` (its
/// turn waited a lease's length with nobody computing it).
macro_rules! unheld {
    () => {
        "ai_to_move = 1 AND status = 'open' \
         AND NOT (ai_holder <> '' AND ai_lease > $1 AND ai_lease_moves = move_count) \
         AND ((ai_lease > 0 AND ai_lease_moves = move_count) OR updated <= $2)"
    };
}

impl Store {
    /// Takes, or renews, the lease on a game's AI turn for `holder` until `until`, unless
    /// another instance holds it at the game's present position. `false`: another does (or
    /// there is no such game).
    pub async fn take_ai_lease(&self, id: &str, holder: &str, now: i64, until: i64) -> Result<bool, GameError> {
        let mut w = self.begin_write(LEASE_WRITE_WAIT).await?;
        let r = sqlx::query(
            "UPDATE games SET ai_holder = $1, ai_lease = $2, ai_lease_moves = move_count WHERE id = $3 \
             AND (ai_holder = $4 OR NOT (ai_holder <> '' AND ai_lease > $5 AND ai_lease_moves = move_count))",
        )
        .bind(holder)
        .bind(until)
        .bind(id)
        .bind(holder)
        .bind(now)
        .execute(&mut *w.tx)
        .await?;
        w.tx.commit().await?;
        Ok(r.rows_affected() > 0)
    }

    /// Who holds the lease on a game's AI turn at its present position at `now`, if anyone
    /// (a read: the write that takes it is [`Store::take_ai_lease`]).
    pub async fn ai_turn_holder(&self, id: &str, now: i64) -> Result<Option<String>, GameError> {
        let row = sqlx::query(
            "SELECT ai_holder FROM games WHERE id = $1 AND ai_holder <> '' AND ai_lease > $2 \
             AND ai_lease_moves = move_count",
        )
        .bind(id)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.try_get("ai_holder")).transpose()?)
    }

    /// Gives up `holder`'s lease on a game (nothing when another holds it now).
    pub async fn release_ai_lease(&self, id: &str, holder: &str) -> Result<(), GameError> {
        let mut w = self.begin_write(LEASE_WRITE_WAIT).await?;
        sqlx::query("UPDATE games SET ai_holder = '', ai_lease = 0 WHERE id = $1 AND ai_holder = $2")
            .bind(id)
            .bind(holder)
            .execute(&mut *w.tx)
            .await?;
        w.tx.commit().await
    }

    /// Open games whose AI turn another instance may take (see `unheld!`), with whether a
    /// human plays in them and who created them; least recently updated first, at most
    /// `limit`.
    pub async fn ai_turns_unheld(
        &self,
        now: i64,
        waited_since: i64,
        limit: i64,
    ) -> Result<Vec<(String, bool, String)>, GameError> {
        let rows = sqlx::query(concat!(
            "SELECT id, humans, creator FROM games WHERE ",
            unheld!(),
            " ORDER BY updated LIMIT $3"
        ))
        .bind(now)
        .bind(waited_since)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(ai_turn_from).collect::<Result<_, _>>()?)
    }

    /// Claims a game's AI turn for `holder` until `until` if another instance may still
    /// take it (see `unheld!`): of instances claiming one turn, one wins. `false`: held by
    /// another now, or moved on.
    pub async fn claim_ai_turn(
        &self,
        id: &str,
        holder: &str,
        now: i64,
        waited_since: i64,
        until: i64,
    ) -> Result<bool, GameError> {
        let mut w = self.begin_write(LEASE_WRITE_WAIT).await?;
        let r = sqlx::query(concat!(
            "UPDATE games SET ai_holder = $3, ai_lease = $4, ai_lease_moves = move_count WHERE id = $5 AND ",
            unheld!()
        ))
        .bind(now)
        .bind(waited_since)
        .bind(holder)
        .bind(until)
        .bind(id)
        .execute(&mut *w.tx)
        .await?;
        w.tx.commit().await?;
        Ok(r.rows_affected() > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store with one open game, its AI seat to move after one move, last changed at 1000.
    async fn store_with_a_game() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("leases.db").display());
        let store = Store::open(&url).await.unwrap();
        sqlx::query(
            "INSERT INTO games (id, board, players, variant, colours, ruins, hot_seat, status, to_move, \
             move_count, created, updated, ai_to_move, humans, creator) \
             VALUES ('g', 'chullpa', 2, 'standard', 'B Y', '', 0, 'open', 'Y', 1, 1000, 1000, 1, 1, 'x')",
        )
        .execute(&store.pool)
        .await
        .unwrap();
        (dir, store)
    }

    async fn unheld(store: &Store, now: i64, waited_since: i64) -> Vec<String> {
        let found = store.ai_turns_unheld(now, waited_since, 10).await.unwrap();
        found.into_iter().map(|(id, _, _)| id).collect()
    }

    async fn set(store: &Store, sql: &'static str) {
        sqlx::query(sql).execute(&store.pool).await.unwrap();
    }

    /// The lease's rules with the clock given: a held lease keeps other instances out until
    /// it expires, its holder renews it, one claim of an expired lease wins, a lease from an
    /// earlier position holds nothing, and an unheld turn waits a lease's length before it
    /// may be taken over. (`waited_since` 900 is before the game's last change at 1000,
    /// so only an expired lease makes a turn unheld, until the last check.)
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_lease_keeps_others_out_until_it_expires() {
        let (_dir, store) = store_with_a_game().await;
        assert!(unheld(&store, 1000, 900).await.is_empty(), "changed since 900");
        assert_eq!(store.ai_turn_holder("g", 1000).await.unwrap(), None);
        assert!(store.take_ai_lease("g", "a", 1000, 1100).await.unwrap());
        assert_eq!(store.ai_turn_holder("g", 1099).await.unwrap().as_deref(), Some("a"));
        assert_eq!(store.ai_turn_holder("g", 1100).await.unwrap(), None, "expired");
        assert!(!store.take_ai_lease("g", "b", 1050, 1150).await.unwrap(), "a holds it");
        assert!(store.take_ai_lease("g", "a", 1050, 1150).await.unwrap(), "a heartbeat");
        assert!(unheld(&store, 1100, 900).await.is_empty(), "renewed until 1150");
        assert!(!store.claim_ai_turn("g", "b", 1100, 900, 1200).await.unwrap());

        // a died: its lease expired at 1150.
        assert_eq!(unheld(&store, 1200, 900).await, ["g"]);
        assert!(store.claim_ai_turn("g", "b", 1200, 900, 1300).await.unwrap());
        assert!(!store.claim_ai_turn("g", "c", 1200, 900, 1300).await.unwrap(), "b won");
        assert!(!store.take_ai_lease("g", "a", 1200, 1300).await.unwrap(), "b holds it");
        store.release_ai_lease("g", "a").await.unwrap();
        assert!(
            !store.take_ai_lease("g", "c", 1250, 1350).await.unwrap(),
            "not a's to give up"
        );

        // The game moved on (b's move, and the AI is to move again): b's lease was for the
        // previous position.
        set(&store, "UPDATE games SET move_count = 2, updated = 1260").await;
        assert_eq!(
            store.ai_turn_holder("g", 1270).await.unwrap(),
            None,
            "an earlier position's"
        );
        assert!(store.take_ai_lease("g", "c", 1270, 1370).await.unwrap());
        store.release_ai_lease("g", "c").await.unwrap();

        // Nobody holds it: taken over only once the game waited since its last change.
        assert!(unheld(&store, 1300, 1250).await.is_empty());
        assert!(!store.claim_ai_turn("g", "d", 1300, 1250, 1400).await.unwrap());
        assert_eq!(unheld(&store, 1400, 1300).await, ["g"]);

        // No AI seat to move: nothing to take over, however long it waited.
        set(&store, "UPDATE games SET ai_to_move = 0").await;
        assert!(unheld(&store, 9000, 8000).await.is_empty());
        assert!(!store.claim_ai_turn("g", "d", 9000, 8000, 9100).await.unwrap());
    }
}
