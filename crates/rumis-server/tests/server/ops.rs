//! Operating a server: `/healthz`, `/readyz`, `/metrics` (scraped before and after a game)
//! and the request id on every answer. The stop (readyz 503 while draining) is in
//! `shutdown.rs`.

use crate::common;

use common::*;
use serde_json::json;

/// The value of the sample `name` (with exactly these labels, `""` for none) in a scrape.
fn sample(text: &str, name: &str, labels: &str) -> Option<f64> {
    let key = if labels.is_empty() {
        name.to_string()
    } else {
        format!("{name}{{{labels}}}")
    };
    text.lines()
        .find_map(|l| l.strip_prefix(&key)?.strip_prefix(' ')?.trim().parse().ok())
}

// long: one game's life (made, moved, watched, ended, the server drained) with the metrics
// read after each step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_readiness_and_metrics_move_with_a_game() {
    let dir = TempDir::new("ops");
    let server = start(config(&dir.db_url())).await;
    let addr = server.addr;

    let alive = get(addr, "/healthz").await;
    assert_eq!((alive.status, alive.json()), (200, json!({ "status": "alive" })));
    let ready = get(addr, "/readyz").await;
    assert_eq!((ready.status, ready.json()), (200, json!({ "status": "ready" })));
    let id = ready.header("x-request-id").expect("a request id").to_string();
    assert!(!id.is_empty() && id.len() <= 64, "{id}");
    let next = get(addr, "/readyz").await;
    assert_ne!(
        next.header("x-request-id"),
        Some(id.as_str()),
        "each request its own id"
    );
    // A proxy's plain id is kept; one that is not a plain token is replaced.
    let with_id =
        |id: &str| format!("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: {id}\r\nConnection: close\r\n\r\n");
    let given = client::raw(addr, with_id("proxy-7.a_b").as_bytes()).await.unwrap();
    assert_eq!(given.header("x-request-id"), Some("proxy-7.a_b"));
    let odd = client::raw(addr, with_id("a/b").as_bytes()).await.unwrap();
    assert!(
        odd.header("x-request-id").is_some_and(|v| v != "a/b"),
        "{:?}",
        odd.headers
    );

    let before = get(addr, "/metrics").await;
    assert_eq!(before.status, 200);
    assert!(
        before
            .header("content-type")
            .is_some_and(|c| c.starts_with("application/openmetrics-text")),
        "{:?}",
        before.headers
    );
    let before = before.text();
    assert_eq!(
        sample(&before, "rumis_moves_committed_total", ""),
        Some(0.0),
        "{before}"
    );
    assert_eq!(sample(&before, "rumis_draining", ""), Some(0.0), "{before}");
    let waited = |text: &str| sample(text, "rumis_ai_queue_wait_seconds_count", r#"kind="move""#);
    assert_eq!(waited(&before), None, "no AI move has waited yet: {before}");

    // A game against the AI: a move each.
    let created = create(
        addr,
        json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
    )
    .await;
    let game = s(&created["id"]);
    let token = tokens(&created)[0].clone().unwrap();
    let mut ws = subscribe(addr, &game).await;
    next_of(&mut ws, "snapshot").await;
    assert_eq!(play(addr, &game, Some(&token), "L4@a1,a2,a3,b1", 1).await.status, 201);
    let reply = next_of(&mut ws, "move").await;
    let reply = if reply["number"] == 1 {
        next_of(&mut ws, "move").await
    } else {
        reply
    };
    assert_eq!(reply["by"], "ai", "{reply}");

    let after = get(addr, "/metrics").await.text();
    assert_eq!(sample(&after, "rumis_moves_committed_total", ""), Some(2.0), "{after}");
    // The AI's move waited in the queue once (a free thread: briefly, but counted).
    assert_eq!(waited(&after), Some(1.0), "{after}");
    assert!(
        sample(&after, "rumis_ai_queue_wait_seconds_sum", r#"kind="move""#).is_some_and(|s| s >= 0.0),
        "{after}"
    );
    let moves = r#"route="/api/v1/games/{id}/moves",method="POST",status="201""#;
    assert_eq!(sample(&after, "rumis_http_requests_total", moves), Some(1.0), "{after}");
    let created_games = r#"route="/api/v1/games",method="POST",status="201""#;
    assert_eq!(
        sample(&after, "rumis_http_requests_total", created_games),
        Some(1.0),
        "{after}"
    );
    let ready = r#"route="/readyz",method="GET",status="200""#;
    assert_eq!(sample(&after, "rumis_http_requests_total", ready), Some(2.0), "{after}");
    assert!(
        sample(
            &after,
            "rumis_http_request_duration_seconds_count",
            r#"route="/api/v1/games/{id}/moves""#
        ) == Some(1.0),
        "{after}"
    );
    assert_eq!(
        sample(&after, "rumis_websockets_open", r#"kind="game""#),
        Some(1.0),
        "{after}"
    );
    assert_eq!(
        sample(&after, "rumis_websockets_open", r#"kind="lobby""#),
        Some(0.0),
        "{after}"
    );
    assert!(
        sample(&after, "rumis_ai_queue_games", r#"state="waiting""#).is_some(),
        "{after}"
    );
    assert!(sample(&after, "rumis_searches_running", "").is_some(), "{after}");
    assert!(
        sample(&after, "rumis_db_connections", r#"state="idle""#).is_some(),
        "{after}"
    );
    assert_eq!(sample(&after, "rumis_clocks_pending", ""), Some(0.0), "{after}");
    // Routes by template: no game's id is a label.
    assert!(!after.contains(&game), "{after}");

    // A path no route matches counts as `other`.
    get(addr, "/api/v1/no-such-thing").await;
    let last = get(addr, "/metrics").await.text();
    let other = r#"route="other",method="GET",status="404""#;
    assert_eq!(sample(&last, "rumis_http_requests_total", other), Some(1.0), "{last}");
    server.stop().await;
}

/// `--metrics-addr`: `/metrics` on its own listener, and then not on the public address
/// (without it, the test above scrapes the public address).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_on_their_own_address_only() {
    let dir = TempDir::new("ops-metrics-addr");
    let mut config = config(&dir.db_url());
    config.metrics_addr = Some("127.0.0.1:0".parse().unwrap());
    let server = start(config).await;
    let own = server.metrics_addr.expect("a /metrics address");
    assert_ne!(own, server.addr);

    let scraped = get(own, "/metrics").await;
    assert_eq!(scraped.status, 200);
    let text = scraped.text();
    assert_eq!(sample(&text, "rumis_draining", ""), Some(0.0), "{text}");
    let public = get(server.addr, "/metrics").await;
    assert_eq!(public.status, 404, "{}", public.text());
    assert!(!public.text().contains("rumis_"), "{}", public.text());
    // Only /metrics there: not the API, not the web app.
    assert_eq!(get(own, "/api/v1").await.status, 404);
    assert_eq!(get(server.addr, "/api/v1").await.status, 200);
    // The public address's requests are still counted, on the scrape from the other.
    let text = get(own, "/metrics").await.text();
    let api = r#"route="/api/v1",method="GET",status="200""#;
    assert_eq!(sample(&text, "rumis_http_requests_total", api), Some(1.0), "{text}");
    server.stop().await;
}
