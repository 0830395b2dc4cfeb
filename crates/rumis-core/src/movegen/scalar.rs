//! The portable kernel, one template at a time.

use super::*;

/// The portable path. `SET`: writes every chunk's word and count before it, and returns
/// the number of placements; `COUNT`: only returns it; `ANY`: returns 1 at the first
/// legal placement, else 0.
pub(super) fn gen_scalar<const MODE: u8>(t: &GenTables, input: &GenInput, out: Out) -> u32 {
    let mut packed = [0u8; MAX_COLUMNS];
    pack(input, t.columns, &mut packed);
    let mut total = 0;
    for (j, (cd, m)) in t.chunks.iter().zip(&t.meta).enumerate() {
        let live = m.stones & input.left;
        let bits = if live == 0 {
            0
        } else {
            let valid = m.valid(live);
            match m.len {
                1 => chunk_scalar::<1>(cd, &packed, valid, input.first),
                2 => chunk_scalar::<2>(cd, &packed, valid, input.first),
                3 => chunk_scalar::<3>(cd, &packed, valid, input.first),
                _ => chunk_scalar::<4>(cd, &packed, valid, input.first),
            }
        };
        if MODE == ANY {
            if bits != 0 {
                return 1;
            }
        } else {
            if MODE == SET {
                out.words[j] = bits;
            }
            total += bits.count_ones();
        }
    }
    total
}

#[inline(always)]
pub(super) fn chunk_scalar<const L: usize>(cd: &ChunkData, packed: &[u8; MAX_COLUMNS], valid: u64, first: bool) -> u64 {
    let mut bits = 0;
    let mut v = valid;
    while v != 0 {
        let s = v.trailing_zeros() as usize & (CHUNK - 1);
        v &= v - 1;
        let v0 = packed[cd.col[0][s] as usize & (MAX_COLUMNS - 1)];
        let z = v0 & 0xf0;
        let lim = if first { 0 } else { cd.lim[s] };
        let mut r = (v0 & cd.mask[0][s]) | z.saturating_sub(lim);
        for i in 1..L {
            let vi = packed[cd.col[i][s] as usize & (MAX_COLUMNS - 1)];
            r |= vi.wrapping_sub(z.wrapping_add(cd.sub[i - 1][s])) & cd.mask[i][s];
        }
        bits |= ((r.wrapping_sub(1) < 15) as u64) << s;
    }
    bits
}
