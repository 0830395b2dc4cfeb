//! Every code path of the fast generator against the plain per-template check, at every
//! position of random games: every built-in board, 2/3/4 players and every variant, a
//! 128-column box, a board with frames and printed heights, and heights up to 15.

use std::sync::Arc;

use rumis_core::{perft, perft_with, Board, CodePath, Game, Move, MoveSet, Position, Rng, Site, Variant};

/// The legal placements by checking every template id.
fn reference(site: &Site, pos: &Position) -> Vec<Move> {
    site.moves().filter(|&m| pos.check(site, m).is_ok()).collect()
}

/// Plays `games` random games from `start`, comparing every available path at every
/// position; also checks `play_generate` against `play_unchecked` + a fresh generation.
fn compare_games(label: &str, start: &Game, games: usize, seed: u64) -> usize {
    let site = start.site();
    let tables = site.gen_tables();
    let paths = CodePath::available();
    let mut rng = Rng::new(seed);
    let mut positions = 0;
    let mut set = MoveSet::new();
    for g in 0..games {
        let mut pos = start.position().clone();
        loop {
            let want = reference(site, &pos);
            for &path in &paths {
                let n = pos.legal_set_with(site, path, &mut set).expect("available");
                let mut got = Vec::new();
                set.to_moves(tables, &mut got);
                assert_eq!(n, got.len(), "{label} game {g} ply {}: {path} count", pos.plies());
                assert_eq!(
                    got,
                    want,
                    "{label} game {g} ply {}: {path} differs from the reference",
                    pos.plies()
                );
                assert_eq!(set.iter(tables).count(), n);
                for (i, m) in set.iter(tables).enumerate() {
                    assert_eq!(set.nth(tables, i), Some(m), "{label}: nth({i}) on {path}");
                }
                assert_eq!(set.nth(tables, n), None);
                for &m in &want {
                    assert!(set.contains(tables, m));
                }
            }
            let mut moves = Vec::new();
            pos.legal_moves(site, &mut moves);
            assert_eq!(moves, want, "{label}: legal_moves");
            assert_eq!(pos.count_moves(site), want.len() as u64);
            if let Some(c) = pos.to_move(site) {
                assert!(pos.has_move(site, c), "{label}: the colour to move has a placement");
            }
            positions += 1;
            if pos.is_over() {
                break;
            }
            let m = want[rng.below(want.len())];
            let mut plain = pos.clone();
            plain.play_unchecked(site, m);
            for &path in &paths {
                let mut fast = pos.clone();
                let n = fast
                    .play_generate_with(site, m, path, &mut set)
                    .expect("an available path");
                assert_eq!(fast, plain, "{label}: play_generate on {path} reaches another position");
                assert_eq!(
                    n,
                    plain.count_moves(site) as usize,
                    "{label}: play_generate count on {path}"
                );
            }
            pos = plain;
        }
    }
    positions
}

fn site(board: Board, players: usize, variant: Variant) -> Arc<Site> {
    Arc::new(Site::new(board, players, variant, None).unwrap())
}

#[test]
fn every_builtin_board_player_count_and_variant() {
    let mut positions = 0;
    for (b, board) in Board::builtins().iter().enumerate() {
        for players in 2..=4 {
            let s = site(board.clone(), players, Variant::Standard);
            let label = format!("{} {players}p", board.name);
            positions += compare_games(&label, &Game::new(s), 4, (b * 10 + players) as u64);
        }
        let s = site(board.clone(), 2, Variant::TwoPlayerFourColors);
        positions += compare_games(&format!("{} 2p4c", board.name), &Game::new(s), 4, 100 + b as u64);
        for players in 2..=3 {
            let s = site(board.clone(), players, Variant::Ruinas);
            for r in 0..3 {
                let g = Game::with_random_ruins(s.clone(), r);
                let label = format!("{} ruinas {players}p ruins {r}", board.name);
                positions += compare_games(&label, &g, 2, 200 + r + b as u64);
            }
        }
    }
    assert!(positions > 1000, "{positions}");
}

#[test]
fn a_128_column_box() {
    let s = site(Board::open_box(16, 8, 4).unwrap(), 4, Variant::Standard);
    assert_eq!(s.columns(), 128);
    compare_games("16x8x4 4p", &Game::new(s), 4, 7);
    let s = site(Board::open_box(16, 8, 4).unwrap(), 3, Variant::Ruinas);
    compare_games("16x8x4 ruinas", &Game::with_random_ruins(s, 3), 2, 8);
}

