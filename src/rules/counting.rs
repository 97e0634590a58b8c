//! Material counting: where a variant decides a drawn game by the material on the
//! board (`materialCounting`), the result it gives instead of the draw.

use crate::board::Position;
use crate::types::Color;
use crate::variant::{GameValue, MaterialCounting};
use std::cmp::Ordering;

/// `value`, or for a draw the result the variant's material counting gives instead.
pub fn counted(pos: &Position, value: GameValue) -> GameValue {
    if value != GameValue::Draw {
        return value;
    }
    let for_white = match pos.variant().material_counting {
        MaterialCounting::None => return value,
        MaterialCounting::WhiteDrawOdds => GameValue::Win,
        MaterialCounting::BlackDrawOdds => GameValue::Loss,
        MaterialCounting::Janggi => janggi_count(pos),
        MaterialCounting::Unweighted => {
            let white = pos.pieces(Color::White).count();
            match white.cmp(&pos.pieces(Color::Black).count()) {
                Ordering::Greater => GameValue::Win,
                Ordering::Less => GameValue::Loss,
                Ordering::Equal => GameValue::Draw,
            }
        }
    };
    match pos.side_to_move() {
        Color::White => for_white,
        Color::Black => for_white.negate(),
    }
}

/// Janggi's points per piece slot (Fairy-Stockfish's counting).
const JANGGI_POINTS: &[(&str, i32)] = &[
    ("rook", 13),
    ("janggiCannon", 7),
    ("horse", 5),
    ("janggiElephant", 3),
    ("wazir", 3),
    ("soldier", 2),
];

/// Janggi counting, for White: White's points less Black's, less one for the second
/// player's advantage (the 1.5 points of deom); more than nothing wins.
fn janggi_count(pos: &Position) -> GameValue {
    let v = pos.variant();
    let mut points = -1;
    for &(slot, value) in JANGGI_POINTS {
        if let Some(t) = v.type_by_slot(slot) {
            points +=
                value * (pos.count(Color::White, t) as i32 - pos.count(Color::Black, t) as i32);
        }
    }
    if points > 0 {
        GameValue::Win
    } else {
        GameValue::Loss
    }
}
