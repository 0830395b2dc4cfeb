//! Where a command's position comes from: a record, or a new game on a board.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::Args;
use rumis_core::record::{self, Record};
use rumis_core::{Board, BoardSource, Game, GameSetup, Ruins, SetupError, Variant};

#[derive(Args, Debug, Clone)]
pub struct Source {
    /// A game record to read (`-` for standard input).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "players", "ruins_seed", "ruins", "colors", "stuck_rule"])]
    pub record: Option<String>,
    /// Which game of a file holding several records (1-based).
    #[arg(long, value_name = "N", requires = "record")]
    pub game: Option<usize>,
    /// A built-in scenario by name (case-insensitive): chullpa, pirka, tambo, pisac, coricancha, cucho.
    #[arg(long, value_name = "NAME")]
    pub board: Option<String>,
    /// A board file of your own (TOML; see the README).
    #[arg(long, value_name = "PATH", conflicts_with = "board")]
    pub board_file: Option<PathBuf>,
    /// Number of players, 2-4.
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// standard, two-player-four-colors or ruinas.
    #[arg(long, value_name = "V")]
    pub variant: Option<String>,
    /// A colour that cannot place: `out` for the rest of the game (the rulebooks' rule,
    /// the default) or `pass` (house rule: it passes and plays again when a place opens).
    #[arg(long, value_name = "RULE")]
    pub stuck_rule: Option<String>,
    /// Order of play, e.g. "B R" (default: the first colours of R Y G B).
    #[arg(long, value_name = "COLOURS")]
    pub colors: Option<String>,
    /// Ruinas: place the ruins at random from this seed.
    #[arg(long, value_name = "S", conflicts_with = "ruins")]
    pub ruins_seed: Option<u64>,
    /// Ruinas: the ruin placements, space-separated, e.g. "D2@a1x2 I3@b1,c1,d1".
    #[arg(long, value_name = "PLACEMENTS")]
    pub ruins: Option<String>,
}

pub fn read_board_file(path: &Path) -> Result<Board, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read board file {}: {e}", path.display()))?;
    Board::from_toml(&path.display().to_string(), &text).map_err(|e| e.to_string())
}

impl Source {
    /// The game this source describes: a record replayed, or a new game.
    pub fn game(&self) -> Result<Game, String> {
        match &self.record {
            Some(path) => self.record_game(path),
            None => self.new_game(None),
        }
    }

    fn record_game(&self, path: &str) -> Result<Game, String> {
        let (name, text) = if path == "-" {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("cannot read the record from standard input: {e}"))?;
            ("<stdin>".to_string(), s)
        } else {
            let s = std::fs::read_to_string(path).map_err(|e| format!("cannot read record {path}: {e}"))?;
            (path.to_string(), s)
        };
        let records = Record::parse_all(&text).map_err(|e| format!("{name}: {e}"))?;
        let record = match (self.game, records.len()) {
            (None, 1) => &records[0],
            (None, n) => return Err(format!("{name} holds {n} games; choose one with --game 1..{n}")),
            (Some(i), n) if i == 0 || i > n => return Err(format!("{name} holds {n} game(s); --game {i} is not one")),
            (Some(i), _) => &records[i - 1],
        };
        let user_board = match &self.board_file {
            Some(p) => Some(read_board_file(p)?),
            None => None,
        };
        let resolve = |tag: &str| -> Result<Board, String> {
            match &user_board {
                Some(b) if b.is_called(tag) => Ok(b.clone()),
                Some(b) => Err(format!(
                    "the record is for board '{tag}' but the board file describes '{}'",
                    b.name
                )),
                None => record::builtin_board(tag).map_err(|e| e.to_string()),
            }
        };
        record.to_game(resolve).map_err(|e| format!("{name}: {e}"))
    }

    /// A new game from the board options, read and checked by the core's [`GameSetup`];
    /// Ruinas without explicit ruins draws them from `--ruins-seed`, else from
    /// `default_seed` (selfplay gives one per game).
    pub fn new_game(&self, default_seed: Option<u64>) -> Result<Game, String> {
        let board = match (&self.board, &self.board_file) {
            (Some(name), None) => BoardSource::Builtin(name.clone()),
            (None, Some(path)) => BoardSource::File {
                name: path.display().to_string(),
                text: std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read board file {}: {e}", path.display()))?,
            },
            (None, None) => {
                return Err(
                    "say which game: --record FILE, or --board NAME (or --board-file PATH) with --players N".into(),
                )
            }
            (Some(_), Some(_)) => return Err("give --board or --board-file, not both".into()),
        };
        let players = self.players.ok_or("--players N is needed with --board (2, 3 or 4)")?;
        let mut setup = GameSetup::new(board, players);
        setup
            .set_given([
                ("variant", self.variant.as_deref()),
                ("colors", self.colors.as_deref()),
                ("stuck_rule", self.stuck_rule.as_deref()),
            ])
            .map_err(setup_error)?;
        setup.ruins = match (&self.ruins, self.ruins_seed) {
            (Some(list), _) => Some(Ruins::Placements(list.split_whitespace().map(String::from).collect())),
            (None, Some(seed)) => Some(Ruins::Seed(seed)),
            (None, None) if setup.variant == Variant::Ruinas => default_seed.map(Ruins::Seed),
            (None, None) => None,
        };
        setup.start().map_err(setup_error)
    }
}

/// A setup the core refused, in its words; the two errors about ruins name the options
/// that give them.
fn setup_error(e: SetupError) -> String {
    match e {
        SetupError::RuinsWithoutRuinas => {
            "--ruins and --ruins-seed belong to the ruinas variant (--variant ruinas)".into()
        }
        SetupError::RuinasWithoutRuins => {
            "a Ruinas game needs its ruins: --ruins-seed S (placed at random) or --ruins \"D2@a1x2 ...\"".into()
        }
        e => e.to_string(),
    }
}
