//! `rumis review-agreement`: the review's marks checked by a search with a larger budget.
//! Games of weak levels are reviewed as `rumis review` does; every marked move is valued
//! again, the move played and the best shown, each by a search with `factor` times the
//! review's simulations; the table says how often that search agrees the best shown is
//! better (docs/strength.md, "Reviews").

use clap::Args;
use rumis_ai::review::{self, Mark, MarkCheck, THRESHOLDS};
use rumis_ai::PlayerSpec;
use rumis_core::{record, Game, Rng, Site, Variant};
use std::sync::Arc;

#[derive(Args, Debug, Clone)]
pub struct AgreementArgs {
    /// Scenarios and player counts, BOARD:PLAYERS, space- or comma-separated.
    #[arg(long, default_value = "chullpa:2 tambo:3 pisac:2 pirka:4 cucho:3 coricancha:4")]
    pub scenarios: String,
    /// The levels whose games are reviewed, comma-separated.
    #[arg(long, default_value = "1,3")]
    pub levels: String,
    /// The review's simulations a position (the server's and the browser's: 10 000).
    #[arg(long, default_value_t = 10_000)]
    pub simulations: u64,
    /// The check's budget: this many times the review's.
    #[arg(long, default_value_t = 10)]
    pub factor: u64,
    /// Stop once this many marked moves are checked (games go round the scenarios and
    /// levels, one at a time).
    #[arg(long, default_value_t = 200)]
    pub marks: usize,
    /// At most this many games in all.
    #[arg(long, default_value_t = 200)]
    pub max_games: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every game's record here (one after the other), to review again.
    #[arg(long, value_name = "PATH")]
    pub out: Option<std::path::PathBuf>,
}

fn scenarios(text: &str) -> Result<Vec<(Arc<Site>, String)>, String> {
    text.split([' ', ','])
        .filter(|s| !s.is_empty())
        .map(|spec| {
            let (board, players) = spec
                .split_once(':')
                .ok_or_else(|| format!("'{spec}': write BOARD:PLAYERS, e.g. chullpa:2"))?;
            let players: usize = players
                .parse()
                .map_err(|_| format!("'{spec}': the player count is 2, 3 or 4"))?;
            let board = record::builtin_board(board).map_err(|e| e.to_string())?;
            let site = Site::new(board, players, Variant::Standard, None).map_err(|e| e.to_string())?;
            Ok((Arc::new(site), spec.to_string()))
        })
        .collect()
}

pub fn run(args: &AgreementArgs) -> Result<String, String> {
    let sites = scenarios(&args.scenarios)?;
    let levels: Vec<u8> = args
        .levels
        .split(',')
        .map(|l| {
            l.trim()
                .parse::<u8>()
                .map_err(|_| format!("--levels: '{l}' is not a level"))
        })
        .collect::<Result<_, _>>()?;
    if sites.is_empty() || levels.is_empty() || args.factor == 0 || args.simulations == 0 {
        return Err("give at least one scenario and level, and positive budgets".into());
    }
    let review_config = review::search_config(args.simulations);
    let check_config = review::search_config(args.simulations * args.factor);
    let mut rng = Rng::new(args.seed);
    let mut checks: Vec<(String, u8, MarkCheck)> = Vec::new();
    let mut records = String::new();
    let mut games = 0;
    'games: while checks.len() < args.marks && games < args.max_games {
        for (site, name) in &sites {
            for &level in &levels {
                if checks.len() >= args.marks || games >= args.max_games {
                    break 'games;
                }
                games += 1;
                let game = play(site, level, rng.next_u64())?;
                records.push_str(&record::write(&game));
                records.push('\n');
                let r = review::review(&game, &review_config, &THRESHOLDS, |_, _| {})?;
                let found = review::check_marks(&game, &r, &check_config)?;
                tracing::info!(
                    "game {games}: {name} level {level}, {} moves, {} marked, {} agreed",
                    game.moves().len(),
                    found.len(),
                    found.iter().filter(|c| c.agrees()).count()
                );
                checks.extend(found.into_iter().map(|c| (name.clone(), level, c)));
            }
        }
    }
    if let Some(path) = &args.out {
        std::fs::write(path, &records).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(table(args, games, &checks))
}

fn play(site: &Arc<Site>, level: u8, seed: u64) -> Result<Game, String> {
    let mut game = Game::new(site.clone());
    let mut p = PlayerSpec::Level(level).build(seed, 1);
    while let Some(m) = p.choose(&game) {
        game.play(m)
            .map_err(|e| format!("the player chose an illegal move: {e}"))?;
    }
    Ok(game)
}

fn table(args: &AgreementArgs, games: usize, checks: &[(String, u8, MarkCheck)]) -> String {
    let mut out = format!(
        "{games} games of level {} on {}; reviewed at {} simulations a position, every marked move checked at {} ({}x)\n\n",
        args.levels,
        args.scenarios,
        args.simulations,
        args.simulations * args.factor,
        args.factor
    );
    out.push_str(&format!(
        "{:<11} {:>6} {:>7} {:>6}   {}\n",
        "mark", "count", "agreed", "%", "mean loss: review / check"
    ));
    for mark in [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder] {
        let these: Vec<&MarkCheck> = checks.iter().map(|c| &c.2).filter(|c| c.mark == mark).collect();
        let agreed = these.iter().filter(|c| c.agrees()).count();
        if these.is_empty() {
            out.push_str(&format!("{:<11} {:>6}\n", mark.name(), 0));
            continue;
        }
        let n = these.len() as f32;
        out.push_str(&format!(
            "{:<11} {:>6} {:>7} {:>5.1}%   {:.1} / {:.1} points\n",
            mark.name(),
            these.len(),
            agreed,
            100.0 * agreed as f32 / n,
            100.0 * these.iter().map(|c| c.loss).sum::<f32>() / n,
            100.0 * these.iter().map(|c| c.best_value - c.played_value).sum::<f32>() / n
        ));
    }
    out.push_str("\nby scenario and level (marked, agreed):\n");
    let mut keys: Vec<(String, u8)> = checks.iter().map(|c| (c.0.clone(), c.1)).collect();
    keys.dedup();
    keys.sort();
    keys.dedup();
    for (name, level) in keys {
        let these: Vec<_> = checks.iter().filter(|c| c.0 == name && c.1 == level).collect();
        let agreed = these.iter().filter(|c| c.2.agrees()).count();
        out.push_str(&format!(
            "  {name} level {level}: {} marked, {agreed} agreed\n",
            these.len()
        ));
    }
    out.pop();
    out
}
