//! The fast legal-move generator: every template of a site tested at once, 64 per step.
//!
//! Columns are solid stacks, so whether a template fits depends only on one byte per
//! covered column: `h << 4 | w`, the column's height and a 4-bit window of the contact mask
//! of the colour that needs touching (`w` bit i set when the cell i levels above the top
//! shares a face with a cube of that colour). With `z = h[anchor] << 4`, a template fits iff
//!
//! ```text
//! r = (v[anchor] & kmask[anchor]) | sat_sub(z, zmax << 4)
//!   | OR over the other entries ((v[i] - (z + b[i] << 4)) & (0xf0 | kmask[i]))
//! ```
//!
//! lies in `1..=15`: a high nibble of zero says every column is at the height the stone
//! needs and the base is under the limit, a low nibble that is not zero says the cubes
//! touch. The first stone of a later colour uses the "any cube" mask and a limit of 0 (it
//! rests on the board); the first stone of the game uses a window of all ones.
//!
//! The site orders its templates into *chunks* of 64 slots, by number of covered columns
//! then by stone ([`GenTables`]), so a chunk does only the lookups it needs and a chunk whose
//! stones are all used is skipped. A legal-move set ([`MoveSet`]) is a bitset over these
//! slots; the site maps a slot to its template id and back.
//!
//! Four code paths compute the same bits: AVX-512 VBMI (`vpermb` holds the whole per-column
//! table of up to 128 columns in registers), AVX2 (`vpshufb` over 16-column sub-tables),
//! WebAssembly SIMD (`i8x16.swizzle` over the same sub-tables, 16 templates per
//! instruction) and a portable scalar loop. The widest one the CPU has is chosen at run
//! time ([`CodePath::active`]); on WebAssembly there is no run-time detection — a module
//! either is compiled with `simd128` (and then only an engine with SIMD can load it at all)
//! or has only the scalar path, so the web app builds modules of each (and one with
//! relaxed SIMD too) and picks one; the environment variable `RUMIS_CODE_PATH` (`avx512`, `avx2`,
//! `scalar`) forces a narrower one, e.g. to run under valgrind, which cannot run AVX-512:
//! the paths wider than it named then count as unavailable for the whole process.
//!
//! # Soundness
//! Running an AVX-512 or AVX2 path on a CPU without those instructions is undefined
//! behaviour (the WebAssembly SIMD path exists only in modules compiled with `simd128`), so a [`CodePath`] value alone proves nothing: every public function that
//! takes one (`Position::legal_set_with`, `Position::play_generate_with`, `perft_with`,
//! `random_playout_with`, `random_playout_in_place`) checks [`CodePath::is_available`]
//! first and refuses with [`CodePathUnavailable`], changing nothing. The crate's own loops
//! check once at their entry and pass the checked path down to crate-private functions.
//!
//! # Files
//! `code_path.rs` chooses the path; `tables.rs` lays the templates out ([`GenTables`]);
//! `generate.rs` packs a position's columns and calls a kernel: `scalar.rs`, `x86.rs`
//! (AVX-512, AVX2) or `wasm.rs` (`simd128`); `move_set.rs` holds the answer ([`MoveSet`])
//! and `bits.rs` the bit helpers for picking from it.

use std::fmt;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::board::MAX_COLUMNS;
use crate::rng::Rng;
use crate::stone::STONE_COUNT;
use crate::template::{Move, Template};

mod bits;
mod code_path;
mod generate;
mod move_set;
mod scalar;
mod tables;
#[cfg(test)]
mod tests;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use code_path::{CodePath, CodePathUnavailable};
pub(crate) use generate::{any, count, generate, generate_multi, has_multi, GenInput, Touch};
pub use move_set::MoveSet;
pub use tables::GenTables;
pub(crate) use tables::Placing;
#[cfg(target_arch = "x86_64")]
pub(crate) use tables::SlotDelta;

// The modules' shared internals, which each of them imports with `use super::*`.
#[cfg(target_arch = "x86_64")]
use bits::word_and_rank;
use bits::{mask_words, nth_in_words, pick_in_words, select};
use generate::{pack, Out, ANY, SET};
use scalar::gen_scalar;
use tables::ChunkData;

/// Templates per chunk (one bit each in a `u64`).
pub const CHUNK: usize = 64;

/// The most chunks a site can have: 104 orientations at up to 128 shifts, plus one
/// partly filled chunk per number of covered columns.
pub const MAX_CHUNKS: usize = (104 * MAX_COLUMNS).div_ceil(CHUNK) + 4;
