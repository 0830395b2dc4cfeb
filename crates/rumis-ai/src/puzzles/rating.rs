//! Puzzle ratings, Glicko-2 (Glickman, "Example of the Glicko-2 system"), as lichess rates
//! its puzzles: each rated attempt is one game between the player and the puzzle, which
//! the player wins by finding the best placement and loses otherwise, and both ratings
//! move. The arithmetic is the `skillratings` crate's; this module is the one place the
//! server and the browser's engine (compiled to WebAssembly) update a puzzle rating, so a
//! rating kept offline moves as the server's does.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use super::{DEVIATION, RATING, VOLATILITY};

/// Glicko-2's system constant τ: how much the volatility may change. Glickman suggests
/// 0.3 to 1.2; 0.5 is his example's and the crate's.
pub const TAU: f64 = 0.5;
/// The least deviation an attempt leaves: a rating that has settled still moves a little
/// with each attempt, as lichess keeps its players' deviation at 45 or more.
pub const MIN_DEVIATION: f64 = 45.0;

/// A Glicko-2 rating: the rating, its deviation and volatility.
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A new player's or puzzle's: Glicko-2's defaults (1500, 350, 0.06).
    pub const NEW: Rating = Rating {
        rating: RATING,
        deviation: DEVIATION,
        volatility: VOLATILITY,
    };

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation,
            volatility: g.volatility,
        }
    }

    /// Whether every figure is a finite number and the deviation and volatility are above
    /// 0 (a rating read from a store or a browser's storage is checked before it is used).
    pub fn is_valid(&self) -> bool {
        self.rating.is_finite()
            && self.deviation.is_finite()
            && self.volatility.is_finite()
            && self.deviation > 0.0
            && self.volatility > 0.0
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// One rated attempt: the player's and the puzzle's ratings after it (`solved`: the player
/// found the best placement). Each deviation stays at [`MIN_DEVIATION`] or above.
pub fn attempt(player: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let outcome = if solved { Outcomes::WIN } else { Outcomes::LOSS };
    let (p, q) = glicko2(&player.glicko(), &puzzle.glicko(), &outcome, &config());
    let floor = |mut r: Rating| {
        r.deviation = r.deviation.max(MIN_DEVIATION);
        r
    };
    (floor(Rating::from_glicko(p)), floor(Rating::from_glicko(q)))
}

/// A rating period of several games (`true`: a win) against the given opponents: Glicko-2's
/// steps as the paper states them, without the floor of [`attempt`] (its worked example).
pub fn period(player: Rating, games: &[(Rating, bool)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = games
        .iter()
        .map(|&(o, won)| (o.glicko(), if won { Outcomes::WIN } else { Outcomes::LOSS }))
        .collect();
    Rating::from_glicko(glicko2_rating_period(&player.glicko(), &results, &config()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: VOLATILITY,
        }
    }

    /// Glickman's worked example: a player of 1500/200/0.06 beats 1400/30, loses to
    /// 1550/100 and to 1700/300, and stands at 1464.06/151.52/0.05999 after.
    #[test]
    fn the_papers_example() {
        let after = period(
            r(1500.0, 200.0),
            &[
                (r(1400.0, 30.0), true),
                (r(1550.0, 100.0), false),
                (r(1700.0, 300.0), false),
            ],
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    /// A solve lifts the player and lowers the puzzle, a fail the other way, by the same
    /// amounts for two new ratings; the deviations fall.
    #[test]
    fn a_solve_and_a_fail_move_both_ratings() {
        let (p, q) = attempt(Rating::NEW, Rating::NEW, true);
        assert!(p.rating > 1500.0 && q.rating < 1500.0, "{p:?} {q:?}");
        assert!((p.rating - 1500.0 - (1500.0 - q.rating)).abs() < 1e-9);
        assert!(p.deviation < 350.0 && q.deviation < 350.0);
        let (p, q) = attempt(Rating::NEW, Rating::NEW, false);
        assert!(p.rating < 1500.0 && q.rating > 1500.0, "{p:?} {q:?}");
        // Pinned: a first solve between new ratings.
        let (p, _) = attempt(Rating::NEW, Rating::NEW, true);
        assert_eq!(p.rating.round(), 1662.0, "{p:?}");
        assert_eq!(p.deviation.round(), 290.0, "{p:?}");
    }

    /// Solving a hard puzzle is worth more than solving an easy one; a settled rating keeps
    /// its deviation at the floor.
    #[test]
    fn harder_puzzles_are_worth_more() {
        let hard = attempt(Rating::NEW, r(1900.0, 80.0), true).0.rating;
        let easy = attempt(Rating::NEW, r(1100.0, 80.0), true).0.rating;
        assert!(hard > easy, "{hard} {easy}");
        let settled = attempt(r(1500.0, 30.0), r(1500.0, 30.0), true).0;
        assert_eq!(settled.deviation, MIN_DEVIATION);
        assert!(!Rating {
            rating: f64::NAN,
            ..Rating::NEW
        }
        .is_valid());
        assert!(Rating::NEW.is_valid());
    }
}
