//! XBetza: the piece-move notation of XBoard (see `docs/xbetza.md` in the reference
//! material). This module is pure: text in, a board-independent rule list out, and
//! rule lists back to canonical text. It knows nothing about boards or positions.

mod emit;
mod parse;
mod types;

pub use emit::to_xboard;
pub use parse::{BetzaError, Dialect, parse};
pub use types::*;
