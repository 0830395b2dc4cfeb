//! Bad records are refused with the line, the move number and the reason; no input makes
//! the reader panic.

use crate::common;

use proptest::prelude::*;
use rumis_core::record::{self, read_game, Record};
use rumis_core::{Game, RecordError, Rng};

const HEAD: &str = "[Board \"Chullpa\"]\n[Players \"2\"]\n";

#[track_caller]
fn refused(text: &str) -> RecordError {
    match read_game(text) {
        Ok(g) => panic!("accepted: {text}\n{:?}", g.moves()),
        Err(e) => e,
    }
}

#[track_caller]
fn expect(text: &str, line: usize, move_number: Option<usize>, words: &[&str]) {
    let e = refused(text);
    assert_eq!((e.line, e.move_number), (line, move_number), "{e}\n{text}");
    for w in words {
        assert!(e.message.contains(w), "'{}' does not say '{w}'", e.message);
    }
    // The Display form names the line (and the move).
    let shown = e.to_string();
    assert!(shown.starts_with(&format!("line {line}")), "{shown}");
    if let Some(n) = move_number {
        assert!(shown.contains(&format!("move {n}")), "{shown}");
    }
}

#[test]
fn a_good_record_reads() {
    let g = read_game(&format!("{HEAD}\n1. D2@a1,b1 {{red}} 2. D2@c1,d1\n3. I3@a2,b2,c2\n")).unwrap();
    assert_eq!(g.moves().len(), 3);
    // Move numbers are optional, case and column order are free.
    let h = read_game(&format!("{HEAD}d2@B1,A1 D2@c1,d1 i3@c2,a2,b2")).unwrap();
    assert_eq!(h.position(), g.position());
}

#[test]
fn unknown_board() {
    expect(
        "[Event \"x\"]\n[Board \"Atlantis\"]\n[Players \"2\"]\n\n1. D2@a1,b1\n",
        2,
        None,
        &["unknown board 'Atlantis'", "chullpa"],
    );
}

#[test]
fn missing_tags() {
    expect("[Players \"2\"]\n\n1. D2@a1,b1\n", 1, None, &["no [Board"]);
    expect("[Board \"Chullpa\"]\n\n1. D2@a1,b1\n", 1, None, &["no [Players"]);
    expect("", 1, None, &["empty"]);
    expect("\n\n   \n{only a comment}\n", 1, None, &["empty"]);
}

#[test]
fn bad_players_tag() {
    expect(
        "[Board \"Chullpa\"]\n[Players \"5\"]\n",
        2,
        None,
        &["Players must be 2, 3 or 4", "'5'"],
    );
    expect("[Board \"Chullpa\"]\n[Players \"two\"]\n", 2, None, &["'two'"]);
    expect("[Board \"Chullpa\"]\n[Players \"\"]\n", 2, None, &["Players"]);
    // Valid count, impossible with the variant.
    expect(
        "[Board \"Chullpa\"]\n[Players \"3\"]\n[Variant \"two-player-four-colors\"]\n",
        2,
        None,
        &["2 players, not 3"],
    );
    expect(
        "[Board \"Chullpa\"]\n[Players \"4\"]\n[Variant \"ruinas\"]\n[Setup \"D2@a1,b1\"]\n",
        2,
        None,
        &["Ruinas"],
    );
}

#[test]
fn bad_variant_colours_setup() {
    expect(
        &format!("{HEAD}[Variant \"chess\"]\n"),
        3,
        None,
        &["unknown variant 'chess'"],
    );
    expect(&format!("{HEAD}[Colors \"R P\"]\n"), 3, None, &["'P' is not a colour"]);
    expect(&format!("{HEAD}[Colors \"R R\"]\n"), 2, None, &["listed twice"]);
    expect(&format!("{HEAD}[Colors \"R Y G\"]\n"), 2, None, &["2 colours"]);
    expect(
        &format!("{HEAD}[Setup \"D2@a1,b1\"]\n"),
        3,
        None,
        &["only to a Ruinas game"],
    );
    expect(
        &format!("{HEAD}[Variant \"ruinas\"]\n\nD2@a1,b1\n"),
        1,
        None,
        &["needs a [Setup"],
    );
    expect(
        &format!("{HEAD}[Variant \"ruinas\"]\n[Setup \"D2@a1,b1 I3@a1x3 V3@q9,a1\"]\n"),
        4,
        None,
        &["ruin 3 'V3@q9,a1'", "'q9' is not a cell"],
    );
    expect(
        &format!("{HEAD}[Variant \"ruinas\"]\n[Setup \"D2@a1x2 I3@a1,b1,c1\"]\n"),
        4,
        None,
        &["ruin 2", "empty space"],
    );
}

