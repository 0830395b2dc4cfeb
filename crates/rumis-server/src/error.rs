//! Errors. [`GameError`] is what the game service and storage say went wrong, in the game's
//! words; [`ApiError`] is an HTTP answer: a status and
//! `{ "error": code, "reason": sentence, ... }`. The one mapping from the first to the
//! second is `impl From<GameError> for ApiError` below, so that no other module chooses a
//! status for a game's error; a setup the core refuses ([`SetupError`]) is answered by
//! `impl From<SetupError> for ApiError`, the one place that words it for the HTTP API.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use rumis_core::{Board, BoardError, SetupError};
use rumis_wire::puzzle::PuzzleError;

use rumis_wire::{ErrorBody, ErrorDetail};

/// Why the game service refused or failed a request.
#[derive(Clone, Debug, thiserror::Error)]
pub enum GameError {
    #[error("there is no game '{}'", printable(.0))]
    UnknownGame(String),
    #[error("{0}")]
    BadSetup(String),
    /// A setup the core refused (its checks: `rumis_core::GameSetup`).
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// A board asked for by a name that is no scenario's.
    #[error("{0}")]
    UnknownBoard(String),
    #[error("moving needs the seat's token: 'Authorization: Bearer <token>' or \"token\" in the body")]
    MissingToken,
    #[error("this token holds no seat of this game")]
    WrongToken,
    #[error("the game is over")]
    GameOver,
    #[error("the game was abandoned: nobody moved for too long")]
    Abandoned,
    #[error("it is {}'s turn, and this token does not hold that seat", .to_move.map(|c| c.name()).unwrap_or("nobody"))]
    NotYourTurn { to_move: Option<rumis_core::Colour> },
    #[error("{reason}")]
    StaleMoveNumber { move_number: i64, reason: String },
    #[error("{0}")]
    MalformedMove(String),
    #[error("{0}")]
    IllegalMove(String),
    /// A game made from a position whose moves the core refused: the move at fault.
    #[error("{reason}")]
    RefusedMove { move_number: i64, reason: String },
    /// A game made from a position where nothing is left to play.
    #[error("these moves end the game (every colour is out): nothing is left to play from this position")]
    PositionOver,
    #[error("undo is only for hot-seat games, where one token holds every human seat")]
    UndoNotAllowed,
    /// A hint or an analysis of a game people play against each other, while it goes on.
    #[error("hints and analysis wait for the end of a game between people (fair play); ask again when it is over")]
    FairPlay,
    #[error("no human move to take back")]
    NothingToUndo,
    #[error("{0}")]
    NotDeletable(String),
    #[error("{0}")]
    TooManyAiGames(String),
    #[error("you have {0} seeks waiting for players already; start or abort one first")]
    TooManySeeks(i64),
    /// A clock asked for at creation that cannot be (negative, too large, missing a value).
    #[error("{0}")]
    BadClock(String),
    /// The seat's time ran out before its move came; the timeout is being applied.
    #[error("the time of the seat to move ran out; the game's rule for a timeout applies")]
    TimeRanOut,
    /// Which seat a request is for cannot be told, or is not one the token holds.
    #[error("{0}")]
    BadSeat(String),
    // Players, the lobby, abort and rematch (service/lobby.rs).
    #[error("{0}")]
    BadName(String),
    #[error("the name '{}' is taken: choose another", printable(.0))]
    NameTaken(String),
    #[error("this needs your player key: 'Authorization: Bearer <key>'")]
    MissingKey,
    #[error("this player key belongs to no player")]
    WrongKey,
    #[error("there is no player '{}'", printable(.0))]
    UnknownPlayer(String),
    #[error("there is no open seek '{}' (no game waiting for players by that id)", printable(.0))]
    UnknownSeek(String),
    #[error("every seat of this game is taken")]
    GameFull,
    #[error("{0}")]
    SeatTaken(String),
    #[error("you already sit in this game")]
    AlreadySeated,
    #[error("the game waits for players: {free} seat(s) still free")]
    WaitingForPlayers { free: usize },
    #[error("the game was aborted")]
    Aborted,
    #[error("{0}")]
    NotAbortable(String),
    #[error("{0}")]
    NoRematch(String),
    // Reviews (service/review.rs).
    #[error("nobody asked for this game's review yet; POST to the same address to ask")]
    NoReview,
    /// A review asked for a game that is still being played.
    #[error("{0}")]
    GameNotFinished(String),
    #[error("{0}")]
    TooManyReviews(String),
    // The game's puzzles (service/training.rs).
    #[error("there is no puzzle '{}'", printable(.0))]
    UnknownPuzzle(String),
    #[error("no puzzle matches: {0}")]
    NoPuzzle(String),
    /// A filter of `GET /training/next` that names no scenario, player count or theme.
    #[error("{0}")]
    BadFilter(String),
    /// The database stayed locked or slow: try again later.
    #[error("{0}")]
    Busy(String),
    #[error("{0}")]
    Internal(String),
}

