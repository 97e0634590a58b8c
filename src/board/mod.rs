//! A position and what its pieces may do: the compiled variant ([`Ruleset`]: move
//! tables and derived facts), attack and check tests, pseudo-legal move generation,
//! the [`Position`] with make/unmake, its validated construction from a [`Setup`],
//! FEN and Zobrist keys. Making a move needs the check test and the move tables, so
//! they live here, below legality.

mod attacks;
mod drops;
pub mod fen;
mod generate;
mod position;
mod ruleset;
mod see;
mod setup;
pub mod tables;
pub mod zobrist;

pub use position::{PROMOTED_UNKNOWN, Position, StateInfo};
pub use ruleset::Ruleset;
pub use setup::{Setup, SetupError};
