//! The x86-64 kernels (AVX-512 VBMI and AVX2), and the bit helpers compiled with POPCNT
//! and BMI2. The functions with `#[target_feature]` are callable only where the CPU has
//! those features (each call says why it does in its SAFETY comment).

use super::*;
use std::arch::x86_64::*;

/// [`GenTables::pick_in_words`] with POPCNT.
#[target_feature(enable = "popcnt")]
pub(super) fn pick_in_words_popcnt(t: &GenTables, words: &[u64], rng: &mut Rng) -> Option<Move> {
    super::pick_in_words(t, words, rng)
}

/// [`GenTables::nth_in_words`] with POPCNT.
#[target_feature(enable = "popcnt")]
pub(super) fn nth_in_words_popcnt(t: &GenTables, words: &[u64], i: usize) -> Option<Move> {
    super::nth_in_words(t, words, i)
}

/// [`GenTables::nth_in_words`] with POPCNT and the bit selected by `pdep`.
#[target_feature(enable = "popcnt,bmi2")]
pub(super) fn nth_in_words_bmi2(t: &GenTables, words: &[u64], i: usize) -> Option<Move> {
    let (j, k) = word_and_rank(words, i)?;
    t.slot_template(j * CHUNK + select_pdep(words[j], k) as usize)
}

/// The slot of the `i`-th set bit of `words[..n]` (`n <= 32`, `i` below their count),
/// given their running counts `ends` (`ends[j + 1]` the count in words `0..=j`, `ends[0]`
/// 0): the word is the number of running counts not above `i`, one comparison of all 32.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,popcnt,bmi2")]
pub(super) fn nth_slot_by_ends(words: &[u64; MAX_CHUNKS], ends: &[u16; MAX_CHUNKS + 1], n: usize, i: usize) -> usize {
    // SAFETY: `ends` has MAX_CHUNKS + 1 > 33 entries: 32 u16s (64 bytes) from entry 1.
    let after = unsafe { _mm512_loadu_si512(ends.as_ptr().add(1).cast()) };
    let lanes = _bzhi_u32(u32::MAX, n.min(32) as u32);
    let before = _mm512_mask_cmple_epu16_mask(lanes, after, _mm512_set1_epi16(i as u16 as i16));
    let j = before.count_ones() as usize;
    let k = i.wrapping_sub(usize::from(ends[j])) as u32;
    j * CHUNK + select_pdep(words[j], k) as usize
}

/// [`GenTables::mask_words`] with POPCNT.
#[target_feature(enable = "popcnt")]
pub(super) fn mask_words_popcnt(words: &[u64], mask: &[u64], out: &mut [u64]) -> usize {
    super::mask_words(words, mask, out)
}

/// The position of the `k`-th set bit of `w` (`k < popcount(w)`); callable where the
/// CPU has BMI2.
#[inline]
#[target_feature(enable = "bmi2")]
pub(super) fn select_pdep(w: u64, k: u32) -> u32 {
    _pdep_u64(1u64 << (k & 63), w).trailing_zeros()
}

/// Whether this CPU has BMI2 and runs `pdep` in hardware (a few cycles), so that the
/// AVX2 path's pick selects its bit with it too: every Intel CPU with BMI2 and AMD's
/// from Zen 3 (family 0x19) on. AMD's Zen 1 and 2 (family 0x17) and Hygon's (0x18) run
/// it in microcode, tens of cycles a set bit, where the table select is far cheaper.
/// (Every CPU with AVX-512 VBMI has a fast one: that path always uses it.)
pub(super) fn fast_pdep() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        if !std::arch::is_x86_feature_detected!("bmi2") {
            return false;
        }
        // SAFETY: CPUID exists on every x86-64 CPU; leaves 0 and 1 always do.
        #[allow(unused_unsafe)]
        let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1)) };
        // "AuthenticAMD" and "HygonGenuine" begin "Auth" and "Hygo" (in EBX).
        let zen_like = vendor.ebx == u32::from_le_bytes(*b"Auth") || vendor.ebx == u32::from_le_bytes(*b"Hygo");
        let base = signature.eax >> 8 & 0xf;
        let family = if base == 0xf {
            base + (signature.eax >> 20 & 0xff)
        } else {
            base
        };
        !(zen_like && family < 0x19)
    })
}

