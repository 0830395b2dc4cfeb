//! `rumis puzzles`: cut puzzles from self-play and from records, verify them, count them
//! (the puzzles themselves: `rumis_ai::puzzles`; the files: docs/puzzles.md).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Subcommand};
use rumis_ai::puzzles::{self, Cutting, Proof, PuzzleSet, Theme};
use rumis_ai::PlayerSpec;
use rumis_core::record::Record;
use rumis_core::{record, Board, Game, Rng, Site, Variant};

#[derive(Subcommand, Debug, Clone)]
pub enum PuzzlesCommand {
    /// Cut puzzles from self-play games (levels 3-6 by default) and from given records,
    /// adding them to the scenario's file (puzzles/BOARD-PLAYERS.json).
    Generate(GenerateArgs),
    /// Verify every puzzle of the files again from nothing (exact ones by the solver,
    /// searched ones by their stored margins and a fresh search).
    Verify {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Count the puzzles by scenario, player count, theme and proof.
    Stats {
        /// Files, or directories of them (default: puzzles/).
        files: Vec<PathBuf>,
    },
}

#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// A built-in scenario (default: every one).
    #[arg(long, alias = "board")]
    pub scenario: Option<String>,
    /// The player count, 2-4 (default: every one).
    #[arg(long)]
    pub players: Option<usize>,
    /// Stop once the file holds this many puzzles.
    #[arg(long, default_value_t = 60)]
    pub count: usize,
    /// The file to add to (one scenario and player count only); by default
    /// DIR/BOARD-PLAYERS.json.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    #[arg(long, value_name = "DIR", default_value = "puzzles")]
    pub dir: PathBuf,
    /// Cut from these records first (every game of the file on the scenario asked for).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,
    /// The self-play levels, one game each in turn.
    #[arg(long, default_value = "3,4,5,6")]
    pub levels: String,
    /// Self-play games at most per scenario and player count.
    #[arg(long, default_value_t = 60)]
    pub max_games: usize,
    /// Exact puzzles at most from one game.
    #[arg(long, default_value_t = 3)]
    pub exact_per_game: usize,
    /// Searched puzzles at most from one game.
    #[arg(long, default_value_t = 1)]
    pub searched_per_game: usize,
    /// The simulations of each search of a searched proof.
    #[arg(long, default_value_t = 4_000)]
    pub simulations: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(cmd: &PuzzlesCommand) -> Result<String, String> {
    match cmd {
        PuzzlesCommand::Generate(args) => generate(args),
        PuzzlesCommand::Verify { files } => verify(files),
        PuzzlesCommand::Stats { files } => stats(files),
    }
}

fn read(path: &Path) -> Result<PuzzleSet, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    PuzzleSet::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}

fn generate(args: &GenerateArgs) -> Result<String, String> {
    let boards: Vec<Board> = match &args.scenario {
        Some(name) => vec![record::builtin_board(name).map_err(|e| e.to_string())?],
        None => Board::builtins().to_vec(),
    };
    let counts: Vec<usize> = args.players.map_or(vec![2, 3, 4], |n| vec![n]);
    if args.out.is_some() && boards.len() * counts.len() != 1 {
        return Err("--out names one file: give --scenario and --players with it".into());
    }
    let levels: Vec<u8> = args
        .levels
        .split(',')
        .map(|l| {
            l.trim()
                .parse::<u8>()
                .map_err(|_| format!("--levels: '{l}' is not a level"))
        })
        .collect::<Result<_, _>>()?;
    let mut lines = Vec::new();
    for board in &boards {
        for &players in &counts {
            let site = match Site::new(board.clone(), players, Variant::Standard, None) {
                Ok(s) => Arc::new(s),
                Err(e) => {
                    lines.push(format!("{} {players} players: skipped ({e})", board.name));
                    continue;
                }
            };
            let path = args
                .out
                .clone()
                .unwrap_or_else(|| args.dir.join(PuzzleSet::file_name(&board.name, players)));
            lines.push(generate_one(args, &levels, &site, &path)?);
        }
    }
    Ok(lines.join("\n"))
}

