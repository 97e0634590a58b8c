//! Game end by the variant's rules: results a player may claim or that apply
//! automatically (n-move rule, n-fold repetition with perpetual-check illegality),
//! and the value of having no legal move (checkmate, stalemate). Results decided
//! before any move (extinction, flag, check counting) are
//! [`movegen::immediate_result`](crate::movegen::immediate_result): there are no legal
//! moves then.
//!
//! Every value is for the side to move. A draw by stalemate, the n-move rule or
//! repetition goes through the variant's material counting ([`counted`]).

use crate::board::Position;
use crate::types::Color;
use crate::variant::{CountingRule, GameValue};

pub use crate::movegen::counted;

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
    let hist = pos.history();
    let mut st = pos.state();
    let mut back = 0;
    while st.in_check {
        if st.shak {
            return v.checkmate_value;
        }
        back += 2;
        if st.plies_from_null < 2 || back > hist.len() {
            break;
        }
        st = &hist[hist.len() - back];
    }
    GameValue::Draw
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
    // Asked at most once, and only in check.
    let mut has_legal_moves = Some(has_legal_moves);
    let mut can_move = None;
    let mut not_mated = || {
        !pos.in_check()
            || *can_move.get_or_insert_with(|| has_legal_moves.take().is_some_and(|f| f()))
    };
    if v.n_move_rule > 0 && st.rule50 >= 2 * v.n_move_rule && not_mated() {
        return Some(counted(pos, GameValue::Draw));
    }
    let repeated = repetition_result(pos, v.n_fold_rule.max(2));
    if repeated.is_none() && counting_over(pos) && not_mated() {
        return Some(GameValue::Draw);
    }
    repeated
}

/// Counting rules: the count is on and past its limit (a draw, unless mated).
#[inline]
pub fn counting_over(pos: &Position) -> bool {
    let st = pos.state();
    pos.variant().counting_rule != CountingRule::None
        && st.counting_limit != 0
        && st.counting_ply > st.counting_limit
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
                let value = if v.perpetual_check_illegal && (them_all_check || us_all_check) {
                    match (them_all_check, us_all_check) {
                        (true, true) => GameValue::Draw,
                        (true, false) => GameValue::Win,
                        _ => GameValue::Loss,
                    }
                } else if v.n_fold_value_absolute && pos.side_to_move() == Color::Black {
                    v.n_fold_value.negate()
                } else {
                    v.n_fold_value
                };
                return Some(counted(pos, value));
            }
        }
        if i < end {
            us_all_check &= hist[len - i - 1].in_check;
        }
        i += 2;
    }
    None
}
