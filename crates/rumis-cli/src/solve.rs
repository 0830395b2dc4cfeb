//! `rumis solve box`: solitaire box fillings.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use rumis_solve::{BoxSize, Goal, Solver};

#[derive(Subcommand, Debug, Clone)]
pub enum SolveCommand {
    /// Every exact filling of an a x b x c box with stones of the chosen colours, each at most once.
    Box(BoxArgs),
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
}

pub fn run(cmd: &SolveCommand) -> Result<String, String> {
    let SolveCommand::Box(args) = cmd;
    let size = BoxSize::parse(&args.size)?;
    let solver = Solver::new(size, args.colors)?;
    let goal = if args.first {
        Goal::First
    } else if args.all {
        Goal::All
    } else {
        Goal::Count
    };
    let start = Instant::now();
    let progress = |done: usize, total: usize| {
        // The first cell's placements are the units of work: an estimate of the time left.
        let elapsed = start.elapsed().as_secs_f64();
        let left = elapsed / done as f64 * (total - done) as f64;
        eprint!("\r{done}/{total} branches, {elapsed:.1} s, about {left:.0} s left   ");
        let _ = std::io::stderr().flush();
    };
    let report = solver.solve(goal, args.threads.max(1), &progress);
    eprintln!();
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
