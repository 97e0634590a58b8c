//! Menagerie: a chess-variant engine that plays any variant defined in a text file.
//!
//! The library is a stack of layers. Each module uses only the modules above it in
//! this list, never one below (tests/layers.rs reads this list and the sources and
//! fails when an import reaches down the list):
//!
//! ```text
//! types     the shared vocabulary: colours, squares, geometry, square sets, pieces, moves
//! xbetza    XBetza piece notation → move rules
//! variant   variant files → Variant (keys, inheritance, pieces); the set of loaded variants
//! board     Variant → Ruleset (move tables and the walker over their targets, attack and
//!           check tests, pseudo-legal moves, the legality test of a move); Position with
//!           make/unmake, FEN, Zobrist keys
//! rules     game end: every rule that decides a game is over (results before a move,
//!           mate and stalemate values, repetition, n-move rule, material counting)
//! movegen   legal move lists (none once the game is over), notation, perft
//! eval      evaluation driven by the variant's rules
//! search    iterative deepening, Lazy SMP, transposition table, bench
//! book      opening books
//! ```
//!
//! The binary (`main.rs` and its `protocol` module: CECP, UCI, the engine controller)
//! sits on top and may use every layer.

pub mod board;
pub mod book;
pub mod eval;
pub mod movegen;
pub mod rules;
pub mod search;
pub mod types;
pub mod variant;
pub mod xbetza;
