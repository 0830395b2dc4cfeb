//! Matches between two players: seats rotated, games in parallel, a score with its 95%
//! interval and the Elo difference.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rumis_core::{record, Game, Site, Variant};

use crate::PlayerSpec;

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub site: Arc<Site>,
    pub a: PlayerSpec,
    pub b: PlayerSpec,
    pub games: usize,
    /// Games played at the same time.
    pub parallel: usize,
    /// Threads per searching player.
    pub search_threads: usize,
    pub seed: u64,
    /// One seat of A against every other seat played by B (the seat rotated from game to
    /// game), instead of the sides alternating round the table. A's chance of a win is one
    /// in the number of seats, not a half.
    pub one_against_rest: bool,
}

/// One game of a match.
#[derive(Clone, Debug)]
pub struct GameResult {
    pub index: usize,
    /// Points for A: 1 a win, 0 a loss, a share of a shared win.
    pub a_points: f64,
    pub record: String,
    /// Which side (0 = A, 1 = B) played each colour, in order of play.
    pub sides: Vec<usize>,
    /// Each player's share of the win, by player in order of play (the seat): 1 for the
    /// winner, 1/k each for a win shared by k, 0 otherwise. In the two-player four-colour
    /// game a player is two colours.
    pub seat_wins: Vec<f64>,
    /// Each player's score, by player in order of play (`Outcome::players`).
    pub seat_scores: Vec<i32>,
}

/// One seat's figures over a match's games: who moves first, second, … wins how often and
/// scores how much, whoever sat there.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatFigures {
    /// Wins, a shared win counting 1/k.
    pub wins: f64,
    /// The share of the games won (`wins / games`).
    pub share: f64,
    /// Wilson's 95% interval of that share.
    pub low: f64,
    pub high: f64,
    /// The mean score, and the half width of its 95% interval (normal approximation).
    pub mean_score: f64,
    pub score_half_width: f64,
}

/// Each seat's figures over `results` (games of one site). The Wilson interval is that of
/// a proportion of `games` trials; a shared win enters as its fraction, which only narrows
/// the spread a little (shared wins are rare).
pub fn by_seat(results: &[GameResult]) -> Vec<SeatFigures> {
    let seats = results.iter().map(|r| r.seat_wins.len()).max().unwrap_or(0);
    let n = results.len() as f64;
    (0..seats)
        .map(|seat| {
            let wins: f64 = results
                .iter()
                .map(|r| r.seat_wins.get(seat).copied().unwrap_or(0.0))
                .sum();
            let scores: Vec<f64> = results
                .iter()
                .filter_map(|r| r.seat_scores.get(seat).map(|&s| f64::from(s)))
                .collect();
            let (low, high) = wilson(wins, n);
            let mean_score = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
            let var = if scores.len() > 1 {
                scores.iter().map(|s| (s - mean_score).powi(2)).sum::<f64>() / (scores.len() - 1) as f64
            } else {
                0.0
            };
            SeatFigures {
                wins,
                share: if n > 0.0 { wins / n } else { 0.0 },
                low,
                high,
                mean_score,
                score_half_width: 1.96 * (var / scores.len().max(1) as f64).sqrt(),
            }
        })
        .collect()
}

/// Wilson's score interval (95%) for `k` successes in `n` trials.
pub fn wilson(k: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A match's result for A.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Mean points of A.
    pub score: f64,
    /// 95% interval of the score.
    pub low: f64,
    pub high: f64,
    /// Elo of A over B (clamped at ±800 for a clean sweep).
    pub elo: f64,
}

/// Which side plays each seat in game `i`: sides alternate round the table and the start
/// alternates from game to game, so every player plays every seat. In the two-player
/// four-colour game a side is a player (seats p and p + 2).
pub fn sides_for(game: usize, seats: usize) -> Vec<usize> {
    (0..seats).map(|s| (s + game) % 2).collect()
}

/// Which side plays each seat in game `i` of a match of one against the rest: A at seat
/// `i mod seats`, B at every other. With two sides (two players, or the two-player
/// four-colour game) that is the two-sided format.
pub fn sides_one_against_rest(game: usize, site: &Site) -> Vec<usize> {
    let seats = site.order().len();
    if site.players() == 2 {
        return sides_for(game, seats);
    }
    (0..seats).map(|s| usize::from(s != game % seats)).collect()
}

