//! `menagerie train`: fit a variant's learned evaluation (NNUE) to labelled
//! positions and write the net. The arguments are read here; [`crate::train`]
//! does the work.

use super::variants::load_rules;
use super::{Outcome, fail};
use crate::eval::tune::command_line;
use crate::train::{self, Options, Progress, TrainRun};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct TrainArgs {
    #[arg(long)]
    variant: String,
    /// Extra variant files (loaded after the built-in ones).
    #[arg(long = "variants")]
    variants: Vec<PathBuf>,
    /// Labelled positions, lines `FEN;SCORE;RESULT;BESTMOVE` (`menagerie selfplay`).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// The net file to write; the checkpoint is written beside it (NET.ckpt), and
    /// the same command run again resumes from it.
    #[arg(long)]
    out: PathBuf,
    /// Accumulator width.
    #[arg(long, default_value_t = Options::default().hidden)]
    hidden: usize,
    /// Output buckets (by the number of pieces on the board).
    #[arg(long, default_value_t = Options::default().buckets)]
    buckets: usize,
    /// Epochs in all (a resumed run trains the missing ones).
    #[arg(long, default_value_t = Options::default().epochs)]
    epochs: u32,
    /// Positions per mini-batch (default: the training positions / 64, from 256 to
    /// 16384, so that an epoch makes about 64 steps).
    #[arg(long, default_value_t = Options::default().batch, hide_default_value = true)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = Options::default().lr)]
    lr: f32,
    /// The step size's factor per epoch (1: constant; the default makes the
    /// tenth epoch's step about a tenth of the first's).
    #[arg(long = "lr-decay", default_value_t = Options::default().lr_decay)]
    lr_decay: f32,
    /// Weight of the game result in the label; the search score has the rest.
    #[arg(long, default_value_t = Options::default().lambda)]
    lambda: f32,
    /// Stop after this many epochs without a lower held-out loss (0: never stop
    /// early); the net written is always the epoch of the lowest held-out loss.
    #[arg(long, default_value_t = Options::default().patience)]
    patience: u32,
    /// Hold out one game in this many (0: none).
    #[arg(long, default_value_t = Options::default().holdout)]
    holdout: u32,
    /// Seeds the initial weights, the held-out games and the shuffles.
    #[arg(long, default_value_t = Options::default().seed)]
    seed: u64,
    /// Threads (default: one per core); the net is the same with any number.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Also train on every position mirrored left to right (files reversed), with
    /// the same labels: twice the data, for variants whose pieces move alike to
    /// both sides.
    #[arg(long)]
    mirror: bool,
    /// Text added to the net's provenance (e.g. the command that made the data).
    #[arg(long)]
    provenance: Option<String>,
}

pub fn run(args: TrainArgs) -> Outcome {
    let rules = load_rules(&args.variants, &args.variant)?;
    let run = TrainRun {
        rules: &rules,
        data: &args.data,
        out: &args.out,
        options: Options {
            hidden: args.hidden,
            buckets: args.buckets,
            epochs: args.epochs,
            batch: args.batch,
            lr: args.lr,
            lr_decay: args.lr_decay,
            lambda: args.lambda,
            holdout: args.holdout,
            seed: args.seed,
            patience: args.patience,
            mirror: args.mirror,
            threads: args.threads,
            progress: true,
        },
        command_line: command_line(std::env::args().skip(1)),
        note: args.provenance,
    };
    let summary = train::train(&run, &mut |p| match p {
        Progress::Baselines(b) => out!(
            "held-out loss: hand-crafted eval {:.6}, material {:.6}",
            b.hand_crafted,
            b.material
        ),
        Progress::Epoch(r) => out!(
            "epoch {}/{}: train loss {:.6}, held-out loss {} (best: epoch {}), {:.0} positions/s",
            r.epoch,
            r.epochs,
            r.train_loss,
            train::held_out_text(r.held_out_loss.unwrap_or(f64::NAN)),
            r.best_epoch,
            r.positions_per_second
        ),
    })
    .map_err(fail)?;
    for f in &summary.data.files {
        out!("{}: {} positions, {} not quiet", f.file, f.kept, f.noisy);
    }
    out!(
        "{} train and {} held-out positions; {} epochs trained now ({} in all)",
        summary.data.train.len(),
        summary.data.held_out.len(),
        summary.epochs_trained,
        summary.epochs_done
    );
    if summary.stopped_early {
        out!(
            "stopped early: no lower held-out loss in the {} epochs after epoch {}",
            args.patience,
            summary.best_epoch
        );
    }
    out!(
        "the net is epoch {}'s: train loss {:.6}, held-out loss {}",
        summary.best_epoch,
        summary.losses.0,
        train::held_out_text(summary.losses.1)
    );
    out!(
        "wrote {} (checkpoint {})",
        args.out.display(),
        summary.checkpoint.display()
    );
    Ok(())
}
