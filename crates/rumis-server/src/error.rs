//! The API's errors: a status and `{ "error": code, "reason": sentence, ... }`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

#[derive(Clone, Debug)]
pub struct ApiError {
    pub status: StatusCode,
    /// A short stable code, e.g. `stale_move_number`.
    pub error: &'static str,
    /// What is wrong, in a sentence.
    pub reason: String,
    /// Fields added to the body (e.g. the current move number).
    pub extra: Option<Value>,
}

impl ApiError {
    pub fn new(status: StatusCode, error: &'static str, reason: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error,
            reason: reason.into(),
            extra: None,
        }
    }

    pub fn with(mut self, extra: Value) -> ApiError {
        self.extra = Some(extra);
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

    pub fn body(&self) -> Value {
        let mut body = json!({ "error": self.error, "reason": self.reason });
        if let (Some(Value::Object(extra)), Value::Object(map)) = (&self.extra, &mut body) {
            for (k, v) in extra {
                map.insert(k.clone(), v.clone());
            }
        }
        body
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            eprintln!("rumis server: {} {}: {}", self.status.as_u16(), self.error, self.reason);
        }
        (self.status, axum::Json(self.body())).into_response()
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        ApiError::internal(format!("database: {e}"))
    }
}

/// Text from a client, shortened and without control characters, for an error message.
pub fn printable(s: &str) -> String {
    let mut out: String = s.chars().filter(|c| !c.is_control()).take(64).collect();
    if s.chars().count() > 64 {
        out.push('…');
    }
    out
}
