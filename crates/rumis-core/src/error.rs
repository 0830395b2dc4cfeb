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
    /// A board file that cannot be used.
    #[error("{0}")]
    Board(#[from] crate::board::BoardError),
    /// A number of players that is not a number.
    #[error("'{0}' is not a number of players")]
    NotAPlayerCount(String),
    /// A variant name that names none.
    #[error("unknown variant '{0}'; use standard, two-player-four-colors or ruinas")]
    UnknownVariant(String),
    /// A stuck-colour rule that names none.
    #[error("unknown stuck-colour rule '{0}'; use out or pass")]
    UnknownStuckRule(String),
    /// A ruins seed that is not a number.
    #[error("'{0}' is not a seed")]
    NotASeed(String),
    /// Ruins given for a game that is not Ruinas.
    #[error("ruins belong to the ruinas variant")]
    RuinsWithoutRuinas,
    /// A Ruinas game without its ruins.
    #[error("a Ruinas game needs its ruins: a seed (placed at random) or their placements")]
    RuinasWithoutRuins,
    /// A setting a game setup needs and was not given (`board`, `players`).
    #[error("a game setup needs its {0}")]
    Missing(&'static str),
    /// A setting that a game setup does not have.
    #[error("'{0}' is not a setting of a game (board, players, variant, colors, ruins_seed, ruins, stuck_rule)")]
    UnknownSetting(String),
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
