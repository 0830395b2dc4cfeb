//! The games of the run: a live game (its id, tokens, the client's copy, and its three
//! watchers), the played and the stalled slots that keep them going, and the figures they
//! gather.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use rumis_core::{Colour, Game, Site};
use serde::Deserialize;
use serde_json::Value;
use tokio::net::TcpStream;

use crate::http::Http;
use crate::process::wall_ms;
use crate::{PLAYED_CLOCK, REQUEST_TIMEOUT, SEATS, STALL_CLOCK, STALL_MS, WATCHERS};

#[derive(Default)]
pub struct Figures {
    /// Microseconds from the planned time.
    pub ack: Vec<u32>,
    pub event: Vec<u32>,
    /// Milliseconds after the due time (negative: before it).
    pub timeout_late: Vec<i64>,
    pub errors: HashMap<String, u64>,
    pub games_created: u64,
    pub sockets_opened: u64,
}

pub struct Run {
    pub addr: SocketAddr,
    pub site: Arc<Site>,
    pub figures: Mutex<Figures>,
    /// The moves sent, and of them acknowledged (201).
    pub sent: AtomicU64,
    pub acked: AtomicU64,
    /// (game id, move number) of each move acknowledged, while a backup is to come (None:
    /// no `--backup-at`, or the backup has begun).
    pub acked_moves: Mutex<Option<Vec<(String, u32)>>>,
    /// Set once the moves are over and a grace for their last events has passed: the
    /// watchers stop.
    pub done: tokio::sync::watch::Sender<bool>,
}

impl Run {
    fn error(&self, what: impl Into<String>) {
        *self.figures.lock().unwrap().errors.entry(what.into()).or_insert(0) += 1;
    }
}

pub fn micros(d: Duration) -> u32 {
    d.as_micros().min(u32::MAX as u128) as u32
}

// ---------------------------------------------------------------------------------------
// A live game: its id, tokens, the client's copy, and its three watchers.

/// The planned send time of each move of a game, for its watchers.
pub type Planned = Arc<Mutex<HashMap<i64, tokio::time::Instant>>>;

pub struct Live {
    id: String,
    tokens: Vec<String>,
    game: Game,
    planned: Planned,
    watchers: Vec<tokio::task::JoinHandle<()>>,
}

#[derive(Deserialize)]
struct CreatedSeat {
    token: Option<String>,
}

#[derive(Deserialize)]
struct Created {
    id: String,
    seats: Vec<CreatedSeat>,
}

/// The fields of an event this client reads; the rest is skipped unparsed.
#[derive(Deserialize)]
struct EventLite<'a> {
    #[serde(rename = "type", borrow)]
    kind: &'a str,
    number: Option<i64>,
    clock: Option<ClockLite>,
    state: Option<StateLite>,
}

#[derive(Deserialize)]
struct StateLite {
    clock: Option<ClockLite>,
}

#[derive(Deserialize)]
struct ClockLite {
    now: i64,
    running_seat: Option<usize>,
    seats: Vec<SeatLite>,
}

#[derive(Deserialize)]
struct SeatLite {
    seat: usize,
    remaining_ms: i64,
}

impl ClockLite {
    fn due(&self) -> Option<i64> {
        let s = self.running_seat?;
        self.seats
            .iter()
            .find(|x| x.seat == s)
            .map(|x| self.now + x.remaining_ms)
    }
}

