//! The legal move list of a position: what perft counts, the search plays and the
//! protocols offer. The legality test of one move is the board's
//! ([`Ruleset::is_legal`]); this list adds the rules that depend on the game as a
//! whole: none once the game is over, and compulsory captures.

use crate::board::{Position, Ruleset};
use crate::rules;
use crate::types::MoveList;

impl Ruleset {
    /// All legal moves: the pseudo-legal moves that pass the legality test, and of
    /// those only the captures where captures are compulsory. Empty when the game is
    /// already over ([`rules::immediate_result`]): a finished position has no moves.
    pub fn generate_legal(&self, pos: &mut Position, list: &mut MoveList) {
        list.clear();
        if rules::immediate_result(pos).is_some() {
            return;
        }
        self.generate_pseudo(pos, list);
        let info = self.node_info(pos);
        let mut i = 0;
        while i < list.moves.len() {
            let m = list.moves[i];
            if self.is_legal_with(pos, m, &info) {
                i += 1;
            } else {
                list.moves.swap_remove(i);
            }
        }
        if self.variant.must_capture && list.iter().any(|&m| self.is_capture(pos, m)) {
            list.moves.retain(|&m| self.is_capture(pos, m));
        }
    }
}
