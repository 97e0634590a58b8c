//! The trainer of the learned evaluation: fits a float model of the engine's net
//! (docs/nnue.md) to labelled positions on the CPU and writes the quantised net.
//!
//! - `data` reads the positions once into their active inputs;
//! - `model` is the float net, its initialisation, clip and quantisation;
//! - `gradient` computes mini-batch gradients over the rayon pool, summed in a
//!   fixed order, and steps Adam;
//! - `baseline` is the material start of the linear path and the held-out
//!   losses of the hand-crafted evaluation and of that start;
//! - `checkpoint` saves and resumes a run after every epoch;
//! - `teacher` and `rescore` score positions again with another UCI engine
//!   (`menagerie rescore`), labels a net can be trained on instead;
//! - `run` is the loop over epochs, with the held-out loss, the best epoch
//!   (early stopping) and the provenance.
//!
//! The loss is the squared error between the model's winning chance
//! `σ(out * scale / K)` and the label `(1 - λ)·σ(score / K) + λ·result`, both for
//! the side to move, with `K` = [`model::K_CP`]. Nothing here depends on a
//! variant's name: the layout, the buckets and the bounds come from its board,
//! pieces and hands.

pub mod baseline;
pub mod checkpoint;
pub mod data;
pub mod gradient;
pub mod model;
pub mod rescore;
mod run;
pub mod teacher;

pub use crate::movegen::labelled::LineProblem;
pub use baseline::{Baselines, material_start};
pub use data::{Dataset, ReadSettings, Sample};
pub use model::{Bounds, K_CP, Model, Shape};
pub use run::{
    EpochReport, Options, Progress, Summary, TrainRun, held_out_text, max_active_inputs, train,
};

use thiserror::Error;

/// Why training could not run or finish; each names the file, line or setting.
#[derive(Debug, Error)]
pub enum TrainError {
    #[error("{file}: {source}")]
    Io {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}:{line}: {problem}")]
    Line {
        file: String,
        line: usize,
        problem: LineProblem,
    },
    #[error(
        "no training positions in the data (every kept position is held out, or none is quiet)"
    )]
    NoPositions,
    #[error("the data have more than 2^32 inputs in all; split them")]
    TooMuchData,
    #[error("{file}: {reason}")]
    Checkpoint { file: String, reason: String },
    #[error("--{option} is {value}: {reason}")]
    BadOption {
        option: &'static str,
        value: String,
        reason: &'static str,
    },
    #[error("cannot start {threads} threads: {reason}")]
    Threads { threads: usize, reason: String },
    #[error("{0}")]
    Net(#[from] crate::nnue::NetError),
}
