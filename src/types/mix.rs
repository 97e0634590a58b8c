//! SplitMix64 (Steele, Lea and Flood): its increment, and its finalizer, which mixes
//! every input bit into every output bit. The generators, hashes and cache keys of
//! the crate are built from these two.

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of SplitMix64 seeded with 0, as its reference gives them.
    #[test]
    fn splitmix64_gives_the_reference_sequence() {
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(GOLDEN_GAMMA), 0x6E78_9E6A_A1B9_65F4);
    }
}
