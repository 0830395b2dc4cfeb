//! The WebAssembly SIMD path: the AVX2 kernel's lookups with `i8x16.swizzle`, a quarter
//! chunk (16 slots) per instruction. Compiled only into modules built with `simd128`
//! (`RUSTFLAGS="-C target-feature=+simd128"`), where every engine that loads the module
//! has the instructions, so these functions are safe to call.

use super::*;
use core::arch::wasm32::*;

/// Slots `16 q..16 q + 16` of a row (`q` is masked to 0-3).
#[inline(always)]
fn quarter(p: &[u8; CHUNK], q: usize) -> v128 {
    // SAFETY: (q & 3) * 16 + 16 <= CHUNK: 16 readable bytes.
    unsafe { v128_load(p.as_ptr().add((q & 3) * 16).cast()) }
}

/// A table lookup whose indices all lie in 0..16 or 128..256. In a module built with
/// relaxed SIMD (`+relaxed-simd`), `i8x16.relaxed_swizzle`: for such indices every
/// engine gives `swizzle`'s answer (the lane, or 0 from 128 on; only 16..128 may differ
/// between engines), and on x86 it is one `pshufb` where `swizzle` costs V8 two (it
/// first saturates the indices from 16 up into `pshufb`'s zeroing range). Chullpa's
/// random playouts in Chromium: 1.10× as fast.
#[cfg(target_feature = "relaxed-simd")]
#[inline(always)]
fn lut(table: v128, idx: v128) -> v128 {
    i8x16_relaxed_swizzle(table, idx)
}

/// [`lut`] in a module without relaxed SIMD.
#[cfg(not(target_feature = "relaxed-simd"))]
#[inline(always)]
fn lut(table: v128, idx: v128) -> v128 {
    i8x16_swizzle(table, idx)
}

/// Per stone index (0-15): 0x70 if the stone is live, else 0x7f (the AVX2 path's
/// `threshold_table`).
#[inline(always)]
fn threshold_table(left: u16) -> v128 {
    // Byte i: byte i / 8 of `left`, then its bit i % 8.
    let spread = lut(u16x8_splat(left), i8x16(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1));
    let bit = u64x2_splat(0x8040_2010_0804_0201);
    let live = i8x16_eq(v128_and(spread, bit), bit);
    v128_bitselect(u8x16_splat(0x70), u8x16_splat(0x7f), live)
}

/// [`super::pack`] with the windows of sixteen columns at once, where the colour has
/// cubes to touch (every move after each colour's first). LLVM vectorises the
/// portable loop's shift by each column's height, which WebAssembly SIMD lacks, into
/// a lane-by-lane extract and insert that V8 runs as such (6-7 % of Coricancha's
/// random playouts in Node). Here the shift is a multiplication: for a height `h` of
/// at most 12, `t << (12 - h)` puts bits `h..h + 4` of `t` at 12-15; above 12,
/// `(t >> 3) << (15 - h)` does.
#[inline(always)]
fn pack(input: &GenInput, n: usize, out: &mut [u8; MAX_COLUMNS]) {
    let Touch::One(touch) = input.touch else {
        return super::pack(input, n, out);
    };
    // The factors 1 << (12 - h), or 1 << (15 - h) above 12, as low and high bytes.
    const fn factor(h: usize) -> u16 {
        if h <= 12 {
            1 << (12 - h)
        } else {
            1 << (15 - h)
        }
    }
    const LOW: [u8; 16] = {
        let mut t = [0; 16];
        let mut h = 0;
        while h < 16 {
            t[h] = factor(h) as u8;
            h += 1;
        }
        t
    };
    const HIGH: [u8; 16] = {
        let mut t = [0; 16];
        let mut h = 0;
        while h < 16 {
            t[h] = (factor(h) >> 8) as u8;
            h += 1;
        }
        t
    };
    // SAFETY: 16-byte arrays.
    let (low, high) = unsafe { (v128_load(LOW.as_ptr().cast()), v128_load(HIGH.as_ptr().cast())) };
    let n = n.min(MAX_COLUMNS);
    let thirteen = u16x8_splat(13);
    let window = |t: v128, h: v128, f: v128| {
        let t = v128_bitselect(t, u16x8_shr(t, 3), i16x8_lt(h, thirteen));
        u16x8_shr(i16x8_mul(t, f), 12)
    };
    for g in 0..n.div_ceil(16).min(MAX_COLUMNS / 16) {
        // SAFETY: g < MAX_COLUMNS / 16, so 16 g + 16 <= MAX_COLUMNS: 16 heights (bytes)
        // and twice 8 contact masks (u16) readable, 16 bytes of `out` writable.
        unsafe {
            let h = v128_and(v128_load(input.heights.as_ptr().add(16 * g).cast()), u8x16_splat(15));
            let (fl, fh) = (lut(low, h), lut(high, h));
            let f0 = i8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(fl, fh);
            let f1 = i8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(fl, fh);
            let t0 = v128_load(touch.as_ptr().add(16 * g).cast());
            let t1 = v128_load(touch.as_ptr().add(16 * g + 8).cast());
            let w0 = window(t0, u16x8_extend_low_u8x16(h), f0);
            let w1 = window(t1, u16x8_extend_high_u8x16(h), f1);
            // Heights are at most 15, so shifting 16-bit lanes by 4 shifts each byte.
            let bytes = v128_or(i16x8_shl(h, 4), u8x16_narrow_i16x8(w0, w1));
            v128_store(out.as_mut_ptr().add(16 * g).cast(), bytes);
        }
    }
    // The portable loop leaves the columns past the board's at 0 (the caller's zeros).
    for o in &mut out[n..(n.div_ceil(16) * 16).min(MAX_COLUMNS)] {
        *o = 0;
    }
}

