//! What level 9 has seen of the other colours' moves ([`Watch`]): whom to model as greedy
//! players.

use rumis_core::{Colour, Game};

use crate::eval;

/// What the search has seen of the other colours' moves in the game it plays: per colour,
/// how many moves and how many of them a greedy player would have chosen (the greedy
/// evaluation's best, ties included). The model of the others (`others_prior_weight`,
/// `room_estimate`) stands for a greedy player; a colour that plays otherwise, a search
/// such as level 8, is better left to the search's own max^n view of it: with the model at
/// every other colour, level 9's stand-in lost to level 8 head to head on Tambo 3 players
/// (docs/strength.md, "Whom to model").
#[derive(Debug, Default)]
pub(super) struct Watch {
    /// The moves looked at, and the hash of the position after them: a game that does not
    /// go on from there (another game, moves taken back) starts the count afresh.
    pub(super) upto: usize,
    pub(super) after: u64,
    pub(super) seen: [u32; 4],
    pub(super) greedy: [u32; 4],
}

impl Watch {
    /// Looks at the moves of `game` since the last call, those of colours other than `own`.
    pub(super) fn update(&mut self, game: &Game, own: Colour) {
        let (site, positions, moves) = (game.site(), game.positions(), game.moves());
        if self.upto > moves.len() || positions[self.upto].hash() != self.after {
            *self = Watch::default();
        }
        let mut values = Vec::new();
        let mut legal = Vec::new();
        for (pos, &played) in positions[self.upto..moves.len()].iter().zip(&moves[self.upto..]) {
            let Some(mover) = pos.to_move(site) else { continue };
            if mover == own {
                continue;
            }
            pos.legal_moves(site, &mut legal);
            values.clear();
            values.extend(legal.iter().map(|&m| eval::evaluate(site, pos, m)));
            let best = values.iter().copied().fold(f32::MIN, f32::max);
            let chosen = legal.iter().position(|&m| m == played).map_or(f32::MIN, |i| values[i]);
            self.seen[mover.index()] += 1;
            // The greedy player's own tie margin: any of the best is its choice.
            self.greedy[mover.index()] += u32::from(chosen >= best - 1e-6);
        }
        self.upto = moves.len();
        self.after = positions[self.upto].hash();
    }

    /// The colours to model as greedy players: those whose moves were a greedy player's at
    /// least nine times in ten, counting one such move before any was seen (so every colour
    /// is modelled until it shows otherwise, and one miss among the first few is enough).
    pub(super) fn modelled(&self) -> [bool; 4] {
        std::array::from_fn(|k| (self.greedy[k] + 1) * 10 >= (self.seen[k] + 1) * 9)
    }
}
