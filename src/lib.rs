//! Menagerie: a chess-variant engine that plays any variant defined in a text file.
//!
//! Data flows one way: variant files → [`variant`] (with pieces parsed by [`xbetza`])
//! → [`movegen::Ruleset`] (compiled tables) → [`board::Position`] → [`rules`]
//! (game end) → search and protocols. [`types`] is the vocabulary they all share.

pub mod board;
pub mod book;
pub mod eval;
pub mod movegen;
pub mod rules;
pub mod search;
pub mod types;
pub mod variant;
pub mod xbetza;
