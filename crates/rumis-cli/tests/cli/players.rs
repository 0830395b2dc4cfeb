//! The players' commands as other tools use them: hints, matches and self-play between
//! players, the analysis of a game, the benchmarks' figures, the stuck rule's measurement,
//! training priors, and a game against the AI at the prompt.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::commands::{fails, ok, rumis, rumis_stdin, temp};

#[test]
fn a_hint_heads_its_runners_up_by_visits() {
    let out = ok(&["hint", "--board", "chullpa", "--players", "2", "--simulations", "300"]);
    let first = out.lines().next().unwrap();
    let (mv, pct) = first.split_once(' ').unwrap();
    assert!(pct.ends_with('%'));
    let moves = ok(&["moves", "--board", "chullpa", "--players", "2"]);
    assert!(moves.lines().any(|l| l == mv), "hint {mv} is a legal move");
    // The runners-up go by visits, never rising, and the output says that is the order (a
    // higher estimate may stand below a lower one: the line says why).
    assert!(
        out.contains("runners-up by visits (the search plays the most visited"),
        "{out}"
    );
    let visits: Vec<u64> = out
        .lines()
        .skip(3)
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(!visits.is_empty() && visits.windows(2).all(|w| w[0] >= w[1]), "{out}");
    assert_eq!(
        out.lines().nth(3).unwrap().split_whitespace().next(),
        Some(mv),
        "the move played heads the list: {out}"
    );
}

#[test]
fn a_match_plays_its_games_and_refuses_an_unknown_player() {
    let out = ok(&[
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "4",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--threads",
        "2",
    ]);
    assert!(out.starts_with("A greedy vs B random: 4 games"), "{out}");
    assert!(out.contains("Elo"));

    let e = fails(rumis(&[
        "match",
        "--a",
        "wizard",
        "--b",
        "random",
        "--board",
        "chullpa",
        "--players",
        "2",
    ]));
    assert!(e.contains("unknown player 'wizard'"), "{e}");
}

#[test]
fn selfplay_writes_a_record_that_score_reads() {
    let path = crate::scratch().join(format!("rumis-greedy-{}.txt", std::process::id()));
    ok(&[
        "selfplay",
        "--player",
        "greedy",
        "--board",
        "pirka",
        "--players",
        "3",
        "--seed",
        "2",
        "--out",
        path.to_str().unwrap(),
    ]);
    let score = ok(&["score", "--record", path.to_str().unwrap()]);
    assert!(score.lines().last().unwrap().starts_with("winner: "));
}

#[test]
fn a_match_searches_on_two_threads_a_move() {
    // Each search on two threads, one game at a time.
    let out = ok(&[
        "match",
        "--a",
        "mcts:60",
        "--b",
        "greedy",
        "--games",
        "2",
        "--board",
        "tambo",
        "--players",
        "2",
        "--search-threads",
        "2",
    ]);
    assert!(out.starts_with("A mcts:60 vs B greedy: 2 games"), "{out}");
    let e = fails(rumis(&[
        "match",
        "--a",
        "mcts:60",
        "--b",
        "greedy",
        "--board",
        "tambo",
        "--players",
        "2",
        "--search-threads",
        "0",
    ]));
    assert!(e.contains("--search-threads 0 must be 1 to 256"), "{e}");
}

#[test]
fn analyze_prints_every_move_and_the_worst() {
    let dir = crate::scratch().join(format!("rumis-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("analyze.txt");
    let rec = rec.to_str().unwrap();
    ok(&[
        "selfplay",
        "--board",
        "chullpa",
        "--players",
        "3",
        "--seed",
        "3",
        "--out",
        rec,
    ]);
    let moves = rumis_core::record::read_game(&std::fs::read_to_string(rec).unwrap())
        .unwrap()
        .moves()
        .len();
    let out = ok(&["analyze", "--record", rec, "--simulations", "100"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "move  colour  placement               R    Y    G");
    // One line per move, numbered, with a percentage per colour.
    for (i, line) in lines[1..=moves].iter().enumerate() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], (i + 1).to_string(), "{line}");
        assert_eq!(words.len(), 6, "{line}");
        assert!(words[3..].iter().all(|w| w.ends_with('%')), "{line}");
        // Each percentage ends under its colour's letter.
        assert_eq!(line.len(), lines[0].len(), "{line}");
        for end in [lines[0].len() - 10, lines[0].len() - 5] {
            assert_eq!(&line[end - 1..end], "%", "{line}");
        }
    }
    assert_eq!(lines[moves + 1], "");
    assert_eq!(lines[moves + 2], "moves that lost the most:");
    let worst = &lines[moves + 3..];
    assert!(!worst.is_empty() && worst.len() <= 5);
    assert!(worst
        .iter()
        .all(|l| l.contains(" lost ") && l.ends_with(" of win estimate")));
    // The same seed: the same analysis.
    assert_eq!(ok(&["analyze", "--record", rec, "--simulations", "100"]), out);
}

