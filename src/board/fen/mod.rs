//! FEN in the Fairy-Stockfish dialect: multi-digit empty counts, holdings in `[...]`
//! (or as an extra rank), `~` for promoted pieces, `+X` for shogi-promoted pieces,
//! castling as `KQkq` or file letters (also seirawan gates), several e.p. squares,
//! check counters `3+3`, and missing trailing fields.
//!
//! Reading is two steps: [`parse()`] turns the text into a [`Setup`] (only the text is
//! checked), and [`Position::from_setup`] makes it a position (or says why it cannot
//! be played). [`Position::from_fen`] does both.

mod parse;
mod write;

pub use super::setup::{Setup, SetupError};
pub use parse::{SyntaxError, parse};
pub use write::board_field;

use super::{Position, Ruleset};
use crate::variant::Variant;
use std::sync::Arc;

/// Why a FEN gives no position: the text does not read, or it describes a position
/// that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    #[error(transparent)]
    Illegal(#[from] SetupError),
}

/// Does the variant's start position read? (Used when loading variant files.)
pub fn check_start_position(variant: &Variant) -> Result<(), SyntaxError> {
    parse(variant, &variant.start_fen).map(|_| ())
}

impl Position {
    /// Set up a position from a FEN of the ruleset's variant: [`parse()`], then
    /// [`Position::from_setup`].
    pub fn from_fen(rules: &Arc<Ruleset>, fen: &str) -> Result<Position, FenError> {
        let setup = parse(&rules.variant, fen)?;
        Ok(Position::from_setup(rules, &setup)?)
    }

    /// The variant's start position (read when the variant loaded, and played as
    /// written: horde's White has no king).
    pub fn start(rules: &Arc<Ruleset>) -> Position {
        let setup = parse(&rules.variant, &rules.variant.start_fen)
            .expect("start positions are checked when variants load");
        Position::from_setup_unchecked(rules, &setup)
    }
}
