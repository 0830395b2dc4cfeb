//! What a route takes from its request, checked once here: a game's id, a JSON body, a
//! query, the bearer key and the client's address. Each refuses with the API's error body
//! (`error.rs`), the same for every route; the routes (`routes/`) only name what they take.

use std::net::{IpAddr, SocketAddr};

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;

use crate::edge::ClientIp;
use crate::error::ApiError;

/// A game's id from the path (`/api/v1/games/{id}/...`): 16 lowercase hex digits; any other
/// is `404 not_found` without asking the database.
pub(crate) struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        check_id(&id).map_err(IntoResponse::into_response)?;
        Ok(GameId(id))
    }
}

/// Game ids are 16 hex digits; anything else is unknown without asking the database.
pub(crate) fn check_id(id: &str) -> Result<(), ApiError> {
    if is_id(id) {
        Ok(())
    } else {
        Err(ApiError::not_found(id))
    }
}

/// Ids (of games and players) are 16 lowercase hex digits.
pub(crate) fn is_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// A JSON object as the body: `413 body_too_large` over the route's body limit, `400
/// bad_body` or `400 bad_json` when not the JSON expected.
pub(crate) struct JsonBody<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        parse_body(Bytes::from_request(req, state).await).map(JsonBody)
    }
}

/// A body that may be left out (blank: `T::default()`, as `{}`); else as [`JsonBody`].
pub(crate) struct OptionalBody<T>(pub T);

impl<T: DeserializeOwned + Default, S: Send + Sync> FromRequest<S> for OptionalBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let body = Bytes::from_request(req, state).await;
        let empty = body.as_ref().is_ok_and(|b| b.iter().all(u8::is_ascii_whitespace));
        if empty {
            Ok(OptionalBody(T::default()))
        } else {
            parse_body(body).map(OptionalBody)
        }
    }
}

/// A JSON body: 413 when too large, 400 when not the expected JSON.
fn parse_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                "the request body is too large",
            )
        } else {
            ApiError::bad_request("bad_body", format!("cannot read the request body: {}", e.body_text()))
        }
    })?;
    // serde reads a struct from an array too ([placement, number]); only objects are asked for.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::bad_request(
            "bad_json",
            "the body must be a JSON object ({...})",
        ));
    }
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request("bad_json", format!("the body is not the JSON expected: {e}")))
}

/// The query string as `T`: `400 bad_query` when it is not.
pub(crate) struct Params<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(params)) => Ok(Params(params)),
            Err(e) => Err(ApiError::bad_request("bad_query", e.body_text())),
        }
    }
}

/// The key or token of `Authorization: Bearer <key>`, if the request shows one.
pub(crate) struct Bearer(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for Bearer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Bearer(bearer(&parts.headers)))
    }
}

/// The key of an `Authorization: Bearer <key>` header.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_string())
}

/// The client's address: the peer's, or behind `--trusted-proxy` the client that proxy
/// speaks for (edge.rs), as for the rate limit.
pub(crate) struct Client(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let ConnectInfo(peer) = ConnectInfo::<SocketAddr>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(Client(parts.extensions.get::<ClientIp>().map_or(peer.ip(), |c| c.0)))
    }
}
