//! A training run: read the data, resume or start the model (its linear path
//! at the material start), report the held-out baselines, train epoch after
//! epoch (a checkpoint after each) until the epochs are done or the held-out
//! loss has not improved for `patience` epochs, quantise the best epoch's model
//! and write the net with its provenance.

use super::TrainError;
use super::baseline::{Baselines, material_start};
use super::checkpoint::Checkpoint;
use super::data::{Dataset, ReadSettings, Sample};
use super::gradient::{Adam, Stepper, mean_loss};
use super::model::{Bounds, Model, Shape};
use crate::board::Ruleset;
use crate::eval::Evaluator;
use crate::nnue::format::{MAX_BUCKETS, MAX_HIDDEN};
use crate::nnue::{Layout, Net};
use crate::types::{PieceType, SplitMix64, absorb, mix64, splitmix64};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The settings of a run.
#[derive(Clone, Debug)]
pub struct Options {
    pub hidden: usize,
    pub buckets: usize,
    /// Epochs in all (a resumed run does those still missing).
    pub epochs: u32,
    /// Positions per mini-batch; 0: from the data ([`batch_for`]).
    pub batch: usize,
    /// Adam's step size in the first epoch.
    pub lr: f32,
    /// The step size is multiplied by this after every epoch (epoch `e`, from
    /// 0, steps `lr * lr_decay^e`; 1: constant). A schedule of the epoch alone,
    /// not of the epochs planned, so that a run resumed with more epochs makes
    /// the net of one planned with them.
    pub lr_decay: f32,
    /// Weight of the game result in the label.
    pub lambda: f32,
    /// One game in this many is held out (0: none).
    pub holdout: u32,
    pub seed: u64,
    /// Stop after this many epochs without a lower held-out loss (0: never stop
    /// early). Like `epochs` it does not change the epochs trained before the stop.
    pub patience: u32,
    /// Also train on every training position mirrored left to right (for
    /// variants whose pieces move alike to both sides; the held-out positions
    /// are not mirrored).
    pub mirror: bool,
    /// Threads of the pool (0: one per core). The net does not depend on it.
    pub threads: usize,
    /// Draw a progress bar on stderr.
    pub progress: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hidden: 256,
            buckets: 1,
            epochs: 10,
            batch: 0,
            lr: 0.001,
            lr_decay: DEFAULT_LR_DECAY,
            lambda: 0.2,
            holdout: 10,
            seed: 1,
            patience: 3,
            mirror: false,
            threads: 0,
            progress: false,
        }
    }
}

/// What to train on and where to write.
pub struct TrainRun<'a> {
    pub rules: &'a Arc<Ruleset>,
    pub data: &'a [PathBuf],
    pub out: &'a Path,
    pub options: Options,
    /// The command, for the provenance.
    pub command_line: String,
    /// Extra provenance text (`--provenance`).
    pub note: Option<String>,
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub epochs: u32,
    /// Mean loss over the epoch's batches (each before its step).
    pub train_loss: f64,
    /// `None` where nothing is held out.
    pub held_out_loss: Option<f64>,
    /// The epoch of the lowest held-out loss so far (this one or an earlier).
    pub best_epoch: u32,
    pub positions_per_second: f64,
}

