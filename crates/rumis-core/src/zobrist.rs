//! Zobrist keys: one random-looking 64-bit key per cube (kind, column, level), per stone
//! used, per colour to move and per colour out, so that a position's hash is the XOR of
//! the keys of what it holds and a move updates it in a few XORs. Computed, not drawn from
//! a random generator, so that a hash means the same in every process and version.
//! (Its own file, below the site and the position, which both use it.)

use crate::stone::{Stone, STONE_COUNT};

const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist keys, computed rather than tabled: a cube of a kind at a column and level.
pub(crate) fn cube_key(kind: usize, column: usize, z: u8) -> u64 {
    mix(0x1000_0000 | (kind as u64) << 16 | (column as u64) << 4 | z as u64)
}
pub(crate) fn stone_key(kind: usize, stone: Stone) -> u64 {
    STONE_KEYS[kind % 5][stone.index()]
}
pub(crate) fn turn_key(seat: u8) -> u64 {
    TURN_KEYS[seat as usize & 3]
}
pub(crate) fn out_key(colour: usize) -> u64 {
    OUT_KEYS[colour & 3]
}

/// The keys above, computed at compile time (seats and colours are 0-3, kinds 0-4).
const TURN_KEYS: [u64; 4] = four_keys(0x3000_0000);
const OUT_KEYS: [u64; 4] = four_keys(0x4000_0000);

/// The keys of the four seats or colours under `base`.
const fn four_keys(base: u64) -> [u64; 4] {
    let mut k = [0; 4];
    let mut i = 0;
    while i < 4 {
        k[i] = mix(base | i as u64);
        i += 1;
    }
    k
}
const STONE_KEYS: [[u64; STONE_COUNT]; 5] = {
    let mut k = [[0; STONE_COUNT]; 5];
    let mut kind = 0;
    while kind < 5 {
        let mut s = 0;
        while s < STONE_COUNT {
            k[kind][s] = mix(0x2000_0000 | (kind as u64) << 8 | s as u64);
            s += 1;
        }
        kind += 1;
    }
    k
};
