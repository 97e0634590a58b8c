//! The compiled move patterns of a piece on one square: what a step does on its
//! target squares, its kind, and the squares it covers.

use crate::xbetza::{Component, Mode};

/// What a step may do on its target squares: a set of flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepMode(u8);

impl StepMode {
    pub const NONE: StepMode = StepMode(0);
    /// Move to an empty square.
    pub const MOVE: StepMode = StepMode(1);
    /// Capture an enemy piece.
    pub const CAPTURE: StepMode = StepMode(2);
    /// Capture an own piece.
    pub const DESTROY: StepMode = StepMode(4);
    /// Capture en passant on an empty square the position names.
    pub const EN_PASSANT: StepMode = StepMode(8);
    /// Captures no royal piece.
    pub const TAME: StepMode = StepMode(16);
    /// The step comes from an initial (`i`) component.
    pub const INITIAL: StepMode = StepMode(32);

    /// Every flag of `other` is set.
    #[inline]
    pub const fn contains(self, other: StepMode) -> bool {
        self.0 & other.0 == other.0
    }
    /// Some flag of `other` is set.
    #[inline]
    pub const fn intersects(self, other: StepMode) -> bool {
        self.0 & other.0 != 0
    }
    /// The flags of the XBetza leg mode that the step tables keep.
    pub(super) fn of_leg(m: Mode) -> StepMode {
        let pairs = [
            (Mode::MOVE, StepMode::MOVE),
            (Mode::CAPTURE, StepMode::CAPTURE),
            (Mode::DESTROY, StepMode::DESTROY),
            (Mode::EN_PASSANT, StepMode::EN_PASSANT),
            (Mode::TAME, StepMode::TAME),
        ];
        pairs
            .iter()
            .filter(|(leg, _)| m.contains(*leg))
            .fold(StepMode::NONE, |acc, &(_, step)| acc | step)
    }
}

impl std::ops::BitOr for StepMode {
    type Output = StepMode;
    #[inline]
    fn bitor(self, other: StepMode) -> StepMode {
        StepMode(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for StepMode {
    #[inline]
    fn bitor_assign(&mut self, other: StepMode) {
        self.0 |= other.0;
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// One target square, optionally with squares that must be empty (lame) or
    /// occupied (must jump).
    Leap,
    /// Targets along a ray, stopping at the first occupied square.
    Slide,
    /// Targets along a ray after exactly one occupied square (the screen).
    Hop,
    /// A multi-leg component, interpreted at run time.
    Multi,
}

/// One compiled move pattern of a piece standing on one square.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub kind: StepKind,
    pub mode: StepMode,
    /// Target squares (ray in order) in `Tables::squares[start..start+len]`.
    pub start: u32,
    pub len: u16,
    /// Lame squares (must be empty) or, with `must_jump`, the square to jump over.
    pub block_start: u32,
    pub block_len: u8,
    pub must_jump: bool,
    /// Hop: how many squares after the screen may be reached (0 = any).
    pub hop_after: u8,
    /// Multi: index into `Tables::multi`.
    pub multi: u16,
    /// Slide: the ray as a set, when its squares are numbered in ray order.
    pub ray: Option<OrderedRay>,
}

/// A ray whose squares are numbered in increasing or decreasing order along it (every
/// ray but those that wrap around a cylinder board): its nearest occupied square is
/// the lowest or highest of the occupied squares on it, which set operations find
/// without walking the ray square by square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OrderedRay {
    /// Index into `Tables::ray_sets`.
    pub set: u32,
    pub descending: bool,
}

impl Step {
    /// A leap with no lame or jumped square: its target does not depend on the board.
    #[inline]
    pub fn is_plain_leap(&self) -> bool {
        self.kind == StepKind::Leap && self.block_len == 0
    }
}

/// A multi-leg component for one colour: interpreted by the generator.
#[derive(Clone, Debug)]
pub struct MultiPattern {
    pub component: Component,
    /// +1 for White, -1 for Black (directions are turned by 180°).
    pub sign: i32,
}
