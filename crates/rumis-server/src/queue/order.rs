//! The order of the AI queue's line (`queue.rs`, its module doc): who goes next on a
//! slot or a calm thread, the CPU each address used, and which search to cut for a calm
//! address.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use rumis_ai::Stop;

use super::{decayed, Account, AiQueue, Lane, Running, State, Waiting, Work, CALM_HOLD, CALM_USE};

impl State {
    /// An address's use now: its decayed past use and its running work so far.
    pub(super) fn used(&self, address: &str, now: Instant) -> f64 {
        let past = self
            .accounts
            .get(address)
            .map_or(0.0, |a| decayed(a.used, now.saturating_duration_since(a.at)));
        let running: f64 = self
            .running
            .values()
            .filter(|r| r.address == address)
            .map(|r| now.saturating_duration_since(r.started).as_secs_f64())
            .sum();
        past + running
    }

    pub(super) fn running_of(&self, address: &str) -> usize {
        self.accounts.get(address).map_or(0, |a| a.running)
    }

    /// Work counted on the slots.
    pub(super) fn slots_running(&self) -> usize {
        self.running.values().filter(|r| !r.calm).count()
    }

    /// Work on calm threads.
    pub(super) fn calm_running(&self) -> usize {
        self.running.values().filter(|r| r.calm).count()
    }

    /// Whether `w` may take a calm thread if one is free: a person waits for it, its
    /// address has nothing running and nothing else waiting, and has used less than
    /// [`CALM_USE`] lately.
    pub(super) fn calm_enough(&self, q: &AiQueue, w: &Waiting, waiting: &HashMap<&str, usize>, now: Instant) -> bool {
        w.lane == Lane::Person
            && !w.abandoned()
            && (q.moves || !matches!(w.work, Work::Move(_)))
            && self.running_of(&w.address) == 0
            && waiting[w.address.as_str()] == 1
            && self.used(&w.address, now) < CALM_USE
    }

