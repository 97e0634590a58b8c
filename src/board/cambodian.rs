//! Cambodian chess (ouk chatrang): the first moves of the king and the met.
//!
//! A king that still stands on its gate square (the gating field of the FEN, `DEde`)
//! may leap like a knight to the next rank forward, and a met (the `fers` slot) on
//! its gate may leap two squares straight forward; both only onto empty squares, and
//! the king not while in check. The gates go as in gating variants (a piece leaves
//! or is captured on its square), and the king's also when an enemy rook moves into
//! line with it, blocked or not, as Fairy-Stockfish plays it.

use super::Ruleset;
use crate::board::Position;
use crate::types::{Color, Move, MoveList, PieceType, Square};
use crate::variant::Variant;

/// The piece types the rule names, found once.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CambodianTypes {
    king: Option<PieceType>,
    met: Option<PieceType>,
    rook: Option<PieceType>,
}

impl CambodianTypes {
    pub(super) fn new(v: &Variant) -> CambodianTypes {
        CambodianTypes {
            king: v.type_by_slot("king"),
            met: v.type_by_slot("fers"),
            rook: v.type_by_slot("rook"),
        }
    }
}

impl Ruleset {
    /// The king's and the met's leaps from their gate squares.
    pub(super) fn cambodian_moves(&self, pos: &Position, us: Color, list: &mut MoveList) {
        let gates = pos.state().gates[us as usize];
        if gates.is_empty() {
            return;
        }
        let g = self.variant.geometry;
        let forward = if us == Color::White { 1 } else { -1 };
        let types = self.cambodian;
        if let Some(king) = types.king
            && !pos.in_check()
        {
            for from in pos.pieces_of(us, king).and(&gates).iter() {
                for dx in [-2, 2] {
                    if let Some(to) = g.offset(from, dx, forward)
                        && pos.piece_at(to).is_none()
                    {
                        list.push(Move::normal(from, to));
                    }
                }
            }
        }
        if let Some(met) = types.met {
            for from in pos.pieces_of(us, met).and(&gates).iter() {
                if let Some(to) = g.offset(from, 0, 2 * forward)
                    && pos.piece_at(to).is_none()
                {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }

    /// After `us` moved a piece of type `mover` to `to`: the enemy king's gate square
    /// whose leap right a rook in line with it takes away, if any.
    /// `king_on_gate` gives the square of the enemy king of a type if it stands on
    /// its gate.
    pub(super) fn cambodian_gate_lost(
        &self,
        king_on_gate: impl Fn(PieceType) -> Option<Square>,
        mover: PieceType,
        to: Square,
    ) -> Option<Square> {
        let types = self.cambodian;
        if types.rook != Some(mover) {
            return None;
        }
        let ksq = king_on_gate(types.king?)?;
        let g = self.variant.geometry;
        (g.file(ksq) == g.file(to) || g.rank(ksq) == g.rank(to)).then_some(ksq)
    }
}
