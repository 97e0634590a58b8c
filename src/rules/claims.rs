//! Results that apply during the game, with legal moves left: the n-move rule (with
//! the AXF count of checks), the counting rules, n-fold repetition, and bare royal
//! pieces that can never mate.

use super::counting::counted;
use super::repetition::repetition_result;
use crate::board::Position;
use crate::types::Color;
use crate::variant::{CountingRule, GameValue};

/// Results that apply during the game: the n-move rule and n-fold repetition
/// (with perpetual check losing where the variant says so).
pub fn optional_result(
    pos: &Position,
    has_legal_moves: impl FnOnce() -> bool,
) -> Option<GameValue> {
    let v = pos.variant();
    // Asked at most once, and only in check.
    let mut has_legal_moves = Some(has_legal_moves);
    let mut can_move = None;
    let mut not_mated = || {
        !pos.in_check()
            || *can_move.get_or_insert_with(|| has_legal_moves.take().is_some_and(|f| f()))
    };
    if n_move_rule_over(pos) && not_mated() {
        return Some(counted(pos, GameValue::Draw));
    }
    let repeated = repetition_result(pos, v.n_fold_rule.max(2), 0);
    if repeated.is_none() && counting_over(pos) && not_mated() {
        return Some(GameValue::Draw);
    }
    repeated
}

/// Under the AXF count, checks come off the n-move count only once this many plies
/// are known.
const AXF_KNOWN_PLIES: u32 = 20;
/// Under the AXF count, the checks a side may give before they come off the count.
const AXF_FREE_CHECKS: u32 = 10;

/// The n-move rule's count has reached its limit (`nMoveRule` moves each since the
/// last capture or pawn move). Under the AXF count (`nMoveRuleAxf`), once plies
/// enough are known, twice the checks beyond the free ones that the more-checking side
/// gave in that stretch come off the count, as Fairy-Stockfish counts under
/// `chasingRule = axf`: a long run of checks does not draw the game.
pub fn n_move_rule_over(pos: &Position) -> bool {
    let v = pos.variant();
    let st = pos.state();
    let limit = 2 * v.n_move_rule;
    if v.n_move_rule == 0 || st.rule50 < limit {
        return false;
    }
    if !v.n_move_rule_axf || st.plies_from_null < AXF_KNOWN_PLIES {
        return true;
    }
    // This position and the ones before it, `end` of them rounded up to pairs:
    // at even distances the side to move was checked, at odd ones it gave check.
    let end = (st.rule50.min(st.plies_from_null) as usize)
        .next_multiple_of(2)
        .min(pos.ply_count() + 1);
    // [checks on the side to move, checks it gave]
    let mut checks = [0u32; 2];
    for back in 0..end {
        checks[back % 2] += u32::from(pos.state_back(back).in_check);
    }
    let offset = 2 * checks[0].max(checks[1]).saturating_sub(AXF_FREE_CHECKS);
    st.rule50.saturating_sub(offset) >= limit
}

/// Counting rules: the count is on and past its limit (a draw, unless mated).
#[inline]
pub fn counting_over(pos: &Position) -> bool {
    let st = pos.state();
    pos.variant().counting_rule != CountingRule::None
        && st.counting_limit != 0
        && st.counting_ply > st.counting_limit
}

/// Only royal pieces left and nothing in hand, in a variant without another way to
/// win: nobody can ever mate, so the game is drawn (or decided by material
/// counting). The protocols adjudicate it; the search leaves it to the evaluation.
pub fn bare_royals(pos: &Position) -> bool {
    let v = pos.variant();
    let rules = pos.rules();
    if rules.royal_types == 0
        || rules.pseudo_royal
        || v.extinction_value != GameValue::None
        || v.check_counting
        || !v.flag_region[0].is_empty()
        || !v.flag_region[1].is_empty()
        || v.blast_on_capture
    {
        return false;
    }
    Color::BOTH
        .iter()
        .all(|&c| pos.hand_total(c) == 0 && pos.pieces(c).count() == pos.royals(c).count())
}
