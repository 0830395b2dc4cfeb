//! The command line as other tools use it: exact outputs, and one clear error line.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

pub(crate) fn rumis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rumis"))
        .args(args)
        .output()
        .expect("rumis runs")
}

pub(crate) fn rumis_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rumis"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rumis runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

pub(crate) fn ok(args: &[&str]) -> String {
    let out = rumis(args);
    assert!(
        out.status.success(),
        "rumis {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A failing call: non-zero exit, nothing on stdout, one line on stderr; returns it.
pub(crate) fn fails(out: Output) -> String {
    assert!(
        !out.status.success(),
        "expected failure, got: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim_end().lines().count(), 1, "one error line, got: {err}");
    assert!(out.stdout.is_empty(), "no output on error");
    err
}

pub(crate) fn temp(name: &str, text: &str) -> PathBuf {
    let dir = crate::scratch().join(format!("rumis-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn boards_lists_the_six_scenarios() {
    let out = ok(&["boards"]);
    for name in ["Chullpa", "Pirka", "Tambo", "Pisac", "Coricancha", "Cucho"] {
        assert!(out.contains(name), "{name} missing from:\n{out}");
    }
    assert!(out.contains("4/6/8"));
    assert!(out.contains("printed-rules"));
    // Coricancha's evidence, with what it implies and that it holds.
    assert!(out.contains("62 squares seen from above"), "{out}");
    assert!(out.contains("at least 62 cells for 3 players (holds)"), "{out}");
    assert!(out.contains("Coricancha   10x8 40/80/80"), "{out}");
}

#[test]
fn boards_export_writes_a_file_that_reads_back() {
    let text = ok(&["boards", "--export", "pyramid"]);
    assert!(text.contains("name = \"Coricancha\""), "{text}");
    let path = temp("exported-coricancha.toml", &text);
    let out = ok(&["boards", "--board-file", path.to_str().unwrap()]);
    assert!(out.contains("Coricancha   10x8 40/80/80"), "{out}");
    // An edit that contradicts the evidence is refused with the reason.
    let edited = text.replace(
        "frames = { 2 = \"a1:e8\" }",
        "frames = { 2 = \"a1:e8\", 3 = \"a1:e8\" }",
    );
    let path = temp("edited-coricancha.toml", &edited);
    let err = fails(rumis(&["boards", "--board-file", path.to_str().unwrap()]));
    assert!(err.contains("contradicts its own evidence"), "{err}");
    let err = fails(rumis(&["boards", "--export", "atlantis"]));
    assert!(err.contains("no built-in board called \"atlantis\""), "{err}");
}

#[test]
fn moves_are_sorted_canonical_and_complete() {
    let out = ok(&["moves", "--board", "CHULLPA", "--players", "4"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 687);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"L4@a1,a2,a3,b1"));
    assert!(lines.contains(&"I4@c2x4"));
}

#[test]
fn perft_and_divide() {
    let out = ok(&["perft", "--depth", "2", "--board", "chullpa", "--players", "4"]);
    assert_eq!(out.trim(), "165662");
    let out = ok(&[
        "perft",
        "--depth",
        "2",
        "--divide",
        "--board",
        "chullpa",
        "--players",
        "4",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 688);
    assert_eq!(*lines.last().unwrap(), "165662");
    let sum: u64 = lines[..687]
        .iter()
        .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 165_662);
}

#[test]
fn selfplay_score_show_and_stdin() {
    let path = crate::scratch().join(format!("rumis-selfplay-{}.txt", std::process::id()));
    let p = path.to_str().unwrap();
    ok(&[
        "selfplay",
        "--board",
        "chullpa",
        "--players",
        "3",
        "--seed",
        "9",
        "--games",
        "2",
        "--out",
        p,
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("[Board \"Chullpa\"]").count(), 2);
    let score = ok(&["score", "--record", p, "--game", "2"]);
    let lines: Vec<&str> = score.lines().collect();
    assert_eq!(lines.len(), 4, "{score}");
    assert!(lines[0].starts_with("R ") && lines[1].starts_with("Y ") && lines[2].starts_with("G "));
    assert!(lines[3].starts_with("winner: "));
    // The winner has the top score.
    let scores: Vec<(String, i32)> = lines[..3]
        .iter()
        .map(|l| {
            let (c, s) = l.split_once(' ').unwrap();
            (c.to_string(), s.parse().unwrap())
        })
        .collect();
    let best = scores.iter().map(|s| s.1).max().unwrap();
    let winners: Vec<&str> = scores.iter().filter(|s| s.1 == best).map(|s| s.0.as_str()).collect();
    assert_eq!(lines[3], format!("winner: {}", winners.join(" ")));
    // Same seed, same games.
    let again = crate::scratch().join(format!("rumis-selfplay-again-{}.txt", std::process::id()));
    ok(&[
        "selfplay",
        "--board",
        "chullpa",
        "--players",
        "3",
        "--seed",
        "9",
        "--games",
        "2",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(text, std::fs::read_to_string(&again).unwrap());
    // A single game from standard input.
    let first = text.split("\n\n[").next().unwrap();
    let out = rumis_stdin(&["show", "--record", "-"], first);
    assert!(out.status.success());
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(
        shown.contains("Top view") && shown.contains("Level 1:") && shown.contains("game over"),
        "{shown}"
    );
    // A finished game has no moves.
    let out = rumis_stdin(&["moves", "--record", "-"], first);
    assert!(out.status.success() && out.stdout.is_empty());
}

#[test]
fn two_player_four_colours_score() {
    let path = crate::scratch().join(format!("rumis-2p4c-{}.txt", std::process::id()));
    let p = path.to_str().unwrap();
    ok(&[
        "selfplay",
        "--board",
        "pirka",
        "--players",
        "2",
        "--variant",
        "two-player-four-colors",
        "--seed",
        "3",
        "--out",
        p,
    ]);
    let score = ok(&["score", "--record", p]);
    let lines: Vec<&str> = score.lines().collect();
    assert_eq!(lines.len(), 7, "{score}");
    assert!(lines[4].starts_with("player 1 (R G) ") && lines[5].starts_with("player 2 (Y B) "));
    assert!(lines[6].starts_with("winner: player"));
}

#[test]
fn ruinas_from_a_seed_is_reproducible() {
    let a = ok(&[
        "show",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--variant",
        "ruinas",
        "--ruins-seed",
        "4",
    ]);
    let b = ok(&[
        "show",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--variant",
        "ruinas",
        "--ruins-seed",
        "4",
    ]);
    assert_eq!(a, b);
    assert!(a.contains('X'), "ruins are shown:\n{a}");
    let moves = ok(&[
        "moves",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--variant",
        "ruinas",
        "--ruins",
        "I4@a1x4 O4@c1,c2,d1,d2",
    ]);
    assert!(!moves.is_empty());
    // Every first stone rests on the board and touches the ruins; none may use a covered column.
    assert!(!moves.lines().any(|m| m.contains("a1")), "{moves}");
}

#[test]
fn a_board_file_of_ones_own() {
    let p = temp("box.toml", "name = \"Box\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 4, 3 = 4, 4 = 4 }\ngrid = \"\"\"\n#####\n#####\n#####\n#####\n#####\n\"\"\"\n");
    let out = ok(&[
        "perft",
        "--depth",
        "2",
        "--board-file",
        p.to_str().unwrap(),
        "--players",
        "4",
    ]);
    assert_eq!(out.trim(), "266872");
    let out = ok(&["boards", "--board-file", p.to_str().unwrap()]);
    assert!(out.contains("Box"));
    // A record of a game on it carries the board (rules §7): it replays without the file.
    let path = crate::scratch().join(format!("rumis-own-board-{}.txt", std::process::id()));
    ok(&[
        "selfplay",
        "--board-file",
        p.to_str().unwrap(),
        "--players",
        "2",
        "--seed",
        "5",
        "--out",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("[BoardFile \"")).count(),
        1,
        "{text}"
    );
    let alone = ok(&["score", "--record", path.to_str().unwrap()]);
    let with_file = ok(&[
        "score",
        "--record",
        path.to_str().unwrap(),
        "--board-file",
        p.to_str().unwrap(),
    ]);
    assert!(alone.contains("winner"), "{alone}");
    assert_eq!(alone, with_file);
    assert!(ok(&["show", "--record", path.to_str().unwrap()]).contains("Box"));
    // A damaged tag: the record's line and the reason.
    let bad = temp("bad-board-tag.txt", &text.replace("\\n", "\\q"));
    let e = fails(rumis(&["score", "--record", bad.to_str().unwrap()]));
    assert!(
        e.contains("line 2") && e.contains("BoardFile tag cannot be read"),
        "{e}"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn errors_are_one_clear_line() {
    let e = fails(rumis(&["show", "--board", "nowhere", "--players", "2"]));
    assert!(e.contains("unknown board 'nowhere'"), "{e}");
    let e = fails(rumis(&["moves", "--board", "chullpa"]));
    assert!(e.contains("--players"), "{e}");
    let e = fails(rumis(&["perft", "--board", "chullpa", "--players", "2"]));
    assert!(e.contains("--depth"), "{e}");
    let e = fails(rumis(&[
        "moves",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--variant",
        "chaos",
    ]));
    assert!(e.contains("unknown variant"), "{e}");
    let e = fails(rumis(&["show", "--record", "/nonexistent/game.txt"]));
    assert!(e.contains("cannot read record"), "{e}");
    let e = fails(rumis_stdin(
        &["score", "--record", "-"],
        "[Board \"Chullpa\"]\n[Players \"2\"]\n\n1. L4@a1,a2,a3,b1 2. L4@e1,e2,e3,d1\n",
    ));
    assert!(e.contains("move 2") && e.contains("touch"), "{e}");
    let e = fails(rumis_stdin(
        &["score", "--record", "-"],
        "[Board \"Chullpa\"]\n[Players \"2\"]\n\n1. L4@a1,a2,a3,b1 2. L4@c1,,\n",
    ));
    assert!(e.contains("move 2"), "{e}");
    let e = fails(rumis_stdin(
        &["score", "--record", "-"],
        "[Board \"Atlantis\"]\n[Players \"2\"]\n",
    ));
    assert!(e.contains("line 1") && e.contains("Atlantis"), "{e}");
    let e = fails(rumis_stdin(
        &["score", "--record", "-"],
        "[Board \"Chullpa\"]\n[Players \"2\"\n",
    ));
    assert!(e.contains("line 2"), "{e}");
    let bad = temp("bad.toml", "name = \"B\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 4, 3 = 4, 4 = 4 }\ngrid = \"\"\"\n###\n##\n\"\"\"\n");
    let e = fails(rumis(&[
        "moves",
        "--board-file",
        bad.to_str().unwrap(),
        "--players",
        "2",
    ]));
    assert!(e.contains("bad.toml:6:") && e.contains("ragged"), "{e}");
    let e = fails(rumis(&["frobnicate"]));
    assert!(e.contains("frobnicate"), "{e}");
}

/// The command line and the engine protocol refuse a bad setup with the core's words
/// (`rumis_core::GameSetup`): one set of checks and messages for every front end.
#[test]
fn bad_setups_get_the_cores_words_on_the_command_line_and_in_the_engine() {
    let core = |settings: &[(&str, &str)]| {
        rumis_core::GameSetup::from_settings(settings.iter().copied())
            .and_then(|s| s.start())
            .unwrap_err()
            .to_string()
    };
    // (command-line options, the engine's new_game words, the core's settings)
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [(&'a str, &'a str)]);
    let cases: [Case; 4] = [
        (
            &["--players", "2", "--colors", "R R"],
            &["2", "colors=RR"],
            &[("board", "chullpa"), ("players", "2"), ("colors", "R R")],
        ),
        (&["--players", "5"], &["5"], &[("board", "chullpa"), ("players", "5")]),
        (
            &["--players", "4", "--variant", "ruinas", "--ruins-seed", "1"],
            &["4", "ruinas", "ruins_seed=1"],
            &[
                ("board", "chullpa"),
                ("players", "4"),
                ("variant", "ruinas"),
                ("ruins_seed", "1"),
            ],
        ),
        (
            &["--players", "2", "--stuck-rule", "wait"],
            &["2", "stuck_rule=wait"],
            &[("board", "chullpa"), ("players", "2"), ("stuck_rule", "wait")],
        ),
    ];
    for (options, words, settings) in cases {
        let want = core(settings);
        let mut args = vec!["moves", "--board", "chullpa"];
        args.extend_from_slice(options);
        let e = fails(rumis(&args));
        assert_eq!(e.trim_end(), format!("rumis: {want}"), "{options:?}");
        let answer = String::from_utf8(
            rumis_stdin(&["engine"], &format!("new_game chullpa {}\nquit\n", words.join(" "))).stdout,
        )
        .unwrap();
        assert_eq!(answer.split("\n\n").next().unwrap(), format!("? {want}"), "{words:?}");
    }
}

#[test]
fn engine_protocol_answers_and_refuses_without_change() {
    let script = "1 new_game chullpa 2\nplay L4@a1,a2,a3,b1\nplay R D2@c1,d1\nplay Y L4@e1,e2,e3,d1\nto_move\n7 genmove\nundo\nto_move\nlegal_moves\nfoo\nset_level 3\ngenmove Y\nquit\n";
    let out = rumis_stdin(&["engine"], script);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers[0], "=1");
    assert_eq!(answers[1], "= L4@a1,a2,a3,b1");
    assert!(answers[2].starts_with("? it is yellow's turn"), "{}", answers[2]);
    assert!(answers[3].starts_with("? illegal"), "{}", answers[3]);
    // Refused moves changed nothing: still yellow to move.
    assert_eq!(answers[4], "= Y");
    assert!(answers[5].starts_with("=7 "), "{}", answers[5]);
    let generated = answers[5].trim_start_matches("=7 ");
    assert_eq!(answers[6], format!("= {generated}"));
    assert_eq!(answers[7], "= Y");
    let legal: Vec<&str> = answers[8].trim_start_matches("= ").split(' ').collect();
    assert!(legal.contains(&generated), "the engine's move was legal");
    assert!(answers[9].starts_with("? unknown command"));
    assert_eq!(answers[10], "=");
    assert!(legal.contains(&answers[11].trim_start_matches("= ")));
    assert_eq!(answers[12], "=");
}

/// `rumis serve` reads its file and its variables before it starts: a bad key or value
/// stops it with one line naming where it came from, before it opens a database.
#[cfg(feature = "server")]
#[test]
fn serve_refuses_a_bad_configuration_before_starting() {
    let dir = std::env::temp_dir().join(format!("rumis-cli-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("rumis.toml");
    let example = ok(&["config", "--example"]);
    assert!(
        example.contains("# database-url = \"sqlite://./rumis.db\"\n"),
        "{example}"
    );
    assert!(example.contains("RUMIS_DATABASE_URL"), "{example}");
    let serve = |file_text: &str, env: &[(&str, &str)]| {
        std::fs::write(&file, file_text).unwrap();
        // A database that cannot be opened: were the bad value missed, the start fails
        // (with another message) rather than serving for good.
        let db = format!("sqlite://{}/no-such-folder/rumis.db", dir.display());
        let out = Command::new(env!("CARGO_BIN_EXE_rumis"))
            .current_dir(&dir)
            .args([
                "serve",
                "--config",
                "rumis.toml",
                "--addr",
                "127.0.0.1:0",
                "--database-url",
                &db,
            ])
            .envs(env.iter().copied())
            .output()
            .expect("rumis runs");
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let e = serve(&format!("{example}\ndatabse-url = \"sqlite://x.db\"\n"), &[]);
    assert!(e.contains("rumis.toml: unknown key \"databse-url\""), "{e}");
    let e = serve("ws-per-game = -1\n", &[]);
    assert!(
        e.contains("ws-per-game = -1") && e.contains("invalid value '-1'"),
        "{e}"
    );
    let e = serve("", &[("RUMIS_MAX_CONNECTIONS", "many")]);
    assert!(e.contains("RUMIS_MAX_CONNECTIONS=many"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn levels_print_each_levels_plan() {
    let out = ok(&["levels", "--board", "coricancha", "--players", "4"]);
    assert!(out.starts_with("Coricancha, 4 players, standard"), "{out}");
    assert_eq!(out.matches("\nlevel ").count(), 9, "{out}");
    let nine = out.split("\nlevel 9\n").nth(1).unwrap();
    assert!(nine.contains("coricancha's own model"), "{nine}");
    assert!(nine.contains("modelled as greedy players"), "{nine}");
    let out = ok(&["levels", "--board", "chullpa", "--players", "2", "--level", "5"]);
    assert!(out.contains("400 simulations a move"), "{out}");
    assert_eq!(out.matches("\nlevel ").count(), 1, "{out}");
    let e = fails(rumis(&[
        "levels",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--level",
        "12",
    ]));
    assert!(e.contains("--level 12 is not a level"), "{e}");
}

#[test]
fn review_marks_moves_and_sums_up_each_colour() {
    let path = crate::scratch().join(format!("rumis-review-{}.txt", std::process::id()));
    let p = path.to_str().unwrap();
    ok(&[
        "selfplay",
        "--player",
        "level:1",
        "--board",
        "chullpa",
        "--players",
        "2",
        "--seed",
        "3",
        "--out",
        p,
    ]);
    let moves = ok(&["score", "--record", p]);
    assert!(moves.contains("winner"), "{moves}");
    let out = ok(&["review", "--record", p, "--simulations", "300"]);
    assert!(
        out.starts_with("Chullpa, 2 players, standard: every position searched by 300 simulations"),
        "{out}"
    );
    let rows: Vec<&str> = out.lines().skip(3).take_while(|l| !l.is_empty()).collect();
    assert!(rows.len() > 10, "{out}");
    assert!(out.contains("\nred ") && out.contains("\nyellow "), "{out}");
    // JSON: the same review, every move with its loss and mark by the thresholds printed.
    let json: serde_json::Value =
        serde_json::from_str(&ok(&["review", "--record", p, "--simulations", "300", "--json"])).unwrap();
    let reviewed = json["moves"].as_array().unwrap();
    assert_eq!(reviewed.len(), rows.len());
    assert_eq!(json["estimates"].as_array().unwrap().len(), rows.len() + 1);
    for m in reviewed {
        let loss = m["loss"].as_f64().unwrap();
        assert!(loss >= 0.0, "{m}");
        let t = |k: &str| json["thresholds"][k].as_f64().unwrap();
        let want = match loss {
            l if l >= t("blunder") => "blunder",
            l if l >= t("mistake") => "mistake",
            l if l >= t("inaccuracy") => "inaccuracy",
            _ => "",
        };
        assert_eq!(m["mark"].as_str().unwrap_or(""), want, "{m}");
    }
    // A level-1 player loses something over a game.
    assert!(reviewed.iter().any(|m| m["loss"].as_f64().unwrap() > 0.0));
    let e = fails(rumis(&["review", "--record", p, "--level", "0"]));
    assert!(e.contains("--level 0 is not a level"), "{e}");
}

/// Built without the server, `rumis serve` says so and how to get it.
#[cfg(not(feature = "server"))]
#[test]
fn without_the_server_serve_says_so() {
    let e = fails(rumis(&["serve", "--addr", "127.0.0.1:0"]));
    assert!(e.contains("built without the server"), "{e}");
}
