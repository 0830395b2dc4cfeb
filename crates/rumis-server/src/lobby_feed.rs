//! The lobby's WebSocket (`GET /api/v1/lobby/events`): the lobby rendered once per change by
//! one task and shared by every subscriber, instead of each subscriber reading the database
//! and serialising the list for itself at every change (issue #50: 1 000 subscribers and
//! 30 changes a second took a game's state read from 2 ms to 926 ms).
//!
//! - **One render, shared.** The feed's task listens on the lobby's channel of the events
//!   hub. A change makes it render the lobby once — `{type: "lobby", version, seeks,
//!   playing}`, `version` counting up from 1 in this process — and publish the text in a
//!   `watch` channel; every subscriber sends those same bytes.
//! - **Changes coalesced.** A render waits [`WINDOW`] after the first change it covers, and
//!   at least the fan-out's [`gap`] after the last render began: the gap grows with the
//!   bytes a render sends in all (its size times the subscribers) so that the lobby's
//!   sockets send about [`FANOUT_BYTES_PER_SECOND`] at most, and is at most [`MAX_GAP`].
//!   Every change made before a render began is in it; one made during it makes another.
//! - **Latest wins, sends spread.** Each subscriber sends a render at its own offset in
//!   the render's [`spread`] (up to a second with many subscribers of a large lobby, not
//!   all at the same instant), and sends the newest one then; a subscriber still sending an
//!   older version takes the newest when it is done, skipping those between; none is
//!   queued for it.
//! - **Nothing while nobody listens**: changes with no subscriber are noted, and rendered
//!   when one comes (a new subscriber gets the newest render at once if it is current).
//! - **Small sockets.** A lobby socket is pinged like a game's (`ws.rs`): a ping every
//!   [`WsLimits::ping_every`], dropped when no pong (or any frame) comes within
//!   [`WsLimits::pong_timeout`] or a message does not go out within
//!   [`WsLimits::send_timeout`]. It speaks the little of RFC 6455 a subscriber needs
//!   itself, instead of through the WebSocket library, whose write buffer keeps the size of
//!   the largest message sent: with a 40 KB lobby that was 40 KB more per socket. Here the
//!   render is one frame (server frames are not masked: the same bytes for everyone)
//!   written straight from the shared buffer to the connection, and what the client sends
//!   (pongs, pings, close; at most [`MAX_FRAME`] bytes a frame) is read through a small
//!   buffer.

use std::future::Future;
use std::time::Duration;

use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

use crate::events;
use crate::ws::{sleep_until_some, WsLimits};

/// How long a render waits after the first change it covers, for others close behind.
pub const WINDOW: Duration = Duration::from_millis(100);
/// The longest wait between renders while changes come.
pub const MAX_GAP: Duration = Duration::from_secs(2);
/// About what the lobby's sockets send in all, a second, at most (the gap between renders
/// grows with the subscribers to hold it, up to [`MAX_GAP`]).
pub const FANOUT_BYTES_PER_SECOND: f64 = 16.0 * 1024.0 * 1024.0;
/// A failed render (the database is away) is tried again after this.
const RETRY: Duration = Duration::from_secs(1);

/// The least time between two renders that each send `bytes` to `subscribers`.
pub fn gap(bytes: usize, subscribers: usize) -> Duration {
    let secs = (bytes as f64) * (subscribers as f64) / FANOUT_BYTES_PER_SECOND;
    Duration::from_secs_f64(secs.min(MAX_GAP.as_secs_f64())).max(WINDOW)
}

/// One render of the lobby: the frame every subscriber is sent.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub version: u64,
    /// A whole WebSocket frame: a text message of the lobby's JSON.
    pub frame: Bytes,
    /// Over how long the subscribers' sends are spread (see [`spread`]).
    pub spread: Duration,
}

/// Over how long the sends of one render are spread, each subscriber at its own offset in
/// it: the time [`FANOUT_BYTES_PER_SECOND`] takes to send `bytes` to `subscribers`, at most
/// half of [`MAX_GAP`]. All at once, 1 000 sends of a 40 KB lobby held both of a 2-core
/// server's worker threads for tens of milliseconds, and a request that came then waited.
pub fn spread(bytes: usize, subscribers: usize) -> Duration {
    let secs = (bytes as f64) * (subscribers as f64) / FANOUT_BYTES_PER_SECOND;
    Duration::from_secs_f64(secs.min(MAX_GAP.as_secs_f64() / 2.0))
}