/// See [`super::gen_scalar`] for `MODE`.
pub(super) fn gen_simd128<const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
    // Twice the most columns, zeros past the board's: the based lookups below read up
    // to eight tables of 16 from any column.
    let mut packed = [0u8; 2 * MAX_COLUMNS];
    let (board, _) = packed.split_at_mut(MAX_COLUMNS);
    pack(input, t.columns, board.try_into().expect("MAX_COLUMNS bytes"));
    let packed = &packed;
    let table = |k: usize| {
        // SAFETY: k < 8, so 16 k + 16 <= MAX_COLUMNS (128): 16 readable bytes.
        unsafe { v128_load(packed.as_ptr().add((k & 7) * 16).cast()) }
    };
    if let Some(g) = &t.gather {
        // The two windows of 16 columns ([`lane_windows`](super::tables::lane_windows)): quarters 0 and 2 of a
        // chunk look up the first, 1 and 3 the second. A gather index of 0x80 is out
        // of range, which `swizzle` answers with 0.
        let (a, b) = (table(0), table(1));
        let win = |w: usize| {
            // SAFETY: each gather row has 32 bytes and w is 0 or 1.
            let (g0, g1) = unsafe {
                (
                    v128_load(g[0].as_ptr().add(16 * (w & 1)).cast()),
                    v128_load(g[1].as_ptr().add(16 * (w & 1)).cast()),
                )
            };
            v128_or(lut(a, g0), lut(b, g1))
        };
        return run::<2, true, false, MODE>(t, input, packed, [win(0), win(1)], out);
    }
    if t.columns <= 16 {
        return run::<1, false, false, MODE>(t, input, packed, [table(0)], out);
    }
    // More columns: each quarter's lookups start at its own base column
    // (`ChunkData::wbase`). Table k from there is looked up with the index minus 16 k,
    // which `swizzle` answers with 0 unless it lies in 0..16 (unlike `vpshufb`, no XOR
    // telescoping is needed), so the OR over the tables is the column's byte.
    if t.pairs {
        run::<0, false, true, MODE>(t, input, packed, [], out)
    } else {
        run::<0, false, false, MODE>(t, input, packed, [], out)
    }
}

