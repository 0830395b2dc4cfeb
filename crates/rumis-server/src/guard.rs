//! Checks before the routes, so that a foreign web page cannot drive a server (say, one
//! running on a player's own machine) and one client cannot queue up the searches:
//! - a `POST` with a body must say `Content-Type: application/json` (415 otherwise): a
//!   browser sends such a request from another site only after a CORS preflight, which this
//!   server never grants (`PUT`, `PATCH` and `DELETE` always need one). A `POST` without a
//!   body may say nothing (`fetch(url, {method: "POST"})` sends no type): no HTML form
//!   sends one so, and a script on another site that does is refused by its `Origin`;
//! - one with an `Origin` header (browsers send it) must come from the server's own
//!   host (403 otherwise);
//! - a client address has at most [`SEARCHES_PER_ADDRESS`] hints or analyses under way
//!   (429 beyond), and they run one at a time: its second waits in the address's own line,
//!   not in everyone's, so that one client holds at most one of the server's searches.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::edge::ClientIp;
use crate::error::ApiError;

/// Hints and analyses one client address may have under way (one running, the others
/// waiting for it).
pub const SEARCHES_PER_ADDRESS: usize = 2;

/// Searches under way by client address, and the address's line (one at a time).
#[derive(Default)]
pub struct Guard {
    searches: Mutex<HashMap<IpAddr, (usize, Arc<tokio::sync::Semaphore>)>>,
}

impl Guard {
    pub fn new() -> Arc<Guard> {
        Arc::new(Guard::default())
    }
}

struct SearchPlace<'a> {
    guard: &'a Guard,
    ip: IpAddr,
}

impl Drop for SearchPlace<'_> {
    fn drop(&mut self) {
        let mut map = self.guard.searches.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((n, _)) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

fn changes_state(method: &Method) -> bool {
    matches!(*method, Method::POST | Method::PUT | Method::PATCH | Method::DELETE)
}

/// `application/json`, with or without parameters (`; charset=utf-8`).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// Whether a request says it has no body: `Content-Length: 0`, or neither a length nor a
/// chunked body (HTTP/1.1 then has none).
fn no_body(headers: &HeaderMap) -> bool {
    if headers.contains_key(header::TRANSFER_ENCODING) {
        return false;
    }
    match headers.get(header::CONTENT_LENGTH) {
        None => true,
        Some(v) => v.to_str().is_ok_and(|v| v.trim() == "0"),
    }
}

/// Whether an `Origin` names the host the request was sent to (scheme aside: behind a
/// TLS proxy the page is `https` and the request reaches this server as `http`).
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true; // not from a browser's cross-origin-capable request
    };
    let Ok(origin) = origin.to_str() else { return false };
    let Some((_, host)) = origin.split_once("://") else {
        return false; // "null": a sandboxed page or a file
    };
    let host = host.trim_end_matches('/');
    let own = headers
        .get("x-forwarded-host")
        .or_else(|| headers.get(header::HOST))
        .and_then(|v| v.to_str().ok());
    own.is_some_and(|own| {
        own.eq_ignore_ascii_case(host) || strip_default_port(own).eq_ignore_ascii_case(strip_default_port(host))
    })
}

fn strip_default_port(host: &str) -> &str {
    host.strip_suffix(":80")
        .or_else(|| host.strip_suffix(":443"))
        .unwrap_or(host)
}

/// The API paths that take no POST: there the routes answer 405, which says more than a
/// 415 (and nothing changes). Any other path, a new one included, is checked.
fn read_only(path: &str) -> bool {
    const GAME_READS: [&str; 5] = ["/placements", "/analysis", "/record", "/events", ""];
    if matches!(path, "/api/v1" | "/api/v1/boards" | "/api/v1/stones") {
        return true;
    }
    if let Some(name) = path.strip_prefix("/api/v1/puzzles/") {
        return name != "cube";
    }
    match path.strip_prefix("/api/v1/games/") {
        Some(rest) => {
            let (id, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            !id.is_empty() && GAME_READS.contains(&tail)
        }
        None => false,
    }
}

fn is_search(method: &Method, path: &str) -> bool {
    path.starts_with("/api/v1/games/")
        && ((method == Method::POST && path.ends_with("/hint"))
            || (method == Method::GET && path.ends_with("/analysis")))
}

pub async fn check(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    if changes_state(&method) && path.starts_with("/api/") {
        // Of the methods that change something, only POST can come from another site
        // without a preflight; the API takes no other (405 from the routes).
        if method == Method::POST && !is_json(req.headers()) && !no_body(req.headers()) && !read_only(&path) {
            return ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                "a request that changes something must send Content-Type: application/json",
            )
            .into_response();
        }
        if !same_origin(req.headers()) {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "foreign_origin",
                "this server takes changes only from its own pages",
            )
            .into_response();
        }
    }
    if !is_search(&method, &path) {
        return next.run(req).await;
    }
    let Some(&ClientIp(ip)) = req.extensions().get::<ClientIp>() else {
        return next.run(req).await;
    };
    let (place, line) = {
        let mut map = guard.searches.lock().unwrap_or_else(|e| e.into_inner());
        let (n, line) = map
            .entry(ip)
            .or_insert_with(|| (0, Arc::new(tokio::sync::Semaphore::new(1))));
        if *n >= SEARCHES_PER_ADDRESS {
            let mut r = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_searches",
                format!("this address already has {SEARCHES_PER_ADDRESS} hints or analyses under way; wait for them"),
            )
            .retry_after(2)
            .into_response();
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(2));
            return r;
        }
        *n += 1;
        (SearchPlace { guard: &guard, ip }, line.clone())
    };
    // The semaphore is never closed.
    let turn = line.acquire_owned().await.ok();
    let r = next.run(req).await;
    drop(turn);
    drop(place);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(list: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in list {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn json_content_types() {
        assert!(is_json(&headers(&[("content-type", "application/json")])));
        assert!(is_json(&headers(&[(
            "content-type",
            "Application/JSON; charset=utf-8"
        )])));
        assert!(!is_json(&headers(&[("content-type", "text/plain")])));
        assert!(!is_json(&headers(&[(
            "content-type",
            "application/x-www-form-urlencoded"
        )])));
        assert!(!is_json(&headers(&[])));
    }

    #[test]
    fn paths_that_take_no_post() {
        for p in [
            "/api/v1/boards",
            "/api/v1/games/0123456789abcdef",
            "/api/v1/games/x/record",
            "/api/v1/puzzles/cube3",
        ] {
            assert!(read_only(p), "{p}");
        }
        for p in [
            "/api/v1/games",
            "/api/v1/games/x/moves",
            "/api/v1/games/x/hint",
            "/api/v1/puzzles/cube",
            "/api/v1/new",
        ] {
            assert!(!read_only(p), "{p}");
        }
    }

    #[test]
    fn origins() {
        assert!(same_origin(&headers(&[("host", "127.0.0.1:8080")])));
        assert!(same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8080")
        ])));
        assert!(same_origin(&headers(&[
            ("host", "rumis.example"),
            ("origin", "https://rumis.example")
        ])));
        assert!(same_origin(&headers(&[
            ("host", "rumis.example:80"),
            ("origin", "http://rumis.example")
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://evil.example")
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "http://127.0.0.1:8081")
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "127.0.0.1:8080"),
            ("origin", "null")
        ])));
        assert!(!same_origin(&headers(&[("origin", "http://127.0.0.1:8080")])));
    }
}