#[test]
fn an_illegal_move_is_named_with_its_number_and_line() {
    // Move 4 (line 6), yellow's, does not touch yellow.
    let text = format!("{HEAD}\n1. D2@a1,b1 2. D2@c1,d1\n3. I3@a2,b2,c2\n4. V3@e3,e4,d4\n");
    expect(&text, 6, Some(4), &["'V3@e3,e4,d4'", "must touch a yellow cube"]);
    // The second colour's first stone floating on red.
    expect(
        &format!("{HEAD}1. O4@a1,a2,b1,b2\n2. O4@a1,a2,b1,b2\n"),
        4,
        Some(2),
        &["rest on the board"],
    );
    // A gap.
    expect(
        &format!("{HEAD}1. D2@a1x2 2. D2@b1,c1 3. I3@a1,b1,c1\n"),
        3,
        Some(3),
        &["empty space under it at b1"],
    );
    // A stone used twice.
    expect(
        &format!("{HEAD}1. D2@a1,b1 2. D2@c1,d1 3. D2@a2,b2\n"),
        3,
        Some(3),
        &["red has already placed D2"],
    );
    // Too high (Hmax 4 for 2 players on Chullpa).
    expect(
        &format!("{HEAD}1. I4@a1x4 2. D2@b1,c1 3. D2@a1x2\n"),
        3,
        Some(3),
        &["'D2@a1x2'", "height limit"],
    );
}

#[test]
fn an_unparsable_move_is_named() {
    expect(&format!("{HEAD}\n1. Z9@a1,b1\n"), 4, Some(1), &["'Z9' is not a stone"]);
    expect(
        &format!("{HEAD}\n1. D2@a1,b1 2. D2c1d1\n"),
        4,
        Some(2),
        &["not a placement"],
    );
    expect(
        &format!("{HEAD}\n1. D2@a1,f1\n"),
        4,
        Some(1),
        &["'f1' is not a cell of Chullpa"],
    );
    expect(
        &format!("{HEAD}\n1. D2@a1\n"),
        4,
        Some(1),
        &["D2 has 2 cubes", "places 1"],
    );
    expect(&format!("{HEAD}\n1. D2@a1,a1\n"), 4, Some(1), &["names a1 twice"]);
    expect(&format!("{HEAD}\n1. D2@a1x9\n"), 4, Some(1), &["must be 1 to 4"]);
    expect(&format!("{HEAD}\n1. D2@a1,,b1\n"), 4, Some(1), &["empty column"]);
    expect(
        &format!("{HEAD}\n1. L4@a1,b2,c3,d4\n"),
        4,
        Some(1),
        &["L4 cannot cover"],
    );
}

#[test]
fn truncated_records() {
    // An unclosed comment: named at the line where it opens.
    expect(
        &format!("{HEAD}\n1. D2@a1,b1\n{{ a comment that\ngoes on\n"),
        5,
        None,
        &["never closed"],
    );
    // Half a tag line.
    expect("[Board \"Chullpa\"]\n[Players \"2", 2, None, &["not a tag pair"]);
    expect("[Board \"Chul", 1, None, &["not a tag pair"]);
    // A Result, but the moves stop before the end.
    expect(
        "[Board \"Chullpa\"]\n[Players \"2\"]\n[Result \"R 1, Y 1\"]\n\n1. D2@a1,b1\n",
        3,
        None,
        &["do not reach the end"],
    );
    // A closing brace with no comment.
    expect(&format!("{HEAD}\n1. D2@a1,b1 }}\n"), 4, None, &["never opened"]);
}

/// A finished random game on Chullpa, written.
fn finished_record() -> String {
    let site = common::site(common::builtin("chullpa"), 2, rumis_core::Variant::Standard);
    let mut g = Game::new(site);
    g.play_random(&mut Rng::new(42));
    record::write(&g)
}

