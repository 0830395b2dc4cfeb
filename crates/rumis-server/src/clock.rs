//! Game clocks, as values: the rule chosen at creation (real-time: minutes per game plus
//! seconds added per move; correspondence: days per move) and what happens when a seat's
//! time runs out; the state (each seat's time left, whose time runs since when) and how a
//! turn changes it. No SQL and no I/O: the game service (`service/leaving.rs`, `service.rs`)
//! decides with these inside its transactions, and storage (`store.rs`) keeps them, with
//! the time the running seat's time runs out (`due`) indexed for the timeout task.
//!
//! Time runs only for a human seat to move; an AI seat's moves are not timed.

use crate::error::GameError;
use rumis_wire as wire;

/// The smallest real-time clock: 0.1 minute (6 s), for bullet play and the browser tests.
pub const MIN_MINUTES: f64 = 0.1;
/// The largest real-time clock: three hours per game.
pub const MAX_MINUTES: f64 = 180.0;
/// The most seconds added per move.
pub const MAX_INCREMENT_SECONDS: f64 = 60.0;
/// Correspondence: days per move.
pub const MIN_DAYS: i64 = 1;
pub const MAX_DAYS: i64 = 14;

const MINUTE_MS: f64 = 60_000.0;
const DAY_MS: i64 = 24 * 3600 * 1000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    RealTime,
    Correspondence,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::RealTime => "realtime",
            Kind::Correspondence => "correspondence",
        }
    }

    pub fn from_name(s: &str) -> Option<Kind> {
        match s {
            "realtime" => Some(Kind::RealTime),
            "correspondence" => Some(Kind::Correspondence),
            _ => None,
        }
    }
}

/// What happens to a seat whose time ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnTimeout {
    /// Its colours are out (rules §5): they place no more stones.
    Out,
    /// The AI plays the seat from now on, at this level.
    Ai(u8),
}

impl OnTimeout {
    pub fn name(self) -> &'static str {
        match self {
            OnTimeout::Out => "out",
            OnTimeout::Ai(_) => "ai",
        }
    }
}

/// A clock's rule, fixed at creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    pub kind: Kind,
    /// Real-time: each seat's time for the game.
    pub initial_ms: i64,
    /// Real-time: added to a seat's time after each of its moves.
    pub increment_ms: i64,
    /// Correspondence: the time for each move.
    pub per_move_ms: i64,
    pub on_timeout: OnTimeout,
}

/// A clock as asked for when creating a game (numbers as the client sent them).
#[derive(Clone, Debug, Default)]
pub struct Asked {
    pub kind: String,
    pub minutes: Option<f64>,
    pub increment_seconds: Option<f64>,
    pub days: Option<i64>,
    pub on_timeout: Option<String>,
    pub ai_level: Option<i64>,
}

fn bad(reason: impl Into<String>) -> GameError {
    GameError::BadClock(reason.into())
}

impl Rule {
    /// Checks a clock asked for; every refusal says which value and what is allowed.
    pub fn from_asked(a: &Asked) -> Result<Rule, GameError> {
        let kind = Kind::from_name(&a.kind).ok_or_else(|| {
            bad(format!(
                "a clock's kind is \"realtime\" or \"correspondence\", not '{}'",
                crate::error::printable(&a.kind)
            ))
        })?;
        let on_timeout = match (a.on_timeout.as_deref().unwrap_or("out"), a.ai_level) {
            ("out", None) => OnTimeout::Out,
            ("out", Some(_)) => return Err(bad("ai_level belongs only to on_timeout \"ai\"")),
            ("ai", Some(l)) if (1..=9).contains(&l) => OnTimeout::Ai(l as u8),
            ("ai", Some(l)) => return Err(bad(format!("ai_level is 1 to 9, not {l}"))),
            ("ai", None) => return Err(bad("on_timeout \"ai\" needs an ai_level from 1 to 9")),
            (other, _) => {
                return Err(bad(format!(
                    "on_timeout is \"out\" or \"ai\", not '{}'",
                    crate::error::printable(other)
                )))
            }
        };
        match kind {
            Kind::RealTime => {
                if a.days.is_some() {
                    return Err(bad("days belong to a correspondence clock, not a real-time one"));
                }
                let minutes = a
                    .minutes
                    .ok_or_else(|| bad("a real-time clock needs minutes (per game)"))?;
                if !(MIN_MINUTES..=MAX_MINUTES).contains(&minutes) {
                    return Err(bad(format!(
                        "minutes per game are {MIN_MINUTES} to {MAX_MINUTES}, not {minutes}"
                    )));
                }
                let inc = a.increment_seconds.unwrap_or(0.0);
                if !(0.0..=MAX_INCREMENT_SECONDS).contains(&inc) {
                    return Err(bad(format!(
                        "seconds added per move are 0 to {MAX_INCREMENT_SECONDS}, not {inc}"
                    )));
                }
                Ok(Rule {
                    kind,
                    initial_ms: (minutes * MINUTE_MS).round() as i64,
                    increment_ms: (inc * 1000.0).round() as i64,
                    per_move_ms: 0,
                    on_timeout,
                })
            }
            Kind::Correspondence => {
                if a.minutes.is_some() || a.increment_seconds.is_some() {
                    return Err(bad(
                        "minutes and increment_seconds belong to a real-time clock; a correspondence clock has days",
                    ));
                }
                let days = a
                    .days
                    .ok_or_else(|| bad("a correspondence clock needs days (per move)"))?;
                if !(MIN_DAYS..=MAX_DAYS).contains(&days) {
                    return Err(bad(format!("days per move are {MIN_DAYS} to {MAX_DAYS}, not {days}")));
                }
                Ok(Rule {
                    kind,
                    initial_ms: 0,
                    increment_ms: 0,
                    per_move_ms: days * DAY_MS,
                    on_timeout,
                })
            }
        }
    }

