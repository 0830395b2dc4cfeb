//! `rumis solve box`: solitaire box fillings.

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use rumis_solve::{BoxSize, Goal, Solver};

#[derive(Subcommand, Debug, Clone)]
pub enum SolveCommand {
    /// Every exact filling of an a x b x c box with stones of the chosen colours, each at most once.
    Box(BoxArgs),
    /// Build the 5 x 5 x 5 cube with all four colours placing in turn under the rules; write the game.
    Tower5(TowerArgs),
}

#[derive(Args, Debug, Clone)]
pub struct TowerArgs {
    /// The cube's edge (5 for the rulebook's puzzle; 3 or 4 to try smaller ones).
    #[arg(long, default_value_t = 5)]
    size: usize,
    /// Give up after this many positions.
    #[arg(long, default_value_t = 50_000_000)]
    nodes: u64,
    /// Write the game record here (replay it with --board-file examples/tower5.toml).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub struct BoxArgs {
    /// The box, e.g. 3x3x3.
    #[arg(long)]
    size: String,
    /// Stones of this many colours (1-4).
    #[arg(long, default_value_t = 1)]
    colors: usize,
    /// Count the fillings (the default).
    #[arg(long, conflicts_with_all = ["first", "all"])]
    count: bool,
    /// Stop at the first filling and print it.
    #[arg(long, conflicts_with = "all")]
    first: bool,
    /// Write every filling to --out.
    #[arg(long, requires = "out")]
    all: bool,
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Count by searching every filling as placed, without the cut by the box's rotations
    /// (slower; the same figures).
    #[arg(long)]
    no_symmetry_breaking: bool,
}

pub fn run(cmd: &SolveCommand) -> Result<String, String> {
    let args = match cmd {
        SolveCommand::Box(args) => args,
        SolveCommand::Tower5(t) => return tower(t),
    };
    let size = BoxSize::parse(&args.size)?;
    let solver = Solver::new(size, args.colors)?.symmetry_breaking(!args.no_symmetry_breaking);
    let goal = if args.first {
        Goal::First
    } else if args.all {
        Goal::All
    } else {
        Goal::Count
    };
    let start = Instant::now();
    // The first cell's placements are the units of work; the bar's estimate of the time left
    // counts them (drawn on standard error, and only when it is a terminal).
    let bar = ProgressBar::new(0).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} branches  {elapsed} so far, about {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = |done: usize, total: usize| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    };
    let report = solver.solve(goal, args.threads.max(1), &progress);
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let mut out = String::new();
    match goal {
        Goal::First => match report.fillings.first() {
            Some(f) => out.push_str(&solver.describe(f)),
            None => out.push_str(&format!("no filling of {} exists", args.size)),
        },
        _ => {
            out.push_str(&format!(
                "box {} with {} colour(s): {} fillings as placed, {} up to the {} rotations of the box ({:.2} s, {} nodes)\n",
                args.size, args.colors, report.placed, report.distinct, report.symmetries, secs, report.nodes
            ));
            out.push_str(&format!("{} sets of stones make them:\n", report.by_stone_set.len()));
            for (set, n) in &report.by_stone_set {
                out.push_str(&format!("  {n:>10}  {set}\n"));
            }
            out.pop();
        }
    }
    if let (Goal::All, Some(path)) = (goal, &args.out) {
        let text: String = report.fillings.iter().map(|f| solver.describe(f) + "\n").collect();
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(out)
}

fn tower(args: &TowerArgs) -> Result<String, String> {
    if !(2..=5).contains(&args.size) {
        return Err(format!("--size {} is not supported; use 2 to 5", args.size));
    }
    let start = Instant::now();
    let r = rumis_solve::tower::solve_tower(args.size, args.nodes);
    let secs = start.elapsed().as_secs_f64();
    let n = args.size;
    match r.game {
        Some(game) => {
            let text = rumis_core::record::write(&game);
            if let Some(path) = &args.out {
                std::fs::write(path, &text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            }
            Ok(format!(
                "the {n}x{n}x{n} cube built in turn in {} placements ({} positions searched, {secs:.1} s)\n{text}",
                game.moves().len(),
                r.nodes
            ))
        }
        None if r.exhausted => Ok(format!(
            "no way to build the {n}x{n}x{n} cube in turn exists: the search was exhaustive ({} positions, {} dead positions remembered, {secs:.1} s)",
            r.nodes, r.dead
        )),
        None => Err(format!(
            "no {n}x{n}x{n} cube found within {} positions ({secs:.1} s); raise --nodes",
            r.nodes
        )),
    }
}

/// A count for `rumis bench --solve`: a box, its stones and the figures it must give.
pub struct BenchCase {
    pub name: String,
    /// Runs to take the median of.
    pub reps: usize,
    size: BoxSize,
    colours: usize,
    placed: u64,
    distinct: u64,
}

impl BenchCase {
    /// Counts the fillings on the calling thread and checks the known figures.
    pub fn run(&self) -> Result<(), String> {
        let r = Solver::new(self.size, self.colours)?.solve(Goal::Count, 1, &|_, _| {});
        if (r.placed, r.distinct) != (self.placed, self.distinct) {
            return Err(format!(
                "{}: {} fillings as placed and {} distinct, expected {} and {}",
                self.name, r.placed, r.distinct, self.placed, self.distinct
            ));
        }
        Ok(())
    }
}

/// The solitaire counts of the benchmark: the 3 x 3 x 3 cube with one colour (a median of
/// several runs) and the Herzberger Quader, 2 x 4 x 5 with all 11 stones of one colour (one
/// run); `quick` puts a 2 x 3 x 4 box in the Quader's place.
pub fn bench_cases(quick: bool) -> Vec<BenchCase> {
    let case = |name: &str, reps, (x, y, z), placed, distinct| BenchCase {
        name: name.to_string(),
        reps,
        size: BoxSize { x, y, z },
        colours: 1,
        placed,
        distinct,
    };
    let mut cases = vec![case(
        "solve 3x3x3 one colour = 80 928 / 3 372, 1 thread",
        if quick { 1 } else { 5 },
        (3, 3, 3),
        80_928,
        3_372,
    )];
    if quick {
        cases.push(case(
            "solve 2x3x4 one colour = 320 136 / 80 034, 1 thread",
            1,
            (2, 3, 4),
            320_136,
            80_034,
        ));
    } else {
        cases.push(case(
            "solve 2x4x5 Herzberger Quader = 35 528 720 / 8 882 180, 1 thread",
            1,
            (2, 4, 5),
            35_528_720,
            8_882_180,
        ));
    }
    cases
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quick_bench_counts_give_the_known_figures() {
        let cases = bench_cases(true);
        assert_eq!(cases.len(), 2);
        for case in &cases {
            case.run().unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
