//! Crash test of `rumis serve`: the real binary is killed with SIGKILL while clients submit
//! moves; restarted on the same database, every acknowledged move is there, and an AI turn
//! left pending is played. On a SQLite file, and on a fresh PostgreSQL database when
//! `RUMIS_TEST_POSTGRES_URL` names a role that may create one.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rumis_test_client as client;
use serde_json::{json, Value};

/// The bound on any single wait; reaching it fails the test.
const WAIT: Duration = Duration::from_secs(60);

pub(crate) struct Served {
    child: Child,
    pub(crate) addr: SocketAddr,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `rumis serve` on an ephemeral port and reads the address it prints.
pub(crate) fn serve(url: &str, extra: &[&str]) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumis"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--database-url",
            url,
            "--rate",
            "100000",
        ])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("rumis serve starts");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(WAIT).expect("rumis serve prints its URL");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Served { child, addr }
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = crate::scratch().join(format!("rumis-serve-crash-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Whether an answer is the server's `503 busy`: a database connection or its writer
/// stayed taken longer than the server waits (3 s for a connection), or PostgreSQL's
/// serialisation kept failing, which on a loaded machine happens to any request. Nothing
/// was written (a write is one transaction), so a client sends it again, as its
/// `Retry-After` invites.
fn busy(r: &client::Response) -> bool {
    r.status == 503 && r.json()["error"] == "busy"
}

/// Sends a request until it is answered other than busy (at most [`BUSY_RETRIES`] times
/// more, with a growing pause); `Err` when the server cannot be reached.
async fn patiently<F, Fut>(send: F) -> std::io::Result<client::Response>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = std::io::Result<client::Response>>,
{
    let mut tries = 0;
    loop {
        let r = send().await?;
        if !busy(&r) || tries == BUSY_RETRIES {
            return Ok(r);
        }
        tries += 1;
        eprintln!("503 busy (try {tries}), sending again: {}", r.text());
        tokio::time::sleep(Duration::from_millis(250 * tries)).await;
    }
}

const BUSY_RETRIES: u64 = 4;

pub(crate) async fn state(addr: SocketAddr, id: &str) -> Value {
    let path = format!("/api/v1/games/{id}");
    let r = patiently(|| client::get(addr, &path)).await.expect("state");
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

pub(crate) async fn create(addr: SocketAddr, body: Value) -> (String, Vec<Option<String>>) {
    let r = patiently(|| client::post(addr, "/api/v1/games", None, &body))
        .await
        .expect("create");
    assert_eq!(r.status, 201, "{}", r.text());
    let v = r.json();
    let tokens = v["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().map(String::from))
        .collect();
    (v["id"].as_str().unwrap().to_string(), tokens)
}

/// Plays the game's human seats until stopped or the server goes; returns the moves
/// acknowledged with 201, as (number, placement).
async fn player(
    addr: SocketAddr,
    id: String,
    tokens: Vec<Option<String>>,
    stop: Arc<AtomicBool>,
) -> Vec<(i64, String)> {
    let mut acked = Vec::new();
    let mut k = 0usize;
    while !stop.load(Ordering::SeqCst) {
        let path = format!("/api/v1/games/{id}");
        let Ok(r) = patiently(|| client::get(addr, &path)).await else {
            break;
        };
        assert_eq!(r.status, 200, "the game's state before the crash: {}", r.text());
        let st = r.json();
        if st["over"] == true {
            break;
        }
        let (Some(seat), Some(legal), Some(n)) = (
            st["seat_to_move"].as_u64(),
            st["legal_moves"].as_array(),
            st["move_number"].as_i64(),
        ) else {
            break;
        };
        let Some(token) = tokens[seat as usize].clone() else {
            break;
        };
        let m = legal[(k * 3) % legal.len()].as_str().unwrap().to_string();
        k += 1;
        let body = json!({ "placement": m, "expected_move_number": n });
        match client::post(addr, &format!("/api/v1/games/{id}/moves"), Some(&token), &body).await {
            Ok(r) if r.status == 201 => acked.push((n, m)),
            // Not written: the state is read again.
            Ok(r) if busy(&r) => tokio::time::sleep(Duration::from_millis(250)).await,
            Ok(r) => panic!("a move refused before the crash: {}", r.text()),
            Err(_) => break, // the server died under this request: not acknowledged
        }
    }
    acked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn acknowledged_moves_survive_sigkill_on_sqlite() {
    let dir = temp_dir("sqlite");
    crash_and_restart(&format!("sqlite://{}", dir.join("crash.db").display())).await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// Built to run only when `RUMIS_TEST_POSTGRES_URL` is set (build.rs); else listed as ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(rumis_postgres_tests), ignore = "needs RUMIS_TEST_POSTGRES_URL")]
async fn acknowledged_moves_survive_sigkill_on_postgres() {
    let admin = std::env::var("RUMIS_TEST_POSTGRES_URL")
        .expect("RUMIS_TEST_POSTGRES_URL: the tests were built with it set, so it must be set to run them");
    let (base, _) = admin.rsplit_once('/').expect("a PostgreSQL URL ends in /database");
    // The server creates the database.
    let url = format!("{base}/rumis_test_crash_{}", std::process::id());
    crash_and_restart(&url).await;
    rumis_server::drop_database(&url)
        .await
        .expect("the test database is dropped");
}

async fn crash_and_restart(db: &str) {
    // First life: AI workers off, so that the AI turn stays pending.
    let first = serve(db, &["--ai-workers", "0"]);
    let addr = first.addr;
    let (ai_game, ai_tokens) = create(
        addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let r = client::post(
        addr,
        &format!("/api/v1/games/{ai_game}/moves"),
        ai_tokens[0].as_deref(),
        &json!({ "placement": "L4@a1,a2,a3,b1", "expected_move_number": 1 }),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());

    let mut games = Vec::new();
    for board in ["pisac", "tambo", "coricancha", "cucho"] {
        games.push(create(addr, json!({ "board": board, "players": 4 })).await);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = games
        .iter()
        .map(|(id, tokens)| tokio::spawn(player(addr, id.clone(), tokens.clone(), stop.clone())))
        .collect();
    // Kill the server while the players are submitting: once some moves are in.
    tokio::time::timeout(WAIT, async {
        loop {
            let r = patiently(|| client::get(addr, "/api/v1/games?status=open"))
                .await
                .expect("the list of open games");
            assert_eq!(r.status, 200, "the list of open games: {}", r.text());
            let played: i64 = r.json()["games"]
                .as_array()
                .expect("a list of games")
                .iter()
                .map(|g| g["moves_played"].as_i64().unwrap())
                .sum();
            if played >= 24 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("moves are played before the deadline");
    drop(first); // SIGKILL, then reap
    stop.store(true, Ordering::SeqCst);
    let mut acked = Vec::new();
    for p in players {
        acked.push(tokio::time::timeout(WAIT, p).await.expect("players stop").unwrap());
    }
    assert!(acked.iter().map(Vec::len).sum::<usize>() > 0);

    // Second life on the same file.
    let second = serve(db, &[]);
    let addr = second.addr;
    let mut stored_total = 0;
    for ((id, _), moves) in games.iter().zip(&acked) {
        let st = state(addr, id).await;
        let stored = st["moves"].as_array().unwrap();
        stored_total += stored.len();
        for (n, m) in moves {
            let row = &stored[(*n - 1) as usize];
            assert_eq!(row["number"], *n);
            assert_eq!(row["placement"], m.as_str(), "game {id} move {n}");
        }
        // A move may have been committed without its answer reaching the client, never
        // the other way round.
        assert!(stored.len() >= moves.len());
    }
    eprintln!(
        "acknowledged {} moves before the kill; {stored_total} stored",
        acked.iter().map(Vec::len).sum::<usize>()
    );
    // The pending AI turn is played by the new server.
    let played = tokio::time::timeout(WAIT, async {
        loop {
            let st = state(addr, &ai_game).await;
            if st["moves_played"].as_i64().unwrap() >= 2 {
                return st;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the AI plays its pending turn");
    assert_eq!(played["moves"][1]["colour"], "Y");
    assert_eq!(played["to_move"], "R");
    drop(second);
}
