//! Event sockets under a flood and the lobby's fan-out (issue #50): a game's seated player
//! and a lobby visitor still get a socket while strangers from many loopback addresses hold
//! every watcher place they may; a lobby socket that stops answering pings is dropped; and
//! after a burst of lobby changes every subscriber, a slow one too, ends on the newest
//! version, which is what `GET /api/v1/lobby` says.

use crate::common;

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

/// A WebSocket upgrade of `path` from a loopback address, with extra header lines; the
/// status, the answer's head, and the open stream when upgraded (its first bytes unread).
/// A `503 busy` (the game's read waited past the database pool's bound, which a loaded
/// machine meets when hundreds of upgrades come at once) is sent again as a client does
/// (`common::patiently`): a refused upgrade holds no place, so the caps' counts stay exact.
async fn upgrade(from: IpAddr, addr: SocketAddr, path: &str, extra: &str) -> (u16, String, Option<TcpStream>) {
    let mut tries = 0;
    loop {
        let (status, head, s) = upgrade_once(from, addr, path, extra).await;
        if status != 503 || !head.contains("\"busy\"") || tries == BUSY_RETRIES {
            return (status, head, s);
        }
        tries += 1;
        eprintln!("503 busy (try {tries}), upgrading again: {head}");
        tokio::time::sleep(Duration::from_millis(250 * tries as u64)).await;
    }
}

async fn upgrade_once(from: IpAddr, addr: SocketAddr, path: &str, extra: &str) -> (u16, String, Option<TcpStream>) {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(from, 0)).unwrap();
    let mut s = tokio::time::timeout(WAIT, socket.connect(addr)).await.unwrap().unwrap();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{extra}\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    // The head alone: read byte by byte up to its blank line.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        let n = tokio::time::timeout(WAIT, s.read(&mut byte)).await.unwrap().unwrap();
        assert_eq!(
            n,
            1,
            "the server closed before its answer: {:?}",
            String::from_utf8_lossy(&head)
        );
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_string();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    if status == 101 {
        (status, head, Some(s))
    } else {
        // The refusal's body names the cap.
        let mut rest = vec![0u8; 4096];
        let n = tokio::time::timeout(WAIT, s.read(&mut rest))
            .await
            .unwrap()
            .unwrap_or(0);
        (status, format!("{head}{}", String::from_utf8_lossy(&rest[..n])), None)
    }
}

/// The first text message on a raw upgraded stream (an unmasked server frame), as JSON.
async fn first_message(s: &mut TcpStream) -> Value {
    let mut h = [0u8; 2];
    tokio::time::timeout(WAIT, s.read_exact(&mut h)).await.unwrap().unwrap();
    assert_eq!(h[0] & 0x0f, 1, "a text frame");
    let len = match h[1] & 0x7f {
        126 => {
            let mut l = [0u8; 2];
            s.read_exact(&mut l).await.unwrap();
            u16::from_be_bytes(l) as usize
        }
        127 => {
            let mut l = [0u8; 8];
            s.read_exact(&mut l).await.unwrap();
            u64::from_be_bytes(l) as usize
        }
        n => n as usize,
    };
    let mut body = vec![0u8; len];
    tokio::time::timeout(WAIT, s.read_exact(&mut body))
        .await
        .unwrap()
        .unwrap();
    serde_json::from_slice(&body).unwrap()
}

