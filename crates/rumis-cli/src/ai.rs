//! Commands that use the players: hint, analyze, match.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use rumis_ai::arena::{play_match, MatchConfig};
use rumis_ai::{level_config, Mcts, MctsConfig};

use crate::source::Source;

/// How hard to search, for hint and analyze.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search as level N (4-9; lower levels search like level 4); 7 by default, 8 for a
    /// review.
    #[arg(long)]
    pub level: Option<u8>,
    /// Simulations per position (overrides the level).
    #[arg(long)]
    pub simulations: Option<u64>,
    /// Seconds per position (overrides the level).
    #[arg(long)]
    pub seconds: Option<f64>,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl SearchArgs {
    fn search(&self) -> Result<Mcts, String> {
        Ok(Mcts::new(self.config(7)?))
    }

    /// The search's settings, at `default_level` unless `--level` says.
    fn config(&self, default_level: u8) -> Result<MctsConfig, String> {
        let l = self.level.unwrap_or(default_level);
        if !(1..=9).contains(&l) {
            return Err(format!("--level {l} is not a level; use 1 to 9"));
        }
        let level = level_config(l);
        let (mut simulations, mut time) = (level.simulations, level.time);
        if let Some(s) = self.simulations {
            simulations = Some(s);
            time = None;
        }
        if let Some(t) = self.seconds {
            if !(t > 0.0 && t < 1e6) {
                return Err(format!("--seconds {t} must be a positive number"));
            }
            time = Some(Duration::from_secs_f64(t));
            simulations = self.simulations;
        }
        // The level's budget for two-player games goes with the level's own budget.
        let two_player_simulations = if self.simulations.is_none() && self.seconds.is_none() {
            level.two_player_simulations
        } else {
            None
        };
        Ok(MctsConfig {
            simulations,
            two_player_simulations,
            time,
            threads: self.threads.max(1),
            seed: self.seed,
            ..level
        })
    }
}

pub fn hint(src: &Source, args: &SearchArgs) -> Result<String, String> {
    let game = src.game()?;
    let mut mcts = args.search()?;
    let Some(colour) = game.to_move() else {
        return Err("the game is over: there is nothing to hint".into());
    };
    let r = mcts.search(&game).ok_or("the game is over")?;
    let mut out = format!("{} {}\n", game.notation(r.best), pct(r.value));
    out.push_str(&format!(
        "{} to move; win estimate {} after {} simulations\n",
        colour.name(),
        pct(r.value),
        r.simulations
    ));
    // The search plays the move it visited most, so the list goes by visits; a move tried
    // less often can show a higher mean by chance, and the line says so rather than
    // letting a higher estimate stand below a lower one unexplained.
    if r.simulations == 0 {
        // Few stones left: the endgame solver played it out exactly, without a search.
        out.push_str("solved exactly to the end (no search, so no runners-up)\n");
    } else {
        out.push_str(
            "runners-up by visits (the search plays the most visited; the estimate is the mean of its simulations):\n",
        );
    }
    for (m, visits, value) in r.moves.iter().take(5) {
        out.push_str(&format!(
            "  {:<20} {:>6} visits  {}\n",
            game.notation(*m),
            visits,
            pct(*value)
        ));
    }
    out.pop();
    Ok(out)
}

fn pct(v: f32) -> String {
    format!("{:.0}%", (v * 100.0).clamp(0.0, 100.0))
}

pub fn analyze(src: &Source, args: &SearchArgs) -> Result<String, String> {
    let game = src.game()?;
    let mut mcts = args.search()?;
    let analysis = rumis_ai::analysis::analyse(&game, &mut mcts)?;
    let colours = game.site().order();
    // The same widths as the rows below.
    let mut out = format!("{:>4}  {:<6}  {:<20}", "move", "colour", "placement");
    for c in colours {
        // A colour's Display ignores widths: pad its letter.
        out.push_str(&format!(" {:>4}", c.letter()));
    }
    out.push('\n');
    for l in &analysis.losses {
        out.push_str(&format!(
            "{:>4}  {:<6}  {:<20}",
            l.index + 1,
            l.colour.letter(),
            game.notation(l.mv)
        ));
        for c in colours {
            out.push_str(&format!(" {:>4}", pct(analysis.estimates[l.index + 1][c.index()])));
        }
        out.push('\n');
    }
    out.push_str("\nmoves that lost the most:\n");
    for l in analysis.worst(5) {
        out.push_str(&format!(
            "  {}. {} {} lost {} of win estimate\n",
            l.index + 1,
            l.colour.letter(),
            game.notation(l.mv),
            pct(l.loss)
        ));
    }
    out.pop();
    Ok(out)
}