/// Per stone index (0-15): 0xff if the stone is live.
#[inline]
#[target_feature(enable = "sse2")]
fn live_table(left: u16) -> __m128i {
    let l = _mm_set1_epi16(left as i16);
    let lo = _mm_setr_epi16(1, 2, 4, 8, 16, 32, 64, 128);
    let hi = _mm_setr_epi16(256, 512, 1024, 2048, 4096, 8192, 16384, i16::MIN);
    let a = _mm_cmpeq_epi16(_mm_and_si128(l, lo), lo);
    let b = _mm_cmpeq_epi16(_mm_and_si128(l, hi), hi);
    _mm_packs_epi16(a, b)
}

/// Per stone index (0-15), in both 128-bit lanes: 0x70 if the stone is live, else 0x7f.
#[inline]
#[target_feature(enable = "avx2")]
fn threshold_table(left: u16) -> __m256i {
    // Byte i of each lane: byte i / 8 of `left`, then its bit i % 8.
    let spread = _mm256_shuffle_epi8(
        _mm256_set1_epi16(left as i16),
        _mm256_setr_epi8(
            0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,
        ),
    );
    let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    let live = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
    _mm256_blendv_epi8(_mm256_set1_epi8(0x7f), _mm256_set1_epi8(0x70), live)
}

/// The packed bytes `h << 4 | window` of columns `base..base + 64` (`base` is 0 or 64),
/// computing only the first `halves` groups of 32 columns (the rest are 0).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn pack64(input: &GenInput, base: usize, halves: usize) -> __m512i {
    // One 64-byte load, as the AVX-512 placement stores them.
    let base = base.min(MAX_COLUMNS - 64);
    // SAFETY: `heights` has MAX_COLUMNS (128) bytes and base <= 64: 64 readable bytes.
    let heights = unsafe { _mm512_loadu_si512(input.heights.as_ptr().add(base).cast()) };
    let half = |off: usize| {
        let at = base + off;
        let h = _mm512_cvtepu8_epi16(if off == 0 {
            _mm512_castsi512_si256(heights)
        } else {
            _mm512_extracti64x4_epi64::<1>(heights)
        });
        // SAFETY: a contact-mask row has MAX_COLUMNS (128) u16s and at <= 96: 32
        // readable u16s (64 bytes).
        let load = |t: &[u16; MAX_COLUMNS]| unsafe { _mm512_loadu_si512(t.as_ptr().add(at).cast()) };
        let fifteen = _mm512_set1_epi16(15);
        let w = match input.touch {
            Touch::Nothing => fifteen,
            Touch::One(t) => _mm512_and_si512(_mm512_srlv_epi16(load(t), h), fifteen),
            Touch::Any(kinds) => {
                let any = kinds
                    .iter()
                    .fold(_mm512_setzero_si512(), |a, t| _mm512_or_si512(a, load(t)));
                _mm512_and_si512(_mm512_srlv_epi16(any, h), fifteen)
            }
        };
        _mm512_cvtepi16_epi8(_mm512_or_si512(_mm512_slli_epi16::<4>(h), w))
    };
    let lo = if halves > 0 { half(0) } else { _mm256_setzero_si256() };
    let hi = if halves > 1 { half(32) } else { _mm256_setzero_si256() };
    _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi)
}