    /// A seat's time when its turn begins afresh (correspondence) or at the start.
    fn fresh_ms(&self) -> i64 {
        match self.kind {
            Kind::RealTime => self.initial_ms,
            Kind::Correspondence => self.per_move_ms,
        }
    }
}

/// A game's clock: its rule and its state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    pub rule: Rule,
    /// The seat whose time runs, if any (none: an AI seat or nobody is to move).
    pub running: Option<usize>,
    /// When the running seat's time began to run (ms since the epoch).
    pub since: i64,
    /// Each seat's time left, by seat; the running seat's as at `since`.
    pub remaining: Vec<i64>,
}

impl Clock {
    /// A new game's clock: `running` (the human seat to move, if one is) starts now.
    pub fn start(rule: Rule, seats: usize, running: Option<usize>, now: i64) -> Clock {
        Clock {
            rule,
            running,
            since: now,
            remaining: vec![rule.fresh_ms(); seats],
        }
    }

    /// A seat's time left at `now` (0 when it ran out).
    pub fn left(&self, seat: usize, now: i64) -> i64 {
        let base = self.remaining.get(seat).copied().unwrap_or(0);
        if self.running == Some(seat) {
            (base - (now - self.since).max(0)).max(0)
        } else {
            base
        }
    }

    /// When the running seat's time runs out.
    pub fn due(&self) -> Option<i64> {
        let seat = self.running?;
        Some(self.since + self.remaining.get(seat).copied().unwrap_or(0))
    }

    /// Whether the running seat's time has run out at `now`.
    pub fn expired(&self, now: i64) -> bool {
        self.due().is_some_and(|d| d <= now)
    }

    /// The turn passes at `now` to `next` (a human seat whose time runs, or none): the
    /// running seat is charged the time it used, and gets the increment when it `moved`
    /// (a real-time clock); a correspondence seat gets a fresh allowance each turn.
    pub fn pass(&mut self, moved: bool, next: Option<usize>, now: i64) {
        if let Some(s) = self.running {
            let left = self.left(s, now);
            let bonus = if moved && self.rule.kind == Kind::RealTime {
                self.rule.increment_ms
            } else {
                0
            };
            if let Some(r) = self.remaining.get_mut(s) {
                *r = left + bonus;
            }
        }
        self.running = next;
        self.since = now;
        if let (Some(n), Kind::Correspondence) = (next, self.rule.kind) {
            if let Some(r) = self.remaining.get_mut(n) {
                *r = self.rule.per_move_ms;
            }
        }
    }

