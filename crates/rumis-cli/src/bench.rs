//! `rumis bench`: the speed figures of issue 3 (move generation, perft, random playouts),
//! medians of several runs, as a table or as JSON. See docs/performance.md.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rumis_core::CodePath;
use rumis_core::{
    perft_with, random_playout_in_place, random_playouts_in_place, Board, MoveSet, Position, Rng, Site, Variant,
};

mod report;
use report::{fmt_num, json, table};

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Fewer and shorter repetitions: a smoke test, not a measurement.
    #[arg(long)]
    pub quick: bool,
    /// Skip Chullpa perft(4) (about 5 s per repetition on the fast path).
    #[arg(long)]
    pub no_perft4: bool,
    /// Time with the wall clock (default: the thread's CPU time where the system reports
    /// it, which time given to other processes does not inflate).
    #[arg(long)]
    pub wall: bool,
    /// Force the code path of the main figures: avx512, avx2 or scalar (default: the widest
    /// this CPU has, or RUMIS_CODE_PATH).
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,
    /// Instead of the figures: how the cost grows with the board (columns, height cap) and
    /// the number of colours — generation time per code path and playouts per second.
    #[arg(long)]
    pub scaling: bool,
    /// Only run this many 4-player playouts from the empty board (seed 1) and print their
    /// mean score (for `valgrind --tool=callgrind`, which counts instructions exactly).
    #[arg(long, value_name = "N")]
    pub playouts_only: Option<usize>,
    /// Only run the searches of levels 4-8 and of level 9 from the first move (of Chullpa 4
    /// players unless --board and --players say otherwise), one thread, this many
    /// simulations each, and print their simulations per second (for
    /// `scripts/compare-speed`).
    #[arg(long, value_name = "SIMS")]
    pub search_only: Option<u64>,
    /// With --playouts-only: play the games one by one (one game in flight) rather than
    /// in batches with several in flight (`random_playouts_in_place`); the same games.
    #[arg(long)]
    pub one_by_one: bool,
    /// The board of --playouts-only and --search-only.
    #[arg(long, value_name = "NAME", default_value = "chullpa")]
    pub board: String,
    /// With --search-only: simulations in pairs, their playouts in lockstep, where the core
    /// generates two games at once (`MctsConfig::paired_playouts`; elsewhere one at a time).
    #[arg(long)]
    pub paired: bool,
    /// The number of players of --search-only.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub players: usize,
    /// Instead of the figures: the solitaire counts (3x3x3 one colour, the 2x4x5
    /// Herzberger Quader), checked against the known figures, in seconds.
    #[arg(long)]
    pub solve: bool,
}

/// Whether to time with the wall clock rather than the thread's CPU time.
static WALL: AtomicBool = AtomicBool::new(false);

/// The CPU time this thread has run, in seconds (`CLOCK_THREAD_CPUTIME_ID`, Linux).
#[cfg(target_os = "linux")]
fn thread_cpu_secs() -> Option<f64> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a live, writable timespec; clock_gettime writes that one value and
    // keeps no pointer to it.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu_secs() -> Option<f64> {
    None
}

/// Whether figures are timed by the thread's CPU time.
fn cpu_clock() -> bool {
    !WALL.load(Ordering::Relaxed) && thread_cpu_secs().is_some()
}

/// A stopwatch on the thread's CPU time where the system gives it (so that time the
/// scheduler gives to other processes on a shared machine does not count), else on the
/// wall clock.
struct Timer {
    wall: Instant,
    cpu: Option<f64>,
}

