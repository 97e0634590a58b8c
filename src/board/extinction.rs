//! Extinction (`extinctionValue`): has a side lost the pieces whose loss ends the
//! game? The game-end rules ([`rules::immediate_result`](crate::rules::immediate_result))
//! score it; the position's validation asks it too, because a side without its
//! royal piece is a finished game where extinction ends games (atomic's exploded
//! king, dobutsu's captured lion) and an unplayable position everywhere else.

use super::Position;
use crate::types::{Color, PieceType};

impl Position {
    /// Has `c` lost by extinction: the variant's extinction rule can end games, and
    /// `c` has at most `extinctionPieceCount` pieces of all its pieces
    /// (`extinctionPieceTypes = *`) or of one extinction type, on the board and in
    /// hand, while the other side has at least `extinctionOpponentPieceCount` of
    /// them (one more where the side to move must claim: `extinctionClaim`)?
    pub fn extinct(&self, c: Color) -> bool {
        let rules = self.rules();
        if !rules.extinction_ends_games() {
            return false;
        }
        let v = &rules.variant;
        let claim = (v.extinction_claim && c == self.side_to_move()) as u32;
        let extinct = |mine: u32, theirs: u32| {
            mine <= v.extinction_piece_count && theirs >= v.extinction_opponent_piece_count + claim
        };
        if v.extinction_all_types
            && extinct(self.total_with_hand(c), self.total_with_hand(c.flip()))
        {
            return true;
        }
        let mut types = v.extinction_piece_types;
        while types != 0 {
            let t = types.trailing_zeros() as PieceType;
            types &= types - 1;
            if extinct(
                self.count_with_hand(c, t),
                self.count_with_hand(c.flip(), t),
            ) {
                return true;
            }
        }
        false
    }

    /// Pieces of type `t` that `c` has on the board and in hand.
    fn count_with_hand(&self, c: Color, t: PieceType) -> u32 {
        self.count(c, t) + self.hand(c, t) as u32
    }

    /// All the pieces `c` has on the board and in hand.
    fn total_with_hand(&self, c: Color) -> u32 {
        self.pieces(c).count() + self.hand_total(c)
    }
}
