//! The value of having no legal move: checkmate (with the variants' exceptions: a
//! mate by a shogi pawn drop, shatar's mates) or stalemate (a draw, a win or a loss,
//! by piece count where the variant says so, through material counting).

use super::counting::counted;
use crate::board::Position;
use crate::variant::GameValue;

/// The value of a position without legal moves.
pub fn no_moves_value(pos: &Position) -> GameValue {
    let v = pos.variant();
    if pos.in_check() {
        // A checkmate by a shogi pawn drop loses for the side that dropped it.
        if v.shogi_pawn_drop_mate_illegal {
            let last = pos.state().last_move;
            if last.is_drop() && pos.variant().pieces[last.piece() as usize].slot == "shogiPawn" {
                return GameValue::Win;
            }
        }
        if v.shatar_mate_rule {
            return shatar_mate_value(pos);
        }
        return v.checkmate_value;
    }
    let mut value = v.stalemate_value;
    if v.stalemate_piece_count {
        let us = pos.side_to_move();
        let mine = pos.pieces(us).count() as i32;
        let theirs = pos.pieces(us.flip()).count() as i32;
        value = match mine - theirs {
            0 => GameValue::Draw,
            d if d < 0 => v.stalemate_value,
            _ => v.stalemate_value.negate(),
        };
    }
    counted(pos, value)
}

/// Shatar: a mate by knights alone counts for the mated side (Fairy-Stockfish
/// scores it so, having no way to forbid the move); otherwise the mate counts if the
/// run of checks that led to it includes a shak, else the game is drawn (niol).
fn shatar_mate_value(pos: &Position) -> GameValue {
    let v = pos.variant();
    let rules = pos.rules();
    let checkers = rules.checkers(pos);
    if checkers
        .iter()
        .all(|sq| rules.knight_types & 1u64 << pos.piece_at(sq).kind() != 0)
    {
        return GameValue::Win;
    }
    // The mated side's earlier positions in the same run of checks.
    let mut st = pos.state();
    let mut back = 0;
    while st.in_check {
        if st.shak {
            return v.checkmate_value;
        }
        back += 2;
        if st.plies_from_null < 2 || back > pos.ply_count() {
            break;
        }
        st = pos.state_back(back);
    }
    GameValue::Draw
}
