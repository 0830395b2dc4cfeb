//! The server's edge, in process on 127.0.0.1: JSON bodies on every error the HTTP layer
//! gives, requests that change something only as JSON and only from the server's own
//! pages, `X-Forwarded-For` believed only from the trusted proxy, no static file through a
//! link out of the web directory, searches in a line per client address, pipelined requests
//! all answered, and the caps on event WebSockets.

use crate::common;

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use common::*;
use rumis_test_client as client;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpSocket;

/// Raw bytes from a given loopback address; the answer once the server closes.
async fn raw_from(from: IpAddr, to: SocketAddr, request: &[u8]) -> client::Response {
    tokio::time::timeout(WAIT, async {
        let socket = TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(from, 0)).unwrap();
        let s = socket.connect(to).await.unwrap();
        // The server may answer (and close) before all is sent: a write error is fine. Write
        // and read at once, so that a large body the server refuses without reading cannot
        // hold the writer (a loaded machine's small socket buffers fill before 60 KB).
        let (mut rd, mut wr) = s.into_split();
        let write = async move {
            let _ = wr.write_all(request).await;
            wr
        };
        let read = async move {
            let mut buf = Vec::new();
            let _ = rd.read_to_end(&mut buf).await;
            buf
        };
        let (_wr, buf) = tokio::join!(write, read);
        parse(&buf)
    })
    .await
    .expect("answered in time")
}

fn parse(buf: &[u8]) -> client::Response {
    let text = String::from_utf8_lossy(buf);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no head in {text:?}"));
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    client::Response {
        status,
        headers,
        body: body.as_bytes().to_vec(),
    }
}

fn local() -> IpAddr {
    "127.0.0.1".parse().unwrap()
}

