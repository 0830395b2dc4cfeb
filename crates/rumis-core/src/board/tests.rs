use super::*;
use crate::Constraint;

fn bad(text: &str) -> BoardError {
    Board::from_toml("my.toml", text).unwrap_err()
}

const GOOD: &str =
    "name = \"T\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 3, 4 = 4 }\ngrid = \"\"\"\n##\n#3\n\"\"\"\n";

#[test]
fn layouts_apply_frames_and_printed_heights() {
    let b = Board::from_toml("t.toml", GOOD).unwrap();
    assert_eq!(
        b.layout(2),
        vec![(0, 0, None, 2), (1, 0, Some(3), 2), (0, 1, None, 2), (1, 1, None, 2)]
    );
    assert_eq!(b.layout(4)[1], (1, 0, Some(3), 3));
    let pisac = Board::builtin("pisac").unwrap();
    for players in 2..=4 {
        let l = pisac.layout(players);
        assert_eq!(l.len(), pisac.column_count(players));
        assert_eq!(l.iter().map(|c| c.3 as usize).sum::<usize>(), pisac.volume(players));
    }
    assert!(pisac.layout(2).iter().all(|c| c.0 < 4), "the 2-player frame");
}

#[test]
fn reads_a_good_file() {
    let b = Board::from_toml("t.toml", GOOD).unwrap();
    assert_eq!((b.files, b.ranks), (2, 2));
    // Back rank first: the '3' is at b1.
    assert_eq!(b.cell(1, 0), Some(3));
    assert_eq!(b.limit(1, 0, 2), 2);
    assert_eq!(b.limit(1, 0, 4), 3);
    assert_eq!(b.limit(0, 1, 4), 4);
}

#[test]
fn the_six_scenarios_load() {
    let names: Vec<&str> = Board::builtins().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["Chullpa", "Pirka", "Tambo", "Pisac", "Coricancha", "Cucho"]);
    assert!(Board::builtin("chullpa").is_some());
    assert!(Board::builtin("CORICANCHA").is_some());
    let c = Board::builtin("Chullpa").unwrap();
    assert_eq!(c.hmax, [4, 6, 8]);
    assert_eq!(c.volume(2), 80);
}

#[test]
fn ragged_rows_are_named_with_their_line() {
    let e = bad("name = \"T\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 3, 4 = 4 }\ngrid = \"\"\"\n##\n###\n\"\"\"\n");
    assert_eq!(e.line, 6, "{e}");
    assert!(e.message.contains("ragged"), "{e}");
    assert!(e.to_string().starts_with("my.toml:6:"));
}

#[test]
fn unknown_character() {
    let e = bad("name = \"T\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 3, 4 = 4 }\ngrid = \"\"\"\n#x\n##\n\"\"\"\n");
    assert_eq!(e.line, 5);
    assert!(e.message.contains("unknown character 'x'"), "{e}");
}

#[test]
fn missing_hmax() {
    let e = bad("name = \"T\"\nprovenance = \"reconstruction\"\ngrid = \"\"\"\n##\n\"\"\"\n");
    assert!(e.message.contains("hmax"), "{e}");
    let e = bad("name = \"T\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 4 = 4 }\ngrid = \"\"\"\n##\n\"\"\"\n");
    assert!(e.message.contains("hmax for 3 players is missing"), "{e}");
    assert_eq!(e.line, 3);
}

#[test]
fn empty_footprint() {
    let e = bad("name = \"T\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 3, 4 = 4 }\ngrid = \"\"\"\n..\n..\n\"\"\"\n");
    assert!(e.message.contains("footprint is empty"), "{e}");
}

#[test]
fn frame_outside_the_grid() {
    let e = bad("name = \"T\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 3, 4 = 4 }\nframes = { 2 = \"a1:c2\" }\ngrid = \"\"\"\n##\n##\n\"\"\"\n");
    assert!(e.message.contains("outside"), "{e}");
    assert_eq!(e.line, 4);
}

#[test]
fn grid_too_wide() {
    let row = "#".repeat(27);
    let e = bad(&format!("name = \"T\"\nprovenance = \"reconstruction\"\nhmax = {{ 2 = 2, 3 = 3, 4 = 4 }}\ngrid = \"\"\"\n{row}\n\"\"\"\n"));
    assert!(e.message.contains("at most 26"), "{e}");
    let row = "#".repeat(12);
    let rows = [row.as_str(); 11].join("\n");
    let e = bad(&format!("name = \"T\"\nprovenance = \"reconstruction\"\nhmax = {{ 2 = 2, 3 = 3, 4 = 4 }}\ngrid = \"\"\"\n{rows}\n\"\"\"\n"));
    assert!(e.message.contains("at most 128"), "{e}");
}

