//! What the generator reads from a position, and the choice of kernel for a code path.

use super::*;

/// What the generator needs from a position for one colour.
#[derive(Clone, Copy)]
pub(crate) struct GenInput<'a> {
    pub heights: &'a [u8; MAX_COLUMNS],
    /// The contact masks to touch.
    pub touch: Touch<'a>,
    /// The colour's stones left.
    pub left: u16,
    /// The first stone of a later colour: rest on the board.
    pub first: bool,
}

/// Which cubes a placement must touch.
#[derive(Clone, Copy)]
pub(crate) enum Touch<'a> {
    /// Nothing: every placement touches (the first stone of the game).
    Nothing,
    /// The cubes of one kind: its contact mask per column.
    One(&'a [u16; MAX_COLUMNS]),
    /// Any cube: the contact masks of every kind, to be ORed.
    Any(&'a [[u16; MAX_COLUMNS]]),
}

/// The per-column bytes `h << 4 | window`, for the first `n` columns (the rest stay 0).
#[inline(always)]
pub(super) fn pack(input: &GenInput, n: usize, out: &mut [u8; MAX_COLUMNS]) {
    let n = n.min(MAX_COLUMNS);
    match input.touch {
        Touch::One(touch) => {
            for ((o, &h), &t) in out[..n].iter_mut().zip(&input.heights[..n]).zip(&touch[..n]) {
                *o = (h << 4) | ((t >> (h & 15)) & 15) as u8;
            }
        }
        Touch::Any(kinds) => {
            let mut any = [0u16; MAX_COLUMNS];
            for kind in kinds {
                for (a, &t) in any[..n].iter_mut().zip(&kind[..n]) {
                    *a |= t;
                }
            }
            for ((o, &h), &t) in out[..n].iter_mut().zip(&input.heights[..n]).zip(&any[..n]) {
                *o = (h << 4) | ((t >> (h & 15)) & 15) as u8;
            }
        }
        Touch::Nothing => {
            for (o, &h) in out[..n].iter_mut().zip(&input.heights[..n]) {
                *o = (h << 4) | 15;
            }
        }
    }
}

/// Kernel modes.
pub(super) const SET: u8 = 0;
pub(super) const COUNT: u8 = 1;
pub(super) const ANY: u8 = 2;

/// Where a kernel writes: per chunk its word, and (the AVX-512 kernels, on sites of at most
/// 32 chunks) the running count after it at `ends[j + 1]` (both empty for `ANY` and
/// `COUNT`).
pub(crate) struct Out<'a> {
    pub(super) words: &'a mut [u64],
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) ends: &'a mut [u16],
}

/// Fills `out` with the legal placements on `path` (which must be available); returns
/// their number.
#[inline]
pub(crate) fn generate(tables: &GenTables, input: &GenInput, path: CodePath, out: &mut MoveSet) -> usize {
    let n = tables.chunks.len();
    out.n = n;
    let o = Out {
        words: &mut out.words[..n],
        // Only the pick on at most 32 words reads them (`MoveSet::pick_slot_on`).
        ends: if n <= 32 { &mut out.ends[..=n] } else { &mut [] },
    };
    match path {
        // SAFETY: `path` is available on this CPU: `generate` is crate-private, and every
        // public way in (`Position::legal_set_with`, `perft_with`, `random_playout_with`,
        // `play_generate_with`, …) checks `CodePath::is_available` or uses
        // `CodePath::active`, which only yields available paths. The x86 functions read
        // `tables` and `input` within their bounds (chunks of `CHUNK` bytes, padded tables).
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { x86::gen_avx512::<SET>(tables, input, o) as usize },
        // SAFETY: as above, `path` (AVX2) is available on this CPU.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx2 => unsafe { x86::gen_avx2::<SET>(tables, input, o) as usize },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        CodePath::Simd128 => wasm::gen_simd128::<SET>(tables, input, o) as usize,
        _ => gen_scalar::<SET>(tables, input, o) as usize,
    }
}

/// Whether there is a legal placement.
pub(crate) fn any(tables: &GenTables, input: &GenInput, path: CodePath) -> bool {
    let o = Out {
        words: &mut [],
        ends: &mut [],
    };
    match path {
        // SAFETY: as in `generate`: `path` is available (crate-private, every public way
        // in checks it).
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { x86::gen_avx512::<ANY>(tables, input, o) != 0 },
        // SAFETY: as above, `path` (AVX2) is available on this CPU.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx2 => unsafe { x86::gen_avx2::<ANY>(tables, input, o) != 0 },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        CodePath::Simd128 => wasm::gen_simd128::<ANY>(tables, input, o) != 0,
        _ => gen_scalar::<ANY>(tables, input, o) != 0,
    }
}

/// The number of legal placements, without writing them.
#[inline]
pub(crate) fn count(tables: &GenTables, input: &GenInput, path: CodePath) -> usize {
    let o = Out {
        words: &mut [],
        ends: &mut [],
    };
    match path {
        // SAFETY: as in `generate`: `path` is available (crate-private, every public way
        // in checks it).
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx512 => unsafe { x86::gen_avx512::<COUNT>(tables, input, o) as usize },
        // SAFETY: as above, `path` (AVX2) is available on this CPU.
        #[cfg(target_arch = "x86_64")]
        CodePath::Avx2 => unsafe { x86::gen_avx2::<COUNT>(tables, input, o) as usize },
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        CodePath::Simd128 => wasm::gen_simd128::<COUNT>(tables, input, o) as usize,
        _ => gen_scalar::<COUNT>(tables, input, o) as usize,
    }
}

/// Whether [`generate_multi`] has a kernel for several games at once on `path` for these
/// tables: the AVX-512 path on boards of at most 32 columns (Chullpa and its kind). Elsewhere
/// a multi-game loop plays its games one by one.
#[inline]
pub(crate) fn has_multi(tables: &GenTables, path: CodePath) -> bool {
    cfg!(target_arch = "x86_64") && path == CodePath::Avx512 && tables.columns <= 32
}

/// [`generate`] for `K` games at once, into their sets; returns their counts (a game
/// without an input gets an empty set). Only where [`has_multi`] (and `path` is
/// available).
#[inline]
pub(crate) fn generate_multi<const K: usize>(
    tables: &GenTables,
    inputs: &[Option<GenInput>; K],
    path: CodePath,
    sets: &mut [MoveSet; K],
) -> [u32; K] {
    assert!(has_multi(tables, path));
    for set in sets.iter_mut() {
        set.n = tables.chunks.len();
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `path` is the AVX-512 path (asserted) and is available on this CPU: this
        // function is crate-private and its one caller, the multi-game playout loop, checks
        // `CodePath::is_available` at its entry. The tables have at most 32 columns
        // (asserted), as the `FOLD` kernel needs.
        unsafe { x86::gen_avx512_fold_multi::<K>(tables, inputs, sets) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = inputs;
        unreachable!("has_multi is false off x86-64")
    }
}
