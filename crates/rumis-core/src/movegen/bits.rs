//! Bit helpers over the slot bitsets: the `i`-th set bit, counts, masks.

use super::*;

/// [`GenTables::pick_in_words`], compiled for the caller's target features.
#[inline(always)]
pub(super) fn pick_in_words(t: &GenTables, words: &[u64], rng: &mut Rng) -> Option<Move> {
    let count: usize = words.iter().map(|w| w.count_ones() as usize).sum();
    if count == 0 {
        return None;
    }
    nth_in_words(t, words, rng.below(count))
}

/// [`GenTables::nth_in_words`], compiled for the caller's target features.
#[inline(always)]
pub(super) fn nth_in_words(t: &GenTables, words: &[u64], i: usize) -> Option<Move> {
    let (j, k) = word_and_rank(words, i)?;
    t.slot_template(j * CHUNK + select(words[j], k) as usize)
}

/// [`GenTables::mask_words`], compiled for the caller's target features.
#[inline(always)]
pub(super) fn mask_words(words: &[u64], mask: &[u64], out: &mut [u64]) -> usize {
    let mut count = 0;
    for ((o, w), m) in out.iter_mut().zip(words).zip(mask) {
        *o = w & m;
        count += o.count_ones() as usize;
    }
    count
}

/// The word of `words` holding their `i`-th set bit and the bit's rank in it, found by the
/// words' popcounts in order; `None` when there are `i` or fewer set bits. (The generator
/// stores only the words, one per chunk: a count per chunk beside them, for a binary
/// search here, cost more in stores than the search saved: issue #20.)
#[inline(always)]
pub(super) fn word_and_rank(words: &[u64], i: usize) -> Option<(usize, u32)> {
    let mut k = i;
    for (j, w) in words.iter().enumerate() {
        let c = w.count_ones() as usize;
        if k < c {
            return Some((j, k as u32));
        }
        k -= c;
    }
    None
}

/// The position of the `i`-th set bit of `w` (`i < popcount(w)`).
#[inline(always)]
pub(super) fn select(w: u64, i: u32) -> u32 {
    // Halve the window three times, without branches (keep the low part when the bit is
    // in it, else drop it and count its bits off), then look the byte up.
    let mut w = w;
    let mut i = i;
    let mut base = 0;
    for half in [32u32, 16, 8] {
        let low = (w & ((1u64 << half) - 1)).count_ones();
        let up = 0u32.wrapping_sub((i >= low) as u32);
        i -= low & up;
        w >>= half & up;
        base += half & up;
    }
    base + SELECT_IN_BYTE[(w & 0xff) as usize][(i & 7) as usize] as u32
}

/// `SELECT_IN_BYTE[b][i]`: the position of the `i`-th set bit of `b` (0 past the last).
pub(super) static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        let mut bit = 0;
        while bit < 8 {
            if b >> bit & 1 == 1 {
                t[b][i] = bit as u8;
                i += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};
