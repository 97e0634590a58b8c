//! Material on the board and in hand, pairs and the piece-square tables (the
//! evaluation's first, cheapest part, with the game phase and the material
//! counts the endgame scale reads), the giveaway count, and the variant goals.

use super::Evaluator;
use super::params::{piece_slot, square_slot};
use super::tables::FIRST_SQUARE_TERM;
use super::terms::{GlobalTerm, PieceTerm};
use super::trace::Trace;
use crate::board::Position;
use crate::types::{Color, PieceType, Squares};

/// Material counts per colour, for the endgame scale.
#[derive(Default)]
pub(super) struct Material {
    /// Pawn-like pieces on the board.
    pub pawns: [i32; 2],
    /// Estimated value of the other pieces, hands included.
    pub pieces: [i32; 2],
    /// Pieces in hand.
    pub in_hand: [i32; 2],
    /// Colour-bound pieces on the board (bishops), and the square colour of one.
    pub bound: [i32; 2],
    pub bound_colour: [usize; 2],
    /// Other pieces but royals, on the board or in hand.
    pub others: [i32; 2],
}

/// The material part's sums: both colours' middlegame and endgame scores, the
/// phase before it is scaled to `PHASE_MAX`, and the material counts.
pub(super) struct MaterialPart {
    pub mg: [i32; 2],
    pub eg: [i32; 2],
    pub phase: i32,
    pub material: Material,
}

impl Evaluator {
    /// Material, pairs and piece-square terms of both colours, hands included.
    pub(super) fn material<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        tr: &mut T,
    ) -> MaterialPart {
        let n = self.n;
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut phase = 0;
        let mut material = Material::default();
        // Material, piece-square terms, hands.
        for c in Color::BOTH {
            let ci = c as usize;
            for t in 0..n {
                let set: Squares<W> = pos.pieces_of(c, t as PieceType).resized();
                let in_hand = pos.hand(c, t as PieceType) as i32;
                if set.is_empty() && in_hand == 0 {
                    continue;
                }
                let cnt = set.count() as i32;
                mg[ci] += cnt * self.pw(t, PieceTerm::Value)[0]
                    + in_hand * self.pw(t, PieceTerm::Hand)[0];
                eg[ci] += cnt * self.pw(t, PieceTerm::Value)[1]
                    + in_hand * self.pw(t, PieceTerm::Hand)[1];
                phase += self.basis.phase_weight[t] * (cnt + in_hand);
                if self.basis.pawnlike[t] {
                    material.pawns[ci] += cnt;
                } else {
                    material.pieces[ci] += cnt * self.basis.estimate[t];
                    if self.basis.colour_bound[t] {
                        material.bound[ci] += cnt;
                        if let Some(sq) = set.first() {
                            material.bound_colour[ci] = self.basis.square_colour(sq);
                        }
                    } else if self.rules.royal_types & 1u64 << t == 0 {
                        material.others[ci] += cnt + in_hand;
                    }
                }
                material.in_hand[ci] += in_hand;
                if cnt >= 2 {
                    mg[ci] += self.pw(t, PieceTerm::Pair)[0];
                    eg[ci] += self.pw(t, PieceTerm::Pair)[1];
                    tr.linear(c, piece_slot(t, PieceTerm::Pair), 1.0);
                }
                if T::ON {
                    tr.linear(c, piece_slot(t, PieceTerm::Value), cnt as f32);
                    tr.linear(c, piece_slot(t, PieceTerm::Hand), in_hand as f32);
                }
                let base = (ci * n + t) * self.squares;
                for sq in set.iter() {
                    let [a, b] = self.psq[base + sq as usize];
                    mg[ci] += a;
                    eg[ci] += b;
                    if T::ON {
                        let f = self.basis.square_features(c, t as PieceType, sq);
                        for (k, &x) in f.iter().enumerate() {
                            tr.linear(c, piece_slot(t, FIRST_SQUARE_TERM) + k, x);
                        }
                        let cell = self.basis.square_cell(c, sq);
                        tr.linear(c, square_slot(n, self.cells, t, cell), 1.0);
                    }
                }
            }
        }
        MaterialPart {
            mg,
            eg,
            phase,
            material,
        }
    }

    /// The score where losing all pieces wins (giveaway): fewer pieces and less
    /// material are better, and the positional terms do not apply.
    pub(super) fn giveaway_score(&self, pos: &Position, mg: &[i32; 2]) -> i32 {
        let us = pos.side_to_move() as usize;
        let d = mg[1 - us] - mg[us];
        let cnt = |c: usize| {
            pos.pieces(if c == 0 { Color::White } else { Color::Black })
                .count() as i32
        };
        d / 4 + (cnt(1 - us) - cnt(us)) * 30 + self.gw(GlobalTerm::Tempo)[0]
    }

    /// Variant goals (fixed, not tuned): checks to give, flag regions to reach.
    pub(super) fn goals<T: Trace>(
        &self,
        pos: &Position,
        mg: &mut [i32; 2],
        eg: &mut [i32; 2],
        tr: &mut T,
    ) {
        let v = &self.rules.variant;
        let g = v.geometry;
        for c in Color::BOTH {
            let mut bonus = [0, 0];
            if v.check_counting {
                let b = match pos.state().checks_remaining[c as usize] {
                    1 => 300,
                    2 => 120,
                    3 => 40,
                    _ => 0,
                };
                bonus = [b, b];
            }
            let region = v.flag_region[c as usize];
            if !region.is_empty() {
                let pieces = match v.flag_piece[c as usize] {
                    Some(t) => pos.pieces_of(c, t),
                    None => pos.pieces(c),
                };
                let mut best = 99;
                for s in pieces.iter() {
                    for r in region.iter() {
                        let d = (g.file(s) as i32 - g.file(r) as i32)
                            .abs()
                            .max((g.rank(s) as i32 - g.rank(r) as i32).abs());
                        best = best.min(d);
                    }
                }
                if best < 99 {
                    let b = 240 / (best + 1) - 30;
                    bonus[0] += b;
                    bonus[1] += 2 * b;
                }
            }
            mg[c as usize] += bonus[0];
            eg[c as usize] += bonus[1];
            tr.fixed(c, bonus[0], bonus[1]);
        }
    }
}
