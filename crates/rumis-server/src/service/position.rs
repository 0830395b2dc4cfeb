//! A game made from a position ("play from here", `POST /api/v1/games` with `moves`): the
//! moves so far, written as a record's (rules §7), played by the core on the game the setup
//! makes; refused when one is refused or nothing is left to play, and checked against the
//! server game they are said to come from. The new game stores them as its first moves
//! (and the colours that had left by then as its leavings), so it replays like any other,
//! and where it began. It is never rated: only lobby games are.

use rumis_core::{Colour, Game};
use sqlx::AnyConnection;

use super::Games;
use crate::error::{printable, GameError};
use crate::game::{play_given, same_start};
use crate::store::{FromPosition, Store};

/// A game to be made from a position, as asked for: the moves so far, written as a
/// record's (rules §7), and the server game they are said to be the start of.
#[derive(Clone, Debug, Default)]
pub struct AskedPosition {
    pub moves: String,
    pub from_game: Option<String>,
}

/// A game made from a position, checked: its rows besides the game's own — the moves it
/// was given (placement, colour), the colours that had left (after how many moves, colour,
/// reason) — and where it began.
pub(super) struct Given {
    moves: Vec<(String, Colour)>,
    left: Vec<(i64, Colour, String)>,
    from: FromPosition,
}

impl Given {
    fn of(game: &Game, from_game: Option<String>) -> Given {
        Given {
            moves: (0..game.moves().len())
                .filter_map(|i| Some((game.notation(game.moves()[i]), game.mover(i)?)))
                .collect(),
            left: game
                .retirements()
                .iter()
                .map(|r| (r.after as i64, r.colour, r.reason.clone().unwrap_or_default()))
                .collect(),
            from: FromPosition {
                moves: game.moves().len() as i64,
                game: from_game,
            },
        }
    }

    /// Writes the rows in the transaction that inserts the game `id`.
    pub(super) async fn insert(&self, conn: &mut AnyConnection, id: &str, now: i64) -> Result<(), GameError> {
        for (i, (placement, colour)) in self.moves.iter().enumerate() {
            Store::insert_move(conn, id, i as i64 + 1, placement, *colour, now).await?;
        }
        for (after, colour, reason) in &self.left {
            Store::insert_retirement_in(conn, id, *after, *colour, reason, now).await?;
        }
        Store::set_from_position(conn, id, &self.from).await
    }
}

impl Games {
    /// Plays a position's moves on the game just set up, each judged by the core; refused
    /// when nothing is left to play, or when they are not the start of the server game they
    /// are said to come from (so that where a game began is a fact), or while people play
    /// that game against each other (fair play, as for a hint: the AI would answer for them).
    pub(super) async fn play_position(&self, game: &mut Game, asked: AskedPosition) -> Result<Given, GameError> {
        play_given(game, &asked.moves)?;
        if game.is_over() {
            return Err(GameError::PositionOver);
        }
        if let Some(id) = &asked.from_game {
            let source = match self.load(id).await {
                Err(GameError::UnknownGame(_)) => {
                    return Err(GameError::BadSetup(format!(
                        "from_game: there is no game '{}'",
                        printable(id)
                    )))
                }
                r => r?,
            };
            source.may_search()?;
            same_start(&source.game, id, game)?;
        }
        Ok(Given::of(game, asked.from_game))
    }
}
