//! A finished game's review: `POST /api/v1/games/{id}/review` asks for it (computed once,
//! in the background: service/review.rs), `GET` reads it or its progress. Both answer
//! `200` with the review once it is done and `202` with the progress before.

use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};

use super::Shared;
use crate::error::ApiError;
use crate::extract::{Client, GameId};
use crate::{wire, App};

pub(super) fn routes() -> Router<Arc<App>> {
    Router::new().route("/api/v1/games/{id}/review", get(read).post(ask))
}

fn answer(p: wire::ReviewProgress) -> Response {
    let status = if p.review.is_some() {
        StatusCode::OK
    } else {
        StatusCode::ACCEPTED
    };
    (status, Json(p)).into_response()
}

#[cfg_attr(feature = "openapi", utoipa::path(post, path = "/api/v1/games/{id}/review",
    summary = "Asks for a finished game's review (computed once, in the background; no token needed)",
    params(super::described::GamePath),
    responses(
        (status = 200, description = "The review, done", body = crate::wire::ReviewProgress),
        (status = 202, description = "The review under way: its progress", body = crate::wire::ReviewProgress),
        (status = 404, response = crate::wire::ErrorBody), (status = 409, response = crate::wire::ErrorBody), (status = 429, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
pub(super) async fn ask(State(app): Shared, Client(client): Client, GameId(id): GameId) -> Result<Response, ApiError> {
    // The asker's address is its share of the AI's threads, as for a hint.
    Ok(answer(app.reviews.ask(&id, &client.to_string()).await?))
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/games/{id}/review",
    summary = "A game's review, or its progress while it is computed",
    params(super::described::GamePath),
    responses(
        (status = 200, description = "The review, done", body = crate::wire::ReviewProgress),
        (status = 202, description = "The review under way: its progress", body = crate::wire::ReviewProgress),
        (status = 404, response = crate::wire::ErrorBody), (status = 503, response = crate::wire::ErrorBody),
    )))]
pub(super) async fn read(State(app): Shared, GameId(id): GameId) -> Result<Response, ApiError> {
    Ok(answer(app.reviews.get(&id).await?))
}