impl GameError {
    pub fn internal(reason: impl Into<String>) -> GameError {
        GameError::Internal(reason.into())
    }
}

/// Every `error` code an answer of this server may carry, whichever layer answers (the edge,
/// the guard, the routes, this mapping): the enumeration of `error` in the OpenAPI
/// document's `ErrorBody` (routes/openapi.rs). A code missing here fails the `openapi` test
/// when an answer it checks carries it, and schemathesis for any answer.
#[cfg(feature = "openapi")]
pub(crate) const ERROR_CODES: &[&str] = &[
    "bad_json",
    "bad_body",
    "malformed_move",
    "unknown_board",
    "bad_setup",
    "bad_query",
    "bad_level",
    "not_websocket",
    "missing_token",
    "wrong_token",
    "undo_not_allowed",
    "fair_play",
    "unknown_game",
    "not_found",
    "method_not_allowed",
    "not_your_turn",
    "stale_move_number",
    "game_over",
    "nothing_to_undo",
    "game_abandoned",
    "not_deletable",
    "too_many_ai_games",
    "body_too_large",
    "illegal_move",
    "bad_board",
    "rate_limited",
    "internal",
    "busy",
    "bad_size",
    "bad_request",
    "foreign_origin",
    "request_timeout",
    "uri_too_long",
    "unsupported_media_type",
    "headers_too_large",
    "too_many_searches",
    "too_many_sockets",
    "not_implemented",
    "http_version",
    "bad_name",
    "name_taken",
    "missing_key",
    "wrong_key",
    "unknown_player",
    "unknown_seek",
    "game_full",
    "seat_taken",
    "already_seated",
    "waiting_for_players",
    "game_aborted",
    "not_abortable",
    "no_rematch",
    "bad_clock",
    "bad_seat",
    "time_ran_out",
    "too_many_seeks",
    "too_many_keys",
    "no_review",
    "game_not_finished",
    "too_many_reviews",
    "unknown_puzzle",
    "no_puzzle",
];

