//! A game setup: everything that decides the start of a game (the board, the players, the
//! variant, the order of play, the ruins and the stuck-colour rule), read and checked in
//! one place, so that every front end (command line, engine protocol, server, solver)
//! accepts the same setups and refuses bad ones with the same messages ([`SetupError`]).

use std::sync::Arc;

use crate::board::Board;
use crate::error::SetupError;
use crate::game::Game;
use crate::site::{Site, StuckRule, Variant};
use crate::stone::Colour;

/// Where a setup's board comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoardSource {
    /// A built-in scenario, by name or alias.
    Builtin(String),
    /// A board file's text (rules §3), with the name its errors are reported under.
    File {
        /// The file's name in messages.
        name: String,
        /// The TOML text.
        text: String,
    },
    /// A board already made (read elsewhere, or built, as [`Board::open_box`] builds a
    /// solitaire box).
    Board(Board),
}

/// How a Ruinas game's ruins are placed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ruins {
    /// At random from a seed (the eleven stones in a random order, each where it fits).
    Seed(u64),
    /// As written placements, in order (`D2@a1x2`, …).
    Placements(Vec<String>),
}

/// Everything that decides the start of a game; [`GameSetup::start`] checks it and sets
/// the game up.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameSetup {
    /// The board.
    pub board: BoardSource,
    /// The number of players (2-4).
    pub players: usize,
    /// The game played.
    pub variant: Variant,
    /// The order of play (`None`: the first colours of R, Y, G, B).
    pub colours: Option<Vec<Colour>>,
    /// Ruinas: how the ruins are placed.
    pub ruins: Option<Ruins>,
    /// What a colour that cannot place does.
    pub stuck_rule: StuckRule,
}

// An order of play is read here, beside the setup it belongs to, rather than in stone.rs:
// its error is a setup's, and error.rs names colours (stone.rs) in its messages.
impl Colour {
    /// Reads an order of play: letters separated by spaces or commas ("R Y G", "B,R") or
    /// run together ("RYGB").
    pub fn parse_list(text: &str) -> Result<Vec<Colour>, SetupError> {
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .collect();
        let words: Vec<String> = match words.as_slice() {
            [one] if one.chars().count() > 1 && one.chars().all(|c| Colour::from_letter(c).is_some()) => {
                one.chars().map(String::from).collect()
            }
            _ => words.iter().map(|w| w.to_string()).collect(),
        };
        words
            .iter()
            .map(|w| Colour::from_word(w).ok_or_else(|| SetupError::NotAColour(w.clone())))
            .collect()
    }
}

impl GameSetup {
    /// The standard game on a board for a number of players, with the rulebooks' rules.
    pub fn new(board: BoardSource, players: usize) -> GameSetup {
        GameSetup {
            board,
            players,
            variant: Variant::Standard,
            colours: None,
            ruins: None,
            stuck_rule: StuckRule::Out,
        }
    }

