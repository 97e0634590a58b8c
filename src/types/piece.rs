//! Piece types (indices into a variant's piece list) and coloured pieces.

use super::Color;

/// Index of a piece type within its variant (0-based, dense).
pub type PieceType = u8;
/// A set of piece types of one variant, one bit per type.
pub type TypeSet = u64;

/// Most piece types a variant may define.
pub const MAX_PIECE_TYPES: usize = 48;

/// A piece on a square, or none: 0 = empty, otherwise `1 + type + 64 * color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(pub u8);

impl Piece {
    pub const NONE: Piece = Piece(0);
    /// A wall square (a hole in the board, an arrow, the duck): occupied, of no
    /// side, never in a side's sets. Its type is the last slot, which a variant with
    /// walls leaves free, so that tables indexed by a piece stay in range.
    pub const WALL: Piece = Piece(1 + (MAX_PIECE_TYPES as u8 - 1) + 64);
    #[inline]
    pub fn is_wall(self) -> bool {
        self.0 == Piece::WALL.0
    }
    #[inline]
    pub fn new(color: Color, kind: PieceType) -> Piece {
        Piece(1 + kind + 64 * color as u8)
    }
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub fn is_some(self) -> bool {
        self.0 != 0
    }
    #[inline]
    pub fn kind(self) -> PieceType {
        (self.0 & 63) - 1
    }
    #[inline]
    pub fn color(self) -> Color {
        if self.0 & 64 != 0 {
            Color::Black
        } else {
            Color::White
        }
    }
    /// Dense index for tables: `color * MAX_PIECE_TYPES + kind`.
    #[inline]
    pub fn index(self) -> usize {
        self.color() as usize * MAX_PIECE_TYPES + self.kind() as usize
    }
}
