//! How online games end (rules §5.1, forfeits; issue #49): a resignation in a two-player
//! game ends it at once with the other the winner, in a three-player game the others play
//! on and the resigner is last; hints and analysis wait for the end of a game between
//! people (fair play); and the game's state, its record, its analysis, the ratings and the
//! player pages all state the same result.

use crate::common;

on_both_databases!(
    a_two_player_resignation_ends_the_game_and_everything_agrees,
    a_three_player_resignation_plays_on_and_ranks_the_resigner_last,
    hints_wait_for_the_end_of_a_game_between_people
);

use std::net::SocketAddr;

use common::*;
use serde_json::{json, Value};

/// A rated Chullpa seek by the first key for `keys.len()` players, the others joining.
async fn meet(addr: SocketAddr, keys: &[&str]) -> String {
    let mut seats = vec![json!({ "kind": "me" })];
    seats.resize(keys.len(), json!({ "kind": "open" }));
    let r = post(
        addr,
        "/api/v1/lobby/seeks",
        Some(keys[0]),
        &json!({ "board": "chullpa", "players": keys.len(), "rated": true, "seats": seats }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let id = s(&r.json()["game"]);
    for k in &keys[1..] {
        let r = post(addr, &format!("/api/v1/games/{id}/join"), Some(k), &json!({})).await;
        assert_eq!(r.status, 201, "{}", r.text());
    }
    id
}

/// The seat to move plays its first legal placement.
async fn move_once(addr: SocketAddr, id: &str, keys: &[&str]) {
    let st = state(addr, id).await;
    let seat = st["seat_to_move"].as_u64().unwrap() as usize;
    let n = st["move_number"].as_i64().unwrap();
    let r = play(addr, id, Some(keys[seat]), &s(&st["legal_moves"][0]), n).await;
    assert_eq!(r.status, 201, "{}", r.text());
}

/// The player's page once it shows `games` rated games.
async fn rated_page(addr: SocketAddr, player: &str, games: i64) -> Value {
    page_when(addr, player, |v| v["rating"]["games"] == games).await
}

/// The rating change a player page shows for a game.
fn change_in(page: &Value, id: &str) -> Value {
    page["finished"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == id)
        .map(|g| g["rating_change"].clone())
        .unwrap_or_else(|| panic!("{id} is not among the finished games: {page}"))
}

/// Ana and Ben meet through a seek; five moves (each has made two, so the game counts:
/// issue #50); Ben, to move, resigns. The game ends at
/// once with Ana the winner (before: the game went on and Ana placed her stones alone,
/// then the analysis answered 500, "the stone must touch a yellow cube").
async fn a_two_player_resignation_ends_the_game_and_everything_agrees(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (a_id, a) = new_player(addr, "Ana").await;
    let (b_id, b) = new_player(addr, "Ben").await;
    let keys = [a.as_str(), b.as_str()];
    let id = meet(addr, &keys).await;
    let mut ws = subscribe(addr, &id).await;
    for _ in 0..5 {
        move_once(addr, &id, &keys).await;
    }
    let st = state(addr, &id).await;
    assert_eq!(st["seat_to_move"], 1, "{st}");
    let r = post(addr, &format!("/api/v1/games/{id}/resign"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        (r.json()["over"].clone(), r.json()["to_move"].clone()),
        (json!(true), Value::Null)
    );
    let resigned = next_of(&mut ws, "resigned").await;
    assert_eq!(resigned["seat"], 1);
    let over = next_of(&mut ws, "game_over").await;
    assert_eq!(
        (
            over["winners"].clone(),
            over["places"].clone(),
            over["forfeited"].clone()
        ),
        (json!([0]), json!([1, 2]), json!([1])),
        "{over}"
    );
    let st = state(addr, &id).await;
    assert_eq!(
        (st["over"].clone(), st["status"].clone()),
        (json!(true), json!("finished"))
    );
    assert_eq!(
        (st["winners"].clone(), st["places"].clone(), st["forfeited"].clone()),
        (json!([0]), json!([1, 2]), json!([1])),
        "{st}"
    );
    assert_eq!(
        st["left"],
        json!([{ "colour": "Y", "after_move": 5, "reason": "resigned" }])
    );
    // Ana cannot move on alone.
    let r = play(addr, &id, Some(&a), "L4@e1,e2,e3,f1", 6).await;
    assert_eq!(r.json()["error"], "game_over", "{}", r.text());
    // The analysis answers, and the record reads (as `rumis analyze --record` reads it).
    let r = get(addr, &format!("/api/v1/games/{id}/analysis")).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["moves_played"], 5);
    let rec = get(addr, &format!("/api/v1/games/{id}/record")).await.text();
    assert!(rec.contains("Y:out {resigned}"), "{rec}");
    let game = rumis_core::record::read_game(&rec).unwrap();
    assert_eq!(game.outcome().winners, vec![0]);
    let mut mcts = rumis_ai::Mcts::new(rumis_ai::MctsConfig {
        simulations: Some(20),
        ..rumis_ai::MctsConfig::default()
    });
    rumis_ai::analysis::analyse(&game, &mut mcts).unwrap();
    // The ratings and the player pages say the same: Ana first, Ben second.
    let (pa, pb) = (rated_page(addr, &a_id, 1).await, rated_page(addr, &b_id, 1).await);
    let (ca, cb) = (change_in(&pa, &id), change_in(&pb, &id));
    assert_eq!(
        (ca["place"].clone(), cb["place"].clone()),
        (json!(1), json!(2)),
        "{ca} {cb}"
    );
    assert!(ca["after"].as_i64() > ca["before"].as_i64(), "{ca}");
    assert!(cb["after"].as_i64() < cb["before"].as_i64(), "{cb}");
    server.stop().await;
}

/// Three players; Ben resigns after two rounds; Ana and Cid play on to the end, and Ben is
/// last in the result and in the ratings, whatever the scores.
async fn a_three_player_resignation_plays_on_and_ranks_the_resigner_last(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (a_id, a) = new_player(addr, "Ana").await;
    let (b_id, b) = new_player(addr, "Ben").await;
    let (c_id, c) = new_player(addr, "Cid").await;
    let keys = [a.as_str(), b.as_str(), c.as_str()];
    let id = meet(addr, &keys).await;
    // Two rounds (a game is rated once each player made two moves: issue #50).
    for _ in 0..6 {
        move_once(addr, &id, &keys).await;
    }
    // Ben resigns while Ana is to move: she still moves, then Cid.
    let r = post(addr, &format!("/api/v1/games/{id}/resign"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["over"], false);
    let st = state(addr, &id).await;
    assert_eq!(
        (st["over"].clone(), st["forfeited"].clone()),
        (json!(false), json!([1]))
    );
    assert_eq!(st["to_move"], "R");
    move_once(addr, &id, &keys).await;
    assert_eq!(state(addr, &id).await["to_move"], "G", "Ben's colour is skipped");
    let end = loop {
        let st = state(addr, &id).await;
        if st["over"] == true {
            break st;
        }
        move_once(addr, &id, &keys).await;
    };
    let places: Vec<i64> = end["places"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    assert_eq!(end["forfeited"], json!([1]), "{end}");
    assert!(places[1] > places[0] && places[1] > places[2], "Ben last: {end}");
    assert!(!end["winners"].as_array().unwrap().contains(&json!(1)), "{end}");
    let pages = [
        rated_page(addr, &a_id, 1).await,
        rated_page(addr, &b_id, 1).await,
        rated_page(addr, &c_id, 1).await,
    ];
    for (seat, page) in pages.iter().enumerate() {
        assert_eq!(
            change_in(page, &id)["place"],
            json!(places[seat]),
            "seat {seat}: {page}"
        );
    }
    server.stop().await;
}

/// Fair play: while two people play, a hint or an analysis is refused to them and to a
/// spectator (403 `fair_play`), and given once the game is over; a game against the AI
/// alone keeps its hints.
async fn hints_wait_for_the_end_of_a_game_between_people(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (_, a) = new_player(addr, "Ana").await;
    let (_, b) = new_player(addr, "Ben").await;
    let keys = [a.as_str(), b.as_str()];
    let id = meet(addr, &keys).await;
    move_once(addr, &id, &keys).await;
    let hint = format!("/api/v1/games/{id}/hint");
    let analysis = format!("/api/v1/games/{id}/analysis");
    for key in [Some(a.as_str()), Some(b.as_str()), None] {
        let r = post(addr, &hint, key, &json!({})).await;
        assert_eq!(
            (r.status, r.json()["error"].clone()),
            (403, json!("fair_play")),
            "{}",
            r.text()
        );
    }
    let r = get(addr, &analysis).await;
    assert_eq!(
        (r.status, r.json()["error"].clone()),
        (403, json!("fair_play")),
        "{}",
        r.text()
    );
    // Two people at one table (a hot-seat game, one token for both seats) may ask.
    let hot = create(addr, json!({ "board": "chullpa", "players": 2, "hot_seat": true })).await;
    let r = post(addr, &format!("/api/v1/games/{}/hint", s(&hot["id"])), None, &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    // A game against the AI alone keeps its hints.
    let solo = create(
        addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let r = post(
        addr,
        &format!("/api/v1/games/{}/hint", s(&solo["id"])),
        None,
        &json!({}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    // A rated game against the AI alone keeps its hints too, and is marked as assisted.
    let r = post(
        addr,
        "/api/v1/lobby/quick",
        Some(&a),
        &json!({ "board": "chullpa", "players": 2, "rated": true, "wait_seconds": 0, "ai_level": 1 }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let rated = s(&r.json()["game"]);
    state_when(addr, &rated, "the AI fills the seat", |st| st["status"] == "open").await;
    let table = |id: String| async move { get(addr, &format!("/api/v1/games/{id}/table")).await.json() };
    assert_eq!(table(rated.clone()).await["assisted"], false);
    let r = post(
        addr,
        &format!("/api/v1/games/{rated}/hint"),
        Some(&a),
        &json!({ "level": 4 }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(table(rated.clone()).await["assisted"], true);
    // Refused hints mark nothing: the game between Ana and Ben is rated too.
    assert_eq!(table(id.clone()).await["assisted"], false);
    // Ben resigns: the game is over, and both are answered.
    let r = post(addr, &format!("/api/v1/games/{id}/resign"), Some(&b), &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = get(addr, &analysis).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = post(addr, &hint, None, &json!({})).await;
    assert_eq!(r.json()["error"], "game_over", "over: nothing to hint, {}", r.text());
    server.stop().await;
}
