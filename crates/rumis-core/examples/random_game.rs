//! A random game through the public API only: set up a site, play uniformly random legal
//! placements to the end, print the game's record and the outcome.
//!
//! ```text
//! cargo run -p rumis-core --example random_game [BOARD] [PLAYERS] [SEED]
//! ```

use std::sync::Arc;

use rumis_core::{record, Game, Rng, Site, Variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let board_name = args.first().map_or("chullpa", String::as_str);
    let players: usize = args.get(1).and_then(|p| p.parse().ok()).unwrap_or(2);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);

    let board = match record::builtin_board(board_name) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let site = match Site::new(board, players, Variant::Standard, None) {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let mut game = Game::new(site);
    let mut rng = Rng::new(seed);
    while !game.is_over() {
        let moves = game.legal_moves();
        let m = moves[rng.below(moves.len())];
        game.play(m).expect("a generated placement is legal");
    }
    print!("{}", record::write(&game));
    let outcome = game.outcome();
    for (colour, score) in &outcome.scores {
        println!("{} ({colour}): {score}", colour.name());
    }
    let winners: Vec<String> = outcome.winners.iter().map(|p| format!("player {}", p + 1)).collect();
    println!("won by {}", winners.join(" and "));
}
