//! A game's status: stored and sent as its word (`games.status`; the `status` of the API's
//! answers), read into [`GameStatus`] once, where a row is read.

use std::fmt;

use sqlx::any::AnyRow;
use sqlx::Row;

/// Where a game stands in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// A lobby game waiting for its seats to be taken.
    Waiting,
    /// Being played.
    Open,
    /// Played to its end.
    Finished,
    /// Left without a move for too long (`Config::game_ttl`).
    Abandoned,
    /// Called off before it was played (abort, expiry, a declined rematch).
    Aborted,
}

impl GameStatus {
    /// The word stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Waiting => "waiting",
            GameStatus::Open => "open",
            GameStatus::Finished => "finished",
            GameStatus::Abandoned => "abandoned",
            GameStatus::Aborted => "aborted",
        }
    }

    pub fn parse(word: &str) -> Option<GameStatus> {
        [
            GameStatus::Waiting,
            GameStatus::Open,
            GameStatus::Finished,
            GameStatus::Abandoned,
            GameStatus::Aborted,
        ]
        .into_iter()
        .find(|s| s.as_str() == word)
    }

    /// Waiting for its seats or being played: not over.
    pub fn is_live(self) -> bool {
        matches!(self, GameStatus::Waiting | GameStatus::Open)
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a game was called off (`games.called_off`; the table's `called_off`): its page says
/// so however late it is opened, not only to a page that heard the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CalledOff {
    /// A seated player aborted it before its second move.
    Aborted,
    /// It waited for players while its creator was gone (`Config::seek_idle`).
    Expired,
    /// A player the rematch offered a seat declined it.
    RematchDeclined,
}

impl CalledOff {
    /// The word stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            CalledOff::Aborted => "aborted",
            CalledOff::Expired => "expired",
            CalledOff::RematchDeclined => "rematch_declined",
        }
    }

    /// The stored word; `None` for '' (a game not called off, or one called off before the
    /// reason was kept) and for a word it does not know.
    pub fn parse(word: &str) -> Option<CalledOff> {
        [CalledOff::Aborted, CalledOff::Expired, CalledOff::RematchDeclined]
            .into_iter()
            .find(|c| c.as_str() == word)
    }
}

/// A row's `status` column (or `{prefix}status`): a word that is no status is a decoding
/// error, as a column of the wrong type is.
pub(crate) fn status_from(r: &AnyRow, column: &str) -> Result<GameStatus, sqlx::Error> {
    let word: String = r.try_get(column)?;
    GameStatus::parse(&word).ok_or_else(|| sqlx::Error::ColumnDecode {
        index: column.to_string(),
        source: format!("'{word}' is no game status").into(),
    })
}
