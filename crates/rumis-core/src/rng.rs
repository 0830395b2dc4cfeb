//! A small, fast, seedable generator (xoshiro256**, seeded by SplitMix64), so that a seed
//! means the same game on every machine and every version of the dependencies.

/// A small, fast, seeded random number generator (deterministic across platforms).
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^ (x >> 31)
        };
        Rng {
            s: [next(), next(), next(), next()],
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (`n > 0`), without modulo bias worth measuring.
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Shuffles a slice uniformly.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut counts = [0usize; 5];
        for _ in 0..10_000 {
            assert_eq!(a.next_u64(), b.next_u64());
            counts[a.below(5)] += 1;
            b.below(5);
        }
        assert!(counts.iter().all(|&c| c > 1700), "{counts:?}");
        assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    }
}
