//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is three 64-bit words: the move, the packed data, and the key XOR'd
//! with both. A reader recomputes `check ^ move ^ data` and accepts the entry only if
//! it equals its key, so an entry torn by two threads writing at once is simply a
//! miss (Hyatt and Mann's lockless hashing). Buckets hold two entries: one kept by
//! depth, one always replaced.

use crate::types::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Stored as the static evaluation when none is known (in check, or only a lazy
/// bound of it was computed).
pub const EVAL_NONE: i32 = i16::MIN as i32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    mv: AtomicU64,
    data: AtomicU64,
}

/// data: score 0-15, eval 16-31, depth 32-39 (+ 1 so 0 = empty), bound 40-41,
/// generation 42-49.
fn pack(score: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    (score as i16 as u16 as u64)
        | (eval as i16 as u16 as u64) << 16
        | ((depth + 1).clamp(0, 255) as u64) << 32
        | (bound as u64) << 40
        | (generation as u64) << 42
}

pub struct TranspositionTable {
    buckets: Vec<[Entry; 2]>,
    generation: AtomicU8,
}

impl TranspositionTable {
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Default::default);
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    pub fn clear(&self) {
        for b in &self.buckets {
            for e in b {
                e.check.store(0, Ordering::Relaxed);
                e.mv.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// A new search starts: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Entry; 2] {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    pub fn probe(&self, key: u64) -> Option<Probe> {
        for e in self.bucket(key) {
            let data = e.data.load(Ordering::Relaxed);
            let mv = e.mv.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if data != 0 && check ^ mv ^ data == key {
                let bound = match data >> 40 & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                };
                return Some(Probe {
                    mv: Move(mv),
                    score: data as u16 as i16 as i32,
                    eval: (data >> 16) as u16 as i16 as i32,
                    depth: ((data >> 32) & 255) as i32 - 1,
                    bound,
                });
            }
        }
        None
    }

    /// Store what a search found about the position with this key.
    pub fn store(&self, key: u64, entry: Probe) {
        let Probe {
            mv,
            score,
            eval,
            depth,
            bound,
        } = entry;
        let generation = self.generation.load(Ordering::Relaxed);
        let b = self.bucket(key);
        // Same position: update in place (keeping the old move if we have none).
        let mut slot = None;
        for (i, e) in b.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let m = e.mv.load(Ordering::Relaxed);
            if data != 0 && e.check.load(Ordering::Relaxed) ^ m ^ data == key {
                let old_depth = ((data >> 32) & 255) as i32 - 1;
                if bound != Bound::Exact
                    && depth + 3 < old_depth
                    && (data >> 42) as u8 == generation
                {
                    return;
                }
                slot = Some((i, if mv.is_none() { Move(m) } else { mv }));
                break;
            }
        }
        let (i, mv) = slot.unwrap_or_else(|| {
            // Slot 0 keeps the deeper (or current-generation) entry; slot 1 takes the rest.
            let d0 = b[0].data.load(Ordering::Relaxed);
            let old_depth = ((d0 >> 32) & 255) as i32 - 1;
            let stale = (d0 >> 42) as u8 != generation;
            if d0 == 0 || stale || depth >= old_depth {
                (0, mv)
            } else {
                (1, mv)
            }
        });
        let data = pack(score, eval, depth, bound, generation);
        let e = &b[i];
        e.mv.store(mv.0, Ordering::Relaxed);
        e.data.store(data, Ordering::Relaxed);
        e.check.store(key ^ mv.0 ^ data, Ordering::Relaxed);
    }

    /// Permille of the first thousand buckets' entries written in this search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let n = self.buckets.len().min(500);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in b {
                let d = e.data.load(Ordering::Relaxed);
                if d != 0 && (d >> 42) as u8 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (2 * n.max(1))) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let m = Move::normal(12, 28);
        tt.store(
            0xdead_beef_1234,
            Probe {
                mv: m,
                score: -31950,
                eval: 17,
                depth: 9,
                bound: Bound::Lower,
            },
        );
        let p = tt.probe(0xdead_beef_1234).expect("hit");
        assert_eq!(
            (p.mv, p.score, p.eval, p.depth, p.bound),
            (m, -31950, 17, 9, Bound::Lower)
        );
        assert!(tt.probe(0x1234).is_none());
    }
}
