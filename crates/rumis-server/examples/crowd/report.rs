//! The run's figures in words: the lines `crowd` prints, the last of them one row of the
//! table `scripts/load` prints.

use std::sync::atomic::Ordering;

use crate::games::Run;
use crate::support::pct_ms;
use crate::{Options, WATCHERS};

/// What the run measured beside its figures.
pub struct Measured {
    pub played: usize,
    pub stalled: usize,
    pub setup_seconds: f64,
    /// The server's resident memory in KB: with every socket open, its peak, at the end.
    pub rss_ready: u64,
    pub peak: u64,
    pub rss_end: u64,
    /// The seconds of moves, and the CPU seconds the server and this client used in them.
    pub wall: f64,
    pub server_cpu: f64,
    pub client_cpu: f64,
}

/// The report: the figures, the errors by kind (the eight most frequent) and the table's row.
pub fn words(o: &Options, run: &Run, m: &Measured) -> String {
    let Measured {
        played,
        stalled,
        setup_seconds,
        rss_ready,
        peak,
        rss_end,
        wall,
        server_cpu,
        client_cpu,
    } = *m;
    let mut f = run.figures.lock().unwrap();
    f.ack.sort_unstable();
    f.event.sort_unstable();
    f.timeout_late.sort_unstable();
    let sent = run.sent.load(Ordering::Relaxed);
    let acked = run.acked.load(Ordering::Relaxed);
    let late_p50 = f.timeout_late.get(f.timeout_late.len() / 2).copied();
    let late_max = f.timeout_late.last().copied();
    let late_over_1s = f.timeout_late.iter().filter(|&&l| l > 1000).count();
    let errors: u64 = f.errors.values().sum();
    let mut lines = vec![
        format!(
            "{} games ({played} played, {stalled} stalled), {} WebSockets, {}; set-up {setup_seconds:.1} s; \
             moves for {:.0} s at {} a second (planned {})",
            o.games,
            o.games * WATCHERS,
            if o.postgres { "PostgreSQL" } else { "SQLite" },
            o.seconds,
            o.rate,
            (o.seconds * o.rate).round()
        ),
        format!(
            "moves sent {sent}, acknowledged {acked} ({:.0}/s); ack p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            acked as f64 / o.seconds,
            pct_ms(&f.ack, 0.5),
            pct_ms(&f.ack, 0.99),
            pct_ms(&f.ack, 1.0)
        ),
        format!(
            "move events at the other clients: {} of {}; p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            f.event.len(),
            acked * WATCHERS as u64,
            pct_ms(&f.event, 0.5),
            pct_ms(&f.event, 0.99),
            pct_ms(&f.event, 1.0)
        ),
        format!(
            "timeouts seen {}: late p50 {} ms, max {} ms, {late_over_1s} later than 1 s",
            f.timeout_late.len(),
            late_p50.map_or("-".into(), |v| v.to_string()),
            late_max.map_or("-".into(), |v| v.to_string())
        ),
        format!(
            "server RSS: {:.0} MB with every socket open, peak {:.0} MB, end {:.0} MB; games made {}, sockets opened {}",
            rss_ready as f64 / 1024.0,
            peak as f64 / 1024.0,
            rss_end as f64 / 1024.0,
            f.games_created,
            f.sockets_opened
        ),
        format!(
            "CPU over the {wall:.0} s of moves: server {:.0} % of a core, this client {:.0} %",
            server_cpu / wall * 100.0,
            client_cpu / wall * 100.0
        ),
        format!("errors {errors}"),
    ];
    let mut errs: Vec<_> = f.errors.iter().collect();
    errs.sort_by(|a, b| b.1.cmp(a.1));
    for (e, n) in errs.iter().take(8) {
        lines.push(format!("  {n} × {e}"));
    }
    // One row of the table scripts/load prints.
    lines.push(format!(
        "row: | {} | {} | {} | {acked} | {:.1} / {:.1} / {:.0} | {:.1} / {:.1} / {:.0} | {:.0} / {:.0} | {} | {} / {} | {:.0} % / {:.0} % | {errors} |",
        if o.postgres { "PostgreSQL" } else { "SQLite" },
        o.games,
        o.games * WATCHERS,
        pct_ms(&f.ack, 0.5),
        pct_ms(&f.ack, 0.99),
        pct_ms(&f.ack, 1.0),
        pct_ms(&f.event, 0.5),
        pct_ms(&f.event, 0.99),
        pct_ms(&f.event, 1.0),
        peak as f64 / 1024.0,
        rss_end as f64 / 1024.0,
        f.timeout_late.len(),
        late_p50.map_or("-".into(), |v| format!("{v} ms")),
        late_max.map_or("-".into(), |v| format!("{v} ms")),
        server_cpu / wall * 100.0,
        client_cpu / wall * 100.0,
    ));
    lines.join("\n")
}
