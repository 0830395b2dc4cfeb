//! Puzzles cut from games: a position (the moves so far on a scenario and player count),
//! the colour to move, the one placement that is clearly best, why (its themes) and its
//! proof. The proof is `exact` where the endgame solver values every placement under
//! perfect play and the best stands above every other by [`EXACT_MARGIN`], or `searched`:
//! two tree searches with different seeds choose the same placement, each with a margin
//! of [`SEARCHED_MARGIN`] over the runner-up. [`verify`] checks a puzzle again from
//! nothing; the files are `puzzles/BOARD-PLAYERS.json` at the repository root
//! (docs/puzzles.md).

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use rumis_core::{record, Colour, Game, Move, Site, Variant};

use crate::endgame::Solver;
use crate::mcts::{Mcts, MctsConfig, SearchResult};

pub mod judge;
pub mod pick;
pub mod rating;

/// The least lead, in reward (0..1, `reward::rewards`), of the best placement over every
/// other under perfect play. The reward is a strictly increasing function of the mover's
/// rank and score margin, and the solver computes equal results as equal rewards, so any
/// lead is real: every other placement ends with a worse rank or a smaller margin (a
/// point of margin is worth at least this up to a margin of about 30 points).
pub const EXACT_MARGIN: f32 = 1e-5;
/// The least lead of the best placement's mean over the runner-up's in a search.
pub const SEARCHED_MARGIN: f32 = 0.10;
/// The solver's node budget for a proof; [`verify`] solves within the same budget.
pub const EXACT_NODES: u64 = 300_000;
/// A position with fewer legal placements than this is no puzzle.
pub const MIN_CHOICES: usize = 3;
/// A searched puzzle's runner-up is the best mean among the placements that drew at
/// least this share of the simulations (a placement tried a handful of times has a mean
/// that says little).
const RUNNER_UP_SHARE: f32 = 0.01;
/// A new puzzle's rating: Glicko-2's defaults.
pub const RATING: f64 = 1500.0;
pub const DEVIATION: f64 = 350.0;
pub const VOLATILITY: f64 = 0.06;

/// The puzzles of one scenario and player count: one file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleSet {
    /// The scenario's name as records write it (`Chullpa`).
    pub board: String,
    pub players: usize,
    /// Always `standard`: the variants' puzzles are for later.
    pub variant: String,
    pub puzzles: Vec<Puzzle>,
}

#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// `board-players-` and the position's hash: the same position is one puzzle.
    pub id: String,
    /// The placements so far, in the record notation (rules §7).
    pub moves: Vec<String>,
    /// The colour to move, by its letter.
    pub to_move: String,
    /// The one best placement.
    pub best: String,
    pub themes: Vec<Theme>,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub proof: Proof,
    /// Where the position comes from (the game's description).
    pub source: String,
}

/// Why the best placement is best, decided from the position.
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// After it, a colour that could place has no placement left: it is out.
    BlockOut,
    /// It fills a column to the height limit, where most placements do not.
    HeightLimit,
    /// It is the mover's last stone.
    LastStone,
    /// After it the mover can still place, after another placement it could not.
    StayIn,
    /// None of the above, and the mover wins with it.
    KeepTheWin,
    /// None of the above: it gives the mover the best result it can get.
    BestScore,
}

impl Theme {
    pub const ALL: [Theme; 6] = [
        Theme::BlockOut,
        Theme::HeightLimit,
        Theme::LastStone,
        Theme::StayIn,
        Theme::KeepTheWin,
        Theme::BestScore,
    ];

    /// The theme in the game's words.
    pub fn name(self) -> &'static str {
        match self {
            Theme::BlockOut => "blocking a colour out",
            Theme::HeightLimit => "the height limit",
            Theme::LastStone => "the last stone",
            Theme::StayIn => "staying in the game",
            Theme::KeepTheWin => "keeping the win",
            Theme::BestScore => "the best score",
        }
    }

    /// The name in the files (kebab case).
    pub fn key(self) -> &'static str {
        match self {
            Theme::BlockOut => "block-out",
            Theme::HeightLimit => "height-limit",
            Theme::LastStone => "last-stone",
            Theme::StayIn => "stay-in",
            Theme::KeepTheWin => "keep-the-win",
            Theme::BestScore => "best-score",
        }
    }
}

