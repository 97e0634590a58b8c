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

use crate::types::{GOLDEN_GAMMA, Move};
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
        (key ^ mv.0.wrapping_mul(GOLDEN_GAMMA).rotate_left(17)) | 1
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

/// The moves one node put off, searched after its other moves: each with the move
/// number it had (reductions and pruning depend on it), one that no thread is busy
/// with any more first (its result is in the table now). Full: nothing more is put
/// off.
pub struct PutOff<const N: usize> {
    moves: [(Move, usize); N],
    len: usize,
    next: usize,
}

impl<const N: usize> PutOff<N> {
    pub fn new() -> Self {
        PutOff {
            moves: [(Move::NONE, 0); N],
            len: 0,
            next: 0,
        }
    }

    /// Put `mv` (move number `number`) off; false when there is no room.
    #[inline]
    pub fn push(&mut self, mv: Move, number: usize) -> bool {
        if self.len == N {
            return false;
        }
        self.moves[self.len] = (mv, number);
        self.len += 1;
        true
    }

    /// The next move to search of those put off, and its number.
    #[inline]
    pub fn pop(&mut self, busy: &BusyMoves, key: u64) -> Option<(Move, usize)> {
        if self.next == self.len {
            return None;
        }
        let rest = &mut self.moves[self.next..self.len];
        if let Some(j) = rest
            .iter()
            .position(|&(m, _)| !busy.is_busy(BusyMoves::tag(key, m)))
        {
            rest[..=j].rotate_right(1);
        }
        self.next += 1;
        Some(self.moves[self.next - 1])
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

    #[test]
    fn put_off_moves_come_back_not_busy_first() {
        let busy = BusyMoves::new(2);
        let mut later = PutOff::<2>::new();
        assert!(later.push(Move(7), 2));
        assert!(later.push(Move(8), 3));
        assert!(!later.push(Move(9), 4));
        busy.enter(BusyMoves::tag(5, Move(7)));
        assert_eq!(later.pop(&busy, 5), Some((Move(8), 3)));
        assert_eq!(later.pop(&busy, 5), Some((Move(7), 2)));
        assert_eq!(later.pop(&busy, 5), None);
    }
}
