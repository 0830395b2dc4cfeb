//! A bounded measurement of per-game event channels: the move rate on unrelated games with
//! and without N idle WebSocket subscribers of another game (issue 16: with one channel for
//! every game, 2 000 idle subscribers of one game cut the move rate of an unrelated game
//! from 233 to 34 per second). Loopback only; a fresh SQLite file.
//!
//! The machine is shared and noisy, and the rate drifts down as the database grows, so the
//! two conditions are measured in alternating blocks in one run: pairs of blocks, one
//! alone and one beside the subscribers, in the order AB, BA, AB, … (a steady drift then
//! falls on both alike). Each block plays on fresh games; the subscribers connect before
//! their block and are gone (their closing seen by the server) before the next. The
//! figures: every block's rate, the median of each condition, and the median of the
//! pairs' ratios.
//!
//! cargo run --release -p rumis-server --example fanout -- [SUBSCRIBERS] [MOVES] [PAIRS]

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use rumis_server::Config;
use rumis_test_client as client;
use serde_json::{json, Value};

/// Plays `moves` moves in fresh hot-seat games on Chullpa, one after another; moves per
/// second.
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

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// `n` idle subscribers of a game of their own, each having read its snapshot.
async fn subscribe(addr: SocketAddr, n: usize) -> Vec<Socket> {
    use futures_util::StreamExt;
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
    let mut sockets = Vec::with_capacity(n);
    for _ in 0..n {
        let url = format!("ws://{addr}/api/v1/games/{id}/events");
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.expect("WebSocket connects");
        ws.next().await.expect("a snapshot").expect("a snapshot");
        sockets.push(ws);
    }
    sockets
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let subscribers: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let moves: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(300);
    let pairs: usize = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(6);
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

    // Warm up (sites prepared, connections made).
    move_rate(addr, moves / 4).await;
    let (mut alone, mut beside, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    println!("block  order  alone moves/s  beside {subscribers} subscribers moves/s");
    for pair in 0..pairs {
        let mut a = 0.0;
        let mut b = 0.0;
        let order = if pair % 2 == 0 { "AB" } else { "BA" };
        for step in order.chars() {
            if step == 'A' {
                a = move_rate(addr, moves).await;
            } else {
                let sockets = subscribe(addr, subscribers).await;
                b = move_rate(addr, moves).await;
                drop(sockets);
                // Until the server has seen them close (its connection count is back).
                let deadline = Instant::now() + Duration::from_secs(30);
                while server.open_connections() > 8 && Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
        println!(
            "{pair:>5}  {order:>5}  {a:>13.0}  {b:>13.0}  ({:+.0}%)",
            (b / a - 1.0) * 100.0
        );
        alone.push(a);
        beside.push(b);
        ratios.push(b / a);
    }
    let (ma, mb, mr) = (median(alone), median(beside), median(ratios));
    println!(
        "medians over {pairs} pairs of {moves} moves: {ma:.0} moves/s alone, {mb:.0} beside {subscribers} idle \
         subscribers of another game; median ratio {mr:.3} ({:+.1}%)",
        (mr - 1.0) * 100.0
    );
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
