//! The server's time: "now" and the waits for deadlines that the game's rules and the
//! server's bookkeeping run on, through one handle ([`Time`], [`crate::Config::time`]).
//!
//! What goes through it is what a test waits on: the game clocks and the timeout task, the
//! lobby's due work (quick play's fill, seeks whose creator went away), presence, the AI
//! turns' leases and their takeover, the expiry of idle games, the WebSockets' pings and
//! pong timeouts, and a level's own search time (level 9 thinks 4.5 s a move, a hint at level
//! 9 as long: [`SearchTime`]), so that a test decides when such a search may end. What stays
//! on the real clock is what bounds the machine's own work: a database call or a
//! transaction's retries, a send to a slow client, a request's or a connection's timeouts at
//! the edge, the server's cap on an AI move's search, the queue's shares of the AI's threads,
//! the lobby feed's spreading of its sends, a stop's waits. A manual time would stop those
//! bounds from ever firing, and they do not change what the game says.
//!
//! [`Time::manual`] is for tests: "now" stands still until [`Time::advance`] moves it, and
//! every wait whose deadline has then passed ends. (tokio's own paused time cannot serve:
//! it moves by itself whenever the runtime is idle, which with real sockets and the
//! database's threads would fire timers at random moments.)

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Instant;

/// The source of "now" and of the waits for deadlines (see the module's comment): the real
/// clock ([`Time::real`], the default) or one that moves only when told ([`Time::manual`]).
#[derive(Clone, Default)]
pub struct Time(Option<Arc<Manual>>);

struct Manual {
    /// The real instant and Unix time at which the manual time started.
    start: Instant,
    start_ms: i64,
    /// How far the manual time has moved since; every change wakes the waits.
    moved: watch::Sender<Duration>,
}

