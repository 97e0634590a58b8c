//! SplitMix64 (Steele, Lea and Flood): its increment, and its finalizer, which mixes
//! every input bit into every output bit. The generators, hashes and cache keys of
//! the crate are built from these two: [`SplitMix64`] is the generator, [`absorb`]
//! the round that hashes a word into a running key.

/// SplitMix64's increment (2^64 over the golden ratio, odd): a generator's step,
/// and a multiplier that spreads a word's bits upward in the hashes.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finalizer: each output bit depends on every input bit.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step from `seed`: a well-mixed value.
#[inline]
pub fn splitmix64(seed: u64) -> u64 {
    mix64(seed.wrapping_add(GOLDEN_GAMMA))
}

/// SplitMix64, the generator: small, reproducible (the same seed gives the same
/// sequence) and well mixed.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next value (the seed's [`splitmix64`], then the seed moves on).
    pub fn next_u64(&mut self) -> u64 {
        let z = splitmix64(self.0);
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        z
    }

    /// A value below `n` (at least 1); the small bias of a remainder does not
    /// matter for choosing among a few.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// One round of the crate's word hashes (pawn structures, royal squares): `w`
/// mixed into the running key `h`. Its high bits may not depend on every input
/// bit; a key whose high bits choose a slot goes through [`mix64`] at the end.
#[inline]
pub fn absorb(h: u64, w: u64) -> u64 {
    (h ^ w).wrapping_mul(GOLDEN_GAMMA).rotate_left(29)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of SplitMix64 seeded with 0, as its reference gives them.
    #[test]
    fn splitmix64_gives_the_reference_sequence() {
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(GOLDEN_GAMMA), 0x6E78_9E6A_A1B9_65F4);
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
