//! A finished game's review (issue #53; service/review.rs): computed once per game in the
//! background through the AI's scheduler, kept in the database, the same as
//! `rumis_ai::review` gives for the game's record and budget, and taken up again after a
//! restart in the middle.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use crate::common;
use common::*;
use rumis_core::record;
use serde_json::{json, Value};

on_both_databases!(
    a_finished_game_is_reviewed_once_as_the_ai_reviews_it,
    a_review_is_refused_clearly,
    a_review_cut_by_a_restart_is_computed_again
);

/// A two-player Chullpa game of two level-1 AI seats, played to its end; its id.
async fn finished_game(addr: SocketAddr) -> String {
    let body = json!({ "board": "chullpa", "players": 2,
                       "seats": [{ "kind": "ai", "level": 1 }, { "kind": "ai", "level": 1 }] });
    let id = s(&create(addr, body).await["id"]);
    state_when(addr, &id, "the AI plays the game to its end", |st| {
        st["status"] == "finished"
    })
    .await;
    id
}

/// The review `rumis_ai::review` gives for the game's record at `simulations` per
/// position, as the API writes it: the oracle.
async fn expected(addr: SocketAddr, id: &str, simulations: u64) -> Value {
    let text = get(addr, &format!("/api/v1/games/{id}/record")).await.text();
    let game = record::read_game(&text).expect("the record replays");
    let t = rumis_ai::review::THRESHOLDS;
    let config = rumis_server::wire::review::config(simulations);
    let r = rumis_ai::review::review(&game, &config, &t, |_, _| {}).unwrap();
    serde_json::to_value(rumis_server::wire::review::answer(&game, &r, simulations, &t)).unwrap()
}

/// Polls the review until it is done; every answer before says 202, and (`once`) its count
/// of searches done never goes back (no second computation started over it).
async fn done(addr: SocketAddr, id: &str, ask_again: bool, once: bool) -> Value {
    let deadline = Instant::now() + WAIT;
    let mut last = 0;
    loop {
        let path = format!("/api/v1/games/{id}/review");
        let r = if ask_again {
            post(addr, &path, None, &json!({})).await
        } else {
            get(addr, &path).await
        };
        let body = r.json();
        if body["status"] == "done" {
            assert_eq!(r.status, 200, "{body}");
            return body;
        }
        assert_eq!(r.status, 202, "{body}");
        let n = body["done"].as_u64().unwrap();
        assert!(
            !once || n >= last,
            "the searches done went from {last} back to {n}: {body}"
        );
        assert!(n <= body["total"].as_u64().unwrap(), "{body}");
        last = n;
        assert!(Instant::now() < deadline, "the review is done in time: {body}");
        // A pause between looks at the review's searches (the machine's own work, on no time
        // of the server's); each answer on the way is checked, so not `eventually`.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn a_finished_game_is_reviewed_once_as_the_ai_reviews_it(db: String) {
    let mut c = config(&db);
    c.review_simulations = 200;
    let server = start(c).await;
    let addr = server.addr;
    let id = finished_game(addr).await;
    let r = post(addr, &format!("/api/v1/games/{id}/review"), None, &json!({})).await;
    assert_eq!(r.status, 202, "{}", r.text());
    let first = r.json();
    assert_eq!(
        (first["game"].clone(), first["simulations"].clone()),
        (json!(id), json!(200)),
        "{first}"
    );
    // Asked again and again while it runs: the same review goes on.
    let body = done(addr, &id, true, true).await;
    let review = &body["review"];
    assert_eq!(*review, expected(addr, &id, 200).await);
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, review["moves_played"].as_u64().unwrap());
    assert!(!moves.is_empty());
    let extra = moves
        .iter()
        .filter(|m| m["best"]["placement"] != m["played"]["placement"])
        .count();
    assert_eq!(
        body["done"],
        json!(moves.len() + 1 + extra),
        "every search counted once: {body}"
    );
    // Kept: read back, and after a restart, without a search.
    let again = get(addr, &format!("/api/v1/games/{id}/review")).await;
    assert_eq!((again.status, again.json()), (200, body.clone()));
    server.stop().await;
    let server = start(config(&db)).await;
    let after = post(server.addr, &format!("/api/v1/games/{id}/review"), None, &json!({})).await;
    assert_eq!(
        (after.status, after.json()),
        (200, body),
        "the stored review, not a new one"
    );
    server.stop().await;
}

async fn a_review_is_refused_clearly(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    for method in ["GET", "POST"] {
        let r = request(addr, method, "/api/v1/games/nosuchgame/review", None, Some(&json!({}))).await;
        assert_eq!(
            (r.status, s(&r.json()["error"])),
            (404, "unknown_game".into()),
            "{method}"
        );
    }
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = s(&created["id"]);
    let r = post(addr, &format!("/api/v1/games/{id}/review"), None, &json!({})).await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(r.json()["error"], "game_not_finished");
    assert!(s(&r.json()["reason"]).contains("finished"), "{}", r.text());
    let r = get(addr, &format!("/api/v1/games/{id}/review")).await;
    assert_eq!(
        (r.status, s(&r.json()["error"])),
        (404, "no_review".into()),
        "{}",
        r.text()
    );
    // Nothing was stored by the refusal.
    let r = get(addr, &format!("/api/v1/games/{id}/review")).await;
    assert_eq!(r.status, 404);
    server.stop().await;
}

/// The server stops while the review is half done; started again, it takes the review up
/// (its lease expired with the stopped server) and computes it to the same answer.
async fn a_review_cut_by_a_restart_is_computed_again(db: String) {
    // Both servers on one manual time: the stopped one's lease falls due when the test
    // moves it past the lease.
    let time = config(&db).time;
    let with_short_leases = |db: &str| {
        let mut c = config(db);
        c.review_simulations = 3_000;
        c.ai_lease = Duration::from_millis(800);
        c.ai_heartbeat = Duration::from_millis(200);
        c.time = time.clone();
        c
    };
    let server = start(with_short_leases(&db)).await;
    let addr = server.addr;
    let id = finished_game(addr).await;
    let path = format!("/api/v1/games/{id}/review");
    assert_eq!(post(addr, &path, None, &json!({})).await.status, 202);
    let deadline = Instant::now() + WAIT;
    loop {
        let body = get(addr, &path).await.json();
        assert_ne!(
            body["status"], "done",
            "the review ended before the stop: raise its budget"
        );
        if body["status"] == "running" && body["done"].as_u64().unwrap() > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the review starts in time: {body}");
        // Short looks on the real clock: the stop must come while the review's searches (the
        // machine's work) are under way, before they end.
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    server.stop().await;
    // Started again, the review may first show where the stopped one left it, then its
    // new start (the same review computed again from the beginning).
    let server = start(with_short_leases(&db)).await;
    time.advance(Duration::from_secs(1));
    let body = done(server.addr, &id, false, false).await;
    assert_eq!(body["review"], expected(server.addr, &id, 3_000).await);
    server.stop().await;
}
