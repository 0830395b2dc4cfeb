//! A stop on SIGTERM (issue 51): `/readyz` answers 503 at once while everything else is
//! still served (the drain), a second signal ends the drain, the game's and the lobby's
//! sockets are closed with 1012 ("service restart", which the web app answers by
//! reconnecting), the process exits 0, and a server started again on the same database
//! continues the game: every acknowledged move is there, and the AI seat plays on.
//!
//! The server runs as a child process (this test binary again, running the ignored
//! `shutdown::drain_child_server`, as `crash.rs` does), so that it can be signalled.

use crate::common;

on_both_databases!(a_stop_on_sigterm_drains_and_loses_nothing);

use std::net::SocketAddr;
use std::time::Duration;

use crate::crash::ChildServer;
use common::*;
use futures_util::StreamExt;
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// Run by `ChildServer::spawn_as` only: `rumis serve`'s loop on the database it is given,
/// with a drain longer than any test (the test's second signal ends it).
#[test]
#[ignore = "a child process of the shutdown test"]
fn drain_child_server() {
    let db = std::env::var("RUMIS_TEST_CHILD_DB").expect("run by the shutdown test");
    let mut c = config(&db);
    // The real clock: a process of its own, whose time no test moves.
    c.time = rumis_server::Time::real();
    c.ai_workers = 1;
    c.drain_delay = Duration::from_secs(3600);
    rumis_server::serve_blocking(c).unwrap();
}

/// The first legal placement of the colour to move.
async fn a_legal_placement(addr: SocketAddr, id: &str) -> String {
    let p = get(addr, &format!("/api/v1/games/{id}/placements")).await.json();
    s(&p["placements"][0]["placement"])
}

/// Reads a socket until its close frame: the close code.
async fn close_code(ws: &mut Ws) -> u16 {
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await.expect("a close in time") {
            Some(Ok(Message::Close(Some(f)))) => return f.code.into(),
            Some(Ok(Message::Close(None))) | None => panic!("the socket ended without a close code"),
            Some(Ok(_)) => {}
            Some(Err(e)) => panic!("the socket failed before its close frame: {e}"),
        }
    }
}

async fn a_stop_on_sigterm_drains_and_loses_nothing(db: String) {
    let mut first = tokio::task::block_in_place(|| ChildServer::spawn_as("shutdown::drain_child_server", &db, None));
    let addr = first.addr;
    let created = create(
        addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    let mut watcher = subscribe(addr, &id).await;
    next_of(&mut watcher, "snapshot").await;
    let (mut lobby, _) = tokio::time::timeout(
        WAIT,
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/v1/lobby/events")),
    )
    .await
    .expect("the lobby connects in time")
    .expect("the lobby connects");
    assert_eq!(play(addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await.status, 201);
    loop {
        if next_of(&mut watcher, "move").await["number"] == 2 {
            break;
        }
    }
    let third = a_legal_placement(addr, &id).await;
    assert_eq!(play(addr, &id, Some(&token), &third, 3).await.status, 201);

    // SIGTERM: not ready at once, everything else still served.
    assert_eq!(get(addr, "/readyz").await.status, 200);
    first.signal(libc::SIGTERM);
    let not_ready = eventually("/readyz says not ready", || async {
        let r = get(addr, "/readyz").await;
        if r.status == 503 {
            Ok(r.json())
        } else {
            Err(format!("{}", r.status))
        }
    })
    .await;
    assert_eq!(not_ready["status"], "not_ready", "{not_ready}");
    assert!(s(&not_ready["reason"]).contains("draining"), "{not_ready}");
    assert_eq!(get(addr, "/healthz").await.status, 200);
    assert_eq!(get(addr, &format!("/api/v1/games/{id}")).await.status, 200);
    let metrics = get(addr, "/metrics").await.text();
    assert!(metrics.lines().any(|l| l == "rumis_draining 1"), "{metrics}");

    // A second signal ends the drain: the sockets hear "restart", the process exits 0.
    first.signal(libc::SIGINT);
    assert_eq!(close_code(&mut watcher).await, 1012);
    assert_eq!(close_code(&mut lobby).await, 1012);
    assert!(
        tokio::task::block_in_place(|| first.exit_status(WAIT).success()),
        "exit 0"
    );
    drop(first);

    // Started again on the same database: the game goes on.
    let second = tokio::task::block_in_place(|| ChildServer::spawn_as("shutdown::drain_child_server", &db, None));
    let addr = second.addr;
    assert_eq!(get(addr, "/readyz").await.status, 200);
    let mut watcher = subscribe(addr, &id).await;
    let snapshot = next_of(&mut watcher, "snapshot").await;
    let moves = &snapshot["state"]["moves"];
    assert_eq!(moves[0]["placement"], "L4@a1,a2,a3,b1", "{snapshot}");
    assert_eq!(moves[2]["placement"], third.as_str(), "{snapshot}");
    // The AI's reply to the third move: played before the stop, or resumed after it.
    if snapshot["state"]["moves_played"].as_i64().unwrap() < 4 {
        let reply = next_of(&mut watcher, "move").await;
        assert_eq!(
            (reply["number"].clone(), reply["by"].clone()),
            (json!(4), json!("ai")),
            "{reply}"
        );
    }
    let fifth = a_legal_placement(addr, &id).await;
    assert_eq!(play(addr, &id, Some(&token), &fifth, 5).await.status, 201);
}
