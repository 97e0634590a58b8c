//! Piece activity: mobility (squares reached, their square root), closeness to
//! the enemy royal piece, and (colour-bound pieces) own pawns on their colour, of
//! every piece the first pass walked.

use super::facts::Facts;
use super::params::piece_slot;
use super::terms::PieceTerm;
use super::trace::Trace;
use super::{Evaluator, count};
use crate::board::Position;
use crate::types::Color;

/// `8·√k`, rounded down, for the mobility curve (a piece reaches fewer squares).
const ROOT_EIGHTHS: [i32; 129] = {
    let mut t = [0; 129];
    let mut k = 0;
    while k < t.len() {
        let mut r = 0;
        while (r + 1) * (r + 1) <= 64 * k as i32 {
            r += 1;
        }
        t[k] = r;
        k += 1;
    }
    t
};
/// Squares reached (0 up to this, exclusive) that `Evaluator::mobility_table` holds:
/// a chess queen reaches at most 27; larger counts are computed.
pub(super) const MOBILITY_TABLE: usize = 64;

impl Evaluator {
    /// The mobility, proximity and same-colour-pawn terms of every piece.
    pub(super) fn activity<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        facts: &Facts<W>,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) {
        let royal_sq = [
            pos.royals(Color::White).first(),
            pos.royals(Color::Black).first(),
        ];
        let own_pawns = |c: Color| self.basis.pawn.map(|p| pos.pieces_of(c, p).resized::<W>());
        let own_pawns = [own_pawns(Color::White), own_pawns(Color::Black)];
        for piece in facts.pieces {
            let (c, t, sq) = (piece.colour, piece.kind as usize, piece.square);
            let ci = c as usize;
            let all = piece.reach_count;
            if self.basis.colour_bound[t]
                && let Some(pawns) = own_pawns[ci]
            {
                let colour = self.basis.square_colours[self.basis.square_colour(sq)].resized();
                let k = count(&pawns.and(&colour));
                let [a, b] = self.pw(t, PieceTerm::SameColourPawns);
                mg[ci] += a * k;
                eg[ci] += b * k;
                tr.linear(c, piece_slot(t, PieceTerm::SameColourPawns), k as f32);
            }
            let mob_base = self.basis.mob_base[t];
            let [a, b] = match self.mobility_table[t * MOBILITY_TABLE..][..MOBILITY_TABLE]
                .get(all as usize)
            {
                Some(&pair) => pair,
                None => mobility_score(
                    self.pw(t, PieceTerm::Mobility),
                    self.pw(t, PieceTerm::MobilityRoot),
                    mob_base,
                    all,
                ),
            };
            mg[ci] += a;
            eg[ci] += b;
            if T::ON {
                tr.linear(
                    c,
                    piece_slot(t, PieceTerm::Mobility),
                    (all - mob_base) as f32,
                );
                let slot = piece_slot(t, PieceTerm::MobilityRoot);
                tr.linear(c, slot, root_eighths(all) as f32 / 8.0);
            }
            if let Some(k) = royal_sq[c.flip() as usize] {
                let d = self.basis.distance(sq, k);
                let [a, b] = self.proximity[t][d];
                mg[ci] += a;
                eg[ci] += b;
                if T::ON {
                    let f = self.basis.proximity[d];
                    tr.linear(c, piece_slot(t, PieceTerm::Proximity), f);
                }
            }
        }
    }
}

/// The mobility and mobility-root terms (mg, eg) of a piece reaching `all` squares,
/// from its type's weights in eighths of a centipawn and its mobility base. (Out of
/// line: the evaluation reads it from `mobility_table` but for the rare piece that
/// reaches more squares than the table holds.)
#[inline(never)]
pub(super) fn mobility_score(
    [wm, we]: [i32; 2],
    [rm, re]: [i32; 2],
    mob_base: i32,
    all: i32,
) -> [i32; 2] {
    let (d, root) = (all - mob_base, root_eighths(all));
    [wm * d / 8 + rm * root / 64, we * d / 8 + re * root / 64]
}

/// `8·√all` rounded down, the mobility curve's feature (constant past the table).
fn root_eighths(all: i32) -> i32 {
    ROOT_EIGHTHS[(all.max(0) as usize).min(ROOT_EIGHTHS.len() - 1)]
}
