//! Move-ordering memory shared by all threads of a search: butterfly history and
//! counter-moves (killers live in each thread's stack). Sharing it lets every thread
//! order its moves by what all of them have learnt: with private tables each thread
//! learnt from its part of the tree only, and two threads searched a larger tree.

use crate::board::Position;
use crate::types::{MAX_PIECE_TYPES, Move, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering::Relaxed};

/// From-index space: board squares, then one slot per droppable type.
const FROMS: usize = 256 + MAX_PIECE_TYPES;
pub const HISTORY_MAX: i32 = 16384;

/// A clone shares the tables. Entries are read and written with relaxed atomic
/// loads and stores: an update lost to a race between threads costs only a little
/// move ordering.
#[derive(Clone)]
pub struct History {
    /// [color][from or 256+dropped type][to]
    butterfly: Arc<[AtomicI32]>,
    /// [moved piece index][to] of the previous move -> the move that refuted it.
    counter: Arc<[AtomicU64]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: (0..2 * FROMS * 256).map(|_| AtomicI32::new(0)).collect(),
            counter: (0..2 * MAX_PIECE_TYPES * 256)
                .map(|_| AtomicU64::new(Move::NONE.0))
                .collect(),
        }
    }
}

#[inline]
fn from_index(m: Move) -> usize {
    if m.is_drop() {
        256 + m.piece() as usize
    } else {
        m.from() as usize
    }
}

impl History {
    /// Forget everything (new game).
    pub fn clear(&self) {
        self.butterfly.iter().for_each(|e| e.store(0, Relaxed));
        self.counter
            .iter()
            .for_each(|e| e.store(Move::NONE.0, Relaxed));
    }

    #[inline]
    fn index(stm: usize, m: Move) -> usize {
        (stm * FROMS + from_index(m)) * 256 + m.to() as usize
    }

    #[inline]
    pub fn score(&self, stm: usize, m: Move) -> i32 {
        self.butterfly[Self::index(stm, m)].load(Relaxed)
    }

    /// Gravity update: bonuses shrink as the entry approaches the limit.
    #[inline]
    pub fn update(&self, stm: usize, m: Move, bonus: i32) {
        let e = &self.butterfly[Self::index(stm, m)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let v = e.load(Relaxed);
        e.store(v + b - v * b.abs() / HISTORY_MAX, Relaxed);
    }

    /// Index of a previous move for the counter-move table (piece that moved, where to).
    #[inline]
    pub fn counter_slot(piece_index: usize, to: Square) -> usize {
        piece_index * 256 + to as usize
    }

    #[inline]
    pub fn counter(&self, slot: Option<usize>) -> Move {
        slot.map(|s| Move(self.counter[s].load(Relaxed)))
            .unwrap_or(Move::NONE)
    }

    #[inline]
    pub fn set_counter(&self, slot: Option<usize>, m: Move) {
        if let Some(s) = slot {
            self.counter[s].store(m.0, Relaxed);
        }
    }
}

/// The piece index (colour and type) that made the last move of `pos`, if any.
#[inline]
pub fn last_mover(pos: &Position) -> Option<usize> {
    let m = pos.state().last_move;
    if m.is_none() {
        return None;
    }
    let p = pos.piece_at(m.to());
    p.is_some().then(|| p.index())
}
