//! The game service: between the HTTP handlers and storage. It decides — who may move,
//! which move is legal (by asking `rumis_core`, through `game.rs`), what a write changes —
//! inside the transaction storage opens; it publishes the events of what was committed and
//! hands AI turns to the AI queue. Handlers only extract and answer; storage only stores.
//!
//! **Work after a commit is never lost.** Every write runs in a task of its own
//! ([`Games::detached`]), not in the request's future: a client that goes away while its
//! write (a move, a game's creation, a seek, a rematch, ...) is under way cancels only its
//! wait for the answer, never the transaction half-way, its commit, the commit's events or
//! the AI turn that follows. (Dropped with a reset request, a write could leave SQLite's
//! writer inside its transaction, failing the next writes, and lose its events and AI
//! turn: issue #50.) What a restart must resume is derived from what is committed: the
//! games row says when an AI seat is to move (`ai_to_move`), and start-up queues those
//! games. On PostgreSQL the events go out with the commit itself (`pg_notify` in its
//! transaction).

use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use rumis_core::Colour;

use crate::error::GameError;
use crate::events::{self, Event, Hub};
use crate::game::{authorise, event, play, repeated, replay};
pub use crate::game::{new_setup, AskedSetup, Loaded};
use crate::queue::{AiQueue, Job};
use crate::store::{GameStatus, Seat, SeatKind, Store, Summary};
use crate::time::Time;
use rumis_wire::{self as wire, GameEvent};

mod ai_turns;
mod creation;
mod leaving;
mod lobby;
mod position;
mod review;
mod training;
pub use ai_turns::Leases;
pub use lobby::asked::{QuickAsked, SeatAsked, SeekAsked};
pub use lobby::{LOBBY, SEEK_IDLE};
pub use position::AskedPosition;
pub use review::{Reviews, DEFAULT_SIMULATIONS};
pub use training::{filter as training_filter, Catalogue, Training};

/// A write that stays busy this long answers `503 busy`.
const WRITE_DEADLINE: Duration = Duration::from_secs(4);

/// The service's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open games without a human seat, per creating address and in all.
    pub ai_only_per_creator: i64,
    pub ai_only_total: i64,
    /// A waiting lobby game expires when its creator was not seen for this long.
    pub seek_idle: Duration,
    /// This instance's leases on AI turns (service/ai_turns.rs).
    pub ai_leases: Leases,
}

/// A seat as asked for when creating a game.
#[derive(Clone, Debug)]
pub struct NewSeat {
    pub kind: SeatKind,
    pub level: u8,
}

/// Who submits a move.
#[derive(Clone, Debug)]
pub enum Actor {
    /// A client with the token it gave (if any).
    Token(Option<String>),
    /// The server, for the AI seat with this index.
    Ai(usize),
}

/// A move accepted: its acknowledgement and, when it was committed now (not a repeat),
/// its events.
#[derive(Clone, Debug)]
pub struct Accepted {
    pub ack: wire::MoveAck,
    /// `false`: the same move had been accepted before; this is its acknowledgement again.
    pub fresh: bool,
}

/// `RUMIS_FAULT=abort_after_commit`: the process aborts right after a change commits, before
/// its events are published or its AI turn queued (for the crash test and `scripts/soak`;
/// what must follow a commit is derived from what was committed, so a restart resumes it).
fn fault_abort_after_commit() -> bool {
    static FAULT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAULT.get_or_init(|| std::env::var("RUMIS_FAULT").is_ok_and(|f| f == "abort_after_commit"))
}

pub struct Games {
    store: Store,
    hub: Arc<Hub>,
    queue: Arc<AiQueue>,
    limits: Limits,
    /// One lock per game being written in this process, held from the transaction to the
    /// publication of its events, so that subscribers get a game's events in order.
    locks: Mutex<HashMap<String, Weak<tokio::sync::Mutex<()>>>>,
    /// Moves committed by this process (for `/metrics`).
    moves: std::sync::atomic::AtomicU64,
    /// The clocks', the lobby's and the leases' "now" (time.rs).
    time: Time,
}

impl Games {
    pub fn new(store: Store, hub: Arc<Hub>, queue: Arc<AiQueue>, limits: Limits, time: Time) -> Games {
        Games {
            time,
            store,
            hub,
            queue,
            limits,
            locks: Default::default(),
            moves: Default::default(),
        }
    }

