//! A bounded measurement of per-game event channels: the move rate on one game, alone and
//! then with N idle WebSocket subscribers on another game (issue 16: with one channel for
//! every game, 2 000 idle subscribers of one game cut the move rate of an unrelated game
//! from 233 to 34 per second). Loopback only; a fresh SQLite file.
//!
//! cargo run -p rumis-server --example fanout -- [SUBSCRIBERS] [MOVES]

use std::net::SocketAddr;
use std::time::Instant;

use rumis_server::{client, Config};
use serde_json::{json, Value};

/// Plays `moves` moves in hot-seat games on Chullpa, one after another; moves per second.
async fn move_rate(addr: SocketAddr, moves: usize) -> f64 {
    let started = Instant::now();
    let mut played = 0;
    while played < moves {
        let created = client::post(
            addr,
            "/api/v1/games",
            None,
            &json!({ "board": "chullpa", "players": 2, "hot_seat": true }),
        )
        .await
        .unwrap()
        .json();
        let id = created["id"].as_str().unwrap().to_string();
        let token = created["seats"][0]["token"].as_str().unwrap().to_string();
        loop {
            let st: Value = client::get(addr, &format!("/api/v1/games/{id}")).await.unwrap().json();
            let Some(m) = st["legal_moves"]
                .as_array()
                .and_then(|l| l.first())
                .and_then(Value::as_str)
            else {
                break;
            };
            let body = json!({ "placement": m, "expected_move_number": st["move_number"] });
            let r = client::post(addr, &format!("/api/v1/games/{id}/moves"), Some(&token), &body)
                .await
                .unwrap();
            assert_eq!(r.status, 201, "{}", r.text());
            played += 1;
            if played >= moves {
                break;
            }
        }
    }
    played as f64 / started.elapsed().as_secs_f64()
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let subscribers: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let moves: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(300);
    let dir = std::env::temp_dir().join(format!("rumis-fanout-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::new(
        "127.0.0.1:0".parse().unwrap(),
        format!("sqlite://{}", dir.join("fanout.db").display()),
    );
    config.rate_burst = 1e9;
    config.rate_per_second = 1e9;
    // Every subscriber comes from loopback: lift the per-address and per-game caps.
    config.ws.per_address = subscribers + 16;
    config.ws.per_game = subscribers + 16;
    config.limits.connections_per_address = subscribers + 256;
    let server = rumis_server::start(config).await.expect("server starts");
    let addr = server.addr;

    // Warm up (sites prepared, connections made), then the rate alone.
    move_rate(addr, moves / 4).await;
    let baseline = move_rate(addr, moves).await;
    // The watched game, and its idle subscribers.
    let watched = client::post(
        addr,
        "/api/v1/games",
        None,
        &json!({ "board": "chullpa", "players": 2 }),
    )
    .await
    .unwrap()
    .json();
    let id = watched["id"].as_str().unwrap().to_string();
    let mut sockets = Vec::new();
    for _ in 0..subscribers {
        let url = format!("ws://{addr}/api/v1/games/{id}/events");
        let (ws, _) = tokio_tungstenite::connect_async(url).await.expect("WebSocket connects");
        sockets.push(ws);
    }
    let loaded = move_rate(addr, moves).await;
    // And alone again, after the subscribers have gone, for the machine's drift.
    let gone = sockets.len();
    drop(sockets);
    let after = move_rate(addr, moves).await;
    println!("{after:.0} moves/s again once the {gone} subscribers had gone");
    println!(
        "moves/s on an unrelated game: {baseline:.0} alone, {loaded:.0} with {subscribers} idle subscribers of another game ({:+.0}%)",
        (loaded / baseline - 1.0) * 100.0
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
