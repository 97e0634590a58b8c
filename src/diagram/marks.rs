//! What a move diagram marks: the targets of one piece's pseudo-legal moves, as the
//! engine generates them, each with the kinds of move that reach it.
//!
//! The target squares are the generator's, never a reading of the notation: a
//! diagram shows what the engine plays. The kinds (move only, capture only, hop,
//! initial move...) come from the compiled steps of the piece on its square
//! ([`Ruleset::steps`]): the steps that could have produced a target over the
//! position's occupancy, and what their modes allow there.

use crate::board::fen::Setup;
use crate::board::{Position, Ruleset};
use crate::board::{StepKind, StepMode};
use crate::types::{Color, Move, MoveKind, MoveList, Piece, PieceType, Square};
use std::sync::Arc;

/// One kind of target, in the order the legend lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// An empty square the piece may move to and could capture on.
    MoveOrCapture,
    /// An empty square the piece may move to but not capture on.
    MoveOnly,
    /// A piece the move captures.
    Capture,
    /// An own piece the move captures (`d`).
    Destroy,
    /// An empty square on which the piece captures only: a target when an enemy
    /// piece stands there (not a move now).
    CaptureOnly,
    /// Only while the piece has not moved (`i`).
    Initial,
    /// Reached by hopping over a screen.
    Hop,
    /// The end of a move of several legs (its path is drawn).
    MultiLeg,
    /// En passant capture.
    EnPassant,
    /// Castling: the king's destination.
    Castling,
    /// The move may or must promote.
    Promotion,
    /// The piece stays where it is (a null move).
    Pass,
}

impl Kind {
    pub const ALL: [Kind; 12] = [
        Kind::MoveOrCapture,
        Kind::MoveOnly,
        Kind::Capture,
        Kind::Destroy,
        Kind::CaptureOnly,
        Kind::Initial,
        Kind::Hop,
        Kind::MultiLeg,
        Kind::EnPassant,
        Kind::Castling,
        Kind::Promotion,
        Kind::Pass,
    ];

    /// The word used in data attributes and CSS classes.
    pub fn code(self) -> &'static str {
        match self {
            Kind::MoveOrCapture => "move-capture",
            Kind::MoveOnly => "move",
            Kind::Capture => "capture",
            Kind::Destroy => "destroy",
            Kind::CaptureOnly => "capture-only",
            Kind::Initial => "initial",
            Kind::Hop => "hop",
            Kind::MultiLeg => "multi-leg",
            Kind::EnPassant => "en-passant",
            Kind::Castling => "castling",
            Kind::Promotion => "promotion",
            Kind::Pass => "pass",
        }
    }

    /// The legend's words.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::MoveOrCapture => "moves or captures here",
            Kind::MoveOnly => "moves here, never captures here",
            Kind::Capture => "captures this piece",
            Kind::Destroy => "captures this piece of its own side",
            Kind::CaptureOnly => "captures here only (an enemy piece here would be taken)",
            Kind::Initial => "only as its first move",
            Kind::Hop => "hops over a piece to get here",
            Kind::MultiLeg => "a move of several legs (path drawn; x: taken on the way)",
            Kind::EnPassant => "captures en passant",
            Kind::Castling => "castles (the king's square)",
            Kind::Promotion => "promotes",
            Kind::Pass => "stays (passes the turn)",
        }
    }
}

/// One square of a multi-leg move's path before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waypoint {
    pub square: Square,
    /// A piece is captured there (locust capture).
    pub captured: bool,
}

/// One marked target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The square the piece ends on (for castling: the king's destination).
    pub square: Square,
    /// The squares a multi-leg move passes, in order (empty for one leg).
    pub path: Vec<Waypoint>,
    /// Sorted, no duplicates.
    pub kinds: Vec<Kind>,
    /// A target now (`false`: only a [`Kind::CaptureOnly`] square).
    pub is_target: bool,
    /// The text `menagerie moves` prints for this target, where known.
    pub text: Option<String>,
    /// A move to an empty square that no single step explains (a multi-leg
    /// component with no stop on the way, such as a griffon's bent slide): whether
    /// it could capture there is left to [`settle_captures`], which asks the
    /// generator; until then it is marked [`Kind::MoveOnly`].
    pub unsettled: bool,
}

impl Mark {
    /// A mark of `kinds` alone on square 0, as a legend or a page's script draws it:
    /// no path, no target text.
    pub fn sample(kinds: Vec<Kind>) -> Mark {
        Mark {
            square: 0,
            path: Vec::new(),
            kinds,
            is_target: false,
            text: None,
            unsettled: false,
        }
    }
}

/// The marks of the moves of the piece on `origin` in `pos`. `moves` are its
/// pseudo-legal moves with their texts (if any); moves with the same text (promotions
/// to different pieces) make one mark.
pub fn marks_of(
    rules: &Ruleset,
    pos: &Position,
    origin: Square,
    moves: &[(Move, Option<String>)],
) -> Vec<Mark> {
    let mover = pos.piece_at(origin);
    let mut marks: Vec<Mark> = Vec::new();
    for (m, text) in moves {
        let (square, path, mut kinds, unsettled) = classify(rules, pos, origin, mover, *m);
        let key_matches = |mk: &Mark| match (text, &mk.text) {
            (Some(a), Some(b)) => a == b,
            _ => mk.square == square && mk.path == path,
        };
        if let Some(existing) = marks.iter_mut().find(|mk| key_matches(mk)) {
            existing.unsettled &= unsettled;
            existing.kinds.append(&mut kinds);
            existing.kinds.sort();
            existing.kinds.dedup();
            continue;
        }
        kinds.sort();
        kinds.dedup();
        marks.push(Mark {
            square,
            path,
            kinds,
            is_target: true,
            text: text.clone(),
            unsettled,
        });
    }
    marks
}