    /// The time the game clocks, the lobby and the AI turns' leases run on.
    pub(crate) fn time(&self) -> &Time {
        &self.time
    }

    /// Now, in milliseconds since the Unix epoch, on [`Games::time`].
    pub(crate) fn now_ms(&self) -> i64 {
        self.time.now_ms()
    }

    /// Moves committed by this process since it started.
    pub fn moves_committed(&self) -> u64 {
        self.moves.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The AI queue its AI turns go to.
    pub(crate) fn queue(&self) -> Arc<AiQueue> {
        self.queue.clone()
    }

    async fn lock_game(&self, id: &str) -> tokio::sync::OwnedMutexGuard<()> {
        let lock = {
            let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
            if locks.len() > 1024 {
                locks.retain(|_, w| w.strong_count() > 0);
            }
            match locks.get(id).and_then(Weak::upgrade) {
                Some(l) => l,
                None => {
                    let l = Arc::new(tokio::sync::Mutex::new(()));
                    locks.insert(id.to_string(), Arc::downgrade(&l));
                    l
                }
            }
        };
        lock.lock_owned().await
    }

    /// Tries a write again while the database is busy, until [`WRITE_DEADLINE`].
    async fn retrying<T, F, Fut>(&self, mut attempt: F) -> Result<T, GameError>
    where
        F: FnMut(Duration) -> Fut,
        Fut: Future<Output = Result<T, GameError>>,
    {
        let deadline = Instant::now() + WRITE_DEADLINE;
        let mut n = 0u32;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match attempt(left).await {
                Err(GameError::Busy(reason)) => {
                    n += 1;
                    let pause = Duration::from_millis(5 << n.min(6));
                    if Instant::now() + pause >= deadline {
                        return Err(GameError::Busy(format!("the database stayed busy: {reason}")));
                    }
                    tokio::time::sleep(pause).await;
                }
                r => return r,
            }
        }
    }

    /// Runs a write (`write`, given the service) in a task of its own and waits for its
    /// answer; the request that asked for it is answered from here. The request's future
    /// may be dropped at any point (a client that resets its connection): only this wait
    /// ends, the write goes on to its commit or rollback, then its events and AI turn
    /// (see the module's comment). Every write the API asks for runs through here.
    async fn detached<T, F, Fut>(self: &Arc<Self>, what: &str, write: F) -> Result<T, GameError>
    where
        T: Send + 'static,
        F: FnOnce(Arc<Games>) -> Fut,
        Fut: Future<Output = Result<T, GameError>> + Send + 'static,
    {
        tokio::spawn(write(self.clone()))
            .await
            .map_err(|e| GameError::internal(format!("the {what}'s task failed: {e}")))?
    }

    /// A hint was asked for in a game still played: a rated one is marked as assisted
    /// (fair play; the game is against the AI alone, or the hint was refused before).
    pub async fn hint_asked(self: &Arc<Self>, id: &str) -> Result<(), GameError> {
        let id = id.to_string();
        self.detached("hint's mark", |this| async move { this.store.mark_assisted(&id).await })
            .await
    }

    /// What happens after a commit: on SQLite its events go to this instance's subscribers
    /// (on PostgreSQL they went out with the commit); an AI seat to move is queued.
    fn committed(&self, events: Vec<Event>, ai_to_move: Option<Job>) {
        if fault_abort_after_commit() {
            // Fault injection (tests/server/crash.rs): die as a SIGKILL would, between the commit and
            // the publication.
            eprintln!("rumis server: RUMIS_FAULT=abort_after_commit: aborting after a commit");
            std::process::abort();
        }
        let moves = events
            .iter()
            .filter(|e| matches!(e.body, Some(GameEvent::Move { .. })))
            .count();
        self.moves.fetch_add(moves as u64, std::sync::atomic::Ordering::Relaxed);
        if !self.store.is_postgres() {
            self.hub.send(events);
        }
        if let Some(job) = ai_to_move {
            self.queue.push(job);
        }
    }

    /// Events that change nothing stored (an AI is thinking).
    pub async fn announce(&self, events: Vec<Event>) {
        if events.is_empty() {
            return;
        }
        if self.store.is_postgres() {
            let payloads: Vec<String> = events.iter().map(Event::to_payload).collect();
            if let Err(e) = self.store.notify(events::CHANNEL, &payloads).await {
                tracing::error!("cannot notify: {e}");
            }
        } else {
            self.hub.send(events);
        }
    }

