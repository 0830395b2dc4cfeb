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

async fn ask(State(app): Shared, Client(client): Client, GameId(id): GameId) -> Result<Response, ApiError> {
    // The asker's address is its share of the AI's threads, as for a hint.
    Ok(answer(app.reviews.ask(&id, &client.to_string()).await?))
}

async fn read(State(app): Shared, GameId(id): GameId) -> Result<Response, ApiError> {
    Ok(answer(app.reviews.get(&id).await?))
}
