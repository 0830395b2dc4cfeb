//! A player key is in the answer that issues it and in no other: a scripted lobby session,
//! every answer and socket message of it scanned.

use crate::common;
use crate::lobby::{play_out, wait_for};

on_both_databases!(a_player_key_is_in_no_answer_after_it_is_issued);

use std::time::Duration;

use common::*;
use serde_json::json;

/// A player key is in the answer that issues it and in no answer after: a scripted
/// session (seek, lobby, join, table, moves, pages, leaderboard, abort, rematch, decline,
/// presence, records, both sockets) is scanned, bodies and headers, for either key and its
/// hash.
// long: the scripted session is the test: every answer it keeps is scanned at the end.
async fn a_player_key_is_in_no_answer_after_it_is_issued(db: String) {
    use futures_util::StreamExt;
    use sha2::Digest;
    let server = start(config(&db)).await;
    let addr = server.addr;
    let issued = post(addr, "/api/v1/players", None, &json!({ "name": "Ana" })).await;
    let (a_id, a) = (s(&issued.json()["id"]), s(&issued.json()["key"]));
    assert!(issued.text().contains(&a), "the scan would see a key");
    assert_eq!(a.len(), 32, "128 bits as hex");
    let (b_id, b) = new_player(addr, "Ben").await;
    let secrets: Vec<String> = [&a, &b]
        .iter()
        .flat_map(|k| {
            [
                k.to_string(),
                sha2::Sha256::digest(k.as_bytes())
                    .iter()
                    .map(|x| format!("{x:02x}"))
                    .collect(),
            ]
        })
        .collect();
    let answers: std::cell::RefCell<Vec<String>> = Default::default();
    let keep = |r: client::Response| {
        let headers: String = r.headers.iter().map(|(k, v)| format!("{k}: {v}\n")).collect();
        answers.borrow_mut().push(format!("{headers}{}", r.text()));
        r
    };
    let mut lobby_ws = {
        let url = format!("ws://{addr}/api/v1/lobby/events");
        tokio_tungstenite::connect_async(url).await.expect("lobby socket").0
    };
    let r = keep(post(addr, "/api/v1/lobby/seeks", Some(&a), &json!({ "board": "chullpa", "players": 2, "rated": true, "seats": [{ "kind": "me" }, { "kind": "open" }] })).await);
    let id = s(&r.json()["game"]);
    let mut game_ws = subscribe(addr, &id).await;
    keep(get(addr, "/api/v1/lobby").await);
    keep(post(addr, &format!("/api/v1/games/{id}/join"), Some(&b), &json!({})).await);
    let keys = [Some(a.clone()), Some(b.clone())];
    for n in 1..=4 {
        let st = keep(get(addr, &format!("/api/v1/games/{id}")).await).json();
        let seat = st["seat_to_move"].as_u64().unwrap() as usize;
        keep(play(addr, &id, keys[seat].as_deref(), &s(&st["legal_moves"][0]), n).await);
    }
    for path in [
        format!("/api/v1/games/{id}/table"),
        format!("/api/v1/games/{id}/record"),
        format!("/api/v1/players/{a_id}"),
        format!("/api/v1/players/{b_id}"),
        "/api/v1/ratings".into(),
        "/api/v1/games?status=open".into(),
        "/api/v1".into(),
    ] {
        keep(get(addr, &path).await);
    }
    keep(
        client::request(addr, "GET", "/api/v1/players/me", Some(&a), None)
            .await
            .unwrap(),
    );
    keep(
        client::request(addr, "GET", "/api/v1/players/me", Some(&b), None)
            .await
            .unwrap(),
    );
    let end = play_out(addr, &id, &keys, |_, _| 0).await;
    answers.borrow_mut().push(end.to_string());
    keep(post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&a), &json!({})).await);
    let r = keep(post(addr, &format!("/api/v1/games/{id}/rematch"), Some(&b), &json!({})).await);
    let re = s(&r.json()["game"]);
    keep(post(addr, "/api/v1/players/me/presence", Some(&a), &json!({})).await);
    keep(
        post(
            addr,
            &format!("/api/v1/games/{id}/rematch/decline"),
            Some(&b),
            &json!({}),
        )
        .await,
    );
    keep(post(addr, &format!("/api/v1/games/{re}/abort"), Some(&b), &json!({})).await);
    keep(post(addr, &format!("/api/v1/games/{re}/abort"), Some(&a), &json!({})).await);
    keep(post(addr, &format!("/api/v1/games/{re}/join"), Some(&a), &json!({})).await);
    keep(post(addr, "/api/v1/lobby/quick", Some(&a), &json!({ "wait_seconds": 600 })).await);
    wait_for(addr, &format!("/api/v1/players/{a_id}"), None, |v| {
        v["rating"]["games"] == 1
    })
    .await;
    for path in [format!("/api/v1/players/{a_id}"), "/api/v1/lobby".into()] {
        keep(get(addr, &path).await);
    }
    keep(
        client::request(addr, "GET", "/api/v1/players/me", Some(&a), None)
            .await
            .unwrap(),
    );
    let mut answers = answers.into_inner();
    // What the sockets sent meanwhile.
    for ws in [&mut lobby_ws, &mut game_ws] {
        while let Ok(Some(Ok(m))) = tokio::time::timeout(Duration::from_millis(300), ws.next()).await {
            answers.push(m.to_text().unwrap_or_default().to_string());
        }
    }
    assert!(answers.len() > 30, "{} answers", answers.len());
    assert!(
        answers.iter().any(|t| t.contains("\"type\":\"lobby\"")),
        "the lobby socket spoke"
    );
    assert!(
        answers.iter().any(|t| t.contains("\"type\":\"rated\"")),
        "the game socket spoke"
    );
    for (i, text) in answers.iter().enumerate() {
        for secret in &secrets {
            assert!(
                !text.contains(secret.as_str()),
                "answer {i} holds a key or its hash: {text}"
            );
        }
    }
    server.stop().await;
}