/// The packed bytes of columns `base..base + 16` (`base` <= 112).
#[inline]
#[target_feature(enable = "avx2")]
fn pack16(input: &GenInput, base: usize) -> __m128i {
    let base = base.min(MAX_COLUMNS - 16);
    // Heights are at most 15; saying so lets the compiler use `vpsrlvd` as it is
    // (otherwise it guards against shift counts of 32 and more).
    // SAFETY: `heights` has MAX_COLUMNS bytes and base <= MAX_COLUMNS - 16.
    let raw = unsafe { _mm_loadu_si128(input.heights.as_ptr().add(base).cast()) };
    let h = _mm_and_si128(raw, _mm_set1_epi8(15));
    let ha = _mm256_cvtepu8_epi32(h);
    let hb = _mm256_cvtepu8_epi32(_mm_srli_si128::<8>(h));
    let load = |t: &[u16; MAX_COLUMNS], off: usize| {
        // SAFETY: off is 0 or 8 and base <= MAX_COLUMNS - 16: 8 readable u16s.
        _mm256_cvtepu16_epi32(unsafe { _mm_loadu_si128(t.as_ptr().add(base + off).cast()) })
    };
    let fifteen = _mm256_set1_epi32(15);
    let (wa, wb) = match input.touch {
        Touch::Nothing => (fifteen, fifteen),
        Touch::One(t) => (
            _mm256_and_si256(_mm256_srlv_epi32(load(t, 0), ha), fifteen),
            _mm256_and_si256(_mm256_srlv_epi32(load(t, 8), hb), fifteen),
        ),
        Touch::Any(kinds) => {
            let a = kinds
                .iter()
                .fold(_mm256_setzero_si256(), |a, t| _mm256_or_si256(a, load(t, 0)));
            let b = kinds
                .iter()
                .fold(_mm256_setzero_si256(), |a, t| _mm256_or_si256(a, load(t, 8)));
            (
                _mm256_and_si256(_mm256_srlv_epi32(a, ha), fifteen),
                _mm256_and_si256(_mm256_srlv_epi32(b, hb), fifteen),
            )
        }
    };
    let a = _mm256_or_si256(_mm256_slli_epi32::<4>(ha), wa);
    let b = _mm256_or_si256(_mm256_slli_epi32::<4>(hb), wb);
    // u32 -> u16: per 128-bit lane [a0-3 b0-3 | a4-7 b4-7]; reorder to [a0-7 | b0-7].
    let p = _mm256_permute4x64_epi64::<0xd8>(_mm256_packus_epi32(a, b));
    _mm_packus_epi16(_mm256_castsi256_si128(p), _mm256_extracti128_si256::<1>(p))
}

#[inline]
#[target_feature(enable = "avx512f")]
fn load512(p: &[u8; CHUNK]) -> __m512i {
    // SAFETY: `p` is CHUNK = 64 readable bytes.
    unsafe { _mm512_loadu_si512(p.as_ptr().cast()) }
}

/// The AVX-512 VBMI path (see [`super::gen_scalar`] for `MODE`); callable (with
/// `unsafe`) only where the CPU has AVX-512 F, BW and VBMI. Every memory access is to
/// fixed-size arrays within their bounds; `vpermb` and `vpshufb` read no memory,
/// whatever the index bytes hold.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) fn gen_avx512<const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
    if t.columns > 64 {
        gen_avx512_inner::<WIDE, MODE>(t, input, out)
    } else if t.columns > 32 {
        gen_avx512_inner::<PLAIN, MODE>(t, input, out)
    } else {
        gen_avx512_inner::<FOLD, MODE>(t, input, out)
    }
}

