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
//!           check tests, pseudo-legal moves); Position with make/unmake, FEN, Zobrist keys
//! movegen   legality, legal move lists, results that leave no move, notation, perft
//! diagram   move diagrams (SVG) and variant pages (HTML) drawn from the compiled rules
//! rules     game end: mate and stalemate values, repetition, n-move rule
//! eval      evaluation driven by the variant's rules
//! search    iterative deepening, Lazy SMP, transposition table, bench
//! book      opening books
//! ```
//!
//! The binary (`main.rs` and its `protocol` module: CECP, UCI, the engine controller)
//! sits on top and may use every layer.

pub mod board;
pub mod book;
pub mod diagram;
pub mod eval;
pub mod movegen;
pub mod rules;
pub mod search;
pub mod types;
pub mod variant;
pub mod xbetza;
