//! Monte Carlo tree search for 2-4 colours.
//!
//! Each node keeps the summed reward of the colour that made its move, so selection at a
//! node maximises the reward of the colour to move there (max^n-style UCT). Rewards rank
//! the colours at the end of a playout (ties shared) with a small bonus for the score
//! margin; in the two-player four-colour game a colour is rewarded with its player's.
//!
//! Children start with a prior: as if visited `prior_visits` times with a mean from the
//! greedy evaluation (at the root: tops taken, columns covered, stone size and the room
//! left to the other colours; below it the same without the room, which needs no copy of
//! the position, until in a two-player game the node has been visited `full_prior_after`
//! times; on a scenario whose settings say so, Coricancha, the columns covered everywhere).
//! Playouts answer the last move half the time (a placement that covers one
//! of its columns) and otherwise prefer bigger stones. RAVE is available (`rave`) but off
//! by default. Several threads search separate trees from different seeds and their root
//! statistics are added (root parallelism); with one thread a seed gives the same search
//! every time.
//!
//! The files:
//! - `config.rs`: the settings ([`MctsConfig`], its default and level 9's, [`GUARD_STONES`],
//!   the [`Stop`] flag, [`PriorSource`], [`RoomEstimateAt`]);
//! - `search.rs`: the entry ([`Mcts::search`]): the endgame solver, the trees on their
//!   threads and their root statistics added, the guarded choice, the trees kept below the
//!   moves played;
//! - `plan.rs`: the settings resolved for one site ([`Plan`]: what `rumis levels` prints);
//! - `watch.rs`: which other colours play as greedy players (level 9's model of the others);
//! - `tree.rs`: one tree's search (`TreeSearch`): the nodes, selection, the playout and
//!   back-up;
//! - `expand.rs`: expansion and the children's priors;
//! - `playout.rs`: the playout policy, and a playout of its own ([`playout()`]);
//! - `tests.rs`: the tests.

mod config;
mod expand;
mod plan;
mod playout;
mod search;
mod tree;
mod watch;

pub use config::{MctsConfig, ModelSource, PriorSource, RoomEstimateAt, Stop, GUARD_STONES};
pub use plan::{LearnedAt, Plan};
pub use playout::playout;
pub use search::{Mcts, SearchResult};

/// The tests' check of the selection: while on (in this thread), every selection is also
/// made by looking at every child, and the two must agree.
#[cfg(test)]
mod oracle {
    use std::cell::Cell;

    thread_local! {
        static ON: Cell<bool> = const { Cell::new(false) };
    }

    pub(super) fn on() -> bool {
        ON.with(Cell::get)
    }

    pub(super) fn set(on: bool) {
        ON.with(|c| c.set(on));
    }
}

#[cfg(test)]
mod tests;
