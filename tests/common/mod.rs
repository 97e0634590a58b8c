//! Helpers shared by the integration tests.

/// A small deterministic random generator (xorshift), so tests need no extra crate.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A random string of up to `max - 1` characters from `alphabet`.
    #[allow(dead_code)]
    pub fn string(&mut self, alphabet: &[u8], max: usize) -> String {
        let n = (self.next() % max as u64) as usize;
        (0..n)
            .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize] as char)
            .collect()
    }
}
