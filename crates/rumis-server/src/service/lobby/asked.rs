//! What a client asks the lobby for, as it sent it (names and numbers, unchecked), and the
//! checks that make the service's values of it: a seek's setup is the core's (`GameSetup`, through the service's `new_setup`),
//! its seats, its clock (`clock::Rule::from_asked`); quick play's scenario, player count,
//! AI level and wait. Every refusal names the value and what is allowed, and comes before
//! anything is read or written.

use std::time::Duration;

use rumis_core::{Board, Variant};
use serde_json::Value;

use super::{Quick, Seek, Slot, FILL_WAIT_MAX};
use crate::clock;
use crate::error::{printable, GameError};
use crate::store::Setup;

/// A seat of a seek as asked for: `me`, `open` or `ai` with a level.
#[derive(Clone, Debug)]
pub struct SeatAsked {
    pub kind: String,
    pub level: Option<u8>,
}

/// A seek as asked for (`POST /lobby/seeks`).
#[derive(Clone, Debug)]
pub struct SeekAsked {
    pub board: String,
    pub players: usize,
    pub variant: Option<String>,
    pub colours: Option<Vec<String>>,
    pub rated: bool,
    pub seats: Vec<SeatAsked>,
    pub clock: Option<clock::Asked>,
}

/// Quick play as asked for (`POST /lobby/quick`): `board` a scenario or "any", `players`
/// 2, 3, 4 or "any" (any JSON value, judged here).
#[derive(Clone, Debug, Default)]
pub struct QuickAsked {
    pub board: Option<String>,
    pub players: Option<Value>,
    pub rated: bool,
    pub ai_level: Option<u8>,
    pub wait_seconds: Option<u64>,
}

/// Quick play's AI level and wait when none is asked for.
pub const QUICK_LEVEL: u8 = 3;
pub const QUICK_WAIT_SECONDS: u64 = 60;

fn bad_setup(reason: impl Into<String>) -> GameError {
    GameError::BadSetup(reason.into())
}

fn unknown_board(name: &str) -> GameError {
    GameError::UnknownBoard(format!(
        "unknown board '{}'; the boards are {}",
        printable(name),
        Board::builtin_names()
    ))
}

/// A lobby game's setup from names, checked by the core (the service's `new_setup`). Not
/// Ruinas: its ruins are placed when a game is created, so it is made with `POST
/// /api/v1/games`.
fn setup_of(
    board: &str,
    players: usize,
    variant: Option<&str>,
    colours: Option<&[String]>,
) -> Result<Setup, GameError> {
    if variant.and_then(Variant::from_name) == Some(Variant::Ruinas) {
        return Err(bad_setup(
            "ruinas games are made with POST /api/v1/games, not in the lobby",
        ));
    }
    crate::game::new_setup(&crate::game::AskedSetup {
        board: Some(board),
        players,
        variant,
        colours,
        ..Default::default()
    })
}

