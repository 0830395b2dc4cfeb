//! The 5 x 5 x 5 in turn (rules §6): build the whole cube with all four colours, placing
//! stones in turn R, Y, G, B under the rules of section 4, Hmax 5; a colour that can no
//! longer place is skipped (out). The rules themselves come from the core: this is a
//! depth-first search over the core's legal placements with pruning that only ever cuts
//! positions that cannot be completed.

use std::collections::HashSet;
use std::sync::Arc;

use rumis_core::{Board, BoardSource, Game, GameSetup, Move, Position, Site};

/// The box: a 5 x 5 board with height limit 5 for every player count.
pub fn tower_board(size: usize) -> Board {
    let row = "#".repeat(size);
    let grid: Vec<&str> = (0..size).map(|_| row.as_str()).collect();
    let text = format!(
        "# The solitaire {size} x {size} x {size} in turn (rules §6). Rows back rank first.\nname = \"Tower{size}\"\nprovenance = \"printed-rules\"\nsource = \"The rulebook's solitaire: build the {size} x {size} x {size} cube with all four colours in turn.\"\nhmax = {{ 2 = {size}, 3 = {size}, 4 = {size} }}\ngrid = \"\"\"\n{}\n\"\"\"\n",
        grid.join("\n")
    );
    Board::from_toml("<tower>", &text).expect("a valid box")
}

/// What the search did.
#[derive(Clone, Debug)]
pub struct TowerReport {
    /// The completed game, if one was found.
    pub game: Option<Game>,
    pub nodes: u64,
    /// Whether the whole tree was searched (so no answer means none exists).
    pub exhausted: bool,
    /// Dead positions remembered.
    pub dead: usize,
}

struct Search<'a> {
    site: &'a Site,
    volume: usize,
    nodes: u64,
    budget: u64,
    dead: HashSet<u64>,
    out_of_budget: bool,
    path: Vec<Move>,
}

impl Search<'_> {
    /// Whether the position can obviously not be completed.
    fn hopeless(&self, pos: &Position) -> bool {
        let empty = self.volume - pos.cube_count();
        let cubes: usize = self
            .site
            .order()
            .iter()
            .filter(|&&c| !pos.is_out(c))
            .map(|&c| pos.stones_left(c).iter().map(|s| s.size()).sum::<usize>())
            .sum();
        if cubes < empty {
            return true;
        }
        // A single free cell on top of a column whose neighbours are all at least as high:
        // every stone has two cubes or more, so nothing can ever fill it.
        for c in self.site.footprint() {
            let h = pos.height(c);
            let limit = self.site.limits()[c];
            if h + 1 == limit && self.site.neighbours(c).iter().all(|&n| pos.height(n as usize) > h) {
                return true;
            }
        }
        false
    }

    fn go(&mut self, pos: &Position) -> bool {
        if pos.cube_count() == self.volume {
            return true;
        }
        if pos.is_over() || self.hopeless(pos) || self.dead.contains(&pos.hash()) {
            return false;
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            self.out_of_budget = true;
            return false;
        }
        let mut moves = Vec::new();
        pos.legal_moves(self.site, &mut moves);
        // Fill from the bottom up, bigger stones first.
        let mut ordered: Vec<(u32, Move)> = moves
            .iter()
            .map(|&m| {
                let t = self.site.template(m);
                let base = pos.height(t.columns[t.anchor as usize] as usize) as u32;
                (base * 16 + (4 - t.stone.size() as u32), m)
            })
            .collect();
        ordered.sort();
        for (_, m) in ordered {
            let mut child = pos.clone();
            child.play_unchecked(self.site, m);
            self.path.push(m);
            if self.go(&child) {
                return true;
            }
            self.path.pop();
            if self.out_of_budget {
                return false;
            }
        }
        self.dead.insert(pos.hash());
        false
    }
}

/// Searches for a completed `size`^3 cube built in turn, within `budget` positions.
pub fn solve_tower(size: usize, budget: u64) -> TowerReport {
    let setup = GameSetup::new(BoardSource::Board(tower_board(size)), 4);
    let site = Arc::new(setup.site().expect("a valid setup"));
    let start = Position::new(&site);
    let mut s = Search {
        site: &site,
        volume: size * size * size,
        nodes: 0,
        budget,
        dead: HashSet::new(),
        out_of_budget: false,
        path: Vec::new(),
    };
    let found = s.go(&start);
    let game = found.then(|| {
        let mut g = Game::new(site.clone());
        for &m in &s.path {
            g.play(m).expect("the search plays legal moves");
        }
        g
    });
    TowerReport {
        game,
        nodes: s.nodes,
        exhausted: !found && !s.out_of_budget,
        dead: s.dead.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 3 x 3 x 3 in turn is small enough to settle in a test; whatever the answer, a
    /// found game fills the cube with legal moves only (Game::play checked each).
    #[test]
    fn three_cube_in_turn() {
        let r = solve_tower(3, 2_000_000);
        match &r.game {
            Some(g) => {
                let pos = g.position();
                assert_eq!(pos.cube_count(), 27);
                assert!(g.site().footprint().all(|c| pos.height(c) == 3));
            }
            None => assert!(r.exhausted, "neither found nor exhausted within the budget"),
        }
    }

    /// The rulebook's challenge: the search finds the 5 x 5 x 5, and the record committed
    /// under examples/ replays (every move checked by the core) to the full cube.
    #[test]
    fn five_cube_in_turn_and_the_committed_record() {
        let r = solve_tower(5, 1_000_000);
        let g = r.game.expect("the search finds the 5 x 5 x 5");
        assert_eq!(g.position().cube_count(), 125);
        let board = include_str!("../../../examples/tower5.toml");
        let record = include_str!("../../../examples/tower5.txt");
        let board = Board::from_toml("examples/tower5.toml", board).unwrap();
        let replayed = rumis_core::Record::parse(record)
            .unwrap()
            .to_game(|name| {
                if board.is_called(name) {
                    Ok(board.clone())
                } else {
                    Err(name.to_string())
                }
            })
            .unwrap();
        let pos = replayed.position();
        assert_eq!(pos.cube_count(), 125);
        assert!(replayed.site().footprint().all(|c| pos.height(c) == 5));
        assert_eq!(replayed.site().order().len(), 4);
    }
}