/// Strangers from 17 loopback addresses open watcher sockets on a game until every cap
/// holds (64 an address, 1 024 on the game), and from 40 addresses lobby sockets (32 an
/// address): 2 304 sockets held. The game's seated players still connect — with the bearer,
/// from a flooding address, and with the browser's subprotocol — and so does a lobby
/// visitor; a stranger's watcher does not.
// long: one flood held open while each kind of visitor tries in turn: the sockets must stay
// open all through, so the steps cannot be tests of their own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seated_and_the_lobby_get_a_socket_while_strangers_hold_the_caps() {
    rumis_server::edge::raise_fd_limit();
    let db = TempDir::new("sockets-caps");
    let mut c = config(&db.db_url());
    // The caps are the defaults; only the pings are put off, so that however slowly this
    // runs, no socket that never reads is dropped for missing a pong.
    c.ws.ping_every = Duration::from_secs(600);
    let (per_address, per_game, lobby_per_address, per_seat) =
        (c.ws.per_address, c.ws.per_game, c.ws.lobby_per_address, c.ws.per_seat);
    let server = start(c).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let tokens = tokens(&created);
    let (red, blue) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let game_path = format!("/api/v1/games/{id}/events");

    let t = Instant::now();
    let flooders: Vec<IpAddr> = (0..17).map(|i| ip(&format!("127.0.0.{}", 10 + i))).collect();
    let mut held = Vec::new();
    let (mut watchers, mut refused) = (0, 0);
    for &from in &flooders {
        let opened: Vec<_> =
            futures_util::future::join_all((0..per_address).map(|_| upgrade(from, addr, &game_path, ""))).await;
        for (status, head, s) in opened {
            match status {
                101 => {
                    watchers += 1;
                    held.push(s.unwrap());
                }
                429 => {
                    assert!(head.contains("too_many_sockets"), "{head}");
                    refused += 1;
                }
                other => panic!("{other}: {head}"),
            }
        }
        // One more from this address is over its cap.
        assert_eq!(upgrade(from, addr, &game_path, "").await.0, 429);
    }
    assert_eq!((watchers, refused), (per_game, 17 * per_address - per_game));
    // The lobby's flood, from 40 addresses (the 17 above among them): more than the 1 024
    // places the lobby had in all when it shared a game's caps.
    let lobby_flooders: Vec<IpAddr> = (0..40)
        .map(|i| ip(&format!("127.0.{}.{}", i / 17, 10 + i % 17)))
        .collect();
    let mut lobby_held = 0;
    for &from in &lobby_flooders {
        let opened: Vec<_> = futures_util::future::join_all(
            (0..lobby_per_address).map(|_| upgrade(from, addr, "/api/v1/lobby/events", "")),
        )
        .await;
        for (status, head, s) in opened {
            assert_eq!(status, 101, "{head}");
            held.push(s.unwrap());
            lobby_held += 1;
        }
        assert_eq!(upgrade(from, addr, "/api/v1/lobby/events", "").await.0, 429);
    }
    eprintln!(
        "{} sockets held by 40 addresses ({watchers} watching, {lobby_held} in the lobby), {refused} refused, in {:?}",
        held.len(),
        t.elapsed()
    );
    assert_eq!(lobby_held, 40 * lobby_per_address);
    assert!(lobby_held > 1024);

    // A stranger from a fresh address: the game has no watcher place left.
    let fresh = ip("127.0.0.200");
    let (status, head, _) = upgrade(fresh, addr, &game_path, "").await;
    assert_eq!(status, 429, "{head}");
    // A token that holds no seat is a stranger's too.
    let wrong = format!("Authorization: Bearer {}\r\n", "0".repeat(32));
    assert_eq!(upgrade(fresh, addr, &game_path, &wrong).await.0, 429);
    // The seated player, with the bearer, from an address whose caps are all full.
    let (status, head, s) = upgrade(
        flooders[0],
        addr,
        &game_path,
        &format!("Authorization: Bearer {red}\r\n"),
    )
    .await;
    assert_eq!(status, 101, "{head}");
    let mut red_socket = s.unwrap();
    assert_eq!(first_message(&mut red_socket).await["type"], "snapshot");
    // The other seat, as a browser sends it: the token as a subprotocol beside `rumis`.
    let (status, head, s) = upgrade(
        fresh,
        addr,
        &game_path,
        &format!("Sec-WebSocket-Protocol: rumis, rumis.token.{blue}\r\n"),
    )
    .await;
    assert_eq!(status, 101, "{head}");
    assert!(
        head.to_ascii_lowercase().contains("sec-websocket-protocol: rumis\r\n"),
        "the server selects `rumis`: {head}"
    );
    let mut blue_socket = s.unwrap();
    assert_eq!(first_message(&mut blue_socket).await["type"], "snapshot");
    // A lobby visitor from a fresh address.
    let (status, head, s) = upgrade(fresh, addr, "/api/v1/lobby/events", "").await;
    assert_eq!(status, 101, "{head}");
    let mut visitor = s.unwrap();
    assert_eq!(first_message(&mut visitor).await["type"], "lobby");
    // A seat's sockets have a cap of their own (blue holds one already).
    let mut seat_sockets = vec![blue_socket];
    loop {
        let (status, _, s) = upgrade(fresh, addr, &game_path, &format!("Authorization: Bearer {blue}\r\n")).await;
        if status == 429 {
            break;
        }
        seat_sockets.push(s.unwrap());
        assert!(seat_sockets.len() < 100, "a seat's sockets are capped");
    }
    assert_eq!(seat_sockets.len(), per_seat);
    drop((held, red_socket, visitor, seat_sockets));
    server.stop().await;
}

