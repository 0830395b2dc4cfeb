//! SQLite: group commit. Every SQLite commit waits for an `fsync` of the write-ahead log
//! (`synchronous = FULL`: an acknowledged move survives a power cut), and SQLite has one
//! writer at a time, so commits one after another cannot exceed one per `fsync` — about 7 ms
//! on the project's machine, fewer than the 200 moves a second of the load test
//! (docs/server-load.md). Here the writes that arrive while one is under way share one
//! transaction and one `fsync`:
//!
//! - One connection writes; a writer takes it in turn (a fair queue) and runs inside a
//!   `SAVEPOINT` of the open transaction (`BEGIN IMMEDIATE` when none is open).
//! - Its commit releases the savepoint; then, if no other writer is waiting, it commits the
//!   transaction at once. If others wait, they join the transaction first and a flush is
//!   queued behind them, which commits it; every member waits for that commit before it
//!   returns, so nothing is acknowledged (and no event published) before it is durable.
//! - A writer dropped without committing rolls back to its savepoint only: the other
//!   members' work stays. A failed `COMMIT` rolls the whole transaction back and every
//!   member gets the error (a busy database: the service tries the write again).
//!
//! A transaction is at most [`MAX_MEMBERS`] writes or [`MAX_AGE`] old before it is
//! committed, so a steady stream of writers cannot hold the first one's answer back.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool};
use tokio::sync::{watch, Mutex, OwnedMutexGuard};

use crate::error::GameError;

/// The most writes one transaction holds, and the oldest it may be, before it is committed.
const MAX_MEMBERS: usize = 64;
const MAX_AGE: Duration = Duration::from_millis(20);

/// A commit's outcome for its members: `Err((transient, message))`.
type Outcome = Option<Result<(), (bool, String)>>;

struct Batch {
    members: usize,
    started: Instant,
    done: watch::Sender<Outcome>,
}

#[derive(Default)]
pub(crate) struct State {
    conn: Option<PoolConnection<Any>>,
    batch: Option<Batch>,
    /// A flush is queued behind the waiting writers.
    flush_queued: bool,
}

/// The writer of an SQLite database.
pub(crate) struct Group {
    pool: AnyPool,
    state: Arc<Mutex<State>>,
    /// Writers waiting for their turn.
    waiting: AtomicUsize,
}

impl Group {
    pub fn new(pool: AnyPool) -> Arc<Group> {
        Arc::new(Group {
            pool,
            state: Arc::new(Mutex::new(State::default())),
            waiting: AtomicUsize::new(0),
        })
    }

    /// A writer's turn (waiting at most `wait`), inside a savepoint of the open transaction.
    pub async fn begin(self: &Arc<Group>, wait: Duration) -> Result<Member, GameError> {
        self.waiting.fetch_add(1, Ordering::SeqCst);
        let turn = tokio::time::timeout(wait, self.state.clone().lock_owned()).await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        let mut state = turn.map_err(|_| GameError::Busy("every writer is busy".into()))?;
        if state.conn.is_none() {
            state.conn = Some(self.pool.acquire().await?);
        }
        if state.batch.is_none() {
            if let Err(e) = run(&mut state, "BEGIN IMMEDIATE").await {
                discard(&mut state);
                return Err(e.into());
            }
            state.batch = Some(Batch {
                members: 0,
                started: Instant::now(),
                done: watch::channel(None).0,
            });
        }
        if let Err(e) = run(&mut state, "SAVEPOINT rumis_write").await {
            // The transaction's state is unknown: it is abandoned, its members retry.
            abort(&mut state, &e.to_string());
            return Err(e.into());
        }
        Ok(Member {
            group: self.clone(),
            state: Some(state),
        })
    }

    /// After a member's end: commits now when nobody waits (or the transaction is full or
    /// old), else queues a flush behind the waiting writers.
    async fn settle(self: &Arc<Group>, state: &mut OwnedMutexGuard<State>) {
        let Some(batch) = &state.batch else { return };
        let due = batch.members >= MAX_MEMBERS || batch.started.elapsed() >= MAX_AGE;
        if due || self.waiting.load(Ordering::SeqCst) == 0 {
            flush(state).await;
        } else if !state.flush_queued {
            state.flush_queued = true;
            let group = self.clone();
            tokio::spawn(async move {
                let mut state = group.state.clone().lock_owned().await;
                state.flush_queued = false;
                flush(&mut state).await;
            });
        }
    }
}

async fn run(state: &mut State, sql: &'static str) -> Result<(), sqlx::Error> {
    let conn = state.conn.as_mut().ok_or(sqlx::Error::PoolClosed)?;
    sqlx::query(sql).execute(&mut **conn).await.map(|_| ())
}

/// A connection in an unknown state is closed, never given back to the pool.
fn discard(state: &mut State) {
    if let Some(c) = state.conn.take() {
        drop(c.detach());
    }
}

/// Gives up the open transaction (closing its connection): its members get `why`.
fn abort(state: &mut State, why: &str) {
    discard(state);
    if let Some(b) = state.batch.take() {
        let _ = b
            .done
            .send(Some(Err((true, format!("the write was rolled back: {why}")))));
    }
}