/// A subscriber's offset in a spread, as a fraction: successive subscribers' offsets are
/// spaced by the golden ratio, so that any number of them fill the spread evenly.
fn next_offset() -> f64 {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    (n as f64 * 0.618_033_988_749_894_9).fract()
}

/// The frame of a server's message (unmasked), `opcode` 0x1 for text.
fn frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let len = payload.len();
    let mut f = Vec::with_capacity(len + 10);
    f.push(0x80 | opcode);
    if len < 126 {
        f.push(len as u8);
    } else if len <= 0xffff {
        f.push(126);
        f.extend_from_slice(&(len as u16).to_be_bytes());
    } else {
        f.push(127);
        f.extend_from_slice(&(len as u64).to_be_bytes());
    }
    f.extend_from_slice(payload);
    f
}

/// The newest render and the subscribers'
pub struct LobbyFeed {
    tx: watch::Sender<Option<Rendered>>,
    /// A subscriber came: render now if a change is pending.
    wake: Notify,
}

impl Default for LobbyFeed {
    fn default() -> LobbyFeed {
        LobbyFeed::new()
    }
}

impl LobbyFeed {
    pub fn new() -> LobbyFeed {
        LobbyFeed {
            tx: watch::channel(None).0,
            wake: Notify::new(),
        }
    }

    /// The renders from the newest on (`None` until the first).
    pub fn subscribe(&self) -> watch::Receiver<Option<Rendered>> {
        let rx = self.tx.subscribe();
        // After subscribing: a render the task skipped for want of subscribers is made now.
        self.wake.notify_one();
        rx
    }

    /// Renders the lobby whenever `changes` says it changed, with `render` (given the
    /// version, the message's text; `None` when it cannot be had now), until the channel
    /// closes.
    pub async fn run<F, Fut>(&self, mut changes: events::Receiver, mut render: F)
    where
        F: FnMut(u64) -> Fut,
        Fut: Future<Output = Option<String>>,
    {
        let mut version = 0u64;
        // Since when a change waits for a render (`None`: the last render is current).
        let mut pending: Option<Instant> = Some(Instant::now());
        // When the last render began, and its size.
        let mut last: Option<(Instant, usize)> = None;
        loop {
            let listened = self.tx.receiver_count() > 0;
            let due = match (pending, listened) {
                (Some(since), true) => {
                    let after_gap = last.map(|(at, bytes)| at + gap(bytes, self.tx.receiver_count()));
                    Some((since + WINDOW).max(after_gap.unwrap_or(since)))
                }
                _ => None,
            };
            tokio::select! {
                change = changes.recv() => match change {
                    Ok(_) | Err(RecvError::Lagged(_)) => {
                        pending.get_or_insert_with(Instant::now);
                    }
                    Err(RecvError::Closed) => return,
                },
                _ = self.wake.notified() => {}
                _ = sleep_until_some(due) => {
                    let began = Instant::now();
                    // Changes from here on are not surely in this render: they make another.
                    pending = None;
                    match render(version + 1).await {
                        Some(text) => {
                            version += 1;
                            last = Some((began, text.len()));
                            let frame = Bytes::from(frame(0x1, text.as_bytes()));
                            let spread = spread(frame.len(), self.tx.receiver_count());
                            self.tx.send_replace(Some(Rendered { version, frame, spread }));
                        }
                        None => pending = Some(Instant::now() + RETRY - WINDOW),
                    }
                }
            }
        }
    }
}

/// The largest frame a client may send (it has nothing to say but pongs and close).
pub const MAX_FRAME: usize = 4096;

/// The `Sec-WebSocket-Accept` for a WebSocket upgrade's headers, or why they are not one.
pub fn accept_key(headers: &HeaderMap) -> Result<String, &'static str> {
    let has = |name: header::HeaderName, token: &str| {
        headers.get_all(name).iter().any(|v| {
            v.to_str()
                .is_ok_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
        })
    };
    if !has(header::CONNECTION, "upgrade") {
        return Err("`Connection` header did not include `upgrade`");
    }
    if !has(header::UPGRADE, "websocket") {
        return Err("`Upgrade` header did not include `websocket`");
    }
    if !has(header::SEC_WEBSOCKET_VERSION, "13") {
        return Err("`Sec-WebSocket-Version` header did not include `13`");
    }
    let key = headers
        .get(header::SEC_WEBSOCKET_KEY)
        .ok_or("`Sec-WebSocket-Key` header missing")?;
    Ok(tungstenite::handshake::derive_accept_key(key.as_bytes()))
}

