//! The caps on connections: per client address and in total, the total sized below the
//! file-descriptor limit, and at the total the heaviest address making room for a newcomer
//! ([`Open::make_room`]); each connection's [`Watch`], which the caps and the edge's
//! watchdog read; and the memory given back after a flood of connections went away.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::watch;

/// File descriptors kept free of connections: the database pool, the listener, files.
pub(super) const RESERVED_FDS: u64 = 128;

/// Raises the soft limit on open files to the hard limit (where allowed) and returns the
/// soft limit then in force (None where it cannot be read).
#[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit only writes the struct given, which lives here.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
            return None;
        }
        if lim.rlim_cur < lim.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: lim.rlim_max,
                rlim_max: lim.rlim_max,
            };
            // SAFETY: setrlimit only reads the struct given.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
                lim.rlim_cur = lim.rlim_max;
            }
        }
        Some(lim.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    None
}

/// The total cap that fits `fds` open files.
pub fn cap_for_fds(wanted: usize, fds: Option<u64>) -> usize {
    match fds {
        Some(n) if n == libc_infinity() => wanted,
        Some(n) => {
            let room = if n > 2 * RESERVED_FDS { n - RESERVED_FDS } else { n / 2 };
            wanted.min(room as usize).max(1)
        }
        None => wanted,
    }
}

#[cfg(unix)]
#[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
fn libc_infinity() -> u64 {
    libc::RLIM_INFINITY as u64
}

#[cfg(not(unix))]
fn libc_infinity() -> u64 {
    u64::MAX
}

/// Open connections by client address.
pub struct Conns {
    per_address: usize,
    total: usize,
    open: Mutex<Open>,
    refused: AtomicU64,
    last_said: Mutex<Option<Instant>>,
    /// The most connections open at once since the last trim (for [`give_memory_back`]).
    peak: AtomicUsize,
}

/// How often a refusal is said in the log at most.
const LOG_EVERY: Duration = Duration::from_secs(5);

/// Connections told to make room and not yet closed, at most: each holds its file
/// descriptor until its task ends, so the total may be passed by this many (well within
/// [`RESERVED_FDS`]).
const LEAVING_AT_MOST: usize = 32;

#[derive(Default)]
struct Open {
    count: usize,
    by_ip: HashMap<IpAddr, Vec<Held>>,
    /// Told to make room ([`Watch::evict`]), not yet closed.
    leaving: usize,
    next_id: u64,
}

/// An open connection as the caps see it.
struct Held {
    id: u64,
    watch: Arc<Watch>,
    /// From the trusted proxy: never made to leave for another address (it speaks for
    /// many).
    exempt: bool,
}

impl Open {
    /// An address's connections that are not leaving.
    fn staying(held: &[Held]) -> usize {
        held.iter().filter(|h| !h.watch.evicted.load(Ordering::Relaxed)).count()
    }

    /// Tells one connection of the address holding the most to leave, if that address
    /// holds more than one connection more than `ip`; its place is `ip`'s. The connection
    /// chosen is the address's oldest idle one, else its oldest not yet a WebSocket, else
    /// its oldest. Returns the address made to give way.
    fn make_room(&mut self, ip: IpAddr) -> Option<(IpAddr, usize)> {
        if self.leaving >= LEAVING_AT_MOST {
            return None;
        }
        let mine = self.by_ip.get(&ip).map_or(0, |h| Open::staying(h));
        let (heavy, held) = self
            .by_ip
            .iter()
            .filter(|(_, held)| held.first().is_some_and(|h| !h.exempt))
            .map(|(ip, held)| (*ip, Open::staying(held)))
            .max_by_key(|&(_, n)| n)?;
        if held <= mine + 1 {
            return None;
        }
        let staying: Vec<&Held> = self.by_ip[&heavy]
            .iter()
            .filter(|h| !h.watch.evicted.load(Ordering::Relaxed))
            .collect();
        let victim = staying
            .iter()
            .find(|h| h.watch.idle())
            .or_else(|| staying.iter().find(|h| !h.watch.upgraded.load(Ordering::Relaxed)))
            .or_else(|| staying.first())?;
        victim.watch.evict();
        self.leaving += 1;
        Some((heavy, held))
    }
}

impl Conns {
    pub fn new(per_address: usize, total: usize) -> Arc<Conns> {
        Arc::new(Conns {
            per_address: per_address.max(1),
            total: total.max(1),
            open: Mutex::new(Open::default()),
            refused: AtomicU64::new(0),
            last_said: Mutex::new(None),
            peak: AtomicUsize::new(0),
        })
    }

