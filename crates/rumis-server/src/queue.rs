//! The one scheduler of the server's AI work: AI seats' moves, hints and analyses share
//! one set of threads (`slots`, one per AI worker) and one line, so that nobody can buy a
//! larger share of the CPU by sending more of one kind of work.
//!
//! **Who goes next.** The unit of fairness is the address: a game's creator for its AI
//! moves (also the AI seats of games a person plays), the asking client for a hint or an
//! analysis. A free thread goes to the waiting work with, in order,
//! 1. the best lane: a person waits ([`Lane::Person`]: an AI move in a game with a human
//!    seat, a hint, an analysis), then AI-only games within the caps ([`Lane::AiOnly`], on
//!    all threads but one), then AI-only games over the caps ([`Lane::OverCap`], on one
//!    thread, and only when nothing else waits);
//! 2. the fewest threads held by its address now (an address with nothing running first);
//! 3. an address with nothing else waiting before one with more work waiting: a flood's
//!    addresses have many games (or two hints) waiting, a calm player one, and at the
//!    start of a flood neither has used CPU yet;
//! 4. the least CPU used by its address lately (thread-seconds, halved every
//!    [`HALF_LIFE`], the running work counted as it goes): ten addresses that each ask for
//!    one hint after another do not keep a calm address behind them, as a plain round
//!    robin would (each of them has only one piece of work waiting, like the calm one);
//! 5. the first asked.
//!
//! **Calm threads.** Order alone cannot keep a calm player's wait short when every slot is
//! inside a long search (level 9 searches up to the server's move cap, seconds): the calm
//! player's work would wait for one to end, and an address whose one search fills a slot
//! holds no more than its share, so cutting it is no answer. So work a person waits for,
//! of an address with nothing running, nothing else waiting and under [`CALM_USE`] used
//! lately, starts at once on a *calm thread* above the slots (as many as the slots) when
//! none is free. Every search runs below the server's CPU priority
//! (`search_thread.rs`), a calm thread's half as far below as the slots': the operating
//! system then gives the calm work the core it needs from the slots' searches, which slow
//! by as much and are not cut (a level-1 reply, a 1 000-simulation hint: milliseconds).
//! Work still running on a calm thread after [`CALM_HOLD`] counts as a slot's from then on
//! (the slots take no new work until they are below their number again), so that long
//! searches — a calm player's level 9, a flood's fresh addresses each calm for its first
//! search — do not hold the calm threads; the slots are over by at most the calm threads'
//! number.
//!
//! **Taking a thread back.** When the calm threads are taken too and an address with
//! nothing running and only this one piece of work waits, the scheduler cuts
//! short a running search (its [`Stop`] flag: the search answers after the simulation under
//! way with the best move it has) of an address that has more than its share — more work
//! waiting, or more than one thread — and has used more than twice as much CPU lately as
//! the waiting address, or of any such address when the waiting one has used less than
//! [`CALM_USE`]: the address that floods plays some weaker moves, the calm one waits for one
//! simulation instead of the whole search. (Without the second rule a calm player who had
//! used a little CPU waited at a flood's start until the flood's fresh searches had used
//! twice as much: 120–350 ms against 10 quiet.) An address that asks for one search after
//! another, each time with nothing running, is past [`CALM_USE`] after a few, and from then
//! on cuts only by the first rule. An address with more work waiting
//! never cuts, so a flood's own searches do not cut each other into pieces, and an
//! address's single search is never cut (it holds no more than its share). Analyses are
//! never cut (a cut one would be kept as the game's analysis); levels 1–3 end at once
//! anyway.
//!
//! A game is in the line at most once, however often asked; asked while it runs, it goes
//! back into the line when its move is done.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use rumis_ai::Stop;
use tokio::sync::{oneshot, Notify};

