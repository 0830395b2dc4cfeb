//! Memory under many boards of one's own: a server on 127.0.0.1 with a fresh SQLite file,
//! and games created on N distinct boards of the largest size (16 x 8 columns, every cell
//! buildable). Prints the process's resident memory as boards are added: the cache of
//! prepared sites keeps to its bytes (`SITE_CACHE_BYTES`), so memory levels off.
//!
//! cargo run --release -p rumis-server --example board_cache -- [BOARDS]

use rumis_server::Config;
use rumis_test_client as client;
use serde_json::json;

/// The process's resident memory in MB (Linux).
fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// A 16 x 8 board, all buildable, its name making it distinct.
fn board(i: usize) -> String {
    let row = "#".repeat(16);
    let grid = vec![row; 8].join("\n");
    format!(
        "name = \"Big {i}\"\nprovenance = \"reconstruction\"\nsource = \"A load test.\"\n\
         hmax = {{ 2 = 4, 3 = 4, 4 = 4 }}\ngrid = \"\"\"\n{grid}\n\"\"\"\n"
    )
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let boards: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(400);
    let dir = std::env::temp_dir().join(format!("rumis-board-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::new(
        "127.0.0.1:0".parse().unwrap(),
        format!("sqlite://{}", dir.join("cache.db").display()),
    );
    config.rate_burst = 1e9;
    config.rate_per_second = 1e9;
    let server = rumis_server::start(config).await.expect("server starts");
    let addr = server.addr;
    println!("boards  RSS (MB)");
    println!("{:>6}  {:>8.0}", 0, rss_mb());
    for i in 0..boards {
        let seats = json!([{ "kind": "human" }, { "kind": "human" }]);
        let r = client::post(
            addr,
            "/api/v1/games",
            None,
            &json!({ "board_file": board(i), "players": 2, "seats": seats }),
        )
        .await
        .expect("create");
        assert_eq!(r.status, 201, "{}", r.text());
        // The placements of the first move: the site's tables are used, not only built.
        let id = r.json()["id"].as_str().unwrap().to_string();
        let p = client::get(addr, &format!("/api/v1/games/{id}/placements"))
            .await
            .expect("placements");
        assert_eq!(p.status, 200);
        if (i + 1) % 50 == 0 {
            println!("{:>6}  {:>8.0}", i + 1, rss_mb());
        }
    }
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}
