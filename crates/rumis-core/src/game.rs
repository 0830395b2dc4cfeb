//! A game: a site, its ruins, the moves played and the positions they passed through, so
//! that a move can be undone.

use std::sync::Arc;

use crate::error::SetupError;
use crate::notation::{self, MoveError};
use crate::position::{Illegal, Outcome, Position, RetireError};
use crate::rng::Rng;
use crate::site::Site;
use crate::stone::Colour;
use crate::template::Move;

/// A colour that left the game (resigned, or ran out of time): out from then on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retirement {
    /// The placements made before it: it came between move `after` and move `after + 1`.
    pub after: usize,
    /// The colour that left.
    pub colour: Colour,
    /// Why, in a few words for the record's comment (`resigned`, `time`), if said.
    pub reason: Option<String>,
}

/// A reason as a record's comment can hold it: no braces or line breaks, at most 60
/// characters; nothing left means no reason.
fn clean_reason(reason: Option<&str>) -> Option<String> {
    let text: String = reason?
        .chars()
        .filter(|c| !c.is_control() && *c != '{' && *c != '}')
        .take(60)
        .collect();
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

/// A game in progress: its site, ruins, moves and the position after each.
#[derive(Clone, Debug)]
pub struct Game {
    site: Arc<Site>,
    ruins: Vec<Move>,
    moves: Vec<Move>,
    /// The position before each move, then the current one last.
    positions: Vec<Position>,
    /// Colours that left the game, in the order they left.
    retirements: Vec<Retirement>,
    /// Free tags to keep in the record (Event, Date, player names).
    pub tags: Vec<(String, String)>,
}

impl Game {
    /// A new game on the empty board.
    pub fn new(site: Arc<Site>) -> Game {
        let start = Position::new(&site);
        Game {
            site,
            ruins: Vec::new(),
            moves: Vec::new(),
            positions: vec![start],
            retirements: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// A new Ruinas game with these ruin placements, in order.
    pub fn with_ruins(site: Arc<Site>, ruins: &[Move]) -> Result<Game, (usize, Illegal)> {
        let mut pos = Position::new(&site);
        for (i, &m) in ruins.iter().enumerate() {
            pos.place_ruin(&site, m).map_err(|e| (i, e))?;
        }
        Ok(Game {
            site,
            ruins: ruins.to_vec(),
            moves: Vec::new(),
            positions: vec![pos],
            retirements: Vec::new(),
            tags: Vec::new(),
        })
    }

    /// A new Ruinas game with ruins written as placements, in order.
    pub fn with_ruin_texts(site: Arc<Site>, ruins: &[&str]) -> Result<Game, SetupError> {
        let mut pos = Position::new(&site);
        let mut placed = Vec::new();
        for (i, text) in ruins.iter().enumerate() {
            let what = |error: MoveError| SetupError::Ruin {
                number: i + 1,
                text: text.to_string(),
                error: error.to_string(),
            };
            let w = notation::read(&site, text).map_err(what)?;
            let m = notation::resolve(&site, &pos, &w).map_err(what)?;
            pos.place_ruin(&site, m).map_err(|e| what(e.into()))?;
            placed.push(m);
        }
        Ok(Game {
            site,
            ruins: placed,
            moves: Vec::new(),
            positions: vec![pos],
            retirements: Vec::new(),
            tags: Vec::new(),
        })
    }

    /// A new Ruinas game whose ruins are placed at random from a seed: the eleven stones in
    /// a random order, each at a uniformly chosen placement that fits (rules 1-4), or left
    /// out if none does.
    pub fn with_random_ruins(site: Arc<Site>, seed: u64) -> Game {
        let mut rng = Rng::new(seed);
        let mut pos = Position::new(&site);
        let mut stones = pos.ruins_left();
        rng.shuffle(&mut stones);
        let mut placed = Vec::new();
        for s in stones {
            let fits: Vec<Move> = pos
                .ruin_moves(&site)
                .into_iter()
                .filter(|&m| site.template(m).stone == s)
                .collect();
            if fits.is_empty() {
                continue;
            }
            let m = fits[rng.below(fits.len())];
            pos.place_ruin(&site, m).expect("a ruin move that fits is placeable");
            placed.push(m);
        }
        Game {
            site,
            ruins: placed,
            moves: Vec::new(),
            positions: vec![pos],
            retirements: Vec::new(),
            tags: Vec::new(),
        }
    }

    /// The site the game is played on.
    pub fn site(&self) -> &Site {
        &self.site
    }

    /// The site, shared.
    pub fn site_arc(&self) -> &Arc<Site> {
        &self.site
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// The position before any move (after the ruins).
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position before move `i` (0-based); `positions()[moves().len()]` is the current.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The ruins placed before the first move (Ruinas), in order.
    pub fn ruins(&self) -> &[Move] {
        &self.ruins
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Who played move `i` (0-based).
    pub fn mover(&self, i: usize) -> Option<Colour> {
        self.positions.get(i)?.to_move(&self.site)
    }

    /// The colour to move, or `None` when the game is over.
    pub fn to_move(&self) -> Option<Colour> {
        self.position().to_move(&self.site)
    }

    /// Whether no colour can place any more.
    pub fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// The legal placements of the colour to move, in template order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::new();
        self.position().legal_moves(&self.site, &mut v);
        v
    }

    /// Plays a placement if it is legal for the colour to move; otherwise says why not and changes nothing.
    pub fn play(&mut self, m: Move) -> Result<(), Illegal> {
        let mut next = self.position().clone();
        next.play(&self.site, m)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Reads and plays a placement for the colour to move.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let m = notation::parse_move(&self.site, self.position(), text)?;
        self.play(m)?;
        Ok(m)
    }

    /// Takes back the last move, and any colour's leaving after it.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        let played = self.moves.len();
        self.retirements.retain(|r| r.after <= played);
        Some(m)
    }

    /// The game as it stood after its first `n` moves (all of them if `n` is more), the
    /// colours that had left by then out: what a replay or an analysis shows at move `n`.
    pub fn after(&self, n: usize) -> Game {
        let n = n.min(self.moves.len());
        Game {
            site: self.site.clone(),
            ruins: self.ruins.clone(),
            moves: self.moves[..n].to_vec(),
            positions: self.positions[..=n].to_vec(),
            retirements: self.retirements.iter().filter(|r| r.after <= n).cloned().collect(),
            tags: self.tags.clone(),
        }
    }

    /// A colour leaves the game now (resigned, or its time ran out): it has forfeited
    /// ([`Position::retire`], rules §5.1), and the game may end at once; `reason` is kept
    /// for the record's comment.
    pub fn retire(&mut self, colour: Colour, reason: Option<&str>) -> Result<(), RetireError> {
        let site = self.site.clone();
        let pos = self.positions.last_mut().expect("a game always has a position");
        pos.retire(&site, colour)?;
        self.retirements.push(Retirement {
            after: self.moves.len(),
            colour,
            reason: clean_reason(reason),
        });
        Ok(())
    }

    /// The colours that left the game, in order.
    pub fn retirements(&self) -> &[Retirement] {
        &self.retirements
    }

    /// The canonical notation of a placement on this game's site (rules §7).
    pub fn notation(&self, m: Move) -> String {
        self.site.notation(m)
    }

    /// Legal placements for the colour to move, in canonical notation, sorted.
    pub fn legal_notations(&self) -> Vec<String> {
        let mut v: Vec<String> = self.legal_moves().into_iter().map(|m| self.notation(m)).collect();
        v.sort();
        v
    }

    /// The scores, places and winners, forfeits ranked last (final once the game is over).
    pub fn outcome(&self) -> Outcome {
        self.position().outcome(&self.site)
    }

    /// The result with these players (0-based) counted as forfeited too
    /// ([`Position::outcome_with`]).
    pub fn outcome_with(&self, also_forfeited: &[usize]) -> Outcome {
        self.position().outcome_with(&self.site, also_forfeited)
    }

    /// Plays uniformly random legal moves to the end.
    pub fn play_random(&mut self, rng: &mut Rng) {
        let mut moves = Vec::new();
        while !self.is_over() {
            self.position().legal_moves(&self.site, &mut moves);
            let m = moves[rng.below(moves.len())];
            self.play(m).expect("a generated move is legal");
        }
    }
}
