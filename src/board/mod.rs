//! The [`Position`] with make/unmake, FEN and Zobrist keys.

pub mod fen;
mod position;
pub mod zobrist;

pub use position::{PROMOTED_UNKNOWN, Position, StateInfo};
