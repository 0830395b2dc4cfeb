//! A search's plan on one site: every setting of [`MctsConfig`] that depends on the board,
//! the player count or the variant, resolved once, in one place. The tree search reads
//! its resolved settings from here (`TreeSearch::new`, the budget in `Mcts::search`), and
//! `rumis levels` prints it, so what is printed is what runs.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use rumis_core::Site;

use super::config::{MctsConfig, ModelSource, PriorSource, RoomEstimateAt};
use crate::priors::PriorModel;
use crate::scenario;

/// At which nodes the learned priors are used (the others keep the hand-made ones).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnedAt {
    Everywhere,
    /// The searching side's nodes.
    OwnSide,
    /// The searching side's and those of the colours not modelled as greedy players.
    OwnSideAndSearchers,
}

/// What a search by a configuration does in games on one site.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Simulations a move (over all threads), for this site's number of sides.
    pub simulations: Option<u64>,
    /// Time a move.
    pub time: Option<Duration>,
    /// Whether the hand-made priors count the room a placement leaves the others (else the
    /// columns covered alone); learned priors then use their quick weights everywhere.
    pub room_in_priors: bool,
    /// The learned priors, if any: where from, and at which nodes.
    pub learned: Option<(ModelSource, LearnedAt)>,
    /// The model of the others holds (games of `others_model_from` colours or more).
    pub others_modelled: bool,
    /// Where the room is estimated, and how much the others' priors weigh.
    pub room_estimate: RoomEstimateAt,
    pub others_prior_weight: f32,
    /// Nodes this close to the root get the greedy evaluation's priors (0: none).
    pub full_prior_depth: usize,
    /// Deeper nodes get them once visited `full_prior_after` times (two-player games).
    pub late_full_priors: bool,
    /// Playout plies informed by the learned model's quick weights (0: none), choosing
    /// among this many draws.
    pub informed_plies: usize,
    pub playout_candidates: usize,
    /// The endgame solver from this many stones in play (0: never), within this many
    /// positions.
    pub endgame_stones: usize,
    pub endgame_nodes: u64,
    /// The choice's guard against being walled in (0: none).
    pub outlet_guard: u8,
}

impl MctsConfig {
    /// This configuration's plan in games on `site`, and the learned model it uses.
    pub fn plan(&self, site: &Site) -> (Plan, Option<Arc<PriorModel>>) {
        let settings = scenario::settings(&site.board().name);
        let players = site.players();
        // The scenarios' learned priors were measured for level 9's search, which keeps the
        // greedy evaluation for the colours it models as greedy players (scenarios.toml).
        let learned = match self.priors {
            PriorSource::Scenario if !self.learned_for_searchers => None,
            ref p => p.resolve(site),
        };
        // Without the room (Coricancha) a learned model uses its quick weights everywhere,
        // as the hand-made priors use the columns covered: with the room features the
        // learned priors lost to greedy there too (docs/strength.md).
        let room = self.room_in_priors.unwrap_or(settings.room_in_priors);
        let model = site.order().len() >= self.others_model_from;
        let learned_at = match (self.learned_own_only, self.learned_for_searchers) {
            (false, _) => LearnedAt::Everywhere,
            (true, false) => LearnedAt::OwnSide,
            (true, true) => LearnedAt::OwnSideAndSearchers,
        };
        let plan = Plan {
            simulations: match self.two_player_simulations {
                Some(s) if players == 2 => Some(s),
                _ => self.simulations,
            },
            time: self.time,
            room_in_priors: room,
            learned: learned.as_ref().map(|(source, _)| (source.clone(), learned_at)),
            others_modelled: self.models_others(site),
            room_estimate: if model {
                self.room_estimate
            } else {
                RoomEstimateAt::Nowhere
            },
            others_prior_weight: if model { self.others_prior_weight } else { 1.0 },
            full_prior_depth: if room { self.full_prior_depth } else { 0 },
            late_full_priors: room && self.full_prior_after > 0 && self.prior_visits > 0.0 && players == 2,
            informed_plies: if learned.is_some() { self.informed_plies } else { 0 },
            playout_candidates: self.playout_candidates,
            endgame_stones: self.endgame_stones,
            endgame_nodes: self.endgame_nodes,
            outlet_guard: self.outlet_guard,
        };
        (plan, learned.map(|(_, m)| m))
    }
}

