//! `menagerie tune`: Texel tuning of a variant's evaluation weights. The arguments
//! are read here; [`crate::eval::tune::run_tune`] reads the data, fits, measures the
//! lazy margin and writes the weights file.

use super::variants::load_rules;
use super::{Outcome, fail};
use crate::eval::tune::{self, Options, TuneError, TuneRun};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct TuneArgs {
    #[arg(long)]
    variant: String,
    /// Labelled positions, lines `FEN;SCORE;RESULT;BESTMOVE` (tools/make_tuning_data.py).
    #[arg(long)]
    data: PathBuf,
    /// The weights file to write (default: only report).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The command that made the data, recorded in the weights file's header.
    #[arg(long)]
    data_command: Option<String>,
    /// Weight of the game result in the label; the search score has the rest.
    #[arg(long, default_value_t = 0.2)]
    lambda: f64,
    /// Gradient steps (0: only measure the current weights).
    #[arg(long, default_value_t = 2000)]
    epochs: usize,
    /// Step size, in hundredths of each weight's size.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Pull towards the starting weights.
    #[arg(long, default_value_t = 1e-5)]
    pull: f64,
    /// Hold out one game in this many.
    #[arg(long, default_value_t = 10)]
    holdout: u32,
    /// Start from the generic weights instead of the variant's weights file.
    #[arg(long)]
    generic: bool,
    /// Start from this weights file (over the generic weights) instead of the
    /// variant's own.
    #[arg(long, conflicts_with = "generic")]
    start: Option<PathBuf>,
    /// Only time the evaluation on the data's positions (nanoseconds per call), and
    /// measure the lazy margin there.
    #[arg(long)]
    speed: bool,
    /// Positions (lines starting with a FEN) on which the lazy margin is measured,
    /// instead of the data's: those of real games (tools/pgn_positions.py), whose
    /// king danger may run larger than in self-play.
    #[arg(long)]
    margin_data: Option<PathBuf>,
    /// The lazy margin is this percentile of what the evaluation's costly part adds.
    #[arg(long, default_value_t = 99.0)]
    margin_percentile: f64,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
}

pub fn tune_command(args: TuneArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    let run = TuneRun {
        data: args.data,
        out: args.out,
        data_command: args.data_command,
        fit: Options {
            lambda: args.lambda,
            epochs: args.epochs,
            rate: args.rate,
            pull: args.pull,
            holdout: args.holdout,
        },
        generic: args.generic,
        start: args.start,
        speed: args.speed,
        margin_data: args.margin_data,
        margin_percentile: args.margin_percentile,
        command_line: tune::command_line(std::env::args().skip(1)),
    };
    match tune::run_tune(&rules, &run, &mut std::io::stdout(), &mut std::io::stderr()) {
        Ok(()) => Ok(()),
        // Nobody reads the report any more: end quietly, as `out!` does.
        Err(TuneError::Output(_)) => Ok(()),
        Err(e) => Err(fail(e)),
    }
}
