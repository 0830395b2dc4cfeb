//! Helpers: a server on 127.0.0.1 with an ephemeral port and a temporary SQLite file, on a
//! time the test moves ([`config`]), a WebSocket subscriber, and bounded waits.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use rumis_server::{Config, Server, Time};
pub use rumis_test_client as client;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

/// The bound on any single wait in these tests; reaching it fails the test.
pub const WAIT: Duration = Duration::from_secs(60);

/// A temporary directory named after the test (`tempfile` makes it and removes it when
/// dropped); `.0` is its path.
pub struct TempDir(pub PathBuf, tempfile::TempDir);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("rumis-server-{tag}-"))
            .tempdir()
            .expect("a temporary directory");
        TempDir(dir.path().to_path_buf(), dir)
    }

    pub fn db_url(&self) -> String {
        format!("sqlite://{}", self.0.join("rumis.db").display())
    }
}

/// A test database: a SQLite file in a temporary directory, or a fresh PostgreSQL database
/// made through the server given by `RUMIS_TEST_POSTGRES_URL` (a URL of a role that may
/// create databases, e.g. `postgres://rumis:rumis@127.0.0.1/postgres`).
pub enum Db {
    Sqlite(TempDir),
    Postgres { admin: String, name: String, url: String },
}

impl Db {
    pub fn sqlite(tag: &str) -> Db {
        Db::Sqlite(TempDir::new(tag))
    }

    /// A fresh database on the PostgreSQL server of `RUMIS_TEST_POSTGRES_URL`; the tests
    /// that call this are built only when it is set (build.rs), and fail when it cannot be had.
    pub async fn postgres(tag: &str) -> Db {
        use sqlx::Connection;
        let admin = std::env::var("RUMIS_TEST_POSTGRES_URL")
            .expect("RUMIS_TEST_POSTGRES_URL: the tests were built with it set, so it must be set to run them");
        static N: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "rumis_test_{}_{}_{}",
            tag.chars().take(20).collect::<String>(),
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        );
        let (base, _) = admin.rsplit_once('/').expect("a PostgreSQL URL ends in /database");
        let url = format!("{base}/{name}");
        let mut conn = tokio::time::timeout(WAIT, sqlx::PgConnection::connect(&admin))
            .await
            .expect("PostgreSQL answers in time")
            .expect("PostgreSQL at RUMIS_TEST_POSTGRES_URL");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut conn)
            .await
            .expect("a test database");
        let _ = conn.close().await;
        Db::Postgres { admin, name, url }
    }

    pub fn url(&self) -> String {
        match self {
            Db::Sqlite(dir) => dir.db_url(),
            Db::Postgres { url, .. } => url.clone(),
        }
    }

    /// Removes a PostgreSQL test database (a SQLite one goes with its directory).
    pub async fn remove(self) {
        use sqlx::Connection;
        if let Db::Postgres { admin, name, .. } = &self {
            if let Ok(mut conn) = sqlx::PgConnection::connect(admin).await {
                let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                )))
                .execute(&mut conn)
                .await;
                let _ = conn.close().await;
            }
        }
    }
}

/// Makes each named `async fn(db_url: String)` a test module with a test on SQLite and one
/// on PostgreSQL (ignored, and listed so, unless `RUMIS_TEST_POSTGRES_URL` was set when the
/// tests were built: build.rs).
#[macro_export]
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn sqlite() {
                    let db = $crate::common::Db::sqlite(stringify!($name));
                    super::$name(db.url()).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[cfg_attr(not(rumis_postgres_tests), ignore = "needs RUMIS_TEST_POSTGRES_URL")]
                async fn postgres() {
                    let db = $crate::common::Db::postgres(stringify!($name)).await;
                    super::$name(db.url()).await;
                    db.remove().await;
                }
            }
        )*
    };
}

/// A test server's configuration. Its time is manual (`c.time`, [`Time::manual`]): a
/// clock, a presence, a lease or a ping falls due only when the test moves the time on
/// ([`Time::advance`]), so that no test's outcome depends on how fast the machine runs.
pub fn config(db_url: &str) -> Config {
    let mut c = Config::new("127.0.0.1:0".parse().unwrap(), db_url);
    c.time = Time::manual();
    c.rate_burst = 100_000.0;
    c.rate_per_second = 100_000.0;
    // Tests make many players from one address; the cap of keys is tested on its own.
    c.keys_per_hour = 100_000.0;
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
    patiently(|| client::get(addr, path)).await
}

pub async fn post(addr: SocketAddr, path: &str, token: Option<&str>, body: &Value) -> client::Response {
    patiently(|| client::post(addr, path, token, body)).await
}

pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> client::Response {
    patiently(|| client::request(addr, method, path, token, body)).await
}

/// Sends a request as a patient client does: a `503 busy` answer is sent again after a
/// pause, up to [`BUSY_RETRIES`] times. The server answers busy when every database
/// connection or its writer stayed taken for longer than it waits ([`rumis_server::store`]:
/// 3 s for a connection, 1 s for SQLite's lock), which on a loaded machine (the browser
/// tests beside these) happens to requests no test is about; a busy answer changes nothing
/// (the game service writes in one transaction), so sending it again is what its
/// `Retry-After` invites. The tests of the busy answer itself use [`client`] directly.
async fn patiently<F, Fut>(send: F) -> client::Response
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = std::io::Result<client::Response>>,
{
    let mut tries = 0;
    loop {
        let r = send().await.expect("the request is answered");
        if r.status != 503 || r.json()["error"] != "busy" || tries == BUSY_RETRIES {
            return r;
        }
        tries += 1;
        eprintln!("503 busy (try {tries}), sending again: {}", r.text());
        tokio::time::sleep(Duration::from_millis(250 * tries as u64)).await;
    }
}

