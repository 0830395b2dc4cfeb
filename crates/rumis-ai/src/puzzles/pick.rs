//! Which puzzle to give: the daily puzzle, the same for everyone on a UTC day, and the
//! next puzzle for a player, near their puzzle rating among those they have not tried.
//! The server and the browser's engine both choose through here.

use serde::{Deserialize, Serialize};

use super::Theme;

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;
/// The next puzzle is one of this many nearest the player's rating (by the seed), so that
/// a player without a history of attempts does not meet the same one again and again.
pub const NEAREST: usize = 10;

/// A puzzle as it is chosen: its id, scenario, player count, rating and themes.
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub id: String,
    /// The scenario's name as records write it (`Chullpa`).
    pub board: String,
    pub players: usize,
    pub rating: f64,
    pub themes: Vec<Theme>,
}

/// What the next puzzle must be: a scenario (any case), a player count, a theme.
#[cfg_attr(feature = "contract", derive(ts_rs::TS), ts(optional_fields))]
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Filter {
    pub scenario: Option<String>,
    pub players: Option<usize>,
    pub theme: Option<Theme>,
}

impl Filter {
    pub fn admits(&self, c: &Candidate) -> bool {
        self.scenario.as_ref().is_none_or(|s| s.eq_ignore_ascii_case(&c.board))
            && self.players.is_none_or(|p| p == c.players)
            && self.theme.is_none_or(|t| c.themes.contains(&t))
    }
}

/// The day (days since 1970-01-01, UTC) of a time in milliseconds since the epoch.
pub fn day_of(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS)
}

/// A day as its date, `YYYY-MM-DD` (the proleptic Gregorian calendar, days since 1970).
pub fn date_of(day: i64) -> String {
    // Howard Hinnant's civil-from-days.
    let z = day + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// SplitMix64's finaliser: a day's number spread over the whole range.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The daily puzzle of `day`: one of the candidates by a hash of the day, in the order of
/// their ids (so the order they are given in does not matter).
pub fn daily(day: i64, candidates: &[Candidate]) -> Option<&Candidate> {
    let mut sorted: Vec<&Candidate> = candidates.iter().collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let n = sorted.len() as u64;
    (n > 0).then(|| sorted[(mix(day as u64) % n) as usize])
}

/// The next puzzle for a player of `rating` who has tried `tried`: among the candidates the
/// filter admits and the player has not tried (all that it admits, when they tried every
/// one), one of the [`NEAREST`] by rating, chosen by `seed`; `None` when the filter admits
/// none.
pub fn next<'a>(
    candidates: &'a [Candidate],
    rating: f64,
    tried: &[String],
    filter: &Filter,
    seed: u64,
) -> Option<&'a Candidate> {
    let admitted: Vec<&Candidate> = candidates.iter().filter(|c| filter.admits(c)).collect();
    let fresh: Vec<&Candidate> = admitted.iter().copied().filter(|c| !tried.contains(&c.id)).collect();
    let mut pool = if fresh.is_empty() { admitted } else { fresh };
    pool.sort_by(|a, b| {
        let (da, db) = ((a.rating - rating).abs(), (b.rating - rating).abs());
        da.total_cmp(&db).then_with(|| a.id.cmp(&b.id))
    });
    pool.truncate(NEAREST);
    let n = pool.len() as u64;
    (n > 0).then(|| pool[(mix(seed) % n) as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(id: &str, board: &str, players: usize, rating: f64) -> Candidate {
        Candidate {
            id: id.into(),
            board: board.into(),
            players,
            rating,
            themes: vec![Theme::BestScore],
        }
    }

    #[test]
    fn dates() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(day_of(951_782_400_000)), "2000-02-29");
        assert_eq!(date_of(day_of(1_735_689_599_999)), "2024-12-31");
        assert_eq!(date_of(day_of(1_735_689_600_000)), "2025-01-01");
        assert_eq!(day_of(-1), -1);
    }

    /// The daily puzzle depends on the day, not on the order of the list; days differ.
    #[test]
    fn the_daily_puzzle_is_the_days() {
        let list: Vec<Candidate> = (0..50).map(|i| c(&format!("p{i:02}"), "Chullpa", 2, 1500.0)).collect();
        let mut reversed = list.clone();
        reversed.reverse();
        let today = daily(20_000, &list).unwrap();
        assert_eq!(today, daily(20_000, &reversed).unwrap());
        let days: std::collections::HashSet<&str> =
            (20_000..20_010).map(|d| daily(d, &list).unwrap().id.as_str()).collect();
        assert!(days.len() > 5, "{days:?}");
        assert!(daily(1, &[]).is_none());
    }

    /// The next puzzle is near the rating, untried, and admitted by the filter.
    #[test]
    fn the_next_puzzle_is_near_and_new() {
        let mut list: Vec<Candidate> = (0..40)
            .map(|i| c(&format!("p{i:02}"), "Chullpa", 2, 1000.0 + 25.0 * i as f64))
            .collect();
        list.push(c("tambo", "Tambo", 3, 1500.0));
        for seed in 0..20 {
            let n = next(&list, 1500.0, &[], &Filter::default(), seed).unwrap();
            assert!((n.rating - 1500.0).abs() <= 125.0, "{n:?}");
        }
        let tried: Vec<String> = list
            .iter()
            .filter(|c| c.board == "Chullpa")
            .map(|c| c.id.clone())
            .collect();
        assert_eq!(next(&list, 1000.0, &tried, &Filter::default(), 3).unwrap().id, "tambo");
        let only = Filter {
            scenario: Some("tambo".into()),
            players: Some(3),
            theme: Some(Theme::BestScore),
        };
        assert_eq!(next(&list, 2500.0, &[], &only, 9).unwrap().id, "tambo");
        // Every one tried: one of them again.
        assert_eq!(next(&list, 2500.0, &["tambo".into()], &only, 9).unwrap().id, "tambo");
        let none = Filter {
            players: Some(4),
            ..Filter::default()
        };
        assert!(next(&list, 1500.0, &[], &none, 1).is_none());
    }
}