/// The proof that the best placement is the one: the mover's values (reward, 0..1) of the
/// best and of the runner-up.
#[cfg_attr(feature = "contract", derive(ts_rs::TS))]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Proof {
    /// Under perfect play (max^n, as the endgame solver plays it), every placement valued.
    Exact {
        value: f32,
        second: f32,
        margin: f32,
        /// Positions the solver searched.
        nodes: u64,
    },
    /// Two searches of `simulations` each, by seed: the same best, each with its margin.
    Searched {
        simulations: u64,
        seeds: [u64; 2],
        value: [f32; 2],
        second: [f32; 2],
        margin: [f32; 2],
    },
}

impl Proof {
    pub fn kind(&self) -> &'static str {
        match self {
            Proof::Exact { .. } => "exact",
            Proof::Searched { .. } => "searched",
        }
    }
}

impl PuzzleSet {
    pub fn from_json(text: &str) -> Result<PuzzleSet, String> {
        serde_json::from_str(text).map_err(|e| format!("not a puzzle file: {e}"))
    }

    /// Pretty JSON, one field a line: the files are data under version control.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The site the puzzles are on.
    pub fn site(&self) -> Result<Arc<Site>, String> {
        if self.variant != Variant::Standard.name() {
            return Err(format!("variant {}: only standard puzzles are read", self.variant));
        }
        let board = record::builtin_board(&self.board).map_err(|e| e.to_string())?;
        Site::new(board, self.players, Variant::Standard, None)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    }

    /// The file name of a scenario and player count: `chullpa-2.json`.
    pub fn file_name(board: &str, players: usize) -> String {
        format!("{}-{players}.json", board.to_lowercase())
    }
}

impl Puzzle {
    /// The game up to the puzzle's position, and the best placement as a move.
    pub fn position(&self, site: &Arc<Site>) -> Result<(Game, Move), String> {
        let mut game = Game::new(site.clone());
        for (i, m) in self.moves.iter().enumerate() {
            game.play_text(m)
                .map_err(|e| format!("{}: move {} ({m}): {e}", self.id, i + 1))?;
        }
        let mover = game.to_move().ok_or_else(|| format!("{}: the game is over", self.id))?;
        if mover.to_string() != self.to_move {
            return Err(format!("{}: {mover} is to move, not {}", self.id, self.to_move));
        }
        let best = game
            .clone()
            .play_text(&self.best)
            .map_err(|e| format!("{}: the best placement {}: {e}", self.id, self.best))?;
        Ok((game, best))
    }
}

/// The themes of placing `best` in `game`'s position, from the position alone.
pub fn themes(game: &Game, best: Move, mover_wins: bool) -> Vec<Theme> {
    let (site, pos) = (game.site(), game.position());
    let Some(mover) = game.to_move() else {
        return Vec::new();
    };
    let mut after = pos.clone();
    after.play_unchecked(site, best);
    let mut out = Vec::new();
    let others: Vec<Colour> = site.order().iter().copied().filter(|&c| c != mover).collect();
    if others
        .iter()
        .any(|&c| pos.count_moves_for(site, c) > 0 && after.count_moves_for(site, c) == 0)
    {
        out.push(Theme::BlockOut);
    }
    // Filling a column to its limit is the point only where most placements do not.
    let limits = site.limits();
    let reaches = |m: Move| {
        let mut a = pos.clone();
        a.play_unchecked(site, m);
        (0..site.columns()).any(|c| a.height(c) != pos.height(c) && a.height(c) == limits[c])
    };
    let legal = game.legal_moves();
    if reaches(best) && 2 * legal.iter().filter(|&&m| reaches(m)).count() < legal.len() {
        out.push(Theme::HeightLimit);
    }
    if pos.stones_in_hand(mover) == 1 {
        out.push(Theme::LastStone);
    } else if pos.count_moves_after(site, best)[mover.index()] > 0
        && legal
            .iter()
            .any(|&m| pos.count_moves_after(site, m)[mover.index()] == 0)
    {
        out.push(Theme::StayIn);
    }
    if out.is_empty() {
        out.push(if mover_wins {
            Theme::KeepTheWin
        } else {
            Theme::BestScore
        });
    }
    out
}

