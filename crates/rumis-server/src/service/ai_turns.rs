//! Leases on AI turns, so that an AI turn survives the death of the instance computing it
//! when several instances share one database (issue #50). The AI queue (`queue.rs`) is in
//! memory, per instance; the lease is in the game's row (migration 0010):
//!
//! - A worker starting a game's AI turn ([`Games::holding_ai_turn`], around ai.rs `play`)
//!   skips it when another instance holds the lease at the game's present position;
//!   otherwise it takes the lease as the search starts, renews it every heartbeat while it
//!   searches, and gives it up when done.
//! - Every heartbeat, each instance with AI workers looks for open games with an AI seat to
//!   move that nobody holds — a lease taken at the present position that expired (its
//!   holder died or stalled), or none taken for a lease's length since the game last
//!   changed (the instance that queued the turn died before a worker started it) — claims
//!   each in one conditional write (one instance wins) and queues it
//!   ([`Games::take_over_ai_turns`]).
//!
//! An AI move's submission carries its move number, so a stalled holder that comes back and
//! submits after a takeover is refused (or its move wins and the other's is refused):
//! never two moves for one turn.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use super::Games;
use crate::error::GameError;
use crate::queue::Job;

/// Unheld AI turns looked at, and claimed at most, per heartbeat.
const TAKEOVERS_AT_ONCE: i64 = 32;

/// This instance's name in leases, and their timing.
#[derive(Clone, Debug)]
pub struct Leases {
    /// Random per process: a restarted instance does not hold its previous life's leases.
    pub instance: String,
    /// How long a lease lasts without a heartbeat; also how long an AI turn nobody took
    /// waits before another instance takes it.
    pub lease: Duration,
    /// How often a held lease is renewed, and unheld turns are looked for.
    pub heartbeat: Duration,
}

impl Leases {
    /// Leases of `lease`, renewed every `heartbeat`, which must be shorter (a lease renewed
    /// no sooner than it expires would be taken over under a live search).
    pub fn new(lease: Duration, heartbeat: Duration) -> Result<Leases, String> {
        if heartbeat.is_zero() || heartbeat >= lease {
            return Err(format!(
                "the AI lease's heartbeat ({heartbeat:?}) must be shorter than the lease ({lease:?}) and not zero"
            ));
        }
        let instance = crate::game::random_hex(8)
            .unwrap_or_else(|_| format!("{}-{}", std::process::id(), crate::Time::real().now_ms()));
        Ok(Leases {
            instance,
            lease,
            heartbeat,
        })
    }

    fn until(&self, now: i64) -> i64 {
        now + self.lease.as_millis() as i64
    }
}

/// Whether the first write of a turn's lease took it (logging why not).
fn taken_lease(id: &str, r: Result<bool, GameError>) -> bool {
    match r {
        Ok(true) => true,
        Ok(false) => {
            tracing::debug!(game = %id, "another instance claimed the AI turn as it started here");
            false
        }
        Err(e) => {
            tracing::warn!(game = %id, "cannot take the AI turn's lease, playing without: {e}");
            false
        }
    }
}

/// `RUMIS_FAULT=abort_holding_ai_turn`: a worker that took an AI turn's lease searches for
/// ever, renews the lease once, then the process aborts holding it (an instance dying
/// mid-search, for tests/server/takeover.rs).
fn fault_abort_holding_ai_turn() -> bool {
    static FAULT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAULT.get_or_init(|| std::env::var("RUMIS_FAULT").is_ok_and(|f| f == "abort_holding_ai_turn"))
}

