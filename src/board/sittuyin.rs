//! Sittuyin's pawn promotion (`sittuyinPromotion`), as Fairy-Stockfish plays it: a
//! pawn does not promote by moving into the promotion zone; instead, as a move of
//! its own, a pawn standing in the zone (or the side's last pawn, wherever it is)
//! turns into a promotion type, within that type's promotion limit (sittuyin: only
//! while the side has no met), on its own square or on an empty square the new
//! piece attacks from there. The new piece may not attack an enemy piece from its
//! square, and the promotion may not give check (legality tests that).

use super::walk::{MultiLeg, StepMode, Target, Visit};
use super::{Position, Ruleset};
use crate::types::{Color, Move, MoveList, PieceType, Square, SquareSet};

/// The squares a walk attacks (capture-mode targets), ignoring multi-leg moves.
struct Attacks(SquareSet);

impl<'a> Visit<'a> for Attacks {
    #[inline]
    fn target(&mut self, t: Target) {
        if t.mode.contains(StepMode::CAPTURE) {
            self.0.insert(t.to);
        }
    }
    #[inline]
    fn multi(&mut self, _: MultiLeg<'a>, _: StepMode) {}
}

impl Ruleset {
    /// The squares a piece of type `t` and colour `us` on `sq` attacks over `occ`.
    fn attacks_over(&self, us: Color, t: PieceType, sq: Square, occ: &SquareSet) -> SquareSet {
        let mut a = Attacks(SquareSet::EMPTY);
        self.walk(us, t, sq, occ, &mut a);
        a.0
    }

    /// Sittuyin promotions of the side to move (pseudo-legal: the no-check rule is
    /// the legality test's).
    pub(super) fn sittuyin_promotions(&self, pos: &Position, us: Color, list: &mut MoveList) {
        let v = &self.variant;
        let Some(pawn) = self.pawn_type else {
            return;
        };
        let mut pawns = pos.pieces_of(us, pawn);
        if pawns.count() > 1 {
            pawns = pawns.and(&v.promotion_region[us as usize]);
        }
        let occupied = pos.occupied();
        let theirs = pos.pieces(us.flip());
        for from in pawns.iter() {
            let mut without = occupied;
            without.remove(from);
            let mut types = v.promotion_piece_types[us as usize];
            while types != 0 {
                let t = 63 - types.leading_zeros() as PieceType;
                types &= !(1u64 << t);
                let limit = v.promotion_limit[t as usize];
                if limit != 0 && pos.count(us, t) >= limit {
                    continue;
                }
                let mut targets = self.attacks_over(us, t, from, &occupied).minus(&occupied);
                targets.insert(from);
                for to in targets.iter() {
                    if self.attacks_over(us, t, to, &without).intersects(&theirs) {
                        continue;
                    }
                    list.push(Move::promotion(from, to, t));
                }
            }
        }
    }
}
