//! `GET /api/v1/lessons`: each example of the "How to play" page is judged by the core as
//! the page says, and the same placement submitted as a move in a real game gets the same
//! verdict and reason.

use crate::common;

use common::*;
use serde_json::{json, Value};

/// What the page's text says of each example: legal, or refused for this rule.
const EXPECTED: &[(&str, Option<&str>)] = &[
    ("first_stone", None),
    ("first_touching", None),
    ("first_apart", Some("first_not_touching")),
    ("first_on_top", Some("first_not_on_board")),
    ("contact", None),
    ("no_contact", Some("no_own_contact")),
    ("hole", Some("hole")),
    ("on_top", None),
    ("too_high", Some("too_high")),
];

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("not a string: {v}"))
}

// long: every lesson's cases in one loop, then one position's scores worked out by hand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lessons_are_judged_by_the_core_as_the_page_says() {
    let db = Db::sqlite("lessons");
    let server = start(config(&db.url())).await;
    let addr = server.addr;
    let r = get(addr, "/api/v1/lessons").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let body: Value = r.json();
    let examples = body["examples"].as_array().expect("examples");
    let ids: Vec<&str> = examples.iter().map(|e| s(&e["id"])).collect();
    assert_eq!(ids, EXPECTED.iter().map(|e| e.0).collect::<Vec<_>>());

    for (e, &(id, rule)) in examples.iter().zip(EXPECTED) {
        assert_eq!(e["legal"], json!(rule.is_none()), "{id}: {e}");
        assert_eq!(e["rule"], json!(rule), "{id}: {e}");
        let stone = s(&e["stone"]);
        let size = if stone.ends_with('2') {
            2
        } else if stone.ends_with('3') {
            3
        } else {
            4
        };
        assert_eq!(e["cubes"].as_array().unwrap().len(), size, "{id}: a stone's cubes");
        // The position drawn has the cubes of the moves played: two, three or four each.
        let drawn: usize = e["structure"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["cubes"].as_array().unwrap().len())
            .sum();
        let moves: Vec<&str> = e["moves"].as_array().unwrap().iter().map(s).collect();
        let played: usize = moves
            .iter()
            .map(|m| m.split('@').next().unwrap()[1..].parse::<usize>().unwrap())
            .sum();
        assert_eq!(drawn, played, "{id}: the structure holds the moves' cubes");

        // The same placement as a move in a real game: the same verdict and reason.
        let created = create(
            addr,
            json!({ "board": s(&e["board"]["name"]), "players": e["players"], "hot_seat": true,
                    "seats": [{ "kind": "human" }, { "kind": "human" }] }),
        )
        .await;
        let id_game = s(&created["id"]).to_string();
        let token = s(&created["seats"][0]["token"]).to_string();
        for (n, m) in moves.iter().enumerate() {
            let r = play(addr, &id_game, Some(&token), m, n as i64 + 1).await;
            assert_eq!(r.status, 201, "{id}: setup move {m}: {}", r.text());
        }
        let r = play(addr, &id_game, Some(&token), s(&e["placement"]), moves.len() as i64 + 1).await;
        if rule.is_none() {
            assert_eq!(r.status, 201, "{id}: {}", r.text());
            let st = state(addr, &id_game).await;
            let last = &st["last_move"]["cubes"];
            assert_eq!(last, &e["cubes"], "{id}: the cubes drawn are where the stone went");
        } else {
            assert_eq!(r.status, 422, "{id}: {}", r.text());
            let b: Value = r.json();
            assert_eq!(b["error"], "illegal_move");
            assert!(
                s(&b["reason"]).ends_with(s(&e["reason"])),
                "{id}: {} vs {}",
                b["reason"],
                e["reason"]
            );
        }
    }
    let hole = &examples[6];
    assert_eq!(
        hole["detail"],
        json!({ "column": "b2", "height": 0, "needed": 1 }),
        "{hole}"
    );
    let high = &examples[8];
    assert_eq!(high["detail"], json!({ "level": 6 }), "{high}");

    // Scores: seen from above minus the stones not placed; eleven stones each at the start.
    let scores = body["scores"].as_array().unwrap();
    for c in scores[0]["colours"].as_array().unwrap() {
        assert_eq!(
            (c["seen"].as_i64(), c["stones_left"].as_i64(), c["score"].as_i64()),
            (Some(0), Some(11), Some(-11))
        );
    }
    let middle: Vec<(i64, i64, i64)> = scores[1]["colours"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["seen"].as_i64().unwrap(),
                c["stones_left"].as_i64().unwrap(),
                c["score"].as_i64().unwrap(),
            )
        })
        .collect();
    // Red: a1 a2 b1 b2 b3 c2 c3 on top, 9 stones left; yellow: c1 d1 d2 d3, 9 left.
    assert_eq!(middle, vec![(7, 9, -2), (4, 9, -5)]);
    server.stop().await;
    db.remove().await;
}
