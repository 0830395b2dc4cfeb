//! Every write is the server's, not the request's (issue #50): a client that resets its
//! connection 0-3 ms after sending a write — game creation, a seek, quick play (a new game,
//! or a seat in a waiting one), a join, a rematch, a rematch declined, an abort, a
//! resignation, a leaving, a deletion, an undo, a new player, a presence ping — leaves
//! nothing jammed, stranded or lost. One test a route, each on SQLite and PostgreSQL:
//!
//! - right after each reset, another player's writes succeed (a new player, a presence
//!   ping), and all along a bystander plays moves in games of its own: every answer is the
//!   one a quiet server gives (no 500, no 503);
//! - a write that committed had all that follows a commit: its events on the game's
//!   WebSocket, the lobby feed's fresh list, the AI's move where an AI seat is to move.
//!
//! (Before, game creation, seeks, quick play and rematches ran in the request's future: on
//! SQLite a reset one could leave the writer inside its transaction, and the bystander's
//! next move answered 500, "cannot start a transaction within a transaction"; games created
//! with an AI seat to move never got its move, on either database; a seek committed and
//! never reached the lobby feed.)

use crate::common;

mod rounds;
use rounds::{followed, setup};

on_both_databases!(
    a_reset_game_creation_strands_nothing,
    a_reset_seek_strands_nothing,
    a_reset_quick_play_strands_nothing,
    a_reset_quick_play_join_strands_nothing,
    a_reset_join_strands_nothing,
    a_reset_rematch_strands_nothing,
    a_reset_rematch_decline_strands_nothing,
    a_reset_abort_strands_nothing,
    a_reset_resignation_strands_nothing,
    a_reset_leaving_strands_nothing,
    a_reset_deletion_strands_nothing,
    a_reset_undo_strands_nothing,
    a_reset_player_creation_strands_nothing,
    a_reset_presence_strands_nothing,
);

use std::collections::HashSet;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::tungstenite::Message;

/// Requests reset a route, 0, 1, 2 and 3 ms after the last byte, twice over.
const ROUNDS: u64 = 8;
/// How long a reset write may take to show (it retries a busy database for 4 s).
const COMMIT_LIMIT: Duration = Duration::from_secs(6);
/// How long an event, the lobby feed's list or the AI's move may take after a commit.
const FOLLOW_LIMIT: Duration = Duration::from_secs(15);

