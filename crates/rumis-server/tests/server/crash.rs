//! A crash between a move's commit and its publication (issue 16): with the fault hook
//! `RUMIS_FAULT=abort_after_commit`, the server process aborts right after the move's
//! transaction commits, before its events go out and before the AI's turn is queued. What
//! must follow is derived from what was committed: a watcher reconnecting to the restarted
//! server sees the move in its snapshot, and the AI seat's reply is played after the
//! restart (the games row says an AI seat is to move). On PostgreSQL the move's event went
//! out with the commit itself, so a watcher on another instance gets it although the
//! instance that committed it died.
//!
//! An AI search that fails (no thread to be had, or a panic) strands no game either: the
//! turn is searched again after a pause (`a_failed_search_strands_no_game`, with the fault
//! hook `RUMIS_FAULT=search_fails_once`).
//!
//! The server runs as a child process (this test binary again, running the ignored
//! `crash::child_server`), so that aborting it does not end the test.

use crate::common;

on_both_databases!(a_crash_between_commit_and_publish_strands_no_game);

use std::io::BufRead;
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::*;
use rumis_test_client as client;
use serde_json::json;

/// The server of a child process (`child_server`, or another ignored test that serves),
/// killed when dropped.
pub(crate) struct ChildServer {
    child: Child,
    pub addr: SocketAddr,
}

impl ChildServer {
    fn spawn(db: &str, fault: bool) -> ChildServer {
        ChildServer::spawn_as("crash::child_server", db, fault.then_some("abort_after_commit"))
    }

