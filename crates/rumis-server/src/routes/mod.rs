//! The HTTP routes (`/api/v1/...`, the operators' `/healthz`, `/readyz`, `/metrics`) and the
//! WebSockets, one module per part of the API. A route takes what it needs through the
//! extractors of `extract.rs`, asks the service (`service/`) and answers; nothing below this
//! folder imports it.

mod boards;
#[cfg(feature = "openapi")]
mod described;
mod game_events;
mod games;
pub(crate) mod lobby;
pub(crate) mod metrics;
#[cfg(feature = "openapi")]
pub mod openapi;
mod ops;
mod puzzles;
mod review;
mod training;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};

use tower_http::compression::predicate::{DefaultPredicate, Predicate, SizeAbove};
use tower_http::compression::CompressionLayer;

use crate::error::ApiError;
use crate::{wire, App};

type Shared = State<Arc<App>>;

/// Answers from this many bytes on are compressed (gzip) when the client accepts it.
const COMPRESS_FROM: u64 = 4096;

pub fn router(app: Arc<App>) -> Router {
    let limit = app.config.body_limit;
    Router::new()
        .route("/api/v1", get(index))
        .merge(boards::routes())
        .merge(lobby::routes())
        .merge(ops::routes())
        .merge(games::routes(limit))
        .merge(puzzles::routes())
        .merge(review::routes())
        .merge(training::routes())
        .route("/api/v1/lessons", get(crate::lessons::handler))
        .route("/api/v1/games/{id}/events", get(game_events::events))
        // Answers of a few KB or more are compressed for a client that accepts gzip: a
        // position's placements on the largest board are ~600 KB of JSON, and ~10 times
        // less gzipped. (WebSocket upgrades have no body, the web app's files their own
        // precompressed copies: webapp.rs.)
        .route_layer(
            CompressionLayer::new()
                .gzip(true)
                .compress_when(DefaultPredicate::new().and(SizeAbove::new(COMPRESS_FROM))),
        )
        // Every route above notes its template for the metrics (metrics.rs).
        .route_layer(middleware::from_fn(metrics::mark_route))
        .fallback(web)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn_with_state(app.clone(), rate_limit))
        .with_state(app)
}

async fn rate_limit(
    State(app): Shared,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    req: Request,
    next: Next,
) -> Response {
    // Behind `--trusted-proxy`, the client that proxy speaks for (see edge.rs).
    let client = req
        .extensions()
        .get::<crate::edge::ClientIp>()
        .map_or(peer.ip(), |c| c.0);
    match app.limiter.check(client) {
        Ok(()) => next.run(req).await,
        Err(wait) => {
            let secs = wait.ceil().max(1.0) as u64;
            let mut r = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limited",
                "too many requests from this address; slow down",
            )
            .retry_after(secs)
            .into_response();
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
            r
        }
    }
}

/// Everything that is not an API route: the web app's files (GET and HEAD, webapp.rs); under
/// `/api/` and for other methods, the JSON 404.
async fn web(State(app): Shared, req: Request) -> Response {
    let path = req.uri().path();
    let api = path == "/api" || path.starts_with("/api/");
    let read = req.method() == axum::http::Method::GET || req.method() == axum::http::Method::HEAD;
    if api || !read {
        return not_found().await.into_response();
    }
    use crate::webapp::Answer;
    match crate::webapp::serve(app.config.web_dir.as_deref(), app.config.embedded_web, req).await {
        Answer::Page(r) => r,
        Answer::Outside => not_found().await.into_response(),
        Answer::Failed(e) => ApiError::internal(format!("cannot read the web app: {e}")).into_response(),
    }
}

#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1",
    summary = "The API's name, version and endpoints",
    responses((status = 200, description = "The index", body = crate::wire::Index))))]
async fn index() -> Json<wire::Index> {
    Json(wire::Index {
        name: "rumis".into(),
        api: 1,
        endpoints: [
            "GET /api/v1/boards",
            "POST /api/v1/boards/check",
            "GET /api/v1/boards/{name}/toml",
            "GET /api/v1/stones",
            "POST /api/v1/games",
            "GET /api/v1/games?status=open|finished&limit=N",
            "GET /api/v1/games/{id}?at=N",
            "DELETE /api/v1/games/{id}",
            "POST /api/v1/games/{id}/moves",
            "POST /api/v1/games/{id}/undo",
            "POST /api/v1/games/{id}/resign",
            "POST /api/v1/games/{id}/leave",
            "GET /api/v1/games/{id}/placements?at=N",
            "POST /api/v1/games/{id}/hint",
            "GET /api/v1/games/{id}/analysis",
            "POST /api/v1/games/{id}/review",
            "GET /api/v1/games/{id}/review",
            "POST /api/v1/puzzles/cube",
            "GET /api/v1/puzzles/{name}",
            "GET /api/v1/training/daily",
            "GET /api/v1/training/next?scenario=S&players=N&theme=T",
            "GET /api/v1/training/{id}",
            "POST /api/v1/training/{id}/attempt",
            "GET /api/v1/games/{id}/record",
            "GET /api/v1/games/{id}/events (WebSocket)",
            "POST /api/v1/players",
            "GET /api/v1/players/me",
            "GET /api/v1/players/{id}",
            "GET /api/v1/lobby",
            "GET /api/v1/lobby/events (WebSocket)",
            "POST /api/v1/lobby/seeks",
            "POST /api/v1/lobby/quick",
            "GET /api/v1/games/{id}/table",
            "POST /api/v1/games/{id}/join",
            "POST /api/v1/games/{id}/abort",
            "POST /api/v1/games/{id}/rematch",
            "GET /api/v1/ratings",
        ]
        .map(String::from)
        .to_vec(),
    })
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such endpoint; see /api/v1")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this endpoint does not take that method",
    )
}
