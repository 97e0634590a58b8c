//! Games decided by where the pieces stand (Fairy-Stockfish's connection rules) or
//! by the board running full or both sides passing in turn. Values are for the side
//! to move, as in [`immediate_result`](super::immediate_result).

use super::counting::counted;
use crate::board::Position;
use crate::types::{Color, SquareSet};
use crate::variant::GameValue;

/// A connection made by the side that just moved: `connectN` runs and `connectNxN`
/// blocks, a chain between its two regions, `collinearN` pieces on one line.
pub fn connection_result(pos: &Position) -> Option<GameValue> {
    let v = pos.variant();
    let c = &v.connect;
    if !c.has_connection() {
        return None;
    }
    let them = pos.side_to_move().flip();
    let mut pieces = SquareSet::EMPTY;
    let mut types = c.piece_types;
    while types != 0 {
        let t = types.trailing_zeros();
        types &= types - 1;
        pieces |= pos.pieces_of(them, t as _);
    }
    let lost = Some(c.value.negate());
    if c.lines.iter().any(|l| l.and(&pieces) == *l) {
        return lost;
    }
    if region_chain(pos, them, pieces) {
        return lost;
    }
    if c.collinear_n > 0
        && c.collinear_lines
            .iter()
            .any(|l| l.and(&pieces).count() >= c.collinear_n)
    {
        return lost;
    }
    None
}

/// Do the connecting pieces `pieces` of `c` link its region 1 to its region 2?
/// As in Fairy-Stockfish, the chain grows from region 1 along the connecting
/// directions only (east, north, north-east, south-east), never back.
fn region_chain(pos: &Position, c: Color, pieces: SquareSet) -> bool {
    let v = pos.variant();
    let rules = &v.connect;
    let (from, target) = (rules.region1[c as usize], rules.region2[c as usize]);
    if !from.intersects(&pieces) || !target.intersects(&pieces) {
        return false;
    }
    let g = v.geometry;
    let mut current = from.and(&pieces);
    loop {
        let mut grown = SquareSet::EMPTY;
        for &(dx, dy) in &rules.directions {
            for sq in (current | grown).iter() {
                if let Some(t) = g.offset(sq, dx, dy)
                    && pieces.contains(t)
                {
                    grown.insert(t);
                }
            }
        }
        if grown.intersects(&target) {
            return true;
        }
        if grown.minus(&current).is_empty() {
            return false;
        }
        current |= grown;
    }
}

/// Where the variant adjudicates a full board (`adjudicateFullBoard`), a full board ends
/// the game: drawn, or decided by material counting.
pub fn full_board_result(pos: &Position) -> Option<GameValue> {
    let v = pos.variant();
    let full =
        v.connect.adjudicate_full_board && v.geometry.all().minus(&pos.occupied()).is_empty();
    full.then(|| counted(pos, GameValue::Draw))
}