/// A reward that wins outright (rank 1: `0.9 + 0.05 (margin + 1)` with a margin above 0).
fn wins(value: f32) -> bool {
    value > 0.95
}

/// The exact proof of `game`'s position, if the solver decides it within [`EXACT_NODES`]
/// and one placement stands above every other: (best, proof).
pub fn prove_exact(game: &Game) -> Result<Option<(Move, Proof)>, String> {
    let (site, pos) = (game.site(), game.position());
    let mover = game.to_move().ok_or("the game is over")?.index();
    let mut solver = Solver::new(site, EXACT_NODES);
    let Some(each) = solver.solve_each(pos) else {
        return Err(format!("the solver needs more than {EXACT_NODES} positions"));
    };
    if each.len() < MIN_CHOICES {
        return Ok(None);
    }
    let (mut best, mut value, mut second) = (each[0].0, f32::MIN, f32::MIN);
    for &(m, v) in &each {
        if v[mover] > value {
            (best, second, value) = (m, value, v[mover]);
        } else if v[mover] > second {
            second = v[mover];
        }
    }
    let margin = value - second;
    Ok((margin >= EXACT_MARGIN).then_some((
        best,
        Proof::Exact {
            value,
            second,
            margin,
            nodes: solver.nodes(),
        },
    )))
}

/// The search of a searched proof: `simulations`, one thread, `seed`, the endgame solver
/// off (its answer has no runner-up), no tree kept.
fn proof_search(simulations: u64, seed: u64) -> Mcts {
    Mcts::new(MctsConfig {
        simulations: Some(simulations),
        two_player_simulations: None,
        time: None,
        threads: 1,
        seed,
        reuse: false,
        endgame_stones: 0,
        label: "puzzle".into(),
        ..MctsConfig::default()
    })
}

/// The best placement of a search and its margin: (best, value, runner-up's value).
fn searched(r: &SearchResult) -> (Move, f32, f32) {
    let floor = (r.simulations as f32 * RUNNER_UP_SHARE).max(1.0);
    let value = r.moves.iter().find(|m| m.0 == r.best).map_or(r.value, |m| m.2);
    let second = r
        .moves
        .iter()
        .filter(|m| m.0 != r.best && m.1 as f32 >= floor)
        .map(|m| m.2)
        .fold(0.0, f32::max);
    (r.best, value, second)
}

/// The searched proof of `game`'s position: two searches of `simulations` with `seeds`
/// that choose the same placement, each by [`SEARCHED_MARGIN`].
pub fn prove_searched(game: &Game, simulations: u64, seeds: [u64; 2]) -> Option<(Move, Proof)> {
    if game.legal_moves().len() < MIN_CHOICES {
        return None;
    }
    let mut found = Vec::new();
    for seed in seeds {
        let r = proof_search(simulations, seed).search(game)?;
        let (best, value, second) = searched(&r);
        if value - second < SEARCHED_MARGIN || found.first().is_some_and(|f: &(Move, f32, f32)| f.0 != best) {
            return None;
        }
        found.push((best, value, second));
    }
    let (a, b) = (found[0], found[1]);
    Some((
        a.0,
        Proof::Searched {
            simulations,
            seeds,
            value: [a.1, b.1],
            second: [a.2, b.2],
            margin: [a.1 - a.2, b.1 - b.2],
        },
    ))
}

/// The seed of the fresh search that [`verify`] makes of a searched puzzle: neither of
/// the proof's.
fn fresh_seed(seeds: [u64; 2]) -> u64 {
    seeds[0].max(seeds[1]).wrapping_add(1)
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-4
}