#[test]
fn broken_toml_and_unknown_keys() {
    let e = bad("name = \"T\nprovenance = 1\n");
    assert_eq!(e.line, 1, "{e}");
    let e = bad(&format!("{GOOD}colour = 3\n"));
    assert!(e.message.contains("colour"), "{e}");
    let e = bad("name = \"T\"\nprovenance = \"guess\"\nhmax = { 2 = 2, 3 = 3, 4 = 4 }\ngrid = \"\"\"\n##\n\"\"\"\n");
    assert!(e.message.contains("provenance"), "{e}");
    assert_eq!(e.line, 2);
    let e = bad(
        "name = \"T\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 3, 4 = 40 }\ngrid = \"\"\"\n##\n\"\"\"\n",
    );
    assert!(e.message.contains("1 to 15"), "{e}");
}

#[test]
fn evidence_is_read_and_checked() {
    let b = Board::from_toml(
        "t.toml",
        &format!("{GOOD}\n[[evidence]]\nfact = \"Four cells.\"\nsource = \"here\"\nmin_cells = {{ 2 = 4 }}\nhmax = {{ 4 = 4 }}\nreaches_level = {{ 4 = 3 }}\nframes_for = []\n"),
    )
    .unwrap();
    assert_eq!(b.evidence.len(), 1);
    assert_eq!(b.evidence[0].constraints.len(), 4);
    // A board that contradicts its own evidence is refused, at the evidence's line.
    let e = bad(&format!(
        "{GOOD}\n[[evidence]]\nfact = \"Five cells.\"\nsource = \"here\"\nmin_cells = {{ 2 = 5 }}\n"
    ));
    assert_eq!(e.line, 10, "{e}");
    assert!(
        e.message
            .contains("at least 5 cells for 2 players, but the footprint for 2 players has 4 cells"),
        "{e}"
    );
    let e = bad(&format!(
        "{GOOD}\n[[evidence]]\nfact = \"High.\"\nsource = \"\"\nreaches_level = {{ 3 = 4 }}\n"
    ));
    assert!(e.message.contains("the highest limit for 3 players is 3"), "{e}");
    let e = bad(&format!(
        "{GOOD}\n[[evidence]]\nfact = \"Framed.\"\nsource = \"\"\nframes_for = [2]\n"
    ));
    assert!(
        e.message
            .contains("a red frame for 2 players only, but the board has no frame"),
        "{e}"
    );
    let e = bad(&format!(
        "{GOOD}\n[[evidence]]\nfact = \"Hmax.\"\nsource = \"\"\nhmax = {{ 2 = 3 }}\n"
    ));
    assert!(e.message.contains("Hmax for 2 players is 2"), "{e}");
    // Malformed evidence: a key that is no player count, an unknown field, no fact.
    let e = bad(&format!(
        "{GOOD}\n[[evidence]]\nfact = \"x\"\nsource = \"\"\nmin_cells = {{ 5 = 1 }}\n"
    ));
    assert!(e.message.contains("not a player count"), "{e}");
    let e = bad(&format!(
        "{GOOD}\n[[evidence]]\nfact = \"x\"\nsource = \"\"\ncells = 3\n"
    ));
    assert!(e.message.contains("cells"), "{e}");
    let e = bad(&format!("{GOOD}\n[[evidence]]\nfact = \" \"\nsource = \"\"\n"));
    assert!(e.message.contains("empty fact"), "{e}");
    let e = bad(&format!(
        "{GOOD}\n[[evidence]]\nfact = \"x\"\nsource = \"\"\nframes_for = [1]\n"
    ));
    assert!(e.message.contains("not a player count"), "{e}");
}

#[test]
fn the_scenarios_carry_their_evidence() {
    for b in Board::builtins() {
        for e in &b.evidence {
            for c in &e.constraints {
                assert_eq!(c.check(b), Ok(()), "{}: {}", b.name, e.fact);
            }
        }
    }
    let cori = Board::builtin("coricancha").unwrap();
    assert!(cori
        .evidence
        .iter()
        .flat_map(|e| &e.constraints)
        .any(|c| *c == Constraint::MinCells { players: 3, cells: 62 }));
    // A 3-player frame of a1:g8 (56 cells) for Coricancha contradicts the reported
    // 3-player game: such a file is refused.
    let old = Board::builtin_file("coricancha").unwrap().replace(
        "frames = { 2 = \"a1:e8\" }",
        "frames = { 2 = \"a1:e8\", 3 = \"a1:g8\" }",
    );
    assert_ne!(old, Board::builtin_file("coricancha").unwrap());
    let e = Board::from_toml("coricancha.toml", &old).unwrap_err();
    assert!(
        e.message
            .contains("a red frame for 2 players only, but the board has frames for 2 and 3 players"),
        "{e}"
    );
    // And without the rulebook's frame fact, the reported game alone refuses it.
    let e = Board::from_toml("coricancha.toml", &old.replace("frames_for = [2]\n", "")).unwrap_err();
    assert!(
        e.message
            .contains("at least 62 cells for 3 players, but the footprint for 3 players has 56 cells"),
        "{e}"
    );
}

#[test]
fn cell_names() {
    assert_eq!(parse_cell("a1"), Some((0, 0)));
    assert_eq!(parse_cell("C12"), Some((2, 11)));
    assert_eq!(parse_cell("a0"), None);
    assert_eq!(parse_cell("1a"), None);
    assert_eq!(parse_cell("a"), None);
    assert_eq!(cell_name(4, 3), "e4");
}
