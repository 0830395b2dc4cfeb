//! The AI's work queue: games with an AI seat to move. One job is one move, so games take
//! turns (round robin); games with a human seat go first (a person waits for them), and
//! games without one may take only some of the workers, so that a flood of AI-only games
//! cannot keep a person waiting for more than one search.
//!
//! Within each class the turns go round the **creators** first (the address that created
//! the game), then round that creator's games: a creator with twenty games waiting gets one
//! move for every move of a creator with one, so many games from one address cannot push
//! another address's game to the back of a long line.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;

use tokio::sync::Notify;

/// A game to play an AI move in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub game: String,
    /// A human seat plays in this game.
    pub human: bool,
    /// Who created the game (its address): the unit of fairness.
    pub creator: String,
}

impl Job {
    pub fn new(game: &str, human: bool, creator: &str) -> Job {
        Job {
            game: game.into(),
            human,
            creator: creator.into(),
        }
    }
}

/// One class of games (with a human seat, or AI-only): creators in turn, each with its
/// games in turn.
#[derive(Default)]
struct Lanes {
    /// Creators with at least one game waiting, in the order of their next turn.
    creators: VecDeque<String>,
    games: HashMap<String, VecDeque<Job>>,
}

impl Lanes {
    fn push(&mut self, job: Job) {
        match self.games.get_mut(&job.creator) {
            Some(waiting) => waiting.push_back(job),
            None => {
                self.creators.push_back(job.creator.clone());
                self.games.insert(job.creator.clone(), VecDeque::from([job]));
            }
        }
    }

    /// The next creator's first game; the creator goes to the back of the line if it has
    /// more.
    fn pop(&mut self) -> Option<Job> {
        let creator = self.creators.pop_front()?;
        let waiting = self.games.get_mut(&creator)?;
        let job = waiting.pop_front();
        if waiting.is_empty() {
            self.games.remove(&creator);
        } else {
            self.creators.push_back(creator);
        }
        job
    }
}

#[derive(Default)]
struct State {
    human: Lanes,
    ai_only: Lanes,
    /// Games in one of the queues.
    queued: HashSet<String>,
    /// Games a worker is playing now; `again`: queue them once it is done.
    running: HashSet<String>,
    again: HashMap<String, Job>,
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

    /// Games waiting for a worker, and games a worker is playing (for `/metrics`).
    pub fn lengths(&self) -> (usize, usize) {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        (s.queued.len(), s.running.len())
    }

    /// Asks for an AI move in a game (once, however often asked).
    pub fn push(&self, job: Job) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if s.running.contains(&job.game) {
            s.again.insert(job.game.clone(), job);
            return;
        }
        if !s.queued.insert(job.game.clone()) {
            return;
        }
        if job.human {
            s.human.push(job);
        } else {
            s.ai_only.push(job);
        }
        drop(s);
        self.notify.notify_waiters();
        self.notify.notify_one();
    }

    fn take(&self) -> Option<Job> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let job = if let Some(job) = s.human.pop() {
            job
        } else if s.ai_only_running < self.ai_only_slots {
            let job = s.ai_only.pop()?;
            s.ai_only_running += 1;
            job
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

    /// A worker is done with a job: the game goes to the back of its creator's line if it
    /// was asked for meanwhile.
    pub fn done(&self, job: &Job) {
        let again = {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            s.running.remove(&job.game);
            if !job.human {
                s.ai_only_running -= 1;
            }
            s.again.remove(&job.game)
        };
        if let Some(again) = again {
            self.push(again);
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

    fn job(game: &str, human: bool, creator: &str) -> Job {
        Job::new(game, human, creator)
    }

    /// Human games first; AI-only games round robin and on at most `workers - 1` workers.
    #[test]
    fn humans_first_then_round_robin_within_the_slots() {
        let q = AiQueue::new(2);
        q.push(job("a", false, "x"));
        q.push(job("b", false, "y"));
        q.push(job("h", true, "z"));
        q.push(job("a", false, "x")); // once, however often asked
        assert_eq!(take(&q).unwrap(), job("h", true, "z"));
        let a = take(&q).unwrap();
        assert_eq!(a.game, "a");
        // One AI-only slot of two workers: b waits.
        assert_eq!(take(&q), None);
        q.push(job("a", false, "x")); // asked again while running: after b
        q.done(&a);
        assert_eq!(take(&q).unwrap().game, "b");
    }

    /// A creator with many games waiting gets one turn for each turn of a creator with one:
    /// the turns alternate between creators, whatever the order the games were queued in.
    #[test]
    fn turns_go_round_the_creators_then_their_games() {
        let q = AiQueue::new(8);
        for g in ["m1", "m2", "m3", "m4"] {
            q.push(job(g, true, "many"));
        }
        q.push(job("o1", true, "one"));
        q.push(job("t1", true, "two"));
        q.push(job("t2", true, "two"));
        let order: Vec<String> = std::iter::from_fn(|| take(&q)).map(|j| j.game).collect();
        assert_eq!(order, ["m1", "o1", "t1", "m2", "t2", "m3", "m4"]);

        // A game asked for again while it runs goes to the back of its creator's line, and
        // the creator takes its turn after those already waiting.
        let q = AiQueue::new(8);
        q.push(job("a1", false, "a"));
        q.push(job("a2", false, "a"));
        let a1 = take(&q).unwrap();
        q.push(job("b1", false, "b"));
        q.push(job("a1", false, "a"));
        q.done(&a1);
        let order: Vec<String> = std::iter::from_fn(|| take(&q)).map(|j| j.game).collect();
        assert_eq!(order, ["a2", "b1", "a1"]);
    }

    /// The same holds among AI-only games within their slots.
    #[test]
    fn ai_only_games_go_round_the_creators_too() {
        let q = AiQueue::new(2);
        for g in ["f1", "f2", "f3"] {
            q.push(job(g, false, "flood"));
        }
        q.push(job("c1", false, "calm"));
        let mut order = Vec::new();
        for _ in 0..4 {
            let j = take(&q).unwrap();
            assert_eq!(take(&q), None, "one AI-only slot");
            order.push(j.game.clone());
            q.done(&j);
        }
        assert_eq!(order, ["f1", "c1", "f2", "f3"]);
    }
}