/// How `range512` looks the columns up. `PLAIN`: one `vpermb` into the 64 packed
/// bytes, then the entry's offset subtracted. `WIDE` (65-128 columns): `vpermi2b` into
/// 128 bytes, then the offset. `FOLD` (at most 32 columns): the anchor by `vpermb` as
/// in `PLAIN`; entries 1-3 by `vpermi2b` into four copies of the 32 packed bytes, copy
/// `b` lowered by `b << 4`, at `ChunkData::fold` (column + 32 b). The same bytes come
/// out as `PLAIN`'s after its subtraction; a chunk saves a load and an add an entry,
/// and loads are what a chunk waits on (on Zen 4 a 64-byte load takes the cycle's
/// load bandwidth).
const PLAIN: u8 = 0;
const WIDE: u8 = 1;
const FOLD: u8 = 2;

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
fn gen_avx512_inner<const LOOK: u8, const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
    debug_assert!(MODE != SET || out.words.len() == t.chunks.len());
    // Built in registers: a wide load of bytes just stored one by one would wait for
    // the stores.
    let halves = t.columns.div_ceil(32);
    let (lo, hi) = match LOOK {
        WIDE => (pack64(input, 0, halves), pack64(input, 64, halves - 2)),
        PLAIN => (pack64(input, 0, halves), _mm512_setzero_si512()),
        _ => {
            // Columns 0-31 in both halves, then the four copies: b = 0, 1 in `lo`,
            // b = 2, 3 in `hi`.
            let p = pack64(input, 0, 1);
            let p = _mm512_shuffle_i64x2::<0x44>(p, p);
            let step = _mm512_inserti64x4::<1>(_mm512_setzero_si512(), _mm256_set1_epi8(0x10));
            let lo = _mm512_sub_epi8(p, step);
            let hi = _mm512_sub_epi8(lo, _mm512_set1_epi8(0x20));
            (lo, hi)
        }
    };
    let k = Ctx512 {
        lo,
        hi,
        live: _mm512_broadcast_i32x4(live_table(input.left)),
        lim_row: ChunkData::lim_row(input.first),
        left: input.left,
    };
    let mut total = 0;
    let mut out = out;
    let r = &t.by_len;
    if range512::<1, LOOK, MODE>(t, &k, r[0], r[1], &mut out, &mut total)
        || range512::<2, LOOK, MODE>(t, &k, r[1], r[2], &mut out, &mut total)
        || range512::<3, LOOK, MODE>(t, &k, r[2], r[3], &mut out, &mut total)
        || range512::<4, LOOK, MODE>(t, &k, r[3], r[4], &mut out, &mut total)
    {
        return 1;
    }
    total
}

struct Ctx512 {
    lo: __m512i,
    hi: __m512i,
    live: __m512i,
    lim_row: usize,
    left: u16,
}

/// Chunks `a..b`, whose templates cover `L` columns. With `ANY`, returns whether one
/// has a legal placement; otherwise writes their words and returns false.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
fn range512<const L: usize, const LOOK: u8, const MODE: u8>(
    t: &GenTables,
    k: &Ctx512,
    a: usize,
    b: usize,
    out: &mut Out,
    total: &mut u32,
) -> bool {
    let f0 = _mm512_set1_epi8(0xf0u8 as i8);
    let one = _mm512_set1_epi8(1);
    let fifteen = _mm512_set1_epi8(15);
    for j in a..b {
        // SAFETY: j < by_len[4] == meta.len() == chunks.len() (`GenTables::new`).
        let m = unsafe { t.meta.get_unchecked(j) };
        if m.stones & k.left == 0 {
            if MODE == SET {
                // SAFETY: j < chunks.len() == words.len() (see
                // `generate`).
                unsafe {
                    *out.words.get_unchecked_mut(j) = 0;
                }
                if let Some(end) = out.ends.get_mut(j + 1) {
                    *end = *total as u16;
                }
            }
            continue;
        }
        // SAFETY: j < by_len[4] == chunks.len().
        let cd = unsafe { t.chunks.get_unchecked(j) };
        let look = |i: usize| {
            let idx = load512(&cd.col[i]);
            if LOOK == WIDE {
                _mm512_permutex2var_epi8(k.lo, idx, k.hi)
            } else {
                _mm512_permutexvar_epi8(idx, k.lo)
            }
        };
        let v0 = look(0);
        let z = _mm512_and_si512(v0, f0);
        // SAFETY: lim_row is the offset of a 64-byte row of ChunkData.
        let lim = unsafe { _mm512_loadu_si512((cd as *const ChunkData).cast::<u8>().add(k.lim_row).cast()) };
        let mut r = _mm512_ternarylogic_epi32::<0xf8>(_mm512_subs_epu8(z, lim), v0, load512(&cd.mask[0]));
        for i in 1..L {
            // The entry's byte less its offset (`sub`), as `FOLD` looks it up already.
            let lowered = if LOOK == FOLD {
                _mm512_permutex2var_epi8(k.lo, load512(&cd.fold[i - 1]), k.hi)
            } else {
                _mm512_sub_epi8(look(i), load512(&cd.sub[i - 1]))
            };
            let d = _mm512_sub_epi8(lowered, z);
            r = _mm512_ternarylogic_epi32::<0xf8>(r, d, load512(&cd.mask[i]));
        }
        let valid = _mm512_movepi8_mask(_mm512_shuffle_epi8(k.live, load512(&cd.stone)));
        let bits = _mm512_mask_cmplt_epu8_mask(valid, _mm512_sub_epi8(r, one), fifteen);
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
            if MODE == SET {
                if let Some(end) = out.ends.get_mut(j + 1) {
                    *end = *total as u16;
                }
            }
        }
    }
    false
}

