//! Ratings: Weng-Lin (the `skillratings` crate), which rates a free-for-all from its
//! ranking — each seat is a team of one, the places are the game's result (the core's
//! `Outcome::places`: by score, ties sharing a place, a seat that forfeited last). Pure
//! arithmetic; the lobby service (`service/lobby.rs`) reads and writes the ratings.
//!
//! **The scale.** A player's Weng-Lin `mu` is shown as `1500 + (mu - 25) * ELO_PER_MU`,
//! with `ELO_PER_MU = 400 / (β·√2·ln 10) ≈ 29.5`: for two well-known players (σ → 0),
//! Weng-Lin's win probability `1 / (1 + e^(-Δmu / (β√2)))` is then the Elo formula's for
//! the shown difference. So a new player (mu 25) shows 1500 and a difference of 200
//! points means what it means in Elo.
//!
//! **The AI levels** stand on that scale at fixed ratings (they are never updated: they
//! anchor it). [`AI_ELO`] is the measured Elo step between consecutive levels in
//! docs/strength.md, averaged over its four two- to four-player tables (Chullpa 2,
//! Coricancha 4, Pisac 3, Tambo 2), summed from level 1 = 1000; the anchor is a choice,
//! made so that a new player (1500) starts beside level 4 (1484), the first level that
//! searches.

use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A new player's Weng-Lin rating and uncertainty (the crate's defaults).
pub const START: (f64, f64) = (25.0, 25.0 / 3.0);

/// Distinct opponents (players, or AI levels) a player must have met in rated games to be
/// shown on the leaderboard: a rating made against one or two opponents (or their
/// puppets) says little.
pub const LEADERBOARD_MIN_OPPONENTS: i64 = 3;

/// Fewer rated games than this and the rating is marked provisional.
pub const PROVISIONAL_GAMES: i64 = 5;

/// The AI levels 1-9 on the shown scale: level 1 at 1000, then the mean measured steps
/// (docs/strength.md) +200 +156 +128 +141 +106 +165 +135 +170.
pub const AI_ELO: [f64; 9] = [1000.0, 1200.0, 1356.0, 1484.0, 1625.0, 1731.0, 1896.0, 2031.0, 2201.0];

/// The AI levels' uncertainty: about the width of the measured intervals (±50-100 Elo).
pub const AI_UNCERTAINTY: f64 = 2.5;

fn config() -> WengLinConfig {
    WengLinConfig::new()
}

/// Shown points per unit of Weng-Lin `mu` (see the module's comment).
pub fn elo_per_mu() -> f64 {
    400.0 / (config().beta * std::f64::consts::SQRT_2 * std::f64::consts::LN_10)
}

/// The shown rating of a Weng-Lin `mu`.
pub fn shown(mu: f64) -> i64 {
    (1500.0 + (mu - START.0) * elo_per_mu()).round() as i64
}

/// The Weng-Lin rating of an AI level (1-9).
pub fn ai_rating(level: u8) -> (f64, f64) {
    let elo = AI_ELO[(level.clamp(1, 9) - 1) as usize];
    (START.0 + (elo - 1500.0) / elo_per_mu(), AI_UNCERTAINTY)
}

/// How much of a rating change counts, by the seat's opponents: each human opponent counts
/// in proportion to its rated games (a brand-new key `1 / (PROVISIONAL_GAMES + 1)`, one
/// with [`PROVISIONAL_GAMES`] games or more fully), an AI level fully (`None`); the mean
/// over the opponents. Keys made only to lose to someone then move that someone little.
pub fn damping(opponents: &[Option<i64>]) -> f64 {
    if opponents.is_empty() {
        return 1.0;
    }
    let full = (PROVISIONAL_GAMES + 1) as f64;
    let sum: f64 = opponents
        .iter()
        .map(|o| o.map_or(1.0, |games| ((games.max(0) + 1) as f64 / full).min(1.0)))
        .sum();
    sum / opponents.len() as f64
}

/// The ratings after a game: `ratings[i]` is seat i's (mu, sigma) before, `places[i]` its
/// place.
pub fn update(ratings: &[(f64, f64)], places: &[usize]) -> Vec<(f64, f64)> {
    let teams: Vec<[WengLinRating; 1]> = ratings
        .iter()
        .map(|&(rating, uncertainty)| [WengLinRating { rating, uncertainty }])
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(places)
        .map(|(t, &p)| (&t[..], MultiTeamOutcome::new(p)))
        .collect();
    weng_lin_multi_team(&input, &config())
        .into_iter()
        .zip(ratings)
        .map(|(team, before)| team.first().map_or(*before, |r| (r.rating, r.uncertainty)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damping_counts_new_keys_little_and_the_ai_fully() {
        assert_eq!(damping(&[None]), 1.0);
        assert_eq!(damping(&[Some(PROVISIONAL_GAMES)]), 1.0);
        assert_eq!(damping(&[Some(100)]), 1.0);
        let new = damping(&[Some(0)]);
        assert!((new - 1.0 / (PROVISIONAL_GAMES + 1) as f64).abs() < 1e-9, "{new}");
        assert!(damping(&[Some(0), None]) > new && damping(&[Some(0), None]) < 1.0);
        assert!(damping(&[Some(2)]) > new);
    }

    /// Two new players: the winner gains what the loser loses; a draw moves neither mu.
    #[test]
    fn two_new_players() {
        let after = update(&[START, START], &[1, 2]);
        assert!(after[0].0 > START.0 && after[1].0 < START.0, "{after:?}");
        assert!((after[0].0 - START.0 - (START.0 - after[1].0)).abs() < 1e-9);
        assert!(after[0].1 < START.1 && after[1].1 < START.1, "uncertainty falls");
        let draw = update(&[START, START], &[1, 1]);
        assert!((draw[0].0 - START.0).abs() < 1e-9 && (draw[1].0 - START.0).abs() < 1e-9);
        // Pinned: the shown points a first win between new players is worth.
        assert_eq!(shown(after[0].0), 1578, "{}", shown(after[0].0));
        assert_eq!(shown(after[1].0), 1422);
    }

    /// Four players: the order of the changes is the order of the places.
    #[test]
    fn free_for_all_order() {
        let after = update(&[START; 4], &[2, 1, 3, 1]);
        assert!(after[1].0 == after[3].0);
        // Second of three places, behind two: above the last, below the two first.
        assert!(after[3].0 > START.0 && after[3].0 > after[0].0 && after[0].0 > after[2].0 && after[2].0 < START.0);
    }

    /// The AI levels are on the shown scale where docs/strength.md puts them.
    #[test]
    fn ai_levels_on_the_scale() {
        assert!((elo_per_mu() - 29.48).abs() < 0.01, "{}", elo_per_mu());
        for level in 1..=9u8 {
            assert_eq!(shown(ai_rating(level).0), AI_ELO[level as usize - 1] as i64);
        }
        // Beating a strong AI is worth more than beating a weak one.
        let strong = update(&[START, ai_rating(8)], &[1, 2])[0].0;
        let weak = update(&[START, ai_rating(1)], &[1, 2])[0].0;
        assert!(strong > weak);
    }
}
