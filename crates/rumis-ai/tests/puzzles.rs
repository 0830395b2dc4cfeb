//! Every shipped puzzle (`puzzles/` at the repository root) verified again from nothing:
//! the exact ones by the endgame solver, the searched ones by their stored margins and a
//! fresh search (`rumis_ai::puzzles::verify`); and the files cover every scenario and
//! player count.

use std::collections::HashSet;
use std::path::PathBuf;

use rumis_ai::puzzles::{self, Proof, PuzzleSet};
use rumis_core::Board;

fn files() -> Vec<(PathBuf, PuzzleSet)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../puzzles");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the puzzles directory")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let set = PuzzleSet::from_json(&std::fs::read_to_string(&p).unwrap()).unwrap();
            (p, set)
        })
        .collect()
}

/// Every puzzle of every file, exact and searched (the shipped files hold exact ones
/// only; docs/puzzles.md gives this test's time).
#[test]
fn every_shipped_puzzle_verifies() {
    let mut failed = Vec::new();
    let (mut exact, mut searched) = (0, 0);
    for (path, set) in files() {
        let site = set.site().unwrap();
        for p in &set.puzzles {
            match p.proof {
                Proof::Exact { .. } => exact += 1,
                Proof::Searched { .. } => searched += 1,
            }
            if let Err(e) = puzzles::verify(&site, p) {
                failed.push(format!("{}: {e}", path.display()));
            }
        }
    }
    assert!(failed.is_empty(), "{} refused:\n{}", failed.len(), failed.join("\n"));
    eprintln!("verified {exact} exact and {searched} searched puzzles");
}

/// Every scenario and player count has its file, named for it; ids are unique; every
/// puzzle starts at Glicko-2's rating; at least 1 000 ship.
#[test]
fn the_files_cover_every_scenario_and_player_count() {
    let sets = files();
    let mut ids = HashSet::new();
    let mut total = 0;
    for board in Board::builtins() {
        for players in 2..=4 {
            let name = PuzzleSet::file_name(&board.name, players);
            let (_, set) = sets
                .iter()
                .find(|(p, _)| p.file_name().is_some_and(|f| f == name.as_str()))
                .unwrap_or_else(|| panic!("no {name}"));
            assert_eq!((set.board.as_str(), set.players), (board.name.as_str(), players));
            assert!(!set.puzzles.is_empty(), "{name} is empty");
            for p in &set.puzzles {
                assert!(ids.insert(p.id.clone()), "{} twice", p.id);
                assert_eq!((p.rating, p.deviation), (puzzles::RATING, puzzles::DEVIATION));
                assert!(!p.themes.is_empty());
            }
            total += set.puzzles.len();
        }
    }
    assert!(total >= 1_000, "{total} puzzles");
}
