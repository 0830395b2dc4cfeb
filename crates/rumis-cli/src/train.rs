//! `rumis train-priors`: learns the weights of the search's move priors from game records
//! (rumis-ai's `train`), reports how well they predict the moves played against today's
//! hand-made priors, and writes the weights file.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use rumis_ai::priors::PriorModel;
use rumis_ai::train::{self, Comparison, Prediction, TrainConfig};
use rumis_core::{record, Game, Rng};

#[derive(Args)]
pub struct TrainArgs {
    /// Record files (each may hold several games, as `selfplay` and `match --out` write them).
    #[arg(required = true, value_name = "RECORDS")]
    pub records: Vec<PathBuf>,
    /// Where to write the weights (the format of crates/rumis-ai/priors.toml).
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// Every Nth game is held out: not learned from, only predicted.
    #[arg(long, default_value_t = 5)]
    pub held_out_every: usize,
    /// Per position, learn from the move played and at most this many other placements
    /// drawn at random (each standing for its share of the rest).
    #[arg(long, default_value_t = 48)]
    pub max_others: usize,
    #[arg(long, default_value_t = 300)]
    pub iterations: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Leave out the moves of colours whose player, as the record names it in the colour's
    /// tag (`[R "B greedy"]`, as `match --out` writes), does not contain this text (colours
    /// without such a tag, as in `selfplay` records, are learned from); by default every
    /// move is learned from.
    #[arg(long, value_name = "TEXT")]
    pub learn_from: Option<String>,
}

/// The colours (by index) whose moves are learned from: every colour but those whose tag
/// names a player not containing `text`.
fn learn_from(game: &Game, text: Option<&str>) -> [bool; 4] {
    let Some(text) = text else {
        return [true; 4];
    };
    let mut mask = [false; 4];
    for c in rumis_core::Colour::ALL {
        let key = c.letter().to_string();
        mask[c.index()] = game.tags.iter().all(|(k, v)| *k != key || v.contains(text));
    }
    mask
}

/// Reads every game of the record files.
fn read_games(paths: &[PathBuf]) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let records = record::Record::parse_all(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        for (i, r) in records.iter().enumerate() {
            let game = r
                .to_game(record::builtin_board)
                .map_err(|e| format!("{}: game {}: {e}", path.display(), i + 1))?;
            games.push(game);
        }
    }
    Ok(games)
}

fn line(name: &str, p: &Prediction) -> String {
    let (top1, ll, uniform) = p.means();
    format!(
        "  {name:<22} top-1 {:>5.1}%  log-likelihood {ll:>7.3}  (uniform {uniform:.3})\n",
        100.0 * top1
    )
}

fn report(title: &str, c: &Comparison) -> String {
    let mut out = format!("{title}: {} positions\n", c.learned_full.positions);
    out += &line("learned, full", &c.learned_full);
    out += &line("learned, quick", &c.learned_quick);
    out += &line("hand-made, full", &c.hand_full);
    out += &line("hand-made, quick", &c.hand_quick);
    out
}

pub fn run(args: &TrainArgs) -> Result<String, String> {
    if args.held_out_every < 2 {
        return Err("--held-out-every must be at least 2 (some games must be learned from)".into());
    }
    if args.max_others == 0 || args.iterations == 0 {
        return Err("--max-others and --iterations must be positive".into());
    }
    let start = Instant::now();
    let games = read_games(&args.records)?;
    let (mut learn, mut held) = (Vec::new(), Vec::new());
    for (i, g) in games.into_iter().enumerate() {
        if (i + 1) % args.held_out_every == 0 {
            held.push(g);
        } else {
            learn.push(g);
        }
    }
    if learn.is_empty() {
        return Err("no game to learn from".into());
    }
    let mut rng = Rng::new(args.seed);
    let samples: Vec<train::Sample> = learn
        .iter()
        .flat_map(|g| train::samples(g, learn_from(g, args.learn_from.as_deref()), args.max_others, &mut rng))
        .collect();
    if samples.is_empty() {
        return Err("the records have no position with a choice to learn from".into());
    }
    let cfg = TrainConfig {
        iterations: args.iterations,
        ..TrainConfig::default()
    };
    let model = train::train_model(&samples, &cfg);
    let learned_in = start.elapsed();
    // Today's priors divide the greedy evaluation by the search's temperature.
    let temperature = rumis_ai::MctsConfig::default().prior_temperature;
    let (mut on_learn, mut on_held) = (Comparison::default(), Comparison::default());
    for g in &learn {
        train::compare(
            g,
            learn_from(g, args.learn_from.as_deref()),
            &model,
            temperature,
            &mut on_learn,
        );
    }
    for g in &held {
        train::compare(
            g,
            learn_from(g, args.learn_from.as_deref()),
            &model,
            temperature,
            &mut on_held,
        );
    }
    let mut out = format!(
        "{} games learned from ({} positions), {} held out; learned in {:.1} s, {:.1} s in all\n",
        learn.len(),
        samples.len(),
        held.len(),
        learned_in.as_secs_f64(),
        start.elapsed().as_secs_f64()
    );
    out += &report("learned-from games", &on_learn);
    if !held.is_empty() {
        out += &report("held-out games", &on_held);
    }
    let mut file = String::from(
        "# The learned move priors (crates/rumis-ai/src/priors.rs): weights of a softmax over the\n\
         # features of a placement, written by `rumis train-priors`.\n",
    );
    for l in out.lines() {
        file += &format!("# {l}\n");
    }
    file += &model.to_string();
    // What is written must read back: the search refuses a file it cannot read.
    PriorModel::from_toml(&file).map_err(|e| format!("the weights written do not read back: {e}"))?;
    std::fs::write(&args.out, &file).map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    out += &format!("weights written to {}\n", args.out.display());
    Ok(out)
}