/// A lobby subscriber that does not answer pings is dropped; one that does stays and gets
/// the next change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_socket_that_stops_answering_pings_is_dropped() {
    let db = TempDir::new("sockets-lobby-ping");
    let mut c = config(&db.db_url());
    c.ws.ping_every = Duration::from_millis(300);
    c.ws.pong_timeout = Duration::from_millis(600);
    let time = c.time.clone();
    let server = start(c).await;
    let addr = server.addr;
    // A silent one: upgraded, its first message read (its first ping is due from then), and
    // never answering.
    let (status, _, silent) = upgrade(ip("127.0.0.1"), addr, "/api/v1/lobby/events", "").await;
    assert_eq!(status, 101);
    let mut silent = silent.unwrap();
    let mut inbox = Vec::new();
    raw_frame(&mut silent, &mut inbox, 1).await;
    let (mut live, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/v1/lobby/events"))
        .await
        .unwrap();
    let first = next_event(&mut live).await;
    assert_eq!(first["type"], "lobby");
    // A ping is due: both get one, and the live one answers.
    time.advance(Duration::from_millis(300));
    raw_frame(&mut silent, &mut inbox, 9).await;
    answer_ping(&mut live).await;
    // Its pong is overdue: the silent one is dropped.
    time.advance(Duration::from_millis(600));
    raw_closed(&mut silent).await;
    // The live one, pinged again, still gets the next change.
    let player = post(addr, "/api/v1/players", None, &json!({ "name": "Ana" }))
        .await
        .json();
    let key = player["key"].as_str().unwrap();
    let r = post(
        addr,
        "/api/v1/lobby/seeks",
        Some(key),
        &json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }] }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let e = loop {
        let e = next_event(&mut live).await;
        if e["seeks"].as_array().is_some_and(|s| !s.is_empty()) {
            break e;
        }
    };
    assert_eq!(e["seeks"][0]["game"], r.json()["game"]);
    server.stop().await;
}

on_both_databases!(every_lobby_subscriber_ends_on_the_newest_version);

/// What the readers passed on: each subscriber's last message and count.
struct Seen {
    rx: tokio::sync::mpsc::UnboundedReceiver<(usize, Value)>,
    last: Vec<Option<Value>>,
    received: Vec<usize>,
    deadline: tokio::time::Instant,
}
impl Seen {
    /// The next message a reader passed on (which subscriber, and the message), kept as
    /// its subscriber's last; waits for it up to the test's deadline (`what` says for what).
    async fn next(&mut self, what: &str) -> (usize, Value) {
        let (n, v) = tokio::time::timeout_at(self.deadline, self.rx.recv())
            .await
            .unwrap_or_else(|_| panic!("{what}: not within {WAIT:?}; last seen {:?}", self.versions()))
            .expect("the readers run");
        assert_eq!(v["type"], "lobby");
        if let Some(before) = &self.last[n] {
            assert!(
                v["version"].as_u64() > before["version"].as_u64(),
                "versions go up: {v}"
            );
        }
        self.received[n] += 1;
        self.last[n] = Some(v.clone());
        (n, v)
    }

    fn versions(&self) -> Vec<Option<u64>> {
        self.last
            .iter()
            .map(|v| v.as_ref().and_then(|v| v["version"].as_u64()))
            .collect()
    }
}

