//! The vocabulary every layer shares: colours, squares and board geometry, sets of
//! squares, piece types and pieces, moves and move lists. It uses nothing else of the
//! crate, so that no lower layer ever needs a higher one for a name.

mod color;
mod geometry;
mod mix;
mod moves;
mod piece;
mod squareset;

pub use color::Color;
pub use geometry::{Geometry, MAX_FILES, MAX_RANKS, RankNumbering, Square};
pub use mix::{GOLDEN_GAMMA, SplitMix64, absorb, mix64, splitmix64};
pub use moves::{Move, MoveKind, MoveList};
pub use piece::{MAX_PIECE_TYPES, Piece, PieceType, TypeSet};
pub use squareset::{MAX_WORDS, SquareBits, SquareIter, SquareSet, Squares, Width};
