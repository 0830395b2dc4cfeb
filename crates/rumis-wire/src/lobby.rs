//! The answers of players, the lobby, abort, rematch and ratings (docs/server-api.md,
//! *Players and the lobby*). No answer carries a player key except `NewPlayer`, once.

use serde::Serialize;

/// A rating as shown: `rating` on the Elo-like scale (1500 for a new player), from the
/// Weng-Lin `mu` and `sigma` it is computed from.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Rating {
    pub rating: i64,
    pub mu: f64,
    pub sigma: f64,
    pub games: i64,
    /// Fewer rated games than it takes for the rating to mean much.
    pub provisional: bool,
}

/// `201` to `POST /players`: the only answer that ever holds the key.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct NewPlayer {
    pub id: String,
    pub name: String,
    pub key: String,
    pub rating: Rating,
    pub player_url: String,
}

/// A player as others see it.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct PlayerRef {
    pub id: String,
    pub name: String,
    pub rating: i64,
    pub provisional: bool,
}

/// A seat at a table: who sits there (or that it is free, or offered to a player).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct TableSeat {
    pub seat: usize,
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub colours: Vec<String>,
    #[cfg_attr(feature = "contract", ts(type = "\"human\" | \"ai\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::SeatKind))]
    pub kind: String,
    pub level: Option<u8>,
    /// `taken` (a player or a guest holds it), `free`, `offered` (a rematch waits for
    /// that player) or `ai`.
    #[cfg_attr(feature = "contract", ts(type = "\"taken\" | \"free\" | \"offered\" | \"ai\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::SeatState))]
    pub state: String,
    pub player: Option<PlayerRef>,
}

/// A game as the lobby shows it (`GET /games/{id}/table`, the lobby's lists).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Table {
    pub game: String,
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::GameStatus))]
    pub status: String,
    pub board: String,
    pub players: i64,
    pub variant: String,
    /// The game came through the lobby (seek, quick play, rematch): it may be rematched.
    pub lobby: bool,
    pub rated: bool,
    /// A rated game against the AI alone in which a hint was asked for.
    pub assisted: bool,
    pub quick: bool,
    /// The game's clock as the state shows it (for a seek: the rule, and nobody's time
    /// running yet); `null`: untimed.
    pub clock: Option<super::ClockInfo>,
    /// Quick play: when the free seats get the AI (ms since the epoch), and at what level.
    pub fill_at: Option<i64>,
    pub fill_level: Option<u8>,
    pub seats: Vec<TableSeat>,
    pub free_seats: usize,
    pub moves_played: i64,
    pub can_abort: bool,
    /// An aborted game: why it was called off (aborted by a seated player, expired while
    /// its creator was gone, a rematch declined); `null` for any other game, and for one
    /// called off before the server kept the reason.
    #[cfg_attr(
        feature = "contract",
        ts(type = "\"aborted\" | \"expired\" | \"rematch_declined\" | null")
    )]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::CalledOff>))]
    pub called_off: Option<String>,
    pub rematch: Option<String>,
    pub rematch_of: Option<String>,
    pub created: i64,
    pub updated: i64,
    pub state_url: String,
}

/// `200` to `GET /lobby`, and the lobby socket's `lobby` message.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Lobby {
    /// Games waiting for players, newest first.
    pub seeks: Vec<Table>,
    /// Lobby games in play, to watch.
    pub playing: Vec<Table>,
}

/// `201` to joining, seeking, quick play and rematch: the seat this player holds now. The
/// player's key moves for it (no other token).
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Seated {
    pub game: String,
    pub seat: usize,
    #[cfg_attr(feature = "contract", ts(type = "Array<Colour>"))]
    #[cfg_attr(feature = "contract", schema(value_type = Vec<crate::contract::Colour>))]
    pub colours: Vec<String>,
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::GameStatus))]
    pub status: String,
    pub started: bool,
    pub state_url: String,
    pub events_url: String,
}

/// `200` to `POST /players/me/presence`: the player is seen now; their waiting games expire
/// when they are not seen for `seek_idle_ms`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Presence {
    pub player: String,
    pub seen: i64,
    pub seek_idle_ms: i64,
}

/// `200` to `POST /games/{id}/rematch/decline`: the rematch offered after game `game` is
/// called off.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct DeclineAck {
    pub game: String,
    pub rematch: String,
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::GameStatus))]
    pub status: String,
}

/// `200` to `POST /games/{id}/abort`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct AbortAck {
    pub game: String,
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::GameStatus))]
    pub status: String,
}

/// A rated game's effect on a player.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct RatingDelta {
    pub place: i64,
    pub before: i64,
    pub after: i64,
}

/// A game on a player's page.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct PlayerGame {
    pub game: String,
    pub board: String,
    pub players: i64,
    pub variant: String,
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::GameStatus))]
    pub status: String,
    pub rated: bool,
    /// A rated game against the AI alone in which a hint was asked for.
    pub assisted: bool,
    pub seat: Option<usize>,
    pub seats: Vec<TableSeat>,
    pub moves_played: i64,
    pub updated: i64,
    pub record_url: String,
    pub rating_change: Option<RatingDelta>,
    /// A rated game that finished but was not counted, and why: `too_few_moves` (it ended
    /// in a forfeit before every player had made two moves) or `same_pair_today` (two of
    /// its players had three rated games together that day already).
    #[cfg_attr(feature = "contract", ts(type = "\"too_few_moves\" | \"same_pair_today\" | null"))]
    #[cfg_attr(feature = "contract", schema(value_type = Option<crate::contract::NotCounted>))]
    pub not_counted: Option<String>,
}

/// `200` to `GET /players/{id}` and `GET /players/me`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct PlayerPage {
    pub id: String,
    pub name: String,
    pub rating: Rating,
    pub created: i64,
    /// Games waiting for players or in play.
    pub open: Vec<PlayerGame>,
    /// Games finished, aborted or abandoned.
    pub finished: Vec<PlayerGame>,
}

/// A line of the leaderboard: a player, or an AI level on the same scale.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct LeaderboardEntry {
    pub place: usize,
    #[cfg_attr(feature = "contract", ts(type = "\"player\" | \"ai\""))]
    #[cfg_attr(feature = "contract", schema(value_type = crate::contract::EntryKind))]
    pub kind: String,
    pub id: Option<String>,
    pub name: Option<String>,
    pub level: Option<u8>,
    pub rating: i64,
    pub provisional: bool,
    pub games: Option<i64>,
}

/// `200` to `GET /ratings`.
#[derive(Clone, Debug, Serialize, PartialEq)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct Leaderboard {
    pub entries: Vec<LeaderboardEntry>,
    /// Distinct opponents (players, or AI levels) a player must have met in rated games to
    /// be listed.
    pub min_opponents: i64,
}
