//! `menagerie bench`: the search's regression signature and speed
//! ([`crate::search::bench`] does the searching).

use super::{Outcome, fail};
use crate::search::Score;
use crate::search::bench::{self, BenchSpec};
use clap::Args;
use std::time::Duration;

#[derive(Args)]
pub struct BenchArgs {
    /// Search every position to this depth (plies); default: each position's
    /// own depth, chosen so that all cost about the same.
    depth: Option<u32>,
    /// Add this many plies to every position's depth (a longer run, e.g. to
    /// measure thread scaling).
    #[arg(long, default_value_t = 0)]
    extra_depth: u32,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Search each position this many milliseconds instead of to a depth (speed
    /// measurement; the node count is then not a signature).
    #[arg(long)]
    movetime: Option<u64>,
    /// Only the start position of this variant (repeatable).
    #[arg(long)]
    variant: Vec<String>,
    /// Only position N of the table, numbered as in the output (repeatable).
    #[arg(long)]
    position: Vec<usize>,
    /// Search with the built-in learned evaluations (NNUE) where a variant has
    /// one; without it every position uses the hand-crafted evaluation, whose
    /// node count is the regression signature.
    #[arg(long)]
    nnue: bool,
}

/// One line per position, then the totals in the words Stockfish's bench uses (tools
/// read `Nodes searched:`).
pub fn run(args: BenchArgs) -> Outcome {
    let spec = BenchSpec {
        depth: args.depth.map(|d| d.max(1)),
        extra_depth: args.extra_depth,
        only: args.position,
        movetime: args.movetime.map(Duration::from_millis),
        threads: args.threads.max(1),
        hash_mb: args.hash,
        variants: args.variant,
        nnue: args.nnue,
    };
    let total = bench::run_spec(&spec, |l| {
        let score = match l.score {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        };
        out!(
            "Position {:2} {:<13} depth {:2} best {:<8} score {:<9} nodes {:>10} time {:>6} ms  {}",
            l.index,
            l.variant,
            l.depth,
            l.best,
            score,
            l.nodes,
            l.time.as_millis(),
            l.fen
        );
    })
    .map_err(fail)?;
    let secs = total.time.as_secs_f64().max(1e-9);
    out!("===========================");
    out!("Total time (ms) : {}", total.time.as_millis());
    out!("Nodes searched: {}", total.nodes);
    out!("Nodes/second: {}", (total.nodes as f64 / secs) as u64);
    Ok(())
}
