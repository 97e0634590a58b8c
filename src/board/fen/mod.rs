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

/// Is the variant's start position one that `--fen` would accept: does it read,
/// and can it be played ([`Position::from_setup`]'s checks, on the variant's own
/// rules)? Used when loading variant files, so that a variant whose start the
/// engine would refuse as a FEN does not load. (A start where the game is already
/// over passes, as it does as a FEN.)
pub fn check_start_position(variant: &Arc<Variant>) -> Result<(), FenError> {
    let setup = parse(variant, &variant.start_fen)?;
    // The tables are built only for a start that reads: the walk budget has been
    // checked before this, so building them is safe.
    let rules = Ruleset::new(Arc::clone(variant));
    Position::from_setup(&rules, &setup)?;
    Ok(())
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