impl Timer {
    fn start() -> Timer {
        Timer {
            wall: Instant::now(),
            cpu: if cpu_clock() { thread_cpu_secs() } else { None },
        }
    }
    fn secs(&self) -> f64 {
        match (self.cpu, thread_cpu_secs()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// One measured figure.
struct Figure {
    name: String,
    samples: Vec<f64>,
    unit: &'static str,
    /// The move generator's code path it ran on (none for the solver's figures).
    path: Option<CodePath>,
    target: Option<f64>,
}

impl Figure {
    fn sorted(&self) -> Vec<f64> {
        let mut s = self.samples.clone();
        s.sort_by(f64::total_cmp);
        s
    }
    fn median(&self) -> f64 {
        let s = self.sorted();
        let n = s.len();
        if n % 2 == 1 {
            s[n / 2]
        } else {
            (s[n / 2 - 1] + s[n / 2]) / 2.0
        }
    }
    fn min(&self) -> f64 {
        self.sorted()[0]
    }
    fn max(&self) -> f64 {
        *self.sorted().last().unwrap_or(&0.0)
    }
    fn meets(&self) -> Option<bool> {
        self.target.map(|t| self.median() >= t)
    }
}

/// Which search [`search_rate`] times: the search of levels 4-8 (the level table's
/// settings with a budget of simulations, the search issue #20's figure was measured on),
/// or level 9's (the others modelled, informed playouts where the scenario has learned
/// priors: on Chullpa 4 players).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Searcher {
    Levels4To8,
    Level9,
}

impl Searcher {
    /// How a line of figures names it.
    fn name(self) -> &'static str {
        match self {
            Searcher::Levels4To8 => "levels 4-8 search",
            Searcher::Level9 => "level 9 search",
        }
    }

    /// The level whose settings it takes.
    fn level(self) -> u8 {
        match self {
            Searcher::Levels4To8 => 8,
            Searcher::Level9 => 9,
        }
    }
}

/// Simulations per second of a level's search (its settings, a fixed number of
/// simulations) from the empty board; with one thread timed by the usual clock, with more
/// by the wall clock.
fn search_rate(site: &Site, searcher: Searcher, threads: usize, sims: u64, reps: usize, paired: bool) -> Vec<f64> {
    let game = rumis_core::Game::new(std::sync::Arc::new(site.clone()));
    (0..reps)
        .map(|i| {
            let mut search = rumis_ai::Mcts::new(rumis_ai::MctsConfig {
                simulations: Some(sims),
                two_player_simulations: None,
                time: None,
                threads,
                seed: i as u64 + 1,
                paired_playouts: paired,
                ..rumis_ai::level_config(searcher.level())
            });
            let (timer, wall) = (Timer::start(), Instant::now());
            let r = search.search(&game).expect("the game has moves");
            let secs = if threads == 1 {
                timer.secs()
            } else {
                wall.elapsed().as_secs_f64()
            };
            r.simulations as f64 / secs
        })
        .collect()
}

fn site(name: &str, players: usize) -> Result<Site, String> {
    let board = Board::builtin(name).ok_or_else(|| format!("no built-in board {name}"))?;
    Site::new(board.clone(), players, Variant::Standard, None).map_err(|e| e.to_string())
}

/// Random playouts per second from the empty board: `reps` runs of `n` playouts.
fn playouts(site: &Site, path: CodePath, n: usize, reps: usize) -> Vec<f64> {
    let start = Position::new(site);
    let mut rng = Rng::new(1);
    let mut set = MoveSet::new();
    let mut p = start.clone();
    let mut run = |rng: &mut Rng| {
        p.clone_from(&start);
        // `run` checks the path before any measurement.
        let _ = random_playout_in_place(site, &mut p, rng, path, &mut set);
        std::hint::black_box(&p);
    };
    // Warm up.
    for _ in 0..n.div_ceil(10) {
        run(&mut rng);
    }
    (0..reps)
        .map(|_| {
            let t = Timer::start();
            for _ in 0..n {
                run(&mut rng);
            }
            n as f64 / t.secs()
        })
        .collect()
}

/// Nanoseconds per legal-move generation, over the positions of random playouts.
fn generation_ns(site: &Site, path: CodePath, reps: usize) -> Vec<f64> {
    let mut rng = Rng::new(2);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..200 {
        let mut p = Position::new(site);
        while !p.is_over() {
            positions.push(p.clone());
            p.legal_moves(site, &mut moves);
            p.play_unchecked(site, moves[rng.below(moves.len())]);
        }
    }
    let mut set = MoveSet::new();
    (0..reps)
        .map(|_| {
            let rounds = 20;
            let t = Timer::start();
            let mut total = 0;
            for _ in 0..rounds {
                for p in &positions {
                    total += p.legal_set_with(site, path, &mut set).unwrap_or(0);
                }
            }
            std::hint::black_box(total);
            t.secs() * 1e9 / (rounds * positions.len()) as f64
        })
        .collect()
}

/// Leaves per second of perft(depth) from the empty board, checked against `want`.
fn perft_rate(site: &Site, depth: u32, want: u64, path: CodePath, reps: usize) -> Result<Vec<f64>, String> {
    let start = Position::new(site);
    let mut out = Vec::new();
    for _ in 0..reps {
        let t = Timer::start();
        let n = perft_with(site, &start, depth, path).map_err(|e| e.to_string())?;
        let secs = t.secs();
        if n != want {
            return Err(format!("perft({depth}) = {n}, expected {want}: the generator is wrong"));
        }
        out.push(n as f64 / secs);
    }
    Ok(out)
}

/// What a figure measures, from the empty board.
enum Measure {
    /// Leaves per second of perft(depth), checked against the known count.
    Perft { depth: u32, leaves: u64 },
    /// Random playouts per second, in runs of `n`.
    Playouts { n: usize },
    /// Nanoseconds per legal-move generation, over the positions of random playouts.
    Generation,
    /// Simulations per second of the top level's search, `simulations` a run.
    Search {
        searcher: Searcher,
        threads: usize,
        simulations: u64,
    },
}

/// One figure to measure: the bench's figures are a list of these.
struct Plan {
    /// What the progress line says is being measured.
    what: String,
    /// The figure's name in the table.
    name: String,
    site: Arc<Site>,
    path: CodePath,
    measure: Measure,
    reps: usize,
    /// Samples are divided by this (1e9: leaves/s to G leaves/s).
    scale: f64,
    unit: &'static str,
    target: Option<f64>,
}

impl Plan {
    fn measure(&self) -> Result<Figure, String> {
        let (site, path, reps) = (&*self.site, self.path, self.reps);
        let samples = match self.measure {
            Measure::Perft { depth, leaves } => perft_rate(site, depth, leaves, path, reps)?,
            Measure::Playouts { n } => playouts(site, path, n, reps),
            Measure::Generation => generation_ns(site, path, reps),
            // With one thread timed by the usual clock, with more by the wall clock.
            Measure::Search {
                searcher,
                threads,
                simulations,
            } => search_rate(site, searcher, threads, simulations, reps, false),
        };
        Ok(Figure {
            name: self.name.clone(),
            samples: samples.into_iter().map(|x| x / self.scale).collect(),
            unit: self.unit,
            path: Some(path),
            target: self.target,
        })
    }
}

impl Plan {
    /// A figure in plain samples (no scale, no unit, no target), `reps` runs.
    fn new(site: &Arc<Site>, what: String, name: &str, path: CodePath, measure: Measure, reps: usize) -> Plan {
        Plan {
            what,
            name: name.to_string(),
            site: site.clone(),
            path,
            measure,
            reps,
            scale: 1.0,
            unit: "",
            target: None,
        }
    }

