//! Per-thread move-ordering memory: killer moves, butterfly history and counter-moves.

use crate::board::{Position, Square};
use crate::movegen::Move;
use crate::variant::MAX_PIECE_TYPES;

/// From-index space: board squares, then one slot per droppable type.
const FROMS: usize = 256 + MAX_PIECE_TYPES;
pub const HISTORY_MAX: i32 = 16384;

pub struct History {
    /// [color][from or 256+dropped type][to]
    butterfly: Vec<i32>,
    /// [moved piece index][to] of the previous move -> the move that refuted it.
    counter: Vec<Move>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * FROMS * 256],
            counter: vec![Move::NONE; 2 * MAX_PIECE_TYPES * 256],
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
    #[inline]
    fn index(stm: usize, m: Move) -> usize {
        (stm * FROMS + from_index(m)) * 256 + m.to() as usize
    }

    #[inline]
    pub fn score(&self, stm: usize, m: Move) -> i32 {
        self.butterfly[Self::index(stm, m)]
    }

    /// Gravity update: bonuses shrink as the entry approaches the limit.
    #[inline]
    pub fn update(&mut self, stm: usize, m: Move, bonus: i32) {
        let e = &mut self.butterfly[Self::index(stm, m)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *e += b - *e * b.abs() / HISTORY_MAX;
    }

    /// Index of a previous move for the counter-move table (piece that moved, where to).
    #[inline]
    pub fn counter_slot(piece_index: usize, to: Square) -> usize {
        piece_index * 256 + to as usize
    }

    #[inline]
    pub fn counter(&self, slot: Option<usize>) -> Move {
        slot.map(|s| self.counter[s]).unwrap_or(Move::NONE)
    }

    #[inline]
    pub fn set_counter(&mut self, slot: Option<usize>, m: Move) {
        if let Some(s) = slot {
            self.counter[s] = m;
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
