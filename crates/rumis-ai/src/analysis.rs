//! Analysis of a game: every colour's win estimate at every position, from a search of each
//! (the rewards themselves once the game is over), and how much each move lost its mover.

use rumis_core::{Colour, Game, Move};

use crate::mcts::Mcts;
use crate::reward::rewards;

/// One move and what it cost the colour that made it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveLoss {
    /// 0-based: move `index + 1` of the game.
    pub index: usize,
    pub colour: Colour,
    pub mv: Move,
    /// The mover's win estimate before the move less the one after it (negative: a gain).
    pub loss: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Per position, from the start to after the last move (moves + 1 entries): each
    /// colour's win estimate (0..1) by colour index; colours not in the game have 0.
    pub estimates: Vec<[f32; 4]>,
    /// Per move, in order.
    pub losses: Vec<MoveLoss>,
}

impl Analysis {
    /// Up to `n` moves that lost the most, largest loss first (earlier first on a tie), only
    /// those that lost something.
    pub fn worst(&self, n: usize) -> Vec<&MoveLoss> {
        let mut sorted: Vec<&MoveLoss> = self.losses.iter().collect();
        sorted.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        sorted.into_iter().take(n).filter(|l| l.loss > 0.0).collect()
    }
}

/// Searches every position of `game` with `mcts`, from its start (after its ruins) to
/// after its last move, each as it stood then: a colour that had left (resigned, ran out
/// of time) is out from its leaving on (rules §5.1), as the record says. An error only if
/// a move has no mover.
pub fn analyse(game: &Game, mcts: &mut Mcts) -> Result<Analysis, String> {
    let site = game.site_arc().clone();
    let mut estimates = Vec::with_capacity(game.moves().len() + 1);
    for i in 0..=game.moves().len() {
        let then = game.after(i);
        let est = match mcts.search(&then) {
            Some(r) => r.estimates,
            None => rewards(&site, then.position()),
        };
        estimates.push(est);
    }
    let mut losses = Vec::with_capacity(game.moves().len());
    for (i, &m) in game.moves().iter().enumerate() {
        let colour = game.mover(i).ok_or("a move without a mover")?;
        let loss = estimates[i][colour.index()] - estimates[i + 1][colour.index()];
        losses.push(MoveLoss {
            index: i,
            colour,
            mv: m,
            loss,
        });
    }
    Ok(Analysis { estimates, losses })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MctsConfig;
    use rumis_core::{Board, Rng, Site, Variant};
    use std::sync::Arc;

    #[test]
    fn a_finished_game() {
        let board = Board::builtin("chullpa").unwrap().clone();
        let site = Arc::new(Site::new(board, 2, Variant::Standard, None).unwrap());
        let mut game = Game::new(site.clone());
        game.play_random(&mut Rng::new(3));
        let mut mcts = Mcts::new(MctsConfig {
            simulations: Some(100),
            ..MctsConfig::default()
        });
        let a = analyse(&game, &mut mcts).unwrap();
        assert_eq!(a.estimates.len(), game.moves().len() + 1);
        assert_eq!(a.losses.len(), game.moves().len());
        assert!(a.estimates.iter().flatten().all(|v| (0.0..=1.0).contains(v)));
        // The last entry is the outcome itself; blue and green do not play.
        assert_eq!(a.estimates.last(), Some(&rewards(&site, game.position())));
        assert!(a.estimates.iter().all(|e| e[2] == 0.0 && e[3] == 0.0));
        for l in &a.losses {
            let c = l.colour.index();
            assert_eq!(l.loss, a.estimates[l.index][c] - a.estimates[l.index + 1][c]);
            assert_eq!(Some(l.colour), game.mover(l.index));
        }
        let worst = a.worst(5);
        assert!(worst.len() <= 5 && worst.iter().all(|l| l.loss > 0.0));
        assert!(worst.windows(2).all(|w| w[0].loss >= w[1].loss));
        let most = a.losses.iter().map(|l| l.loss).fold(f32::MIN, f32::max);
        if most > 0.0 {
            assert_eq!(worst[0].loss, most);
        }
        // The same seed gives the same analysis.
        let mut again = Mcts::new(MctsConfig {
            simulations: Some(100),
            ..MctsConfig::default()
        });
        assert_eq!(analyse(&game, &mut again).unwrap(), a);
    }

    /// A colour that resigned is out from there on in the analysis too: the moves after its
    /// leaving replay as the others' (before, the analysis replayed them as if it were
    /// still to move, and failed: "the stone must touch a yellow cube"). Its final estimate
    /// is the last place's, whatever its score (rules §5.1).
    #[test]
    fn a_game_with_a_resignation() {
        let board = Board::builtin("chullpa").unwrap().clone();
        let site = Arc::new(Site::new(board, 3, Variant::Standard, None).unwrap());
        let mut game = Game::new(site.clone());
        let mut rng = Rng::new(9);
        for _ in 0..3 {
            let moves = game.legal_moves();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        game.retire(Colour::Yellow, Some("resigned")).unwrap();
        game.play_random(&mut rng);
        assert!(game.moves().len() > 4);
        let mut mcts = Mcts::new(MctsConfig {
            simulations: Some(30),
            ..MctsConfig::default()
        });
        let a = analyse(&game, &mut mcts).unwrap();
        assert_eq!(a.estimates.len(), game.moves().len() + 1);
        for l in &a.losses {
            assert_eq!(Some(l.colour), game.mover(l.index));
            if l.index >= 3 {
                assert_ne!(l.colour, Colour::Yellow);
            }
        }
        let last = a.estimates.last().unwrap();
        assert!(last[Colour::Yellow.index()] < last[Colour::Red.index()]);
        assert!(last[Colour::Yellow.index()] < last[Colour::Green.index()]);
    }
}
