//! How often the house rule "a stuck colour passes" (rules §6) changes a game: plays the
//! same games under both rules and compares them (docs/stuck-rule.md).
//!
//! `cargo run --release -p rumis-ai --example stuck_rule -- BOARD PLAYERS PLAYER GAMES SEED`
//!
//! Pairing: game `i` under either rule gets the same player seed (drawn from `SEED` and
//! `i`), so with a player that does not look ahead (greedy) the two games are move for
//! move the same until its evaluation sees a stuck colour's room (under `pass` a stuck
//! colour is not out, so room given to it counts) or a colour that passed places again. A
//! searching player simulates the rest of the game under the rule in force, so its games
//! part earlier: any change in its playouts changes its choices. The baseline tells that
//! apart: the same game under `out` with the player's seed changed by one bit. One line per
//! game: index, comebacks (placements under `pass` by a colour that had passed before),
//! whether the move lists under the two rules differ, the winners under `out`, under
//! `pass`, and under `out` with the changed seed, and the hash of the final position under
//! `out` (to count distinct games).

use std::sync::Arc;

use rumis_ai::PlayerSpec;
use rumis_core::record::builtin_board;
use rumis_core::{Game, Rng, Site, StuckRule, Variant};

/// Plays one game with `spec` on every seat; returns it and its comebacks.
fn play(site: &Arc<Site>, spec: &PlayerSpec, seed: u64) -> (Game, usize) {
    let mut game = Game::new(site.clone());
    let mut player = spec.build(seed, 1);
    // Colours that have passed at least once so far.
    let mut passed = [false; 4];
    let mut comebacks = 0;
    while let Some(colour) = game.to_move() {
        if passed[colour.index()] {
            comebacks += 1;
        }
        let m = player.choose(&game).expect("a colour to move has a placement");
        let seat = site.order().iter().position(|&c| c == colour).expect("in the order");
        game.play(m).expect("players play legal placements");
        // The colours skipped between this mover and the next one passed (none is out
        // yet unless it has no stone left or the game ended).
        let pos = game.position();
        if let Some(next) = pos.to_move(site) {
            let n = site.order().len();
            let next_seat = site.order().iter().position(|&c| c == next).expect("in the order");
            let mut s = (seat + 1) % n;
            while s != next_seat {
                let c = site.order()[s];
                if !pos.is_out(c) {
                    passed[c.index()] = true;
                }
                s = (s + 1) % n;
            }
        }
    }
    (game, comebacks)
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [board, players, player, games, seed] = args.as_slice() else {
        return Err("usage: stuck_rule BOARD PLAYERS PLAYER GAMES SEED".into());
    };
    let board = builtin_board(board).map_err(|e| e.to_string())?;
    let players: usize = players.parse().map_err(|_| "PLAYERS is a number")?;
    let spec = PlayerSpec::parse(player)?;
    let games: usize = games.parse().map_err(|_| "GAMES is a number")?;
    let seed: u64 = seed.parse().map_err(|_| "SEED is a number")?;
    let site = Site::new(board, players, Variant::Standard, None).map_err(|e| e.to_string())?;
    let out = Arc::new(site.clone().with_stuck_rule(StuckRule::Out));
    let pass = Arc::new(site.with_stuck_rule(StuckRule::Pass));
    let mut rng = Rng::new(seed);
    for i in 0..games {
        let s = rng.next_u64();
        let (a, _) = play(&out, &spec, s);
        let (b, comebacks) = play(&pass, &spec, s);
        let winners = |g: &Game| {
            let o = g.outcome();
            o.winners
                .iter()
                .map(|&w| o.scores[w].0.letter().to_string())
                .collect::<Vec<_>>()
                .join("")
        };
        // The baseline: the same game under `out` with the player's seed changed by one bit,
        // to tell the rule's effect from how easily a search's game changes course.
        let (c, _) = play(&out, &spec, s ^ 1);
        // The game under `out` by its final position's hash: how many distinct games the
        // sample holds (a player with little randomness repeats itself).
        println!(
            "{} {} {} {} {} {} {:016x}",
            i + 1,
            comebacks,
            u8::from(a.moves() != b.moves()),
            winners(&a),
            winners(&b),
            winners(&c),
            a.position().hash()
        );
    }
    Ok(())
}
