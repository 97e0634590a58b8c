//! The endgame scale: towards a draw when the side ahead cannot mate, and with
//! few pawns or bishops of opposite colours.

use super::material::Material;
use super::terms::GlobalTerm;
use super::{Evaluator, SCALE_ONE};

/// A side ahead by less than this (estimated value, without pawns) cannot mate
/// with its pieces alone.
const DRAWISH_EDGE: i32 = 400;
/// The endgame scale (64ths) when the side ahead cannot mate: with a lone minor
/// piece, and with more.
const DRAWISH_SCALE: [i32; 2] = [0, 16];

impl Evaluator {
    /// The endgame scale (64ths): towards a draw when the side ahead has no pawns,
    /// nothing in hand and too little material to mate.
    pub(super) fn eg_scale(&self, m: &Material, eg: &[i32; 2]) -> i32 {
        if self.drop_game || self.rules.royal_types == 0 {
            return SCALE_ONE;
        }
        let (s, w) = if eg[0] >= eg[1] { (0, 1) } else { (1, 0) };
        if m.pawns[s] == 0 && m.in_hand[s] == 0 && m.pieces[s] - m.pieces[w] < DRAWISH_EDGE {
            return if m.pieces[s] <= DRAWISH_EDGE {
                DRAWISH_SCALE[0]
            } else {
                DRAWISH_SCALE[1]
            };
        }
        // Fewer pawns to win with, or bishops that never meet: nearer a draw.
        let opposite = m.bound == [1, 1] && m.bound_colour[0] != m.bound_colour[1];
        let scale = if opposite && m.others == [0, 0] {
            self.gw(GlobalTerm::ScaleOppositeAlone)[0]
        } else {
            let [base, per_pawn] = if opposite {
                self.gw(GlobalTerm::ScaleOpposite)
            } else {
                self.gw(GlobalTerm::ScalePawns)
            };
            base + per_pawn * m.pawns[s]
        };
        scale.clamp(0, SCALE_ONE)
    }
}
