//! Search settings that differ by scenario. They are data (`scenarios.toml`, measured by
//! self-play in docs/strength.md), looked up by the board's name; a board not listed there,
//! such as one a user describes in a file, gets the defaults.

use std::collections::HashMap;
use std::sync::OnceLock;

use rumis_core::{Site, Variant};
use serde::Deserialize;

const SCENARIOS: &str = include_str!("../scenarios.toml");

/// What the search does differently on one scenario.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSettings {
    /// Whether the move priors count the room a placement leaves the other colours.
    #[serde(default = "yes")]
    pub room_in_priors: bool,
    /// The player counts with which the search takes its move priors from a learned model
    /// rather than the hand-made greedy evaluation (2: the game of two colours).
    #[serde(default)]
    pub learned_priors: Vec<usize>,
    /// Whether it does so in the two-player four-colour game too.
    #[serde(default)]
    pub learned_priors_four_colours: bool,
    /// The player counts (among `learned_priors`) with which the learned model is the
    /// scenario's own (`scenario-priors.toml`); with the others it is the general model of
    /// the player count.
    #[serde(default)]
    pub own_model: Vec<usize>,
}

impl ScenarioSettings {
    /// Whether the learned priors are used with this many players (in the standard game
    /// and Ruinas).
    pub fn learned_priors_with(&self, players: usize) -> bool {
        self.learned_priors.contains(&players)
    }

    /// Whether the learned priors are used in a game of this site: by its player count, or
    /// in the two-player four-colour game by `learned_priors_four_colours`.
    pub fn learned_priors_on(&self, site: &Site) -> bool {
        match site.variant() {
            Variant::TwoPlayerFourColors => self.learned_priors_four_colours,
            _ => self.learned_priors_with(site.players()),
        }
    }

    /// Whether the learned priors with this many players are the scenario's own model.
    pub fn own_model_with(&self, players: usize) -> bool {
        self.learned_priors_with(players) && self.own_model.contains(&players)
    }
}

fn yes() -> bool {
    true
}

impl Default for ScenarioSettings {
    fn default() -> Self {
        ScenarioSettings {
            room_in_priors: true,
            learned_priors: Vec::new(),
            learned_priors_four_colours: false,
            own_model: Vec::new(),
        }
    }
}

fn parse(text: &str) -> Result<HashMap<String, ScenarioSettings>, String> {
    toml::from_str(text).map_err(|e| format!("scenarios.toml: {e}"))
}

fn table() -> &'static HashMap<String, ScenarioSettings> {
    static TABLE: OnceLock<HashMap<String, ScenarioSettings>> = OnceLock::new();
    // The file is compiled in and a unit test reads it, so the fallback is never taken.
    TABLE.get_or_init(|| parse(SCENARIOS).unwrap_or_default())
}

/// The table of `scenarios.toml` that holds the settings of a board it does not name (a
/// board of the user's own).
pub const ANY_OTHER_BOARD: &str = "*";

/// The settings for a board, by its name (case does not matter): its table, else the
/// table of any other board, else the defaults.
pub fn settings(board_name: &str) -> ScenarioSettings {
    let t = table();
    t.get(&board_name.trim().to_ascii_lowercase())
        .or_else(|| t.get(ANY_OTHER_BOARD))
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_names_only_built_in_boards_and_parses() {
        let t = parse(SCENARIOS).unwrap();
        assert!(!t.is_empty());
        for name in t.keys().filter(|&n| n != ANY_OTHER_BOARD) {
            let board = rumis_core::Board::builtin(name).unwrap_or_else(|| panic!("no board '{name}'"));
            assert_eq!(&board.name.to_ascii_lowercase(), name);
        }
        // Every built-in board has its own table: the table of any other board is for the
        // boards of users, measured on boards made for the test.
        for board in rumis_core::Board::builtins() {
            assert!(t.contains_key(&board.name.to_ascii_lowercase()), "{}", board.name);
        }
        assert!(!settings("Coricancha").room_in_priors);
        assert!(settings("Chullpa").room_in_priors);
        assert!(settings("my own board").room_in_priors);
        // Every board, a user's own included: the learned priors with 3 and 4 players; with
        // 2 on Chullpa and Coricancha alone, where they measured better.
        for name in [
            "chullpa",
            "coricancha",
            "cucho",
            "pirka",
            "pisac",
            "tambo",
            "my own board",
        ] {
            assert!(
                settings(name).learned_priors_with(4) && settings(name).learned_priors_with(3),
                "{name}"
            );
            let two = ["chullpa", "coricancha"].contains(&name);
            assert_eq!(settings(name).learned_priors_with(2), two, "{name}");
        }
        // The two-player four-colour game: on Chullpa alone.
        for name in [
            "chullpa",
            "coricancha",
            "cucho",
            "pirka",
            "pisac",
            "tambo",
            "my own board",
        ] {
            assert_eq!(settings(name).learned_priors_four_colours, name == "chullpa", "{name}");
        }
        // Coricancha's own model is for 3 and 4 players; with 2 it takes the 2-player model.
        assert!(!settings("coricancha").own_model_with(2) && settings("coricancha").own_model_with(3));
        // A scenario's own model: named where one was learned, and there is one.
        for (name, set) in &t {
            for &players in &set.own_model {
                assert!(set.learned_priors_with(players), "{name}: own_model {players}");
                assert!(crate::priors::scenario_model(name).is_some(), "{name}: no own model");
            }
        }
        for board in rumis_core::Board::builtins() {
            if crate::priors::scenario_model(&board.name).is_some() {
                assert!(!settings(&board.name).own_model.is_empty(), "{}", board.name);
            }
        }
        assert!(settings("coricancha").own_model_with(4) && !settings("chullpa").own_model_with(4));
        // The switch names player counts.
        let t = parse("[chullpa]\nlearned_priors = [3, 4]\n").unwrap();
        let chullpa = &t["chullpa"];
        assert!(chullpa.learned_priors_with(3) && chullpa.learned_priors_with(4));
        assert!(!chullpa.learned_priors_with(2));
        assert!(chullpa.room_in_priors);
        assert!(parse("[chullpa]\nlearned_priors = true\n").is_err());
        assert!(parse("[chullpa]\nroom_in_prior = false\n").is_err());
    }
}