pub fn play_game(cfg: &MatchConfig, index: usize) -> GameResult {
    let site = cfg.site.clone();
    // Pairs of games share their ruins, so each side gets both seats on the same ruins.
    let ruin_seed = cfg.seed.wrapping_add((index / 2) as u64);
    let mut game = match site.variant() {
        Variant::Ruinas => Game::with_random_ruins(site.clone(), ruin_seed),
        _ => Game::new(site.clone()),
    };
    let seats = site.order().len();
    let sides = if cfg.one_against_rest {
        sides_one_against_rest(index, &site)
    } else {
        sides_for(index, seats)
    };
    let seed = cfg
        .seed
        .wrapping_mul(0x2545_f491_4f6c_dd1d)
        .wrapping_add(index as u64 * 7919);
    let mut a = cfg.a.build(seed, cfg.search_threads);
    let mut b = cfg.b.build(seed ^ 0xdead_beef, cfg.search_threads);
    game.tags
        .push(("Event".into(), format!("rumis match, game {}", index + 1)));
    for (seat, &c) in site.order().iter().enumerate() {
        let who = if sides[seat] == 0 {
            format!("A {}", cfg.a)
        } else {
            format!("B {}", cfg.b)
        };
        game.tags.push((c.letter().to_string(), who));
    }
    while let Some(colour) = game.to_move() {
        let seat = site.order().iter().position(|&c| c == colour).expect("colour in order");
        let player = if sides[seat] == 0 { &mut a } else { &mut b };
        let m = player.choose(&game).expect("a player to move has a move");
        game.play(m).expect("players only play legal moves");
    }
    let outcome = game.outcome();
    // Winners are colours (or players in the two-player four-colour game); A's share.
    let winner_sides: Vec<usize> = match site.variant() {
        Variant::TwoPlayerFourColors => outcome.winners.iter().map(|&p| sides[p]).collect(),
        _ => outcome.winners.iter().map(|&w| sides[w]).collect(),
    };
    let a_points = winner_sides.iter().filter(|&&s| s == 0).count() as f64 / winner_sides.len().max(1) as f64;
    let mut seat_wins = vec![0.0; outcome.players.len()];
    for &w in &outcome.winners {
        if let Some(share) = seat_wins.get_mut(w) {
            *share += 1.0 / outcome.winners.len() as f64;
        }
    }
    GameResult {
        index,
        a_points,
        record: record::write(&game),
        sides,
        seat_wins,
        seat_scores: outcome.players.clone(),
    }
}

/// Plays the match; `each` sees every game as it ends (from any thread).
pub fn play_match(cfg: &MatchConfig, each: impl Fn(&GameResult) + Sync) -> (Summary, Vec<GameResult>) {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(cfg.games));
    std::thread::scope(|s| {
        for _ in 0..cfg.parallel.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= cfg.games {
                    break;
                }
                let r = play_game(cfg, i);
                each(&r);
                results.lock().expect("results lock").push(r);
            });
        }
    });
    let mut results = results.into_inner().expect("results lock");
    results.sort_by_key(|r| r.index);
    (
        summarise(&results.iter().map(|r| r.a_points).collect::<Vec<_>>()),
        results,
    )
}