/// How often [`get`] and [`post`] send a request again after a `503 busy`.
pub const BUSY_RETRIES: usize = 4;

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

/// Reads events until one of this type (returning it), for at most twice `WAIT`: a socket
/// that keeps sending other events must not keep a test waiting for ever (a missed
/// `expired` once held CI's server tests for 20 minutes).
pub async fn next_of(ws: &mut Ws, kind: &str) -> Value {
    let wanted = async {
        loop {
            let e = next_event(ws).await;
            if e["type"] == kind {
                return e;
            }
        }
    };
    tokio::time::timeout(2 * WAIT, wanted)
        .await
        .unwrap_or_else(|_| panic!("no '{kind}' event in {:?}", 2 * WAIT))
}

/// A JSON string's text (panics on anything else, naming it).
pub fn s(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}")).to_string()
}

/// A new player named `name`: its id and key.
pub async fn new_player(addr: SocketAddr, name: &str) -> (String, String) {
    let r = post(addr, "/api/v1/players", None, &json!({ "name": name })).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let v = r.json();
    (s(&v["id"]), s(&v["key"]))
}

/// The player's page once `check` holds (the ratings are counted by the lobby's tick).
pub async fn page_when(addr: SocketAddr, player: &str, check: impl Fn(&Value) -> bool) -> Value {
    let check = &check;
    eventually(&format!("{player}'s page"), || async move {
        let v = get(addr, &format!("/api/v1/players/{player}")).await.json();
        if check(&v) {
            Ok(v)
        } else {
            Err(v.to_string())
        }
    })
    .await
}

/// Asks `look` again until it answers `Ok`, for at most [`WAIT`] (then the test fails with
/// `what` and the last `Err`): for a condition the server reaches by work of its own (a
/// background task, another connection), with no event to wait on. Each look is a request
/// answered in full, so a slow machine only makes it take more looks.
pub async fn eventually<T, F, Fut>(what: &str, look: F) -> T
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<T, String>>,
{
    let started = std::time::Instant::now();
    loop {
        match look().await {
            Ok(v) => return v,
            Err(last) => assert!(started.elapsed() < WAIT, "{what}: not within {WAIT:?}: {last}"),
        }
        // A pause between looks, not a wait for anything: it only spares the server.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The game's state once `ok` holds for it (bounded by [`WAIT`]).
pub async fn state_when(addr: SocketAddr, id: &str, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let ok = &ok;
    eventually(what, || async move {
        let st = state(addr, id).await;
        if ok(&st) {
            Ok(st)
        } else {
            Err(st.to_string())
        }
    })
    .await
}

/// Reads a server's WebSocket frames from a raw connection (one that never answers, the
/// bytes so far in `inbox`) until a whole frame of `opcode` (1 a text, 9 a ping) has come,
/// dropping the frames before it; panics if the connection ends first.
pub async fn raw_frame(s: &mut tokio::net::TcpStream, inbox: &mut Vec<u8>, opcode: u8) {
    use tokio::io::AsyncReadExt;
    loop {
        // A server's frame: FIN and opcode, an unmasked length (7 bits, or 16 or 64 more).
        while inbox.len() >= 2 {
            let (len, head) = match inbox[1] & 0x7f {
                126 if inbox.len() >= 4 => (u16::from_be_bytes([inbox[2], inbox[3]]) as usize, 4),
                127 if inbox.len() >= 10 => (u64::from_be_bytes(inbox[2..10].try_into().unwrap()) as usize, 10),
                126 | 127 => break,
                n => (n as usize, 2),
            };
            if inbox.len() < head + len {
                break;
            }
            let op = inbox[0] & 0x0f;
            inbox.drain(..head + len);
            if op == opcode {
                return;
            }
        }
        let mut chunk = [0u8; 4096];
        let n = tokio::time::timeout(WAIT, s.read(&mut chunk))
            .await
            .expect("a frame in time")
            .unwrap_or(0);
        assert!(n > 0, "the connection ended before a frame of opcode {opcode}");
        inbox.extend_from_slice(&chunk[..n]);
    }
}

/// Waits (bounded) until the server ends a raw connection.
pub async fn raw_closed(s: &mut tokio::net::TcpStream) {
    use tokio::io::AsyncReadExt;
    let mut buf = vec![0u8; 65536];
    tokio::time::timeout(WAIT, async {
        loop {
            match s.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await
    .expect("the server ends the connection in time");
}

/// Reads a WebSocket until the server's ping (which tungstenite answers), and returns once
/// the server has read the answer: it answers a ping of ours after it, so its pong says so.
/// Text messages read meanwhile are returned.
pub async fn answer_ping(ws: &mut Ws) -> Vec<Value> {
    use futures_util::SinkExt;
    let mut texts = Vec::new();
    let mut pinged = false;
    loop {
        let msg = tokio::time::timeout(WAIT, ws.next())
            .await
            .expect("a message in time")
            .expect("the socket stays open")
            .expect("a message");
        match msg {
            Message::Text(t) => texts.push(serde_json::from_str(&t).expect("events are JSON")),
            Message::Ping(_) if !pinged => {
                pinged = true;
                ws.send(Message::Ping(b"answered"[..].into()))
                    .await
                    .expect("a ping goes");
            }
            Message::Pong(p) if pinged && &p[..] == b"answered" => return texts,
            _ => {}
        }
    }
}