    /// Runs the ignored test `child` (a server on `RUMIS_TEST_CHILD_DB`) in a child process,
    /// with the fault hook `RUMIS_FAULT` set to `fault`.
    pub(crate) fn spawn_as(child: &str, db: &str, fault: Option<&str>) -> ChildServer {
        let mut cmd = Command::new(std::env::current_exe().unwrap());
        cmd.args(["--ignored", "--exact", child, "--nocapture", "--test-threads=1"])
            .env("RUMIS_TEST_CHILD_DB", db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(fault) = fault {
            cmd.env("RUMIS_FAULT", fault);
        } else {
            cmd.env_remove("RUMIS_FAULT");
        }
        let mut child = cmd.spawn().expect("the child server starts");
        let out = child.stdout.take().unwrap();
        let mut lines = std::io::BufReader::new(out).lines();
        let addr = loop {
            let line = lines.next().expect("the child prints its address").expect("a line");
            // After libtest's "test crash::child_server ... " on the same line.
            if let Some((_, rest)) = line.split_once("rumis server on http://") {
                let addr = rest.split('/').next().unwrap();
                break addr.parse().expect("an address");
            }
        };
        // Keep reading its output, so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        ChildServer { child, addr }
    }

    /// Waits for the child to end by itself: its exit status.
    pub(crate) fn exit_status(&mut self, within: Duration) -> ExitStatus {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the child server did not end");
            // A pause between looks at another process, which runs on the real clock.
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for the child to end by itself; whether it ended abnormally.
    pub(crate) fn ended_abnormally(&mut self, within: Duration) -> bool {
        !self.exit_status(within).success()
    }

    /// Sends the child a signal (SIGTERM, SIGINT).
    pub(crate) fn signal(&self, signal: libc::c_int) {
        // SAFETY: kill(2) on the pid of a child this test spawned and has not waited for
        // (so the pid is still its own); no memory is involved.
        let r = unsafe { libc::kill(self.child.id() as libc::pid_t, signal) };
        assert_eq!(r, 0, "the signal is sent");
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Run by `ChildServer::spawn` only: a server on the database it is given, until killed.
#[test]
#[ignore = "a child process of the crash test"]
fn child_server() {
    rumis_server::serve_blocking(child_config()).unwrap();
}

/// A child server's configuration: the database it is given, one AI worker, and the real
/// clock (a process of its own, whose time no test moves).
fn child_config() -> rumis_server::Config {
    let db = std::env::var("RUMIS_TEST_CHILD_DB").expect("run by the crash test");
    let mut c = config(&db);
    c.time = rumis_server::Time::real();
    c.ai_workers = 1;
    c
}

/// A Chullpa game of a human (seat 0) against level 1: its id, the human's token, and a
/// watcher past its snapshot.
async fn human_against_level_1(addr: SocketAddr) -> (String, String, Ws) {
    let created = create(
        addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = tokens(&created)[0].clone().unwrap();
    let mut watcher = subscribe(addr, &id).await;
    next_of(&mut watcher, "snapshot").await;
    (id, token, watcher)
}

/// Run by `a_failed_search_strands_no_game` only: `child_server` with leases of an hour, so
/// that no lease's expiry hands a turn back to the queue while the test waits.
#[test]
#[ignore = "a child process of the crash test"]
fn child_server_long_leases() {
    let mut c = child_config();
    c.ai_lease = Duration::from_secs(3600);
    rumis_server::serve_blocking(c).unwrap();
}

async fn a_crash_between_commit_and_publish_strands_no_game(db: String) {
    let mut first = tokio::task::block_in_place(|| ChildServer::spawn(&db, true));
    let addr = first.addr;
    // The first server's watcher stays open until the server dies under it.
    let (id, token, _first_watcher) = human_against_level_1(addr).await;
    // On PostgreSQL, a watcher on another instance (this process's) of the same database.
    let other = if db.starts_with("postgres") {
        let mut c = config(&db);
        c.ai_workers = 0;
        let server = start(c).await;
        let mut ws = subscribe(server.addr, &id).await;
        next_of(&mut ws, "snapshot").await;
        Some((server, ws))
    } else {
        None
    };

    // The move commits, and the server aborts before answering or publishing.
    let body = json!({ "placement": "L4@a1,a2,a3,b1", "expected_move_number": 1 });
    let answer = client::post(addr, &format!("/api/v1/games/{id}/moves"), Some(&token), &body).await;
    assert!(answer.is_err(), "the server aborted before answering: {answer:?}");
    assert!(tokio::task::block_in_place(|| first.ended_abnormally(WAIT)));
    drop(first);

    if let Some((server, mut ws)) = other {
        let e = next_of(&mut ws, "move").await;
        assert_eq!(
            (e["number"].clone(), e["placement"].clone()),
            (json!(1), json!("L4@a1,a2,a3,b1"))
        );
        server.stop().await;
    }

    // Restarted without the fault: the watcher reconnects and sees the move; the AI seat
    // answers it.
    let second = tokio::task::block_in_place(|| ChildServer::spawn(&db, false));
    let mut watcher = subscribe(second.addr, &id).await;
    let snapshot = next_of(&mut watcher, "snapshot").await;
    assert_eq!(
        snapshot["state"]["moves"][0]["placement"], "L4@a1,a2,a3,b1",
        "{snapshot}"
    );
    let played = snapshot["state"]["moves_played"].as_i64().unwrap();
    if played < 2 {
        let reply = next_of(&mut watcher, "move").await;
        assert_eq!(reply["number"], 2, "{reply}");
        assert_eq!(reply["by"], "ai", "{reply}");
    }
    let st = state(second.addr, &id).await;
    assert!(st["moves_played"].as_i64().unwrap() >= 2, "{st}");
    assert_eq!(st["seat_to_move"], 0, "the human's turn again: {st}");
}

/// An AI search that fails strands no game: the turn goes back to the queue after a pause
/// (1 s after a first failure) and is searched again. Here the first search of the child
/// server panics (the fault hook `RUMIS_FAULT=search_fails_once`); the AI still replies to
/// the human's move, after thinking about it twice. (Before, the turn waited until its
/// lease expired, 15 s by default; here leases last an hour, and the reply never came.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_search_strands_no_game() {
    let dir = TempDir::new("search-fails");
    let db = dir.db_url();
    let child = tokio::task::block_in_place(|| {
        ChildServer::spawn_as("crash::child_server_long_leases", &db, Some("search_fails_once"))
    });
    let addr = child.addr;
    let (id, token, mut watcher) = human_against_level_1(addr).await;
    let r = play(addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(r.status, 201, "{}", r.text());
    // Every event up to the AI's reply: it thought about move 2 once, failed, and again.
    let mut thinking = 0;
    let reply = async {
        loop {
            let e = next_event(&mut watcher).await;
            if e["type"] == "ai_thinking" && e["move_number"] == 2 {
                thinking += 1;
            }
            if e["type"] == "move" && e["number"] == 2 {
                return e;
            }
        }
    };
    // A liveness bound (the reply comes about 1 s after the failure), not a speed figure.
    let reply = tokio::time::timeout(WAIT, reply)
        .await
        .unwrap_or_else(|_| panic!("no AI reply in {WAIT:?} after its search failed"));
    assert_eq!(reply["by"], "ai", "{reply}");
    assert_eq!(thinking, 2, "the first search failed and the second played");
    let st = state(addr, &id).await;
    assert_eq!(st["seat_to_move"], 0, "the human's turn again: {st}");
}
