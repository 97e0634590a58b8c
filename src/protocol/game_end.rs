//! Whether the game is over in a position, and how to say so: `1-0 {White mates}`.
//! The decision comes from the variant's rules ([`crate::rules`]); this module only
//! orders the checks and words the reason.

use crate::board::Position;
use crate::rules;
use crate::types::{Color, MoveList};
use crate::variant::{GameValue, MaterialCounting, Variant};

/// A finished game: the result from White's point of view and a reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    pub reason: String,
}

impl GameEnd {
    /// The CECP result line, e.g. `1-0 {White mates}`.
    pub fn line(&self) -> String {
        format!("{} {{{}}}", self.result, self.reason)
    }

    /// `value` is for the side to move; `reason` receives the winner's name
    /// (empty for a draw).
    fn new(
        pos: &Position,
        value: GameValue,
        reason: impl FnOnce(&str) -> String,
    ) -> Option<GameEnd> {
        let white_to_move = pos.side_to_move() == Color::White;
        let (result, winner) = match (value, white_to_move) {
            (GameValue::Draw, _) => ("1/2-1/2", ""),
            (GameValue::Win, true) | (GameValue::Loss, false) => ("1-0", "White"),
            (GameValue::Win, false) | (GameValue::Loss, true) => ("0-1", "Black"),
            (GameValue::None, _) => return None,
        };
        Some(GameEnd {
            result,
            reason: reason(winner),
        })
    }
}

/// The end of the game in `pos`, if it is over.
pub fn judge(pos: &mut Position) -> Option<GameEnd> {
    let v = pos.variant().clone();
    if let Some(value) = rules::immediate_result(pos) {
        // Extinction is tested first: a side without the pieces that count.
        let extinct = Color::BOTH.iter().any(|&c| pos.extinct(c));
        let connected = rules::connection_result(pos).is_some();
        let counted = !connected
            && v.material_counting == MaterialCounting::Unweighted
            && (rules::full_board_result(pos).is_some() || rules::ended_by_passes(pos));
        return GameEnd::new(pos, value, |winner| match value {
            GameValue::Draw if counted => "Draw: as many pieces each".to_string(),
            GameValue::Draw => "Draw by the rules of the variant".to_string(),
            _ if extinct => format!("{winner} wins by extinction"),
            _ if connected => format!("{winner} wins by a line of pieces"),
            _ if counted => format!("{winner} wins: more pieces on the board"),
            _ if v.check_counting => format!("{winner} wins by giving check"),
            _ if !v.flag_region[0].is_empty() || !v.flag_region[1].is_empty() => {
                format!("{winner} reached the goal")
            }
            _ => format!("{winner} wins by the rules of the variant"),
        });
    }
    let rules_set = pos.rules().clone();
    let mut list = MoveList::new();
    rules_set.generate_legal(pos, &mut list);
    if list.is_empty() {
        let value = rules::no_moves_value(pos);
        let in_check = pos.in_check();
        return GameEnd::new(pos, value, |winner| match (value, in_check) {
            (GameValue::Draw, false) => "Stalemate".to_string(),
            (GameValue::Draw, true) => {
                "Draw: the rules of the variant do not count this mate".to_string()
            }
            (GameValue::Loss, true) => format!("{winner} mates"),
            (_, true) => format!("{winner} wins: the mated side wins"),
            (_, false) if v.stalemate_value == GameValue::Draw => {
                format!("{winner} wins: stalemate, {}", counting_words(&v))
            }
            (_, false) => format!("{winner} wins by stalemate"),
        });
    }
    let has_moves = !list.is_empty();
    if let Some(value) = rules::optional_result(pos, || has_moves) {
        let by_n_move = rules::n_move_rule_over(pos);
        let by_counting = !by_n_move && rules::counting_over(pos);
        return GameEnd::new(pos, value, |winner| match value {
            GameValue::Draw if by_n_move => format!("Draw by the {}-move rule", v.n_move_rule),
            GameValue::Draw if by_counting => "Draw by the counting rule".to_string(),
            GameValue::Draw => "Draw by repetition".to_string(),
            _ if by_n_move => format!(
                "{winner} wins: the {}-move rule, {}",
                v.n_move_rule,
                counting_words(&v)
            ),
            _ if v.move_repetition_illegal && rules::lost_by_move_repetition(pos) => {
                format!("{winner} wins: moving back and forth is forbidden")
            }
            _ if v.n_fold_value == GameValue::Draw && !v.perpetual_check_illegal => {
                format!("{winner} wins: repetition, {}", counting_words(&v))
            }
            _ if v.perpetual_check_illegal => {
                format!("{winner} wins: perpetual check is forbidden")
            }
            _ => format!("{winner} wins by repetition"),
        });
    }
    if rules::bare_royals(pos) {
        let value = rules::counted(pos, GameValue::Draw);
        return GameEnd::new(pos, value, |winner| match value {
            GameValue::Draw => "Insufficient mating material".to_string(),
            _ => format!(
                "{winner} wins: insufficient mating material, {}",
                counting_words(&v)
            ),
        });
    }
    None
}

/// How the variant's material counting decided a game the rules draw.
fn counting_words(v: &Variant) -> &'static str {
    match v.material_counting {
        MaterialCounting::Unweighted => "decided by counting the pieces",
        MaterialCounting::Janggi => "decided by counting janggi's points",
        MaterialCounting::WhiteDrawOdds | MaterialCounting::BlackDrawOdds => "decided by draw odds",
        MaterialCounting::None => "decided by the rules of the variant",
    }
}