    /// Reads a setup from `key=value` settings (`board`, `players`, `variant`, `colors` or
    /// `colours`, `ruins_seed`, `ruins` (placements separated by spaces), `stuck_rule`),
    /// as the engine protocol and a server's form write them. `board` and `players` are
    /// needed; the rest default to the standard game.
    pub fn from_settings<'a>(settings: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<GameSetup, SetupError> {
        let mut setup = GameSetup::new(BoardSource::Builtin(String::new()), 0);
        let (mut board, mut players) = (false, false);
        for (key, value) in settings {
            match key {
                "board" => board = true,
                "players" => players = true,
                _ => {}
            }
            setup.set(key, value)?;
        }
        if !board {
            return Err(SetupError::Missing("board"));
        }
        if !players {
            return Err(SetupError::Missing("players"));
        }
        Ok(setup)
    }

    /// Changes one setting (see [`GameSetup::from_settings`]); nothing changes on an error.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), SetupError> {
        let value = value.trim();
        match key {
            "board" => self.board = BoardSource::Builtin(value.to_string()),
            "players" => {
                self.players = value
                    .parse()
                    .map_err(|_| SetupError::NotAPlayerCount(value.to_string()))?
            }
            "variant" => {
                self.variant = Variant::from_name(value).ok_or_else(|| SetupError::UnknownVariant(value.to_string()))?
            }
            "colors" | "colours" => self.colours = Some(Colour::parse_list(value)?),
            "ruins_seed" => {
                self.ruins = Some(Ruins::Seed(
                    value.parse().map_err(|_| SetupError::NotASeed(value.to_string()))?,
                ))
            }
            "ruins" => self.ruins = Some(Ruins::Placements(value.split_whitespace().map(String::from).collect())),
            "stuck_rule" => {
                self.stuck_rule =
                    StuckRule::from_name(value).ok_or_else(|| SetupError::UnknownStuckRule(value.to_string()))?
            }
            _ => return Err(SetupError::UnknownSetting(key.to_string())),
        }
        Ok(())
    }

    /// Changes the settings that are given ([`GameSetup::set`]); `None` leaves one as it
    /// is. Stops at the first refused setting.
    pub fn set_given<'a>(
        &mut self,
        settings: impl IntoIterator<Item = (&'a str, Option<&'a str>)>,
    ) -> Result<(), SetupError> {
        for (key, value) in settings {
            if let Some(value) = value {
                self.set(key, value)?;
            }
        }
        Ok(())
    }

    /// The board, read and checked.
    pub fn read_board(&self) -> Result<Board, SetupError> {
        match &self.board {
            BoardSource::Builtin(name) => Board::builtin(name)
                .cloned()
                .ok_or_else(|| SetupError::UnknownBoard(name.clone())),
            BoardSource::File { name, text } => Ok(Board::from_toml(name, text)?),
            BoardSource::Board(board) => Ok(board.clone()),
        }
    }

    /// The site: the board prepared for the players, variant, order and rule.
    pub fn site(&self) -> Result<Site, SetupError> {
        let site = Site::new(self.read_board()?, self.players, self.variant, self.colours.clone())?;
        Ok(site.with_stuck_rule(self.stuck_rule))
    }

    /// Checks the whole setup and starts the game (ruins placed for Ruinas).
    pub fn start(&self) -> Result<Game, SetupError> {
        self.start_on(Arc::new(self.site()?))
    }

    /// Starts the game on `site`, which [`GameSetup::site`] built from this setup: for a
    /// front end that keeps the sites it built (building one costs far more than
    /// starting a game on it). Checks the ruins as [`GameSetup::start`] does.
    pub fn start_on(&self, site: Arc<Site>) -> Result<Game, SetupError> {
        match (self.variant, &self.ruins) {
            (Variant::Ruinas, None) => Err(SetupError::RuinasWithoutRuins),
            (Variant::Ruinas, Some(Ruins::Seed(seed))) => Ok(Game::with_random_ruins(site, *seed)),
            (Variant::Ruinas, Some(Ruins::Placements(list))) => {
                let texts: Vec<&str> = list.iter().map(String::as_str).collect();
                Game::with_ruin_texts(site, &texts)
            }
            (_, Some(_)) => Err(SetupError::RuinsWithoutRuinas),
            (_, None) => Ok(Game::new(site)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(settings: &[(&str, &str)]) -> Result<Game, String> {
        GameSetup::from_settings(settings.iter().copied())
            .and_then(|s| s.start())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn settings_make_the_game_they_say() {
        let g = start(&[
            ("board", "chullpa"),
            ("players", "3"),
            ("colors", "B R Y"),
            ("stuck_rule", "pass"),
        ])
        .unwrap();
        assert_eq!(g.site().order(), &[Colour::Blue, Colour::Red, Colour::Yellow]);
        assert_eq!(g.site().stuck_rule(), StuckRule::Pass);
        assert_eq!(g.legal_moves().len(), 687);
        let g = start(&[
            ("board", "tambo"),
            ("players", "2"),
            ("variant", "ruinas"),
            ("ruins", "D2@a1,a2"),
        ])
        .unwrap();
        assert_eq!(g.ruins().len(), 1);
        let a = start(&[
            ("board", "pirka"),
            ("players", "2"),
            ("variant", "ruinas"),
            ("ruins_seed", "7"),
        ])
        .unwrap();
        let b = start(&[
            ("board", "pirka"),
            ("players", "2"),
            ("variant", "ruinas"),
            ("ruins_seed", "7"),
        ])
        .unwrap();
        assert_eq!(a.ruins(), b.ruins());
        assert!(!a.ruins().is_empty());
    }

    #[test]
    fn a_kept_site_starts_the_same_games_and_checks_the_ruins() {
        let mut setup =
            GameSetup::from_settings([("board", "pirka"), ("players", "2"), ("variant", "ruinas")]).unwrap();
        let site = Arc::new(setup.site().unwrap());
        // Without ruins, refused on a kept site as on a new one.
        assert_eq!(
            setup.start_on(site.clone()).unwrap_err(),
            SetupError::RuinasWithoutRuins
        );
        setup.ruins = Some(Ruins::Seed(7));
        let kept = setup.start_on(site.clone()).unwrap();
        assert!(Arc::ptr_eq(kept.site_arc(), &site));
        assert_eq!(kept.ruins(), setup.start().unwrap().ruins());
        let standard = GameSetup {
            variant: Variant::Standard,
            ..setup.clone()
        };
        assert_eq!(
            standard.start_on(Arc::new(standard.site().unwrap())).unwrap_err(),
            SetupError::RuinsWithoutRuinas
        );
    }

    #[test]
    fn a_board_made_elsewhere_is_a_board() {
        let boxed = Board::open_box(3, 3, 3).unwrap();
        let setup = GameSetup {
            variant: Variant::Ruinas,
            ruins: Some(Ruins::Placements(Vec::new())),
            ..GameSetup::new(BoardSource::Board(boxed.clone()), 2)
        };
        let game = setup.start().unwrap();
        assert_eq!(game.site().board(), &boxed);
        assert!(game.ruins().is_empty());
        // Its checks are the same: five players on it are refused.
        let e = GameSetup::new(BoardSource::Board(boxed), 5).start().unwrap_err();
        assert_eq!(e, SetupError::Players(5));
    }

    #[test]
    fn a_board_files_text_is_a_board() {
        let text = Board::builtin_file("chullpa").unwrap();
        let mut setup = GameSetup::new(
            BoardSource::File {
                name: "mine.toml".into(),
                text: text.to_string(),
            },
            2,
        );
        assert_eq!(setup.start().unwrap().site().board().name, "Chullpa");
        setup.board = BoardSource::File {
            name: "mine.toml".into(),
            text: "name = \"x\"\n".into(),
        };
        let e = setup.start().unwrap_err();
        assert!(matches!(e, SetupError::Board(_)), "{e}");
        assert!(e.to_string().starts_with("mine.toml:"), "{e}");
    }

    #[test]
    fn bad_setups_get_one_clear_message() {
        for (settings, message) in [
            (
                &[("board", "atlantis"), ("players", "2")][..],
                "unknown board 'atlantis'; the built-in boards are",
            ),
            (
                &[("board", "chullpa"), ("players", "two")][..],
                "'two' is not a number of players",
            ),
            (
                &[("board", "chullpa"), ("players", "5")][..],
                "a game has 2 to 4 players, not 5",
            ),
            (
                &[("board", "chullpa"), ("players", "2"), ("variant", "chess")][..],
                "unknown variant 'chess'",
            ),
            (
                &[("board", "chullpa"), ("players", "2"), ("colors", "R X")][..],
                "'X' is not a colour (R, Y, G, B)",
            ),
            (
                &[("board", "chullpa"), ("players", "2"), ("colors", "R R")][..],
                "colour R is listed twice",
            ),
            (
                &[("board", "chullpa"), ("players", "2"), ("stuck_rule", "wait")][..],
                "unknown stuck-colour rule 'wait'",
            ),
            (
                &[("board", "chullpa"), ("players", "2"), ("ruins_seed", "x")][..],
                "'x' is not a seed",
            ),
            (
                &[("board", "chullpa"), ("players", "2"), ("ruins_seed", "3")][..],
                "ruins belong to the ruinas variant",
            ),
            (
                &[("board", "chullpa"), ("players", "2"), ("variant", "ruinas")][..],
                "a Ruinas game needs its ruins",
            ),
            (
                &[
                    ("board", "chullpa"),
                    ("players", "2"),
                    ("variant", "ruinas"),
                    ("ruins", "D2@a1,z9"),
                ][..],
                "ruin 1 'D2@a1,z9'",
            ),
            (
                &[("board", "chullpa"), ("players", "2"), ("seats", "2")][..],
                "'seats' is not a setting of a game",
            ),
        ] {
            let e = start(settings).unwrap_err();
            assert!(e.starts_with(message), "{settings:?}: {e}");
        }
    }
}
