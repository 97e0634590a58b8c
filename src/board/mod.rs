//! Board geometry, square sets, pieces, the [`Position`] with make/unmake, its
//! validated construction from a [`Setup`], FEN and Zobrist keys.

pub mod fen;
mod geometry;
mod position;
mod setup;
mod squareset;
pub mod zobrist;

pub use geometry::{Geometry, MAX_FILES, MAX_RANKS, RankNumbering};
pub use position::{NO_SQUARE, PROMOTED_UNKNOWN, Position, StateInfo};
pub use setup::{Setup, SetupError};
pub use squareset::{SquareIter, SquareSet};

use crate::variant::PieceType;

/// A square index: `rank * files + file` (see [`Geometry`]).
pub type Square = u8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
    #[inline]
    pub fn is_white(self) -> bool {
        self == Color::White
    }
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.flip()
    }
}

/// A piece on a square, or none: 0 = empty, otherwise `1 + type + 64 * color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(pub u8);

impl Piece {
    pub const NONE: Piece = Piece(0);
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
    /// Dense index for tables: `color * 48 + kind`.
    #[inline]
    pub fn index(self) -> usize {
        self.color() as usize * crate::variant::MAX_PIECE_TYPES + self.kind() as usize
    }
}