/// A record where a colour resigned and the others played on (rules §5.1): `analyze` reads
/// it (it failed: it replayed the moves after `Y:out` as Yellow's), and `score` names the
/// forfeit and ranks it last.
#[test]
fn analyze_and_score_read_a_resignation() {
    let dir = crate::scratch().join(format!("rumis-cli-forfeit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let site = std::sync::Arc::new(
        rumis_core::Site::new(
            rumis_core::Board::builtin("chullpa").unwrap().clone(),
            3,
            rumis_core::Variant::Standard,
            None,
        )
        .unwrap(),
    );
    let mut game = rumis_core::Game::new(site);
    let mut rng = rumis_core::Rng::new(4);
    for _ in 0..3 {
        let m = game.legal_moves()[0];
        game.play(m).unwrap();
    }
    game.retire(rumis_core::Colour::Yellow, Some("resigned")).unwrap();
    game.play_random(&mut rng);
    let rec = dir.join("forfeit.txt");
    std::fs::write(&rec, rumis_core::record::write(&game)).unwrap();
    let rec = rec.to_str().unwrap();
    let out = ok(&["analyze", "--record", rec, "--simulations", "30"]);
    // One line per move (the list of the moves that lost the most follows them).
    let per_move = out.lines().skip(1).take_while(|l| !l.is_empty()).count();
    assert_eq!(per_move, game.moves().len(), "{out}");
    let score = ok(&["score", "--record", rec]);
    assert!(score.contains("forfeited: Y (resigned after move 3)"), "{score}");
    let winner = score.lines().last().unwrap();
    assert!(winner.starts_with("winner: ") && !winner.contains('Y'), "{score}");
}

/// The solver's bench figures: checked counts, timed, and no move-generator code path (the
/// solver does not use one).
#[test]
fn bench_solve_figures_name_no_code_path() {
    let v: serde_json::Value = serde_json::from_str(&ok(&["bench", "--solve", "--quick", "--json"])).unwrap();
    let figures = v["figures"].as_array().unwrap();
    assert!(!figures.is_empty());
    for f in figures {
        assert!(f["figure"].as_str().unwrap().starts_with("solve "), "{f}");
        assert_eq!(f["path"], serde_json::Value::Null, "{f}");
        assert_eq!(f["unit"], "s");
        assert!(f["median"].as_f64().unwrap() > 0.0, "{f}");
    }
    let table = ok(&["bench", "--solve", "--quick"]);
    let head = table.lines().next().unwrap();
    let path_column = head.find("path").unwrap();
    for line in table.lines().skip(1).filter(|l| l.starts_with("solve ")) {
        assert_eq!(&line[path_column..path_column + 1], "-", "{line}");
    }
}

/// `bench --search-only` times two searches and names each: levels 4-8's and level 9's
/// own (it once timed the default settings under level 9's name after level 9 had moved on).
#[test]
fn bench_search_only_times_both_searches() {
    let out = ok(&["bench", "--search-only", "300"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    for (line, name) in lines.iter().zip(["levels 4-8 search, ", "level 9 search, "]) {
        assert!(line.starts_with(name), "{line}");
        let rate: f64 = line
            .split(": ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|r| r.parse().ok())
            .unwrap_or_else(|| panic!("no rate in {line}"));
        assert!(rate > 0.0, "{line}");
    }
}

/// The house rule "a stuck colour passes" (`--stuck-rule pass`) on the 4 x 1 strip where red
/// is stuck after two dominoes (crates/rumis-core/tests/core/stuck_rule.rs): perft, show,
/// moves, a record and self-play at several levels; a bad value is one clear error.
// long: one board's commands one after another (perft, show, moves, a record, self-play),
// each output pinned.
#[test]
fn stuck_rule_pass() {
    let strip = temp(
        "strip.toml",
        "name = \"Strip\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 3, 3 = 3, 4 = 3 }\ngrid = \"\"\"\n####\n\"\"\"\n",
    );
    let strip = strip.to_str().unwrap();
    let opened = temp(
        "opened.txt",
        "[Board \"Strip\"]\n[Players \"2\"]\n[StuckRule \"pass\"]\n\nD2@d1x2 D2@c1x2 V3@a1,b1x2\n",
    );
    let opened = opened.to_str().unwrap();
    // Red passed, then has its one placement back.
    assert_eq!(
        ok(&["moves", "--record", opened, "--board-file", strip]),
        "I3@b1,c1,d1\n"
    );
    let shown = ok(&["show", "--record", opened, "--board-file", strip]);
    assert!(shown.contains("red (R) to move"), "{shown}");
    assert!(shown.contains("a colour that cannot place passes"), "{shown}");
    // The same game under the rulebooks' rule: yellow plays on.
    let out_rule = temp(
        "out.txt",
        "[Board \"Strip\"]\n[Players \"2\"]\n\nD2@d1x2 D2@c1x2 V3@a1,b1x2\n",
    );
    let shown = ok(&["show", "--record", out_rule.to_str().unwrap(), "--board-file", strip]);
    assert!(
        shown.contains("yellow (Y) to move") && shown.contains("R (out)"),
        "{shown}"
    );
    // Perft under both rules: from the empty strip (the option), and from the stuck
    // position (a record carries its rule), the figures of the core's tests.
    let perft = |rule: &str| {
        ok(&[
            "perft",
            "--depth",
            "4",
            "--board-file",
            strip,
            "--players",
            "2",
            "--stuck-rule",
            rule,
        ])
    };
    assert_eq!(
        perft("out"),
        ok(&["perft", "--depth", "4", "--board-file", strip, "--players", "2"])
    );
    assert_ne!(
        perft("out"),
        perft("pass"),
        "the rules part within four placements on the strip"
    );
    for (tag, figure) in [("", "11\n"), ("[StuckRule \"pass\"]\n", "8\n")] {
        let stuck = temp(
            "stuck.txt",
            &format!("[Board \"Strip\"]\n[Players \"2\"]\n{tag}\nD2@d1x2 D2@c1x2\n"),
        );
        assert_eq!(
            ok(&[
                "perft",
                "--depth",
                "2",
                "--record",
                stuck.to_str().unwrap(),
                "--board-file",
                strip
            ]),
            figure
        );
    }
    // Self-play at several levels writes records with the tag that replay to their result.
    for player in ["random", "greedy", "level:1", "level:4", "level:6"] {
        let path = crate::scratch().join(format!("rumis-stuck-{}-{player}.txt", std::process::id()));
        ok(&[
            "selfplay",
            "--board-file",
            strip,
            "--players",
            "2",
            "--stuck-rule",
            "pass",
            "--player",
            player,
            "--seed",
            "3",
            "--games",
            "2",
            "--out",
            path.to_str().unwrap(),
        ]);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches("[StuckRule \"pass\"]").count(), 2, "{text}");
        let score = ok(&[
            "score",
            "--record",
            path.to_str().unwrap(),
            "--game",
            "2",
            "--board-file",
            strip,
        ]);
        assert!(score.contains("winner"), "{score}");
        let _ = std::fs::remove_file(&path);
    }
    let err = fails(rumis(&[
        "perft",
        "--depth",
        "1",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--stuck-rule",
        "skip",
    ]));
    assert!(err.contains("skip") && err.contains("out or pass"), "{err}");
    // The record carries its rule: the option is refused beside --record.
    let err = fails(rumis(&[
        "show",
        "--record",
        opened,
        "--board-file",
        strip,
        "--stuck-rule",
        "out",
    ]));
    assert!(err.contains("--stuck-rule"), "{err}");
}

/// `train-priors` learns weights from records, writes a file the search reads back and
/// plays with, and predicts the moves of held-out games better than chance; a missing or
/// corrupt weights file is refused with one clear line.
// long: train, read back, play and predict with one model, then the refusals: one file's
// life in order.
#[test]
fn train_priors_learns_a_model_the_search_uses() {
    let records = crate::scratch().join(format!("rumis-train-{}.txt", std::process::id()));
    let weights = crate::scratch().join(format!("rumis-train-{}.toml", std::process::id()));
    let (records_s, weights_s) = (records.to_str().unwrap(), weights.to_str().unwrap());
    ok(&[
        "selfplay",
        "--player",
        "greedy",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--seed",
        "4",
        "--games",
        "10",
        "--out",
        records_s,
    ]);
    let out = ok(&["train-priors", records_s, "--out", weights_s, "--iterations", "60"]);
    assert!(out.starts_with("8 games learned from"), "{out}");
    // Held out: the learned full model's log-likelihood beats a uniform choice.
    let held = out.split("held-out games").nth(1).expect("a held-out report");
    let line = held.lines().find(|l| l.contains("learned, full")).unwrap();
    let number = |after: &str| -> f64 {
        let rest = line.split(after).nth(1).unwrap().trim_start();
        rest.split(|c: char| c.is_whitespace() || c == ')')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(number("log-likelihood") > number("(uniform"), "{line}");
    let text = std::fs::read_to_string(&weights).unwrap();
    assert!(text.contains("[full]") && text.contains("[quick]"), "{text}");
    // The search plays with it.
    let spec = format!("learned@{weights_s}:20");
    let played = ok(&[
        "match",
        "--a",
        &spec,
        "--b",
        "random",
        "--games",
        "1",
        "--board",
        "chullpa",
        "--players",
        "2",
    ]);
    assert!(played.contains("1 games"), "{played}");
    // A corrupt file and a missing one are refused.
    let bad = temp("corrupt.toml", "[full]\nsize = 1\n[quick]\nsize = \"big\"\n");
    let spec = format!("learned@{}:20", bad.display());
    let err = fails(rumis(&[
        "match",
        "--a",
        &spec,
        "--b",
        "random",
        "--board",
        "chullpa",
        "--players",
        "2",
    ]));
    assert!(err.contains("corrupt.toml") && err.contains("not a number"), "{err}");
    let err = fails(rumis(&[
        "match",
        "--a",
        "learned@/nonexistent/w.toml:20",
        "--b",
        "random",
        "--board",
        "chullpa",
        "--players",
        "2",
    ]));
    assert!(err.contains("cannot read /nonexistent/w.toml"), "{err}");
    let err = fails(rumis(&["train-priors", "/nonexistent/records.txt", "--out", weights_s]));
    assert!(err.contains("cannot read /nonexistent/records.txt"), "{err}");
    // Match records name each colour's player: --learn-from keeps one side's moves.
    let dir = crate::scratch().join(format!("rumis-train-match-{}", std::process::id()));
    ok(&[
        "match",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "4",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let files: Vec<String> = (1..=4)
        .map(|i| dir.join(format!("game-{i:04}.txt")).to_str().unwrap().to_string())
        .collect();
    let positions = |extra: &[&str]| -> usize {
        let mut args = vec!["train-priors", "--out", weights_s, "--iterations", "5"];
        args.extend(files.iter().map(|f| f.as_str()));
        args.extend(extra);
        let out = ok(&args);
        let n = out.split('(').nth(1).unwrap().split(' ').next().unwrap();
        n.parse().unwrap()
    };
    let (all, greedy, random) = (
        positions(&[]),
        positions(&["--learn-from", "greedy"]),
        positions(&["--learn-from", "random"]),
    );
    assert_eq!(greedy + random, all, "{greedy} + {random} != {all}");
    assert!(greedy > 0 && random > 0);
    let mut args = vec!["train-priors", "--out", weights_s, "--learn-from", "nobody"];
    args.extend(files.iter().map(|f| f.as_str()));
    let err = fails(rumis(&args));
    assert!(err.contains("no position"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_file(&records).ok();
    std::fs::remove_file(&weights).ok();
}

/// `rumis play --vs`: a person at the keyboard against the AI, driven through the prompt as
/// a player would: ask `moves`, type the first one listed, until the game ends with its
/// scores and record; the AI's placements are printed as they come.
#[test]
fn play_against_the_ai_to_the_end() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumis"))
        .args([
            "play",
            "--board",
            "chullpa",
            "--players",
            "2",
            "--vs",
            "level:1",
            "--seat",
            "2",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rumis runs");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    // Everything up to the next prompt, or to the end of the output.
    let mut until_prompt = || {
        let mut text = Vec::new();
        let mut byte = [0u8];
        while !text.ends_with(b"to move> ") {
            if stdout.read(&mut byte).unwrap() == 0 {
                return (String::from_utf8(text).unwrap(), false);
            }
            text.push(byte[0]);
        }
        (String::from_utf8(text).unwrap(), true)
    };
    let (intro, prompt) = until_prompt();
    assert!(prompt);
    assert!(intro.contains("seat 1: the AI (level:1) plays red"), "{intro}");
    assert!(intro.contains("seat 2: you play yellow"), "{intro}");
    assert!(intro.contains("red (AI level:1) plays "), "the AI moved first: {intro}");
    let mut typed = 0;
    let mut all = intro;
    loop {
        writeln!(stdin, "moves").unwrap();
        let (list, _) = until_prompt();
        let first = list
            .lines()
            .nth(1)
            .and_then(|l| l.split_whitespace().next())
            .expect("a placement listed")
            .to_string();
        assert!(first.contains('@'), "{list}");
        writeln!(stdin, "{first}").unwrap();
        typed += 1;
        let (after, prompt) = until_prompt();
        assert!(after.contains(&format!("yellow plays {first}")), "{after}");
        all.push_str(&after);
        if !prompt {
            break;
        }
        assert!(typed < 40, "the game did not end");
    }
    assert!(child.wait().unwrap().success());
    assert!(all.contains("[Board \"Chullpa\"]"), "the record at the end: {all}");
    assert!(all.matches("(AI level:1) plays").count() >= typed, "{all}");
}

/// At the prompt: `help`, `stones`, `moves STONE`, a bad placement and `undo` (back to the
/// person's turn, the AI's reply with it) answer and change nothing else; the end of the
/// input ends the game cleanly.
#[test]
fn play_prompt_commands() {
    let out = rumis_stdin(
        &["play", "--board", "chullpa", "--players", "2", "--vs", "greedy"],
        "help\nstones\nmoves d2\nmoves Q7\nL4@z9\nundo\nD2@a1x2\nundo\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("moves [STONE]"), "help: {text}");
    assert!(
        text.contains("*A4 (4 cubes)") && text.contains("level 2"),
        "stones: {text}"
    );
    assert!(text.contains("51 legal placements:\nD2@a1,a2"), "moves d2: {text}");
    assert!(text.contains("? no stone 'Q7'"), "{text}");
    assert!(text.contains("? 'z9' is not a cell of Chullpa"), "{text}");
    assert!(text.contains("nothing to undo"), "{text}");
    assert!(text.contains("red plays D2@a1x2"), "{text}");
    assert!(text.contains("yellow (AI greedy) plays "), "{text}");
    assert!(text.contains("took back "), "{text}");
    // After the undo it is red's turn again, at the start.
    assert!(text.trim_end().ends_with("red to move>"), "{text}");
    // A seat the game has not: a clear error.
    let out = rumis(&[
        "play",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--vs",
        "level:3",
        "--seat",
        "3",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--seat 3: this game has seats 1 to 2"));
}

/// `match --by-seat`: one line per seat in order of play, the shares of the wins adding up
/// to one, each inside its interval; in the two-player four-colour game a seat is a player
/// with two colours.
#[test]
fn match_by_seat() {
    let seat_lines = |out: &str| -> Vec<(String, f64, f64, f64)> {
        out.lines()
            .filter(|l| l.starts_with("  seat "))
            .map(|l| {
                let colours = l.split(['(', ')']).nth(1).unwrap().to_string();
                let share: f64 = l
                    .split("share ")
                    .nth(1)
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap();
                let interval = l.split("interval ").nth(1).unwrap().split(')').next().unwrap();
                let (lo, hi) = interval.split_once('-').unwrap();
                (colours, share, lo.parse().unwrap(), hi.parse().unwrap())
            })
            .collect()
    };
    for (args, colours) in [
        (vec!["--players", "3"], vec!["R", "Y", "G"]),
        (
            vec!["--players", "2", "--variant", "two-player-four-colors"],
            vec!["RG", "YB"],
        ),
    ] {
        let mut all = vec![
            "match",
            "--a",
            "greedy",
            "--b",
            "level:2",
            "--games",
            "6",
            "--board",
            "pisac",
            "--by-seat",
        ];
        all.extend(args);
        let out = ok(&all);
        assert!(out.contains("by seat, in order of play (6 games):"), "{out}");
        let seats = seat_lines(&out);
        assert_eq!(seats.iter().map(|s| s.0.as_str()).collect::<Vec<_>>(), colours, "{out}");
        let total: f64 = seats.iter().map(|s| s.1).sum();
        assert!((total - 1.0).abs() < 0.01, "{out}");
        for (_, share, lo, hi) in &seats {
            assert!(lo <= share && share <= hi, "{out}");
        }
        assert!(out.lines().last().unwrap().contains("6 games"), "{out}");
    }
}
