//! An AI turn survives the death of the instance computing it (issue #50 point 6): two
//! instances on one database (one PostgreSQL database, or one SQLite file), the first a
//! child process whose AI worker takes the turn's lease, renews it once, and aborts holding
//! it (`RUMIS_FAULT=abort_holding_ai_turn`: an instance dying mid-search). The second, in
//! this process, takes the turn over once the lease has expired and plays the AI's move.
//!
//! The leases here last 2 s with a heartbeat of 0.5 s, so that the test waits seconds. The
//! second instance's own lease is long (60 s): that is also how long it lets an AI turn
//! that nobody took wait before taking it (service/ai_turns.rs), so it can take this turn
//! only through the dead instance's expired lease, never by winning a race to it before
//! the first instance took it, however slow the machine.
//!
//! And the other way round: a live instance whose search outlives the lease keeps the turn
//! (its heartbeat renews the lease), and the second instance never searches it too.

use crate::common;
use crate::crash::ChildServer;

on_both_databases!(
    an_ai_turn_held_by_a_dead_instance_is_taken_over,
    a_live_instance_keeps_its_ai_turn_past_the_lease
);

use std::time::{Duration, Instant};

use common::*;
use futures_util::StreamExt;
use rumis_server::Config;
use serde_json::json;
use sqlx::Row;

/// The first instance's lease and heartbeat.
const LEASE: Duration = Duration::from_secs(2);
const HEARTBEAT: Duration = Duration::from_millis(500);

fn leased(db: &str, lease: Duration) -> Config {
    let mut c = config(db);
    // The real clock: the instances here are processes of their own, which no test's time
    // can move together, and a lease's expiry against a real search's length is what the
    // second test is about.
    c.time = rumis_server::Time::real();
    c.ai_workers = 1;
    c.ai_lease = lease;
    c.ai_heartbeat = HEARTBEAT;
    c
}

/// Run by the takeover test only: a server with short AI leases, until killed.
#[test]
#[ignore = "a child process of the takeover test"]
fn child_server() {
    let db = std::env::var("RUMIS_TEST_CHILD_DB").expect("run by the takeover test");
    rumis_server::serve_blocking(leased(&db, LEASE)).unwrap();
}

/// When each of a game's moves was stored (ms since the epoch), by the database's rows.
async fn move_times(db: &str, id: &str) -> Vec<i64> {
    sqlx::any::install_default_drivers();
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(db)
        .await
        .unwrap();
    let rows = sqlx::query("SELECT created FROM moves WHERE game = $1 ORDER BY number")
        .bind(id)
        .fetch_all(&pool)
        .await
        .unwrap();
    pool.close().await;
    rows.iter().map(|r| r.get::<i64, _>("created")).collect()
}

async fn an_ai_turn_held_by_a_dead_instance_is_taken_over(db: String) {
    let mut first = tokio::task::block_in_place(|| {
        ChildServer::spawn_as("takeover::child_server", &db, Some("abort_holding_ai_turn"))
    });
    let second = start(leased(&db, Duration::from_secs(60))).await;
    let created = create(
        first.addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    let mut watcher = subscribe(second.addr, &id).await;
    next_of(&mut watcher, "snapshot").await;

    // The human's move, on the first instance: its AI worker takes the reply's lease, and
    // the instance dies holding it.
    let r = play(first.addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert!(tokio::task::block_in_place(|| first.ended_abnormally(WAIT)));
    let died = Instant::now();
    drop(first);

    // The second instance plays the AI's reply once the lease expired.
    let st = state(second.addr, &id).await;
    if st["moves_played"].as_i64().unwrap() < 2 {
        // On PostgreSQL the human's move reaches this instance's watcher too.
        let reply = loop {
            let e = next_of(&mut watcher, "move").await;
            if e["number"] != 1 {
                break e;
            }
        };
        assert_eq!(
            (reply["number"].clone(), reply["by"].clone()),
            (json!(2), json!("ai")),
            "{reply}"
        );
    }
    let after_death = died.elapsed();
    let st = state(second.addr, &id).await;
    assert_eq!(st["moves_played"], 2, "{st}");
    assert_eq!(st["seat_to_move"], 0, "the human's turn again: {st}");
    // Not before the lease the first instance took after the human's move had expired.
    let times = move_times(&db, &id).await;
    let reply_after = Duration::from_millis((times[1] - times[0]) as u64);
    assert!(
        reply_after >= LEASE,
        "the AI's reply came {reply_after:?} after the human's move"
    );
    eprintln!(
        "takeover: the AI's reply was stored {reply_after:?} after the human's move and seen \
         {after_death:?} after the first instance was seen dead (lease {LEASE:?}, heartbeat {HEARTBEAT:?})"
    );
    second.stop().await;
}

/// The `ai_thinking` events for move 2 a watcher got until the socket stayed quiet for
/// `quiet` or move 2 arrived.
async fn thinking_until_move_2(ws: &mut Ws, quiet: Duration) -> (usize, bool) {
    let mut thinking = 0;
    loop {
        let Ok(Some(Ok(msg))) = tokio::time::timeout(quiet, ws.next()).await else {
            return (thinking, false);
        };
        let tokio_tungstenite::tungstenite::Message::Text(t) = msg else {
            continue;
        };
        let e: serde_json::Value = serde_json::from_str(&t).unwrap();
        match e["type"].as_str() {
            Some("ai_thinking") if e["move_number"] == 2 => thinking += 1,
            Some("move") if e["number"] == 2 => return (thinking, true),
            _ => {}
        }
    }
}

/// A live instance's search that lasts longer than the lease (a level-9 search of 3 s,
/// leases of 1 s) keeps its turn: its heartbeat renews the lease, so the second instance,
/// looking every 0.25 s, never claims the turn and never starts searching it too (one
/// `ai_thinking` for the reply, over both instances' watchers).
async fn a_live_instance_keeps_its_ai_turn_past_the_lease(db: String) {
    let instance = || {
        let mut c = leased(&db, Duration::from_secs(1));
        c.ai_heartbeat = Duration::from_millis(250);
        c.ai_move_cap = Duration::from_secs(3);
        c
    };
    let first = start(instance()).await;
    let second = start(instance()).await;
    let created = create(
        first.addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 9 }] }),
    )
    .await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    let mut on_first = subscribe(first.addr, &id).await;
    next_of(&mut on_first, "snapshot").await;
    let mut on_second = subscribe(second.addr, &id).await;
    next_of(&mut on_second, "snapshot").await;
    let sent = Instant::now();
    let r = play(first.addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let (on_first_thinking, replied) = thinking_until_move_2(&mut on_first, 2 * WAIT).await;
    assert!(replied, "no reply on the first instance");
    let searched = sent.elapsed();
    // On SQLite the second instance's events reach only its own watchers: what it had sent
    // by now (a search started during the first one's) is read until it stays quiet.
    let (on_second_thinking, _) = thinking_until_move_2(&mut on_second, Duration::from_secs(1)).await;
    let thinking = if db.starts_with("postgres") {
        // PostgreSQL: every instance's events reach every watcher.
        on_first_thinking
    } else {
        on_first_thinking + on_second_thinking
    };
    assert_eq!(thinking, 1, "the reply was searched {thinking} times ({searched:?})");
    assert!(
        searched >= Duration::from_secs(2),
        "the search outlived the lease: {searched:?}"
    );
    first.stop().await;
    second.stop().await;
}
