//! The errors of setting up a game: one set of messages for every front end. Its own file,
//! below everything that reports them.

use crate::board::Board;
use crate::stone::Colour;

/// A game that cannot be set up as asked: the one set of messages every front end shows
/// for a bad setup.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// Not 2 to 4 players.
    #[error("a game has 2 to 4 players, not {0}")]
    Players(usize),
    /// The two-player four-colour game with another number of players.
    #[error("the two-player four-colour game has 2 players, not {0}")]
    TwoPlayerFourColoursPlayers(usize),
    /// Ruinas with 4 players.
    #[error("Ruinas is played by 2 or 3 players (the ruins take an unused colour)")]
    RuinasPlayers,
    /// An order of play of the wrong length.
    #[error("this game needs {need} colours in its order of play, not {got}")]
    ColourCount {
        /// The colours the game needs.
        need: usize,
        /// The colours given.
        got: usize,
    },
    /// A colour listed twice in the order of play.
    #[error("colour {0} is listed twice in the order of play")]
    ColourTwice(Colour),
    /// A word of an order of play that names no colour.
    #[error("'{0}' is not a colour (R, Y, G, B)")]
    NotAColour(String),
    /// A board name that no built-in board has.
    #[error("unknown board '{0}'; the built-in boards are {names}", names = Board::builtin_names())]
    UnknownBoard(String),
    /// A ruin that cannot be placed as written (Ruinas).
    #[error("ruin {number} '{text}': {error}")]
    Ruin {
        /// Its place (1-based) in the list of ruins.
        number: usize,
        /// The ruin as written.
        text: String,
        /// Why it cannot be placed (the placement's error message).
        error: String,
    },
}