/// One quarter's 16 bits (`range`'s kernel). `range` writes the four quarters out
/// rather than looping over them: V8 checks for interrupts at every loop's back edge
/// and kept the loop's running values in stack slots, and with `q` constant every
/// offset here is (Node, Coricancha 4p: random playouts 1.4-1.9× as fast).
#[inline(always)]
fn quarter_bits<const L: usize, const NT: usize, const WIN: bool, const PAIRS: bool>(
    cd: &ChunkData,
    packed: &[u8; 2 * MAX_COLUMNS],
    x: &[v128; NT],
    lim_row: usize,
    q: usize,
    [f0, bias, sixteen, threshold]: [v128; 4],
) -> u64 {
    // `lut`'s indices: a column's place in its window (0..16), a column of a board of
    // at most 16, a stone (0..16, padding `PAD_STONE`), a gather's (0..16 or 0x80).
    // The based lookups keep `swizzle`: theirs run past 16 (table k's minus 16 k).
    let look = |i: usize| {
        if WIN {
            return lut(x[q & 1], quarter(&cd.idx2[i], q));
        }
        if NT == 1 {
            return lut(x[0], quarter(&cd.col[i], q));
        }
        if PAIRS && !cd.wide[q & 3] {
            // Two windows (see `ChunkData::wpair`).
            let [a, b] = cd.wpair[i][q & 3];
            // SAFETY: a, b <= 127, so a + 16 and b + 16 <= packed's length (256).
            let (ta, tb) = unsafe {
                (
                    v128_load(packed.as_ptr().add(a as usize & 127).cast()),
                    v128_load(packed.as_ptr().add(b as usize & 127).cast()),
                )
            };
            return v128_or(lut(ta, quarter(&cd.wfirst[i], q)), lut(tb, quarter(&cd.wsecond[i], q)));
        }
        // The tables from this quarter's base column on (see `ChunkData::wbase`).
        let (base, n) = (cd.wbase[i][q & 3] as usize & 127, cd.wn[i][q & 3] as usize);
        let mut idx = quarter(&cd.widx[i], q);
        // SAFETY: base <= 127, so base + 16 <= packed's length (256).
        let mut r = i8x16_swizzle(unsafe { v128_load(packed.as_ptr().add(base).cast()) }, idx);
        for k in 1..n.min(8) {
            idx = i8x16_sub(idx, sixteen);
            // SAFETY: base + 16 k + 16 <= 127 + 128 = 255 < 256.
            let tab = unsafe { v128_load(packed.as_ptr().add(base + 16 * k).cast()) };
            r = v128_or(r, i8x16_swizzle(tab, idx));
        }
        r
    };
    let v0 = look(0);
    let z = v128_and(v0, f0);
    // A colour's first stone rests on the board: its limit row is `zero`.
    // SAFETY: lim_row is the offset of a CHUNK-byte row of ChunkData and
    // (q & 3) * 16 + 16 <= CHUNK: 16 readable bytes.
    let lim = unsafe { v128_load((cd as *const ChunkData).cast::<u8>().add(lim_row + (q & 3) * 16).cast()) };
    let mut r = v128_or(u8x16_sub_sat(z, lim), v128_and(v0, quarter(&cd.mask[0], q)));
    for i in 1..L {
        let v = look(i);
        let d = i8x16_sub(v, i8x16_add(z, quarter(&cd.sub[i - 1], q)));
        r = v128_or(r, v128_and(d, quarter(&cd.mask[i], q)));
    }
    // 1 <= r <= 15 exactly when r + 0x70 is above 0x70 as a signed byte (one
    // signed compare; an unsigned one costs V8 three instructions on x86).
    let ok = if NT == 0 {
        i8x16_gt(i8x16_add(r, bias), bias)
    } else {
        // Nothing is above 0x7f, the threshold of used stones and padding.
        i8x16_gt(i8x16_add(r, bias), lut(threshold, quarter(&cd.stone, q)))
    };
    (i8x16_bitmask(ok) as u64) << (16 * q)
}

