//! Sourced facts about a board (rules §3): what a rulebook or a reported game says, where it
//! says it, and the checks a machine can make of it. The boards are reconstructions where
//! the rulebooks only show pictures, so a board file carries the evidence it was fitted to,
//! and a file whose cells contradict its own evidence is refused.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use toml::Spanned;

/// One fact about a board, with its source and what it implies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Evidence {
    /// The fact in words ("a 3-player game ended 22 + 21 + 19 = 62 squares seen from above").
    pub fact: String,
    /// Where it is found: a rulebook, an address.
    pub source: String,
    /// What it implies that a machine can check; may be empty (a fact kept for people).
    pub constraints: Vec<Constraint>,
}

/// A checkable consequence of a fact.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Constraint {
    /// The footprint for `players` has at least `cells` cells (every square seen from above
    /// at the end of a game is one footprint cell).
    MinCells {
        /// The player count.
        players: usize,
        /// The fewest cells.
        cells: usize,
    },
    /// Hmax for `players` is exactly `height`.
    Hmax {
        /// The player count.
        players: usize,
        /// The height limit.
        height: u8,
    },
    /// Some cell's height limit for `players` is at least `level` (someone built that high).
    ReachesLevel {
        /// The player count.
        players: usize,
        /// The level (1-based) reached.
        level: u8,
    },
    /// The board has a smaller footprint (a red frame) for exactly these player counts.
    FramesFor(Vec<usize>),
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Constraint::MinCells { players, cells } => {
                write!(f, "at least {cells} cells for {players} players")
            }
            Constraint::Hmax { players, height } => write!(f, "Hmax {height} for {players} players"),
            Constraint::ReachesLevel { players, level } => {
                write!(f, "some cell reaches level {level} for {players} players")
            }
            Constraint::FramesFor(counts) if counts.is_empty() => write!(f, "no red frame"),
            Constraint::FramesFor(counts) => {
                let counts: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
                write!(f, "a red frame for {} players only", counts.join(" and "))
            }
        }
    }
}

/// What a board file holds under `[[evidence]]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawEvidence {
    fact: Spanned<String>,
    source: String,
    #[serde(default)]
    min_cells: BTreeMap<String, Spanned<i64>>,
    #[serde(default)]
    hmax: BTreeMap<String, Spanned<i64>>,
    #[serde(default)]
    reaches_level: BTreeMap<String, Spanned<i64>>,
    #[serde(default)]
    frames_for: Option<Spanned<Vec<i64>>>,
}

impl RawEvidence {
    pub(crate) fn span_start(&self) -> usize {
        self.fact.span().start
    }

    /// The evidence, or the offset in the file and the message of what is wrong with it.
    pub(crate) fn read(self) -> Result<Evidence, (usize, String)> {
        let fact = self.fact.get_ref().trim().to_string();
        if fact.is_empty() {
            return Err((self.fact.span().start, "an evidence entry has an empty fact".into()));
        }
        let players = |key: &str, at: usize| -> Result<usize, (usize, String)> {
            match key {
                "2" | "3" | "4" => Ok(key.parse().unwrap_or(2)),
                _ => Err((at, format!("evidence key \"{key}\" is not a player count (2, 3 or 4)"))),
            }
        };
        let mut constraints = Vec::new();
        for (key, v) in &self.min_cells {
            let p = players(key, v.span().start)?;
            let cells = usize::try_from(*v.get_ref()).ok().filter(|&c| c > 0).ok_or((
                v.span().start,
                format!("min_cells for {key} players must be a positive count"),
            ))?;
            constraints.push(Constraint::MinCells { players: p, cells });
        }
        for (table, values) in [("hmax", &self.hmax), ("reaches_level", &self.reaches_level)] {
            for (key, v) in values {
                let p = players(key, v.span().start)?;
                let level = u8::try_from(*v.get_ref())
                    .ok()
                    .filter(|l| (1..=crate::limits::MAX_LEVEL).contains(l))
                    .ok_or((
                        v.span().start,
                        format!("{table} for {key} players must be 1 to {}", crate::limits::MAX_LEVEL),
                    ))?;
                constraints.push(if table == "hmax" {
                    Constraint::Hmax {
                        players: p,
                        height: level,
                    }
                } else {
                    Constraint::ReachesLevel { players: p, level }
                });
            }
        }
        if let Some(counts) = &self.frames_for {
            let mut out = Vec::new();
            for &c in counts.get_ref() {
                if !(2..=4).contains(&c) {
                    return Err((
                        counts.span().start,
                        format!("frames_for holds {c}, not a player count (2, 3 or 4)"),
                    ));
                }
                out.push(c as usize);
            }
            out.sort_unstable();
            out.dedup();
            constraints.push(Constraint::FramesFor(out));
        }
        Ok(Evidence {
            fact,
            source: self.source.trim().to_string(),
            constraints,
        })
    }
}