/// The AVX2 path (see [`super::gen_scalar`] for `MODE`); callable (with `unsafe`)
/// only where the CPU has AVX2. Every memory access is to fixed-size arrays within
/// their bounds; `vpshufb` reads no memory.
#[target_feature(enable = "avx2,popcnt")]
pub(super) fn gen_avx2<const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
    if t.gather.is_some() {
        return gen_avx2_inner::<1, true, MODE>(t, input, out);
    }
    match t.columns.div_ceil(16) {
        0 | 1 => gen_avx2_inner::<1, false, MODE>(t, input, out),
        2 => gen_avx2_inner::<2, false, MODE>(t, input, out),
        3 => gen_avx2_inner::<3, false, MODE>(t, input, out),
        4 => gen_avx2_inner::<4, false, MODE>(t, input, out),
        5 => gen_avx2_inner::<5, false, MODE>(t, input, out),
        6 => gen_avx2_inner::<6, false, MODE>(t, input, out),
        7 => gen_avx2_inner::<7, false, MODE>(t, input, out),
        _ => gen_avx2_inner::<8, false, MODE>(t, input, out),
    }
}

#[inline]
#[target_feature(enable = "avx")]
fn load256(p: &[u8; CHUNK], half: usize) -> __m256i {
    // SAFETY: half is 0 or 1 (masked so): 32 readable bytes of the 64 at `p`.
    unsafe { _mm256_loadu_si256(p.as_ptr().add((half & 1) * 32).cast()) }
}

/// `NT` sub-tables of 16 columns. Sub-table `t` is stored XORed with sub-table `t - 1`,
/// and looked up with the index minus `16 t`: `vpshufb` gives 0 where that is negative
/// (bit 7 set), so the XOR of all lookups telescopes to the right entry. With `WIN`
/// (and `NT` = 1), one table holds the site's two windows of 16 columns, one per
/// 128-bit lane, and is looked up with `idx2` ([`lane_windows`](super::tables::lane_windows)).
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn gen_avx2_inner<const NT: usize, const WIN: bool, const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
    debug_assert!(MODE != SET || out.words.len() == t.chunks.len());
    let mut x = [_mm256_setzero_si256(); NT];
    if WIN {
        // `gen_avx2` takes WIN only when `t.gather` is Some (one branch per generation).
        let Some(g) = t.gather.as_ref() else { return 0 };
        let a = _mm256_broadcastsi128_si256(pack16(input, 0));
        let b = _mm256_broadcastsi128_si256(pack16(input, 16));
        // SAFETY: each gather row is 32 bytes.
        let (g0, g1) = unsafe {
            (
                _mm256_loadu_si256(g[0].as_ptr().cast()),
                _mm256_loadu_si256(g[1].as_ptr().cast()),
            )
        };
        x[0] = _mm256_or_si256(_mm256_shuffle_epi8(a, g0), _mm256_shuffle_epi8(b, g1));
    } else {
        let mut prev = _mm_setzero_si128();
        for (k, xk) in x.iter_mut().enumerate() {
            let tab = pack16(input, 16 * k);
            *xk = _mm256_broadcastsi128_si256(_mm_xor_si128(tab, prev));
            prev = tab;
        }
    }
    let k = Ctx256 {
        x,
        threshold: threshold_table(input.left),
        lim_row: ChunkData::lim_row(input.first),
        left: input.left,
        every_half: input.left.count_ones() >= EVERY_HALF_FROM,
    };
    let mut total = 0;
    let mut out = out;
    let r = &t.by_len;
    if range256::<1, NT, WIN, MODE>(t, &k, r[0], r[1], &mut out, &mut total)
        || range256::<2, NT, WIN, MODE>(t, &k, r[1], r[2], &mut out, &mut total)
        || range256::<3, NT, WIN, MODE>(t, &k, r[2], r[3], &mut out, &mut total)
        || range256::<4, NT, WIN, MODE>(t, &k, r[3], r[4], &mut out, &mut total)
    {
        return 1;
    }
    total
}