/// Commits the open transaction, if any, and tells its members.
async fn flush(state: &mut State) {
    let Some(batch) = state.batch.take() else { return };
    let outcome = match run(state, "COMMIT").await {
        Ok(()) => Ok(()),
        Err(e) => {
            let transient = super::is_transient(&e);
            if run(state, "ROLLBACK").await.is_err() {
                discard(state);
            }
            Err((transient, e.to_string()))
        }
    };
    let _ = batch.done.send(Some(outcome));
}

/// A writer's place in the open transaction: the connection, by deref.
pub struct Member {
    group: Arc<Group>,
    state: Option<OwnedMutexGuard<State>>,
}

impl Member {
    fn conn(&self) -> &PoolConnection<Any> {
        self.state
            .as_ref()
            .and_then(|s| s.conn.as_ref())
            .expect("a member holds the writer's connection")
    }

    /// Keeps this write, and returns once the transaction holding it is committed.
    pub async fn commit(mut self) -> Result<(), GameError> {
        let mut state = self.state.take().expect("a member commits once");
        if let Err(e) = run(&mut state, "RELEASE SAVEPOINT rumis_write").await {
            abort(&mut state, &e.to_string());
            return Err(e.into());
        }
        let Some(batch) = state.batch.as_mut() else {
            return Err(GameError::internal("a write without its transaction"));
        };
        batch.members += 1;
        let mut done = batch.done.subscribe();
        self.group.settle(&mut state).await;
        drop(state);
        let outcome = done
            .wait_for(Option::is_some)
            .await
            .map(|o| o.clone())
            .map_err(|_| GameError::internal("the writer stopped"))?;
        match outcome {
            Some(Ok(())) => Ok(()),
            Some(Err((true, e))) => Err(GameError::Busy(format!("the database is busy: {e}"))),
            Some(Err((false, e))) => Err(GameError::internal(format!("database: {e}"))),
            None => Err(GameError::internal("no commit")),
        }
    }
}

impl Drop for Member {
    /// Not committed: this write alone is rolled back (the statements run in a task, as a
    /// destructor cannot wait); the writer's turn passes on when they are done.
    fn drop(&mut self) {
        let Some(mut state) = self.state.take() else { return };
        let group = self.group.clone();
        tokio::spawn(async move {
            let undone = async {
                run(&mut state, "ROLLBACK TO SAVEPOINT rumis_write").await?;
                run(&mut state, "RELEASE SAVEPOINT rumis_write").await
            }
            .await;
            if let Err(e) = undone {
                abort(&mut state, &e.to_string());
                return;
            }
            group.settle(&mut state).await;
        });
    }
}

impl Deref for Member {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        self.conn()
    }
}

impl DerefMut for Member {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        self.state
            .as_mut()
            .and_then(|s| s.conn.as_mut())
            .expect("a member holds the writer's connection")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Row;

    async fn store() -> (tempfile::TempDir, crate::store::Store) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("group.db").display());
        (dir, crate::store::Store::open(&url).await.unwrap())
    }

    /// Writers at once share transactions: each committed write is stored, each dropped
    /// one is not, whatever the others in its transaction did; and commits answer only
    /// once stored (a reader on another connection sees the row when commit returns).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn grouped_writes_commit_and_roll_back_each_alone() {
        let (_dir, store) = store().await;
        let mut w = store.begin_write(Duration::from_secs(5)).await.unwrap();
        sqlx::query("CREATE TABLE t (n INTEGER PRIMARY KEY)")
            .execute(&mut *w.tx)
            .await
            .unwrap();
        w.tx.commit().await.unwrap();
        let store = Arc::new(store);
        let mut tasks = Vec::new();
        for n in 0..200i64 {
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                let mut w = store.begin_write(Duration::from_secs(10)).await.unwrap();
                sqlx::query("INSERT INTO t (n) VALUES ($1)")
                    .bind(n)
                    .execute(&mut *w.tx)
                    .await
                    .unwrap();
                if n % 5 == 0 {
                    return false; // dropped: rolled back
                }
                // A duplicate key fails inside the write; the write is then dropped alone.
                if n % 7 == 0 {
                    let dup = sqlx::query("INSERT INTO t (n) VALUES ($1)")
                        .bind(n)
                        .execute(&mut *w.tx)
                        .await;
                    assert!(dup.is_err());
                    return false;
                }
                w.tx.commit().await.unwrap();
                let seen = sqlx::query("SELECT COUNT(*) AS c FROM t WHERE n = $1")
                    .bind(n)
                    .fetch_one(&store.pool)
                    .await
                    .unwrap()
                    .get::<i64, _>("c");
                assert_eq!(seen, 1, "write {n} answered before it was stored");
                true
            }));
        }
        let mut kept = Vec::new();
        for (n, t) in tasks.into_iter().enumerate() {
            if t.await.unwrap() {
                kept.push(n as i64);
            }
        }
        // Every dropped write's rollback has run once a later write has its turn.
        let w = store.begin_write(Duration::from_secs(5)).await.unwrap();
        w.tx.commit().await.unwrap();
        let rows: Vec<i64> = sqlx::query("SELECT n FROM t ORDER BY n")
            .fetch_all(&store.pool)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get::<i64, _>("n"))
            .collect();
        assert_eq!(rows, kept);
        // Less the multiples of 5 (40) and the other multiples of 7 (29 less the 6 of 35).
        assert_eq!(kept.len(), 200 - 40 - 23);
    }
}
