//! Results decided before the side to move plays (extinction, flag, check counting,
//! castling wins, connections, a full board, both sides passing): the game is over,
//! so there are no legal moves. Every value is for the side to move.

use super::connect::{connection_result, full_board_result};
use super::counting::counted;
use crate::board::Position;
use crate::types::{Color, MoveKind, MoveList};
use crate::variant::{CASTLING_WINS_KINGSIDE, CASTLING_WINS_QUEENSIDE, GameValue};

/// Is the flag region reached by `c`? With flagPieceSafe a flag piece under attack
/// does not count while exactly the required number is in the region (with flagMove
/// only for the side that just moved: the other may still be saved by its move).
pub fn flag_reached(pos: &Position, c: Color) -> bool {
    let v = pos.variant();
    let region = v.flag_region[c as usize];
    if region.is_empty() {
        return false;
    }
    let pieces = match v.flag_piece[c as usize] {
        Some(t) => pos.pieces_of(c, t),
        None => pos.pieces(c),
    };
    let inside = pieces.and(&region);
    let reached = !inside.is_empty()
        && (inside.count() >= v.flag_piece_count
            || (v.flag_piece_blocked_win && region.minus(&pos.occupied()).is_empty()));
    if reached
        && v.flag_piece_safe
        && (!v.flag_move || c != pos.side_to_move())
        && inside.count() == v.flag_piece_count
    {
        let rules = pos.rules();
        return !inside.iter().any(|sq| rules.attacked_by(pos, sq, c.flip()));
    }
    reached
}

/// Janggi: the game ends when a pass answers a pass, or a pass leaves the kings
/// facing (bikjang: moves that keep them facing are illegal, so the bikjang of two
/// positions in a row is always a pass): a draw, or decided by material counting.
fn passes_result(pos: &Position) -> Option<GameValue> {
    ended_by_passes(pos).then(|| counted(pos, GameValue::Draw))
}

/// Whether passes ended the game (see `passes_result`).
pub fn ended_by_passes(pos: &Position) -> bool {
    let v = pos.variant();
    // Only passes by a rule (not a piece's move out and back, as the Lion's).
    let pass_rule = v.pass.contains(&true) || v.pass_on_stalemate.contains(&true);
    if !pass_rule || pos.state().last_move.kind() != MoveKind::Pass {
        return false;
    }
    let double_pass = pos
        .history()
        .last()
        .is_some_and(|prev| prev.last_move.kind() == MoveKind::Pass);
    double_pass || pos.rules().kings_face(pos)
}

/// A result that ends the game before the side to move plays (then it has no moves).
pub fn immediate_result(pos: &Position) -> Option<GameValue> {
    let v = pos.variant();
    let us = pos.side_to_move();
    let them = us.flip();
    for c in [them, us] {
        if pos.extinct(c) {
            return Some(if c == us {
                v.extinction_value
            } else {
                v.extinction_value.negate()
            });
        }
    }
    // Capture the flag: with flagMove the other side gets one more move; with
    // flagPieceSafe a flag piece that survived the move after it arrived wins.
    if (v.flag_move || v.flag_piece_safe) && flag_reached(pos, us) {
        let is_king_flag =
            v.flag_piece[them as usize].is_some_and(|t| pos.rules().royal_types & 1u64 << t != 0);
        let draw = ((v.flag_move && us == Color::White && is_king_flag)
            || (v.flag_piece_safe && !v.flag_move))
            && flag_reached(pos, them);
        return Some(if draw {
            GameValue::Draw
        } else {
            GameValue::Win
        });
    }
    let royal_flag =
        v.flag_piece[us as usize].is_some_and(|t| pos.rules().royal_types & 1u64 << t != 0);
    if (!v.flag_move || v.flag_piece_safe || royal_flag) && flag_reached(pos, them) {
        // Racing kings: Black may still draw by also reaching the flag region.
        if v.flag_move
            && royal_flag
            && us == Color::Black
            && !pos.in_check()
            && can_reach_flag_now(pos, us)
        {
            return None;
        }
        return Some(GameValue::Loss);
    }
    if v.check_counting && pos.state().checks_remaining[them as usize] == 0 {
        return Some(GameValue::Loss);
    }
    if v.castling_wins != 0
        && let Some(r) = castling_result(pos)
    {
        return Some(r);
    }
    if v.connect.has_connection()
        && let Some(r) = connection_result(pos)
    {
        return Some(r);
    }
    if let Some(r) = passes_result(pos) {
        return Some(r);
    }
    if v.connect.adjudicate_full_board {
        return full_board_result(pos);
    }
    None
}

/// Castling wins (`castlingWins`): the side that just castled one of its winning
/// castlings wins; a side left with none of its winning rights loses, the side
/// that just moved first (as Fairy-Stockfish decides it).
fn castling_result(pos: &Position) -> Option<GameValue> {
    let v = pos.variant();
    let st = pos.state();
    let us = pos.side_to_move();
    let them = us.flip();
    let own = |c: Color| v.castling_wins >> (2 * c as u8) & 3;
    let m = st.last_move;
    if m.kind() == MoveKind::Castling {
        let side = if m.to() > m.from() {
            CASTLING_WINS_KINGSIDE
        } else {
            CASTLING_WINS_QUEENSIDE
        };
        if own(them) & side != 0 {
            return Some(GameValue::Loss);
        }
    }
    for (c, value) in [(them, GameValue::Win), (us, GameValue::Loss)] {
        let wins = own(c);
        if wins != 0 && !has_right(pos, c, wins) {
            return Some(value);
        }
    }
    None
}

/// Does `c` still have a castling right on one of the sides in `sides`?
fn has_right(pos: &Position, c: Color, sides: u8) -> bool {
    let st = pos.state();
    let Some(king) = st.castling_king[c as usize] else {
        return false;
    };
    st.castling[c as usize].iter().any(|rook| {
        let side = if rook > king {
            CASTLING_WINS_KINGSIDE
        } else {
            CASTLING_WINS_QUEENSIDE
        };
        sides & side != 0
    })
}

/// Racing kings: can the side to move bring its flag piece into the region now?
/// (Rare: only when the other side has just reached the region. The legality test
/// plays moves on a copy of the position.)
fn can_reach_flag_now(pos: &Position, us: Color) -> bool {
    let rules = &**pos.rules();
    let v = &rules.variant;
    let Some(t) = v.flag_piece[us as usize] else {
        return false;
    };
    let mut p = pos.clone();
    let mut list = MoveList::new();
    rules.generate_pseudo(&p, &mut list);
    for &m in list.iter() {
        if m.is_drop() {
            continue;
        }
        if p.piece_at(m.from()).kind() == t
            && v.flag_region[us as usize].contains(m.to())
            && rules.is_legal(&mut p, m)
        {
            return true;
        }
    }
    false
}
