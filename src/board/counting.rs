//! The south-east Asian counting rules (`countingRule`), as Fairy-Stockfish plays
//! them: once one side cannot be expected to lose soon, a count starts, and the
//! game is drawn when the count passes its limit
//! ([`rules::optional_result`](crate::rules::optional_result)).
//!
//! The state is two numbers of [`StateInfo`](super::StateInfo): the limit (0: no
//! count is on) and the count, both in plies. The count grows by one each ply once
//! on. After each move the side to move may start (or, having just lost its last
//! piece but the king, restart) a count: its limit is twice the moves
//! [`count_limit`] allows, and the count starts at 0 (board's honour) or at twice
//! the number of pieces on the board (pieces' honour, against a bare king).

use super::Ruleset;
use crate::types::{Color, PieceType};
use crate::variant::{CountingRule, Variant};

/// The piece types the counting rules look at, found once.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CountingTypes {
    pawn: Option<PieceType>,
    rook: Option<PieceType>,
    knight: Option<PieceType>,
    /// The khon (the `silver` slot).
    khon: Option<PieceType>,
}

impl CountingTypes {
    pub(super) fn new(v: &Variant) -> CountingTypes {
        CountingTypes {
            pawn: v.type_by_slot("pawn"),
            rook: v.type_by_slot("rook"),
            knight: v.type_by_slot("knight"),
            khon: v.type_by_slot("silver"),
        }
    }
}

/// The piece counts the rules read, after a move.
#[derive(Clone, Copy, Debug)]
pub(super) struct Material {
    /// Every piece of each side, the king included.
    all: [u32; 2],
    /// Pawns of both sides.
    pawns: u32,
    rooks: [u32; 2],
    knights: [u32; 2],
    khons: [u32; 2],
}

impl Material {
    /// `count(c, t)` counts the pieces of type `t` of `c`, `all(c)` every piece of `c`.
    pub(super) fn new(
        types: &CountingTypes,
        count: impl Fn(Color, PieceType) -> u32,
        all: impl Fn(Color) -> u32,
    ) -> Material {
        let per_side =
            |t: Option<PieceType>| t.map_or([0, 0], |t| Color::BOTH.map(|c| count(c, t)));
        let pawns = per_side(types.pawn);
        Material {
            all: Color::BOTH.map(all),
            pawns: pawns[0] + pawns[1],
            rooks: per_side(types.rook),
            knights: per_side(types.knight),
            khons: per_side(types.khon),
        }
    }
}

/// The number of moves `side` has to count to, 0 when it does not count.
pub(super) fn count_limit(rule: CountingRule, m: &Material, side: Color) -> u32 {
    let (us, them) = (side as usize, side.flip() as usize);
    // Pieces' honour: the limit depends on the strongest pieces of the other side.
    let honour = |rook_2, rook_1, khon_2, knight_2, khon_1, other| {
        if m.rooks[them] > 1 {
            rook_2
        } else if m.rooks[them] == 1 {
            rook_1
        } else if m.khons[them] > 1 {
            khon_2
        } else if m.knights[them] > 1 {
            knight_2
        } else if m.khons[them] == 1 {
            khon_1
        } else {
            other
        }
    };
    match rule {
        CountingRule::None => 0,
        CountingRule::Makruk => {
            if m.pawns > 0 || m.all[them] == 1 {
                0
            } else if m.all[us] > 1 {
                64
            } else {
                honour(8, 16, 22, 32, 44, 64)
            }
        }
        CountingRule::Cambodian => {
            if m.all[us] > 3 || m.all[them] == 1 {
                0
            } else if m.all[us] > 1 {
                63
            } else if m.pawns > 0 {
                0
            } else {
                honour(7, 15, 21, 31, 43, 63)
            }
        }
        CountingRule::Asean => {
            if m.pawns > 0 || m.all[us] > 1 {
                0
            } else if m.rooks[them] > 0 {
                16
            } else if m.khons[them] > 0 {
                44
            } else if m.knights[them] > 0 {
                64
            } else {
                0
            }
        }
    }
}

/// What a move did that the counting rules care about.
#[derive(Clone, Copy, Debug)]
pub(super) struct CountingMove {
    /// The side that moved.
    pub(super) mover: Color,
    /// It captured a pawn.
    pub(super) captured_pawn: bool,
    /// It captured something or promoted a pawn.
    pub(super) captured_or_promoted: bool,
}

impl Ruleset {
    /// The counting limit and count after a move, from those before it (the count
    /// already advanced by the move) and the material after it.
    pub(super) fn counting_after_move(
        &self,
        m: &Material,
        mv: CountingMove,
        (mut limit, mut ply): (u32, u32),
    ) -> (u32, u32) {
        let rule = self.variant.counting_rule;
        let (mover, stm) = (mv.mover, mv.mover.flip());
        let total = m.all[0] + m.all[1];
        // The mover, down to a bare king, took the last pawn: it counts now.
        if rule != CountingRule::Asean
            && mv.captured_pawn
            && m.all[mover as usize] == 1
            && m.pawns == 0
        {
            let n = count_limit(rule, m, mover);
            if n > 0 {
                limit = 2 * n;
                ply = 2 * total - 1;
            }
        }
        // The side to move starts a count, or restarts it on being left with a bare
        // king by a capture or a promotion.
        let bare = m.all[stm as usize] == 1;
        if limit == 0 || (mv.captured_or_promoted && bare) {
            let n = count_limit(rule, m, stm);
            if n > 0 {
                limit = 2 * n;
                ply = if rule == CountingRule::Asean || !bare {
                    0
                } else {
                    2 * total
                };
            }
        }
        (limit, ply)
    }
}