struct Ctx256<const NT: usize> {
    x: [__m256i; NT],
    threshold: __m256i,
    lim_row: usize,
    left: u16,
    /// Whether the colour has [`EVERY_HALF_FROM`] stones or more left: then, with one
    /// table, every half is computed instead of tested for live stones.
    every_half: bool,
}

/// With one table (a board of at most 16 columns, or Chullpa's two windows) a half
/// costs one `vpshufb` a column, less than the tests' mispredictions: which halves are
/// live changes with each stone a colour places, and the colours take turns, so the
/// tests miss several times a generation. While a colour has most of its stones, few
/// of its halves are dead and computing them all costs little; with few stones left
/// most are dead, and the tests pay again. From six stones (of 11) on, computing all
/// was 3-8 % faster on every such board (in-process A/B; compute all to the end: about
/// as fast, 14 % more instructions). With two tables or more a half costs two or more
/// lookups a column and the tests pay throughout (docs/performance.md, "The half tests").
const EVERY_HALF_FROM: u32 = 6;

/// As [`range512`], 32 templates per instruction.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
fn range256<const L: usize, const NT: usize, const WIN: bool, const MODE: u8>(
    t: &GenTables,
    k: &Ctx256<NT>,
    a: usize,
    b: usize,
    out: &mut Out,
    total: &mut u32,
) -> bool {
    let f0 = _mm256_set1_epi8(0xf0u8 as i8);
    let bias = _mm256_set1_epi8(0x70);
    let sixteen = _mm256_set1_epi8(16);
    for j in a..b {
        // With tests, only the halves are tested: a chunk whose stones are all used costs
        // two tests and the stores, one with live stones two tests fewer than with a
        // chunk test.
        // SAFETY: j < by_len[4] == chunks.len() (`GenTables::new`).
        let cd = unsafe { t.chunks.get_unchecked(j) };
        let half = |half: usize| {
            let look = |i: usize| {
                if WIN {
                    return _mm256_shuffle_epi8(k.x[0], load256(&cd.idx2[i], half));
                }
                let mut r = _mm256_shuffle_epi8(k.x[0], load256(&cd.col[i], half));
                if NT > 1 {
                    let mut idx = load256(&cd.idx2[i], half);
                    r = _mm256_xor_si256(r, _mm256_shuffle_epi8(k.x[1], idx));
                    for xk in &k.x[2..] {
                        idx = _mm256_sub_epi8(idx, sixteen);
                        r = _mm256_xor_si256(r, _mm256_shuffle_epi8(*xk, idx));
                    }
                }
                r
            };
            let v0 = look(0);
            let z = _mm256_and_si256(v0, f0);
            // SAFETY: lim_row is the offset of a 64-byte row of ChunkData and half is 0
            // or 1: 32 readable bytes.
            let lim =
                unsafe { _mm256_loadu_si256((cd as *const ChunkData).cast::<u8>().add(k.lim_row + 32 * half).cast()) };
            let mut r = _mm256_or_si256(
                _mm256_subs_epu8(z, lim),
                _mm256_and_si256(v0, load256(&cd.mask[0], half)),
            );
            for i in 1..L {
                let v = look(i);
                let d = _mm256_sub_epi8(v, _mm256_add_epi8(z, load256(&cd.sub[i - 1], half)));
                r = _mm256_or_si256(r, _mm256_and_si256(d, load256(&cd.mask[i], half)));
            }
            // 1 <= r <= 15 exactly when r + 0x70 is above 0x70 as a signed byte; nothing
            // is above 0x7f, the threshold of used stones and padding.
            let ok = _mm256_cmpgt_epi8(
                _mm256_add_epi8(r, bias),
                _mm256_shuffle_epi8(k.threshold, load256(&cd.stone, half)),
            );
            _mm256_movemask_epi8(ok) as u32 as u64
        };
        // See `Ctx256::every_half`. Computed anyway, a half of used stones gives no
        // bits (their threshold).
        let bits = if NT == 1 && k.every_half {
            half(0) | half(1) << 32
        } else {
            let lo = if cd.half_stones[0] & k.left != 0 { half(0) } else { 0 };
            let hi = if cd.half_stones[1] & k.left != 0 { half(1) } else { 0 };
            lo | hi << 32
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

/// The AVX-512 `FOLD` kernel (boards of at most 32 columns) for `K` games at once, the
/// set mode: each game's words into its set (the site's chunk count of them; the caller
/// sets the count of words), and its count returned (none for a game without an input). The games share the chunks' loads (the indices, the masks, the
/// stones), and their chains of chunks run side by side inside one loop, where one
/// game's chain of generation, pick and placement leaves the core idle. A chunk is
/// computed for the games to which one of its stones is left. The same bits as
/// [`gen_avx512`] for each game. Callable (with `unsafe`) only where the CPU has
/// AVX-512 F, BW and VBMI, for tables of at most 32 columns.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
pub(super) fn gen_avx512_fold_multi<const K: usize>(
    t: &GenTables,
    inputs: &[Option<GenInput>; K],
    sets: &mut [MoveSet; K],
) -> [u32; K] {
    debug_assert!(t.columns <= 32);
    // The words written are those of chunks 0..chunks.len() (`range512_multi`).
    assert!(t.chunks.len() <= MAX_CHUNKS);
    let step = _mm512_inserti64x4::<1>(_mm512_setzero_si512(), _mm256_set1_epi8(0x10));
    let mut lo = [_mm512_setzero_si512(); K];
    let mut hi = [_mm512_setzero_si512(); K];
    let mut live = [_mm512_setzero_si512(); K];
    // Per game: all ones where the limit row applies, none for a colour's first stone
    // (its limit is 0: the zero row, which `subs` with the mask off gives).
    let mut keep = [0u64; K];
    let mut lefts = [0u16; K];
    for g in 0..K {
        // A game without an input keeps zeros: no stone left, so no bits.
        let Some(input) = &inputs[g] else { continue };
        // As `gen_avx512_inner`'s `FOLD`: columns 0-31 in both halves, then the copies.
        let p = pack64(input, 0, 1);
        let p = _mm512_shuffle_i64x2::<0x44>(p, p);
        lo[g] = _mm512_sub_epi8(p, step);
        hi[g] = _mm512_sub_epi8(lo[g], _mm512_set1_epi8(0x20));
        live[g] = _mm512_broadcast_i32x4(live_table(input.left));
        keep[g] = if input.first { 0 } else { u64::MAX };
        lefts[g] = input.left;
    }
    let k = CtxMulti {
        lo,
        hi,
        live,
        keep,
        lefts,
    };
    let mut total = [0u32; K];
    let r = &t.by_len;
    range512_multi::<1, K>(t, &k, r[0], r[1], sets, &mut total);
    range512_multi::<2, K>(t, &k, r[1], r[2], sets, &mut total);
    range512_multi::<3, K>(t, &k, r[2], r[3], sets, &mut total);
    range512_multi::<4, K>(t, &k, r[3], r[4], sets, &mut total);
    total
}

struct CtxMulti<const K: usize> {
    lo: [__m512i; K],
    hi: [__m512i; K],
    live: [__m512i; K],
    keep: [u64; K],
    lefts: [u16; K],
}

/// [`range512`] (`FOLD`, set mode) for `K` games. A chunk is skipped when none of its
/// stones is left to any of the games, and computed for all of them otherwise (a game to
/// which its stones are used gets no bits from it: the live table). Computing it only for
/// the games it is live to (a branch per game and chunk) was slower: the branches
/// mispredict more than the chunks saved cost.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
fn range512_multi<const L: usize, const K: usize>(
    t: &GenTables,
    k: &CtxMulti<K>,
    a: usize,
    b: usize,
    sets: &mut [MoveSet; K],
    total: &mut [u32; K],
) {
    let left = k.lefts.iter().fold(0, |a, l| a | l);
    for j in a..b.min(t.chunks.len()).min(t.meta.len()) {
        let bits = if t.meta[j].stones & left == 0 {
            [0; K]
        } else {
            chunk_multi::<L, K, K>(&t.chunks[j], k, std::array::from_fn(|g| g))
        };
        for g in 0..K {
            // SAFETY: j < chunks.len() <= MAX_CHUNKS, the words of a set (asserted in
            // `gen_avx512_fold_multi`).
            unsafe { *sets[g].words.get_unchecked_mut(j) = bits[g] };
            total[g] += bits[g].count_ones();
            // j < chunks.len() <= MAX_CHUNKS: entry j + 1 of `ends` exists.
            sets[g].ends[j + 1] = total[g] as u16;
        }
    }
}

/// One chunk's words for the games `games` of `k` (each below `K`), the loads of the
/// chunk's rows shared.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,popcnt")]
fn chunk_multi<const L: usize, const K: usize, const N: usize>(
    cd: &ChunkData,
    k: &CtxMulti<K>,
    games: [usize; N],
) -> [u64; N] {
    let f0 = _mm512_set1_epi8(0xf0u8 as i8);
    let one = _mm512_set1_epi8(1);
    let fifteen = _mm512_set1_epi8(15);
    let games = games.map(|g| g.min(K - 1));
    let idx = load512(&cd.col[0]);
    let lim = load512(&cd.lim);
    let mask = load512(&cd.mask[0]);
    let mut z = [_mm512_setzero_si512(); N];
    let mut r = [_mm512_setzero_si512(); N];
    for (n, &g) in games.iter().enumerate() {
        let v0 = _mm512_permutexvar_epi8(idx, k.lo[g]);
        z[n] = _mm512_and_si512(v0, f0);
        let over = _mm512_mask_subs_epu8(z[n], k.keep[g], z[n], lim);
        r[n] = _mm512_ternarylogic_epi32::<0xf8>(over, v0, mask);
    }
    for i in 1..L {
        let fold = load512(&cd.fold[i - 1]);
        let mask = load512(&cd.mask[i]);
        for (n, &g) in games.iter().enumerate() {
            let lowered = _mm512_permutex2var_epi8(k.lo[g], fold, k.hi[g]);
            let d = _mm512_sub_epi8(lowered, z[n]);
            r[n] = _mm512_ternarylogic_epi32::<0xf8>(r[n], d, mask);
        }
    }
    let stone = load512(&cd.stone);
    let mut bits = [0u64; N];
    for (n, &g) in games.iter().enumerate() {
        let valid = _mm512_movepi8_mask(_mm512_shuffle_epi8(k.live[g], stone));
        bits[n] = _mm512_mask_cmplt_epu8_mask(valid, _mm512_sub_epi8(r[n], one), fifteen);
    }
    bits
}
