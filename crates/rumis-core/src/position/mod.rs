//! A position: the structure, the stones left, whose turn it is, who is out (rules §4-6).
//!
//! Columns are solid stacks, so a column is its height plus the colour of each level. A
//! placement template is legal iff every covered column's height equals the stone's base
//! level plus the run's offset, the base is under the template's precomputed limit, and
//! the cubes it adds touch the right colour — a few byte lookups per column.
//!
//! The struct is defined here; its methods are split as Pentobi splits its board: the
//! queries (`queries.rs`: what lies where, the legal placements, why a placement is
//! illegal), the updater (`update.rs`: playing a placement, retiring a colour, the ruins)
//! and the scores (`score.rs`).

use std::fmt;

use crate::board::MAX_COLUMNS;
#[cfg(target_arch = "x86_64")]
use crate::movegen::SlotDelta;
use crate::movegen::{self, CodePath, CodePathUnavailable, GenInput, MoveSet, Placing, Touch};
use crate::site::{Site, StuckRule, Variant};
use crate::stone::{Colour, Stone, ALL_STONES, STONE_COUNT};
use crate::template::{Move, Template};
use crate::zobrist::{cube_key, out_key, stone_key, turn_key};

mod queries;
mod score;
#[cfg(test)]
mod tests;
mod update;

pub use score::{places, Outcome};

/// What a cube of the structure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Cube {
    /// A cube of a stone of this colour.
    Stone(Colour),
    /// Part of a ruin (Ruinas): scores for nobody.
    Ruin,
}

impl Cube {
    /// The letter drawn for the cube: the colour's letter, or `X` for a ruin.
    pub fn letter(self) -> char {
        match self {
            Cube::Stone(c) => c.letter(),
            Cube::Ruin => 'X',
        }
    }
}

/// Index of the ruins among the per-kind tables (after the four colours).
const RUIN: usize = 4;
/// Index of "any cube" for [`Position::contact_bits`]: the OR of every kind's contact table.
const ANY: usize = 5;

/// Why a placement is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over: nobody moves.
    GameOver,
    /// The stone was placed already.
    StoneUsed {
        /// The colour that placed it (`None` for the ruins).
        colour: Option<Colour>,
        /// The stone.
        stone: Stone,
    },
    /// A covered column is not at the height the stone needs: there would be empty space
    /// under a cube, or the stone would go through the structure.
    Gap {
        /// The column, by its cell name.
        column: String,
        /// Its height.
        height: u8,
        /// The height the stone needs there.
        needed: u8,
    },
    /// A cube would be above the column's height limit.
    TooHigh {
        /// The level (1-based) of the highest cube.
        level: u8,
    },
    /// The first stone of a later colour must rest on the board.
    FirstStoneNotOnBoard,
    /// The first stone of a later colour must touch the structure.
    FirstStoneNotTouching,
    /// A later stone must touch its own colour.
    NoOwnContact {
        /// The colour to move.
        colour: Colour,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::GameOver => write!(f, "the game is over"),
            Illegal::StoneUsed { colour: Some(c), stone } => write!(f, "{} has already placed {stone}", c.name()),
            Illegal::StoneUsed { colour: None, stone } => write!(f, "the ruins already hold {stone}"),
            Illegal::Gap { column, height, needed } => {
                if height < needed {
                    write!(f, "the stone would leave empty space under it at {column} (the column is {height} high, the stone needs {needed})")
                } else {
                    write!(f, "the stone would pass through the structure at {column} (the column is {height} high, the stone needs {needed})")
                }
            }
            Illegal::TooHigh { level } => write!(f, "the stone would reach level {level}, above the height limit"),
            Illegal::FirstStoneNotOnBoard => {
                write!(f, "a colour's first stone must rest on the board (one cube at level 1)")
            }
            Illegal::FirstStoneNotTouching => {
                write!(f, "a colour's first stone must touch a cube already in the structure")
            }
            Illegal::NoOwnContact { colour } => {
                write!(f, "the stone must touch a {} cube", colour.name())
            }
        }
    }
}

impl std::error::Error for Illegal {}

/// Why a colour cannot leave the game now ([`Position::retire`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetireError {
    /// The game is over: nobody is to move.
    GameOver,
    /// The colour does not play in this game.
    NotInGame(Colour),
    /// The colour is out already (it resigned, ran out of time, or cannot place).
    AlreadyOut(Colour),
}

impl fmt::Display for RetireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RetireError::GameOver => write!(f, "the game is over"),
            RetireError::NotInGame(c) => write!(f, "{} does not play in this game", c.name()),
            RetireError::AlreadyOut(c) => write!(f, "{} is out already", c.name()),
        }
    }
}

impl std::error::Error for RetireError {}

/// The contact a placement needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Contact {
    /// The first stone of the game.
    None,
    /// The first stone of a later colour: touch any cube and rest on the board.
    FirstStone,
    /// Touch a cube of the colour.
    Own(usize),
}

/// A position of a game on a [`Site`]. It holds no reference to its site: every method that
/// needs the board takes it, so copying a position is a plain memory copy.
#[derive(Clone)]
pub struct Position {
    heights: [u8; MAX_COLUMNS],
    /// Per column: bit z set when the cube at level z + 1 is of this kind (R, Y, G, B, ruin).
    cubes: [[u16; MAX_COLUMNS]; 5],
    /// Per column: bit z set when the cell at level z + 1 shares a face with a cube of this
    /// kind (R, Y, G, B, ruin).
    touch: [[u16; MAX_COLUMNS]; 5],
    /// Stones not yet placed, per colour.
    left: [u16; 4],
    ruins_left: u16,
    /// Stones placed, per kind (R, Y, G, B, ruin).
    used: [u16; 5],
    placed: [u8; 4],
    cube_count: u16,
    /// Index into the site's order of play.
    seat: u8,
    /// Colours out, one bit per colour index.
    out: u8,
    /// Colours that forfeited (resigned, or ran out of time): out, and ranked below every
    /// colour that did not (rules §5.1). One bit per colour index.
    forfeited: u8,
    plies: u16,
    /// The Zobrist hash, kept up to date by each placement, unless `hash_stale`.
    hash: u64,
    /// The crate's loops that play positions only to count or score them (random
    /// playouts, perft) skip the hash's updates, a sixteenth of a playout's instructions;
    /// such a position says so here and [`Position::hash`] computes it afresh.
    hash_stale: bool,
}

/// The colours that do not play in this game, as out bits.
fn absent_colours(site: &Site) -> u8 {
    Colour::ALL
        .iter()
        .filter(|c| !site.order.contains(c))
        .fold(0, |m, c| m | 1 << c.index())
}

/// Equal positions: the same structure, stones, turn and colours out. The hash is left out:
/// it is a function of the rest, and a stale one (see `hash_stale`) is not kept up.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        // Naming every field: a new one is a compile error here, not a field left out.
        let Position {
            heights,
            cubes,
            touch,
            left,
            ruins_left,
            used,
            placed,
            cube_count,
            seat,
            out,
            forfeited,
            plies,
            hash: _,
            hash_stale: _,
        } = self;
        *heights == other.heights
            && *cubes == other.cubes
            && *touch == other.touch
            && *left == other.left
            && *ruins_left == other.ruins_left
            && *used == other.used
            && *placed == other.placed
            && *cube_count == other.cube_count
            && *seat == other.seat
            && *out == other.out
            && *forfeited == other.forfeited
            && *plies == other.plies
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position {{ plies: {}, seat: {}, out: {:04b}, hash: {:016x} }}",
            self.plies,
            self.seat,
            self.out,
            self.hash()
        )
    }
}
