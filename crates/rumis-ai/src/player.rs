//! What every player is to the rest: something that chooses a placement.

use rumis_core::{Game, Move};

/// Something that chooses a placement for the colour to move.
pub trait Player: Send {
    /// A legal move for the colour to move, or `None` when the game is over.
    fn choose(&mut self, game: &Game) -> Option<Move>;
    fn name(&self) -> String;
}
