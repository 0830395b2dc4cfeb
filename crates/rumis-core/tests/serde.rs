//! The `serde` feature: the game's values as a program stores or sends them, in the words
//! the command line and records use. (Run with `--features serde`; CI does.)
#![cfg(feature = "serde")]

use rumis_core::{Board, Colour, Cube, Game, Move, Site, Stone, StuckRule, Variant};
use std::sync::Arc;

#[test]
fn values_round_trip_in_the_games_words() {
    let json = |v: &dyn erased::Ser| v.to_json();
    assert_eq!(json(&Variant::TwoPlayerFourColors), r#""two-player-four-colors""#);
    assert_eq!(json(&Variant::Ruinas), r#""ruinas""#);
    assert_eq!(json(&StuckRule::Pass), r#""pass""#);
    assert_eq!(json(&Colour::Yellow), r#""yellow""#);
    assert_eq!(json(&Stone::L4), r#""L4""#);
    assert_eq!(json(&Cube::Ruin), r#""ruin""#);
    assert_eq!(json(&Cube::Stone(Colour::Blue)), r#"{"stone":"blue"}"#);

    let v: Variant = serde_json::from_str(r#""standard""#).unwrap();
    assert_eq!(v, Variant::Standard);
    assert!(serde_json::from_str::<Colour>(r#""purple""#).is_err());

    // A move is its template id on its site.
    let site = Arc::new(Site::new(Board::builtin("chullpa").unwrap().clone(), 2, Variant::Standard, None).unwrap());
    let mut game = Game::new(site);
    let m = game.play_text("L4@a1,a2,a3,b1").unwrap();
    let text = serde_json::to_string(&m).unwrap();
    assert_eq!(text, m.index().to_string());
    let back: Move = serde_json::from_str(&text).unwrap();
    assert_eq!(back, m);
    let outcome = serde_json::to_value(game.outcome()).unwrap();
    assert_eq!(outcome["scores"][0][0], "red");
}

/// `&dyn` over the values above, so one closure serializes them all.
mod erased {
    pub trait Ser {
        fn to_json(&self) -> String;
    }
    impl<T: serde::Serialize> Ser for T {
        fn to_json(&self) -> String {
            serde_json::to_string(self).unwrap()
        }
    }
}