async fn a_reset_game_creation_strands_nothing(db: String) {
    resets(db, Route::Create).await
}
async fn a_reset_seek_strands_nothing(db: String) {
    resets(db, Route::Seek).await
}
async fn a_reset_quick_play_strands_nothing(db: String) {
    resets(db, Route::QuickNew).await
}
async fn a_reset_quick_play_join_strands_nothing(db: String) {
    resets(db, Route::QuickJoin).await
}
async fn a_reset_join_strands_nothing(db: String) {
    resets(db, Route::Join).await
}
async fn a_reset_rematch_strands_nothing(db: String) {
    resets(db, Route::Rematch).await
}
async fn a_reset_rematch_decline_strands_nothing(db: String) {
    resets(db, Route::Decline).await
}
async fn a_reset_abort_strands_nothing(db: String) {
    resets(db, Route::Abort).await
}
async fn a_reset_resignation_strands_nothing(db: String) {
    resets(db, Route::Resign).await
}
async fn a_reset_leaving_strands_nothing(db: String) {
    resets(db, Route::Leave).await
}
async fn a_reset_deletion_strands_nothing(db: String) {
    resets(db, Route::Delete).await
}
async fn a_reset_undo_strands_nothing(db: String) {
    resets(db, Route::Undo).await
}
async fn a_reset_player_creation_strands_nothing(db: String) {
    resets(db, Route::NewPlayer).await
}
async fn a_reset_presence_strands_nothing(db: String) {
    resets(db, Route::Presence).await
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Route {
    Create,
    Seek,
    QuickNew,
    QuickJoin,
    Join,
    Rematch,
    Decline,
    Abort,
    Resign,
    Leave,
    Delete,
    Undo,
    NewPlayer,
    Presence,
}

/// Sends a request over a raw socket and resets the connection `delay` after its last byte
/// (SO_LINGER 0: the close sends a reset, as a client that crashes or loses its network),
/// without reading the answer.
async fn send_and_reset(
    addr: SocketAddr,
    method: &str,
    path: &str,
    key: Option<&str>,
    body: Option<&Value>,
    delay: u64,
) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\n");
    if let Some(k) = key {
        head.push_str(&format!("Authorization: Bearer {k}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    let request = format!("{head}\r\n{body}");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    if delay > 0 {
        // The reset's delay after the request is what is tested: a real one, racing the
        // server's read and write.
        tokio::time::sleep(Duration::from_millis(delay)).await;
    }
    stream.set_zero_linger().unwrap();
    drop(stream);
}

/// Polls `probe` every 20 ms until it gives a value or `limit` passes.
async fn within<T, F, Fut>(limit: Duration, mut probe: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = probe().await {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        // A pause between looks, not a wait for anything. The limit is real: whether a reset
        // write committed at all is the database's work, which no time of the server's moves.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The next event of a type within `limit`, or `None`.
async fn event_within(ws: &mut Ws, kind: &str, limit: Duration) -> Option<Value> {
    tokio::time::timeout(limit, next_of(ws, kind)).await.ok()
}

async fn subscribed(addr: SocketAddr, id: &str) -> Ws {
    let mut ws = subscribe(addr, id).await;
    next_of(&mut ws, "snapshot").await;
    ws
}

/// A request's answer as JSON, when it has the status expected; else a panic naming `what`
/// (the setup of a round, before anything is reset in it).
fn expect(what: &str, status: u16, r: client::Response) -> Value {
    assert_eq!(r.status, status, "{what}: {}", r.text());
    r.json()
}

/// A name not taken yet: names are unique, and every round makes its players anew.
fn fresh(name: &str) -> String {
    static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("{name} {n}")
}

async fn new_player(addr: SocketAddr, name: &str) -> String {
    let v = expect(
        "a new player",
        201,
        post(addr, "/api/v1/players", None, &json!({ "name": fresh(name) })).await,
    );
    s(&v["key"])
}

async fn table(addr: SocketAddr, id: &str) -> Value {
    expect("a table", 200, get(addr, &format!("/api/v1/games/{id}/table")).await)
}

/// A two-player Chullpa seek by `key` with seat 1 open.
async fn seek2(addr: SocketAddr, key: &str) -> String {
    let body = json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }] });
    let v = expect("a seek", 201, post(addr, "/api/v1/lobby/seeks", Some(key), &body).await);
    s(&v["game"])
}

/// Quick play as every quick-play round asks for it (no AI fill during the test).
fn quick_body() -> Value {
    json!({ "board": "chullpa", "players": 2, "ai_level": 1, "wait_seconds": 3600 })
}

/// The ids of a player's open (waiting or playing) games.
async fn open_games_of(addr: SocketAddr, key: &str) -> Vec<String> {
    let v = expect(
        "a player's page",
        200,
        request(addr, "GET", "/api/v1/players/me", Some(key), None).await,
    );
    v["open"].as_array().unwrap().iter().map(|g| s(&g["game"])).collect()
}

/// The open three-player games (game creation's rounds make them; the bystander's have two).
async fn open_three_player_games(addr: SocketAddr) -> HashSet<String> {
    let v = expect(
        "the open games",
        200,
        get(addr, "/api/v1/games?status=open&limit=200").await,
    );
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["players"] == 3)
        .map(|g| s(&g["id"]))
        .collect()
}

/// Whether the game's AI made a move (within [`FOLLOW_LIMIT`]).
async fn ai_moved(addr: SocketAddr, id: &str) -> bool {
    within(FOLLOW_LIMIT, || async {
        let st = state(addr, id).await;
        (st["moves_played"].as_i64().unwrap_or(0) >= 1).then_some(())
    })
    .await
    .is_some()
}

