//! `menagerie perft`: the leaf count of the legal move tree.

use super::variants::load_rules;
use super::{Outcome, fail};
use crate::board::Position;
use crate::board::fen::FenError;
use crate::movegen::{notation, perft, perft_divide};
use crate::types::RankNumbering;
use clap::Args;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct PerftArgs {
    depth: u32,
    #[arg(long, default_value = "chess")]
    variant: String,
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from that position first, separated by spaces (a comma joins the
    /// legs of one multi-leg move).
    #[arg(long)]
    moves: Option<String>,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    /// One line per root move.
    #[arg(long)]
    divide: bool,
}

/// The count on stdout (`Nodes searched: N`, with `--divide` one line per root move
/// before it); the time and speed on stderr, where they do not disturb a comparison
/// of outputs.
pub fn run(args: PerftArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    let mut pos = match &args.fen {
        // The same checks as CECP `setboard` and UCI `position fen`.
        Some(f) => Position::from_fen(&rules, f).map_err(|e| match e {
            FenError::Syntax(e) => fail(format!("bad FEN: {e}")),
            FenError::Illegal(e) => fail(format!("illegal position: {e}")),
        })?,
        None => Position::start(&rules),
    };
    for text in args.moves.as_deref().unwrap_or("").split_whitespace() {
        let m = notation::parse_move(&mut pos, text, RankNumbering::FromOne)
            .map_err(|e| fail(format!("move {text}: {e}")))?;
        pos.make(m);
    }
    if args.moves.is_some() {
        pos.clear_history();
        err!("position: {}", pos.fen());
    }
    let start = Instant::now();
    let nodes = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (m, n) in perft_divide(&mut pos, args.depth) {
            out!(
                "{}: {}",
                notation::move_to_string(&pos, m, RankNumbering::FromOne),
                n
            );
            total += n;
        }
        out!();
        total
    } else {
        perft(&mut pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    err!(
        "time {:.3} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    out!("Nodes searched: {nodes}");
    Ok(())
}