/// Fills one file up to `--count`: from the records given, then from self-play.
fn generate_one(args: &GenerateArgs, levels: &[u8], site: &Arc<Site>, path: &Path) -> Result<String, String> {
    let mut set = if path.exists() {
        read(path)?
    } else {
        PuzzleSet {
            board: site.board().name.clone(),
            players: site.players(),
            variant: Variant::Standard.name().into(),
            puzzles: Vec::new(),
        }
    };
    let before = set.puzzles.len();
    let cutting = Cutting {
        exact_per_game: args.exact_per_game,
        searched_per_game: args.searched_per_game,
        simulations: args.simulations,
    };
    let add = |set: &mut PuzzleSet, game: &Game, source: &str| {
        for p in puzzles::cut(game, &cutting, source) {
            if set.puzzles.len() < args.count && set.puzzles.iter().all(|q| q.id != p.id) {
                set.puzzles.push(p);
            }
        }
    };
    for game in given_games(args, site)? {
        if set.puzzles.len() >= args.count {
            break;
        }
        add(&mut set, &game.0, &game.1);
    }
    // The seed of each game follows from the file's scenario, so that files filled apart
    // do not repeat one another's games.
    let mut rng = Rng::new(args.seed ^ (site.players() as u64) << 32 ^ name_seed(&site.board().name));
    let mut games = 0;
    while set.puzzles.len() < args.count && games < args.max_games {
        let level = levels[games % levels.len()];
        let seed = rng.next_u64();
        games += 1;
        let mut game = Game::new(site.clone());
        let mut p = PlayerSpec::Level(level).build(seed, 1);
        while let Some(m) = p.choose(&game) {
            game.play(m)
                .map_err(|e| format!("the player chose an illegal move: {e}"))?;
        }
        add(&mut set, &game, &format!("self-play, level {level}, seed {seed}"));
        tracing::info!(
            "{} {} players: game {games}, {} puzzles",
            site.board().name,
            site.players(),
            set.puzzles.len()
        );
        // Written after every game: a run stopped keeps what it found.
        std::fs::write(path, set.to_json()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    std::fs::write(path, set.to_json()).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(format!(
        "{}: {} puzzles ({} new, from {games} self-play games)",
        path.display(),
        set.puzzles.len(),
        set.puzzles.len() - before
    ))
}

fn name_seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// The games of `--records` on `site`'s scenario and player count, each with its source.
fn given_games(args: &GenerateArgs, site: &Arc<Site>) -> Result<Vec<(Game, String)>, String> {
    let Some(path) = &args.records else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let records = Record::parse_all(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let game = r
            .to_game(record::builtin_board)
            .map_err(|e| format!("{}, game {}: {e}", path.display(), i + 1))?;
        let s = game.site();
        if s.board().name == site.board().name && s.players() == site.players() && s.variant() == Variant::Standard {
            out.push((game, format!("{}, game {}", path.display(), i + 1)));
        }
    }
    Ok(out)
}

fn verify(files: &[PathBuf]) -> Result<String, String> {
    let mut lines = Vec::new();
    let mut failed = Vec::new();
    for path in files {
        let set = read(path)?;
        let site = set.site().map_err(|e| format!("{}: {e}", path.display()))?;
        let mut ok = 0;
        for p in &set.puzzles {
            match puzzles::verify(&site, p) {
                Ok(()) => ok += 1,
                Err(e) => failed.push(format!("{}: {e}", path.display())),
            }
        }
        lines.push(format!(
            "{}: {ok} of {} puzzles verified",
            path.display(),
            set.puzzles.len()
        ));
    }
    if failed.is_empty() {
        Ok(lines.join("\n"))
    } else {
        Err(format!("{}\n{}", lines.join("\n"), failed.join("\n")))
    }
}

/// The files named, a directory's `*.json` files in name order.
fn files_of(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from("puzzles")]
    } else {
        paths.to_vec()
    };
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(&p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|f| f.extension().is_some_and(|x| x == "json"))
                .collect();
            found.sort();
            out.extend(found);
        } else {
            out.push(p);
        }
    }
    Ok(out)
}

fn stats(paths: &[PathBuf]) -> Result<String, String> {
    let mut out = format!(
        "{:<12} {:>7} {:>7} {:>6} {:>8}  {}\n",
        "scenario", "players", "puzzles", "exact", "searched", "themes"
    );
    let mut total = 0;
    let mut by_theme: BTreeMap<Theme, usize> = BTreeMap::new();
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for path in files_of(paths)? {
        let set = read(&path)?;
        let exact = set
            .puzzles
            .iter()
            .filter(|p| matches!(p.proof, Proof::Exact { .. }))
            .count();
        let mut themes: BTreeMap<Theme, usize> = BTreeMap::new();
        for p in &set.puzzles {
            for &t in &p.themes {
                *themes.entry(t).or_default() += 1;
                *by_theme.entry(t).or_default() += 1;
            }
            *by_kind.entry(p.proof.kind()).or_default() += 1;
        }
        let themes: Vec<String> = themes.iter().map(|(t, n)| format!("{} {n}", t.key())).collect();
        out.push_str(&format!(
            "{:<12} {:>7} {:>7} {:>6} {:>8}  {}\n",
            set.board,
            set.players,
            set.puzzles.len(),
            exact,
            set.puzzles.len() - exact,
            themes.join(", ")
        ));
        total += set.puzzles.len();
    }
    out.push_str(&format!(
        "\n{total} puzzles: {} exact, {} searched\n",
        by_kind.get("exact").unwrap_or(&0),
        by_kind.get("searched").unwrap_or(&0)
    ));
    for t in Theme::ALL {
        out.push_str(&format!(
            "  {:<24} {}\n",
            t.name(),
            by_theme.get(&t).copied().unwrap_or(0)
        ));
    }
    out.pop();
    Ok(out)
}
