//! Finished games' reviews (issue #53): every move beside the best placement a search
//! found, marks, a summary per colour and the win-estimate graph (`rumis_ai::review`),
//! computed once per game and kept in the database (store/reviews.rs).
//!
//! - **Asked, not automatic.** A review costs tens of searches at level 8's budget (seconds
//!   to a minute of a thread), and most finished games are never looked at again: it is
//!   computed when someone asks (`POST /games/{id}/review`), once; everyone after reads it.
//! - **Fair.** Each position's search waits for a thread of the AI's scheduler
//!   (`queue.rs`, [`AiQueue::admit_background`]) under the asker's address, in the lane of
//!   AI-only games: a review never takes the last thread from a person waiting, and the
//!   reviews of many games, like their AI moves, take turns search by search. An address
//!   has at most [`UNDER_WAY_PER_ASKER`] reviews under way.
//! - **Once.** The row's primary key makes the first ask the one that computes; every
//!   change of a review under way is conditional on its holder (this instance's name,
//!   random per process) and the review is held by a lease renewed as it goes. A review
//!   whose lease expired (its instance stopped or died) is claimed by the first instance
//!   that looks (every heartbeat, and when it is asked for) and computed again from its
//!   start: a review is deterministic for its record and budget, so nothing is lost but
//!   time.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rumis_ai::review::{Reviewer, THRESHOLDS};
use rumis_wire as wire;
use tokio::sync::mpsc;

use super::Games;
use crate::error::GameError;
use crate::store::ReviewRow;

/// Reviews one address may have under way at once.
pub const UNDER_WAY_PER_ASKER: i64 = 3;
/// Simulations per position by default: level 8's budget.
pub const DEFAULT_SIMULATIONS: u64 = 10_000;
/// How often a review under way writes its progress (and renews its lease) at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);
/// Reviews claimed at most per look.
const CLAIMS_AT_ONCE: i64 = 16;

pub struct Reviews {
    games: Arc<Games>,
    /// Simulations per position of the reviews this instance computes.
    simulations: u64,
    /// This instance's name in the reviews' `holder`.
    instance: String,
    lease: Duration,
    heartbeat: Duration,
    /// Reviews this instance computes now.
    running: Mutex<HashSet<String>>,
    /// Games whose review to start, to the task that runs them ([`Reviews::run`]).
    start: mpsc::UnboundedSender<String>,
    starts: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
}

/// The answer for a stored review.
fn progress(id: &str, row: &ReviewRow) -> Result<wire::ReviewProgress, GameError> {
    let review = if row.status == "done" {
        Some(
            serde_json::from_str(&row.review)
                .map_err(|e| GameError::internal(format!("a stored review cannot be read: {e}")))?,
        )
    } else {
        None
    };
    Ok(wire::ReviewProgress {
        game: id.to_string(),
        status: row.status.clone(),
        done: row.done.max(0) as usize,
        total: row.total.max(0) as usize,
        simulations: row.simulations.max(0) as u64,
        review,
    })
}

impl Reviews {
    /// Reviews of `simulations` per position, held by leases of `lease` looked at every
    /// `heartbeat`.
    pub fn new(games: Arc<Games>, simulations: u64, lease: Duration, heartbeat: Duration) -> Reviews {
        let (start, starts) = mpsc::unbounded_channel();
        let instance =
            crate::game::random_hex(8).unwrap_or_else(|_| format!("{}-{}", std::process::id(), games.now_ms()));
        Reviews {
            games,
            simulations: simulations.max(1),
            instance,
            lease,
            heartbeat,
            running: Mutex::new(HashSet::new()),
            start,
            starts: Mutex::new(Some(starts)),
        }
    }

    fn until(&self, now: i64) -> i64 {
        now + self.lease.as_millis() as i64
    }

    /// `GET /games/{id}/review`: the review, or its progress; `404 no_review` when nobody
    /// asked for one.
    pub async fn get(&self, id: &str) -> Result<wire::ReviewProgress, GameError> {
        let row = match self.games.store().read_review(id).await? {
            Some(row) => row,
            None => {
                // An unknown game says so first.
                self.games.load(id).await?;
                return Err(GameError::NoReview);
            }
        };
        self.claim_if_unheld(id, &row).await?;
        progress(id, &row)
    }

    /// `POST /games/{id}/review` from `asker`: starts the review of a finished game if
    /// nobody asked before, and answers where it stands.
    pub async fn ask(&self, id: &str, asker: &str) -> Result<wire::ReviewProgress, GameError> {
        if let Some(row) = self.games.store().read_review(id).await? {
            self.claim_if_unheld(id, &row).await?;
            return progress(id, &row);
        }
        let loaded = self.games.load(id).await?;
        // Finished, abandoned or called off: no move can come any more.
        if loaded.status.is_live() {
            return Err(GameError::GameNotFinished(format!(
                "game {id} is {}: only a finished game is reviewed",
                loaded.status
            )));
        }
        if self.games.store().reviews_under_way_by(asker).await? >= UNDER_WAY_PER_ASKER {
            return Err(GameError::TooManyReviews(format!(
                "at most {UNDER_WAY_PER_ASKER} reviews asked from one address are computed at once; ask again when one is done"
            )));
        }
        let now = self.games.now_ms();
        let inserted = self
            .games
            .store()
            .insert_review(id, asker, self.simulations, &self.instance, self.until(now), now)
            .await?;
        if inserted {
            self.launch(id);
        }
        let row = self
            .games
            .store()
            .read_review(id)
            .await?
            .ok_or_else(|| GameError::internal("a review asked for is not stored"))?;
        progress(id, &row)
    }