#[test]
fn boxes_of_17_to_32_columns() {
    // Two windows of 16 columns by rank (4 x 5, 3 x 6), by file (5 x 4, like Chullpa), none
    // (6 x 4, 4 x 6, 4 x 8: the AVX2 path's two telescoped sub-tables), and with heights up
    // to 15.
    for (f, r, cap, windows) in [
        (4, 5, 4, true),
        (3, 6, 4, true),
        (5, 4, 4, true),
        (6, 4, 4, false),
        (4, 6, 4, false),
        (4, 8, 4, false),
        (5, 4, 15, true),
    ] {
        let s = site(Board::open_box(f, r, cap).unwrap(), 4, Variant::Standard);
        assert_eq!(s.gen_tables().has_windows(), windows, "{f}x{r}");
        compare_games(&format!("{f}x{r}x{cap}"), &Game::new(s), 3, (f * r) as u64);
    }
    let chullpa = site(Board::builtin("chullpa").unwrap().clone(), 4, Variant::Standard);
    assert!(chullpa.gen_tables().has_windows());
}

#[test]
fn heights_up_to_fifteen() {
    for (f, r) in [(2, 2), (3, 3), (8, 8), (16, 8)] {
        let s = site(Board::open_box(f, r, 15).unwrap(), 2, Variant::Standard);
        compare_games(&format!("{f}x{r}x15"), &Game::new(s), 3, f as u64);
    }
}

#[test]
fn frames_and_printed_heights() {
    // 11 x 11 = 121 columns, holes, printed heights from 1 to 9 (and Hmax 15), frames for 2 and 3
    // players.
    let mut rows = Vec::new();
    for y in 0..11 {
        let row: String = (0..11)
            .map(|x| match (x * 7 + y * 3) % 17 {
                0 => '.',
                1 | 2 => '#',
                v => char::from_digit(((v + x + y) % 9 + 1) as u32, 10).unwrap_or('#'),
            })
            .collect();
        rows.push(row);
    }
    let text = format!(
        "name = \"Test\"\nprovenance = \"reconstruction\"\nsource = \"A test board.\"\n\
         hmax = {{ 2 = 6, 3 = 9, 4 = 15 }}\nframes = {{ 2 = \"b2:i9\", 3 = \"a1:j10\" }}\ngrid = \"\"\"\n{}\n\"\"\"\n",
        rows.join("\n")
    );
    let board = Board::from_toml("<test>", &text).unwrap();
    for players in 2..=4 {
        let s = site(board.clone(), players, Variant::Standard);
        compare_games(&format!("test board {players}p"), &Game::new(s), 3, players as u64);
    }
    let s = site(board.clone(), 2, Variant::Ruinas);
    compare_games("test board ruinas", &Game::with_random_ruins(s, 1), 2, 9);
    let s = site(board, 2, Variant::TwoPlayerFourColors);
    compare_games("test board 2p4c", &Game::new(s), 2, 10);
}

#[test]
fn perft_is_the_same_on_every_path() {
    for board in Board::builtins() {
        let s = site(board.clone(), 4, Variant::Standard);
        let p = Position::new(&s);
        let want = perft(&s, &p, 2);
        for path in CodePath::available() {
            assert_eq!(perft_with(&s, &p, 2, path), Ok(want), "{} {path}", board.name);
        }
    }
}

/// A path this CPU cannot run is refused, not run: the one public way to play on a chosen
/// path checks it (running AVX-512 code on a CPU without it is undefined behaviour).
#[test]
fn play_generate_with_refuses_a_path_this_cpu_lacks() {
    let board = Board::builtin("chullpa").unwrap().clone();
    let site = Site::new(board, 4, Variant::Standard, None).unwrap();
    let start = Position::new(&site);
    let mut moves = Vec::new();
    start.legal_moves(&site, &mut moves);
    let mut set = MoveSet::new();
    for path in CodePath::ALL {
        let mut pos = start.clone();
        let n = pos.play_generate_with(&site, moves[0], path, &mut set);
        assert_eq!(n.is_ok(), path.is_available(), "{path}");
        if let Err(e) = n {
            assert_eq!(e.path, path);
            assert_eq!(pos, start, "{path}: nothing played on a refused path");
        }
    }
}