#[test]
fn result_tag_must_match_and_moves_must_stop_at_the_end() {
    let good = finished_record();
    let g = read_game(&good).unwrap();
    assert!(g.is_over());
    let result_line = good.lines().position(|l| l.starts_with("[Result")).unwrap() + 1;
    // A wrong result.
    let wrong = good
        .lines()
        .map(|l| {
            if l.starts_with("[Result") {
                "[Result \"R 99, Y -3\"]".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    expect(&wrong, result_line, None, &["R 99, Y -3", "the moves give"]);
    // A move after the end.
    let n = g.moves().len();
    let extra = format!("{good}\n{}. D2@a1,b1\n", n + 1);
    let last_line = extra.lines().count();
    expect(&extra, last_line, Some(n + 1), &["after the end of the game"]);
    // A repeated tag.
    expect(&format!("{HEAD}[Board \"Pirka\"]\n"), 3, None, &["given twice"]);
}

/// A record's moves alone, played on a game set up apart (as a server sets up a game from a
/// position): the same game as reading the whole record, leavings and their reasons too;
/// the first move refused is named with its number, and the moves before it stand.
#[test]
fn the_moves_alone_play_on_a_game_set_up_apart() {
    let site = common::site(common::builtin("chullpa"), 3, rumis_core::Variant::Standard);
    let mut whole = Game::new(site.clone());
    let mut rng = Rng::new(7);
    for _ in 0..4 {
        let m = whole.legal_moves()[rng.below(whole.legal_moves().len())];
        whole.play(m).unwrap();
    }
    whole.retire(rumis_core::Colour::Green, Some("resigned")).unwrap();
    for _ in 0..3 {
        let m = whole.legal_moves()[0];
        whole.play(m).unwrap();
    }
    let text = record::write(&whole);
    let moves = text.split("\n\n").nth(1).unwrap();
    assert!(moves.contains("G:out {resigned}"), "{moves}");
    let mut g = Game::new(site.clone());
    Record::parse(moves).unwrap().play_moves(&mut g).unwrap();
    assert_eq!(record::write(&g), text);
    assert_eq!(g.retirements(), whole.retirements());
    // Move 6 refused: the five before it are played, no more.
    let notation: Vec<String> = whole.moves().iter().map(|&m| whole.notation(m)).collect();
    let bad = format!("{} Z9@a1,b1 {}", notation[..5].join(" "), notation[5]);
    let mut g = Game::new(site);
    let e = Record::parse(&bad).unwrap().play_moves(&mut g).unwrap_err();
    assert_eq!((e.line, e.move_number), (1, Some(6)), "{e}");
    assert!(e.message.contains("'Z9' is not a stone"), "{e}");
    assert_eq!(g.moves().len(), 5);
}

#[test]
fn two_records_in_one_text() {
    let one = format!("{HEAD}\n1. D2@a1,b1\n");
    let two = format!("{one}\n[Board \"Pirka\"]\n[Players \"3\"]\n1. D2@a1,b1\n");
    let all = Record::parse_all(&two).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[1].tag("Board"), Some("Pirka"));
    assert_eq!(all[1].moves, vec![("D2@a1,b1".to_string(), 8)]);
    let e = Record::parse(&two).unwrap_err();
    assert_eq!(e.line, 6);
    assert!(e.message.contains("2 records"), "{e}");
}

// --- Never a panic ------------------------------------------------------------------------

fn valid_records() -> Vec<String> {
    let mut out = Vec::new();
    for (i, (_, site, ruin_seed)) in common::configurations().iter().enumerate().step_by(5) {
        if rumis_core::Board::builtin(&site.board().name).is_none() {
            continue;
        }
        let mut g = common::new_game(site, *ruin_seed);
        g.play_random(&mut Rng::new(i as u64));
        out.push(record::write(&g));
    }
    out
}

const ALPHABET: &[u8] = b"[]{}\"@,.x0123456789abcdefghRYGBDIVLOTSAX \n\t\r";

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Record::parse_all(&text);
        let _ = read_game(&text);
    }

    #[test]
    fn random_record_like_text_never_panics(
        picks in proptest::collection::vec(0..ALPHABET.len(), 0..200),
        head in any::<bool>(),
    ) {
        let body: String = picks.iter().map(|&i| ALPHABET[i] as char).collect();
        let text = if head { format!("{HEAD}{body}") } else { body };
        let _ = Record::parse_all(&text);
        let _ = read_game(&text);
    }

    #[test]
    fn mutated_records_never_panic(
        which in any::<usize>(),
        edits in proptest::collection::vec((0u8..5, any::<usize>(), any::<u8>(), 0..ALPHABET.len()), 1..6),
    ) {
        let records = valid_records_cached();
        let mut text: Vec<u8> = records[which % records.len()].clone().into_bytes();
        for (kind, at, byte, pick) in edits {
            let at = if text.is_empty() { 0 } else { at % text.len() };
            match kind {
                0 if !text.is_empty() => { text.remove(at); }
                1 => text.insert(at, ALPHABET[pick]),
                2 => text.insert(at, byte),
                3 => text.truncate(at),
                _ if !text.is_empty() => {
                    let end = (at + 1 + byte as usize % 12).min(text.len());
                    let chunk: Vec<u8> = text[at..end].to_vec();
                    let to = pick % text.len().max(1);
                    for (k, b) in chunk.into_iter().enumerate() {
                        text.insert(to + k, b);
                    }
                }
                _ => {}
            }
        }
        let text = String::from_utf8_lossy(&text);
        let _ = Record::parse_all(&text);
        if let Ok(g) = read_game(&text) {
            // Whatever reads must write and read back to the same game.
            let back = read_game(&record::write(&g)).unwrap();
            prop_assert_eq!(back.position(), g.position());
        }
    }
}

