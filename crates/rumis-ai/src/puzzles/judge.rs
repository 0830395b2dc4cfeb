//! A puzzle's answer judged: the placement given is read as a move of the colour to move,
//! compared with the puzzle's best, and when it is another one, valued beside the best so
//! that the player is told why it is worse. An `exact` puzzle's placements are valued by
//! the endgame solver (each under perfect play: the place and the score margin the mover
//! ends with); a `searched` one's by a search of the position after each. The server and
//! the browser's engine both judge through [`judge`].

use std::sync::Arc;

use rumis_core::{Colour, Game, Move, MoveError, Site};

use super::{proof_search, Proof, Puzzle, EXACT_NODES};
use crate::endgame::Solver;
use crate::reward::{self, Standing};

/// The simulations of each search that values a placement of a searched puzzle (at most:
/// the puzzle's own searches' budget when lower).
pub const VALUE_SIMULATIONS: u64 = 4_000;
/// Its seed: the same answer judged twice is told the same.
const VALUE_SEED: u64 = 7;

/// A placement and what it is worth to the mover.
#[derive(Clone, Debug, PartialEq)]
pub struct Valued {
    pub placement: Move,
    /// The mover's reward (0..1): exact, or a search's estimate.
    pub value: f32,
    /// Where the mover ends under perfect play (exact puzzles).
    pub standing: Option<Standing>,
}

/// A judged answer.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The game at the puzzle's position.
    pub game: Game,
    pub mover: Colour,
    pub solved: bool,
    pub played: Valued,
    pub best: Valued,
}

/// Why an answer could not be judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptError {
    /// Not a placement in the notation (rules §7).
    Malformed(String),
    /// A placement the colour to move may not make here.
    Illegal(String),
    /// The puzzle itself does not replay or cannot be valued (a damaged file).
    Puzzle(String),
}

impl std::fmt::Display for AttemptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttemptError::Malformed(s) | AttemptError::Illegal(s) | AttemptError::Puzzle(s) => f.write_str(s),
        }
    }
}

/// Judges `placement` (text) as the answer to `puzzle` on `site`.
pub fn judge(site: &Arc<Site>, puzzle: &Puzzle, placement: &str) -> Result<Judgement, AttemptError> {
    let (game, best) = puzzle.position(site).map_err(AttemptError::Puzzle)?;
    let mover = game
        .to_move()
        .ok_or_else(|| AttemptError::Puzzle(format!("{}: the game is over", puzzle.id)))?;
    let played = game.clone().play_text(placement).map_err(|e| match e {
        MoveError::Syntax(s) => AttemptError::Malformed(s),
        MoveError::Illegal(i) => AttemptError::Illegal(format!("{placement}: {i}")),
    })?;
    let players = site.players();
    let (played_value, best_value, exact) = match &puzzle.proof {
        Proof::Exact { value, .. } if played == best => (*value, *value, true),
        Proof::Exact { .. } => {
            let each = Solver::new(site, EXACT_NODES)
                .solve_each(game.position())
                .ok_or_else(|| AttemptError::Puzzle(format!("{}: the solver needs more than its budget", puzzle.id)))?;
            let value_of = |m: Move| each.iter().find(|e| e.0 == m).map(|e| e.1[mover.index()]);
            match (value_of(played), value_of(best)) {
                (Some(p), Some(b)) => (p, b, true),
                _ => {
                    return Err(AttemptError::Puzzle(format!(
                        "{}: a placement the solver did not value",
                        puzzle.id
                    )))
                }
            }
        }
        Proof::Searched { value, simulations, .. } => {
            let mean = (value[0] + value[1]) / 2.0;
            if played == best {
                (mean, mean, false)
            } else {
                let budget = VALUE_SIMULATIONS.min(*simulations).max(1);
                let after = |m: Move| {
                    let mut g = game.clone();
                    g.play(m).ok()?;
                    if g.is_over() {
                        return Some(reward::rewards(g.site(), g.position())[mover.index()]);
                    }
                    proof_search(budget, VALUE_SEED)
                        .search(&g)
                        .map(|r| r.estimates[mover.index()])
                };
                match (after(played), after(best)) {
                    (Some(p), Some(b)) => (p, b, false),
                    _ => return Err(AttemptError::Puzzle(format!("{}: nothing to search", puzzle.id))),
                }
            }
        }
    };
    let valued = |placement: Move, value: f32| Valued {
        placement,
        value,
        standing: exact.then(|| reward::read(value, players)),
    };
    Ok(Judgement {
        mover,
        solved: played == best,
        played: valued(played, played_value),
        best: valued(best, best_value),
        game,
    })
}

/// Where the mover ends, in words: "wins by 3 points", "ends 2nd, 4 points behind".
fn standing_words(s: &Standing) -> String {
    let points = |n: i32| {
        if n.abs() == 1 {
            "1 point".to_string()
        } else {
            format!("{} points", n.abs())
        }
    };
    let place = match s.place {
        1 => "1st".to_string(),
        2 => "2nd".to_string(),
        3 => "3rd".to_string(),
        n => format!("{n}th"),
    };
    match s.margin {
        m if m > 0 => format!("wins by {}", points(m)),
        0 => "ties for first".to_string(),
        m if s.shared => format!("ends sharing {place} place, {} behind the leader", points(m)),
        m => format!("ends {place}, {} behind the leader", points(m)),
    }
}

/// The judgement in words: solved, or why the placement played is worse than the best.
pub fn explain(j: &Judgement) -> String {
    let (played, best) = (j.game.notation(j.played.placement), j.game.notation(j.best.placement));
    let name = j.mover.name();
    let who = name[..1].to_uppercase() + &name[1..];
    if j.solved {
        return match &j.best.standing {
            Some(s) => format!(
                "{best} is the best placement: with best play after it, {who} {}.",
                standing_words(s)
            ),
            None => format!("{best} is the best placement."),
        };
    }
    match (&j.played.standing, &j.best.standing) {
        (Some(p), Some(b)) => format!(
            "{played} is worse than {best}: with best play after it, {who} {}; after {best}, {who} {}.",
            standing_words(p),
            standing_words(b)
        ),
        _ => format!(
            "{played} is worse than {best}: a search gives {who} a win estimate of {:.0} % after it, {:.0} % after {best}.",
            j.played.value * 100.0,
            j.best.value * 100.0
        ),
    }
}