/// Creates a game and connects its watchers (each has read its snapshot when this returns).
pub async fn create(run: &Arc<Run>, http: &mut Http, stall: bool) -> Result<Live, String> {
    let body = format!(
        r#"{{"board":"chullpa","players":{SEATS},"clock":{}}}"#,
        if stall { STALL_CLOCK } else { PLAYED_CLOCK }
    );
    let (status, answer) = http.request("POST", "/api/v1/games", None, &body).await?;
    if status != 201 {
        return Err(format!("create: {status} {}", String::from_utf8_lossy(&answer)));
    }
    let created: Created = serde_json::from_slice(&answer).map_err(|e| format!("create: {e}"))?;
    let planned: Planned = Default::default();
    let mut watchers = Vec::new();
    for w in 0..WATCHERS {
        let url = format!("ws://{}/api/v1/games/{}/events", run.addr, created.id);
        let (mut ws, _) = tokio::time::timeout(REQUEST_TIMEOUT, tokio_tungstenite::connect_async(url))
            .await
            .map_err(|_| "websocket: connect timed out".to_string())?
            .map_err(|e| format!("websocket: {e}"))?;
        let first = tokio::time::timeout(REQUEST_TIMEOUT, ws.next())
            .await
            .map_err(|_| "websocket: no snapshot".to_string())?;
        let due = match first {
            Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t))) => serde_json::from_str::<EventLite>(&t)
                .ok()
                .and_then(|e| e.state)
                .and_then(|s| s.clock)
                .and_then(|c| c.due()),
            _ => return Err("websocket: no snapshot".into()),
        };
        // The first watcher of each game also times its timeouts.
        watchers.push(tokio::spawn(watch(run.clone(), ws, planned.clone(), w == 0, due)));
    }
    {
        let mut f = run.figures.lock().unwrap();
        f.games_created += 1;
        f.sockets_opened += WATCHERS as u64;
    }
    Ok(Live {
        id: created.id,
        tokens: created.seats.into_iter().map(|s| s.token.unwrap_or_default()).collect(),
        game: Game::new(run.site.clone()),
        planned,
        watchers,
    })
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// One WebSocket of a game: the arrival of each `move` event (from its planned time) and,
/// for the first watcher, the lateness of each `timeout`; ends at `game_over` or when the
/// run's moves are over (and a grace for the last events).
async fn watch(run: Arc<Run>, mut ws: Socket, planned: Planned, times_timeouts: bool, mut due: Option<i64>) {
    use tokio_tungstenite::tungstenite::Message;
    let mut event = Vec::new();
    let mut late = Vec::new();
    let mut done = run.done.subscribe();
    loop {
        if *done.borrow() {
            break;
        }
        let msg = tokio::select! {
            m = ws.next() => m,
            _ = done.changed() => break,
        };
        let text = match msg {
            Some(Ok(Message::Text(t))) => t,
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                run.error(format!("websocket: {e}"));
                break;
            }
            None => {
                run.error("websocket: closed by the server");
                break;
            }
        };
        let now = tokio::time::Instant::now();
        let Ok(e) = serde_json::from_str::<EventLite>(&text) else {
            run.error("websocket: unreadable event");
            continue;
        };
        match e.kind {
            "move" => {
                let at = e.number.and_then(|n| planned.lock().unwrap().get(&n).copied());
                if let Some(at) = at {
                    event.push(micros(now.saturating_duration_since(at)));
                }
            }
            "clock" => due = e.clock.and_then(|c| c.due()),
            "timeout" if times_timeouts => {
                if let Some(d) = due {
                    late.push(wall_ms() - d);
                }
            }
            "game_over" => break,
            _ => {}
        }
    }
    let _ = ws.close(None).await;
    let mut f = run.figures.lock().unwrap();
    f.event.extend(event);
    f.timeout_late.extend(late);
}

