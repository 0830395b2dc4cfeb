//! Helpers: a server on 127.0.0.1 with an ephemeral port and a temporary SQLite file, a
//! WebSocket subscriber, and bounded waits.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use rumis_server::client;
use rumis_server::{Config, Server};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The bound on any single wait in these tests; reaching it fails the test.
pub const WAIT: Duration = Duration::from_secs(60);

/// A temporary directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "rumis-server-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn db_url(&self) -> String {
        format!("sqlite://{}", self.0.join("rumis.db").display())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn config(db_url: &str) -> Config {
    let mut c = Config::new("127.0.0.1:0".parse().unwrap(), db_url);
    c.rate_burst = 100_000.0;
    c.rate_per_second = 100_000.0;
    c.ai_workers = 2;
    c
}

pub async fn start(config: Config) -> Server {
    tokio::time::timeout(WAIT, rumis_server::start(config))
        .await
        .expect("server starts in time")
        .expect("server starts")
}

pub async fn get(addr: SocketAddr, path: &str) -> client::Response {
    client::get(addr, path).await.expect("GET answered")
}

pub async fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: &Value) -> client::Response {
    client::post(addr, path, token, body).await.expect("POST answered")
}

pub async fn state(addr: SocketAddr, id: &str) -> Value {
    let r = get(addr, &format!("/api/v1/games/{id}")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// Creates a game; returns the response body.
pub async fn create(addr: SocketAddr, body: Value) -> Value {
    let r = post(addr, "/api/v1/games", None, &body).await;
    assert_eq!(r.status, 201, "{}", r.text());
    r.json()
}

pub fn tokens(created: &Value) -> Vec<Option<String>> {
    created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().map(String::from))
        .collect()
}

pub async fn play(addr: SocketAddr, id: &str, token: Option<&str>, placement: &str, expected: i64) -> client::Response {
    post(
        addr,
        &format!("/api/v1/games/{id}/moves"),
        token,
        &json!({ "placement": placement, "expected_move_number": expected }),
    )
    .await
}

pub type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn subscribe(addr: SocketAddr, id: &str) -> Ws {
    let url = format!("ws://{addr}/api/v1/games/{id}/events");
    let (ws, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url))
        .await
        .expect("WebSocket connects in time")
        .expect("WebSocket connects");
    ws
}

/// The next JSON event (text message) on a WebSocket.
pub async fn next_event(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("an event in time")
            .expect("the socket stays open")
            .expect("a message");
        if let Message::Text(t) = msg {
            return serde_json::from_str(&t).expect("events are JSON");
        }
    }
}

/// Reads events until one of this type (returning it).
pub async fn next_of(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let e = next_event(ws).await;
        if e["type"] == kind {
            return e;
        }
    }
}