    /// `n` random playouts, in k playouts/s.
    fn playouts(site: &Arc<Site>, what: String, name: &str, path: CodePath, n: usize, reps: usize) -> Plan {
        Plan {
            scale: 1e3,
            unit: "k playouts/s",
            ..Plan::new(site, what, name, path, Measure::Playouts { n }, reps)
        }
    }

    fn target(self, target: f64) -> Plan {
        Plan {
            target: Some(target),
            ..self
        }
    }
}

/// The figures of `rumis bench` (docs/performance.md), in the order of the table: perft on
/// Chullpa 4 players, random playouts there and on Coricancha on the best code path and on
/// every other, one generation on every path, playouts on the other scenarios, and the
/// top level's search (issue 4) on one thread and on every thread.
fn plans(args: &BenchArgs, best: CodePath, reps: usize, n_playouts: usize) -> Result<Vec<Plan>, String> {
    let chullpa = Arc::new(site("chullpa", 4)?);
    let mut plans = perft_plans(args, &chullpa, best, reps);
    plans.extend(playout_plans(&chullpa, best, reps, n_playouts)?);
    plans.extend(search_plans(args, &chullpa, best, reps));
    Ok(plans)
}

/// Chullpa 4p perft(3) and (unless `--no-perft4`) perft(4), in G leaves/s.
fn perft_plans(args: &BenchArgs, chullpa: &Arc<Site>, best: CodePath, reps: usize) -> Vec<Plan> {
    let perft = |depth, leaves, what: &str, name: &str, reps| Plan {
        scale: 1e9,
        unit: "G leaves/s",
        ..Plan::new(chullpa, what.into(), name, best, Measure::Perft { depth, leaves }, reps)
    };
    let mut plans = vec![perft(
        3,
        39_583_340,
        "Chullpa 4p perft(3)",
        "chullpa 4p perft(3) = 39 583 340",
        reps,
    )];
    if !args.no_perft4 {
        plans.push(
            perft(
                4,
                7_938_153_532,
                "Chullpa 4p perft(4), about 5 s a run",
                "chullpa 4p perft(4) = 7 938 153 532",
                if args.quick { 1 } else { 3 },
            )
            .target(1.5),
        );
    }
    plans
}

/// Random playouts on Chullpa and Coricancha on the best path, Chullpa on every other
/// path, one generation on every path, then playouts on the other scenarios.
fn playout_plans(chullpa: &Arc<Site>, best: CodePath, reps: usize, n_playouts: usize) -> Result<Vec<Plan>, String> {
    let random = "chullpa 4p random playouts";
    let coricancha = Arc::new(site("coricancha", 4)?);
    let mut plans = vec![
        Plan::playouts(chullpa, "Chullpa 4p playouts".into(), random, best, n_playouts, reps).target(250.0),
        Plan::playouts(
            &coricancha,
            "Coricancha 4p playouts".into(),
            "coricancha 4p random playouts",
            best,
            n_playouts / 4,
            reps,
        )
        .target(70.0),
        Plan::playouts(
            chullpa,
            "Chullpa 4p playouts on the scalar path".into(),
            random,
            CodePath::Scalar,
            n_playouts / 20,
            reps,
        )
        .target(15.0),
    ];
    for path in CodePath::available() {
        if path != best && path != CodePath::Scalar {
            let what = format!("Chullpa 4p playouts on the {path} path");
            plans.push(Plan::playouts(chullpa, what, random, path, n_playouts / 2, reps));
        }
    }
    for path in CodePath::available() {
        plans.push(Plan {
            unit: "ns",
            ..Plan::new(
                chullpa,
                format!("Chullpa 4p generation on the {path} path"),
                "chullpa 4p one generation (playout positions)",
                path,
                Measure::Generation,
                reps,
            )
        });
    }
    for board in Board::builtins() {
        let name = board.name.to_lowercase();
        if name != "chullpa" && name != "coricancha" {
            let s = Arc::new(Site::new(board.clone(), 4, Variant::Standard, None).map_err(|e| e.to_string())?);
            let what = format!("{} 4p playouts", board.name);
            let figure = format!("{name} 4p random playouts");
            plans.push(Plan::playouts(&s, what, &figure, best, n_playouts / 4, reps));
        }
    }
    Ok(plans)
}

/// The searches: simulations per second from the first move of Chullpa 4 players, one
/// thread (timed like the rest) and every thread (wall clock). Level 9's simulations cost
/// several times those of levels 4-8 (informed playouts score four placements a ply), so
/// it runs a fifth as many.
fn search_plans(args: &BenchArgs, chullpa: &Arc<Site>, best: CodePath, reps: usize) -> Vec<Plan> {
    let simulations = if args.quick { 5_000 } else { 100_000 };
    let search = |searcher: Searcher, threads: usize| {
        let sims = match searcher {
            Searcher::Levels4To8 => simulations,
            Searcher::Level9 => simulations / 5,
        };
        let name = match threads {
            1 => format!("{}, chullpa 4p first move, 1 thread", searcher.name()),
            _ => format!(
                "{}, chullpa 4p first move, {threads} threads (wall clock)",
                searcher.name()
            ),
        };
        Plan {
            scale: 1e3,
            unit: "k simulations/s",
            ..Plan::new(
                chullpa,
                format!("the {}, {threads} thread(s)", searcher.name()),
                &name,
                best,
                Measure::Search {
                    searcher,
                    threads,
                    simulations: sims * threads as u64,
                },
                reps,
            )
        }
    };
    // Issue #20's target (100 k) is of the search it was measured on, today's levels 4-8.
    let mut plans = vec![
        search(Searcher::Levels4To8, 1).target(100.0),
        search(Searcher::Level9, 1),
    ];
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    if threads > 1 {
        plans.push(search(Searcher::Level9, threads));
    }
    plans
}

pub fn run(args: &BenchArgs) -> Result<(), String> {
    WALL.store(args.wall, Ordering::Relaxed);
    let best = match &args.path {
        None => CodePath::active(),
        Some(name) => {
            let p = CodePath::from_name(name).ok_or_else(|| format!("unknown code path '{name}'"))?;
            p.check().map_err(|e| e.to_string())?
        }
    };
    if let Some(n) = args.playouts_only {
        let chullpa = site(&args.board, 4)?;
        let start = Position::new(&chullpa);
        // Game i is played with a generator seeded from the i-th draw of `Rng::new(1)`,
        // in batches of `BATCH` games (or one by one: the same games, the same mean).
        const BATCH: usize = 64;
        let mut seeds = Rng::new(1);
        let mut sum = 0i64;
        let mut set = MoveSet::new();
        let mut games = vec![start.clone(); BATCH];
        let mut rngs = vec![Rng::new(0); BATCH];
        let mut done = 0;
        while done < n {
            let b = BATCH.min(n - done);
            for (p, r) in games[..b].iter_mut().zip(&mut rngs[..b]) {
                p.clone_from(&start);
                *r = Rng::new(seeds.next_u64());
            }
            if args.one_by_one {
                for (p, r) in games[..b].iter_mut().zip(&mut rngs[..b]) {
                    random_playout_in_place(&chullpa, p, r, best, &mut set).map_err(|e| e.to_string())?;
                }
            } else {
                random_playouts_in_place(&chullpa, &mut games[..b], &mut rngs[..b], best).map_err(|e| e.to_string())?;
            }
            for end in &games[..b] {
                let scores = end.colour_scores(&chullpa);
                sum += chullpa.order().iter().map(|&c| scores[c.index()] as i64).sum::<i64>();
            }
            done += b;
        }
        println!(
            "{n} {} 4p playouts on {best}: mean score per colour {:.3}",
            chullpa.board().name,
            sum as f64 / (4 * n.max(1)) as f64
        );
        return Ok(());
    }

    if let Some(sims) = args.search_only {
        let clock = if cpu_clock() { "thread CPU time" } else { "wall clock" };
        let players = args.players;
        let on = site(&args.board, players)?;
        for searcher in [Searcher::Levels4To8, Searcher::Level9] {
            let rate = search_rate(&on, searcher, 1, sims, 1, args.paired)[0];
            println!(
                "{}, {} {players}p first move, 1 thread, {sims} simulations on {best}{}: {:.1} k simulations/s ({clock})",
                searcher.name(),
                on.board().name,
                if args.paired { ", paired" } else { "" },
                rate / 1e3
            );
        }
        return Ok(());
    }
    if args.scaling {
        return scaling(args.quick);
    }
    if args.solve {
        return solve_figures(args);
    }
    let (reps, n_playouts) = if args.quick { (3, 2_000) } else { (7, 50_000) };
    let mut figures = Vec::new();
    for plan in plans(args, best, reps, n_playouts)? {
        if !args.json {
            tracing::info!("measuring {} ...", plan.what);
        }
        figures.push(plan.measure()?);
    }

    let clock = if cpu_clock() { "thread CPU time" } else { "wall clock" };
    if args.json {
        println!("{}", json(&figures, reps, clock));
    } else {
        print!("{}", table(&figures));
        println!(
            "medians of {reps} runs (perft(4): {}), timed by the {clock}",
            if args.quick { 1 } else { 3 }
        );
    }
    Ok(())
}

/// The solitaire counts of `crate::solve::bench_cases`, timed like the other figures.
fn solve_figures(args: &BenchArgs) -> Result<(), String> {
    let mut figures = Vec::new();
    for case in crate::solve::bench_cases(args.quick) {
        if !args.json {
            tracing::info!("measuring {} ...", case.name);
        }
        let mut samples = Vec::new();
        for _ in 0..case.reps {
            let t = Timer::start();
            case.run()?;
            samples.push(t.secs());
        }
        figures.push(Figure {
            name: case.name,
            samples,
            unit: "s",
            // The solver does not use the move generator's code paths.
            path: None,
            target: None,
        });
    }
    let clock = if cpu_clock() { "thread CPU time" } else { "wall clock" };
    if args.json {
        println!(
            "{}",
            json(&figures, figures.first().map_or(1, |f| f.samples.len()), clock)
        );
    } else {
        print!("{}", table(&figures));
        println!("timed by the {clock}; the counts are checked against the known figures");
    }
    Ok(())
}

/// The scaling table: open boxes of growing size and height, built-in boards, 2-4 colours.
fn scaling(quick: bool) -> Result<(), String> {
    let reps = if quick { 1 } else { 3 };
    let mut cases: Vec<(String, Site)> = Vec::new();
    let boxed = |f: usize, r: usize, h: u8, players: usize| -> Result<(String, Site), String> {
        let b = Board::open_box(f, r, h).map_err(|e| e.to_string())?;
        let s = Site::new(b, players, Variant::Standard, None).map_err(|e| e.to_string())?;
        Ok((format!("box {f}x{r} cap {h}, {players}p"), s))
    };
    for (f, r) in [(4, 4), (5, 4), (8, 4), (8, 8), (10, 8), (16, 8)] {
        cases.push(boxed(f, r, 4, 4)?);
    }
    for h in [2, 8, 15] {
        cases.push(boxed(10, 8, h, 4)?);
    }
    for name in ["chullpa", "coricancha"] {
        for players in 2..=4 {
            let board = Board::builtin(name).ok_or("no such board")?;
            let s = Site::new(board.clone(), players, Variant::Standard, None).map_err(|e| e.to_string())?;
            cases.push((format!("{name}, {players}p"), s));
        }
    }
    let paths = CodePath::available();
    let mut head = vec![
        "board".to_string(),
        "columns".into(),
        "templates".into(),
        "chunks".into(),
    ];
    for p in &paths {
        head.push(format!("ns/gen {p}"));
    }
    head.push(format!("k playouts/s {}", paths[0]));
    let mut rows = vec![head];
    for (name, s) in &cases {
        let mut row = vec![
            name.clone(),
            s.footprint().count().to_string(),
            s.templates().len().to_string(),
            s.gen_tables().chunk_count().to_string(),
        ];
        for &p in &paths {
            let mut v = generation_ns(s, p, reps);
            v.sort_by(f64::total_cmp);
            row.push(fmt_num(v[v.len() / 2]));
        }
        let n = if quick { 500 } else { 5_000 };
        let mut v = playouts(s, paths[0], n, reps);
        v.sort_by(f64::total_cmp);
        row.push(fmt_num(v[v.len() / 2] / 1e3));
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let cells: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    format!("{c:<w$}", w = widths[i])
                } else {
                    format!("{c:>w$}", w = widths[i])
                }
            })
            .collect();
        println!("{}", cells.join("  "));
    }
    println!(
        "timed by the {}",
        if cpu_clock() { "thread CPU time" } else { "wall clock" }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each searcher times its level's settings: level 9's plays out informed and models
    /// the others, levels 4-8's neither (a figure named for level 9 had timed the defaults).
    #[test]
    fn each_searcher_takes_its_levels_settings() {
        let nine = rumis_ai::level_config(Searcher::Level9.level());
        assert!(nine.informed_plies > 0 && nine.others_prior_weight > 1.0, "{nine:?}");
        let eight = rumis_ai::level_config(Searcher::Levels4To8.level());
        assert_eq!(eight.informed_plies, 0);
        assert_eq!(eight.others_prior_weight, 1.0);
        assert_eq!(eight.time, None);
    }
}
