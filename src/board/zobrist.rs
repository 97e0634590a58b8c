//! Zobrist keys, the same for every variant and every run (fixed seed).

use crate::types::{MAX_PIECE_TYPES, SplitMix64};
use std::sync::LazyLock;

/// Hand counts above this share the key of this count.
pub const MAX_HAND_COUNT: usize = 64;

pub struct Keys {
    pub psq: Vec<[u64; 256]>,
    pub hand: Vec<[u64; MAX_HAND_COUNT + 1]>,
    pub castling: [[u64; 256]; 2],
    pub en_passant: [u64; 256],
    pub gates: [[u64; 256]; 2],
    pub checks: [[u64; 32]; 2],
    pub side: u64,
}

impl Keys {
    #[inline]
    pub fn hand_key(&self, color: usize, kind: usize, count: usize) -> u64 {
        self.hand[color * MAX_PIECE_TYPES + kind][count.min(MAX_HAND_COUNT)]
    }
}

pub static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut s = SplitMix64::new(0x4D45_4E41_4745_5249); // "MENAGERI"
    let mut table = || {
        let mut t = [0u64; 256];
        for x in t.iter_mut() {
            *x = s.next_u64();
        }
        t
    };
    let psq = (0..2 * MAX_PIECE_TYPES).map(|_| table()).collect();
    let castling = [table(), table()];
    let en_passant = table();
    let gates = [table(), table()];
    let mut hand = Vec::with_capacity(2 * MAX_PIECE_TYPES);
    for _ in 0..2 * MAX_PIECE_TYPES {
        let mut h = [0u64; MAX_HAND_COUNT + 1];
        for x in h.iter_mut().skip(1) {
            *x = s.next_u64();
        }
        hand.push(h);
    }
    let mut checks = [[0u64; 32]; 2];
    for c in checks.iter_mut() {
        // Count 0 hashes as nothing, like an empty hand.
        for x in c.iter_mut().skip(1) {
            *x = s.next_u64();
        }
    }
    let side = s.next_u64();
    Keys {
        psq,
        hand,
        castling,
        en_passant,
        gates,
        checks,
        side,
    }
});