#[derive(Args, Debug, Clone)]
pub struct MatchArgs {
    /// Player A: random, greedy, level:1..9, mcts:SIMS, or that search with one part
    /// changed: uniform:, plain:, rave:, fresh:, noprior:, deep:, noanswer:, quickprior:, roomprior:,
    /// learned:, hand:, ownlearned:, others:, greedyothers:, nearothers:, estothers:,
    /// estonly:, estbest:, walls:SIMS (no guard against walls), model:SIMS (level 9's search),
    /// learned@FILE:SIMS (a weights file); MSms for SIMS
    /// searches that many milliseconds a move (`mcts:200ms`).
    #[arg(long)]
    pub a: String,
    /// Player B.
    #[arg(long)]
    pub b: String,
    #[arg(long, default_value_t = 10)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Threads of each searching player's search (level 9 with two threads:
    /// `--threads 1 --search-threads 2`).
    #[arg(long, default_value_t = 1)]
    pub search_threads: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write each game's record here.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// One seat of A against every other seat played by B, A's seat rotated from game to
    /// game (chance: one win in the number of seats); by default the sides alternate round
    /// the table.
    #[arg(long)]
    pub one_against_rest: bool,
    /// Also report each seat's share of the wins (95% Wilson interval) and mean score, by
    /// order of play, whoever sat there: with A and B the same player, the advantage of
    /// moving first, second, … (docs/first-player.md).
    #[arg(long)]
    pub by_seat: bool,
    #[command(flatten)]
    pub source: Source,
}

/// The `--by-seat` lines: one per player in order of play (in the two-player four-colour
/// game a player is two colours), then the match's own line follows.
fn seat_table(site: &rumis_core::Site, results: &[rumis_ai::arena::GameResult]) -> String {
    let order = site.order();
    let players = site.players();
    let mut out = format!("by seat, in order of play ({} games):\n", results.len());
    for (seat, f) in rumis_ai::arena::by_seat(results).iter().enumerate() {
        let colours: String = order
            .iter()
            .enumerate()
            .filter(|(i, _)| i % players == seat)
            .map(|(_, c)| c.letter())
            .collect();
        out += &format!(
            "  seat {} ({colours}): wins {:.1}, share {:.3} (95% interval {:.3}-{:.3}); mean score {:.2} ± {:.2}\n",
            seat + 1,
            f.wins,
            f.share,
            f.low,
            f.high,
            f.mean_score,
            f.score_half_width
        );
    }
    out
}