    /// The clock as the state and the events show it, at `now`.
    pub fn info(&self, now: i64) -> wire::ClockInfo {
        wire::ClockInfo {
            kind: self.rule.kind.name().into(),
            initial_ms: self.rule.initial_ms,
            increment_ms: self.rule.increment_ms,
            per_move_ms: self.rule.per_move_ms,
            on_timeout: self.rule.on_timeout.name().into(),
            ai_level: match self.rule.on_timeout {
                OnTimeout::Ai(l) => Some(l),
                OnTimeout::Out => None,
            },
            now,
            running_seat: self.running,
            seats: (0..self.remaining.len())
                .map(|s| wire::SeatClock {
                    seat: s,
                    remaining_ms: self.left(s, now),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(kind: &str) -> Asked {
        Asked {
            kind: kind.into(),
            ..Asked::default()
        }
    }

    #[test]
    fn a_real_time_clock_charges_the_mover_and_adds_the_increment() {
        let rule = Rule::from_asked(&Asked {
            minutes: Some(1.0),
            increment_seconds: Some(2.0),
            ..asked("realtime")
        })
        .unwrap();
        let mut c = Clock::start(rule, 2, Some(0), 1_000);
        assert_eq!(c.due(), Some(61_000));
        assert_eq!(c.left(0, 11_000), 50_000);
        assert_eq!(c.left(1, 11_000), 60_000);
        c.pass(true, Some(1), 11_000);
        assert_eq!(c.remaining, vec![52_000, 60_000]);
        assert_eq!(c.due(), Some(71_000));
        // The AI's turn: nobody's time runs.
        c.pass(true, None, 21_000);
        assert_eq!(c.remaining, vec![52_000, 52_000]);
        assert_eq!(c.due(), None);
        assert!(!c.expired(i64::MAX));
        // Time left never goes below 0.
        c.pass(false, Some(0), 30_000);
        assert_eq!(c.left(0, 200_000), 0);
        assert!(c.expired(82_000));
        assert!(!c.expired(81_999));
    }

    #[test]
    fn a_correspondence_clock_gives_each_turn_its_days() {
        let rule = Rule::from_asked(&Asked {
            days: Some(2),
            ..asked("correspondence")
        })
        .unwrap();
        let mut c = Clock::start(rule, 3, Some(0), 0);
        assert_eq!(c.due(), Some(2 * DAY_MS));
        c.pass(true, Some(1), DAY_MS);
        assert_eq!(c.due(), Some(3 * DAY_MS));
        c.pass(true, Some(0), DAY_MS + 5);
        assert_eq!(c.due(), Some(3 * DAY_MS + 5));
    }

    // long: a table, one absurd clock a case (rustfmt lays most over five lines).
    #[test]
    fn absurd_clocks_are_refused_with_the_value() {
        let cases: Vec<(Asked, &str)> = vec![
            (asked("blitz"), "not 'blitz'"),
            (asked("realtime"), "needs minutes"),
            (
                Asked {
                    minutes: Some(-5.0),
                    ..asked("realtime")
                },
                "not -5",
            ),
            (
                Asked {
                    minutes: Some(0.01),
                    ..asked("realtime")
                },
                "not 0.01",
            ),
            (
                Asked {
                    minutes: Some(1e9),
                    ..asked("realtime")
                },
                "not 1000000000",
            ),
            (
                Asked {
                    minutes: Some(5.0),
                    increment_seconds: Some(-1.0),
                    ..asked("realtime")
                },
                "not -1",
            ),
            (
                Asked {
                    minutes: Some(5.0),
                    increment_seconds: Some(3600.0),
                    ..asked("realtime")
                },
                "not 3600",
            ),
            (
                Asked {
                    minutes: Some(5.0),
                    days: Some(2),
                    ..asked("realtime")
                },
                "days belong",
            ),
            (asked("correspondence"), "needs days"),
            (
                Asked {
                    days: Some(0),
                    ..asked("correspondence")
                },
                "not 0",
            ),
            (
                Asked {
                    days: Some(15),
                    ..asked("correspondence")
                },
                "not 15",
            ),
            (
                Asked {
                    days: Some(i64::MAX),
                    ..asked("correspondence")
                },
                "1 to 14",
            ),
            (
                Asked {
                    days: Some(3),
                    minutes: Some(1.0),
                    ..asked("correspondence")
                },
                "belong to a real-time",
            ),
            (
                Asked {
                    days: Some(3),
                    on_timeout: Some("ai".into()),
                    ..asked("correspondence")
                },
                "needs an ai_level",
            ),
            (
                Asked {
                    days: Some(3),
                    on_timeout: Some("ai".into()),
                    ai_level: Some(10),
                    ..asked("correspondence")
                },
                "not 10",
            ),
            (
                Asked {
                    days: Some(3),
                    on_timeout: Some("pause".into()),
                    ..asked("correspondence")
                },
                "not 'pause'",
            ),
            (
                Asked {
                    days: Some(3),
                    ai_level: Some(3),
                    ..asked("correspondence")
                },
                "only to on_timeout",
            ),
        ];
        for (a, words) in cases {
            let e = Rule::from_asked(&a).unwrap_err().to_string();
            assert!(e.contains(words), "{a:?}: '{e}' does not say '{words}'");
        }
    }
}
