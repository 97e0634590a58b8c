//! Whether a self-play game is over: the checks of the protocols' game end, in
//! their order (the protocol layer words the reason; here only the value counts).

use crate::board::Position;
use crate::rules;
use crate::types::MoveList;
use crate::variant::GameValue;

/// The value of the finished game for the side to move, or `None` while it goes on:
/// a result decided before the move (extinction, flags, check counting, ...), no
/// legal move (mate, stalemate), the n-move rule, counting rules, repetition, and
/// the draw (through the variant's material counting) when only royals are left.
pub fn game_value(pos: &mut Position) -> Option<GameValue> {
    if let Some(value) = rules::immediate_result(pos).filter(|&v| v != GameValue::None) {
        return Some(value);
    }
    let rules_set = pos.rules().clone();
    let mut list = MoveList::new();
    rules_set.generate_legal(pos, &mut list);
    if list.is_empty() {
        // A side that cannot move cannot go on: without a value it is a draw.
        return Some(match rules::no_moves_value(pos) {
            GameValue::None => GameValue::Draw,
            value => value,
        });
    }
    if let Some(value) = rules::optional_result(pos, || true).filter(|&v| v != GameValue::None) {
        return Some(value);
    }
    rules::bare_royals(pos).then(|| match rules::counted(pos, GameValue::Draw) {
        GameValue::None => GameValue::Draw,
        value => value,
    })
}
