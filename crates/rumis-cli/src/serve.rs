//! `rumis serve`: the game server (crates/rumis-server, docs/server-api.md). Its options
//! also come from the environment and a configuration file (config.rs).

pub mod config;

use std::net::SocketAddr;
use std::path::PathBuf;

/// Every field is an option of the command line, and under the same name a key of the
/// configuration file and (as `RUMIS_NAME`) an environment variable: config.rs reads them
/// all from this one list.
#[derive(clap::Args)]
#[command(after_help = config::AFTER_HELP)]
pub struct ServeArgs {
    /// A configuration file (TOML) whose keys are these options' names
    /// (`rumis config --example` writes one).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The database: sqlite://PATH (created if missing) or postgres://...
    #[arg(long, value_name = "URL", default_value = "sqlite://./rumis.db")]
    database_url: String,
    /// AI moves computed at once (0: AI seats wait).
    #[arg(long, value_name = "N")]
    ai_workers: Option<usize>,
    /// Seconds an instance's lease on an AI turn it computes lasts without a heartbeat (one
    /// every third of it); another instance of the same database takes the turn over when
    /// it expires, or when an AI turn waited this long with no lease.
    #[arg(long, value_name = "SECS", default_value_t = 15.0)]
    ai_lease: f64,
    /// Requests per second allowed per client address (with a burst of three seconds' worth).
    #[arg(long, value_name = "N", default_value_t = 40.0)]
    rate: f64,
    /// Player keys one client address may make per hour.
    #[arg(long, value_name = "N", default_value_t = 20.0)]
    keys_per_hour: f64,
    /// The built web app to serve at / (default: the one built into this binary, else
    /// web/dist if it exists).
    #[arg(long, value_name = "DIR")]
    web_dir: Option<PathBuf>,
    /// Days without a move after which an unfinished game is marked abandoned (0: never).
    #[arg(long, value_name = "DAYS", default_value_t = 30.0)]
    game_ttl: f64,
    /// Open games without a human seat allowed per creating address, and in all.
    #[arg(long, value_name = "N", default_value_t = 2)]
    ai_only_per_address: i64,
    #[arg(long, value_name = "N", default_value_t = 8)]
    ai_only_total: i64,
    /// Seconds a client has to send a request head, from its first byte.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    header_timeout: f64,
    /// Seconds a connection may stay open with no request under way.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    idle_timeout: f64,
    /// Seconds a client has to send a request body.
    #[arg(long, value_name = "SECS", default_value_t = 20.0)]
    body_timeout: f64,
    /// Seconds the server takes at most to answer a request (503 after).
    #[arg(long, value_name = "SECS", default_value_t = 120.0)]
    request_timeout: f64,
    /// Open connections (WebSockets included) allowed from one client address.
    #[arg(long, value_name = "N", default_value_t = 256)]
    max_connections_per_address: usize,
    /// Open connections allowed in total (lowered to fit the open-file limit).
    #[arg(long, value_name = "N", default_value_t = 16_384)]
    max_connections: usize,
    /// A reverse proxy's address: only from it is X-Forwarded-For believed (for the rate
    /// limit and the caps); without it the header is ignored.
    #[arg(long, value_name = "ADDR")]
    trusted_proxy: Option<std::net::IpAddr>,
    /// Game WebSockets without a seat's token (watchers) allowed open from one client
    /// address (a seated player's and the lobby's have caps of their own).
    #[arg(long, value_name = "N", default_value_t = 64)]
    ws_per_address: usize,
    /// Watchers allowed open on one game.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    ws_per_game: usize,
    /// On SIGTERM, seconds during which /readyz answers 503 while all else is still served,
    /// before the server stops (0: stop at once; a second signal cuts the wait short).
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    drain_seconds: f64,
    /// Serve /metrics on this address instead of the public one (e.g. 127.0.0.1:9100, for a
    /// scraper on a private network); without it /metrics is on --addr with everything
    /// else, and a proxy in front should refuse it to the public.
    #[arg(long, value_name = "ADDR")]
    metrics_addr: Option<SocketAddr>,
    /// The logs on standard error: text lines, or one JSON object a line (with the
    /// request's id on the lines of a request's work).
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

impl ServeArgs {
    pub fn log_format(&self) -> LogFormat {
        self.log_format
    }
}

/// Seconds from an option, which must be positive and finite.
fn seconds(name: &str, v: f64) -> Result<std::time::Duration, String> {
    if v.is_finite() && v > 0.0 && v < 1e9 {
        Ok(std::time::Duration::from_secs_f64(v))
    } else {
        Err(format!("--{name} must be a positive number of seconds"))
    }
}

/// The web app's directory: the one given (`--web-dir`, `RUMIS_WEB_DIR` or the file), else
/// none when the binary carries the app, else `web/dist` if it is there (a build for
/// development, run from the repository). One given that is not a directory is an error.
fn web_dir(given: Option<PathBuf>, built_in: bool) -> Result<Option<PathBuf>, String> {
    match given {
        Some(dir) if dir.is_dir() => Ok(Some(dir)),
        Some(dir) => Err(format!("the web app directory {} is not a directory", dir.display())),
        None if built_in => Ok(None),
        None => Ok(Some(PathBuf::from("web/dist")).filter(|d| d.is_dir())),
    }
}

pub fn run(args: &ServeArgs) -> Result<(), String> {
    let mut config = rumis_server::Config::new(args.addr, args.database_url.clone());
    if let Some(n) = args.ai_workers {
        config.ai_workers = n;
    }
    if args.rate.is_nan() || args.rate <= 0.0 {
        return Err("--rate must be positive".into());
    }
    config.rate_per_second = args.rate;
    config.rate_burst = (args.rate * 3.0).max(1.0);
    if args.keys_per_hour.is_nan() || args.keys_per_hour < 1.0 {
        return Err("--keys-per-hour must be 1 or more".into());
    }
    config.keys_per_hour = args.keys_per_hour;
    config.web_dir = web_dir(args.web_dir.clone(), config.embedded_web.is_some())?;
    if !args.game_ttl.is_finite() || args.game_ttl < 0.0 {
        return Err("--game-ttl is a number of days, 0 or more".into());
    }
    config.game_ttl =
        (args.game_ttl > 0.0).then(|| std::time::Duration::from_secs_f64((args.game_ttl * 86_400.0).min(1e10)));
    config.ai_lease = seconds("ai-lease", args.ai_lease)?;
    config.ai_heartbeat = config.ai_lease / 3;
    config.ai_only_per_creator = args.ai_only_per_address;
    config.ai_only_total = args.ai_only_total;
    let limits = &mut config.limits;
    limits.header_timeout = seconds("header-timeout", args.header_timeout)?;
    limits.idle_timeout = seconds("idle-timeout", args.idle_timeout)?;
    limits.body_timeout = seconds("body-timeout", args.body_timeout)?;
    limits.request_timeout = seconds("request-timeout", args.request_timeout)?;
    if args.max_connections == 0 || args.max_connections_per_address == 0 {
        return Err("--max-connections and --max-connections-per-address must be at least 1".into());
    }
    limits.connections = args.max_connections;
    limits.connections_per_address = args.max_connections_per_address;
    limits.trusted_proxy = args.trusted_proxy;
    if args.ws_per_address == 0 || args.ws_per_game == 0 {
        return Err("--ws-per-address and --ws-per-game must be at least 1".into());
    }
    config.ws.per_address = args.ws_per_address;
    config.ws.per_game = args.ws_per_game;
    if !args.drain_seconds.is_finite() || !(0.0..=3600.0).contains(&args.drain_seconds) {
        return Err("--drain-seconds is a number of seconds from 0 to 3600".into());
    }
    config.drain_delay = std::time::Duration::from_secs_f64(args.drain_seconds);
    config.metrics_addr = args.metrics_addr;
    rumis_server::serve_blocking(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_web_dir_must_be_a_directory() {
        let dir = std::env::temp_dir();
        assert_eq!(web_dir(Some(dir.clone()), true), Ok(Some(dir.clone())));
        let missing = dir.join("rumis-no-such-web-dir");
        let e = web_dir(Some(missing), false).unwrap_err();
        assert!(
            e.contains("rumis-no-such-web-dir") && e.contains("not a directory"),
            "{e}"
        );
    }
}