/// Every chunk, by number of covered columns. `x`: the one table of a board of at most
/// 16 columns (`NT` = 1), the two windows (`WIN`), or none (`NT` = 0: the lookups read
/// `packed` from each quarter's base column).
#[inline(always)]
fn run<const NT: usize, const WIN: bool, const PAIRS: bool, const MODE: u8>(
    t: &GenTables,
    input: &GenInput,
    packed: &[u8; 2 * MAX_COLUMNS],
    x: [v128; NT],
    out: Out,
) -> u32 {
    debug_assert!(MODE != SET || out.words.len() == t.chunks.len());
    let mut total = 0;
    let mut out = out;
    let r = &t.by_len;
    if range::<1, NT, WIN, PAIRS, MODE>(t, input, packed, &x, r[0], r[1], &mut out, &mut total)
        || range::<2, NT, WIN, PAIRS, MODE>(t, input, packed, &x, r[1], r[2], &mut out, &mut total)
        || range::<3, NT, WIN, PAIRS, MODE>(t, input, packed, &x, r[2], r[3], &mut out, &mut total)
        || range::<4, NT, WIN, PAIRS, MODE>(t, input, packed, &x, r[3], r[4], &mut out, &mut total)
    {
        return 1;
    }
    total
}

/// Chunks `a..b`, whose templates cover `L` columns. With `ANY`, returns whether one
/// has a legal placement; otherwise writes their words (`SET`) and counts.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn range<const L: usize, const NT: usize, const WIN: bool, const PAIRS: bool, const MODE: u8>(
    t: &GenTables,
    input: &GenInput,
    packed: &[u8; 2 * MAX_COLUMNS],
    x: &[v128; NT],
    a: usize,
    b: usize,
    out: &mut Out,
    total: &mut u32,
) -> bool {
    let f0 = u8x16_splat(0xf0);
    let bias = u8x16_splat(0x70);
    let sixteen = u8x16_splat(16);
    let lim_row = ChunkData::lim_row(input.first);
    let threshold = threshold_table(input.left);
    let k = [f0, bias, sixteen, threshold];
    // Two ways to leave out the slots of used stones (and padding), each where it
    // measured faster in V8 (Node, random playouts): where a lookup is one `swizzle`
    // (the windows, or one table: Chullpa), the AVX2 path's threshold compare, and
    // quarters skipped by their stones (Chullpa's playouts 1.25-1.35× as fast as
    // with masking); with the based lookups (more than 32 columns: Coricancha),
    // whose quarters keep more vectors live, the threshold's vector cost more than it
    // saved, and the bits are masked with the slots of the live stones.
    for j in a..b {
        let bits = if NT == 0 {
            // SAFETY: j < by_len[4] == meta.len() == chunks.len() (`GenTables::new`).
            let (m, cd) = unsafe { (t.meta.get_unchecked(j), t.chunks.get_unchecked(j)) };
            let live = m.stones & input.left;
            // The slots of live stones (padding is in no stone's slots): quarters without
            // one are skipped, and the kernel's bits are masked with them.
            let valid = if live == 0 { 0 } else { m.valid(live) };
            let mut bits = 0u64;
            if valid & 0xffff != 0 {
                bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 0, k);
            }
            if valid & 0xffff_0000 != 0 {
                bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 1, k);
            }
            if valid & 0xffff_0000_0000 != 0 {
                bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 2, k);
            }
            if valid & 0xffff_0000_0000_0000 != 0 {
                bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 3, k);
            }
            bits & valid
        } else {
            // SAFETY: j < by_len[4] == chunks.len() (`GenTables::new`).
            let cd = unsafe { t.chunks.get_unchecked(j) };
            let left = input.left;
            let mut bits = 0u64;
            if cd.quarter_stones[0] & left != 0 {
                bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 0, k);
            }
            if cd.quarter_stones[1] & left != 0 {
                bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 1, k);
            }
            if cd.quarter_stones[2] & left != 0 {
                bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 2, k);
            }
            if cd.quarter_stones[3] & left != 0 {
                bits |= quarter_bits::<L, NT, WIN, PAIRS>(cd, packed, x, lim_row, 3, k);
            }
            bits
        };
        if MODE == ANY {
            if bits != 0 {
                return true;
            }
        } else {
            if MODE == SET {
                // SAFETY: j < chunks.len() == words.len() (see
                // `generate`).
                unsafe {
                    *out.words.get_unchecked_mut(j) = bits;
                }
            }
            *total += bits.count_ones();
        }
    }
    false
}
