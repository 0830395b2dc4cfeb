//! The server's edge: accepting connections and keeping a stranger from holding them.
//!
//! Instead of `axum::serve`, an accept loop over `hyper`'s HTTP/1 connection:
//! - **caps**: connections per client address and in total; one over a cap is closed at
//!   once, and said in the log (at most a line every few seconds). The total is sized
//!   below the file-descriptor limit, whose soft value is raised to the hard one at start.
//!   When the total is reached, a newcomer from an address holding fewer connections than
//!   the heaviest address takes the place of one of that address's connections (an idle one
//!   first), so that a few addresses cannot hold every connection.
//! - **timeouts**: a request head must arrive within the header timeout of its first byte;
//!   a connection with no request under way and nothing received is closed after the idle
//!   timeout; a body must be read within the body timeout; a whole request (not a
//!   WebSocket once upgraded) must be answered within the request timeout.
//! - **JSON errors from the HTTP layer**: the answers hyper writes itself when a request
//!   cannot be parsed (400, 414, 431, …) have an empty body; they are rewritten on the way
//!   out with the API's `{ "error", "reason" }` body.
//! - **the client's address**: the peer's, or, only from `--trusted-proxy`, the last
//!   address of `X-Forwarded-For` (the one that proxy added).

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, HeaderValue, Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::error::ApiError;

mod caps;
pub use caps::{cap_for_fds, raise_fd_limit, Conns};
use caps::{give_memory_back, Slot, Watch};

/// The limits of the edge (`rumis serve` options).
#[derive(Clone, Debug)]
pub struct Limits {
    /// From the first byte of a request head to its end.
    pub header_timeout: Duration,
    /// A connection with no request under way and nothing received is closed after this.
    pub idle_timeout: Duration,
    /// Reading a request's body.
    pub body_timeout: Duration,
    /// From a request's head to its answer (hints wait for a free search: keep it long).
    pub request_timeout: Duration,
    /// Open connections (WebSockets included) from one client address.
    pub connections_per_address: usize,
    /// Open connections in total; lowered at start to fit the file-descriptor limit.
    pub connections: usize,
    /// The reverse proxy whose `X-Forwarded-For` is believed.
    pub trusted_proxy: Option<IpAddr>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            body_timeout: Duration::from_secs(20),
            request_timeout: Duration::from_secs(120),
            connections_per_address: 256,
            connections: 16_384,
            trusted_proxy: None,
        }
    }
}

/// The client a request comes from: the peer, or whom a trusted proxy speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

/// The socket, seen by hyper: notes arrivals for the watchdog, and rewrites hyper's own
/// empty error answers into JSON ones.
struct Socket {
    /// First, so that it is dropped before `inner` closes the socket (see [`Slot`]).
    slot: Slot,
    inner: TcpStream,
    start: Instant,
    /// A rewritten answer not yet all written, and the length of what hyper gave.
    pending: Option<(Vec<u8>, usize, usize)>,
}

impl AsyncRead for Socket {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            let w = &self.slot.watch;
            if w.in_flight.load(Ordering::Relaxed) == 0 && !w.head_started.swap(true, Ordering::Relaxed) {
                w.mark(self.start);
                w.changed.notify_one();
            }
        }
        r
    }
}

impl AsyncWrite for Socket {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if self.pending.is_none() && !self.slot.watch.upgraded.load(Ordering::Relaxed) {
            if let Some(json) = with_json_body(buf, self.slot.watch.head_method.load(Ordering::Relaxed)) {
                self.pending = Some((json, 0, buf.len()));
            }
        }
        let this = &mut *self;
        if let Some((bytes, done, given)) = &mut this.pending {
            while *done < bytes.len() {
                match Pin::new(&mut this.inner).poll_write(cx, &bytes[*done..]) {
                    Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                    Poll::Ready(Ok(n)) => *done += n,
                    other => return other,
                }
            }
            let given = *given;
            this.pending = None;
            return Poll::Ready(Ok(given));
        }
        let r = Pin::new(&mut this.inner).poll_write(cx, buf);
        // An answer going out slowly is not idleness.
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) && this.slot.watch.in_flight.load(Ordering::Relaxed) == 0 {
            this.slot.watch.mark(this.start);
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    // Not vectored: hyper then writes a whole short answer (head and body) in one buffer,
    // which is what the rewrite of empty error answers looks at.
    fn is_write_vectored(&self) -> bool {
        false
    }
}