/// How long a client is told to wait after `503 busy`.
pub const BUSY_RETRY_SECONDS: u64 = 2;

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let reason = e.to_string();
        match e {
            GameError::UnknownGame(id) => ApiError::not_found(&id),
            GameError::BadSetup(_) => ApiError::bad_request("bad_setup", reason),
            GameError::Setup(e) => ApiError::from(e),
            GameError::UnknownBoard(_) => ApiError::bad_request("unknown_board", reason),
            GameError::MissingToken => ApiError::new(StatusCode::UNAUTHORIZED, "missing_token", reason),
            GameError::WrongToken => ApiError::new(StatusCode::FORBIDDEN, "wrong_token", reason),
            GameError::GameOver => ApiError::conflict("game_over", reason),
            GameError::Abandoned => ApiError::conflict("game_abandoned", reason),
            GameError::NotYourTurn { to_move } => ApiError::conflict("not_your_turn", reason).with(ErrorDetail {
                to_move: Some(to_move.map(|c| c.to_string())),
                ..ErrorDetail::default()
            }),
            GameError::StaleMoveNumber { move_number, .. } => {
                ApiError::conflict("stale_move_number", reason).with(ErrorDetail {
                    move_number: Some(move_number),
                    ..ErrorDetail::default()
                })
            }
            GameError::MalformedMove(_) => ApiError::bad_request("malformed_move", reason),
            GameError::IllegalMove(_) => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_move", reason),
            GameError::RefusedMove { move_number, .. } => {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_move", reason).with(ErrorDetail {
                    move_number: Some(move_number),
                    ..ErrorDetail::default()
                })
            }
            GameError::PositionOver => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "game_over", reason),
            GameError::UndoNotAllowed => ApiError::new(StatusCode::FORBIDDEN, "undo_not_allowed", reason),
            GameError::FairPlay => ApiError::new(StatusCode::FORBIDDEN, "fair_play", reason),
            GameError::NothingToUndo => ApiError::conflict("nothing_to_undo", reason),
            GameError::NotDeletable(_) => ApiError::conflict("not_deletable", reason),
            GameError::TooManySeeks(_) => ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_seeks", reason),
            GameError::TooManyAiGames(_) => {
                ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_ai_games", reason).retry_after(60)
            }
            GameError::BadClock(_) => ApiError::bad_request("bad_clock", reason),
            GameError::TimeRanOut => ApiError::conflict("time_ran_out", reason),
            GameError::BadSeat(_) => ApiError::bad_request("bad_seat", reason),
            GameError::BadName(_) => ApiError::bad_request("bad_name", reason),
            GameError::NameTaken(_) => ApiError::conflict("name_taken", reason),
            GameError::MissingKey => ApiError::new(StatusCode::UNAUTHORIZED, "missing_key", reason),
            GameError::WrongKey => ApiError::new(StatusCode::FORBIDDEN, "wrong_key", reason),
            GameError::UnknownPlayer(_) => ApiError::new(StatusCode::NOT_FOUND, "unknown_player", reason),
            GameError::UnknownSeek(_) => ApiError::new(StatusCode::NOT_FOUND, "unknown_seek", reason),
            GameError::GameFull => ApiError::conflict("game_full", reason),
            GameError::SeatTaken(_) => ApiError::conflict("seat_taken", reason),
            GameError::AlreadySeated => ApiError::conflict("already_seated", reason),
            GameError::WaitingForPlayers { free } => {
                ApiError::conflict("waiting_for_players", reason).with(ErrorDetail {
                    free_seats: Some(free),
                    ..ErrorDetail::default()
                })
            }
            GameError::Aborted => ApiError::conflict("game_aborted", reason),
            GameError::NotAbortable(_) => ApiError::conflict("not_abortable", reason),
            GameError::NoRematch(_) => ApiError::conflict("no_rematch", reason),
            GameError::NoReview => ApiError::new(StatusCode::NOT_FOUND, "no_review", reason),
            GameError::GameNotFinished(_) => ApiError::conflict("game_not_finished", reason),
            GameError::TooManyReviews(_) => ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_reviews", reason),
            GameError::UnknownPuzzle(_) => ApiError::new(StatusCode::NOT_FOUND, "unknown_puzzle", reason),
            GameError::NoPuzzle(_) => ApiError::new(StatusCode::NOT_FOUND, "no_puzzle", reason),
            GameError::BadFilter(_) => ApiError::bad_request("bad_query", reason),
            GameError::Busy(_) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", reason).retry_after(BUSY_RETRY_SECONDS)
            }
            GameError::Internal(_) => ApiError::internal(reason),
        }
    }
}

/// A setup the core refused: `400 bad_setup` with the core's message, but `400
/// unknown_board` for a scenario there is not and `422 bad_board` for a board file the
/// core cannot read. Words a client wrote are shown [`printable`]; the request's own field
/// names (`stuck_rule`, `ruins`, `ruins_seed`) stand where the core names the setting.
impl From<SetupError> for ApiError {
    fn from(e: SetupError) -> ApiError {
        let reason = match e {
            SetupError::Board(e) => return ApiError::from(e),
            SetupError::UnknownBoard(name) => {
                return ApiError::bad_request(
                    "unknown_board",
                    format!(
                        "unknown board '{}'; the boards are {}",
                        printable(&name),
                        Board::builtin_names()
                    ),
                )
            }
            SetupError::UnknownVariant(v) => format!(
                "unknown variant '{}' (standard, two-player-four-colors, ruinas)",
                printable(&v)
            ),
            SetupError::UnknownStuckRule(r) => format!("unknown stuck_rule '{}' (out, pass)", printable(&r)),
            SetupError::RuinsWithoutRuinas => "ruins and ruins_seed belong only to a ruinas game".into(),
            SetupError::NotAColour(w) => SetupError::NotAColour(printable(&w)).to_string(),
            SetupError::NotAPlayerCount(w) => SetupError::NotAPlayerCount(printable(&w)).to_string(),
            SetupError::NotASeed(w) => SetupError::NotASeed(printable(&w)).to_string(),
            SetupError::UnknownSetting(w) => SetupError::UnknownSetting(printable(&w)).to_string(),
            SetupError::Ruin { number, text, error } => SetupError::Ruin {
                number,
                text: printable(&text),
                error,
            }
            .to_string(),
            e => e.to_string(),
        };
        ApiError::bad_request("bad_setup", reason)
    }
}