/// Checks a puzzle from nothing: its position replays, its best placement is legal, its
/// themes are the position's, and its proof holds — exact: the solver values every
/// placement again and the best alone leads by [`EXACT_MARGIN`], with the values stored;
/// searched: the stored margins reach [`SEARCHED_MARGIN`] and a fresh search with a third
/// seed chooses the same placement by at least half of it.
pub fn verify(site: &Arc<Site>, puzzle: &Puzzle) -> Result<(), String> {
    let (game, best) = puzzle.position(site)?;
    let id = &puzzle.id;
    let mover_wins = match &puzzle.proof {
        Proof::Exact {
            value, second, margin, ..
        } => {
            let Some((found, proof)) = prove_exact(&game).map_err(|e| format!("{id}: {e}"))? else {
                return Err(format!("{id}: no placement leads by {EXACT_MARGIN} under perfect play"));
            };
            if found != best {
                return Err(format!(
                    "{id}: the best placement is {}, not {}",
                    game.notation(found),
                    puzzle.best
                ));
            }
            let Proof::Exact {
                value: v, second: s, ..
            } = proof
            else {
                unreachable!("prove_exact gives an exact proof")
            };
            if !(close(v, *value) && close(s, *second) && close(*margin, value - second)) {
                return Err(format!(
                    "{id}: the stored values differ from the solver's ({v} over {s})"
                ));
            }
            wins(v)
        }
        Proof::Searched {
            simulations,
            seeds,
            value,
            second,
            margin,
        } => {
            for k in 0..2 {
                if margin[k] < SEARCHED_MARGIN || !close(margin[k], value[k] - second[k]) {
                    return Err(format!("{id}: the stored margin {} is not enough", margin[k]));
                }
            }
            let r = proof_search(*simulations, fresh_seed(*seeds))
                .search(&game)
                .ok_or_else(|| format!("{id}: nothing to search"))?;
            let (found, v, s) = searched(&r);
            if found != best || v - s < SEARCHED_MARGIN / 2.0 {
                return Err(format!(
                    "{id}: a fresh search prefers {} (lead {:.3})",
                    game.notation(found),
                    v - s
                ));
            }
            wins(value[0].min(value[1]))
        }
    };
    let expected = themes(&game, best, mover_wins);
    if expected != puzzle.themes {
        return Err(format!(
            "{id}: the position's themes are {expected:?}, not {:?}",
            puzzle.themes
        ));
    }
    Ok(())
}

/// A puzzle of `game`'s position with `best` and its proof.
pub fn puzzle(game: &Game, best: Move, proof: Proof, source: &str) -> Puzzle {
    let site = game.site();
    let mover_wins = match &proof {
        Proof::Exact { value, .. } => wins(*value),
        Proof::Searched { value, .. } => wins(value[0].min(value[1])),
    };
    Puzzle {
        id: format!(
            "{}-{}-{:012x}",
            site.board().name.to_lowercase(),
            site.players(),
            game.position().hash() & 0xffff_ffff_ffff
        ),
        moves: game.moves().iter().map(|&m| game.notation(m)).collect(),
        to_move: game.to_move().map(|c| c.to_string()).unwrap_or_default(),
        best: game.notation(best),
        themes: themes(game, best, mover_wins),
        rating: RATING,
        deviation: DEVIATION,
        volatility: VOLATILITY,
        proof,
        source: source.to_string(),
    }
}

/// How a game is cut into puzzles.
#[derive(Clone, Debug)]
pub struct Cutting {
    /// Exact puzzles at most from one game.
    pub exact_per_game: usize,
    /// Searched puzzles at most from one game (0: none), and their searches' budget.
    pub searched_per_game: usize,
    pub simulations: u64,
}

/// Puzzles cut from a finished (or any) game: exact ones from the end backwards, as long
/// as the solver decides within its budget; then searched ones from the positions before.
pub fn cut(game: &Game, cutting: &Cutting, source: &str) -> Vec<Puzzle> {
    let n = game.moves().len();
    let mut out = Vec::new();
    let mut earliest = n;
    let mut refused = 0;
    for i in (0..n).rev() {
        if out.len() >= cutting.exact_per_game || refused >= 2 {
            break;
        }
        let then = game.after(i);
        match prove_exact(&then) {
            Ok(Some((best, proof))) => out.push(puzzle(&then, best, proof, source)),
            Ok(None) => {}
            // Earlier positions have bigger trees: two that the solver cannot decide end
            // the search for exact puzzles.
            Err(_) => refused += 1,
        }
        earliest = i;
    }
    let mut searched = 0;
    let mut i = earliest;
    // Every other position before, towards the middle of the game.
    while searched < cutting.searched_per_game && i >= 2 && i * 2 > n {
        i -= 2;
        let then = game.after(i);
        if let Some((best, proof)) = prove_searched(&then, cutting.simulations, [1, 2]) {
            let p = puzzle(&then, best, proof, source);
            if verify(game.site_arc(), &p).is_ok() {
                out.push(p);
                searched += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