/// Recent use of the CPU counts half after this long.
pub const HALF_LIFE: Duration = Duration::from_secs(60);
/// How often the server looks again for a search to cut ([`AiQueue::recheck`]).
pub const RECHECK_EVERY: Duration = Duration::from_millis(100);
/// An address that used less CPU than this lately (thread-seconds, decayed by
/// [`HALF_LIFE`]) cuts the search of an address over its share whatever that one used: a
/// level-9 reply costs several seconds, a level-1 move or a 1 000-simulation hint a few
/// milliseconds, so only a player who asks for little is under it.
pub const CALM_USE: f64 = 1.0;
/// Work that has run this long on a calm thread counts as a slot's from then on (while the
/// slots are over by fewer than the calm threads' number): a calm address's long search
/// (level 9, seconds) then does not keep its calm thread from the next calm player, and a
/// flood's fresh addresses, each calm for its first search, do not hold the calm threads.
/// Far above a level-1 reply or a 1 000-simulation hint (milliseconds).
pub const CALM_HOLD: Duration = Duration::from_millis(250);
/// Threads for hints and analyses when no AI worker runs (AI seats wait).
pub const SEARCH_SLOTS_WITHOUT_AI: usize = 2;

/// Who waits for a piece of work; earlier lanes are served first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lane {
    /// A person waits: an AI move in a game with a human seat, a hint, an analysis.
    Person,
    /// An AI-only game within the caps on AI-only games.
    AiOnly,
    /// An AI-only game over the caps (its people left, or their clocks handed their seats to
    /// the AI, when the creator already had as many AI-only games as allowed).
    OverCap,
}

/// A game to play an AI move in.
#[derive(Clone, Debug, PartialEq)]
pub struct Job {
    pub game: String,
    /// A human seat plays in this game.
    pub human: bool,
    /// Who created the game (its address): the unit of fairness.
    pub creator: String,
    /// Raised when the scheduler takes the thread back; given when the job is taken.
    pub stop: Stop,
    /// How much lower than the server's its search's CPU priority is; given when the job
    /// is taken (`search_thread.rs`: the slots' searches at `Config::search_nice`, a calm
    /// thread's half as far below).
    pub nicer: i32,
    /// This turn's searches that failed in a row (ai.rs): the pause before the next grows
    /// with them.
    pub failures: u32,
}

impl Job {
    pub fn new(game: &str, human: bool, creator: &str) -> Job {
        Job {
            game: game.into(),
            human,
            creator: creator.into(),
            stop: Stop::default(),
            nicer: 0,
            failures: 0,
        }
    }
}

/// A thread held by a hint or an analysis; given back when dropped.
pub struct Slot {
    queue: Option<Arc<AiQueue>>,
    id: u64,
    stop: Stop,
    nicer: i32,
}

impl Slot {
    /// Raised when the scheduler wants the thread back.
    pub fn stop(&self) -> Stop {
        self.stop.clone()
    }

    /// How much lower than the server's its search's CPU priority is (as [`Job::nicer`]).
    pub fn nicer(&self) -> i32 {
        self.nicer
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(queue) = self.queue.take() {
            queue.release(self.id);
        }
    }
}

enum Work {
    Move(Job),
    /// A hint or an analysis, waiting for its thread; `cuttable`: may be cut short.
    Search {
        to: oneshot::Sender<Slot>,
        cuttable: bool,
    },
}

struct Waiting {
    seq: u64,
    /// When it joined the line (its wait is observed when it gets a thread).
    asked: Instant,
    address: String,
    lane: Lane,
    work: Work,
}

impl Waiting {
    /// Its asker went away (a search whose request ended).
    fn abandoned(&self) -> bool {
        matches!(&self.work, Work::Search { to, .. } if to.is_closed())
    }
}

struct Running {
    address: String,
    lane: Lane,
    stop: Stop,
    started: Instant,
    cuttable: bool,
    /// On a calm thread (above the slots: module doc).
    calm: bool,
}

/// An address's CPU use: thread-seconds, as of `at`, and threads held now.
struct Account {
    used: f64,
    at: Instant,
    running: usize,
}

fn decayed(used: f64, since: Duration) -> f64 {
    used * 0.5f64.powf(since.as_secs_f64() / HALF_LIFE.as_secs_f64())
}

struct State {
    waiting: Vec<Waiting>,
    running: HashMap<u64, Running>,
    accounts: HashMap<String, Account>,
    next_id: u64,
    /// Games in the line; games a worker plays now (by thread), and those asked for again
    /// meanwhile.
    queued: HashSet<String>,
    playing: HashMap<String, u64>,
    again: HashMap<String, Job>,
    /// AI-only games over the caps (their moves go in [`Lane::OverCap`]).
    over_cap: HashSet<String>,
}