/// A puzzle request refused: a bad box `400 bad_size`, too many stones `400 bad_json`, a
/// stone the rules refuse `422 illegal_move` (with its index), an unknown puzzle `404`.
impl From<PuzzleError> for ApiError {
    fn from(e: PuzzleError) -> ApiError {
        match e {
            PuzzleError::BadSize(_) => ApiError::bad_request("bad_size", e.to_string()),
            PuzzleError::TooManyStones => ApiError::bad_request("bad_json", e.to_string()),
            PuzzleError::IllegalStone { index, .. } => {
                ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "illegal_move", e.to_string()).with(ErrorDetail {
                    index: Some(index),
                    ..ErrorDetail::default()
                })
            }
            PuzzleError::NotFound(name) => ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("no puzzle '{}'; there are cube3 and tower5", printable(&name)),
            ),
            PuzzleError::Internal(why) => ApiError::internal(why),
        }
    }
}

/// A board file the core refused: `422 bad_board` with the core's message, and its file,
/// line and message apart for a program.
impl From<BoardError> for ApiError {
    fn from(e: BoardError) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad_board", e.to_string()).with(ErrorDetail {
            file: Some(e.file.clone()),
            line: Some(e.line),
            message: Some(e.message.clone()),
            ..ErrorDetail::default()
        })
    }
}

#[derive(Clone, Debug)]
pub struct ApiError {
    pub status: StatusCode,
    /// A short stable code, e.g. `stale_move_number`.
    pub error: &'static str,
    /// What is wrong, in a sentence.
    pub reason: String,
    /// Fields added to the body (e.g. the current move number); boxed, so that an error
    /// stays small to return.
    pub detail: Box<ErrorDetail>,
}

impl ApiError {
    pub fn new(status: StatusCode, error: &'static str, reason: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error,
            reason: reason.into(),
            detail: Box::default(),
        }
    }

    pub fn with(mut self, detail: ErrorDetail) -> ApiError {
        self.detail = Box::new(detail);
        self
    }

    /// The client is told to wait this long, in the body and in `Retry-After`.
    pub fn retry_after(mut self, seconds: u64) -> ApiError {
        self.detail.retry_after_seconds = Some(seconds);
        self
    }

    pub fn bad_request(error: &'static str, reason: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, error, reason)
    }

    pub fn conflict(error: &'static str, reason: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, error, reason)
    }

    pub fn not_found(id: &str) -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown_game",
            format!("there is no game '{}'", printable(id)),
        )
    }

    pub fn internal(reason: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", reason)
    }

    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.error.to_string(),
            reason: self.reason.clone(),
            detail: (*self.detail).clone(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            tracing::error!(status = self.status.as_u16(), error = self.error, "{}", self.reason);
        }
        // A client told to wait gets the wait in the header too.
        let retry = self.detail.retry_after_seconds;
        let mut r = (self.status, axum::Json(self.body())).into_response();
        if let Some(secs) = retry {
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        r
    }
}

/// Text from a client, shortened and without control characters, for an error message.
pub fn printable(s: &str) -> String {
    printable_within(s, 64)
}

/// [`printable`] within `n` characters: for a sentence that quotes a client's words (the
/// core's reason for refusing a move it was given).
pub fn printable_within(s: &str, n: usize) -> String {
    let mut out: String = s.chars().filter(|c| !c.is_control()).take(n).collect();
    if s.chars().count() > n {
        out.push('…');
    }
    out
}