/// Puts the client's copy right from the server's state (after a refused move).
async fn resync(run: &Run, http: &mut Http, live: &mut Live) -> Result<(), String> {
    let (status, body) = http
        .request("GET", &format!("/api/v1/games/{}", live.id), None, "")
        .await?;
    if status != 200 {
        return Err(format!("state: {status}"));
    }
    let v: Value = serde_json::from_slice(&body).map_err(|e| e.to_string())?;
    let mut game = Game::new(run.site.clone());
    let left: Vec<(usize, Colour)> = v["left"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|l| {
            let c = l["colour"].as_str()?.chars().next().and_then(Colour::from_letter)?;
            Some((l["after_move"].as_u64()? as usize, c))
        })
        .collect();
    let moves: Vec<String> = v["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m["placement"].as_str().map(String::from))
        .collect();
    for i in 0..=moves.len() {
        for &(after, c) in &left {
            if after == i {
                game.retire(c, Some("time")).map_err(|e| e.to_string())?;
            }
        }
        if let Some(m) = moves.get(i) {
            game.play_text(m).map_err(|e| e.to_string())?;
        }
    }
    live.game = game;
    Ok(())
}

/// A played slot: sends its moves at their planned times, replacing its game when it ends.
pub async fn play_slot(
    run: Arc<Run>,
    mut live: Live,
    slot: u64,
    slots: u64,
    t0: tokio::time::Instant,
    end: tokio::time::Instant,
    period: Duration,
) {
    let mut http = Http::new(run.addr);
    let mut rng = slot.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut k: u64 = 0;
    loop {
        let planned = t0 + period.mul_f64((k * slots + slot) as f64);
        k += 1;
        if planned >= end {
            break;
        }
        if live.game.is_over() {
            match create(&run, &mut http, false).await {
                Ok(l) => live = l,
                Err(e) => {
                    run.error(e);
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            }
        }
        tokio::time::sleep_until(planned).await;
        let legal = live.game.legal_moves();
        if legal.is_empty() {
            // Cannot happen while the game is not over (the core passes or ends the turn).
            run.error("client: no legal move");
            live.game = Game::new(run.site.clone());
            continue;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let m = legal[(rng % legal.len() as u64) as usize];
        let colour = live.game.to_move().expect("a colour to move");
        let seat = run.site.player_of(colour).unwrap_or(0);
        let number = live.game.moves().len() as i64 + 1;
        let body = format!(
            r#"{{"placement":"{}","expected_move_number":{number}}}"#,
            live.game.notation(m)
        );
        live.planned.lock().unwrap().insert(number, planned);
        run.sent.fetch_add(1, Ordering::Relaxed);
        let answer = http
            .request(
                "POST",
                &format!("/api/v1/games/{}/moves", live.id),
                Some(&live.tokens[seat]),
                &body,
            )
            .await;
        let took = planned.elapsed();
        match answer {
            Ok((201, _)) => {
                run.acked.fetch_add(1, Ordering::Relaxed);
                if let Some(v) = run.acked_moves.lock().unwrap().as_mut() {
                    v.push((live.id.clone(), number as u32));
                }
                run.figures.lock().unwrap().ack.push(micros(took));
                live.game.play(m).expect("a legal move");
            }
            Ok((status, body)) => {
                let code = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v["error"].as_str().map(String::from))
                    .unwrap_or_default();
                run.error(format!("move: {status} {code}"));
                if let Err(e) = resync(&run, &mut http, &mut live).await {
                    run.error(format!("resync: {e}"));
                }
            }
            Err(e) => {
                run.error(format!("move: {e}"));
                if let Err(e) = resync(&run, &mut http, &mut live).await {
                    run.error(format!("resync: {e}"));
                }
            }
        }
        if live.game.is_over() {
            // Its watchers end at `game_over`; the slot's next game is made before its
            // next planned move.
            live.watchers.clear();
        }
    }
    for w in live.watchers.drain(..) {
        let _ = w.await;
    }
}

/// A stalled slot: a game where nobody moves, so its seats time out one after another;
/// replaced when it is over, until the run's end.
pub async fn stall_slot(run: Arc<Run>, start: tokio::time::Instant, end: tokio::time::Instant) {
    tokio::time::sleep_until(start).await;
    let mut http = Http::new(run.addr);
    while tokio::time::Instant::now() + Duration::from_millis(STALL_MS) < end {
        match create(&run, &mut http, true).await {
            Ok(mut live) => {
                // The first watcher ends at `game_over` (four timeouts) or the run's end.
                let first = live.watchers.remove(0);
                let _ = first.await;
                for w in live.watchers.drain(..) {
                    let _ = w.await;
                }
            }
            Err(e) => {
                run.error(e);
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}