/// The `101 Switching Protocols` answer to an upgrade.
pub fn switching(accept: &str) -> Response {
    let mut r = StatusCode::SWITCHING_PROTOCOLS.into_response();
    let h = r.headers_mut();
    h.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    if let Ok(v) = HeaderValue::from_str(accept) {
        h.insert(header::SEC_WEBSOCKET_ACCEPT, v);
    }
    r
}

/// A frame from the client, as far as a subscriber cares.
#[derive(Debug, PartialEq)]
enum Incoming {
    /// A pong, or a message (ignored): the client is there.
    Alive,
    Ping(Vec<u8>),
    Close,
}

/// The next whole frame at the start of `inbox` (taken out of it), `Ok(None)` when it has
/// not all arrived, `Err` for what no client of this socket sends: an unmasked frame, one
/// over [`MAX_FRAME`] or an unknown opcode.
fn next_frame(inbox: &mut Vec<u8>) -> Result<Option<Incoming>, ()> {
    if inbox.len() < 2 {
        return Ok(None);
    }
    let (b0, b1) = (inbox[0], inbox[1]);
    if b1 & 0x80 == 0 {
        return Err(()); // a client's frames are masked
    }
    let (at, len) = match b1 & 0x7f {
        126 if inbox.len() >= 4 => (4, u16::from_be_bytes([inbox[2], inbox[3]]) as u64),
        127 if inbox.len() >= 10 => (10, u64::from_be_bytes(inbox[2..10].try_into().unwrap())),
        126 | 127 => return Ok(None),
        n => (2, n as u64),
    };
    if len > MAX_FRAME as u64 {
        return Err(());
    }
    let end = at + 4 + len as usize;
    if inbox.len() < end {
        return Ok(None);
    }
    let mask = [inbox[at], inbox[at + 1], inbox[at + 2], inbox[at + 3]];
    let payload: Vec<u8> = inbox[at + 4..end]
        .iter()
        .enumerate()
        .map(|(i, b)| b ^ mask[i % 4])
        .collect();
    inbox.drain(..end);
    match b0 & 0x0f {
        0x0..=0x2 | 0xa => Ok(Some(Incoming::Alive)),
        0x9 => Ok(Some(Incoming::Ping(payload))),
        0x8 => Ok(Some(Incoming::Close)),
        _ => Err(()),
    }
}

/// Writes all of `bytes` within `within`.
async fn write_within<S: AsyncWrite + Unpin>(io: &mut S, bytes: &[u8], within: Duration) -> bool {
    let write = async {
        io.write_all(bytes).await?;
        io.flush().await
    };
    matches!(tokio::time::timeout(within, write).await, Ok(Ok(())))
}

