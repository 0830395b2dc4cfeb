//! Perft figures: rules §8's, and the project's own for every scenario.

use rumis_core::{perft, Board, Position, Site, Variant};

fn site(board: Board, players: usize) -> Site {
    Site::new(board, players, Variant::Standard, None).unwrap()
}

fn run(site: &Site, depth: u32) -> u64 {
    perft(site, &Position::new(site), depth)
}

#[test]
fn rules_chullpa_four_players() {
    let s = site(Board::builtin("chullpa").unwrap().clone(), 4);
    assert_eq!(run(&s, 1), 687);
    assert_eq!(run(&s, 2), 165_662);
}

#[test]
fn rules_five_by_five_box_cap_four() {
    let s = site(Board::open_box(5, 5, 4).unwrap(), 4);
    assert_eq!(run(&s, 1), 919);
    assert_eq!(run(&s, 2), 266_872);
}

#[test]
fn chullpa_depth_three() {
    let s = site(Board::builtin("chullpa").unwrap().clone(), 4);
    assert_eq!(run(&s, 3), 39_583_340);
}
