//! `menagerie book build`: an opening book from the engine's own searches.

use super::variants::load_rules;
use super::{Outcome, fail};
use crate::board::Position;
use crate::book::{self, build::BuildOptions};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct BookBuildArgs {
    #[arg(long)]
    variant: String,
    /// Plies from the start position the book covers.
    #[arg(long, default_value_t = 6)]
    plies: u32,
    /// Search depth per position.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// Principal variations searched per position.
    #[arg(long, default_value_t = 3)]
    width: usize,
    /// Keep moves within this many centipawns of the best.
    #[arg(long, default_value_t = 40)]
    margin: i32,
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    #[arg(long)]
    output: Option<PathBuf>,
}

/// Build the book and write it (book/VARIANT.txt unless `--output` says otherwise);
/// its header records the command line, so that it can be made again. Progress goes
/// to stderr.
pub fn build(args: BookBuildArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    let start = Position::start(&rules);
    let command_line: Vec<String> = std::env::args().skip(1).collect();
    let header = vec![
        "menagerie opening book (format: see src/book/mod.rs)".to_string(),
        format!("variant: {}", args.variant),
        format!("command: menagerie {}", command_line.join(" ")),
    ];
    let opts = BuildOptions {
        plies: args.plies,
        depth: args.depth,
        width: args.width.max(1),
        margin: args.margin,
        threads: args.threads.max(1),
        ..Default::default()
    };
    let text = book::build::build(&start, &opts, &header, |n, line| {
        err!("{n:5} {line}");
    })
    .map_err(fail)?;
    let path = args
        .output
        .unwrap_or_else(|| PathBuf::from(format!("book/{}.txt", args.variant)));
    std::fs::write(&path, text)
        .map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?;
    err!("wrote {}", path.display());
    Ok(())
}
