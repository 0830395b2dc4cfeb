//! The API's answers and events as typed structs: what goes over the wire is what these
//! serialize to. The web app's TypeScript types are written from them (the module
//! `contract`, with the feature `contract`), and so are the schemas of the server's OpenAPI
//! document, `docs/server-openapi.yaml` (utoipa's `ToSchema`, same feature; the doc comments
//! become the descriptions; rumis-server's `routes/openapi.rs` writes the document).
//!
//! The server (`rumis-server`) and the engine in the browser (`rumis-wasm`) both answer in
//! these shapes, so the web app reads one shape from either; the answers that need no game
//! store — the boards, the stones, the solitaire — are built here from the core, once
//! ([`boards`], [`puzzle`]).

mod answers;
pub mod boards;
#[cfg(feature = "contract")]
pub mod contract;
mod events;
pub mod game;
mod lobby;
pub mod puzzle;
pub mod review;
pub mod training;
pub use answers::*;
pub use events::*;
pub use lobby::*;
pub use review::{GameReview, ReviewProgress, ReviewSummary, ReviewThresholds, ReviewedMove};
pub use training::{TrainingChange, TrainingPlacement, TrainingPuzzle, TrainingRating, TrainingResult};
