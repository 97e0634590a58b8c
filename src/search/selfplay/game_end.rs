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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::builtin_rules;

    fn value(variant: &str, fen: &str) -> Option<GameValue> {
        let rules = builtin_rules(variant);
        let mut pos = Position::from_fen(&rules, fen).expect("a FEN");
        game_value(&mut pos)
    }

    #[test]
    fn games_end_as_the_rules_say() {
        let chess = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(value("chess", chess), None);
        // Fool's mate: White is mated.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(value("chess", mated), Some(GameValue::Loss));
        let stalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
        assert_eq!(value("chess", stalemate), Some(GameValue::Draw));
        let bare = "8/8/4k3/8/8/3K4/8/8 w - - 0 1";
        assert_eq!(value("chess", bare), Some(GameValue::Draw));
        let fifty = "8/8/4k3/8/8/3K4/8/R7 w - - 100 80";
        assert_eq!(value("chess", fifty), Some(GameValue::Draw));
        // Atomic: White's king is gone, White has lost before moving.
        let exploded = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1";
        assert_eq!(value("atomic", exploded), Some(GameValue::Loss));
    }
}
