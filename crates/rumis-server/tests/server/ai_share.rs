//! The AI's share of the server (issue #50, point 5): the caps on open AI-only games hold
//! however a game comes to have no person playing — created so, a player's `leave`, a
//! clock whose timeout hands the seat to the AI — and a game over the caps is still played
//! to its end (in the scheduler's last lane: `queue.rs`, whose order is unit-tested there).

use std::time::Duration;

use crate::common;
use common::*;
use serde_json::{json, Value};

on_both_databases!(
    games_left_to_the_ai_count_against_the_ai_only_caps,
    a_game_left_to_the_ai_over_the_caps_is_still_played_to_its_end
);

async fn create_ai_only(addr: std::net::SocketAddr) -> client::Response {
    let body = json!({ "board": "chullpa", "players": 2,
                       "seats": [{ "kind": "ai", "level": 1 }, { "kind": "ai", "level": 1 }] });
    post(addr, "/api/v1/games", None, &body).await
}

fn against_the_ai(clock: Option<Value>) -> Value {
    let mut body = json!({ "board": "chullpa", "players": 2,
                           "seats": [{ "kind": "human" }, { "kind": "ai", "level": 9 }] });
    if let Some(c) = clock {
        body["clock"] = c;
    }
    body
}

/// An AI-only game refused for the caps, with the count it gives for this address.
async fn refused_with(addr: std::net::SocketAddr, mine: usize) {
    let r = create_ai_only(addr).await;
    assert_eq!(r.status, 429, "{}", r.text());
    let body = r.json();
    assert_eq!(body["error"], "too_many_ai_games", "{body}");
    let words = format!("({mine} from this address");
    assert!(s(&body["reason"]).contains(&words), "{words}: {body}");
}

/// Two AI-only games per address. One created so; then a person playing the AI leaves
/// (before, the game then escaped the count: a third AI-only game could be created); then
/// a person's clock runs out under "the AI takes over" (the same). No AI worker runs, so no
/// game ends meanwhile.
async fn games_left_to_the_ai_count_against_the_ai_only_caps(db: String) {
    let mut c = config(&db);
    c.ai_workers = 0;
    c.ai_only_per_creator = 2;
    c.clock_poll = Duration::from_millis(50);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    assert_eq!(create_ai_only(addr).await.status, 201);

    let created = create(addr, against_the_ai(None)).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let r = post(addr, &format!("/api/v1/games/{id}/leave"), t[0].as_deref(), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    refused_with(addr, 2).await;

    // Over the caps this time: the game goes on (its AI seats are to move), and counts.
    let clock = json!({ "kind": "realtime", "minutes": 0.1, "on_timeout": "ai", "ai_level": 1 });
    let created = create(addr, against_the_ai(Some(clock))).await;
    let id = s(&created["id"]);
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    time.advance(Duration::from_secs(6));
    next_of(&mut ws, "timeout").await;
    let changed = next_of(&mut ws, "seat_changed").await;
    assert_eq!(changed["reason"], "time");
    let st = state(addr, &id).await;
    assert_eq!(st["status"], "open", "{st}");
    refused_with(addr, 3).await;
    server.stop().await;
}

/// No AI-only game allowed at all: a person who leaves a game against the AI makes it one
/// over the caps, and the AI still plays it to its end (no game is stranded by the cap).
async fn a_game_left_to_the_ai_over_the_caps_is_still_played_to_its_end(db: String) {
    let mut c = config(&db);
    c.ai_workers = 1;
    c.ai_only_per_creator = 0;
    // The level-9 seat's searches cut short: the game ends in moments, not minutes.
    c.ai_move_cap = Duration::from_millis(20);
    let server = start(c).await;
    let addr = server.addr;
    assert_eq!(create_ai_only(addr).await.status, 429);
    let created = create(addr, against_the_ai(None)).await;
    let id = s(&created["id"]);
    let t = tokens(&created);
    let body = json!({ "level": 1 });
    let r = post(addr, &format!("/api/v1/games/{id}/leave"), t[0].as_deref(), &body).await;
    assert_eq!(r.status, 200, "{}", r.text());
    state_when(addr, &id, "the game is played to its end", |st| {
        st["status"] == "finished"
    })
    .await;
    server.stop().await;
}
