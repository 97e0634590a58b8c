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
//! diagram   move diagrams (SVG) and variant pages (HTML) drawn from the compiled rules
//! nnue      learned evaluation: the input layout from the variant, nets and their
//!           files, accumulators updated from what each move changed
//! eval      evaluation driven by the variant's rules
//! train     the learned evaluation's trainer: labelled positions read into their inputs,
//!           a float model of the net (its linear path started from the evaluation's
//!           piece values) fitted by mini-batch Adam over the thread pool, the
//!           hand-crafted evaluation's held-out loss to beat, checkpoints, the best
//!           epoch quantised to the engine's net files
//! search    iterative deepening, Lazy SMP, transposition table, bench, self-play games
//! book      opening books
//! learn     teaching the engine a variant: generations of self-play, training and
//!           a match that keeps the new net only when it wins; resumable
//! protocol  XBoard/WinBoard (CECP) and UCI sessions over one engine controller; the
//!           engine's options, described once and worded by each protocol
//! cli       the `menagerie` command's subcommands (perft, check, moves, bench, book,
//!           tune, selfplay, train, learn, show, variants, protocol mode), the one loader of
//!           variant files and the one output path that a closed pipe ends quietly
//! ```
//!
//! The binary (`main.rs`) only parses the command line and calls into [`cli`].

pub mod board;
pub mod book;
pub mod cli;
pub mod diagram;
pub mod eval;
pub mod learn;
pub mod movegen;
pub mod nnue;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod train;
pub mod types;
pub mod variant;
pub mod xbetza;
