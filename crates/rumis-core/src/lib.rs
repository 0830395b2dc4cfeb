//! The rules of Rumis (Blokus 3D), exactly as the project's rules document states them
//! (`docs/rules.md`; "rules §N" in comments is its section N): stones and their
//! orientations, scenario boards as data, positions, legal placements, scoring, notation
//! and game records. No I/O.
//!
//! ```
//! use std::sync::Arc;
//! use rumis_core::{Board, Game, Site, Variant};
//!
//! let board = Board::builtin("chullpa").unwrap().clone();
//! let site = Arc::new(Site::new(board, 4, Variant::Standard, None).unwrap());
//! let mut game = Game::new(site);
//! assert_eq!(game.legal_moves().len(), 687);
//! game.play_text("L4@a1,a2,a3,b1").unwrap();
//! assert!(game.play_text("L4@c1,c2,c3,d1").is_ok()); // yellow's first stone touches red
//! ```

#![warn(missing_docs)]

// The modules are private: what a user needs is re-exported below, so the files can be
// rearranged without breaking anyone. `notation` and `record` stay public as the
// namespaces of the two text formats (like `fen` and `san` in a chess library).
mod board;
mod board_file;
mod error;
mod evidence;
mod game;
mod limits;
mod movegen;
pub mod notation;
mod perft;
mod playout;
mod position;
pub mod record;
mod rng;
mod setup;
mod site;
mod stone;
mod template;
mod zobrist;

pub use board::{cell_name, parse_cell, Board, BoardError, Frame, ProvenanceKind, MAX_COLUMNS, MAX_FILES, MAX_LEVEL};
pub use error::SetupError;
pub use evidence::{Constraint, Evidence};
pub use game::{Game, Retirement};
pub use movegen::{CodePath, CodePathUnavailable, GenTables, MoveSet};
pub use notation::MoveError;
pub use perft::{perft, perft_divide, perft_with};
pub use playout::{
    generates_together, play_generate_many, playout_scores, random_playout, random_playout_in_place,
    random_playout_with, random_playouts_in_place, GAMES_IN_FLIGHT,
};
pub use position::{places, Cube, Illegal, Outcome, Position, RetireError};
pub use record::{Record, RecordError};
pub use rng::Rng;
pub use setup::{BoardSource, GameSetup, Ruins};
pub use site::{Site, StuckRule, Variant};
pub use stone::{rotations, Colour, Matrix, Stone, ALL_STONES, STONE_COUNT};
pub use template::{Move, Template};