    /// A place for a connection from `ip` on the socket `fd` (`exempt`: the trusted proxy,
    /// which speaks for many clients and meets only the total cap), or the cap it is over.
    /// At the total, the place may be made by another address's connection leaving
    /// ([`Open::make_room`]).
    pub(super) fn admit(self: &Arc<Conns>, ip: IpAddr, exempt: bool, fd: RawSocket) -> Result<Slot, &'static str> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let mine = open.by_ip.get(&ip).map_or(0, Vec::len);
        if !exempt && mine >= self.per_address {
            return Err("the per-address");
        }
        if open.count >= self.total {
            let Some((heavy, held)) = open.make_room(ip) else {
                return Err("the total");
            };
            self.say(|| {
                tracing::warn!(
                    peer = %ip,
                    "at the connection cap: a connection of {heavy} (holding {held}) closed to admit one"
                )
            });
        }
        let watch = Arc::new(Watch { fd, ..Watch::default() });
        let id = open.next_id;
        open.next_id += 1;
        open.by_ip.entry(ip).or_default().push(Held {
            id,
            watch: watch.clone(),
            exempt,
        });
        open.count += 1;
        self.peak.fetch_max(open.count, Ordering::Relaxed);
        Ok(Slot {
            conns: self.clone(),
            ip,
            id,
            watch,
        })
    }

    pub(super) fn refuse(&self, peer: SocketAddr, which: &str) {
        let n = self.refused.fetch_add(1, Ordering::Relaxed) + 1;
        self.say(|| {
            tracing::warn!(
                peer = %peer.ip(),
                "connection refused: over {which} cap ({n} refused so far)"
            )
        });
    }

    /// Logs (`log` emits the event) unless this logged in the last [`LOG_EVERY`].
    pub(super) fn say(&self, log: impl FnOnce()) {
        let now = Instant::now();
        let mut last = self.last_said.lock().unwrap_or_else(|e| e.into_inner());
        if last.is_none_or(|t| now.duration_since(t) >= LOG_EVERY) {
            *last = Some(now);
            log();
        }
    }

    /// Connections open now (from `ip`, or in total).
    pub fn open(&self, ip: Option<IpAddr>) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        match ip {
            Some(ip) => open.by_ip.get(&ip).map_or(0, Vec::len),
            None => open.count,
        }
    }
}

/// A connection's place under the caps, given back when its socket closes (a WebSocket's
/// too: the slot lives in the socket's wrapper, which the upgraded stream keeps). It must
/// be dropped before the socket's file descriptor is closed ([`Watch::evict`] relies on it).
pub(super) struct Slot {
    pub(super) conns: Arc<Conns>,
    pub(super) ip: IpAddr,
    pub(super) id: u64,
    pub(super) watch: Arc<Watch>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.conns.open.lock().unwrap_or_else(|e| e.into_inner());
        open.count = open.count.saturating_sub(1);
        if self.watch.evicted.load(Ordering::Relaxed) {
            open.leaving = open.leaving.saturating_sub(1);
        }
        if let Some(held) = open.by_ip.get_mut(&self.ip) {
            held.retain(|h| h.id != self.id);
            if held.is_empty() {
                open.by_ip.remove(&self.ip);
            }
        }
    }
}

pub(super) type RawSocket = libc::c_int;

/// What the watchdog of a connection knows.
#[derive(Default)]
pub(super) struct Watch {
    /// Milliseconds since `start` of the last state change below.
    pub(super) since: AtomicU64,
    /// Requests being answered.
    pub(super) in_flight: AtomicUsize,
    /// Bytes arrived since the last answer (a request head is under way).
    pub(super) head_started: AtomicBool,
    /// A WebSocket now: its own pings keep it alive.
    pub(super) upgraded: AtomicBool,
    /// The request being answered is a HEAD (its error answer gets no body).
    pub(super) head_method: AtomicBool,
    /// Wakes the watchdog when a head starts (its deadline comes nearer).
    pub(super) changed: tokio::sync::Notify,
    /// The connection's socket (-1 where unknown).
    pub(super) fd: RawSocket,
    /// Told to make room for another address's connection ([`Open::make_room`]).
    pub(super) evicted: AtomicBool,
}