impl SeekAsked {
    /// The seek, checked: the clock, the setup, one seat per player (a two-player
    /// four-colour game has two), each seat's kind, exactly one `me` and at least one `open`.
    pub fn check(self) -> Result<Seek, GameError> {
        let clock = self.clock.as_ref().map(clock::Rule::from_asked).transpose()?;
        let setup = setup_of(
            &self.board,
            self.players,
            self.variant.as_deref(),
            self.colours.as_deref(),
        )?;
        let seats = if setup.variant == Variant::TwoPlayerFourColors {
            2
        } else {
            setup.players
        };
        if self.seats.len() != seats {
            return Err(bad_setup(format!(
                "this game has {seats} seats, not {}",
                self.seats.len()
            )));
        }
        let slots = self
            .seats
            .iter()
            .map(|s| match (s.kind.as_str(), s.level) {
                ("me", None) => Ok(Slot::Me),
                ("open", None) => Ok(Slot::Open),
                ("ai", Some(l)) if (1..=9).contains(&l) => Ok(Slot::Ai(l)),
                ("ai", _) => Err(bad_setup("an AI seat needs a level from 1 to 9")),
                ("me" | "open", Some(_)) => Err(bad_setup("only an AI seat has a level")),
                (k, _) => Err(bad_setup(format!(
                    "a seat is \"me\", \"open\" or \"ai\", not '{}'",
                    printable(k)
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mine = slots.iter().filter(|s| **s == Slot::Me).count();
        if mine != 1 {
            return Err(bad_setup(format!("exactly one seat is yours (\"me\"), not {mine}")));
        }
        if !slots.contains(&Slot::Open) {
            return Err(bad_setup("a seek needs at least one free seat (\"open\")"));
        }
        Ok(Seek {
            setup,
            slots,
            rated: self.rated,
            clock,
        })
    }
}

impl QuickAsked {
    /// Quick play, checked: "any" (or nothing) leaves the scenario or the player count open.
    pub fn check(self) -> Result<Quick, GameError> {
        let players = match &self.players {
            None => None,
            Some(Value::String(s)) if s.eq_ignore_ascii_case("any") => None,
            Some(Value::Number(n)) => Some(
                n.as_u64()
                    .filter(|p| (2..=4).contains(p))
                    .ok_or_else(|| bad_setup(format!("a game has 2 to 4 players, not {n}")))? as usize,
            ),
            Some(v) => return Err(bad_setup(format!("players is 2, 3, 4 or \"any\", not {v}"))),
        };
        let level = self.ai_level.unwrap_or(QUICK_LEVEL);
        if !(1..=9).contains(&level) {
            return Err(bad_setup("the AI level is 1 to 9"));
        }
        let wait = self.wait_seconds.unwrap_or(QUICK_WAIT_SECONDS);
        if wait > FILL_WAIT_MAX {
            return Err(bad_setup(format!(
                "the wait for players is at most {FILL_WAIT_MAX} seconds"
            )));
        }
        let board = match self.board.filter(|b| !b.eq_ignore_ascii_case("any")) {
            None => None,
            // Quick play asks for a scenario by any of its names; an unknown one is a bad
            // setup here (not `unknown_board`), as it always answered.
            Some(b) => Some(
                Board::builtin(&b)
                    .ok_or_else(|| match unknown_board(&b) {
                        GameError::UnknownBoard(reason) => GameError::BadSetup(reason),
                        e => e,
                    })?
                    .name
                    .clone(),
            ),
        };
        Ok(Quick {
            board,
            players,
            rated: self.rated,
            level,
            wait: Duration::from_secs(wait),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(seats: &[(&str, Option<u8>)]) -> SeekAsked {
        SeekAsked {
            board: "chullpa".into(),
            players: seats.len(),
            variant: None,
            colours: None,
            rated: false,
            seats: seats
                .iter()
                .map(|(k, l)| SeatAsked {
                    kind: (*k).into(),
                    level: *l,
                })
                .collect(),
            clock: None,
        }
    }

    #[test]
    fn a_seek_needs_one_me_and_an_open_seat() {
        let ok = seek(&[("me", None), ("ai", Some(2)), ("open", None)]).check().unwrap();
        assert_eq!(ok.slots, vec![Slot::Me, Slot::Ai(2), Slot::Open]);
        assert_eq!(ok.setup.board, "Chullpa");
        for (seats, words) in [
            (vec![("me", None), ("me", None)], "not 2"),
            (vec![("me", None), ("ai", Some(3))], "at least one free seat"),
            (vec![("me", None), ("ai", Some(0))], "level from 1 to 9"),
            (vec![("me", Some(2)), ("open", None)], "only an AI seat"),
            (vec![("me", None), ("guest", None)], "not 'guest'"),
        ] {
            let e = seek(&seats).check().unwrap_err();
            assert!(matches!(e, GameError::BadSetup(_)), "{e:?}");
            assert!(e.to_string().contains(words), "{seats:?}: {e}");
        }
        let mut bad = seek(&[("me", None), ("open", None)]);
        bad.board = "atlantis".into();
        assert!(matches!(
            bad.check(),
            Err(GameError::Setup(rumis_core::SetupError::UnknownBoard(_)))
        ));
    }

    #[test]
    fn quick_play_reads_any_and_refuses_the_rest() {
        let q = QuickAsked {
            board: Some("ANY".into()),
            players: Some(Value::String("any".into())),
            ..QuickAsked::default()
        }
        .check()
        .unwrap();
        assert_eq!(
            (q.board, q.players, q.level, q.wait),
            (None, None, 3, Duration::from_secs(60))
        );
        let q = QuickAsked {
            board: Some("tower".into()),
            players: Some(Value::from(3)),
            ..QuickAsked::default()
        }
        .check()
        .unwrap();
        assert_eq!((q.board.as_deref(), q.players), (Some("Chullpa"), Some(3)));
        for (asked, words) in [
            (
                QuickAsked {
                    players: Some(Value::from(5)),
                    ..QuickAsked::default()
                },
                "not 5",
            ),
            (
                QuickAsked {
                    players: Some(Value::Bool(true)),
                    ..QuickAsked::default()
                },
                "not true",
            ),
            (
                QuickAsked {
                    ai_level: Some(0),
                    ..QuickAsked::default()
                },
                "1 to 9",
            ),
            (
                QuickAsked {
                    wait_seconds: Some(3601),
                    ..QuickAsked::default()
                },
                "at most 3600",
            ),
            (
                QuickAsked {
                    board: Some("atlantis".into()),
                    ..QuickAsked::default()
                },
                "unknown board",
            ),
        ] {
            let e = asked.check().unwrap_err();
            assert!(matches!(e, GameError::BadSetup(_)), "{e:?}");
            assert!(e.to_string().contains(words), "'{e}' does not say '{words}'");
        }
    }
}
