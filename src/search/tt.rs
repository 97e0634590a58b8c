//! The transposition table: shared by all search threads without locks.
//!
//! Each entry is three 64-bit words: the move, the packed data, and the key XOR'd
//! with both. A reader recomputes `check ^ move ^ data` and accepts the entry only if
//! it equals its key, so an entry torn by two threads writing at once is simply a
//! miss (Hyatt and Mann's lockless hashing). Buckets hold two entries: one kept by
//! depth, one always replaced.

use super::pages::{self, PageBlock};
use crate::types::Move;
use rayon::prelude::*;
use std::fmt;
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

type Bucket = [Entry; 2];

const MB: usize = 1 << 20;

/// Buckets cleared by one task of a parallel clear (as many as one task fills).
const BUCKETS_PER_TASK: usize = pages::BYTES_PER_TASK / std::mem::size_of::<Bucket>();

/// The share of the memory the machine reports free that one table may take; the
/// rest is left to the engine's other needs and to the system.
const MAX_SHARE_OF_FREE: (usize, usize) = (7, 8);

/// Why a table of the asked size cannot be had. The caller keeps its old table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableError {
    /// More than the machine has free (`limit_mb` is the most it could take now).
    TooLarge { asked_mb: usize, limit_mb: usize },
    /// The system refused the memory.
    NoMemory { asked_mb: usize },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::TooLarge { asked_mb, limit_mb } => write!(
                f,
                "{asked_mb} MB is more memory than this machine has free (at most {limit_mb} MB now)"
            ),
            TableError::NoMemory { asked_mb } => {
                write!(f, "the system refused {asked_mb} MB of memory")
            }
        }
    }
}

/// Megabytes the machine reports free (Linux: `MemAvailable` in /proc/meminfo);
/// None where it does not say.
pub fn free_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// The largest table, in MB, that may replace one of `current_mb` (whose memory it
/// frees) when the machine has `free_mb` free.
pub fn size_limit_mb(free_mb: usize, current_mb: usize) -> usize {
    let (num, den) = MAX_SHARE_OF_FREE;
    (free_mb.saturating_add(current_mb) / den).saturating_mul(num)
}

/// Memory set aside for a table, not yet written: filling it with empty entries is
/// what commits the pages, so that is left to [`Reserved::fill`], which a background
/// thread may run.
pub struct Reserved(pages::Reserved<Bucket>);

impl Reserved {
    /// Reserve `mb` MB (at least one bucket) without touching it, for a table that
    /// replaces one of `replacing_mb` MB. Fails, instead of aborting the process,
    /// when the machine does not have the memory.
    pub fn new(mb: usize, replacing_mb: usize) -> Result<Reserved, TableError> {
        let mb = mb.max(1);
        if let Some(free) = free_memory_mb() {
            let limit_mb = size_limit_mb(free, replacing_mb);
            if mb > limit_mb {
                return Err(TableError::TooLarge {
                    asked_mb: mb,
                    limit_mb,
                });
            }
        }
        let len = mb.saturating_mul(MB) / std::mem::size_of::<Bucket>();
        pages::Reserved::new(len)
            .map(Reserved)
            .ok_or(TableError::NoMemory { asked_mb: mb })
    }

    /// The table, every entry empty. Writing every page is what takes time with a
    /// large table: it is done in parallel (on the current rayon pool, else the
    /// global one).
    pub fn fill(self) -> TranspositionTable {
        TranspositionTable {
            buckets: self.0.fill(),
            generation: AtomicU8::new(0),
        }
    }
}

pub struct TranspositionTable {
    buckets: PageBlock<Bucket>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mb` MB. Panics when the memory cannot be had: for the small
    /// tables of tests and the start-up default; sizes a user asks for go through
    /// [`Reserved`].
    pub fn new(mb: usize) -> TranspositionTable {
        let len = mb.max(1) * MB / std::mem::size_of::<Bucket>();
        match pages::Reserved::new(len) {
            Some(block) => Reserved(block).fill(),
            None => panic!("a transposition table of {mb} MB: no memory"),
        }
    }

    /// Size in MB (rounded).
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>() + MB / 2) / MB
    }

    /// Empty every entry, in parallel (on the current rayon pool, else the global
    /// one).
    pub fn clear(&self) {
        self.buckets.par_chunks(BUCKETS_PER_TASK).for_each(|chunk| {
            for b in chunk {
                for e in b {
                    e.check.store(0, Ordering::Relaxed);
                    e.mv.store(0, Ordering::Relaxed);
                    e.data.store(0, Ordering::Relaxed);
                }
            }
        });
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

    /// Ask the processor to bring `key`'s bucket into the cache: called as soon as
    /// a move is made, so that the child's probe a little later does not wait on
    /// main memory (a table of many megabytes misses the cache at almost every probe).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch is only a hint: it reads nothing the program sees and
            // cannot fault, and the pointer is to a live bucket anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
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
        let tt = Reserved::new(1, 0).expect("1 MB").fill();
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
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234).is_none());
    }

    #[test]
    fn sizes_beyond_the_machine_are_refused() {
        // 7/8 of what is free, counting the memory of the table being replaced.
        assert_eq!(size_limit_mb(8000, 0), 7000);
        assert_eq!(size_limit_mb(7984, 16), 7000);
        assert_eq!(size_limit_mb(usize::MAX, 16), usize::MAX / 8 * 7);
        if let Some(free) = free_memory_mb() {
            let asked = size_limit_mb(free, 0) + 1024;
            assert!(matches!(
                Reserved::new(asked, 0),
                Err(TableError::TooLarge { asked_mb, .. }) if asked_mb == asked
            ));
        }
        // An absurd size is refused, never an abort.
        assert!(Reserved::new(usize::MAX / 2, 0).is_err());
    }
}