impl fmt::Display for Plan {
    /// One line a setting, in words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let budget = match (self.simulations, self.time) {
            (Some(s), Some(t)) => format!("{s} simulations or {} ms a move, whichever ends first", t.as_millis()),
            (Some(s), None) => format!("{s} simulations a move"),
            (None, Some(t)) => format!("{} ms a move, on the threads given", t.as_millis()),
            (None, None) => "1 000 simulations a move (no budget given)".into(),
        };
        writeln!(f, "budget: {budget}")?;
        let hand = if self.room_in_priors {
            "the greedy evaluation, the room left to the others counted"
        } else {
            "the columns covered and the stone's size (no room)"
        };
        match &self.learned {
            None => writeln!(f, "priors: hand-made: {hand}")?,
            Some((source, at)) => {
                let at = match at {
                    LearnedAt::Everywhere => "at every node",
                    LearnedAt::OwnSide => "at its own side's nodes (hand-made elsewhere)",
                    LearnedAt::OwnSideAndSearchers => {
                        "at its own side's nodes and those of colours that search (hand-made for greedy ones)"
                    }
                };
                let weights = if self.room_in_priors {
                    "full weights near the root, quick below"
                } else {
                    "quick weights"
                };
                writeln!(f, "priors: learned, {source}, {weights}, {at}")?;
            }
        }
        if self.full_prior_depth > 0 || self.late_full_priors {
            let late = if self.late_full_priors {
                ", and at nodes visited often"
            } else {
                ""
            };
            writeln!(f, "full evaluation: to depth {}{late}", self.full_prior_depth)?;
        }
        if self.others_modelled {
            let at = match self.room_estimate {
                RoomEstimateAt::Nowhere => "no room estimate",
                RoomEstimateAt::Others => "room estimated at the others' nodes",
                RoomEstimateAt::Everywhere => "room estimated at every node",
            };
            writeln!(
                f,
                "the others: modelled as greedy players while they play so (their priors weigh {}×; {at})",
                self.others_prior_weight
            )?;
        } else {
            writeln!(f, "the others: searched as the search itself (max^n)")?;
        }
        let playouts = if self.informed_plies > 0 {
            let plies = if self.informed_plies == usize::MAX {
                "every ply".to_string()
            } else {
                format!("{} plies", self.informed_plies)
            };
            format!(
                "informed by the learned model at {plies} (best of {} draws)",
                self.playout_candidates
            )
        } else {
            "the policy: the last move answered half the time, else big stones first".into()
        };
        writeln!(f, "playouts: {playouts}")?;
        if self.endgame_stones > 0 {
            writeln!(
                f,
                "endgame: solved exactly from {} stones in play, within {} positions",
                self.endgame_stones, self.endgame_nodes
            )?;
        }
        if self.outlet_guard > 0 {
            write!(
                f,
                "walls: while it holds {} stones or more, it plays the most visited placement that leaves {} \
                 outlets if that one has half the visits of the most visited",
                super::GUARD_STONES,
                self.outlet_guard
            )?;
        } else {
            write!(f, "walls: no guard")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level_config;
    use rumis_core::{Board, Variant};

    fn site(board: &str, players: usize, variant: Variant) -> Site {
        Site::new(Board::builtin(board).unwrap().clone(), players, variant, None).unwrap()
    }

    /// Pinned: what scenarios.toml and the level settings resolve to on a few sites.
    #[test]
    fn plans_of_levels_on_sites() {
        let coricancha4 = site("coricancha", 4, Variant::Standard);
        let (nine, model) = level_config(9).plan(&coricancha4);
        assert_eq!(
            nine.learned,
            Some((
                ModelSource::Scenario("coricancha".into()),
                LearnedAt::OwnSideAndSearchers
            ))
        );
        assert!(model.is_some() && nine.others_modelled && !nine.room_in_priors);
        assert_eq!(
            (nine.simulations, nine.time),
            (None, Some(Duration::from_millis(4_500)))
        );
        assert_eq!((nine.informed_plies, nine.full_prior_depth), (usize::MAX, 0));
        assert_eq!(nine.room_estimate, RoomEstimateAt::Everywhere);

        let (five, model) = level_config(5).plan(&coricancha4);
        assert!(five.learned.is_none() && model.is_none() && !five.others_modelled);
        assert_eq!((five.simulations, five.informed_plies), (Some(500), 0));

        let chullpa2 = site("chullpa", 2, Variant::Standard);
        let (five, _) = level_config(5).plan(&chullpa2);
        assert_eq!(five.simulations, Some(400), "the two-player budget");
        assert!(five.room_in_priors && five.late_full_priors && five.full_prior_depth == 1);
        let (nine, _) = level_config(9).plan(&chullpa2);
        assert_eq!(
            nine.learned,
            Some((ModelSource::PlayerCount(2), LearnedAt::OwnSideAndSearchers))
        );
        assert!(!nine.others_modelled, "two colours: the opponent searched as itself");
        assert_eq!(nine.room_estimate, RoomEstimateAt::Nowhere);

        // Pisac's two-player four-colour game: no learned priors (scenarios.toml), the
        // others modelled (four colours).
        let pisac = site("pisac", 2, Variant::TwoPlayerFourColors);
        let (nine, model) = level_config(9).plan(&pisac);
        assert!(nine.learned.is_none() && model.is_none() && nine.others_modelled);
        assert_eq!(nine.informed_plies, 0, "informed playouts need a learned model");
    }

    /// The plan's words name what was resolved.
    #[test]
    fn a_plan_in_words() {
        let text = level_config(9)
            .plan(&site("coricancha", 4, Variant::Standard))
            .0
            .to_string();
        assert!(text.contains("coricancha's own model"), "{text}");
        assert!(text.contains("4500 ms a move"), "{text}");
        let text = level_config(4).plan(&site("tambo", 3, Variant::Standard)).0.to_string();
        assert!(
            text.contains("100 simulations a move") && text.contains("hand-made"),
            "{text}"
        );
    }
}
