//! What the API says about a position: the stones and their turns, every legal placement
//! with its orientation and cubes, the last move's cubes, a hint and an analysis.

use crate::common;

on_both_databases!(stones_placements_and_last_move, hints, analysis);

use common::*;
use serde_json::{json, Value};

/// `(x, y, z)` triples of a JSON array of `[x, y, z]`.
fn triples(v: &Value) -> Vec<(i64, i64, i64)> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|c| (c[0].as_i64().unwrap(), c[1].as_i64().unwrap(), c[2].as_i64().unwrap()))
        .collect()
}

/// Cubes less their least x, y and z, sorted.
fn normalised(cubes: &[(i64, i64, i64)]) -> Vec<(i64, i64, i64)> {
    let mx = cubes.iter().map(|c| c.0).min().unwrap();
    let my = cubes.iter().map(|c| c.1).min().unwrap();
    let mz = cubes.iter().map(|c| c.2).min().unwrap();
    let mut v: Vec<_> = cubes.iter().map(|c| (c.0 - mx, c.1 - my, c.2 - mz)).collect();
    v.sort();
    v
}

/// The stones and their turns are the core's; every legal placement comes with its
/// orientation (an index into the stones' orientations) and the cubes it would take; the
/// state's last move shows the cubes the move took.
// long: one game played to its end, each position's placements and last move checked as it comes.
async fn stones_placements_and_last_move(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let r = get(addr, "/api/v1/stones").await;
    assert_eq!(r.status, 200);
    let stones = r.json()["stones"].as_array().unwrap().clone();
    let codes: Vec<String> = stones.iter().map(|st| s(&st["code"])).collect();
    let core: Vec<String> = rumis_core::Stone::ALL.iter().map(|st| st.code().to_string()).collect();
    assert_eq!(codes, core);
    let mut orientations = std::collections::HashMap::new();
    for (st, json) in rumis_core::Stone::ALL.iter().zip(&stones) {
        assert_eq!(json["size"], st.size());
        let os: Vec<Vec<(i64, i64, i64)>> = json["orientations"].as_array().unwrap().iter().map(triples).collect();
        let expected: Vec<Vec<(i64, i64, i64)>> = st
            .orientations()
            .iter()
            .map(|o| o.iter().map(|&(x, y, z)| (x as i64, y as i64, z as i64)).collect())
            .collect();
        assert_eq!(os, expected);
        let turns = json["turns"].as_array().unwrap();
        assert_eq!(turns.len(), os.len());
        for (o, t) in turns.iter().enumerate() {
            let t: Vec<usize> = t
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as usize)
                .collect();
            assert_eq!(t, vec![st.turn(o, 0), st.turn(o, 1), st.turn(o, 2)]);
        }
        orientations.insert(st.code().to_string(), os);
    }
    let total: usize = orientations.values().map(Vec::len).sum();
    assert_eq!(total, 104);

    let created = create(addr, json!({ "board": "chullpa", "players": 2, "hot_seat": true })).await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    let st = state(addr, &id).await;
    assert_eq!(st["last_move"], Value::Null);
    let (files, ranks) = (
        st["site"]["files"].as_i64().unwrap(),
        st["site"]["ranks"].as_i64().unwrap(),
    );
    let hmax = st["site"]["hmax"].as_i64().unwrap();

    // Play the game to the end, checking every position's placements.
    let mut n = 0usize;
    let mut previous: Option<Value> = None;
    loop {
        let st = state(addr, &id).await;
        let r = get(addr, &format!("/api/v1/games/{id}/placements")).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let p = r.json();
        assert_eq!(p["move_number"], st["move_number"]);
        assert_eq!(p["colour"], st["to_move"]);
        let list = p["placements"].as_array().unwrap();
        let texts: Vec<Value> = list.iter().map(|x| x["placement"].clone()).collect();
        assert_eq!(
            json!(texts),
            st["legal_moves"],
            "the same placements, in the same order"
        );
        for x in list {
            let stone = s(&x["stone"]);
            assert!(s(&x["placement"]).starts_with(&format!("{stone}@")));
            let o = x["orientation"].as_u64().unwrap() as usize;
            let cubes = triples(&x["cubes"]);
            assert_eq!(normalised(&cubes), orientations[&stone][o], "{x}");
            assert!(cubes
                .iter()
                .all(|&(cx, cy, cz)| (0..files).contains(&cx) && (0..ranks).contains(&cy) && (0..hmax).contains(&cz)));
        }
        // The last move's cubes are the ones the placements offered before it.
        if let Some(prev) = previous.take() {
            let last = &st["last_move"];
            assert_eq!(last["number"], n);
            assert_eq!(last["placement"], prev["placement"]);
            assert_eq!(last["cubes"], prev["cubes"]);
            assert_eq!(last["colour"], st["moves"][n - 1]["colour"]);
        }
        if st["over"] == true {
            assert!(list.is_empty());
            assert_eq!(p["colour"], Value::Null);
            break;
        }
        // Prefer a placement that stands on other cubes, to check the levels.
        let chosen = list
            .iter()
            .max_by_key(|x| {
                (
                    triples(&x["cubes"]).iter().map(|c| c.2).min().unwrap(),
                    s(&x["placement"]),
                )
            })
            .unwrap()
            .clone();
        let r = play(addr, &id, Some(&token), &s(&chosen["placement"]), n as i64 + 1).await;
        assert_eq!(r.status, 201, "{}", r.text());
        n += 1;
        previous = Some(chosen);
    }
    assert!(n > 4);

    // Earlier positions: the placements there, and the last move before them.
    let at1 = get(addr, &format!("/api/v1/games/{id}/placements?at=1")).await.json();
    let st1 = get(addr, &format!("/api/v1/games/{id}?at=1")).await.json();
    assert_eq!(at1["move_number"], 2);
    assert_eq!(at1["colour"], st1["to_move"]);
    let texts: Vec<Value> = at1["placements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["placement"].clone())
        .collect();
    assert_eq!(json!(texts), st1["legal_moves"]);
    assert_eq!(st1["last_move"]["number"], 1);
    let at0 = get(addr, &format!("/api/v1/games/{id}/placements?at=0")).await.json();
    let first = at0["placements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["placement"] == st1["last_move"]["placement"])
        .expect("the first move was a placement of the start")
        .clone();
    assert_eq!(st1["last_move"]["cubes"], first["cubes"]);
    assert_eq!(
        triples(&first["cubes"]).iter().map(|c| c.2).min(),
        Some(0),
        "the first stone rests on the board"
    );

    for (path, status, error) in [
        (format!("/api/v1/games/{id}/placements?at=x"), 400, "bad_query"),
        (format!("/api/v1/games/{id}/placements?at=-1"), 400, "bad_query"),
        (format!("/api/v1/games/{id}/placements?colour=R"), 400, "bad_query"),
        (
            "/api/v1/games/0123456789abcdef/placements".to_string(),
            404,
            "unknown_game",
        ),
    ] {
        let r = get(addr, &path).await;
        assert_eq!(r.status, status, "{path}: {}", r.text());
        assert_eq!(r.json()["error"], error);
    }
    server.stop().await;
}

/// A hint is a legal placement with its cubes; the same position gives the same hint; bad
/// levels are refused; a few at once from one address are bounded; hints change nothing.
async fn hints(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2, "hot_seat": true })).await;
    let id = s(&created["id"]);
    let hint_path = format!("/api/v1/games/{id}/hint");

    let placements = get(addr, &format!("/api/v1/games/{id}/placements")).await.json();
    let r = post(addr, &hint_path, None, &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let h = r.json();
    assert_eq!((h["colour"].clone(), h["level"].clone()), (json!("R"), json!(6)));
    let offered = placements["placements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["placement"] == h["placement"])
        .unwrap_or_else(|| panic!("the hint {} is a legal placement", h["placement"]));
    for field in ["stone", "orientation", "cubes"] {
        assert_eq!(h[field], offered[field], "{field}");
    }
    assert!(h["simulations"].as_u64().unwrap() > 0);
    assert!((0.0..=1.0).contains(&h["estimate"].as_f64().unwrap()));
    // The same position gives the same hint; an empty body is level 6 too.
    let again = client::request(addr, "POST", &hint_path, None, None).await.unwrap();
    assert_eq!(again.status, 200, "{}", again.text());
    assert_eq!(again.json(), h);

    // Several at once from one address: two at most are under way (one waiting for the
    // other), the others are refused at once; every one under way gets its answer.
    let many = futures_util::future::join_all(
        (0..4).map(|_| async { post(addr, &hint_path, None, &json!({ "level": 4 })).await }),
    )
    .await;
    let mut answered = 0;
    for r in &many {
        if r.status == 429 {
            assert_eq!(r.json()["error"], "too_many_searches", "{}", r.text());
            continue;
        }
        assert_eq!(r.status, 200, "{}", r.text());
        assert_eq!(r.json()["level"], 4);
        answered += 1;
    }
    assert!(answered >= 2, "{answered} answered");

    let before = state(addr, &id).await;
    for (body, status, error) in [
        (json!({ "level": 3 }), 400, "bad_level"),
        (json!({ "level": 10 }), 400, "bad_level"),
        (json!({ "level": -1 }), 400, "bad_level"),
        (json!({ "level": 1000 }), 400, "bad_level"),
        (json!({ "level": "5" }), 400, "bad_json"),
        (json!({ "level": 5, "colour": "R" }), 400, "bad_json"),
    ] {
        let r = post(addr, &hint_path, None, &body).await;
        assert_eq!(r.status, status, "{body}: {}", r.text());
        assert_eq!(r.json()["error"], error, "{body}");
        assert!(r.json()["reason"].as_str().is_some_and(|t| !t.is_empty()));
    }
    let r = post(addr, "/api/v1/games/0123456789abcdef/hint", None, &json!({})).await;
    assert_eq!((r.status, r.json()["error"].clone()), (404, json!("unknown_game")));
    let r = get(addr, "/api/v1/games/0123456789abcdef/analysis").await;
    assert_eq!((r.status, r.json()["error"].clone()), (404, json!("unknown_game")));
    let r = get(addr, &hint_path).await;
    assert_eq!(r.status, 405);
    assert_eq!(state(addr, &id).await, before, "hints change nothing");
    server.stop().await;
}

/// An analysis has an estimate per colour for every position and follows the game's moves
/// (an undo too); a finished game has no hint.
async fn analysis(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2, "hot_seat": true })).await;
    let id = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    let hint_path = format!("/api/v1/games/{id}/hint");
    // Three moves, an analysis; take the third back and play another: a new analysis.
    for n in 1..=3 {
        let st = state(addr, &id).await;
        let m = s(&st["legal_moves"][0]);
        assert_eq!(play(addr, &id, Some(&token), &m, n).await.status, 201);
    }
    let analysis_path = format!("/api/v1/games/{id}/analysis");
    let a3 = get(addr, &analysis_path).await.json();
    assert_eq!(a3["estimates"].as_array().unwrap().len(), 4);
    let undo = post(
        addr,
        &format!("/api/v1/games/{id}/undo"),
        Some(&token),
        &json!({ "expected_move_number": 4 }),
    )
    .await;
    assert_eq!(undo.status, 200, "{}", undo.text());
    let st = state(addr, &id).await;
    let other = s(st["legal_moves"].as_array().unwrap().last().unwrap());
    assert_ne!(json!(other), a3["moves"][2]["placement"]);
    assert_eq!(play(addr, &id, Some(&token), &other, 3).await.status, 201);
    let b3 = get(addr, &analysis_path).await.json();
    assert_eq!(
        b3["moves"][2]["placement"],
        json!(other),
        "not the analysis before the undo"
    );

    // To the end: no hint then; the analysis covers every position.
    loop {
        let st = state(addr, &id).await;
        if st["over"] == true {
            break;
        }
        let m = s(&st["legal_moves"][0]);
        let n = st["move_number"].as_i64().unwrap();
        assert_eq!(play(addr, &id, Some(&token), &m, n).await.status, 201);
    }
    let r = post(addr, &hint_path, None, &json!({})).await;
    assert_eq!((r.status, r.json()["error"].clone()), (409, json!("game_over")));
    let st = state(addr, &id).await;
    let moves = st["moves"].as_array().unwrap();
    let r = get(addr, &analysis_path).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let a = r.json();
    assert_eq!(a["colours"], json!(["R", "Y"]));
    assert_eq!(a["simulations"], 200);
    let estimates = a["estimates"].as_array().unwrap();
    assert_eq!(estimates.len(), moves.len() + 1);
    for e in estimates {
        let e = e.as_object().unwrap();
        assert_eq!(e.keys().collect::<Vec<_>>(), vec!["R", "Y"]);
        assert!(e.values().all(|v| (0.0..=1.0).contains(&v.as_f64().unwrap())), "{e:?}");
    }
    let analysed = a["moves"].as_array().unwrap();
    assert_eq!(analysed.len(), moves.len());
    for (i, (m, played)) in analysed.iter().zip(moves).enumerate() {
        assert_eq!(m["number"], i + 1);
        assert_eq!(
            (m["colour"].clone(), m["placement"].clone()),
            (played["colour"].clone(), played["placement"].clone())
        );
        let c = s(&m["colour"]);
        let loss = estimates[i][&c].as_f64().unwrap() - estimates[i + 1][&c].as_f64().unwrap();
        assert!((m["loss"].as_f64().unwrap() - loss).abs() < 1e-3, "{m} vs {loss}");
    }
    let worst: Vec<usize> = a["worst"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap() as usize)
        .collect();
    assert!(worst.len() <= 5);
    let loss_of = |n: usize| analysed[n - 1]["loss"].as_f64().unwrap();
    assert!(worst.iter().all(|&n| loss_of(n) > 0.0));
    assert!(worst.windows(2).all(|w| loss_of(w[0]) >= loss_of(w[1])));
    let most = (1..=analysed.len()).map(loss_of).fold(f64::MIN, f64::max);
    if most > 0.0 {
        assert_eq!(loss_of(worst[0]), most);
    }
    // The winner's estimate at the end is the higher.
    let winner = st["winners"][0].as_u64().unwrap() as usize;
    let last = estimates.last().unwrap();
    let (w, l) = (["R", "Y"][winner], ["R", "Y"][1 - winner]);
    assert!(last[w].as_f64().unwrap() >= last[l].as_f64().unwrap());
    // Asked again: the same (kept) answer.
    assert_eq!(get(addr, &analysis_path).await.json(), a);
    server.stop().await;
}
