//! Move-ordering memory shared by all threads of a search: butterfly history,
//! counter-moves, continuation histories (how a quiet move fared after a given move
//! one, two and four plies earlier) and capture history (killers live in each
//! thread's stack), and the correction history: by how much searches found the static
//! evaluation off, per pawn structure. Sharing it lets every thread
//! order its moves by what all of them have learnt: with private tables each thread
//! learnt from its part of the tree only, and two threads searched a larger tree.

use crate::board::Position;
use crate::types::{MAX_PIECE_TYPES, Move, PieceType, Square};
use std::sync::Arc;
use std::sync::atomic::{AtomicI16, AtomicI32, AtomicU64, Ordering::Relaxed};

/// From-index space: board squares, then one slot per droppable type.
const FROMS: usize = 256 + MAX_PIECE_TYPES;
pub const HISTORY_MAX: i32 = 16384;
/// Limits of continuation and capture history entries (they fit an i16); capture
/// history stays smaller so that the victim's value still leads capture ordering.
pub const CONTINUATION_MAX: i32 = 30000;
pub const CAPTURE_MAX: i32 = 10000;
/// Correction history: entries per side (a power of two), their limit, and the
/// evaluation correction is an entry divided by `CORRECTION_GRAIN`.
const CORRECTION_SIZE: usize = 1 << 14;
pub const CORRECTION_MAX: i32 = 1024;
pub const CORRECTION_GRAIN: i32 = 16;
/// Entries of the continuation table at most: larger variants fold its rows.
const CONTINUATION_BUDGET: usize = 1 << 23;

/// A clone shares the tables. Entries are read and written with relaxed atomic
/// loads and stores: an update lost to a race between threads costs only a little
/// move ordering.
#[derive(Clone)]
pub struct History {
    /// [color][from or 256+dropped type][to]
    butterfly: Arc<[AtomicI32]>,
    /// [moved piece index][to] of the previous move -> the move that refuted it.
    counter: Arc<[AtomicU64]>,
    /// Piece-to keys (`(side * types + type) * squares + square`) of the variant
    /// the tables are sized for: (types, squares).
    dims: (usize, usize),
    /// [row of an earlier move's piece-to key][piece-to key of this move].
    continuation: Arc<[AtomicI16]>,
    rows: usize,
    /// [piece-to key of the capturing move][captured type].
    capture: Arc<[AtomicI16]>,
    /// [side to move][pawn-structure key]: how far searches found the static
    /// evaluation off with this pawn structure (in 1/`CORRECTION_GRAIN` units).
    correction: Arc<[AtomicI16]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: (0..2 * FROMS * 256).map(|_| AtomicI32::new(0)).collect(),
            counter: (0..2 * MAX_PIECE_TYPES * 256)
                .map(|_| AtomicU64::new(Move::NONE.0))
                .collect(),
            dims: (0, 0),
            continuation: Arc::new([]),
            rows: 0,
            capture: Arc::new([]),
            correction: zeroed(2 * CORRECTION_SIZE),
        }
    }
}

fn zeroed(n: usize) -> Arc<[AtomicI16]> {
    (0..n).map(|_| AtomicI16::new(0)).collect()
}

/// Gravity update of an i16 entry: bonuses shrink as the entry nears `limit`.
#[inline]
fn nudge(e: &AtomicI16, bonus: i32, limit: i32) {
    let b = bonus.clamp(-limit, limit);
    let v = e.load(Relaxed) as i32;
    e.store((v + b - v * b.abs() / limit) as i16, Relaxed);
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
    /// Size the piece-to tables for a variant of `types` piece types on `squares`
    /// squares (tables of another size are replaced, and start empty).
    pub fn fit(&mut self, types: usize, squares: usize) {
        if self.dims == (types, squares) {
            return;
        }
        self.dims = (types, squares);
        let keys = self.keys();
        self.rows = keys.min(CONTINUATION_BUDGET / keys.max(1)).max(1);
        self.continuation = zeroed(self.rows * keys);
        self.capture = zeroed(keys * types);
        self.correction.iter().for_each(|e| e.store(0, Relaxed));
    }

    /// Forget everything (new game).
    pub fn clear(&self) {
        self.continuation.iter().for_each(|e| e.store(0, Relaxed));
        self.capture.iter().for_each(|e| e.store(0, Relaxed));
        self.correction.iter().for_each(|e| e.store(0, Relaxed));
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

    /// The piece-to key of a move of a piece of side `side` and type `kind` to `to`.
    #[inline]
    pub fn piece_to(&self, side: usize, kind: PieceType, to: Square) -> usize {
        (side * self.dims.0 + kind as usize) * self.dims.1 + to as usize
    }

    /// The continuation row that follows a move with piece-to key `key`.
    #[inline]
    pub fn row(&self, key: usize) -> usize {
        (key % self.rows) * self.keys()
    }

    /// How many piece-to keys there are (both sides' types on every square).
    #[inline]
    fn keys(&self) -> usize {
        2 * self.dims.0 * self.dims.1
    }

    #[inline]
    pub fn continuation(&self, row: usize, key: usize) -> i32 {
        self.continuation[row + key].load(Relaxed) as i32
    }

    #[inline]
    pub fn update_continuation(&self, row: usize, key: usize, bonus: i32) {
        nudge(&self.continuation[row + key], bonus, CONTINUATION_MAX);
    }

    #[inline]
    pub fn capture(&self, key: usize, captured: PieceType) -> i32 {
        self.capture[key * self.dims.0 + captured as usize].load(Relaxed) as i32
    }

    #[inline]
    pub fn update_capture(&self, key: usize, captured: PieceType, bonus: i32) {
        nudge(
            &self.capture[key * self.dims.0 + captured as usize],
            bonus,
            CAPTURE_MAX,
        );
    }

    #[inline]
    fn correction_index(stm: usize, key: u64) -> usize {
        stm * CORRECTION_SIZE + (key as usize & (CORRECTION_SIZE - 1))
    }

    /// The correction to a static evaluation with this pawn-structure key.
    #[inline]
    pub fn correction(&self, stm: usize, key: u64) -> i32 {
        self.correction[Self::correction_index(stm, key)].load(Relaxed) as i32 / CORRECTION_GRAIN
    }

    /// A search found `diff` between its score and the static evaluation at `depth`.
    #[inline]
    pub fn update_correction(&self, stm: usize, key: u64, diff: i32, depth: i32) {
        let bonus = (diff * depth / 8).clamp(-CORRECTION_MAX / 4, CORRECTION_MAX / 4);
        nudge(
            &self.correction[Self::correction_index(stm, key)],
            bonus,
            CORRECTION_MAX,
        );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_searches_and_stay_bounded() {
        let h = History::default();
        assert_eq!(h.correction(0, 7), 0);
        for _ in 0..200 {
            h.update_correction(0, 7, 300, 10);
        }
        let c = h.correction(0, 7);
        assert!(c > 0 && c <= CORRECTION_MAX / CORRECTION_GRAIN, "{c}");
        // Per side, and another key is untouched.
        assert_eq!(h.correction(1, 7), 0);
        assert_eq!(h.correction(0, 8), 0);
        for _ in 0..200 {
            h.update_correction(0, 7, -300, 10);
        }
        assert!(h.correction(0, 7) < 0);
        h.clear();
        assert_eq!(h.correction(0, 7), 0);
    }
}