/// What a run tells as it goes.
#[derive(Clone, Debug)]
pub enum Progress<'a> {
    /// Before the first epoch, where positions are held out: the losses to beat.
    Baselines(&'a Baselines),
    /// After each epoch.
    Epoch(&'a EpochReport),
}

/// What a run made.
pub struct Summary {
    /// The best epoch's model, the one written.
    pub model: Model,
    pub net: Net,
    pub data: Dataset,
    /// Epochs trained by this call (the rest came from the checkpoint).
    pub epochs_trained: u32,
    /// Epochs trained in all (fewer than asked where the run stopped early).
    pub epochs_done: u32,
    /// The epoch written: the one of the lowest held-out loss (the last where
    /// nothing is held out).
    pub best_epoch: u32,
    /// The best epoch's train and held-out losses.
    pub losses: (f64, f64),
    /// The run stopped before its last epoch: `patience` epochs without a
    /// lower held-out loss.
    pub stopped_early: bool,
    pub baselines: Option<Baselines>,
    pub checkpoint: PathBuf,
}

/// The most inputs of one perspective that can be on together: one per square
/// (a piece or a wall) and each hand slot of either side.
pub fn max_active_inputs(rules: &Ruleset, layout: &Layout) -> usize {
    let squares = rules.variant.geometry.num_squares();
    let slots: usize = (0..layout.types())
        .map(|t| layout.hand_slots(t as PieceType) as usize)
        .sum();
    squares + 2 * slots
}

fn check_options(o: &Options) -> Result<(), TrainError> {
    let bad = |option, value: String, reason| {
        Err(TrainError::BadOption {
            option,
            value,
            reason,
        })
    };
    if o.hidden == 0 || o.hidden > MAX_HIDDEN as usize {
        return bad("hidden", o.hidden.to_string(), "must be 1..=4096");
    }
    if o.buckets == 0 || o.buckets > MAX_BUCKETS as usize {
        return bad("buckets", o.buckets.to_string(), "must be 1..=64");
    }
    if !(o.lr.is_finite() && o.lr > 0.0) {
        return bad("lr", o.lr.to_string(), "must be a positive number");
    }
    if !(o.lr_decay > 0.0 && o.lr_decay <= 1.0) {
        return bad(
            "lr-decay",
            o.lr_decay.to_string(),
            "must be within 0 (excluded) and 1",
        );
    }
    if !(0.0..=1.0).contains(&o.lambda) {
        return bad("lambda", o.lambda.to_string(), "must be within 0..=1");
    }
    Ok(())
}

/// The batch size when none is given: a 64th of the positions, within
/// [`MIN_BATCH`, `MAX_BATCH`]. Too large a batch makes too few Adam steps: 16384 on
/// 78k chess positions made about 50 steps in 12 epochs, and the net did not learn
/// material (docs/nnue.md, "First measurement"); on 207k minishogi positions a
/// 64th (5628) ended 10 epochs at a held-out loss of 0.01433, 1024 at 0.01241
/// (docs/nnue.md, "Training").
pub fn batch_for(given: usize, train_positions: usize) -> usize {
    if given > 0 {
        given
    } else {
        (train_positions / 64).clamp(MIN_BATCH, MAX_BATCH)
    }
}

/// The smallest and largest batch [`batch_for`] chooses.
pub const MIN_BATCH: usize = 256;
pub const MAX_BATCH: usize = 1024;

/// A hash of everything that shapes the training except the number of epochs:
/// the layout, the sizes and settings, and the data themselves.
fn run_key(layout: &Layout, o: &Options, data: &Dataset) -> u64 {
    let mut h = absorb(0x0074_7261_696E, layout.fingerprint());
    for w in [
        o.hidden as u64,
        o.buckets as u64,
        o.batch as u64,
        o.lr.to_bits() as u64,
        o.lr_decay.to_bits() as u64,
        o.lambda.to_bits() as u64,
        o.holdout as u64,
        o.seed,
        o.mirror as u64,
        // The architecture: a checkpoint of the trainer before the linear path
        // has other parameters.
        2,
        data.train.len() as u64,
        data.held_out.len() as u64,
    ] {
        h = absorb(h, w);
    }
    for &f in &data.features {
        h = absorb(h, f as u64);
    }
    for s in data.train.iter().chain(&data.held_out) {
        h = absorb(
            h,
            s.score.to_bits() as u64 ^ ((s.result.to_bits() as u64) << 32),
        );
    }
    mix64(h)
}

/// Fisher-Yates from `seed`.
fn shuffle(order: &mut [Sample], seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for i in (1..order.len()).rev() {
        let j = rng.below(i + 1);
        order.swap(i, j);
    }
}

fn progress_bar(total: u64, show: bool) -> ProgressBar {
    let target = if show {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    if let Ok(style) =
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} batches, ETA {eta}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Train as `run` says, reporting the baselines and each epoch to `report`, and
/// write the net.
pub fn train(
    run: &TrainRun,
    report: &mut (dyn FnMut(Progress) + Send),
) -> Result<Summary, TrainError> {
    let o = &run.options;
    check_options(o)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads)
        .build()
        .map_err(|e| TrainError::Threads {
            threads: o.threads,
            reason: e.to_string(),
        })?;
    pool.install(|| train_in_pool(run, report))
}

fn train_in_pool(
    run: &TrainRun,
    report: &mut (dyn FnMut(Progress) + Send),
) -> Result<Summary, TrainError> {
    let o = &run.options;
    let layout = Layout::new(run.rules);
    let bounds = Bounds::new(max_active_inputs(run.rules, &layout));
    let hand_crafted = Evaluator::new(run.rules);
    let settings = ReadSettings {
        rules: run.rules,
        layout: &layout,
        buckets: o.buckets,
        holdout: o.holdout,
        seed: o.seed,
        hand_crafted: &hand_crafted,
        mirror: o.mirror,
    };
    let data = Dataset::read_files(run.data, &settings)?;
    if data.train.is_empty() {
        return Err(TrainError::NoPositions);
    }
    let shape = Shape {
        inputs: layout.inputs(),
        hidden: o.hidden,
        buckets: o.buckets,
    };
    // The batch follows from the data where none is given, and is recorded as chosen.
    let options = Options {
        batch: batch_for(o.batch, data.train.len()),
        ..o.clone()
    };
    let o = &options;
    let key = run_key(&layout, o, &data);
    let mut ckpt_path = run.out.as_os_str().to_owned();
    ckpt_path.push(".ckpt");
    let ckpt_path = PathBuf::from(ckpt_path);
    let mut model = Model::new(
        shape,
        o.seed,
        bounds,
        &material_start(&hand_crafted, &layout),
    );
    model.clip(bounds);
    let baselines = Baselines::of(&data, &model, o.lambda);
    if let Some(b) = &baselines {
        report(Progress::Baselines(b));
    }
    let mut state = match Checkpoint::load(&ckpt_path, key, &model, o.lr)? {
        Some(c) => c,
        None => Checkpoint {
            key,
            epochs_done: 0,
            shuffle_seed: splitmix64(o.seed ^ 0x5348_5546),
            losses: (f64::NAN, f64::NAN),
            adam: Adam::new(shape.len(), o.lr),
            best_epoch: 0,
            best_losses: (f64::NAN, f64::NAN),
            best: model.clone(),
            model,
        },
    };
    let first = state.epochs_done;
    // Without held-out positions there is nothing to stop on.
    let patience = if data.held_out.is_empty() {
        0
    } else {
        o.patience
    };
    let out_of_patience = |s: &Checkpoint| patience > 0 && s.epochs_done >= s.best_epoch + patience;
    let batches = data.train.len().div_ceil(o.batch) as u64;
    let bar = progress_bar(batches * o.epochs.saturating_sub(first) as u64, o.progress);
    let mut stepper = Stepper::new(shape, o.batch.min(data.train.len()));
    let mut order = data.train.clone();
    for epoch in first..o.epochs {
        if out_of_patience(&state) {
            break;
        }
        state.adam.lr = epoch_lr(o, epoch);
        let started = Instant::now();
        order.copy_from_slice(&data.train);
        shuffle(&mut order, state.shuffle_seed);
        let mut loss = 0.0;
        for batch in order.chunks(o.batch) {
            loss += stepper.step(&mut state.model, &mut state.adam, &data, batch, o.lambda);
            state.model.clip(bounds);
            bar.inc(1);
        }
        let train_loss = loss / order.len() as f64;
        // NaN stands for "nothing held out" in the checkpoint and provenance.
        let held = if data.held_out.is_empty() {
            f64::NAN
        } else {
            mean_loss(&state.model, &data, &data.held_out, o.lambda)
        };
        let seconds = started.elapsed().as_secs_f64().max(1e-9);
        state.epochs_done = epoch + 1;
        state.shuffle_seed = splitmix64(state.shuffle_seed);
        state.losses = (train_loss, held);
        // Where nothing is held out every epoch is the best so far (the last).
        if held.is_nan() || state.best_epoch == 0 || held < state.best_losses.1 {
            state.best_epoch = epoch + 1;
            state.best_losses = state.losses;
            state.best.params.copy_from_slice(&state.model.params);
        }
        state.save(&ckpt_path)?;
        bar.set_message(format!(
            "epoch {}/{} loss {train_loss:.6} held-out {held:.6} (best {})",
            epoch + 1,
            o.epochs,
            state.best_epoch
        ));
        let r = EpochReport {
            epoch: epoch + 1,
            epochs: o.epochs,
            train_loss,
            held_out_loss: (!held.is_nan()).then_some(held),
            best_epoch: state.best_epoch,
            positions_per_second: order.len() as f64 / seconds,
        };
        // The bar steps aside so that the report's lines do not tear it.
        bar.suspend(|| report(Progress::Epoch(&r)));
    }
    bar.finish_and_clear();
    let stopped_early = state.epochs_done < o.epochs && out_of_patience(&state);
    let provenance = provenance(run, o, &data, &state, baselines.as_ref());
    let net = state
        .best
        .quantise(&layout, &run.rules.variant.name, provenance, bounds);
    net.save(run.out)?;
    Ok(Summary {
        model: state.best,
        net,
        data,
        epochs_trained: state.epochs_done - first,
        epochs_done: state.epochs_done,
        best_epoch: state.best_epoch,
        losses: state.best_losses,
        stopped_early,
        baselines,
        checkpoint: ckpt_path,
    })
}

/// The step size's factor per epoch by default: after 10 epochs the step is
/// about a tenth of the first (0.8^10 = 0.107).
pub const DEFAULT_LR_DECAY: f32 = 0.8;

/// Adam's step size in epoch `epoch` (from 0).
fn epoch_lr(o: &Options, epoch: u32) -> f32 {
    (o.lr as f64 * (o.lr_decay as f64).powi(epoch as i32)) as f32
}

/// A held-out loss, or "none" (NaN: nothing held out).
pub fn held_out_text(loss: f64) -> String {
    if loss.is_nan() {
        "none".to_string()
    } else {
        format!("{loss:.6}")
    }
}

/// How the net was made: enough to make it again.
fn provenance(
    run: &TrainRun,
    o: &Options,
    data: &Dataset,
    state: &Checkpoint,
    baselines: Option<&Baselines>,
) -> String {
    let files: Vec<String> = data
        .files
        .iter()
        .map(|f| {
            let labels = f.labels.as_deref().unwrap_or("no header");
            format!(
                "{} ({} positions, {} not quiet; labels: {labels})",
                f.file, f.kept, f.noisy
            )
        })
        .collect();
    let mut text = format!(
        "{}\nmenagerie train: seed {}, hidden {}, buckets {}, epochs {} (patience {}), \
         batch {}, lr {} (times {} an epoch), lambda {}, holdout 1 game in {}, mirror {} \
         ({} games; {} train, {} held-out positions)\ndata: {}\n",
        run.command_line,
        o.seed,
        o.hidden,
        o.buckets,
        state.epochs_done,
        o.patience,
        o.batch,
        o.lr,
        o.lr_decay,
        o.lambda,
        o.holdout,
        o.mirror,
        data.games,
        data.train.len(),
        data.held_out.len(),
        files.join(", "),
    );
    if let Some(b) = baselines {
        text.push_str(&format!(
            "held-out loss to beat: hand-crafted eval {:.6}, material {:.6}\n",
            b.hand_crafted, b.material
        ));
    }
    text.push_str(&format!(
        "written: epoch {} of {}, loss: train {:.6}, held-out {}",
        state.best_epoch,
        state.epochs_done,
        state.best_losses.0,
        held_out_text(state.best_losses.1),
    ));
    if let Some(note) = &run.note {
        text.push('\n');
        text.push_str(note);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A given batch is kept; none (0) is a 64th of the positions, within bounds.
    #[test]
    fn the_batch_follows_the_data_unless_given() {
        assert_eq!(batch_for(1000, 78_025), 1000);
        assert_eq!(batch_for(0, 30_000), 468);
        assert_eq!(batch_for(0, 78_025), MAX_BATCH);
        assert_eq!(batch_for(0, 500), MIN_BATCH);
        assert_eq!(batch_for(0, 10_000_000), MAX_BATCH);
    }
}