/// 30 subscribers, a third of them slow readers (a pause after each message), and a burst
/// of 120 lobby changes from 8 players at once (seeks and aborts, a seek each left open):
/// every subscriber ends on one version, the newest, whose lists are `GET /api/v1/lobby`'s,
/// and no more come once the lobby is quiet.
// long: one burst and its settling, in order: the subscribers, the changes, the settled
// lobby, then one more change.
async fn every_lobby_subscriber_ends_on_the_newest_version(db: String) {
    let server = start(config(&db)).await;
    let addr = server.addr;
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<(usize, Value)>();
    let mut readers = Vec::new();
    for n in 0..30 {
        let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/v1/lobby/events"))
            .await
            .unwrap();
        let tx = tx.clone();
        let slow = n % 3 == 0;
        readers.push(tokio::spawn(async move {
            while let Some(Ok(m)) = ws.next().await {
                if let Message::Text(t) = m {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    if tx.send((n, v)).is_err() {
                        return;
                    }
                    if slow {
                        // A slow reader is what is tested: it pauses on the real clock.
                        tokio::time::sleep(Duration::from_millis(250)).await;
                    }
                }
            }
        }));
    }
    drop(tx);
    let mut seen = Seen {
        rx,
        last: vec![None; 30],
        received: vec![0; 30],
        deadline: tokio::time::Instant::now() + WAIT,
    };
    // Every subscriber has its first message.
    while seen.last.iter().any(Option::is_none) {
        seen.next("a first message for each").await;
    }
    let players: Vec<String> = futures_util::future::join_all((0..8).map(|i| async move {
        let v = post(addr, "/api/v1/players", None, &json!({ "name": format!("P{i}") }))
            .await
            .json();
        v["key"].as_str().unwrap().to_string()
    }))
    .await;
    let seek = json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }] });
    // Each player: 7 seeks each aborted, then one left open: 15 changes, 120 in all.
    let changes: usize = futures_util::future::join_all(players.iter().map(|key| {
        let seek = seek.clone();
        async move {
            let mut made = 0;
            for round in 0..8 {
                let r = post(addr, "/api/v1/lobby/seeks", Some(key), &seek).await;
                assert_eq!(r.status, 201, "{}", r.text());
                made += 1;
                if round < 7 {
                    let game = r.json()["game"].as_str().unwrap().to_string();
                    let r = post(addr, &format!("/api/v1/games/{game}/abort"), Some(key), &json!({})).await;
                    assert_eq!(r.status, 200, "{}", r.text());
                    made += 1;
                }
            }
            made
        }
    }))
    .await
    .into_iter()
    .sum();
    assert_eq!(changes, 120);
    // Then every subscriber, within a bound, holds the newest version, which is the lobby now.
    let lobby = get(addr, "/api/v1/lobby").await.json();
    assert_eq!(lobby["seeks"].as_array().unwrap().len(), 8, "{lobby}");
    let settled = loop {
        let newest = seen
            .last
            .iter()
            .flatten()
            .max_by_key(|v| v["version"].as_u64())
            .unwrap();
        let all_newest = seen.last.iter().flatten().all(|v| v["version"] == newest["version"]);
        if all_newest && newest["seeks"] == lobby["seeks"] && newest["playing"] == lobby["playing"] {
            break newest.clone();
        }
        seen.next("every subscriber on the newest version, the lobby's").await;
    };
    let version = settled["version"].as_u64().unwrap() as usize;
    assert!(version <= changes + 1, "{version} versions for {changes} changes");
    // Quiet now: nothing new comes until the next change. One more seek is that change: the
    // feed renders in order, so every list a subscriber receives before that seek's is the
    // settled lobby again. (On PostgreSQL a change's notification may still arrive after its
    // commit was read; its render is then the same lobby under a later version.)
    let r = post(addr, "/api/v1/lobby/seeks", Some(&players[0]), &seek).await;
    assert_eq!(r.status, 201, "{}", r.text());
    let next = r.json()["game"].clone();
    let has_next = |v: &Value| {
        v["seeks"]
            .as_array()
            .is_some_and(|s| s.iter().any(|t| t["game"] == next))
    };
    let mut heard = [false; 30];
    while heard.iter().any(|h| !h) {
        let (n, v) = seen.next("the next seek's list at every subscriber").await;
        if has_next(&v) {
            heard[n] = true;
        } else {
            assert!(
                !heard[n] && v["seeks"] == settled["seeks"] && v["playing"] == settled["playing"],
                "subscriber {n} got a list after the lobby was quiet that is not the lobby: {v}"
            );
        }
    }
    let received = &seen.received;
    eprintln!(
        "{changes} changes → {version} versions (then one more change); messages received: slow \
         subscribers {:?}, the others {:?}",
        (0..30).step_by(3).map(|n| received[n]).collect::<Vec<_>>(),
        (0..30).filter(|n| n % 3 != 0).map(|n| received[n]).collect::<Vec<_>>()
    );
    for r in readers {
        r.abort();
    }
    server.stop().await;
}

/// A message over the size a game socket takes is answered with a close frame saying why
/// (1009, "message too big"), not a dropped connection (issue #50).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_message_is_closed_with_1009() {
    use futures_util::SinkExt;
    let db = TempDir::new("sockets-too-big");
    let server = start(config(&db.db_url())).await;
    let addr = server.addr;
    let created = create(addr, json!({ "board": "chullpa", "players": 2, "hot_seat": true })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut ws = subscribe(addr, &id).await;
    next_of(&mut ws, "snapshot").await;
    ws.send(Message::Text("x".repeat(8192).into())).await.unwrap();
    let closed = tokio::time::timeout(WAIT, async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => continue,
                _ => return None,
            }
        }
    })
    .await
    .expect("the socket is closed in time");
    assert_eq!(closed, Some(1009));
    server.stop().await;
}