pub fn summarise(points: &[f64]) -> Summary {
    let n = points.len();
    let wins = points.iter().filter(|&&p| p >= 1.0).count();
    let losses = points.iter().filter(|&&p| p <= 0.0).count();
    let score = if n > 0 {
        points.iter().sum::<f64>() / n as f64
    } else {
        0.5
    };
    let var = if n > 1 {
        points.iter().map(|p| (p - score).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.25
    };
    let half = 1.96 * (var / n.max(1) as f64).sqrt();
    let elo = |s: f64| {
        let s = s.clamp(1e-9, 1.0 - 1e-9);
        (-400.0 * (1.0 / s - 1.0).log10()).clamp(-800.0, 800.0)
    };
    Summary {
        games: n,
        wins,
        draws: n - wins - losses,
        losses,
        score,
        low: (score - half).max(0.0),
        high: (score + half).min(1.0),
        elo: elo(score),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_side_plays_every_seat() {
        for seats in 2..=4 {
            for seat in 0..seats {
                let a: Vec<usize> = (0..2).map(|g| sides_for(g, seats)[seat]).collect();
                assert!(a.contains(&0) && a.contains(&1));
            }
        }
    }

    #[test]
    fn one_against_the_rest_rotates_a_single_seat() {
        use rumis_core::Board;
        for players in 3..=4 {
            let site = Site::new(
                Board::builtin("pisac").unwrap().clone(),
                players,
                Variant::Standard,
                None,
            )
            .unwrap();
            for g in 0..players {
                let sides = sides_one_against_rest(g, &site);
                assert_eq!(sides.len(), players);
                assert_eq!(sides.iter().filter(|&&s| s == 0).count(), 1);
                assert_eq!(sides[g], 0, "game {g}: A plays seat {g}");
            }
        }
        // Two sides: the two-sided format (in the two-player four-colour game A plays a
        // player's two colours).
        let site = Site::new(
            Board::builtin("pisac").unwrap().clone(),
            2,
            Variant::TwoPlayerFourColors,
            None,
        )
        .unwrap();
        assert_eq!(sides_one_against_rest(1, &site), sides_for(1, 4));
        assert_eq!(sides_one_against_rest(1, &site), vec![1, 0, 1, 0]);
    }

    #[test]
    fn wilson_interval() {
        // 40 of 100: the textbook figures 0.309-0.498.
        let (lo, hi) = wilson(40.0, 100.0);
        assert!((lo - 0.3094).abs() < 1e-3 && (hi - 0.4980).abs() < 1e-3, "{lo} {hi}");
        // None and all: the interval still has width.
        assert_eq!(wilson(0.0, 10.0).0, 0.0);
        assert!(wilson(0.0, 10.0).1 > 0.25);
        assert!(wilson(10.0, 10.0).0 < 0.75);
    }

    /// Level 1 is a beginner (issue #21: at most 0.75 against random) on the two-player
    /// board where it is strongest, Tambo, and level 2 is well above it: pinned figures of
    /// 2 000 seeded games each (docs/strength.md). At 40% random moves level 1 scored
    /// 0.781 here (seed 7).
    #[test]
    fn level_one_is_a_beginner_and_level_two_above_it() {
        use rumis_core::Board;
        let site = Arc::new(Site::new(Board::builtin("tambo").unwrap().clone(), 2, Variant::Standard, None).unwrap());
        let score = |a: PlayerSpec, b: PlayerSpec| {
            let cfg = MatchConfig {
                site: site.clone(),
                a,
                b,
                games: 2000,
                parallel: 2,
                search_threads: 1,
                seed: 8,
                one_against_rest: false,
            };
            let (_, results) = play_match(&cfg, |_| {});
            results.iter().map(|r| r.a_points).sum::<f64>() / results.len() as f64
        };
        let beginner = score(PlayerSpec::Level(1), PlayerSpec::Random);
        assert!((beginner - 0.731).abs() < 1e-9, "level 1 against random: {beginner}");
        assert!(beginner <= 0.75);
        let step = score(PlayerSpec::Level(2), PlayerSpec::Level(1));
        assert!(step > 0.8, "level 2 against level 1: {step}");
    }

    #[test]
    fn seat_figures_of_a_short_match() {
        use rumis_core::Board;
        let site = Arc::new(Site::new(Board::builtin("chullpa").unwrap().clone(), 3, Variant::Standard, None).unwrap());
        let cfg = MatchConfig {
            site,
            a: PlayerSpec::Greedy,
            b: PlayerSpec::Greedy,
            games: 6,
            parallel: 2,
            search_threads: 1,
            seed: 3,
            one_against_rest: false,
        };
        let (_, results) = play_match(&cfg, |_| {});
        for r in &results {
            assert_eq!(r.seat_wins.len(), 3);
            assert!(
                (r.seat_wins.iter().sum::<f64>() - 1.0).abs() < 1e-12,
                "one win per game: {:?}",
                r.seat_wins
            );
            let game = record::read_game(&r.record).unwrap();
            assert_eq!(r.seat_scores, game.outcome().players);
        }
        let seats = by_seat(&results);
        assert_eq!(seats.len(), 3);
        assert!((seats.iter().map(|s| s.wins).sum::<f64>() - 6.0).abs() < 1e-9);
        for s in &seats {
            assert!(s.low <= s.share && s.share <= s.high);
        }
    }

    #[test]
    fn summary_figures() {
        let s = summarise(&[1.0, 1.0, 0.0, 0.5]);
        assert_eq!((s.wins, s.draws, s.losses), (2, 1, 1));
        assert!((s.score - 0.625).abs() < 1e-12);
        assert!(s.low < s.score && s.score < s.high);
        assert!(s.elo > 0.0);
        assert_eq!(summarise(&[0.5, 0.5]).elo, 0.0);
    }
}
