//! A bounded load run: a server on 127.0.0.1 with a fresh SQLite file, and scripted clients
//! playing many games at once to the end (every seat human, moves picked from the legal
//! list). Reports games, moves per second and the p50/p99 latency of a move submission.
//!
//! cargo run --release -p rumis-server --example load -- [GAMES] [BOARD] [PLAYERS]
//! (RUMIS_LOAD_DATABASE_URL=postgres://… to run it on another database)

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use rumis_server::Config;
use rumis_test_client as client;
use serde_json::{json, Value};

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(50);
    let board = args.get(2).cloned().unwrap_or_else(|| "chullpa".into());
    let players: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(4);

    let dir = std::env::temp_dir().join(format!("rumis-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // RUMIS_LOAD_DATABASE_URL: another database (e.g. an empty PostgreSQL one).
    let url = std::env::var("RUMIS_LOAD_DATABASE_URL")
        .unwrap_or_else(|_| format!("sqlite://{}", dir.join("load.db").display()));
    let mut config = Config::new("127.0.0.1:0".parse().unwrap(), url);
    config.rate_burst = 1e9;
    config.rate_per_second = 1e9;
    let server = rumis_server::start(config).await.expect("server starts");
    let addr = server.addr;

    let started = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..games {
        let board = board.clone();
        tasks.push(tokio::spawn(play_game(addr, board, players, g)));
    }
    let mut all: Vec<Duration> = Vec::new();
    let mut errors = Vec::new();
    for t in tasks {
        let (l, e) = t.await.expect("a client task");
        all.extend(l);
        errors.extend(e);
    }
    let elapsed = started.elapsed();
    all.sort();
    let pct = |p: f64| all[((all.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "{games} games ({board}, {players} players), {} moves in {:.2} s: {:.0} moves/s; move submission p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; errors {}",
        all.len(),
        elapsed.as_secs_f64(),
        all.len() as f64 / elapsed.as_secs_f64(),
        pct(0.5).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        all.last().unwrap().as_secs_f64() * 1e3,
        errors.len()
    );
    for e in errors.iter().take(5) {
        println!("error: {e}");
    }
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// One client's game: made, then played to its end (the `k`-th legal move of seven
/// steps, from `g` on); each move submission's time, and the answers that were not 201.
async fn play_game(addr: SocketAddr, board: String, players: usize, g: usize) -> (Vec<Duration>, Vec<String>) {
    let r = client::post(
        addr,
        "/api/v1/games",
        None,
        &json!({ "board": board, "players": players }),
    )
    .await
    .expect("create");
    assert_eq!(r.status, 201, "{}", r.text());
    let created = r.json();
    let id = created["id"].as_str().unwrap().to_string();
    let tokens: Vec<String> = created["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    let mut latencies = Vec::new();
    let mut errors = Vec::new();
    let mut k = g;
    loop {
        let st: Value = client::get(addr, &format!("/api/v1/games/{id}"))
            .await
            .expect("state")
            .json();
        if st["over"] == true {
            break;
        }
        let seat = st["seat_to_move"].as_u64().unwrap() as usize;
        let legal = st["legal_moves"].as_array().unwrap();
        let m = legal[(k * 7) % legal.len()].as_str().unwrap().to_string();
        k += 1;
        let body = json!({ "placement": m, "expected_move_number": st["move_number"] });
        let t = Instant::now();
        let r = client::post(addr, &format!("/api/v1/games/{id}/moves"), Some(&tokens[seat]), &body)
            .await
            .expect("move");
        latencies.push(t.elapsed());
        if r.status != 201 {
            errors.push(r.text());
            break;
        }
    }
    // Nothing lost: the stored game has every acknowledged move.
    let st: Value = client::get(addr, &format!("/api/v1/games/{id}"))
        .await
        .expect("state")
        .json();
    assert_eq!(
        st["moves_played"].as_u64().unwrap() as usize,
        latencies.len() - errors.len()
    );
    (latencies, errors)
}