    /// The waiting work to start on a calm thread, if one is free: the calm-enough work
    /// ([`State::calm_enough`]) of the address that used least, the first asked among equals.
    pub(super) fn best_calm(&self, q: &AiQueue, now: Instant) -> Option<usize> {
        if self.calm_running() >= q.calm_slots {
            return None;
        }
        let waiting = self.waiting_by_address();
        self.waiting
            .iter()
            .enumerate()
            .filter(|(_, w)| self.calm_enough(q, w, &waiting, now))
            .map(|(i, w)| (i, self.used(&w.address, now), w.seq))
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.2.cmp(&b.2)))
            .map(|(i, _, _)| i)
    }

    /// Work past [`CALM_HOLD`] on a calm thread counts as a slot's from then on, the
    /// longest-running first, while the slots are over by fewer than the calm threads.
    pub(super) fn move_long_calm_work_to_slots(&mut self, q: &AiQueue, now: Instant) {
        let mut over = self.slots_running().saturating_sub(q.slots);
        let mut long: Vec<(Instant, u64)> = self
            .running
            .iter()
            .filter(|(_, r)| r.calm && now.saturating_duration_since(r.started) >= CALM_HOLD)
            .map(|(&id, r)| (r.started, id))
            .collect();
        long.sort();
        for (_, id) in long {
            if over >= q.calm_slots {
                break;
            }
            if let Some(r) = self.running.get_mut(&id) {
                r.calm = false;
                over += 1;
            }
        }
    }

    pub(super) fn lane_running(&self, lanes: &[Lane]) -> usize {
        self.running.values().filter(|r| lanes.contains(&r.lane)).count()
    }

    /// The waiting work to serve next (module doc), if any may run now.
    pub(super) fn best(&self, q: &AiQueue, now: Instant) -> Option<usize> {
        let ai_only = self.lane_running(&[Lane::AiOnly, Lane::OverCap]);
        let over_cap = self.lane_running(&[Lane::OverCap]);
        let may_run = |w: &Waiting| {
            let lane_ok = match w.lane {
                Lane::Person => true,
                Lane::AiOnly => ai_only < q.ai_only_slots,
                Lane::OverCap => ai_only < q.ai_only_slots && over_cap == 0,
            };
            lane_ok && !w.abandoned() && (q.moves || !matches!(w.work, Work::Move(_)))
        };
        let mut used: HashMap<&str, f64> = HashMap::new();
        for w in &self.waiting {
            used.entry(&w.address).or_insert_with(|| self.used(&w.address, now));
        }
        let waiting = self.waiting_by_address();
        let key = |w: &Waiting| {
            let more_waiting = waiting[w.address.as_str()] > 1;
            (
                w.lane,
                self.running_of(&w.address),
                more_waiting,
                used[w.address.as_str()],
                w.seq,
            )
        };
        self.waiting
            .iter()
            .enumerate()
            .filter(|(_, w)| may_run(w))
            .min_by(|(_, a), (_, b)| {
                let (a, b) = (key(a), key(b));
                (a.0, a.1, a.2)
                    .cmp(&(b.0, b.1, b.2))
                    .then(a.3.total_cmp(&b.3))
                    .then(a.4.cmp(&b.4))
            })
            .map(|(i, _)| i)
    }

    /// Pieces of work waiting, by address.
    pub(super) fn waiting_by_address(&self) -> HashMap<&str, usize> {
        let mut n: HashMap<&str, usize> = HashMap::new();
        for w in &self.waiting {
            *n.entry(&w.address).or_default() += 1;
        }
        n
    }

    pub(super) fn start(&mut self, address: &str, lane: Lane, cuttable: bool, calm: bool, now: Instant) -> (u64, Stop) {
        let id = self.next_id;
        self.next_id += 1;
        let stop = Stop::default();
        self.running.insert(
            id,
            Running {
                address: address.to_string(),
                lane,
                stop: stop.clone(),
                started: now,
                cuttable,
                calm,
            },
        );
        let account = self.accounts.entry(address.to_string()).or_insert(Account {
            used: 0.0,
            at: now,
            running: 0,
        });
        account.running += 1;
        (id, stop)
    }

    /// A thread is given back: its time is charged to its address.
    pub(super) fn release(&mut self, id: u64, now: Instant) {
        let Some(r) = self.running.remove(&id) else { return };
        if let Some(a) = self.accounts.get_mut(&r.address) {
            a.used = decayed(a.used, now.saturating_duration_since(a.at))
                + now.saturating_duration_since(r.started).as_secs_f64();
            a.at = now;
            a.running -= 1;
        }
        if self.accounts.len() > 4096 {
            let waiting: HashSet<&str> = self.waiting.iter().map(|w| w.address.as_str()).collect();
            self.accounts.retain(|address, a| {
                a.running > 0
                    || waiting.contains(address.as_str())
                    || decayed(a.used, now.saturating_duration_since(a.at)) > 0.01
            });
        }
    }

    /// Raises the stop flag of running searches to free threads for calm addresses waiting
    /// (nothing running, this one piece of work waiting: module doc), the least used
    /// first, one cut in flight for each.
    pub(super) fn cut(&self, q: &AiQueue, now: Instant) {
        if self.slots_running() < q.slots {
            return;
        }
        let waiting = self.waiting_by_address();
        let calm_thread_free = self.calm_running() < q.calm_slots;
        let mut calm: Vec<(f64, Lane)> = Vec::new();
        for w in &self.waiting {
            let may_wait_for_a_thread = q.moves || !matches!(w.work, Work::Move(_));
            // Work that a free calm thread serves (a worker is about to take it) cuts nothing.
            let served = calm_thread_free && self.calm_enough(q, w, &waiting, now);
            if may_wait_for_a_thread
                && !served
                && self.running_of(&w.address) == 0
                && waiting[w.address.as_str()] == 1
                && !w.abandoned()
            {
                calm.push((self.used(&w.address, now), w.lane));
            }
        }
        calm.sort_by(|a, b| a.0.total_cmp(&b.0));
        let in_flight = self.running.values().filter(|r| r.stop.is_raised()).count();
        for &(theirs, lane) in calm.iter().skip(in_flight) {
            let candidate = self
                .running
                .values()
                .filter(|r| r.cuttable && !r.stop.is_raised() && r.lane >= lane)
                .filter(|r| self.running_of(&r.address) > 1 || waiting.contains_key(r.address.as_str()))
                .map(|r| (self.used(&r.address, now), r))
                .filter(|(used, _)| theirs < CALM_USE || *used > 2.0 * theirs)
                .max_by(|a, b| a.0.total_cmp(&b.0));
            match candidate {
                Some((_, r)) => r.stop.raise(),
                None => break,
            }
        }
    }

    /// Test-only: CPU an address used before `now`.
    #[cfg(test)]
    pub(super) fn used_before(&mut self, address: &str, seconds: f64, now: Instant) {
        self.accounts.insert(
            address.to_string(),
            Account {
                used: seconds,
                at: now,
                running: 0,
            },
        );
    }
}
