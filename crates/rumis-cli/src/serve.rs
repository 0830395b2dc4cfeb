//! `rumis serve`: the game server (crates/rumis-server, docs/server-api.md).

use std::net::SocketAddr;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The database: sqlite://PATH (created if missing) or postgres://...
    #[arg(long, value_name = "URL", default_value = "sqlite://./rumis.db")]
    database_url: String,
    /// AI moves computed at once (0: AI seats wait).
    #[arg(long, value_name = "N")]
    ai_workers: Option<usize>,
    /// Requests per second allowed per client address (with a burst of three seconds' worth).
    #[arg(long, value_name = "N", default_value_t = 40.0)]
    rate: f64,
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
    rumis_server::serve_blocking(config)
}