impl std::fmt::Debug for Time {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            None => f.write_str("Time::real"),
            Some(m) => write!(f, "Time::manual(+{:?})", *m.moved.borrow()),
        }
    }
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Time {
    /// The real clock.
    pub fn real() -> Time {
        Time(None)
    }

    /// A time that starts at the real "now" and then moves only by [`Time::advance`].
    pub fn manual() -> Time {
        Time(Some(Arc::new(Manual {
            start: Instant::now(),
            start_ms: unix_ms(),
            moved: watch::Sender::new(Duration::ZERO),
        })))
    }

    /// Whether this is a manual time ([`Time::manual`]).
    pub fn is_manual(&self) -> bool {
        self.0.is_some()
    }

    /// Moves a manual time on by `by`, ending every wait whose deadline has then passed.
    /// Panics on the real clock (a test that meant a manual one).
    pub fn advance(&self, by: Duration) {
        let m = self
            .0
            .as_ref()
            .expect("Time::advance needs a manual time (Time::manual)");
        m.moved.send_modify(|d| *d += by);
    }

    /// Now, as a monotonic instant.
    pub fn now(&self) -> Instant {
        match &self.0 {
            None => Instant::now(),
            Some(m) => m.start + *m.moved.borrow(),
        }
    }

    /// Now, in milliseconds since the Unix epoch (what the database stores).
    pub fn now_ms(&self) -> i64 {
        match &self.0 {
            None => unix_ms(),
            Some(m) => m.start_ms + m.moved.borrow().as_millis() as i64,
        }
    }

    /// Waits until `deadline` (an instant of this time's [`Time::now`]).
    pub async fn sleep_until(&self, deadline: Instant) {
        match &self.0 {
            None => tokio::time::sleep_until(deadline).await,
            Some(m) => {
                let mut moved = m.moved.subscribe();
                while m.start + *moved.borrow_and_update() < deadline {
                    if moved.changed().await.is_err() {
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    }

    /// [`Time::sleep_until`] for a task of its own.
    pub async fn sleep_owned(self, deadline: Instant) {
        self.sleep_until(deadline).await
    }

    /// Waits for `d` of this time.
    pub async fn sleep(&self, d: Duration) {
        self.sleep_until(self.now() + d).await
    }

    /// Waits until `deadline`, or for ever when there is none.
    pub async fn sleep_until_some(&self, deadline: Option<Instant>) {
        match deadline {
            Some(d) => self.sleep_until(d).await,
            None => std::future::pending().await,
        }
    }

    /// The pause of a task that looks for due work every `every`: see [`Ticker`].
    pub fn ticker(&self, every: Duration) -> Ticker {
        Ticker {
            time: self.clone(),
            every,
            next: self.now() + every,
        }
    }
}

/// A search's time limits: a level's own time (level 9's seconds), counted on the server's
/// time, and the cap that bounds the machine's work, on the real clock.
///
/// On the real clock the search itself keeps both (the shorter is its time, [`Self::search`]).
/// On a manual time the search gets only the cap, and [`Self::run`] raises its stop flag once
/// the manual time has moved on by the level's time: a level-9 search then ends when a test
/// moves the time (or at the cap), never earlier because the machine ran fast or later
/// because it ran slow.
#[derive(Clone, Debug)]
pub struct SearchTime {
    time: Time,
    level: Option<Duration>,
    cap: Option<Duration>,
}

impl SearchTime {
    /// `level`: the level's own time, if it has one (levels 4–8 count simulations); `cap`:
    /// the machine's bound, if any.
    pub fn new(time: &Time, level: Option<Duration>, cap: Option<Duration>) -> SearchTime {
        SearchTime {
            time: time.clone(),
            level,
            cap,
        }
    }

    /// The time the search itself is given (its `MctsConfig::time`, on the real clock).
    pub fn search(&self) -> Option<Duration> {
        match (self.time.is_manual(), self.level, self.cap) {
            (true, _, cap) => cap,
            (false, Some(level), Some(cap)) => Some(level.min(cap)),
            (false, level, cap) => level.or(cap),
        }
    }

    /// Awaits `search` (a search on its thread, `search_thread.rs`, whose stop flag is
    /// `stop`); on a manual time, raises `stop` when the level's time has passed on it, and
    /// also when this future is dropped before the search ended (its request went, or the
    /// server stopped: the search must not go on waiting for a time nobody moves).
    pub async fn run<T, E>(
        &self,
        stop: rumis_ai::Stop,
        search: impl std::future::Future<Output = Result<T, E>>,
    ) -> Result<T, E> {
        let Some(level) = self.level.filter(|_| self.time.is_manual()) else {
            return search.await;
        };
        /// Raises the flag when dropped, unless disarmed (`.0` taken).
        struct RaiseOnDrop(Option<rumis_ai::Stop>);
        impl Drop for RaiseOnDrop {
            fn drop(&mut self) {
                if let Some(stop) = self.0.take() {
                    stop.raise();
                }
            }
        }
        let mut armed = RaiseOnDrop(Some(stop.clone()));
        let deadline = self.time.now() + level;
        tokio::pin!(search);
        let out = tokio::select! {
            out = &mut search => out,
            () = self.time.sleep_until(deadline) => {
                stop.raise();
                search.await
            }
        };
        armed.0 = None;
        out
    }
}

/// The pause between two looks of a task that polls for due work (clocks that ran out,
/// seeks to expire, AI turns to take over): `every` after the last look ended. On a manual
/// time the pause also ends when the time reaches the next look's deadline, so that moving
/// the time on by at least `every` makes every such task look once more with the new "now",
/// however late it was (a look that had read the old "now" leaves its next deadline within
/// `every` of it); the real pause stays, for the work that comes by events (a finished game
/// to rate).
pub struct Ticker {
    time: Time,
    every: Duration,
    next: Instant,
}

impl Ticker {
    pub async fn tick(&mut self) {
        match &self.time.0 {
            None => tokio::time::sleep(self.every).await,
            Some(_) => {
                tokio::select! {
                    () = tokio::time::sleep(self.every) => {}
                    () = self.time.sleep_until(self.next) => {}
                }
            }
        }
        self.next = self.time.now() + self.every;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_time_moves_only_when_advanced_and_wakes_the_waits_it_passes() {
        let time = Time::manual();
        let (t0, ms0) = (time.now(), time.now_ms());
        // The deadlines are taken before the tasks run, which may be after the advances.
        let early = tokio::spawn(time.clone().sleep_owned(t0 + Duration::from_secs(5)));
        let late = tokio::spawn(time.clone().sleep_owned(t0 + Duration::from_secs(3600)));
        tokio::task::yield_now().await;
        assert_eq!(time.now(), t0);
        time.advance(Duration::from_secs(2));
        time.advance(Duration::from_secs(3));
        assert_eq!(time.now(), t0 + Duration::from_secs(5));
        assert_eq!(time.now_ms(), ms0 + 5_000);
        tokio::time::timeout(Duration::from_secs(60), early)
            .await
            .expect("the wait whose deadline passed ends")
            .unwrap();
        assert!(!late.is_finished());
        late.abort();
    }
}