/// The status and the JSON error code, asserting that the body is the API's error.
fn error_of(r: &client::Response) -> (u16, String) {
    let v: Value =
        serde_json::from_slice(&r.body).unwrap_or_else(|_| panic!("{} without JSON: {:?}", r.status, r.text()));
    assert!(
        r.header("content-type")
            .is_some_and(|c| c.starts_with("application/json")),
        "{:?}",
        r.headers
    );
    assert!(v["reason"].as_str().is_some_and(|s| !s.is_empty()), "{v}");
    (r.status, v["error"].as_str().unwrap_or("").to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_error_of_the_http_layer_has_a_json_body() {
    let db = TempDir::new("edge-errors");
    let server = start(config(&db.db_url())).await;
    let addr = server.addr;
    let big_header = format!(
        "GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(200 * 1024)
    );
    let long_uri = format!("GET /api/v1/{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
    let cases: Vec<(&str, Vec<u8>, u16, &str)> = vec![
        ("headers too large", big_header.into_bytes(), 431, "headers_too_large"),
        ("URI too long", long_uri.into_bytes(), 414, "uri_too_long"),
        ("not HTTP", b"\x16\x03\x01garbage\r\n\r\n".to_vec(), 400, "bad_request"),
        ("bad header", b"GET /api/v1 HTTP/1.1\r\nHo st: x\r\n\r\n".to_vec(), 400, "bad_request"),
        (
            "bad length",
            b"POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n".to_vec(),
            400,
            "bad_request",
        ),
        (
            "body too large",
            format!(
                // Over the 48 KB that game creation takes (a board file inline).
                "POST /api/v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{}",
                " ".repeat(60_000)
            )
            .into_bytes(),
            413,
            "body_too_large",
        ),
        (
            "method",
            b"DELETE /api/v1/boards HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_vec(),
            405,
            "method_not_allowed",
        ),
        ("no route", b"GET /api/v9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(), 404, "not_found"),
    ];
    for (what, request, status, code) in cases {
        let r = raw_from(local(), addr, &request).await;
        assert_eq!(error_of(&r), (status, code.to_string()), "{what}: {}", r.text());
    }
    // A HEAD gets its error without a body, as HTTP wants.
    let r = raw_from(
        local(),
        addr,
        b"HEAD /api/v9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!((r.status, r.body.len()), (404, 0));
    assert_eq!(get(addr, "/api/v1").await.status, 200, "still serving");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_only_as_json_and_only_from_the_servers_own_pages() {
    let db = TempDir::new("edge-origin");
    let server = start(config(&db.db_url())).await;
    let addr = server.addr;
    let body = r#"{"board":"chullpa","players":2}"#;
    let send = |headers: &str| {
        format!(
            "POST /api/v1/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    let cases = [
        ("Content-Type: text/plain\r\n", 415, "unsupported_media_type"),
        (
            "Content-Type: application/x-www-form-urlencoded\r\n",
            415,
            "unsupported_media_type",
        ),
        ("", 415, "unsupported_media_type"),
        (
            "Content-Type: application/json\r\nOrigin: http://evil.example\r\n",
            403,
            "foreign_origin",
        ),
        (
            "Content-Type: application/json\r\nOrigin: null\r\n",
            403,
            "foreign_origin",
        ),
        // A forwarded host is believed only from the trusted proxy (issue #50): here there
        // is none, so the page's origin is still not the server's.
        (
            "Content-Type: application/json\r\nOrigin: http://evil.example\r\nX-Forwarded-Host: evil.example\r\n",
            403,
            "foreign_origin",
        ),
    ];
    for (headers, status, code) in cases {
        let r = raw_from(local(), addr, &send(headers)).await;
        assert_eq!(error_of(&r), (status, code.to_string()), "{headers}: {}", r.text());
    }
    let listed = get(addr, "/api/v1/games").await.json();
    assert_eq!(listed["games"].as_array().unwrap().len(), 0, "nothing was created");
    // JSON from the server's own page, or from a program (no Origin), is taken.
    let own = format!("Content-Type: application/json; charset=utf-8\r\nOrigin: http://{addr}\r\n");
    assert_eq!(raw_from(local(), addr, &send(&own)).await.status, 201);
    assert_eq!(
        raw_from(local(), addr, &send("Content-Type: application/json\r\n"))
            .await
            .status,
        201
    );
    // Reading stays open to any page.
    let r = raw_from(
        local(),
        addr,
        format!(
            "GET /api/v1/games HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    )
    .await;
    assert_eq!(r.status, 200);

    // A POST without a body may say no type (`fetch(url, {method: "POST"})`; issue #50: it
    // got 415): a resignation so reaches the route, which asks for the token. From another
    // site's page it is still refused, by its Origin; with a body it still needs JSON.
    let created = raw_from(local(), addr, &send("Content-Type: application/json\r\n")).await;
    let id = serde_json::from_slice::<Value>(&created.body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let resign = |headers: &str, body: &str| {
        format!("POST /api/v1/games/{id}/resign HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n{body}")
            .into_bytes()
    };
    for (headers, body, status, code) in [
        ("Content-Length: 0\r\n", "", 401, "missing_token"),
        ("", "", 401, "missing_token"),
        (
            "Content-Length: 0\r\nOrigin: http://evil.example\r\n",
            "",
            403,
            "foreign_origin",
        ),
        ("Content-Length: 2\r\n", "{}", 415, "unsupported_media_type"),
        (
            "Transfer-Encoding: chunked\r\n",
            "0\r\n\r\n",
            415,
            "unsupported_media_type",
        ),
    ] {
        let r = raw_from(local(), addr, &resign(headers, body)).await;
        assert_eq!(error_of(&r), (status, code.to_string()), "{headers}: {}", r.text());
    }
    server.stop().await;
}

/// Requests written together on one connection (HTTP/1.1 pipelining) are all answered, in
/// order (issue #50 saw only the first answered).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pipelined_requests_are_all_answered() {
    let db = TempDir::new("edge-pipelining");
    let server = start(config(&db.db_url())).await;
    let addr = server.addr;
    let post = |name: &str| {
        let body = format!(r#"{{"name":"{name}"}}"#);
        format!(
            "POST /api/v1/players HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let get = format!("GET /api/v1/boards HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    let last = format!("GET /api/v1/stones HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let all = format!("{}{get}{}{last}", post("Ana"), post("Ben"));
    let bytes = tokio::time::timeout(WAIT, async {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(all.as_bytes()).await.unwrap();
        let mut buf = Vec::new();
        let _ = s.read_to_end(&mut buf).await;
        buf
    })
    .await
    .expect("answered in time");
    let text = String::from_utf8_lossy(&bytes);
    let statuses: Vec<&str> = text
        .match_indices("HTTP/1.1 ")
        .map(|(i, _)| &text[i + 9..i + 12])
        .collect();
    assert_eq!(statuses, ["201", "200", "201", "200"], "{text:.400}");
    server.stop().await;
}

/// Five requests from the proxy's address, speaking for `client`; the statuses.
async fn through_proxy(addr: SocketAddr, client: &str) -> Vec<u16> {
    let mut out = Vec::new();
    for _ in 0..5 {
        let req = format!(
            "GET /api/v1 HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 6.6.6.6, {client}\r\nConnection: close\r\n\r\n"
        );
        out.push(raw_from(local(), addr, req.as_bytes()).await.status);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_for_is_believed_only_from_the_trusted_proxy() {
    let db = TempDir::new("edge-proxy");
    let mut c = config(&db.db_url());
    c.rate_burst = 3.0;
    c.rate_per_second = 0.0;
    c.limits.trusted_proxy = Some(local());
    let server = start(c.clone()).await;
    // Each client behind the proxy has its own bucket of three.
    assert_eq!(through_proxy(server.addr, "10.0.0.1").await, [200, 200, 200, 429, 429]);
    assert_eq!(through_proxy(server.addr, "10.0.0.2").await, [200, 200, 200, 429, 429]);
    server.stop().await;
    // Without --trusted-proxy the header is ignored: one bucket for the peer.
    c.limits.trusted_proxy = None;
    let server = start(c).await;
    assert_eq!(through_proxy(server.addr, "10.0.0.1").await, [200, 200, 200, 429, 429]);
    assert_eq!(through_proxy(server.addr, "10.0.0.2").await, [429; 5]);
    server.stop().await;
}

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_static_file_through_a_link_out_of_the_web_directory() {
    let dir = TempDir::new("edge-links");
    let web = dir.0.join("dist");
    std::fs::create_dir_all(web.join("assets")).unwrap();
    std::fs::create_dir_all(dir.0.join("private")).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>rumis app</title>").unwrap();
    std::fs::write(dir.0.join("private/key.txt"), "SECRET-OUTSIDE").unwrap();
    std::os::unix::fs::symlink(dir.0.join("private/key.txt"), web.join("key.txt")).unwrap();
    std::os::unix::fs::symlink(dir.0.join("private"), web.join("assets/private")).unwrap();
    std::os::unix::fs::symlink(web.join("index.html"), web.join("home.html")).unwrap();
    let mut c = config(&dir.db_url());
    c.web_dir = Some(web);
    let server = start(c).await;
    for path in ["/key.txt", "/assets/private/key.txt", "/assets/private/", "/%6Bey.txt"] {
        let r = get(server.addr, path).await;
        assert!(!r.text().contains("SECRET"), "{path} leaked");
        assert_eq!(error_of(&r), (404, "not_found".to_string()), "{path}");
    }
    // A link that stays inside is served.
    let r = get(server.addr, "/home.html").await;
    assert_eq!((r.status, r.text().contains("rumis app")), (200, true));
    server.stop().await;
}

/// A hint from 127.0.0.2 while 127.0.0.1 floods level-9 hints (4.5 s each): the flood
/// waits in its own line (and beyond two under way is refused), so the other address's
/// hint does not wait behind it.
///
/// Level 9's 4.5 s are counted on the test's manual time (time.rs, `SearchTime`): no hint
/// of the flood ends by itself before the test moves the time on, however slow the
/// machine, so the other hint's answer cannot have waited for one to end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_hints_waits_in_its_own_line() {
    let db = TempDir::new("edge-hints");
    let c = config(&db.db_url());
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    // At one table (hot seat): hints are for games not played between people (fair play).
    let created = create(addr, json!({ "board": "chullpa", "players": 2, "hot_seat": true })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let hint = |level: u8| {
        let body = json!({ "level": level }).to_string();
        format!(
            "POST /api/v1/games/{id}/hint HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    };
    let flood: Vec<_> = (0..6)
        .map(|_| {
            let req = hint(9);
            tokio::spawn(async move { raw_from(local(), addr, &req).await.status })
        })
        .collect();
    // The flood's refusals are answered and its search under way.
    let flooding = &flood;
    eventually("the flood's hints under way", || async move {
        let metrics = get(addr, "/metrics").await.text();
        let refused = flooding.iter().filter(|f| f.is_finished()).count();
        if refused == 4 && metrics.lines().any(|l| l == "rumis_searches_running 1") {
            Ok(())
        } else {
            Err(format!("{refused} answered; {metrics}"))
        }
    })
    .await;
    let t = Instant::now();
    let r = raw_from("127.0.0.2".parse().unwrap(), addr, &hint(4)).await;
    let waited = t.elapsed();
    assert_eq!(r.status, 200, "{}", r.text());
    let still_searching = flood.iter().filter(|f| !f.is_finished()).count();
    // The flood's searches end when their time has passed: the one under way, then the one
    // that waited in its address's line behind it (its time counted from its start).
    let flooding = &flood;
    let time = &time;
    eventually("the flood's hints end", || async move {
        time.advance(search_time());
        let left = flooding.iter().filter(|f| !f.is_finished()).count();
        if left == 0 {
            Ok(())
        } else {
            Err(format!("{left} still searching"))
        }
    })
    .await;
    let mut statuses = Vec::new();
    for f in flood {
        statuses.push(f.await.unwrap());
    }
    statuses.sort();
    eprintln!("a level-4 hint from another address during a level-9 flood: {waited:?}; the flood got {statuses:?}");
    assert_eq!(statuses, [200, 200, 429, 429, 429, 429]);
    assert!(
        still_searching >= 1,
        "the other hint was answered when the flood's searches had all ended"
    );
    server.stop().await;
}

/// Level 9's time a move.
fn search_time() -> Duration {
    rumis_ai::level_config(9).time.expect("level 9 searches for a time")
}

async fn ws_upgrade_status(from: IpAddr, addr: SocketAddr, id: &str) -> (u16, Option<tokio::net::TcpStream>) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let mut s = socket.connect(addr).await.unwrap();
    let req = format!(
        "GET /api/v1/games/{id}/events HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    // A 101's head alone (the frames after it are the caller's), read byte by byte.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let n = tokio::time::timeout(WAIT, s.read(&mut byte)).await.unwrap().unwrap();
        assert_eq!(n, 1, "the server closed before its answer");
        head.push(byte[0]);
    }
    let status: u16 = String::from_utf8_lossy(&head)
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let mut text = String::from_utf8_lossy(&head).to_string();
    if status != 101 {
        let mut buf = vec![0u8; 4096];
        let n = tokio::time::timeout(WAIT, s.read(&mut buf)).await.unwrap().unwrap();
        text.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    if status == 101 {
        (status, Some(s))
    } else {
        assert!(text.contains("too_many_sockets"), "{text}");
        (status, None)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_sockets_are_capped_per_address_and_per_game() {
    let db = TempDir::new("edge-ws");
    let mut c = config(&db.db_url());
    c.ws.per_address = 3;
    c.ws.per_game = 5;
    let server = start(c).await;
    let addr = server.addr;
    let a = create(addr, json!({ "board": "chullpa", "players": 2 })).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let b = create(addr, json!({ "board": "chullpa", "players": 2 })).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut open = Vec::new();
    for _ in 0..3 {
        let (status, s) = ws_upgrade_status(local(), addr, &a).await;
        assert_eq!(status, 101);
        open.push(s);
    }
    assert_eq!(
        ws_upgrade_status(local(), addr, &b).await.0,
        429,
        "a fourth from one address"
    );
    let other: IpAddr = "127.0.0.2".parse().unwrap();
    for _ in 0..2 {
        let (status, s) = ws_upgrade_status(other, addr, &a).await;
        assert_eq!(status, 101);
        open.push(s);
    }
    let third: IpAddr = "127.0.0.3".parse().unwrap();
    assert_eq!(ws_upgrade_status(third, addr, &a).await.0, 429, "a sixth on one game");
    assert_eq!(ws_upgrade_status(third, addr, &b).await.0, 101, "another game has room");
    // Closing gives the places back (once the server has seen the sockets close).
    open.truncate(2);
    let upgraded = |from: IpAddr, game: String| async move {
        match ws_upgrade_status(from, addr, &game).await {
            (101, s) => Ok(s),
            (status, _) => Err(format!("{status}")),
        }
    };
    let _third = eventually("a place on the game", || upgraded(third, a.clone())).await;
    let _local = eventually("a place for the address", || upgraded(local(), b.clone())).await;
    server.stop().await;
}

/// A subscriber that does not answer pings is dropped; one that does stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_socket_that_stops_answering_pings_is_dropped() {
    let db = TempDir::new("edge-ping");
    let mut c = config(&db.db_url());
    c.ws.ping_every = Duration::from_millis(300);
    c.ws.pong_timeout = Duration::from_millis(600);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let red = tokens(&created)[0].clone().unwrap();
    // A silent one: upgraded, its snapshot read (its first ping is due from then), and
    // never answering.
    let (status, silent) = ws_upgrade_status(local(), addr, &id).await;
    assert_eq!(status, 101);
    let mut silent = silent.unwrap();
    let mut inbox = Vec::new();
    raw_frame(&mut silent, &mut inbox, 1).await;
    // A live one: tungstenite answers pings while it is read.
    let mut live = subscribe(addr, &id).await;
    assert_eq!(next_event(&mut live).await["type"], "snapshot");
    // A ping is due: both get one, and the live one answers.
    time.advance(Duration::from_millis(300));
    raw_frame(&mut silent, &mut inbox, 9).await;
    answer_ping(&mut live).await;
    // Its pong is overdue: the silent one is dropped.
    time.advance(Duration::from_millis(600));
    raw_closed(&mut silent).await;
    // The live one, pinged again, still gets the next move.
    let r = play(addr, &id, Some(&red), "L4@a1,a2,a3,b1", 1).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let event = next_of(&mut live, "move").await;
    assert_eq!(event["placement"], "L4@a1,a2,a3,b1");
    server.stop().await;
}

/// A subscriber that reads its snapshot and then never reads again, while a hot-seat game
/// goes on (a move and its undo, again and again): once its buffers are full the server
/// drops it (bounded buffers, a send that must go out within `send_timeout`), and another
/// subscriber of the same game gets every event, in order, each within a few seconds of
/// its commit, before and after the drop. Read at last, the slow socket ends: the server
/// closed it rather than keep its events queued for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_is_dropped_and_the_others_keep_up() {
    use futures_util::StreamExt;
    let db = TempDir::new("edge-slow");
    let mut c = config(&db.db_url());
    // Pings would drop the silent one too; here only its being slow may.
    c.ws.ping_every = Duration::from_secs(600);
    c.ws.send_timeout = Duration::from_millis(500);
    let server = start(c).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2, "hot_seat": true })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = tokens(&created)[0].clone().unwrap();

    // The slow one: a small receive buffer, its snapshot read, then never read again.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (mut slow, _) = tokio_tungstenite::client_async(format!("ws://{addr}/api/v1/games/{id}/events"), stream)
        .await
        .unwrap();
    let first = tokio::time::timeout(WAIT, slow.next()).await.unwrap().unwrap().unwrap();
    let first: Value = serde_json::from_str(first.to_text().unwrap()).unwrap();
    assert_eq!(first["type"], "snapshot");
    let mut live = subscribe(addr, &id).await;
    assert_eq!(next_event(&mut live).await["type"], "snapshot");
    // Both sockets, and nothing else, are open.
    eventually("two connections", || async {
        match server.open_connections() {
            2 => Ok(()),
            n => Err(format!("{n} connections")),
        }
    })
    .await;

    let undo = format!("/api/v1/games/{id}/undo");
    let mut published = 0usize;
    let mut slowest = Duration::ZERO;
    let mut dropped_after = None;
    for cycle in 0..4000 {
        let sent = Instant::now();
        let r = play(addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await;
        assert_eq!(r.status, 201, "{}", r.text());
        let e = next_event(&mut live).await;
        assert_eq!(
            (e["type"].clone(), e["number"].clone()),
            (json!("move"), json!(1)),
            "{e}"
        );
        published += e.to_string().len();
        let r = post(addr, &undo, Some(&token), &json!({ "expected_move_number": 2 })).await;
        assert_eq!(r.status, 200, "{}", r.text());
        let e = next_event(&mut live).await;
        assert_eq!(
            (e["type"].clone(), e["removed"].clone()),
            (json!("undo"), json!([1])),
            "{e}"
        );
        published += e.to_string().len();
        slowest = slowest.max(sent.elapsed());
        if dropped_after.is_none() && server.open_connections() == 1 {
            dropped_after = Some(cycle);
        }
        // A few more after the drop: the live one goes on.
        if dropped_after.is_some_and(|d| cycle >= d + 20) {
            break;
        }
    }
    let dropped_after = dropped_after.expect("the slow reader was dropped within 4000 moves and undos");
    assert!(
        slowest < Duration::from_secs(5),
        "an event came {slowest:?} after its request"
    );
    // Read at last: the slow socket ends, after no more than its buffers held.
    let mut received = 0usize;
    let ended = tokio::time::timeout(WAIT, async {
        while let Some(Ok(m)) = slow.next().await {
            received += m.len();
        }
    })
    .await;
    assert!(ended.is_ok(), "the slow socket was closed by the server");
    assert!(
        received <= published,
        "the slow reader got {received} bytes of {published}"
    );
    println!(
        "slow reader dropped after {dropped_after} moves and undos; it got {received} bytes of the {published} \
         published; slowest event {slowest:?}"
    );
    server.stop().await;
}

/// An idle keep-alive connection from `from`, after one answered request.
async fn idle_from(from: IpAddr, to: SocketAddr) -> tokio::net::TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let mut s = socket.connect(to).await.unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n").await.unwrap();
    let mut buf = [0u8; 1024];
    let n = tokio::time::timeout(WAIT, s.read(&mut buf))
        .await
        .expect("answered")
        .unwrap();
    assert!(
        buf[..n].starts_with(b"HTTP/1.1 200"),
        "{:?}",
        String::from_utf8_lossy(&buf[..n])
    );
    s
}

/// Whether the server closed `s` (within a moment).
async fn closed(s: &mut tokio::net::TcpStream) -> bool {
    let mut buf = [0u8; 64];
    matches!(
        tokio::time::timeout(Duration::from_millis(500), s.read(&mut buf)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// At the total cap, a newcomer's address takes the place of an idle connection of the
/// address holding the most (before, idle connections from a few addresses filled the
/// total and every newcomer was turned away).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_the_total_cap_the_heaviest_address_gives_way() {
    let db = TempDir::new("edge-room");
    let mut c = config(&db.db_url());
    c.limits.connections = 12;
    c.limits.connections_per_address = 8;
    let server = start(c).await;
    let addr = server.addr;
    let [heavy, light, newcomer]: [IpAddr; 3] = ["127.0.0.2", "127.0.0.3", "127.0.0.4"].map(|s| s.parse().unwrap());
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(idle_from(heavy, addr).await);
    }
    let mut light_held = Vec::new();
    for _ in 0..4 {
        light_held.push(idle_from(light, addr).await);
    }
    assert_eq!(server.open_connections(), 12);

    let r = raw_from(
        newcomer,
        addr,
        b"GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(r.status, 200, "the newcomer is served");
    let mut gone = 0;
    for s in &mut held {
        gone += closed(s).await as usize;
    }
    assert_eq!(gone, 1, "one of the heaviest address's connections made room");
    for s in &mut light_held {
        assert!(!closed(s).await, "the lighter address keeps its connections");
    }
    // The newcomer's place is free again; the heavy address may fill it, but then cannot
    // take one from the light address.
    held.push(idle_from(heavy, addr).await);
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(heavy, 0)).unwrap();
    let mut again = socket.connect(addr).await.unwrap();
    let _ = again.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n").await;
    assert!(closed(&mut again).await, "refused at the total");
    server.stop().await;
}

/// All the bytes of the answer to a raw request from 127.0.0.1.
async fn raw_bytes(to: SocketAddr, request: &[u8]) -> Vec<u8> {
    let mut s = tokio::net::TcpStream::connect(to).await.unwrap();
    s.write_all(request).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut buf))
        .await
        .expect("answered")
        .unwrap();
    buf
}

/// A large answer (a position's placements) goes gzipped to a client that accepts it, and
/// plain to one that does not; a small one goes plain.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_answers_are_gzipped_for_who_accepts_it() {
    let db = TempDir::new("edge-gzip");
    let server = start(config(&db.db_url())).await;
    let addr = server.addr;
    let id = s(&create(addr, json!({ "board": "coricancha", "players": 4 })).await["id"]);
    let ask = |encoding: &str| {
        format!("GET /api/v1/games/{id}/placements HTTP/1.1\r\nhost: x\r\nconnection: close\r\n{encoding}\r\n")
    };
    let plain = raw_bytes(addr, ask("").as_bytes()).await;
    let gzipped = raw_bytes(addr, ask("accept-encoding: gzip\r\n").as_bytes()).await;
    let head = |b: &[u8]| {
        let end = b.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        String::from_utf8_lossy(&b[..end]).to_ascii_lowercase()
    };
    assert!(head(&plain).starts_with("http/1.1 200"), "{}", head(&plain));
    assert!(!head(&plain).contains("content-encoding"), "{}", head(&plain));
    assert!(head(&gzipped).contains("content-encoding: gzip"), "{}", head(&gzipped));
    assert!(
        gzipped.len() * 4 < plain.len(),
        "{} bytes gzipped, {} plain",
        gzipped.len(),
        plain.len()
    );
    // A small answer is not worth it.
    let index = raw_bytes(
        addr,
        b"GET /api/v1 HTTP/1.1\r\nhost: x\r\nconnection: close\r\naccept-encoding: gzip\r\n\r\n",
    )
    .await;
    assert!(!head(&index).contains("content-encoding"), "{}", head(&index));
    server.stop().await;
}
