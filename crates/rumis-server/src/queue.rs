//! The AI's work queue: games with an AI seat to move. One job is one move, so games take
//! turns (round robin); games with a human seat go first (a person waits for them), and
//! games without one may take only some of the workers, so that a flood of AI-only games
//! cannot keep a person waiting for more than one search.

use std::collections::{HashSet, VecDeque};
use std::sync::Mutex;

use tokio::sync::Notify;

/// A game to play an AI move in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub game: String,
    /// A human seat plays in this game.
    pub human: bool,
}

#[derive(Default)]
struct State {
    human: VecDeque<String>,
    ai_only: VecDeque<String>,
    /// Games in one of the queues.
    queued: HashSet<String>,
    /// Games a worker is playing now; `again`: queue them once it is done.
    running: HashSet<String>,
    again: HashSet<(String, bool)>,
    ai_only_running: usize,
}

pub struct AiQueue {
    state: Mutex<State>,
    notify: Notify,
    /// How many AI-only games may be played at once.
    ai_only_slots: usize,
}

impl AiQueue {
    /// A queue for `workers` workers: AI-only games get all but one of them (at least one).
    pub fn new(workers: usize) -> AiQueue {
        AiQueue {
            state: Mutex::new(State::default()),
            notify: Notify::new(),
            ai_only_slots: workers.saturating_sub(1).max(1),
        }
    }

    /// Asks for an AI move in a game (once, however often asked).
    pub fn push(&self, game: &str, human: bool) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if s.running.contains(game) {
            s.again.insert((game.to_string(), human));
            return;
        }
        if !s.queued.insert(game.to_string()) {
            return;
        }
        if human {
            s.human.push_back(game.to_string());
        } else {
            s.ai_only.push_back(game.to_string());
        }
        drop(s);
        self.notify.notify_waiters();
        self.notify.notify_one();
    }

    fn take(&self) -> Option<Job> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let job = if let Some(g) = s.human.pop_front() {
            Job { game: g, human: true }
        } else if s.ai_only_running < self.ai_only_slots {
            let g = s.ai_only.pop_front()?;
            s.ai_only_running += 1;
            Job { game: g, human: false }
        } else {
            return None;
        };
        s.queued.remove(&job.game);
        s.running.insert(job.game.clone());
        Some(job)
    }

    /// The next job, waiting for one.
    pub async fn next(&self) -> Job {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(job) = self.take() {
                return job;
            }
            notified.await;
        }
    }

    /// A worker is done with a job: the game goes to the back of its queue if it was asked
    /// for meanwhile.
    pub fn done(&self, job: &Job) {
        let again = {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            s.running.remove(&job.game);
            if !job.human {
                s.ai_only_running -= 1;
            }
            let again: Vec<(String, bool)> = s.again.iter().filter(|(g, _)| *g == job.game).cloned().collect();
            for a in &again {
                s.again.remove(a);
            }
            again
        };
        for (g, human) in again {
            self.push(&g, human);
        }
        // An AI-only slot may be free now.
        self.notify.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(q: &AiQueue) -> Option<Job> {
        q.take()
    }

    /// Human games first; AI-only games round robin and on at most `workers - 1` workers.
    #[test]
    fn humans_first_then_round_robin_within_the_slots() {
        let q = AiQueue::new(2);
        q.push("a", false);
        q.push("b", false);
        q.push("h", true);
        q.push("a", false); // once, however often asked
        assert_eq!(
            take(&q).unwrap(),
            Job {
                game: "h".into(),
                human: true
            }
        );
        let a = take(&q).unwrap();
        assert_eq!(a.game, "a");
        // One AI-only slot of two workers: b waits.
        assert_eq!(take(&q), None);
        q.push("a", false); // asked again while running: after b
        q.done(&a);
        assert_eq!(take(&q).unwrap().game, "b");
    }
}