/// The lobby's WebSocket, read all along: every list it sent.
struct Feed {
    lists: Arc<Mutex<Vec<Value>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Feed {
    async fn open(addr: SocketAddr) -> Feed {
        let url = format!("ws://{addr}/api/v1/lobby/events");
        let (mut ws, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(url))
            .await
            .expect("the lobby's WebSocket connects in time")
            .expect("the lobby's WebSocket connects");
        let lists = Arc::new(Mutex::new(Vec::new()));
        let into = lists.clone();
        let task = tokio::spawn(async move {
            while let Some(Ok(msg)) = ws.next().await {
                if let Message::Text(t) = msg {
                    let v: Value = serde_json::from_str(&t).expect("the lobby's lists are JSON");
                    into.lock().unwrap().push(v);
                }
            }
        });
        let feed = Feed { lists, task };
        assert!(
            within(WAIT, || async { (feed.len() > 0).then_some(()) })
                .await
                .is_some(),
            "the lobby's WebSocket sends its list at once"
        );
        feed
    }

    fn len(&self) -> usize {
        self.lists.lock().unwrap().len()
    }

    /// Where a round's own lists begin: once the feed sent a list for which `setup` holds
    /// (the round's setup as it shows in the lobby), the number of lists sent so far. The
    /// feed sends its renders in order, each of the lobby as it was when the render began, so
    /// every list after that one shows the setup too, and a change in them is the round's.
    async fn mark_after(&self, setup: impl Fn(&Value) -> bool) -> usize {
        let seen = within(FOLLOW_LIMIT, || async {
            let lists = self.lists.lock().unwrap();
            lists.iter().any(&setup).then_some(lists.len())
        })
        .await;
        seen.expect("the lobby feed shows the round's setup")
    }

    /// Whether a list sent since `mark` satisfies `check` (within [`FOLLOW_LIMIT`]).
    async fn sent_since(&self, mark: usize, check: impl Fn(&Value) -> bool) -> bool {
        within(FOLLOW_LIMIT, || async {
            self.lists.lock().unwrap()[mark..].iter().any(&check).then_some(())
        })
        .await
        .is_some()
    }
}

/// Whether the lobby's list `list` ("seeks" or "playing") has game `id`.
fn listed(v: &Value, list: &str, id: &str) -> bool {
    v[list].as_array().is_some_and(|a| a.iter().any(|t| t["game"] == id))
}

/// A player playing moves in games of its own while the rounds run (a new game when one
/// ends); every answer that is not the expected one is a problem.
async fn bystander(addr: SocketAddr, stop: Arc<AtomicBool>) -> (usize, Vec<String>) {
    let mut problems = Vec::new();
    let mut moves = 0;
    let mut game: Option<(String, Vec<Option<String>>)> = None;
    while !stop.load(Ordering::SeqCst) {
        let (id, tokens) = match &game {
            Some(g) => g.clone(),
            None => {
                let body = json!({ "board": "chullpa", "players": 2 });
                let r = client::post(addr, "/api/v1/games", None, &body)
                    .await
                    .expect("answered");
                if r.status != 201 {
                    problems.push(format!("the bystander's new game: {} {}", r.status, r.text()));
                    // (Already a failure; the pause only spares the server before trying again.)
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
                let created = r.json();
                let g = (s(&created["id"]), tokens(&created));
                game = Some(g.clone());
                g
            }
        };
        let r = client::get(addr, &format!("/api/v1/games/{id}"))
            .await
            .expect("answered");
        if r.status != 200 {
            problems.push(format!("the bystander's game state: {} {}", r.status, r.text()));
            continue;
        }
        let st = r.json();
        if st["over"] == true {
            game = None;
            continue;
        }
        let seat = st["seat_to_move"].as_u64().unwrap() as usize;
        let n = st["move_number"].as_i64().unwrap();
        let m = s(&st["legal_moves"][0]);
        let body = json!({ "placement": m, "expected_move_number": n });
        let r = client::post(
            addr,
            &format!("/api/v1/games/{id}/moves"),
            tokens[seat].as_deref(),
            &body,
        )
        .await
        .expect("answered");
        if r.status == 201 {
            moves += 1;
        } else {
            problems.push(format!("the bystander's move {n}: {} {}", r.status, r.text()));
        }
        // The bystander's pace on the real clock: it plays beside the rounds, waiting on none.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    (moves, problems)
}

/// Another player's writes right after a reset: a new player, a presence ping.
async fn other_writes(addr: SocketAddr, key: &str, problems: &mut Vec<String>) {
    let r = client::post(addr, "/api/v1/players", None, &json!({ "name": fresh("Other") }))
        .await
        .expect("answered");
    if r.status != 201 {
        problems.push(format!("another player's creation: {} {}", r.status, r.text()));
    }
    let r = client::request(addr, "POST", "/api/v1/players/me/presence", Some(key), None)
        .await
        .expect("answered");
    if r.status != 200 {
        problems.push(format!("another player's presence: {} {}", r.status, r.text()));
    }
}

/// What one round did: whether its reset write committed (`None`: it cannot be seen), and
/// what was missing after it.
struct Round {
    committed: Option<bool>,
    problems: Vec<String>,
}

/// The request a round resets.
struct Reset {
    method: &'static str,
    path: String,
    key: Option<String>,
    body: Option<Value>,
}

impl Reset {
    fn post(path: String, key: &str, body: Option<Value>) -> Reset {
        Reset {
            method: "POST",
            path,
            key: Some(key.to_string()),
            body,
        }
    }
}

async fn resets(db: String, route: Route) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let feed = Feed::open(addr).await;
    let other = new_player(addr, "Other").await;
    let stop = Arc::new(AtomicBool::new(false));
    let playing = tokio::spawn(bystander(addr, stop.clone()));
    let (mut committed, mut problems) = (0, Vec::new());
    for round in 0..ROUNDS {
        let delay = round % 4;
        let r = one_round(addr, &feed, &other, route, delay).await;
        committed += usize::from(r.committed == Some(true));
        problems.extend(
            r.problems
                .into_iter()
                .map(|p| format!("round {round} ({delay} ms): {p}")),
        );
    }
    stop.store(true, Ordering::SeqCst);
    let (moves, theirs) = playing.await.unwrap();
    problems.extend(theirs);
    feed.task.abort();
    let database = db.split(':').next().unwrap_or_default();
    let seen = if matches!(route, Route::NewPlayer | Route::Presence) {
        "unseen".to_string()
    } else {
        committed.to_string()
    };
    eprintln!(
        "{route:?} on {database}: {seen} of {ROUNDS} reset writes committed; the bystander played {moves} moves; \
         {} problems",
        problems.len()
    );
    assert!(problems.is_empty(), "{route:?}: {problems:#?}");
    if !matches!(route, Route::NewPlayer | Route::Presence) {
        assert!(
            committed >= 2,
            "{route:?}: only {committed} of {ROUNDS} reset writes committed: the test tests nothing"
        );
    }
    assert!(moves > 0, "the bystander played no move");
    server.stop().await;
}

/// One round: the route's setup, its request reset, another player's writes at once, then
/// whether it committed and, if so, whether all that follows its commit happened.
async fn one_round(addr: SocketAddr, feed: &Feed, other: &str, route: Route, delay: u64) -> Round {
    let mut problems = Vec::new();
    // The setup: the request to reset, the WebSockets of the games it changes.
    let (reset, mut ws, ids) = setup(addr, route).await;
    // A round that looks for a game leaving the lobby's seeks (an abort, a declined
    // rematch) begins once the feed showed it there; the others look for what no list before
    // their reset can show (a new game, a game in play), so any list will do.
    let mark = match route {
        Route::Decline | Route::Abort => {
            let id = ids.last().unwrap();
            feed.mark_after(|v| listed(v, "seeks", id)).await
        }
        _ => feed.mark_after(|_| true).await,
    };
    send_and_reset(
        addr,
        reset.method,
        &reset.path,
        reset.key.as_deref(),
        reset.body.as_ref(),
        delay,
    )
    .await;
    other_writes(addr, other, &mut problems).await;

    // Did it commit? If so, what follows.
    let committed = followed(addr, feed, route, mark, &reset, &mut ws, ids, &mut problems).await;
    Round { committed, problems }
}
