//! n-fold repetition, perpetual check where it is illegal, and moving one piece back
//! and forth where that is illegal (janggi).

use super::counting::counted;
use crate::board::Position;
use crate::types::{Color, Move, MoveKind, PieceType};
use crate::variant::GameValue;

/// n-fold repetition: the value if the current position occurred `n-1` times before,
/// or once before within the last `tree_plies` plies. A search passes its distance
/// from the root there: a position repeated inside its tree (the root included) is
/// scored at once, since the side that could avoid the repetition will, while one
/// repeated only from the game before the root still needs the full count, or the
/// engine would avoid, or steer into, a repetition that does not end the game.
/// Where moving back and forth is illegal, the side that just completed such a run
/// loses (`Shuttle` below); while a run is going on a repetition needs the full
/// `nFoldRule` count.
pub fn repetition_result(pos: &Position, n: u32, tree_plies: usize) -> Option<GameValue> {
    repetition_scan(pos, n, tree_plies).map(|(value, _)| value)
}

/// Did the side that just moved lose by moving one piece back and forth?
pub fn lost_by_move_repetition(pos: &Position) -> bool {
    let n = pos.variant().n_fold_rule.max(2);
    matches!(repetition_scan(pos, n, 0), Some((_, true)))
}

/// The repetition result, and whether the move-repetition rule decided it.
fn repetition_scan(pos: &Position, n: u32, tree_plies: usize) -> Option<(GameValue, bool)> {
    let v = pos.variant();
    if v.n_fold_rule == 0 {
        return None;
    }
    let st = pos.state();
    let end = if v.captures_to_hand {
        st.plies_from_null
    } else {
        st.rule50.min(st.plies_from_null)
    } as usize;
    let end = end.min(pos.ply_count());
    if end < 4 {
        return None;
    }
    let key = st.key;
    let mut count = 1;
    // Perpetual check: every position of the cycle with the same side in check.
    let mut them_all_check = st.in_check;
    let mut us_all_check = pos.state_back(1).in_check;
    let mut shuttle = if v.move_repetition_illegal {
        Shuttle::start(pos)
    } else {
        Shuttle::NONE
    };
    let mut i = 2;
    while i <= end {
        let s = pos.state_back(i);
        // Positions at even distance: same side to move (that side was checked there).
        them_all_check &= s.in_check;
        if i >= 4 && shuttle.is_on() && shuttle.step(pos, i, end) {
            return Some((GameValue::Win, true));
        }
        let (need, in_tree) = if shuttle.is_on() {
            (n.max(v.n_fold_rule), false)
        } else {
            (n, i <= tree_plies)
        };
        if i >= 4 && s.key == key {
            count += 1;
            if count >= need || in_tree {
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
                return Some((counted(pos, value), false));
            }
        }
        if i < end {
            us_all_check &= pos.state_back(i + 1).in_check;
        }
        i += 2;
    }
    None
}

/// moveRepetitionIllegal (Fairy-Stockfish's janggi repetition rule), read backwards
/// from the current position: the side that just moved (the mover) lost if its last
/// moves took one piece onto a square without capturing, then back and forth four
/// times (a pass of its own may stand in for its second-to-last move), the mover
/// never being in check before those moves, and the piece one that may stand in the
/// region of the other side's royal piece. `stage` counts the mover's moves that
/// fit so far (0: none, or the run is broken).
#[derive(Clone, Copy)]
struct Shuttle {
    stage: u8,
}

impl Shuttle {
    const NONE: Shuttle = Shuttle { stage: 0 };
    /// The run is complete: the next move back must be the piece's arrival.
    const FULL: u8 = 4;

    fn is_on(self) -> bool {
        self.stage > 0
    }

    /// The stage after the mover's last two moves (the caller knows that at least
    /// four plies can be read back).
    fn start(pos: &Position) -> Shuttle {
        let last = pos.state().last_move;
        if last.kind() != MoveKind::Normal
            || pos.state_back(1).in_check
            || pos.state_back(3).in_check
        {
            return Shuttle::NONE;
        }
        let moved = pos.piece_at(last.to());
        if moved.is_none() || !can_reach_royal_region(pos, moved.color(), moved.kind()) {
            return Shuttle::NONE;
        }
        let before = pos.state_back(2).last_move;
        let stage = if before == reversed(last) {
            2
        } else if before.kind() == MoveKind::Pass {
            1
        } else {
            0
        };
        Shuttle { stage }
    }

    /// Reads the mover's move `back` plies ago (even, at least 4; `end` plies can be
    /// read back). True if that move completes the run: the mover has lost.
    fn step(&mut self, pos: &Position, back: usize, end: usize) -> bool {
        let move_at = |k: usize| pos.state_back(k).last_move;
        if back < end && pos.state_back(back + 1).in_check {
            self.stage = 0;
            return false;
        }
        let m = move_at(back);
        if self.stage < Self::FULL {
            // After a pass, the move before it must undo the last move.
            let undone = move_at(if self.stage == 1 { 0 } else { back - 2 });
            self.stage = if m == reversed(undone) {
                self.stage + 1
            } else {
                0
            };
            return false;
        }
        let arrival = pos.state_back(back);
        if arrival.captured.is_none() && move_at(back - 2).from() == m.to() {
            return true;
        }
        self.stage = 0;
        false
    }
}

/// The plain move from `m`'s destination back to its origin.
fn reversed(m: Move) -> Move {
    Move::normal(m.to(), m.from())
}

/// May a piece of `kind` stand somewhere in the region of the other side's royal
/// pieces (their mobility regions; no region is the whole board)?
fn can_reach_royal_region(pos: &Position, mover: Color, kind: PieceType) -> bool {
    let v = pos.variant();
    let region = |c: Color, t: PieceType| {
        v.mobility_region[c as usize]
            .get(t as usize)
            .copied()
            .flatten()
    };
    let Some(piece) = region(mover, kind) else {
        return true;
    };
    let mut royals = pos.rules().royal_types;
    if royals == 0 {
        return !piece.is_empty();
    }
    while royals != 0 {
        let t = royals.trailing_zeros() as PieceType;
        royals &= royals - 1;
        match region(mover.flip(), t) {
            Some(r) if (r & piece).is_empty() => {}
            _ => return true,
        }
    }
    false
}