/// The moves of the piece on `origin` in `pos` (pseudo-legal, no drops).
pub fn moves_from(rules: &Ruleset, pos: &Position, origin: Square) -> Vec<Move> {
    let mut list = MoveList::new();
    rules.generate_pseudo(pos, &mut list);
    list.iter()
        .copied()
        .filter(|m| m.from() == origin && !m.is_drop())
        .collect()
}

/// The empty squares where the piece on `origin` would capture an `enemy` piece
/// standing there, but may not move to now: each is tried by putting the enemy
/// there and asking the generator.
pub fn capture_only_marks(
    rules: &Arc<Ruleset>,
    setup: &Setup,
    origin: Square,
    enemy: Piece,
    current: &[Mark],
) -> Vec<Mark> {
    let g = rules.variant.geometry;
    let mut out = Vec::new();
    for sq in g.squares() {
        let taken = setup.board.iter().any(|(s, _, _)| *s == sq);
        if taken || current.iter().any(|m| m.square == sq && m.path.is_empty()) {
            continue;
        }
        let mut probe = setup.clone();
        probe.board.push((sq, enemy, 0));
        let pos = Position::from_setup_unchecked(rules, &probe);
        let captures = moves_from(rules, &pos, origin)
            .iter()
            .any(|m| m.to() == sq && !m.has_extra() && m.kind() != MoveKind::Castling);
        if captures {
            out.push(Mark {
                square: sq,
                path: Vec::new(),
                kinds: vec![Kind::CaptureOnly],
                is_target: false,
                text: None,
                unsettled: false,
            });
        }
    }
    out
}

/// The end square, the path and the kinds of one move.
fn classify(
    rules: &Ruleset,
    pos: &Position,
    origin: Square,
    mover: Piece,
    m: Move,
) -> (Square, Vec<Waypoint>, Vec<Kind>, bool) {
    let mut kinds = Vec::new();
    match m.kind() {
        MoveKind::Castling => {
            let (king_to, _) = rules.castling_destinations(mover.color(), m.from(), m.to());
            return (king_to, Vec::new(), vec![Kind::Castling], false);
        }
        MoveKind::EnPassant => return (m.to(), Vec::new(), vec![Kind::EnPassant], false),
        MoveKind::Pass => return (origin, Vec::new(), vec![Kind::Pass], false),
        MoveKind::Promotion | MoveKind::PiecePromotion => kinds.push(Kind::Promotion),
        _ => {}
    }
    let to = m.to();
    let occupant = pos.piece_at(to);
    if occupant.is_some() && to != origin {
        kinds.push(if occupant.color() == mover.color() {
            Kind::Destroy
        } else {
            Kind::Capture
        });
    }
    if m.has_extra() {
        kinds.push(Kind::MultiLeg);
        let path = m
            .extras()
            .map(|(square, captured)| Waypoint { square, captured })
            .collect();
        return (to, path, kinds, false);
    }
    // The single steps that reach `to` over this occupancy with a mode that allows
    // what the move does there.
    let (color, kind): (Color, PieceType) = (mover.color(), mover.kind());
    let mut modes = StepMode::NONE;
    let mut all_initial = true;
    let mut all_hops = true;
    let mut found = false;
    for step in rules.steps(color, kind, origin) {
        let reach = step.reach();
        let Some(at) = reach.iter().position(|&s| s == to) else {
            continue;
        };
        let before = reach[..at].iter().filter(|&&s| pos.piece_at(s).is_some());
        let fits = match step.kind() {
            StepKind::Leap => at == 0,
            StepKind::Slide => before.count() == 0,
            StepKind::Hop => before.count() == 1,
            StepKind::Multi => false,
        };
        let mode = step.mode();
        let allowed = if occupant.is_some() {
            mode.intersects(StepMode::CAPTURE | StepMode::DESTROY)
        } else {
            mode.contains(StepMode::MOVE)
        };
        if !fits || !allowed {
            continue;
        }
        found = true;
        modes |= mode;
        all_initial &= mode.contains(StepMode::INITIAL);
        all_hops &= step.kind() == StepKind::Hop;
    }
    if !found {
        // Made by a multi-leg component without a stop on the way (or by a rule the
        // steps do not show): only what the move does is known.
        let unsettled = occupant.is_none();
        if unsettled {
            kinds.push(Kind::MoveOnly);
        }
        return (to, Vec::new(), kinds, unsettled);
    }
    if occupant.is_none() {
        kinds.push(if modes.contains(StepMode::CAPTURE) {
            Kind::MoveOrCapture
        } else {
            Kind::MoveOnly
        });
    }
    if all_initial {
        kinds.push(Kind::Initial);
    }
    if all_hops {
        kinds.push(Kind::Hop);
    }
    (to, Vec::new(), kinds, false)
}

/// Decides the [`Mark::unsettled`] marks: a move or capture where the generator
/// captures an `enemy` piece put on the square, else a move only.
pub fn settle_captures(
    rules: &Arc<Ruleset>,
    setup: &Setup,
    origin: Square,
    enemy: Piece,
    marks: &mut [Mark],
) {
    for mark in marks.iter_mut().filter(|m| m.unsettled) {
        let mut probe = setup.clone();
        probe.board.push((mark.square, enemy, 0));
        let pos = Position::from_setup_unchecked(rules, &probe);
        let captures = moves_from(rules, &pos, origin)
            .iter()
            .any(|m| m.to() == mark.square && !m.has_extra());
        if captures {
            for k in mark.kinds.iter_mut().filter(|k| **k == Kind::MoveOnly) {
                *k = Kind::MoveOrCapture;
            }
            mark.kinds.sort();
            mark.kinds.dedup();
        }
        mark.unsettled = false;
    }
}