/// Sends the newest render at once (or the first when it comes), then each newer one,
/// until the client goes, stops answering pings or cannot keep up, or the server stops
/// (`closed`: a close frame with [`crate::ws::CLOSE_RESTART`]).
pub async fn session<S: AsyncRead + AsyncWrite + Unpin>(
    mut io: S,
    mut feed: watch::Receiver<Option<Rendered>>,
    limits: WsLimits,
    time: crate::Time,
    closed: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(closed);
    let send_timeout = limits.send_timeout;
    // Pings and their pongs on the server's time (time.rs), the first one's set before the
    // first render goes; the renders' spread stays on the real clock (it shares out the
    // machine's sends).
    let mut ping_at = time.now() + limits.ping_every;
    // When the last ping unanswered was sent.
    let mut waiting: Option<Instant> = None;
    let mut sent = 0u64;
    let mut inbox: Vec<u8> = Vec::new();
    let mut chunk = [0u8; 512];
    let offset = next_offset();
    // When to send the newest render: at once for the first (or when it comes), then at
    // this subscriber's offset in each new render's spread.
    let mut send_at = feed.borrow().is_some().then(Instant::now);
    loop {
        if send_at.is_some_and(|t| t <= Instant::now()) {
            send_at = None;
            // The newest now, which may be newer than the render that set the time.
            let newest = feed.borrow_and_update().clone();
            if let Some(r) = newest.filter(|r| r.version > sent) {
                if !write_within(&mut io, &r.frame, send_timeout).await {
                    return;
                }
                sent = r.version;
            }
        }
        let pong_deadline = waiting.map(|t| t + limits.pong_timeout);
        tokio::select! {
            read = io.read(&mut chunk) => {
                let n = match read {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                inbox.extend_from_slice(&chunk[..n]);
                loop {
                    match next_frame(&mut inbox) {
                        Ok(None) => break,
                        Ok(Some(Incoming::Alive)) => waiting = None,
                        Ok(Some(Incoming::Ping(payload))) => {
                            waiting = None;
                            if !write_within(&mut io, &frame(0xa, &payload), send_timeout).await {
                                return;
                            }
                        }
                        Ok(Some(Incoming::Close)) => {
                            let _ = write_within(&mut io, &frame(0x8, &[]), send_timeout).await;
                            return;
                        }
                        Err(()) => return,
                    }
                }
                if inbox.is_empty() && inbox.capacity() > 1024 {
                    inbox = Vec::new();
                }
            },
            () = time.sleep_until(ping_at) => {
                // Its pong is waited for from before it goes (a client that has it may
                // move the time on at once).
                let sent_at = time.now();
                if !write_within(&mut io, &frame(0x9, &[]), send_timeout).await {
                    return;
                }
                ping_at = time.now() + limits.ping_every;
                waiting.get_or_insert(sent_at);
            }
            () = time.sleep_until_some(pong_deadline) => return, // no pong: gone
            _ = &mut closed => {
                let mut payload = crate::ws::CLOSE_RESTART.to_be_bytes().to_vec();
                payload.extend_from_slice(b"the server is restarting; connect again");
                let _ = write_within(&mut io, &frame(0x8, &payload), send_timeout).await;
                return;
            }
            _ = sleep_until_some(send_at) => {}
            changed = feed.changed(), if send_at.is_none() => {
                if changed.is_err() {
                    return; // the server is stopping
                }
                let spread = feed.borrow().as_ref().map_or(Duration::ZERO, |r| r.spread);
                send_at = Some(Instant::now() + spread.mul_f64(offset));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::{Event, Hub};
    use crate::wire::GameEvent;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    fn change() -> Vec<Event> {
        vec![Event::new("lobby", None, GameEvent::LobbyChanged)]
    }

    /// The feed on a hub, rendering "v{version}:{changes so far}" and counting renders.
    fn started(hub: &Arc<Hub>, made: Arc<AtomicUsize>) -> (Arc<LobbyFeed>, Arc<AtomicUsize>) {
        let feed = Arc::new(LobbyFeed::new());
        let renders = Arc::new(AtomicUsize::new(0));
        let rx = hub.subscribe("lobby");
        let (f, r) = (feed.clone(), renders.clone());
        tokio::spawn(async move {
            f.run(rx, move |v| {
                let (r, made) = (r.clone(), made.clone());
                async move {
                    r.fetch_add(1, Ordering::SeqCst);
                    // A render takes a little while (the database's two reads).
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    Some(format!("v{v}:{}", made.load(Ordering::SeqCst)))
                }
            })
            .await
        });
        (feed, renders)
    }

    /// A burst of changes makes a few renders, not one each; every subscriber, a slow one
    /// included, ends on the newest, which holds every change.
    #[tokio::test(start_paused = true)]
    async fn a_burst_is_coalesced_and_every_subscriber_ends_on_the_newest() {
        let hub = Arc::new(Hub::new());
        let made = Arc::new(AtomicUsize::new(0));
        let (feed, renders) = started(&hub, made.clone());
        let mut subscribers: Vec<_> = (0..50).map(|_| feed.subscribe()).collect();
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(
            renders.load(Ordering::SeqCst),
            1,
            "the first render, for the subscribers"
        );
        // 300 changes over 3 s (a change every 10 ms).
        for _ in 0..300 {
            made.fetch_add(1, Ordering::SeqCst);
            hub.send(change());
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(MAX_GAP + Duration::from_secs(1)).await;
        let n = renders.load(Ordering::SeqCst);
        // At most one render a WINDOW (and one after the burst).
        assert!((2..=40).contains(&n), "{n} renders for 300 changes");
        let newest = feed.tx.borrow().clone().unwrap();
        assert_eq!(newest.version as usize, n);
        assert_eq!(&newest.frame[2..], format!("v{n}:300").as_bytes());
        for rx in &mut subscribers {
            assert_eq!(rx.borrow_and_update().as_ref().unwrap().version, newest.version);
        }
        // Quiet: nothing more is rendered.
        tokio::time::sleep(Duration::from_secs(10)).await;
        assert_eq!(renders.load(Ordering::SeqCst), n);
    }

    /// With nobody subscribed, changes render nothing; the next subscriber gets them.
    #[tokio::test(start_paused = true)]
    async fn nothing_is_rendered_for_nobody_and_a_newcomer_gets_the_changes() {
        let hub = Arc::new(Hub::new());
        let made = Arc::new(AtomicUsize::new(0));
        let (feed, renders) = started(&hub, made.clone());
        let first = feed.subscribe();
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(renders.load(Ordering::SeqCst), 1);
        drop(first);
        for _ in 0..20 {
            made.fetch_add(1, Ordering::SeqCst);
            hub.send(change());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::time::sleep(Duration::from_secs(3)).await;
        assert_eq!(renders.load(Ordering::SeqCst), 1, "no render without a subscriber");
        let mut late = feed.subscribe();
        tokio::time::timeout(Duration::from_secs(1), late.changed())
            .await
            .expect("a render for the newcomer")
            .unwrap();
        assert_eq!(&late.borrow().as_ref().unwrap().frame[2..], b"v2:20");
    }

    /// Frames both ways: a server's text of each length class, a client's masked frames.
    #[test]
    fn frames() {
        assert_eq!(frame(0x1, b"hi"), [0x81, 2, b'h', b'i']);
        let long = frame(0x1, &[b'x'; 300]);
        assert_eq!(&long[..4], [0x81, 126, 1, 44]);
        assert_eq!(long.len(), 304);
        let huge = frame(0x1, &vec![b'x'; 70_000]);
        assert_eq!(&huge[..10], [0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70]);
        let masked = |opcode: u8, payload: &[u8]| {
            let mask = [1u8, 2, 3, 4];
            let mut f = vec![0x80 | opcode, 0x80 | payload.len() as u8];
            f.extend_from_slice(&mask);
            f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
            f
        };
        let mut inbox = masked(0x9, b"ping!");
        inbox.extend(masked(0xa, b""));
        inbox.extend(&masked(0x8, b"")[..3]);
        assert_eq!(next_frame(&mut inbox), Ok(Some(Incoming::Ping(b"ping!".to_vec()))));
        assert_eq!(next_frame(&mut inbox), Ok(Some(Incoming::Alive)));
        assert_eq!(next_frame(&mut inbox), Ok(None), "a frame not all here");
        inbox.extend(&masked(0x8, b"")[3..]);
        assert_eq!(next_frame(&mut inbox), Ok(Some(Incoming::Close)));
        assert!(inbox.is_empty());
        assert_eq!(next_frame(&mut vec![0x89, 0x00]), Err(()), "unmasked");
        let mut big = vec![0x81, 0x80 | 127];
        big.extend(&(1u64 << 20).to_be_bytes());
        assert_eq!(next_frame(&mut big), Err(()), "over MAX_FRAME");
    }

    /// Many subscribers of a large lobby space the renders out: one render a `gap`.
    #[tokio::test(start_paused = true)]
    async fn the_gap_grows_with_the_fan_out() {
        assert_eq!(gap(100, 10), WINDOW);
        assert_eq!(gap(40_000, 1000), MAX_GAP);
        let g = gap(40_000, 200);
        assert!(g > WINDOW && g < MAX_GAP, "{g:?}");
        assert_eq!(spread(40_000, 1000), MAX_GAP / 2);
        assert!(spread(2_000, 30) < Duration::from_millis(5));
        let hub = Arc::new(Hub::new());
        let feed = Arc::new(LobbyFeed::new());
        let renders = Arc::new(AtomicUsize::new(0));
        let rx = hub.subscribe("lobby");
        let (f, r) = (feed.clone(), renders.clone());
        tokio::spawn(async move {
            f.run(rx, move |_| {
                r.fetch_add(1, Ordering::SeqCst);
                async { Some("x".repeat(40_000)) }
            })
            .await
        });
        let _subscribers: Vec<_> = (0..1000).map(|_| feed.subscribe()).collect();
        tokio::time::sleep(Duration::from_millis(200)).await;
        // 10 s of 30 changes a second: about one render each MAX_GAP.
        for _ in 0..300 {
            hub.send(change());
            tokio::time::sleep(Duration::from_millis(33)).await;
        }
        let n = renders.load(Ordering::SeqCst);
        assert!((5..=8).contains(&n), "{n} renders in 10 s");
    }
}
