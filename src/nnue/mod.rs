//! A learned evaluation (NNUE-style): a small net per variant over inputs laid
//! out from the variant's board, pieces, hands and walls, with accumulators
//! updated incrementally from what each move changed. docs/nnue.md describes the
//! layout, the architecture, the file format and the quantisation.
//!
//! `features` lays out the inputs, `net` holds the weights and computes the
//! output, `format` reads and writes net files, `accumulator` keeps the first
//! layer's output per thread and ply.

pub mod accumulator;
pub mod builtin;
pub mod features;
pub mod format;
pub mod net;

use crate::board::{Position, Ruleset};
use accumulator::AccumulatorStack;
use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;

pub use accumulator::{Accumulator, UpdatePath};
pub use features::{InputKind, Layout};
pub use format::{NetError, read_net, write_net};
pub use net::{Net, Weights};

thread_local! {
    /// The thread's accumulators: the search evaluates positions of one line,
    /// ply after ply, so each is a few column updates from one kept before.
    static STACK: RefCell<AccumulatorStack> = const { RefCell::new(AccumulatorStack::new()) };
}

/// A net with the layout of the variant it is used for.
#[derive(Debug)]
pub struct Nnue {
    layout: Layout,
    net: Net,
}

impl Nnue {
    /// `net` for the layout it was read or made for (the caller checked the
    /// fingerprint: [`read_net`] does).
    pub fn new(layout: Layout, net: Net) -> Nnue {
        Nnue { layout, net }
    }

    /// The net in the file at `path`, for the rules' variant.
    pub fn load(path: &Path, rules: &Arc<Ruleset>) -> Result<Nnue, NetError> {
        let layout = Layout::new(rules);
        let net = Net::load(path, &layout)?;
        Ok(Nnue { layout, net })
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The evaluation of `pos` in centipawns for the side to move, with the
    /// thread's accumulators.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        STACK.with(|stack| {
            let mut stack = stack.borrow_mut();
            let acc = stack.update(&self.net, &self.layout, pos);
            self.output(acc, pos)
        })
    }

    /// The evaluation from `pos`'s accumulator.
    pub fn output(&self, acc: &Accumulator, pos: &Position) -> i32 {
        use crate::types::Color;
        let bucket = self.net.bucket(&self.layout, pos.occupied().count());
        self.net.output(
            [acc.perspective(Color::White), acc.perspective(Color::Black)],
            [acc.psqt(Color::White), acc.psqt(Color::Black)],
            pos.side_to_move(),
            bucket,
        )
    }
}