/// An error answer (4xx/5xx) whose head is all in `buf` and says `content-length: 0`, with
/// the API's JSON body instead; None for anything else.
fn with_json_body(buf: &[u8], head_request: bool) -> Option<Vec<u8>> {
    if head_request || !(buf.starts_with(b"HTTP/1.1 4") || buf.starts_with(b"HTTP/1.1 5")) {
        return None;
    }
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    if end + 4 != buf.len() {
        return None;
    }
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next()?.get(9..12)?.parse().ok()?;
    let mut out = String::with_capacity(head.len() + 200);
    out.push_str(head.split("\r\n").next()?);
    let mut empty = false;
    for line in lines {
        let (name, value) = line.split_once(':')?;
        if name.eq_ignore_ascii_case("content-length") {
            if value.trim() != "0" {
                return None;
            }
            empty = true;
            continue;
        }
        if name.eq_ignore_ascii_case("content-type") || name.eq_ignore_ascii_case("transfer-encoding") {
            return None;
        }
        out.push_str("\r\n");
        out.push_str(line);
    }
    if !empty {
        return None;
    }
    let body = serde_json::to_string(&http_error(StatusCode::from_u16(status).ok()?).body()).ok()?;
    out.push_str(&format!(
        "\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    ));
    Some(out.into_bytes())
}

/// The API error for a status the HTTP layer gives.
pub fn http_error(status: StatusCode) -> ApiError {
    let (code, reason) = match status.as_u16() {
        400 => ("bad_request", "the request is not valid HTTP"),
        404 => ("not_found", "no such endpoint; see /api/v1"),
        405 => ("method_not_allowed", "this endpoint does not take that method"),
        408 => ("request_timeout", "the request was not received in time"),
        413 => ("body_too_large", "the request body is too large"),
        414 => ("uri_too_long", "the request's URI is too long"),
        415 => (
            "unsupported_media_type",
            "the body must be JSON (Content-Type: application/json)",
        ),
        431 => ("headers_too_large", "the request's headers are too large"),
        501 => ("not_implemented", "the server does not do that"),
        505 => ("http_version", "the server speaks HTTP/1.1"),
        s if s >= 500 => ("internal", "the server failed to answer"),
        _ => ("bad_request", "the request was refused"),
    };
    ApiError::new(status, code, reason)
}

/// The kernel's send buffer of a WebSocket: fixed, not grown by the kernel's autotuning
/// (up to 4 MB a socket on Linux), so that a subscriber that stops reading holds at most
/// this much of the server's memory before its sends block and it is dropped as too slow.
const WS_SEND_BUFFER: libc::c_int = 64 * 1024;

#[cfg(unix)]
fn raw_fd(stream: &TcpStream) -> libc::c_int {
    use std::os::fd::AsRawFd;
    stream.as_raw_fd()
}

#[cfg(not(unix))]
fn raw_fd(_: &TcpStream) -> libc::c_int {
    -1
}

/// Sets a connection's send buffer to [`WS_SEND_BUFFER`] (called while the connection, and
/// so its descriptor, is open).
fn bound_send_buffer(fd: libc::c_int) {
    #[cfg(unix)]
    if fd >= 0 {
        // SAFETY: setsockopt reads `size_of::<c_int>()` bytes from a live c_int; the
        // descriptor belongs to this open connection.
        unsafe {
            libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_SNDBUF,
                (&WS_SEND_BUFFER as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
        }
    }
}

/// What the accept loop needs.
pub struct Edge {
    pub limits: Limits,
    pub conns: Arc<Conns>,
    pub body_limit: usize,
}

impl Edge {
    /// The address a request is counted against.
    fn client(&self, peer: SocketAddr, headers: &axum::http::HeaderMap) -> IpAddr {
        if self.limits.trusted_proxy == Some(peer.ip()) {
            // The last address is the one the trusted proxy added; earlier ones are what
            // the client claimed.
            let forwarded = headers
                .get_all("x-forwarded-for")
                .iter()
                .filter_map(|v| v.to_str().ok())
                .flat_map(|v| v.split(','))
                .filter_map(|a| a.trim().parse::<IpAddr>().ok())
                .next_back();
            if let Some(ip) = forwarded {
                return ip;
            }
        }
        peer.ip()
    }
}

/// Accepts connections until `stop` turns true, then lets the open ones finish their
/// requests (at most 10 s).
pub async fn serve(
    tcp: TcpListener,
    router: Router,
    edge: Arc<Edge>,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    let (closing_tx, closing) = watch::channel(false);
    let tasks = tokio_util_tasks::Tasks::default();
    tokio::spawn(give_memory_back(edge.conns.clone(), closing.clone()));
    loop {
        let accepted = tokio::select! {
            a = tcp.accept() => a,
            _ = stop.changed() => break,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of file descriptors (or a connection reset before accept): wait a
                // little instead of spinning.
                edge.conns.say(|| tracing::error!("cannot accept: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let exempt = edge.limits.trusted_proxy == Some(peer.ip());
        let slot = match edge.conns.admit(peer.ip(), exempt, raw_fd(&stream)) {
            Ok(s) => s,
            Err(which) => {
                edge.conns.refuse(peer, which);
                drop(stream);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        // The socket and its place are one value from here (see `Socket::slot`).
        let socket = Socket {
            slot,
            inner: stream,
            start: Instant::now(),
            pending: None,
        };
        tasks.spawn(connection(socket, peer, router.clone(), edge.clone(), closing.clone()));
    }
    drop(tcp);
    let _ = closing_tx.send(true);
    tasks.wait(Duration::from_secs(10)).await;
    Ok(())
}

/// Counts the connection tasks, so that a stop can wait for them.
mod tokio_util_tasks {
    use std::sync::Arc;
    use std::time::Duration;

    #[derive(Default)]
    pub struct Tasks(Arc<()>);

    impl Tasks {
        pub fn spawn(&self, f: impl std::future::Future<Output = ()> + Send + 'static) {
            let token = self.0.clone();
            tokio::spawn(async move {
                f.await;
                drop(token);
            });
        }

        pub async fn wait(self, at_most: Duration) {
            let deadline = tokio::time::Instant::now() + at_most;
            while Arc::strong_count(&self.0) > 1 && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    }
}

async fn connection(
    socket: Socket,
    peer: SocketAddr,
    router: Router,
    edge: Arc<Edge>,
    mut closing: watch::Receiver<bool>,
) {
    let start = socket.start;
    let watch = socket.slot.watch.clone();
    let fd = watch.fd;
    let service = {
        let watch = watch.clone();
        let edge = edge.clone();
        hyper::service::service_fn(move |req: Request<hyper::body::Incoming>| {
            let watch = watch.clone();
            let edge = edge.clone();
            let router = router.clone();
            async move {
                watch.in_flight.fetch_add(1, Ordering::Relaxed);
                watch.head_method.store(req.method() == Method::HEAD, Ordering::Relaxed);
                let response = answer(req, peer, &edge, router).await;
                if response.status() == StatusCode::SWITCHING_PROTOCOLS {
                    watch.upgraded.store(true, Ordering::Relaxed);
                    bound_send_buffer(fd);
                }
                watch.head_started.store(false, Ordering::Relaxed);
                watch.mark(start);
                watch.in_flight.fetch_sub(1, Ordering::Relaxed);
                Ok::<_, std::convert::Infallible>(response)
            }
        })
    };
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        // The watchdog below times heads (hyper's timer would also close idle keep-alive
        // connections at the header timeout).
        .header_read_timeout(None)
        .keep_alive(true)
        .max_buf_size(128 * 1024);
    let conn = builder.serve_connection(TokioIo::new(socket), service).with_upgrades();
    tokio::pin!(conn);
    let limits = &edge.limits;
    loop {
        let deadline = watchdog_deadline(&watch, limits, start);
        tokio::select! {
            _ = &mut conn => return,
            _ = watch.changed.notified() => {
                if watch.evicted.load(Ordering::Relaxed) {
                    return;
                }
            }
            _ = closing.changed() => {
                conn.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(Duration::from_secs(10), &mut conn).await;
                return;
            }
            _ = tokio::time::sleep_until(tokio::time::Instant::from_std(deadline)) => {
                if watchdog_deadline(&watch, limits, start) <= Instant::now() {
                    // Too slow a head or too long idle: close (dropping the connection).
                    return;
                }
            }
        }
    }
}

/// When the connection is to be closed if nothing changes: idle or a head under way too
/// long; far away while a request is answered or once a WebSocket.
fn watchdog_deadline(watch: &Watch, limits: &Limits, start: Instant) -> Instant {
    let since = start + Duration::from_millis(watch.since.load(Ordering::Relaxed));
    if watch.upgraded.load(Ordering::Relaxed) || watch.in_flight.load(Ordering::Relaxed) > 0 {
        // Checked again a little later; the request timeout bounds an answer.
        return Instant::now() + Duration::from_secs(1);
    }
    if watch.head_started.load(Ordering::Relaxed) {
        since + limits.header_timeout
    } else {
        since + limits.idle_timeout
    }
}

/// The largest body read for a path: the routes that take a board file take one of
/// 16 KB whatever the server's limit (`boards::BOARD_BODY_LIMIT`).
fn body_limit(edge: &Edge, path: &str) -> usize {
    if crate::boards::takes_board_file(path) {
        edge.body_limit.max(crate::boards::BOARD_BODY_LIMIT)
    } else {
        edge.body_limit
    }
}

/// One request: the client's address, the body read within its timeout, the router's
/// answer within the request timeout.
async fn answer(req: Request<hyper::body::Incoming>, peer: SocketAddr, edge: &Edge, router: Router) -> Response {
    use tower::Service;
    let client = edge.client(peer, req.headers());
    let (mut parts, body) = req.into_parts();
    // The host a proxy forwarded for is believed only from the trusted proxy (the origin
    // check compares a page's `Origin` with it): from anyone else it is dropped.
    if edge.limits.trusted_proxy != Some(peer.ip()) {
        parts.headers.remove("x-forwarded-host");
    }
    parts.extensions.insert(ConnectInfo(peer));
    parts.extensions.insert(ClientIp(client));
    let limits = &edge.limits;
    let upgrade = parts.headers.contains_key(header::UPGRADE);
    let body = if upgrade {
        Body::new(body)
    } else {
        // Read here, within the body timeout and the size limit, so that a handler never
        // waits for a slow client.
        match tokio::time::timeout(
            limits.body_timeout,
            axum::body::to_bytes(Body::new(body), body_limit(edge, parts.uri.path())),
        )
        .await
        {
            Ok(Ok(bytes)) => Body::from(bytes),
            Ok(Err(e)) => {
                // axum's error says no more than this about the limit.
                let too_large = e.to_string().contains("length limit");
                let status = if too_large {
                    StatusCode::PAYLOAD_TOO_LARGE
                } else {
                    StatusCode::BAD_REQUEST
                };
                return closing(http_error(status).into_response());
            }
            Err(_) => return closing(http_error(StatusCode::REQUEST_TIMEOUT).into_response()),
        }
    };
    let req = Request::from_parts(parts, body);
    let mut router = router;
    match tokio::time::timeout(limits.request_timeout, router.call(req)).await {
        Ok(Ok(r)) => r,
        Ok(Err(never)) => match never {},
        Err(_) => {
            let mut r = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "request_timeout",
                "the answer took too long; try again later",
            )
            .into_response();
            r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(5));
            r
        }
    }
}

/// An answer after which the connection closes (its body may be left unread).
fn closing(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_error_answers_get_a_json_body() {
        let hyper431 = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(with_json_body(hyper431, false).unwrap()).unwrap();
        assert!(
            out.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\ndate: x\r\n"),
            "{out}"
        );
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}", body.len())), "{head}");
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["error"], "headers_too_large");
        // Answers with a body, successes and HEAD answers are left alone.
        assert!(with_json_body(b"HTTP/1.1 404 Not Found\r\ncontent-length: 2\r\n\r\n{}", false).is_none());
        assert!(with_json_body(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", false).is_none());
        assert!(with_json_body(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n", true).is_none());
    }

    #[test]
    fn forwarded_for_is_believed_only_from_the_trusted_proxy() {
        let proxy: SocketAddr = "127.0.0.9:4000".parse().unwrap();
        let other: SocketAddr = "127.0.0.3:4000".parse().unwrap();
        let mut headers = axum::http::HeaderMap::new();
        headers.insert("x-forwarded-for", HeaderValue::from_static("6.6.6.6, 10.1.2.3"));
        let edge = Edge {
            limits: Limits {
                trusted_proxy: Some(proxy.ip()),
                ..Limits::default()
            },
            conns: Conns::new(1, 1),
            body_limit: 10,
        };
        assert_eq!(edge.client(proxy, &headers), "10.1.2.3".parse::<IpAddr>().unwrap());
        assert_eq!(edge.client(other, &headers), other.ip());
        let plain = Edge {
            limits: Limits::default(),
            conns: Conns::new(1, 1),
            body_limit: 10,
        };
        assert_eq!(plain.client(proxy, &headers), proxy.ip());
    }
}