impl Games {
    /// Runs `turn` (one AI move in the game, ai.rs `play`) holding the game's lease: taken
    /// as it starts, renewed every heartbeat, given up after. Nothing runs when another
    /// instance holds it. A database that cannot be asked does not hold the turn back: the
    /// move number keeps a second submission out.
    ///
    /// The lease is read first and written beside the search, not before it: on SQLite its
    /// write waits for an `fsync`, which a level-1 reply (a few milliseconds of search) would
    /// otherwise wait for too (examples/ai_reply.rs). Only an instance that claimed the turn
    /// in the moment between the read and the write can then search it too, and one of the
    /// two moves is refused by its number.
    pub async fn holding_ai_turn(self: &Arc<Self>, id: &str, turn: impl Future<Output = ()>) {
        let leases = &self.limits.ai_leases;
        match self.store.ai_turn_holder(id, self.now_ms()).await {
            Ok(Some(holder)) if holder != leases.instance => {
                tracing::debug!(game = %id, "another instance holds the AI turn");
                return;
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(game = %id, "cannot read the AI turn's lease: {e}"),
        }
        let take = self.take_ai_lease(id);
        tokio::pin!(take);
        if fault_abort_holding_ai_turn() {
            let _ = take.await;
            tokio::time::sleep(leases.heartbeat).await;
            let _ = self.take_ai_lease(id).await;
            eprintln!("rumis server: RUMIS_FAULT=abort_holding_ai_turn: aborting holding an AI turn");
            std::process::abort();
        }
        tokio::pin!(turn);
        // Renewed on the leases' time (the one their expiry is judged on).
        let mut beat_at = self.time.now() + leases.heartbeat;
        // `taken`: the first write answered; `held`: this instance holds the lease.
        let (mut taken, mut held) = (false, false);
        loop {
            tokio::select! {
                () = &mut turn => break,
                r = &mut take, if !taken => {
                    taken = true;
                    held = taken_lease(id, r);
                }
                () = self.time.sleep_until(beat_at), if held => {
                    beat_at = self.time.now() + leases.heartbeat;
                    match self.take_ai_lease(id).await {
                        Ok(true) => {}
                        // Another instance took the turn over (this one stalled past the
                        // lease): the move number decides whose move counts; the turn is
                        // not dropped half-way.
                        Ok(false) => {
                            tracing::warn!(game = %id, "another instance took the AI turn over");
                            held = false;
                        }
                        Err(e) => tracing::warn!(game = %id, "cannot renew the AI turn's lease: {e}"),
                    }
                }
            }
        }
        if !taken {
            held = taken_lease(id, take.await);
        }
        if held {
            let game = id.to_string();
            let released = self
                .detached("AI lease's release", |this| async move {
                    this.store
                        .release_ai_lease(&game, &this.limits.ai_leases.instance)
                        .await
                })
                .await;
            if let Err(e) = released {
                // It expires by itself.
                tracing::warn!(game = %id, "cannot give up the AI turn's lease: {e}");
            }
        }
    }

    /// Takes or renews this instance's lease on a game's AI turn (see
    /// [`Store::take_ai_lease`](crate::store::Store::take_ai_lease)). Like every write, in a
    /// task of its own ([`Games::detached`]): a worker stopped with the server cannot leave
    /// SQLite's writer inside the lease's transaction.
    async fn take_ai_lease(self: &Arc<Self>, id: &str) -> Result<bool, GameError> {
        let id = id.to_string();
        self.detached("AI lease", |this| async move {
            let leases = &this.limits.ai_leases;
            let now = this.now_ms();
            this.store
                .take_ai_lease(&id, &leases.instance, now, leases.until(now))
                .await
        })
        .await
    }

    /// Claims and queues the AI turns nobody holds (see the module's comment), at most
    /// [`TAKEOVERS_AT_ONCE`]; returns how many.
    pub async fn take_over_ai_turns(self: &Arc<Self>) -> Result<usize, GameError> {
        let leases = &self.limits.ai_leases;
        let now = self.now_ms();
        let waited_since = now - leases.lease.as_millis() as i64;
        let unheld = self.store.ai_turns_unheld(now, waited_since, TAKEOVERS_AT_ONCE).await?;
        let mut taken = 0;
        for (id, human, creator) in unheld {
            // A turn queued here that waited a lease's length is claimed too (the queue
            // ignores the second push): the claim keeps other instances off it for a lease,
            // at the price of a write per lease while it waits.
            let claimed = {
                let id = id.clone();
                self.detached("AI turn's claim", move |this| async move {
                    let leases = &this.limits.ai_leases;
                    let until = leases.until(now);
                    this.store
                        .claim_ai_turn(&id, &leases.instance, now, waited_since, until)
                        .await
                })
                .await?
            };
            if claimed {
                tracing::info!(game = %id, "claiming an AI turn nobody holds");
                self.queue.push(Job::new(&id, human, &creator));
                taken += 1;
            }
        }
        Ok(taken)
    }

    /// Looks for AI turns to take over every heartbeat (an instance with AI workers).
    pub fn start_ai_takeover(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let games = self.clone();
        tokio::spawn(async move {
            let mut ticker = games.time.ticker(games.limits.ai_leases.heartbeat);
            loop {
                ticker.tick().await;
                if let Err(e) = games.take_over_ai_turns().await {
                    tracing::error!("cannot look for AI turns to take over: {e}");
                }
            }
        })
    }
}