    /// A review under way whose lease expired is taken over here (module doc).
    async fn claim_if_unheld(&self, id: &str, row: &ReviewRow) -> Result<(), GameError> {
        let now = self.games.now_ms();
        if row.status != "done" && row.lease < now && self.claim(id, now).await? {
            self.launch(id);
        }
        Ok(())
    }

    async fn claim(&self, id: &str, now: i64) -> Result<bool, GameError> {
        self.games
            .store()
            .claim_review(id, &self.instance, self.simulations, now, self.until(now))
            .await
    }

    fn launch(&self, id: &str) {
        let fresh = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id.to_string());
        if fresh {
            let _ = self.start.send(id.to_string());
        }
    }

    /// Claims the reviews whose lease expired (an instance that stopped or died, this one's
    /// previous life after a restart) and computes them here.
    pub async fn take_over(&self) -> Result<usize, GameError> {
        let now = self.games.now_ms();
        let mut taken = 0;
        for id in self.games.store().reviews_unheld(now, CLAIMS_AT_ONCE).await? {
            if self.claim(&id, now).await? {
                tracing::info!(game = %id, "taking over a review nobody computes");
                self.launch(&id);
                taken += 1;
            }
        }
        Ok(taken)
    }

    /// The task that computes this instance's reviews, each in a task of its own, and
    /// looks for reviews to take over every heartbeat; aborted with the server (which ends
    /// the reviews under way: their leases expire and the next look computes them again).
    pub fn start(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let this = self.clone();
        let starts = self.starts.lock().unwrap_or_else(|e| e.into_inner()).take();
        tokio::spawn(async move {
            let Some(mut starts) = starts else { return };
            let mut jobs = tokio::task::JoinSet::new();
            let mut look = tokio::time::interval(this.heartbeat);
            look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    Some(id) = starts.recv() => {
                        let this = this.clone();
                        jobs.spawn(async move {
                            if let Err(e) = this.compute(&id).await {
                                tracing::warn!(game = %id, "review stopped: {e}");
                            }
                            this.running.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
                        });
                    }
                    _ = look.tick() => {
                        if let Err(e) = this.take_over().await {
                            tracing::warn!("cannot look for reviews to take over: {e}");
                        }
                    }
                    Some(_) = jobs.join_next(), if !jobs.is_empty() => {}
                }
            }
        })
    }

    /// Computes one review, search by search, each on a thread the AI's scheduler gives.
    async fn compute(self: &Arc<Self>, id: &str) -> Result<(), String> {
        let store = self.games.store();
        let Some(row) = store.read_review(id).await.map_err(|e| e.to_string())? else {
            return Ok(());
        };
        if row.status == "done" || row.holder != self.instance {
            return Ok(());
        }
        let loaded = self.games.load(id).await.map_err(|e| e.to_string())?;
        let game = loaded.game;
        let simulations = row.simulations.max(1) as u64;
        let config = wire::review::config(simulations);
        let mut reviewer = Reviewer::new(&game, &config, &THRESHOLDS)?;
        let queue = self.games.queue();
        let mut written: Option<Instant> = None;
        loop {
            let slot = queue
                .admit_background(&row.asker)
                .await
                .ok_or("the AI's scheduler is gone")?;
            let (back, more) = crate::search_thread::spawn(slot.nicer(), move || {
                let more = reviewer.step();
                drop(slot);
                (reviewer, more)
            })
            .await
            .map_err(|e| format!("the search failed: {e}"))?;
            reviewer = back;
            let more = more?;
            if !more {
                break;
            }
            if written.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) {
                let (done, total) = reviewer.progress();
                let now = self.games.now_ms();
                let held = store
                    .set_review_progress(id, &self.instance, "running", done, total, self.until(now), now)
                    .await
                    .map_err(|e| e.to_string())?;
                if !held {
                    return Err("another instance took the review over".into());
                }
                written = Some(Instant::now());
            }
        }
        let (done, _) = reviewer.progress();
        let answer = wire::review::answer(&game, &reviewer.finish(), simulations, &THRESHOLDS);
        let json = serde_json::to_string(&answer).map_err(|e| e.to_string())?;
        store
            .finish_review(id, &self.instance, &json, done, self.games.now_ms())
            .await
            .map_err(|e| e.to_string())?;
        Ok(())
    }
}
