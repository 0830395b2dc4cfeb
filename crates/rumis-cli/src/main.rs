//! `rumis`: the command line over the rules library.

mod agreement;
mod ai;
mod bench;
#[cfg(feature = "server")]
mod db;
mod engine;
mod experiment;
mod play;
mod puzzles;
#[cfg(feature = "server")]
mod serve;
mod solve;
mod source;
mod text;
mod train;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use rumis_core::{perft, perft_divide, record, Board, Rng};

use source::Source;

#[derive(Parser)]
#[command(name = "rumis", version, about = "Rumis (Blokus 3D): rules, analysis and tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the built-in scenarios: size, columns, Hmax, frames, provenance, evidence.
    Boards {
        /// Describe this board file instead.
        #[arg(long, value_name = "PATH")]
        board_file: Option<std::path::PathBuf>,
        /// Write this built-in board's file (TOML) to standard output, to edit as your own.
        #[arg(long, value_name = "NAME", conflicts_with = "board_file")]
        export: Option<String>,
    },
    /// Show a position: top view, the levels one by one, stones left, scores.
    Show(Source),
    /// Every legal placement for the colour to move, sorted, one per line.
    Moves(Source),
    /// Count the leaves of the game tree (docs/rules.md §8).
    Perft {
        #[arg(long, short)]
        depth: u32,
        /// One line per first move, `<move> <count>`, before the total.
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        source: Source,
    },
    /// Play games (by default of uniformly random legal moves) and write their records.
    Selfplay {
        #[command(flatten)]
        source: Source,
        /// Who plays every colour: random, greedy, level:1..9, mcts:SIMS (or a search with one
        /// part changed, as for `match`).
        #[arg(long, default_value = "random")]
        player: String,
        #[arg(long)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        games: usize,
        /// File to write the records to (one after the other).
        #[arg(long, value_name = "PATH")]
        out: std::path::PathBuf,
    },
    /// The scores of a record, one line per colour, then the winner once the game is over.
    Score(Source),
    /// Play in the terminal: type placements for each colour in turn (hot-seat), or
    /// against the AI (`--vs level:5`); `help` at the prompt lists the commands.
    Play(play::PlayArgs),
    /// The best placement for the colour to move, with its win estimate.
    Hint {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        search: ai::SearchArgs,
    },
    /// The win estimate of every colour after every move of a record, and the moves that lost the most.
    Analyze {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        search: ai::SearchArgs,
    },
    /// Review a game: every move beside the best the search found, marked inaccuracy,
    /// mistake or blunder by what it cost, and per colour a summary (level 8 by default).
    Review {
        #[command(flatten)]
        source: Source,
        #[command(flatten)]
        search: ai::SearchArgs,
        /// The review as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Check the review's marks: games of weak levels reviewed, and every marked move
    /// searched again with ten times the budget; how often it agrees the best shown is
    /// better (docs/strength.md, "Reviews").
    ReviewAgreement(agreement::AgreementArgs),
    /// Puzzles cut from games: generate, verify, count (docs/puzzles.md).
    #[command(subcommand)]
    Puzzles(puzzles::PuzzlesCommand),
    /// Play games between two players, seats rotated; report the score, its 95% interval and the Elo difference.
    Match(ai::MatchArgs),
    /// What each AI level does on a board, player count and variant: its budget, priors,
    /// model of the others, playouts, endgame and guard, as the search resolves them.
    Levels {
        #[command(flatten)]
        source: Source,
        /// One level (1-9) instead of all.
        #[arg(long)]
        level: Option<u8>,
    },
    /// Learn the search's move priors from game records (maximum likelihood of the moves
    /// played) and write the weights file; reports move prediction against today's priors.
    TrainPriors(train::TrainArgs),
    /// Speak the engine protocol on standard input and output (docs/engine-protocol.md).
    Engine,
    /// Solitaire puzzles: fill a box with stones.
    #[command(subcommand)]
    Solve(solve::SolveCommand),
    /// Measure move generation, perft and random playouts (docs/performance.md).
    Bench(bench::BenchArgs),
    /// Run the game server: JSON API and WebSockets under /api/v1 (docs/server-api.md).
    #[cfg(feature = "server")]
    Serve(serve::ServeArgs),
    /// The server's database: back it up (while the server runs), restore, check.
    #[cfg(feature = "server")]
    #[command(subcommand)]
    Db(db::DbCommand),
    /// Built without the server: `serve`, `db` and `config` say how to get it.
    #[cfg(not(feature = "server"))]
    #[command(name = "serve", aliases = ["db", "config"], hide = true)]
    NoServer {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        _args: Vec<String>,
    },
    /// The server's configuration file (docs/hosting.md).
    #[cfg(feature = "server")]
    Config {
        /// Write a commented file with every option of `rumis serve` and its default.
        #[arg(long, required = true)]
        example: bool,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if matches!(e.kind(), ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
                let _ = e.print();
                return ExitCode::from(2);
            }
            // One clear line, as every error of this tool.
            let msg = e.to_string();
            let line: Vec<&str> = msg
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            eprintln!(
                "rumis: {} (see rumis --help)",
                line.join(" ").trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    init_logs(match &cli.command {
        #[cfg(feature = "server")]
        Command::Serve(args) => Some(args.log_format() == serve::LogFormat::Json),
        _ => None,
    });
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rumis: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Logs (the server's, and the progress of long commands) go to standard error through
/// `tracing`, filtered as `RUST_LOG` says (default: `info`, e.g. `RUST_LOG=warn` or
/// `RUST_LOG=rumis_server=debug`). The server's lines carry the time, level and source; a
/// command's progress is its message alone. A command's result and its one error line are
/// output, not logs: they stay on standard output and standard error as before.
///
/// The filter is `tracing_subscriber`'s `Targets` (a level, and `target=level` pairs), not
/// its regex-based `EnvFilter`: nothing here filters on span fields, and the regex engine
/// was a tenth of a clean test build (issue #19). A `RUST_LOG` that does not parse is
/// said once and `info` used. `rumis serve --log-format json` writes one JSON object a
/// line, with the current span (a request's, holding its id) in each.
/// `server`: the server's logs, as JSON when `Some(true)`.
fn init_logs(server: Option<bool>) {
    use tracing_subscriber::filter::Targets;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let info = || Targets::new().with_default(tracing::Level::INFO);
    let (filter, refused) = match std::env::var("RUST_LOG") {
        Ok(s) if !s.trim().is_empty() => match s.parse::<Targets>() {
            Ok(t) => (t, None),
            Err(e) => (
                info(),
                Some(format!("RUST_LOG={s:?} is not a filter ({e}): logging at info")),
            ),
        },
        _ => (info(), None),
    };
    // The builder's own level (INFO unless told) would hide what `RUST_LOG` asks for
    // below it: the filter alone decides.
    let logs = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(std::io::stderr);
    if server == Some(true) {
        logs.json()
            .with_current_span(true)
            .with_span_list(false)
            .finish()
            .with(filter)
            .init();
    } else if server.is_some() {
        logs.finish().with(filter).init();
    } else {
        logs.without_time()
            .with_level(false)
            .with_target(false)
            .finish()
            .with(filter)
            .init();
    }
    if let Some(refused) = refused {
        tracing::warn!("{refused}");
    }
}

fn run(command: Command) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let mut print = |s: String| writeln!(out, "{s}").map_err(|e| format!("cannot write output: {e}"));
    match command {
        Command::Boards { export: Some(name), .. } => {
            let text = Board::builtin_file(&name).ok_or_else(|| {
                format!(
                    "no built-in board called \"{name}\" (the boards: {})",
                    Board::builtin_names()
                )
            })?;
            print(text.trim_end().to_string())?;
        }
        Command::Boards { board_file, .. } => {
            let boards: Vec<Board> = match board_file {
                Some(path) => vec![source::read_board_file(&path)?],
                None => Board::builtins().to_vec(),
            };
            print(text::boards_table(&boards))?;
        }
        Command::Show(src) => {
            let game = src.game()?;
            print(text::show(&game))?;
        }
        Command::Moves(src) => {
            let game = src.game()?;
            for m in game.legal_notations() {
                print(m)?;
            }
        }
        Command::Perft { depth, divide, source } => {
            for line in perft_lines(&source, depth, divide)? {
                print(line)?;
            }
        }
        Command::Selfplay {
            source,
            player,
            seed,
            games,
            out: path,
        } => selfplay(&source, &player, seed, games, &path)?,
        Command::Score(src) => {
            let game = src.game()?;
            print(text::score(&game))?;
        }
        Command::Play(args) => play::run(&args)?,
        Command::Hint { source, search } => print(ai::hint(&source, &search)?)?,
        Command::Analyze { source, search } => print(ai::analyze(&source, &search)?)?,
        Command::Review { source, search, json } => print(ai::review(&source, &search, json)?)?,
        Command::ReviewAgreement(args) => print(agreement::run(&args)?)?,
        Command::Puzzles(cmd) => print(puzzles::run(&cmd)?)?,
        Command::Match(args) => print(ai::run_match(&args)?)?,
        Command::Levels { source, level } => print(ai::levels(&source, level)?)?,
        Command::TrainPriors(args) => print(train::run(&args)?)?,
        Command::Engine => engine::run()?,
        Command::Solve(cmd) => print(solve::run(&cmd)?)?,
        Command::Bench(args) => bench::run(&args)?,
        // Read again with the environment's and the configuration file's values (serve/config.rs):
        // the arguments after `serve` (the command has no options before its subcommand).
        #[cfg(feature = "server")]
        Command::Serve(_) => {
            let cli: Vec<std::ffi::OsString> = std::env::args_os()
                .skip(1)
                .skip_while(|a| a != "serve")
                .skip(1)
                .collect();
            let args = serve::config::resolve(&cli, &|name| std::env::var_os(name))?;
            serve::run(&args)?
        }
        #[cfg(not(feature = "server"))]
        Command::NoServer { .. } => {
            return Err(
                "this rumis was built without the server (the cargo feature `server`, on by default): \
                        cargo build --release -p rumis-cli"
                    .into(),
            )
        }
        #[cfg(feature = "server")]
        Command::Config { .. } => print(serve::config::example().trim_end().to_string())?,
        #[cfg(feature = "server")]
        Command::Db(cmd) => {
            for line in db::run(&cmd)? {
                print(line)?;
            }
        }
    }
    Ok(())
}

/// `rumis perft`: the count, or with `divide` each first move's count and then the total.
fn perft_lines(source: &Source, depth: u32, divide: bool) -> Result<Vec<String>, String> {
    let game = source.game()?;
    let (site, pos) = (game.site(), game.position());
    if !(divide && depth > 0) {
        return Ok(vec![format!("{}", perft(site, pos, depth))]);
    }
    let mut rows: Vec<(String, u64)> = perft_divide(site, pos, depth)
        .into_iter()
        .map(|(m, n)| (site.notation(m), n))
        .collect();
    rows.sort();
    let total: u64 = rows.iter().map(|r| r.1).sum();
    let mut lines: Vec<String> = rows.into_iter().map(|(m, n)| format!("{m} {n}")).collect();
    lines.push(format!("{}", if pos.is_over() { 1 } else { total }));
    Ok(lines)
}

/// `rumis selfplay`: `games` new games played by `player`, their records written to `path`.
fn selfplay(source: &Source, player: &str, seed: u64, games: usize, path: &std::path::Path) -> Result<(), String> {
    if source.record.is_some() {
        return Err("selfplay starts new games: give --board and --players, not --record".into());
    }
    let spec = experiment::player(player)?;
    let mut rng = Rng::new(seed);
    let mut text = String::new();
    for i in 0..games {
        let mut game = source.new_game(Some(rng.next_u64()))?;
        game.tags
            .push(("Event".into(), format!("rumis selfplay, seed {seed}, game {}", i + 1)));
        if spec == rumis_ai::PlayerSpec::Random {
            game.play_random(&mut rng);
        } else {
            let mut p = spec.build(rng.next_u64(), 1);
            while let Some(m) = p.choose(&game) {
                game.play(m)
                    .map_err(|e| format!("the player chose an illegal move: {e}"))?;
            }
        }
        if i > 0 {
            text.push('\n');
        }
        text.push_str(&record::write(&game));
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    tracing::info!(
        "wrote {games} game{} to {}",
        if games == 1 { "" } else { "s" },
        path.display()
    );
    Ok(())
}