    pub fn thinking(&self, id: &str, colour: Colour, move_number: i64, level: u8) -> Event {
        event(
            id,
            None,
            GameEvent::AiThinking {
                game: id.into(),
                colour: colour.to_string(),
                move_number,
                level,
            },
        )
    }

    /// Reads and replays a game.
    pub async fn load(&self, id: &str) -> Result<Loaded, GameError> {
        let stored = self
            .store
            .read(id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        replay(stored)
    }

    pub async fn list(&self, status: &str, limit: i64) -> Result<Vec<Summary>, GameError> {
        self.store.list(status, limit).await
    }

    /// Accepts a move: one transaction checks the seat, the expected move number and (by the
    /// core) the move, and inserts it; it is committed before this returns. The same move
    /// sent again gets its first acknowledgement. Runs in a task of its own (see the
    /// module's comment).
    pub async fn submit(
        self: &Arc<Self>,
        id: &str,
        actor: Actor,
        text: String,
        expected: i64,
    ) -> Result<Accepted, GameError> {
        let id = id.to_string();
        self.detached("move", move |this| async move {
            let _order = this.lock_game(&id).await;
            let (accepted, events, ai) = this
                .retrying(|left| this.try_submit(&id, &actor, &text, expected, left))
                .await?;
            if accepted.fresh {
                this.committed(events, ai);
            }
            Ok(accepted)
        })
        .await
    }

    async fn try_submit(
        &self,
        id: &str,
        actor: &Actor,
        text: &str,
        expected: i64,
        left: Duration,
    ) -> Result<(Accepted, Vec<Event>, Option<Job>), GameError> {
        let mut w = self.store.begin_write(left).await?;
        // Take the game's lock before reading anything.
        if !Store::lock_game(&mut w.tx, id, self.now_ms()).await? {
            return Err(GameError::UnknownGame(id.into()));
        }
        let stored = Store::read_in(&mut w.tx, id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let mut loaded = replay(stored)?;
        let held = match actor {
            Actor::Ai(seat) => vec![*seat],
            Actor::Token(token) => authorise(&loaded, token.as_deref())?,
        };
        let number = loaded.move_number();
        let stale = || GameError::StaleMoveNumber {
            move_number: number,
            reason: format!("the next move is number {number}, not {expected}"),
        };
        if expected < number {
            // Rolled back when `w` is dropped: a repeat writes nothing.
            return match repeated(&loaded, &held, expected, text) {
                Some(ack) => Ok((Accepted { ack, fresh: false }, Vec::new(), None)),
                None => Err(stale()),
            };
        }
        if loaded.status == GameStatus::Abandoned {
            return Err(GameError::Abandoned);
        }
        lobby::playable(&loaded)?;
        if loaded.game.is_over() {
            return Err(GameError::GameOver);
        }
        let seat = match loaded.seat_to_move() {
            Some(s) if held.contains(&s.seat) && (matches!(actor, Actor::Token(_)) || s.kind == SeatKind::Ai) => {
                s.clone()
            }
            _ => {
                return Err(GameError::NotYourTurn {
                    to_move: loaded.game.to_move(),
                })
            }
        };
        if expected != number {
            return Err(stale());
        }
        let now = self.now_ms();
        // Late by the clock: the timeout task applies the game's rule (the move changes nothing).
        if loaded.clock.as_ref().is_some_and(|c| c.expired(now)) {
            return Err(GameError::TimeRanOut);
        }
        let colour = loaded.game.to_move().ok_or(GameError::GameOver)?;
        let walked_away = loaded.walked_away();
        let (ack, mut events) = play(&mut loaded.game, id, text, seat.kind, &walked_away)?;
        Store::insert_move(&mut w.tx, id, number, &ack.placement, colour, now).await?;
        let progress = loaded.progress();
        Store::set_progress(&mut w.tx, id, &progress).await?;
        events.extend(leaving::pass_clock(&mut w.tx, &mut loaded, true, now).await?);
        if self.store.is_postgres() {
            let payloads: Vec<String> = events.iter().map(Event::to_payload).collect();
            Store::notify_in(&mut w.tx, events::CHANNEL, &payloads).await?;
        }
        w.tx.commit().await?;
        let ai = progress
            .ai_to_move
            .then(|| Job::new(id, loaded.has_human(), &loaded.creator));
        Ok((Accepted { ack, fresh: true }, events, ai))
    }

    /// Hot-seat only: takes back the last move made by a human seat, and the AI moves after
    /// it. Runs in a task of its own, like a move.
    pub async fn undo(
        self: &Arc<Self>,
        id: &str,
        token: Option<String>,
        expected: i64,
    ) -> Result<wire::UndoAck, GameError> {
        let id = id.to_string();
        self.detached("undo", move |this| async move {
            let _order = this.lock_game(&id).await;
            let (ack, events, ai) = this
                .retrying(|left| this.try_undo(&id, token.as_deref(), expected, left))
                .await?;
            this.committed(events, ai);
            Ok(ack)
        })
        .await
    }

    async fn try_undo(
        &self,
        id: &str,
        token: Option<&str>,
        expected: i64,
        left: Duration,
    ) -> Result<(wire::UndoAck, Vec<Event>, Option<Job>), GameError> {
        let mut w = self.store.begin_write(left).await?;
        if !Store::lock_game(&mut w.tx, id, self.now_ms()).await? {
            return Err(GameError::UnknownGame(id.into()));
        }
        let stored = Store::read_in(&mut w.tx, id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let mut loaded = replay(stored)?;
        authorise(&loaded, token)?;
        if !loaded.setup.hot_seat {
            return Err(GameError::UndoNotAllowed);
        }
        if loaded.status == GameStatus::Abandoned {
            return Err(GameError::Abandoned);
        }
        lobby::playable(&loaded)?;
        let number = loaded.move_number();
        if expected != number {
            return Err(GameError::StaleMoveNumber {
                move_number: number,
                reason: format!("the next move is number {number}, not {expected}"),
            });
        }
        // The last move made by a human seat (never one the game was given at creation).
        let game = &loaded.game;
        let human = (loaded.given_moves()..game.moves().len()).rev().find(|&i| {
            game.mover(i)
                .and_then(|c| loaded.seat_of(c))
                .is_some_and(|s| s.kind == SeatKind::Human)
        });
        let first = human.ok_or(GameError::NothingToUndo)?;
        let from = first as i64 + 1;
        Store::delete_moves_from(&mut w.tx, id, from).await?;
        Store::delete_retirements_after(&mut w.tx, id, first as i64).await?;
        while loaded.game.moves().len() > first {
            loaded.game.undo();
        }
        let progress = loaded.progress();
        Store::set_progress(&mut w.tx, id, &progress).await?;
        let to_move = loaded.game.to_move().map(|c| c.to_string());
        let removed: Vec<i64> = (from..number).collect();
        let events = vec![event(
            id,
            None,
            GameEvent::Undo {
                game: id.into(),
                removed: removed.clone(),
                move_number: from,
                to_move: to_move.clone(),
            },
        )];
        if self.store.is_postgres() {
            let payloads: Vec<String> = events.iter().map(Event::to_payload).collect();
            Store::notify_in(&mut w.tx, events::CHANNEL, &payloads).await?;
        }
        w.tx.commit().await?;
        let ai = progress
            .ai_to_move
            .then(|| Job::new(id, loaded.has_human(), &loaded.creator));
        Ok((
            wire::UndoAck {
                removed,
                move_number: from,
                to_move,
            },
            events,
            ai,
        ))
    }

    /// Deletes a game nobody else has joined: the token must hold the first human seat (the
    /// creator's), and no human seat it does not hold may have moved.
    pub async fn delete(self: &Arc<Self>, id: &str, token: Option<String>) -> Result<wire::Deleted, GameError> {
        let id = id.to_string();
        self.detached("deletion", move |this| async move {
            let _order = this.lock_game(&id).await;
            let events = this
                .retrying(|left| this.try_delete(&id, token.as_deref(), left))
                .await?;
            this.committed(events, None);
            Ok(wire::Deleted { id, deleted: true })
        })
        .await
    }

    async fn try_delete(&self, id: &str, token: Option<&str>, left: Duration) -> Result<Vec<Event>, GameError> {
        let mut w = self.store.begin_write(left).await?;
        if !Store::lock_game(&mut w.tx, id, self.now_ms()).await? {
            return Err(GameError::UnknownGame(id.into()));
        }
        let stored = Store::read_in(&mut w.tx, id)
            .await?
            .ok_or_else(|| GameError::UnknownGame(id.into()))?;
        let loaded = replay(stored)?;
        let held = authorise(&loaded, token)?;
        let creator = loaded.seats.iter().find(|s| s.kind == SeatKind::Human).map(|s| s.seat);
        if !creator.is_some_and(|c| held.contains(&c)) {
            return Err(GameError::NotDeletable(
                "only the creator (the holder of the first human seat's token) may delete a game".into(),
            ));
        }
        // A rated game is never deleted: its result counts, and deleting must not be a way
        // out of a loss (abort it before the second move, or resign).
        if Store::lobby_row_in(&mut w.tx, id).await?.is_some_and(|l| l.rated) {
            return Err(GameError::NotDeletable(
                "a rated game is never deleted; abort it before the second move, or resign".into(),
            ));
        }
        let game = &loaded.game;
        // Another player's moves, also those of a seat they left to the AI (a seat with a
        // token's hash that this token does not hold); the moves a game made from a
        // position was given are nobody's.
        let joined = (loaded.given_moves()..game.moves().len()).any(|i| {
            game.mover(i)
                .and_then(|c| loaded.seat_of(c))
                .is_some_and(|s| !s.token_hash.is_empty() && !held.contains(&s.seat))
        });
        if joined {
            return Err(GameError::NotDeletable(
                "another player has moved in this game; it can no longer be deleted".into(),
            ));
        }
        Store::delete_game(&mut w.tx, id).await?;
        let events = vec![event(id, None, GameEvent::Deleted { game: id.into() })];
        if self.store.is_postgres() {
            let payloads: Vec<String> = events.iter().map(Event::to_payload).collect();
            Store::notify_in(&mut w.tx, events::CHANNEL, &payloads).await?;
        }
        w.tx.commit().await?;
        Ok(events)
    }

    /// Marks games without a move for `idle` abandoned (their record stays); returns how
    /// many.
    pub async fn expire(&self, idle: Duration) -> Result<usize, GameError> {
        let cutoff = self.now_ms() - idle.as_millis() as i64;
        let ids = self.store.expire(cutoff, 1000).await?;
        let events: Vec<Event> = ids
            .iter()
            .map(|id| event(id, None, GameEvent::Abandoned { game: id.clone() }))
            .collect();
        let n = ids.len();
        self.announce(events).await;
        Ok(n)
    }

    /// The caps on open AI-only games (the one rule, for a game created without a human
    /// seat and for one whose last human seat the AI took over): the open AI-only games of
    /// `creator` and in all, counting the one just made so in this transaction, when they
    /// are over the caps.
    async fn ai_only_over_caps(
        &self,
        conn: &mut sqlx::AnyConnection,
        creator: &str,
    ) -> Result<Option<(i64, i64)>, GameError> {
        let (mine, total) = Store::ai_only_open_in(conn, creator).await?;
        let over = mine > self.limits.ai_only_per_creator || total > self.limits.ai_only_total;
        Ok(over.then_some((mine, total)))
    }

    /// Queues the games with an AI seat to move (after a start), at most `limit`. AI-only
    /// games beyond the caps (per creator and in all, least recently updated first) go in
    /// the lane of games over the caps again, as when they were made so.
    pub async fn resume(&self, limit: i64) -> Result<usize, GameError> {
        let pending = self.store.ai_to_move(limit).await?;
        let mut ai_only: HashMap<&str, i64> = HashMap::new();
        let mut ai_only_total = 0;
        for (id, human, creator) in &pending {
            if !human {
                let mine = ai_only.entry(creator).or_default();
                *mine += 1;
                ai_only_total += 1;
                if *mine > self.limits.ai_only_per_creator || ai_only_total > self.limits.ai_only_total {
                    self.queue.over_cap(id);
                }
            }
            self.queue.push(Job::new(id, *human, creator));
        }
        Ok(pending.len())
    }

    /// Whether the AI should look at this game again (it changed under a search).
    pub fn requeue(&self, job: &Job) {
        self.queue.push(job.clone());
    }

    /// Whether a loaded game has an AI seat to move.
    pub fn ai_turn(loaded: &Loaded) -> Option<Seat> {
        loaded.ai_to_move().then(|| loaded.seat_to_move().cloned()).flatten()
    }
}
