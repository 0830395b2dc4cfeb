//! The threads the AI searches on: an AI seat's move, a hint, an analysis and a review's
//! step each run on a thread of their own, at a lower CPU priority than the rest of the
//! server (by default the "nice" value [`NICER`] above the thread that starts it;
//! `Config::search_nice`).
//!
//! Why: a search keeps a core busy for up to seconds, while a request is a chain of short
//! steps (a runtime worker, SQLite's thread, the runtime again), each of which waits for a
//! core. With the searches at the same priority, a core freed by the scheduler is shared
//! fairly between a search and a step, and every step of a calm player's move waited its
//! turn behind a flood's level-9 searches (issue #50, point 5: a level-1 reply took 2–3×
//! its quiet time with both cores searching). At a lower priority a step that wakes takes
//! the core from a search at once, and the searches still get every cycle the requests
//! leave. Which search runs next, and for whom, stays the AI queue's choice (`queue.rs`).
//!
//! A thread of its own rather than tokio's blocking pool: a thread's priority can be
//! lowered by anyone but raised again only with a privilege, so a pool thread lowered for a
//! search would stay low for the blocking work that came after it (a game's state, a
//! board's placements). A thread costs tens of microseconds to start; a search takes
//! milliseconds to seconds.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::oneshot;

/// How much lower a search's priority is than the server's by default (added to the nice value of
/// the thread that starts it; Linux's nice values run from -20 to 19, and a thread of
/// nice 10 gets about a tenth of a core beside one of nice 0 that wants the core). The
/// search threads of a level with several threads inherit it.
pub const NICER: i32 = 10;

/// A search that could not run to its end: its thread could not be started, or it panicked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchFailed(String);

impl fmt::Display for SearchFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SearchFailed {}

/// A search running on its thread: a future of its result.
pub struct SearchHandle<T> {
    answer: Result<oneshot::Receiver<T>, Option<SearchFailed>>,
}

impl<T> Future for SearchHandle<T> {
    type Output = Result<T, SearchFailed>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        match &mut this.answer {
            Ok(rx) => Pin::new(rx)
                .poll(cx)
                .map(|r| r.map_err(|_| SearchFailed("the search stopped without an answer (it panicked)".into()))),
            Err(failed) => Poll::Ready(Err(failed
                .take()
                .unwrap_or_else(|| SearchFailed("the search's answer was taken already".into())))),
        }
    }
}

/// Runs `work` on a new thread, `nicer` below the priority of the thread that calls this
/// (0: the same); its answer comes through the handle. When no thread can be started
/// (the process's limit), the handle answers with that error and `work` never runs.
pub fn spawn<T: Send + 'static>(nicer: i32, work: impl FnOnce() -> T + Send + 'static) -> SearchHandle<T> {
    let (tx, rx) = oneshot::channel();
    let started = std::thread::Builder::new().name("rumis-search".into()).spawn(move || {
        lower_priority(nicer);
        // The receiver is gone when the asker stopped waiting (a shutdown): the answer
        // is dropped, as the asker wanted.
        let _ = tx.send(work());
    });
    SearchHandle {
        answer: match started {
            Ok(_) => Ok(rx),
            Err(e) => Err(Some(SearchFailed(format!("could not start a search thread: {e}")))),
        },
    }
}

/// Lowers the calling thread's priority by `nicer`; best effort (a failure leaves it
/// where it was, which only costs the requests' latency).
fn lower_priority(nicer: i32) {
    #[cfg(unix)]
    if nicer > 0 {
        // SAFETY: `nice` only changes the calling thread's scheduling priority (on Linux the
        // nice value is a thread's own); it touches no memory of this program.
        let r = unsafe { libc::nice(nicer) };
        if r == -1 {
            tracing::debug!(
                "a search thread keeps its priority: {}",
                std::io::Error::last_os_error()
            );
        }
    }
}

/// The calling thread's nice value (tests).
#[cfg(all(test, unix))]
fn nice_now() -> i32 {
    // SAFETY: reads the calling thread's priority; touches no memory of this program.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_search_answers_on_a_thread_of_lower_priority() {
        #[cfg(unix)]
        {
            let here = nice_now();
            let there = spawn(NICER, nice_now).await.unwrap();
            // At the top of the range (19) it cannot go lower.
            assert_eq!(there, (here + NICER).min(19), "the search thread's nice value");
            // The thread that started it keeps its own.
            assert_eq!(nice_now(), here);
            assert_eq!(spawn(0, nice_now).await, Ok(here), "0: the same priority");
        }
        assert_eq!(spawn(NICER, || 6 * 7).await, Ok(42));
    }

    #[tokio::test]
    async fn a_search_that_panics_is_an_error_not_a_hang() {
        let got = spawn(NICER, || -> u8 { panic!("a search panicked (expected by this test)") }).await;
        assert!(got.unwrap_err().to_string().contains("panicked"));
    }
}