/// How long work waited in the line for a thread, by kind (`move`, `hint`, `analysis`):
/// the histograms `/metrics` shows (metrics.rs registers this family).
pub type Waits = Family<[(&'static str, &'static str); 1], Histogram, fn() -> Histogram>;

fn wait_histogram() -> Histogram {
    // 1 ms to ~33 s, doubling: a free thread answers at once, a long search (level 9 up to
    // the move cap, seconds) ahead of a piece of work shows in the upper buckets.
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

pub struct AiQueue {
    state: Mutex<State>,
    waits: Waits,
    notify: Notify,
    /// Threads for all the work.
    slots: usize,
    /// Threads AI-only games may hold.
    ai_only_slots: usize,
    /// Calm threads: above the slots, for calm addresses' work (module doc).
    calm_slots: usize,
    /// Whether AI moves are played (some worker runs).
    moves: bool,
    /// How much lower the searches' CPU priority is ([`crate::search_thread`]).
    search_nice: i32,
}

impl AiQueue {
    /// The tests' scheduler: [`AiQueue::with_search_nice`] at the default priority.
    #[cfg(test)]
    pub fn new(workers: usize) -> Arc<AiQueue> {
        AiQueue::with_search_nice(workers, crate::search_thread::NICER)
    }

    /// A scheduler for `workers` AI workers: as many threads, AI-only games on all but one
    /// (at least one). Without workers, AI seats wait and hints and analyses get
    /// [`SEARCH_SLOTS_WITHOUT_AI`] threads. Its searches run `nice` below the server's
    /// priority (0: at the same; `Config::search_nice`).
    pub fn with_search_nice(workers: usize, nice: i32) -> Arc<AiQueue> {
        let slots = if workers > 0 { workers } else { SEARCH_SLOTS_WITHOUT_AI };
        Arc::new(AiQueue {
            state: Mutex::new(State {
                waiting: Vec::new(),
                running: HashMap::new(),
                accounts: HashMap::new(),
                next_id: 0,
                queued: HashSet::new(),
                playing: HashMap::new(),
                again: HashMap::new(),
                over_cap: HashSet::new(),
            }),
            notify: Notify::new(),
            waits: Waits::new_with_constructor(wait_histogram),
            slots,
            ai_only_slots: slots.saturating_sub(1).max(1),
            calm_slots: slots,
            moves: workers > 0,
            search_nice: nice.clamp(0, 19),
        })
    }

    /// How much lower than the server's a search's priority is, on a slot or a calm thread.
    fn nicer(&self, calm: bool) -> i32 {
        if calm {
            self.search_nice / 2
        } else {
            self.search_nice
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks an AI-only game as over the caps: its moves go in [`Lane::OverCap`] until it
    /// is no longer asked for.
    pub fn over_cap(&self, game: &str) {
        self.lock().over_cap.insert(game.to_string());
    }

    /// Asks for an AI move in a game (once, however often asked).
    pub fn push(self: &Arc<Self>, job: Job) {
        self.push_at(job, Instant::now());
    }

    fn push_at(self: &Arc<Self>, job: Job, now: Instant) {
        let mut s = self.lock();
        if s.playing.contains_key(&job.game) {
            s.again.insert(job.game.clone(), job);
            return;
        }
        if !s.queued.insert(job.game.clone()) {
            return;
        }
        let lane = if job.human {
            Lane::Person
        } else if s.over_cap.contains(&job.game) {
            Lane::OverCap
        } else {
            Lane::AiOnly
        };
        let seq = s.next_id;
        s.next_id += 1;
        s.waiting.push(Waiting {
            seq,
            asked: now,
            address: job.creator.clone(),
            lane,
            work: Work::Move(job),
        });
        self.dispatch(&mut s, now);
        drop(s);
        self.notify.notify_waiters();
    }

    /// Gives free threads to the searches first in line, until the first in line is an AI
    /// move (a worker takes it in [`AiQueue::take`]; with as many threads as workers, a
    /// worker is free whenever a thread is) or no thread is free; then cuts searches short
    /// for calm addresses if none is.
    fn dispatch(self: &Arc<Self>, s: &mut State, now: Instant) {
        s.waiting.retain(|w| !w.abandoned());
        s.move_long_calm_work_to_slots(self, now);
        while s.slots_running() < self.slots {
            let Some(i) = s.best(self, now) else { break };
            if !self.start_search(s, i, false, now) {
                break;
            }
        }
        while let Some(i) = s.best_calm(self, now) {
            if !self.start_search(s, i, true, now) {
                break;
            }
        }
        s.cut(self, now);
    }

    /// Gives the waiting hint or analysis `i` its thread (a slot, or a calm thread); false
    /// when `i` is an AI move (a worker takes it in [`AiQueue::take`]).
    fn start_search(self: &Arc<Self>, s: &mut State, i: usize, calm: bool, now: Instant) -> bool {
        if matches!(s.waiting[i].work, Work::Move(_)) {
            return false;
        }
        let w = s.waiting.swap_remove(i);
        if let Work::Search { to, cuttable } = w.work {
            // Hints may be cut short and analyses never are (search.rs): `cuttable`
            // tells them apart.
            let kind = if cuttable { "hint" } else { "analysis" };
            self.observe_wait(kind, w.asked, now);
            let (id, stop) = s.start(&w.address, w.lane, cuttable, calm, now);
            let slot = Slot {
                queue: Some(self.clone()),
                id,
                stop,
                nicer: self.nicer(calm),
            };
            if let Err(mut slot) = to.send(slot) {
                // Its request ended meanwhile: the thread is free again (released here,
                // under the lock the slot's drop would take).
                slot.queue = None;
                s.release(id, now);
            }
        }
        true
    }

    /// Moves work past [`CALM_HOLD`] off the calm threads, and looks again for a search to
    /// cut for a calm address waiting (the server calls it every [`RECHECK_EVERY`]). The line changes only when work comes or ends, but the
    /// running searches' CPU grows meanwhile: at a flood's start a flooder's search has used
    /// no more than the calm address, and without a second look the calm work waited for
    /// the whole search (4.4 s at level 9).
    pub fn recheck(self: &Arc<Self>) {
        self.recheck_at(Instant::now());
    }

    fn recheck_at(self: &Arc<Self>, now: Instant) {
        let mut s = self.lock();
        if s.waiting.is_empty() {
            s.move_long_calm_work_to_slots(self, now);
            return;
        }
        // (`dispatch` moves long calm work first.) A calm thread freed since may start calm
        // work; a worker takes a move.
        self.dispatch(&mut s, now);
        drop(s);
        self.notify.notify_waiters();
    }

    /// The waits' histograms (for `/metrics`; a clone shares them).
    pub fn waits(&self) -> Waits {
        self.waits.clone()
    }

    fn observe_wait(&self, kind: &'static str, asked: Instant, now: Instant) {
        self.waits
            .get_or_create(&[("kind", kind)])
            .observe(now.saturating_duration_since(asked).as_secs_f64());
    }

    /// AI moves waiting and being played now (for `/metrics`).
    pub fn lengths(&self) -> (usize, usize) {
        let s = self.lock();
        let waiting = s.waiting.iter().filter(|w| matches!(w.work, Work::Move(_))).count();
        (waiting, s.playing.len())
    }

    /// Hints and analyses holding a thread now (for `/metrics`).
    pub fn searches_running(&self) -> usize {
        let s = self.lock();
        let moves: HashSet<u64> = s.playing.values().copied().collect();
        s.running.keys().filter(|id| !moves.contains(id)).count()
    }

    fn take(self: &Arc<Self>, now: Instant) -> Option<Job> {
        let mut s = self.lock();
        self.dispatch(&mut s, now);
        let on_slot = if s.slots_running() < self.slots {
            s.best(self, now).map(|i| (i, false))
        } else {
            None
        };
        let (i, calm) = on_slot.or_else(|| s.best_calm(self, now).map(|i| (i, true)))?;
        if !matches!(s.waiting[i].work, Work::Move(_)) {
            return None;
        }
        let w = s.waiting.swap_remove(i);
        self.observe_wait("move", w.asked, now);
        let Work::Move(mut job) = w.work else { return None };
        let (id, stop) = s.start(&w.address, w.lane, true, calm, now);
        job.stop = stop;
        job.nicer = self.nicer(calm);
        s.queued.remove(&job.game);
        s.playing.insert(job.game.clone(), id);
        // Another thread may have work for a calm address to cut for now.
        s.cut(self, now);
        Some(job)
    }

    /// The next AI move to play, waiting for one (an AI worker's loop).
    pub async fn next(self: &Arc<Self>) -> Job {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(job) = self.take(Instant::now()) {
                return job;
            }
            notified.await;
        }
    }

    /// A worker's search for a job ended: its thread is free for the next work while the
    /// worker still writes the move (a cut search's write, a commit on a busy database,
    /// would otherwise stand between a calm player and the thread). The game stays in
    /// play until [`AiQueue::done`].
    pub fn searched(self: &Arc<Self>, job: &Job) {
        self.searched_at(job, Instant::now());
    }

    fn searched_at(self: &Arc<Self>, job: &Job, now: Instant) {
        {
            let mut s = self.lock();
            let Some(&id) = s.playing.get(&job.game) else { return };
            s.release(id, now);
            self.dispatch(&mut s, now);
        }
        self.notify.notify_waiters();
    }

    /// A worker is done with a job: its thread is free (if [`AiQueue::searched`] did not
    /// free it already), and the game goes back into the line if it was asked for
    /// meanwhile.
    pub fn done(self: &Arc<Self>, job: &Job) {
        self.done_at(job, Instant::now());
    }

    fn done_at(self: &Arc<Self>, job: &Job, now: Instant) {
        let again = {
            let mut s = self.lock();
            if let Some(id) = s.playing.remove(&job.game) {
                s.release(id, now);
            }
            let again = s.again.remove(&job.game);
            if again.is_none() && !s.queued.contains(&job.game) {
                s.over_cap.remove(&job.game);
            }
            self.dispatch(&mut s, now);
            again
        };
        if let Some(again) = again {
            self.push_at(again, now);
        }
        self.notify.notify_waiters();
    }

    fn release(self: &Arc<Self>, id: u64) {
        let now = Instant::now();
        let mut s = self.lock();
        s.release(id, now);
        self.dispatch(&mut s, now);
        drop(s);
        self.notify.notify_waiters();
    }

    /// Waits for a thread for a hint or an analysis asked by `address` (a person waits
    /// for it); `cuttable`: the search may be cut short for a calm address.
    pub async fn admit(self: &Arc<Self>, address: &str, cuttable: bool) -> Option<Slot> {
        let rx = self.ask_at(address, cuttable, Instant::now());
        rx.await.ok()
    }

    /// Waits for a thread for one search of work nobody waits on (a finished game's
    /// review, service/review.rs): in [`Lane::AiOnly`], so that it never takes the last
    /// thread from a person, never cut short (a review is kept); its wait counts as an
    /// analysis's.
    pub async fn admit_background(self: &Arc<Self>, address: &str) -> Option<Slot> {
        let rx = self.ask_in_lane_at(address, Lane::AiOnly, false, Instant::now());
        rx.await.ok()
    }

    fn ask_at(self: &Arc<Self>, address: &str, cuttable: bool, now: Instant) -> oneshot::Receiver<Slot> {
        self.ask_in_lane_at(address, Lane::Person, cuttable, now)
    }

    fn ask_in_lane_at(
        self: &Arc<Self>,
        address: &str,
        lane: Lane,
        cuttable: bool,
        now: Instant,
    ) -> oneshot::Receiver<Slot> {
        let (to, rx) = oneshot::channel();
        let mut s = self.lock();
        let seq = s.next_id;
        s.next_id += 1;
        s.waiting.push(Waiting {
            seq,
            asked: now,
            address: address.to_string(),
            lane,
            work: Work::Search { to, cuttable },
        });
        self.dispatch(&mut s, now);
        drop(s);
        self.notify.notify_waiters();
        rx
    }
}

mod order;
#[cfg(test)]
mod tests;
