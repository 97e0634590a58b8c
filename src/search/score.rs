//! Scores: centipawns, mates and variant wins counted in plies, and their conversion
//! for the transposition table (relative to the node) and for the protocols.

use super::Score;
use crate::variant::GameValue;

pub const INF: i32 = 32000;
pub const MATE: i32 = 31000;
pub const MAX_PLY: usize = 120;
/// Scores beyond this are mate (or a variant win/loss) in a known number of plies.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 10;

/// Score of a game value for the side to move, `ply` plies from the root.
#[inline]
pub fn value_score(v: GameValue, ply: usize) -> i32 {
    match v {
        GameValue::Win => MATE - ply as i32,
        GameValue::Loss => -MATE + ply as i32,
        _ => 0,
    }
}

/// Mate scores are stored in the table relative to the node, not the root.
#[inline]
pub fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
pub fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

pub fn to_score(s: i32) -> Score {
    if s.abs() >= MATE_BOUND {
        let plies = MATE - s.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if s > 0 { moves } else { -moves })
    } else {
        Score::Cp(s)
    }
}