fn valid_records_cached() -> &'static [String] {
    static RECORDS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    RECORDS.get_or_init(valid_records)
}

#[test]
fn a_cube_count_is_one_digit() {
    for bad in ["D2@a1x+2", "D2@a1x02", "D2@a1x", "D2@a1x2x", "D2@a1x 2"] {
        let e = refused(&format!("{HEAD}\n1. {bad}\n"));
        assert_eq!(e.move_number, Some(1), "{bad}: {e}");
    }
    let site = common::site(common::builtin("chullpa"), 2, rumis_core::Variant::Standard);
    let pos = rumis_core::Position::new(&site);
    for bad in ["D2@a1x+2", "D2@a1x02", "D2@a1x", "D2@a1x 2"] {
        let e = rumis_core::notation::parse_move(&site, &pos, bad).unwrap_err();
        assert!(matches!(e, rumis_core::MoveError::Syntax(_)), "{bad}: {e:?}");
    }
    assert!(rumis_core::notation::parse_move(&site, &pos, "D2@a1X2").is_ok());
}

/// A board of one's own: two 2 x 3 halves with a printed height, a frame for 2 players.
const OWN_BOARD: &str = "name = \"Hof\"\nprovenance = \"reconstruction\"\nsource = \"drawn by \\\"us\\\"\"\n\
                         hmax = { 2 = 3, 3 = 3, 4 = 4 }\nframes = { 2 = \"a1:c3\" }\ngrid = \"\"\"\n###.#\n#2##3\n#####\n\"\"\"\n";

#[test]
fn a_record_carries_its_own_board_and_replays_without_the_file() {
    use std::sync::Arc;
    let board = rumis_core::Board::from_toml("hof.toml", OWN_BOARD).unwrap();
    for players in [2, 3] {
        let site = rumis_core::Site::new(board.clone(), players, rumis_core::Variant::Standard, None).unwrap();
        let mut game = Game::new(Arc::new(site));
        game.play_random(&mut Rng::new(7 + players as u64));
        let text = record::write(&game);
        let tag_lines: Vec<&str> = text.lines().filter(|l| l.starts_with("[BoardFile ")).collect();
        assert_eq!(tag_lines.len(), 1, "{text}");
        // No built-in board is called Hof: the record alone is enough.
        let back = read_game(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.site().board(), &board);
        assert_eq!(back.moves(), game.moves());
        assert_eq!(back.outcome().scores, game.outcome().scores);
        assert_eq!(record::write(&back), text);
    }
    // A game on a scenario has no BoardFile tag: its records read as before.
    let chullpa = read_game(&format!("{HEAD}\n1. D2@a1,b1\n")).unwrap();
    assert!(!record::write(&chullpa).contains("BoardFile"));
}

#[test]
fn a_bad_board_file_tag_is_refused_with_its_line() {
    let line = rumis_core::record::escape_line(OWN_BOARD);
    let good = format!("[Board \"Hof\"]\n[BoardFile \"{line}\"]\n[Players \"2\"]\n\n1. D2@a1,b1\n");
    assert_eq!(read_game(&good).unwrap().moves().len(), 1);
    // Not the board the Board tag names.
    expect(
        &good.replace("[Board \"Hof\"]", "[Board \"Chullpa\"]"),
        2,
        None,
        &["BoardFile tag describes board 'Hof'", "Board tag says 'Chullpa'"],
    );
    // An escape the writer never makes.
    expect(
        &good.replace("\\n", "\\q"),
        2,
        None,
        &["BoardFile tag cannot be read", "'\\q' is not an escape"],
    );
    // A board the core refuses: the board file's own message and line.
    let ragged = rumis_core::record::escape_line(&OWN_BOARD.replace("#2##3", "#2#3"));
    expect(
        &format!("[Board \"Hof\"]\n[BoardFile \"{ragged}\"]\n[Players \"2\"]\n"),
        2,
        None,
        &["board in the BoardFile tag is refused", "BoardFile:8:", "ragged rows"],
    );
    // A bare quote still ends a tag value: the line is no tag pair.
    expect(
        "[Board \"Hof\"]\n[BoardFile \"name = \"Hof\"\"]\n[Players \"2\"]\n",
        2,
        None,
        &["is not a tag pair"],
    );
}
