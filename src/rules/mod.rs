//! Game end by the variant's rules: results decided before any move (extinction,
//! flag, check counting), results a player may claim or that apply automatically
//! (n-move rule, n-fold repetition with perpetual-check illegality), and the value
//! of having no legal move (checkmate, stalemate).
//!
//! Every value is for the side to move.

use crate::board::Position;

use crate::types::{Color, PieceType};
use crate::variant::GameValue;

/// Count of a type on the board and in hand.
fn count_with_hand(pos: &Position, c: Color, t: PieceType) -> u32 {
    pos.count(c, t) + pos.hand(c, t) as u32
}

fn total_with_hand(pos: &Position, c: Color) -> u32 {
    pos.pieces(c).count() + pos.hand_total(c)
}

/// Is the flag region reached by `c`?
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
    !inside.is_empty()
        && (inside.count() >= v.flag_piece_count
            || (v.flag_piece_blocked_win && region.minus(&pos.occupied()).is_empty()))
}

/// A result that ends the game before the side to move plays (then it has no moves).
pub fn immediate_result(pos: &Position) -> Option<GameValue> {
    let v = pos.variant();
    let us = pos.side_to_move();
    let them = us.flip();
    // Extinction (not for pseudo-royal pieces, which cannot be captured, unless they explode).
    if v.extinction_value != GameValue::None && (!v.extinction_pseudo_royal || v.blast_on_capture) {
        for c in [them, us] {
            let claim = (v.extinction_claim && c == us) as u32;
            let extinct = |mine: u32, theirs: u32| {
                mine <= v.extinction_piece_count
                    && theirs >= v.extinction_opponent_piece_count + claim
            };
            let mut hit = v.extinction_all_types
                && extinct(total_with_hand(pos, c), total_with_hand(pos, c.flip()));
            let mut ty = v.extinction_piece_types;
            while ty != 0 && !hit {
                let t = ty.trailing_zeros() as PieceType;
                ty &= ty - 1;
                hit = extinct(
                    count_with_hand(pos, c, t),
                    count_with_hand(pos, c.flip(), t),
                );
            }
            if hit {
                return Some(if c == us {
                    v.extinction_value
                } else {
                    v.extinction_value.negate()
                });
            }
        }
    }
    // Capture the flag: with flagMove the other side gets one more move.
    if v.flag_move && flag_reached(pos, us) {
        let is_king_flag =
            v.flag_piece[them as usize].is_some_and(|t| pos.rules().royal_types & 1u64 << t != 0);
        let draw = us == Color::White && is_king_flag && flag_reached(pos, them);
        return Some(if draw {
            GameValue::Draw
        } else {
            GameValue::Win
        });
    }
    let royal_flag =
        v.flag_piece[us as usize].is_some_and(|t| pos.rules().royal_types & 1u64 << t != 0);
    if (!v.flag_move || royal_flag) && flag_reached(pos, them) {
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
    None
}

/// Racing kings: can the side to move bring its flag piece into the region now?
fn can_reach_flag_now(pos: &Position, us: Color) -> bool {
    let rules = pos.rules().clone();
    let v = &rules.variant;
    let Some(t) = v.flag_piece[us as usize] else {
        return false;
    };
    let mut p = pos.clone();
    let mut list = crate::types::MoveList::new();
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
    value
}

/// Results that apply during the game: the n-move rule and n-fold repetition
/// (with perpetual check losing where the variant says so). `ply_from_root` lets a
/// search score repetitions inside its tree after one repeat.
pub fn optional_result(
    pos: &Position,
    has_legal_moves: impl FnOnce() -> bool,
) -> Option<GameValue> {
    let v = pos.variant();
    let st = pos.state();
    if v.n_move_rule > 0 && st.rule50 >= 2 * v.n_move_rule && (!pos.in_check() || has_legal_moves())
    {
        return Some(GameValue::Draw);
    }
    repetition_result(pos, v.n_fold_rule.max(2))
}

/// n-fold repetition: the value if the current position occurred `n-1` times before.
pub fn repetition_result(pos: &Position, n: u32) -> Option<GameValue> {
    let v = pos.variant();
    if v.n_fold_rule == 0 {
        return None;
    }
    let st = pos.state();
    let hist = pos.history();
    let end = if v.captures_to_hand {
        st.plies_from_null
    } else {
        st.rule50.min(st.plies_from_null)
    } as usize;
    let end = end.min(hist.len());
    if end < 4 {
        return None;
    }
    let key = st.key;
    let mut count = 1;
    // Perpetual check: every position of the cycle with the same side in check.
    let mut them_all_check = st.in_check;
    let mut us_all_check = hist.last().is_some_and(|s| s.in_check);
    let len = hist.len();
    let mut i = 2;
    while i <= end {
        let s = &hist[len - i];
        // Positions at even distance: same side to move (that side was checked there).
        them_all_check &= s.in_check;
        if i >= 4 && s.key == key {
            count += 1;
            if count >= n {
                if v.perpetual_check_illegal && (them_all_check || us_all_check) {
                    return Some(match (them_all_check, us_all_check) {
                        (true, true) => GameValue::Draw,
                        (true, false) => GameValue::Win,
                        _ => GameValue::Loss,
                    });
                }
                let value = if v.n_fold_value_absolute && pos.side_to_move() == Color::Black {
                    v.n_fold_value.negate()
                } else {
                    v.n_fold_value
                };
                return Some(value);
            }
        }
        if i < end {
            us_all_check &= hist[len - i - 1].in_check;
        }
        i += 2;
    }
    None
}