impl Watch {
    pub(super) fn mark(&self, start: Instant) {
        self.since.store(start.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    /// Between requests, not a WebSocket.
    pub(super) fn idle(&self) -> bool {
        !self.upgraded.load(Ordering::Relaxed)
            && self.in_flight.load(Ordering::Relaxed) == 0
            && !self.head_started.load(Ordering::Relaxed)
    }

    /// Closes the connection from under whoever reads it: its reads end and its writes
    /// fail, whether hyper or a WebSocket holds it, and its task ends and gives its place
    /// back. Called with the caps' lock held.
    pub(super) fn evict(&self) {
        self.evicted.store(true, Ordering::Relaxed);
        #[cfg(unix)]
        if self.fd >= 0 {
            // SAFETY: `shutdown` changes only the state of the socket `fd`, and `fd` is
            // still this connection's socket: this runs under the caps' lock while the
            // connection's `Slot` is listed, and the `Slot` leaves the list (under that
            // lock) before the socket closes (it is the first field of `Socket`), so the
            // number cannot have been reused for another file.
            unsafe {
                libc::shutdown(self.fd, libc::SHUT_RDWR);
            }
        }
        self.changed.notify_one();
    }
}

/// After many connections closed (a flood of WebSockets, say), gives the freed memory
/// back to the system. glibc's malloc keeps it otherwise: 2 000 closed WebSockets left a
/// server at 126 MB resident instead of 13 (mimalloc, tried instead, kept it too: its
/// idle threads never purge). `malloc_trim` releases the free pages of every arena.
///
/// Only after a flood *went away* (open connections fell by [`TRIM_AFTER_FALL`] from their
/// peak since the last trim), not after every so many closes: ordinary requests close a
/// connection each, and trimming every 2 s under that load walked the whole heap (the
/// bigger, the more subscribers were open) and made the freed pages fault back in on the
/// move path — 2 000 idle subscribers halved an unrelated game's move rate.
pub(super) async fn give_memory_back(conns: Arc<Conns>, mut stop: watch::Receiver<bool>) {
    const EVERY: Duration = Duration::from_secs(2);
    loop {
        tokio::select! {
            _ = tokio::time::sleep(EVERY) => {}
            _ = stop.changed() => return,
        }
        let open = conns.open(None);
        if conns.peak.load(Ordering::Relaxed) >= open + TRIM_AFTER_FALL {
            conns.peak.store(open, Ordering::Relaxed);
            trim();
        }
    }
}

/// How far the open connections must fall from their peak for a trim.
const TRIM_AFTER_FALL: usize = 64;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_per_address_and_in_total() {
        let conns = Conns::new(2, 3);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        let s1 = conns.admit(a, false, -1).unwrap();
        let _s2 = conns.admit(a, false, -1).unwrap();
        assert!(conns.admit(a, false, -1).is_err(), "a third from one address");
        let _s3 = conns.admit(b, false, -1).unwrap();
        assert!(conns.admit(b, false, -1).is_err(), "over the total");
        drop(s1);
        assert_eq!(conns.open(Some(a)), 1);
        assert!(conns.admit(b, false, -1).is_ok(), "a place given back");
    }

    #[test]
    fn at_the_total_the_heaviest_address_makes_room() {
        let conns = Conns::new(4, 4);
        let [a, b, c]: [IpAddr; 3] = ["127.0.0.1", "127.0.0.2", "127.0.0.3"].map(|s| s.parse().unwrap());
        let a1 = conns.admit(a, false, -1).unwrap();
        a1.watch.upgraded.store(true, Ordering::Relaxed);
        let a2 = conns.admit(a, false, -1).unwrap();
        let _a3 = conns.admit(a, false, -1).unwrap();
        let _b1 = conns.admit(b, false, -1).unwrap();
        // c holds none and a three: a's oldest idle connection (not its WebSocket) leaves.
        let _c1 = conns.admit(c, false, -1).expect("a place made by a");
        assert!(a2.watch.evicted.load(Ordering::Relaxed));
        assert!(
            !a1.watch.evicted.load(Ordering::Relaxed),
            "a WebSocket only when nothing idle"
        );
        assert_eq!(conns.open(None), 5, "the leaving one holds its place until it closes");
        // Now a stays with 2, b and c with 1: nobody holds more than one over another.
        assert!(conns.admit(a, false, -1).is_err());
        assert!(conns.admit(b, false, -1).is_err());
        drop(a2);
        assert_eq!((conns.open(None), conns.open(Some(a))), (4, 2));
        let open = conns.open.lock().unwrap();
        assert_eq!(open.leaving, 0);
    }

    #[test]
    fn the_trusted_proxy_never_makes_room_and_leaving_is_bounded() {
        let conns = Conns::new(1, 3);
        let [proxy, b] = ["127.0.0.9", "127.0.0.2"].map(|s| s.parse::<IpAddr>().unwrap());
        let _held: Vec<Slot> = (0..3).map(|_| conns.admit(proxy, true, -1).unwrap()).collect();
        assert!(conns.admit(b, false, -1).is_err(), "the proxy speaks for many");

        let conns = Conns::new(1000, LEAVING_AT_MOST + 1);
        let heavy: IpAddr = "127.0.0.1".parse().unwrap();
        let _heavy: Vec<Slot> = (0..=LEAVING_AT_MOST)
            .map(|_| conns.admit(heavy, false, -1).unwrap())
            .collect();
        let newcomers: Vec<Slot> = (0..LEAVING_AT_MOST)
            .map(|i| conns.admit(IpAddr::from([127, 0, 1, i as u8]), false, -1).unwrap())
            .collect();
        assert_eq!(newcomers.len(), LEAVING_AT_MOST);
        assert!(
            conns.admit("127.0.2.1".parse().unwrap(), false, -1).is_err(),
            "no more places made while {LEAVING_AT_MOST} are still closing"
        );
    }

    #[test]
    fn the_total_cap_fits_the_fd_limit() {
        assert_eq!(cap_for_fds(16_384, Some(1024)), 1024 - RESERVED_FDS as usize);
        assert_eq!(cap_for_fds(500, Some(1_048_576)), 500);
        assert_eq!(cap_for_fds(16_384, Some(100)), 50);
    }
}