pub fn run_match(args: &MatchArgs) -> Result<String, String> {
    let a = crate::experiment::player(&args.a)?;
    let b = crate::experiment::player(&args.b)?;
    if args.source.record.is_some() {
        return Err("a match starts new games: give --board and --players, not --record".into());
    }
    if args.games == 0 {
        return Err("--games must be at least 1".into());
    }
    if !(1..=256).contains(&args.search_threads) {
        return Err(format!("--search-threads {} must be 1 to 256", args.search_threads));
    }
    let game = args.source.new_game(Some(args.seed))?;
    let site: Arc<_> = game.site_arc().clone();
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let cfg = MatchConfig {
        site,
        a: a.clone(),
        b: b.clone(),
        games: args.games,
        parallel: args.threads.max(1),
        search_threads: args.search_threads,
        seed: args.seed,
        one_against_rest: args.one_against_rest,
    };
    let out_dir = args.out.clone();
    let (summary, results) = play_match(&cfg, |r| {
        tracing::info!(
            "game {:>4}: A {}",
            r.index + 1,
            if r.a_points >= 1.0 {
                "won"
            } else if r.a_points <= 0.0 {
                "lost"
            } else {
                "shared"
            }
        );
    });
    if let Some(dir) = out_dir {
        for r in &results {
            let path = dir.join(format!("game-{:04}.txt", r.index + 1));
            std::fs::write(&path, &r.record).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
    }
    let by_seat = if args.by_seat {
        seat_table(&cfg.site, &results)
    } else {
        String::new()
    };
    if cfg.one_against_rest && cfg.site.players() > 2 {
        let seats = cfg.site.order().len();
        return Ok(by_seat + &format!(
            "A {} alone vs B {} at the other {} seats: {} games, A won {}, shared {}, lost {}; A's share of the wins {:.3} (95% interval {:.3}-{:.3}; chance {:.3})",
            cfg.a,
            cfg.b,
            seats - 1,
            summary.games,
            summary.wins,
            summary.draws,
            summary.losses,
            summary.score,
            summary.low,
            summary.high,
            1.0 / seats as f64
        ));
    }
    Ok(by_seat
        + &format!(
            "A {} vs B {}: {} games, A won {}, shared {}, lost {}; score {:.3} (95% interval {:.3}-{:.3}); Elo {:+.0}",
            cfg.a,
            cfg.b,
            summary.games,
            summary.wins,
            summary.draws,
            summary.losses,
            summary.score,
            summary.low,
            summary.high,
            summary.elo
        ))
}

/// `rumis levels`: each level's plan on the game's site (a new game on the board given, or
/// a record's), one block a level.
pub fn levels(source: &Source, level: Option<u8>) -> Result<String, String> {
    let levels = match level {
        Some(l) if (1..=9).contains(&l) => l..=l,
        Some(l) => return Err(format!("--level {l} is not a level; use 1 to 9")),
        None => 1..=9,
    };
    let game = source.game()?;
    let site = game.site();
    let mut out = format!(
        "{}, {} players, {}\n",
        site.board().name,
        site.players(),
        site.variant()
    );
    for l in levels {
        out.push_str(&format!("\nlevel {l}\n"));
        for line in rumis_ai::describe_level(l, site).lines() {
            out.push_str(&format!("  {line}\n"));
        }
    }
    Ok(out)
}

/// `rumis review`: every move of a game beside the best the search found, its loss and
/// mark, and a summary per colour (`rumis_ai::review`); `json`: the same as JSON.
pub fn review(src: &Source, args: &SearchArgs, json: bool) -> Result<String, String> {
    use rumis_ai::review::{self, THRESHOLDS};
    let game = src.game()?;
    let config = args.config(8)?;
    let bar = indicatif::ProgressBar::new(0).with_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} searches  {elapsed} so far, about {eta} left")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let r = review::review(&game, &config, &THRESHOLDS, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    if json {
        return Ok(review_json(&game, &r).to_string());
    }
    let mut out = format!(
        "{}, {} players, {}: every position searched by {}\n\n",
        game.site().board().name,
        game.site().players(),
        game.site().variant(),
        budget(&config)
    );
    out.push_str(&format!(
        "{:>4}  {:<6}  {:<20} {:>5}  {:<11} {:<20} {}\n",
        "move", "colour", "played", "loss", "mark", "best found", "after played / best"
    ));
    for m in &r.moves {
        let best = if m.best == m.played {
            "(played)".to_string()
        } else {
            game.notation(m.best)
        };
        out.push_str(&format!(
            "{:>4}  {:<6}  {:<20} {:>5}  {:<11} {:<20} {} / {}\n",
            m.index + 1,
            m.colour.letter(),
            game.notation(m.played),
            pct(m.loss),
            m.mark.map_or("", |k| k.name()),
            best,
            pct(m.played_value),
            pct(m.best_value)
        ));
    }
    out.push_str(&format!(
        "\n{:<8} {:>5} {:>12} {:>8} {:>8} {:>9} {:>8}\n",
        "colour", "moves", "inaccuracies", "mistakes", "blunders", "avg loss", "accuracy"
    ));
    for c in &r.colours {
        out.push_str(&format!(
            "{:<8} {:>5} {:>12} {:>8} {:>8} {:>9} {:>8.0}\n",
            c.colour.name(),
            c.moves,
            c.inaccuracies,
            c.mistakes,
            c.blunders,
            format!("{:.1}%", c.average_loss * 100.0),
            c.accuracy
        ));
    }
    out.push_str(&format!(
        "\nmarks by the loss of win estimate: inaccuracy from {}, mistake from {}, blunder from {}",
        pct(THRESHOLDS.inaccuracy),
        pct(THRESHOLDS.mistake),
        pct(THRESHOLDS.blunder)
    ));
    Ok(out)
}

fn budget(config: &MctsConfig) -> String {
    match (config.simulations, config.time) {
        (_, Some(t)) => format!("{} s a position", t.as_secs_f64()),
        (Some(s), None) => match config.two_player_simulations {
            Some(two) if two != s => format!("{s} simulations a position ({two} with two players)"),
            _ => format!("{s} simulations a position"),
        },
        (None, None) => "the search's default budget".into(),
    }
}

fn review_json(game: &rumis_core::Game, r: &rumis_ai::review::Review) -> serde_json::Value {
    use serde_json::json;
    let t = rumis_ai::review::THRESHOLDS;
    json!({
        "board": game.site().board().name,
        "players": game.site().players(),
        "thresholds": { "inaccuracy": t.inaccuracy, "mistake": t.mistake, "blunder": t.blunder },
        "estimates": r.estimates.iter().map(|e| {
            game.site().order().iter().map(|c| e[c.index()]).collect::<Vec<f32>>()
        }).collect::<Vec<_>>(),
        "moves": r.moves.iter().map(|m| json!({
            "number": m.index + 1,
            "colour": m.colour.letter().to_string(),
            "played": game.notation(m.played),
            "best": game.notation(m.best),
            "played_value": m.played_value,
            "best_value": m.best_value,
            "loss": m.loss,
            "mark": m.mark.map(|k| k.name()),
        })).collect::<Vec<_>>(),
        "colours": r.colours.iter().map(|c| json!({
            "colour": c.colour.letter().to_string(),
            "moves": c.moves,
            "inaccuracies": c.inaccuracies,
            "mistakes": c.mistakes,
            "blunders": c.blunders,
            "average_loss": c.average_loss,
            "accuracy": c.accuracy,
        })).collect::<Vec<_>>(),
    })
}
