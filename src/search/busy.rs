//! Which moves other threads are searching right now (the "simplified ABDADA" of
//! Lazy SMP). A thread that meets a move another thread is already searching at the
//! same node puts it off to the end of its move list: by the time it comes back,
//! the other thread's result is usually in the transposition table. Two threads on
//! the same iteration then split the tree between them instead of walking it side
//! by side, which is what shortens the time to reach a depth.
//!
//! The table is small and lossy: a slot holds one (position, move) tag; a newer
//! entry overwrites an older one, and a lost entry only means a move is searched
//! twice, as plain Lazy SMP would.

use crate::movegen::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// Nodes this shallow are cheaper to search again than to put off.
pub const DEFER_DEPTH: i32 = 4;

const SLOTS: usize = 1 << 15;

pub struct BusyMoves {
    slots: Box<[AtomicU64]>,
}

impl BusyMoves {
    /// The table for a search with `threads` threads (none at one thread: it is
    /// never looked at then).
    pub fn new(threads: usize) -> BusyMoves {
        let n = if threads > 1 { SLOTS } else { 0 };
        BusyMoves {
            slots: (0..n).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The tag of `mv` played in the position with hash `key` (never 0: 0 is a free
    /// slot).
    #[inline]
    pub fn tag(key: u64, mv: Move) -> u64 {
        (key ^ mv.0.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17)) | 1
    }

    #[inline]
    fn slot(&self, tag: u64) -> &AtomicU64 {
        &self.slots[(tag >> 40) as usize & (SLOTS - 1)]
    }

    /// Is some thread searching this move now?
    #[inline]
    pub fn is_busy(&self, tag: u64) -> bool {
        self.slot(tag).load(Ordering::Relaxed) == tag
    }

    /// This thread starts searching the move.
    #[inline]
    pub fn enter(&self, tag: u64) {
        self.slot(tag).store(tag, Ordering::Relaxed);
    }

    /// This thread is done with the move (the slot is freed only if it still holds
    /// this move).
    #[inline]
    pub fn leave(&self, tag: u64) {
        let _ = self
            .slot(tag)
            .compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_busy_from_enter_to_leave() {
        let busy = BusyMoves::new(2);
        let (a, b) = (
            BusyMoves::tag(0x1234, Move(7)),
            BusyMoves::tag(0x1234, Move(8)),
        );
        assert_ne!(a, 0);
        assert_ne!(a, b);
        assert!(!busy.is_busy(a));
        busy.enter(a);
        assert!(busy.is_busy(a));
        assert!(!busy.is_busy(b));
        busy.leave(a);
        assert!(!busy.is_busy(a));
        // The zero key and move still make a tag that is not "free".
        assert_ne!(BusyMoves::tag(0, Move(0)), 0);
    }
}
