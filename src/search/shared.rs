//! What the threads of one search share: the transposition table, the stop flag,
//! node counters, the deepest completed iteration and the moves being searched.

use super::Signals;
use super::busy::BusyMoves;
use super::tt::TranspositionTable;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A root move with its score and principal variation.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
}

/// A node counter on its own cache line (threads write theirs often).
#[repr(align(64))]
#[derive(Default)]
pub struct PaddedCounter(AtomicU64);

impl std::ops::Deref for PaddedCounter {
    type Target = AtomicU64;
    fn deref(&self) -> &AtomicU64 {
        &self.0
    }
}

/// What the threads of one search share.
pub struct Shared {
    pub tt: Arc<TranspositionTable>,
    /// Set by the main thread when the search must end (time, limits, stop command).
    pub stop: AtomicBool,
    pub signals: Arc<Signals>,
    pub nodes: Vec<PaddedCounter>,
    /// The deepest iteration any thread has completed (read by every thread at
    /// each poll: a thread still searching that depth or a shallower one drops it).
    pub deepest: AtomicI32,
    /// That iteration's root moves, best first, for the thread that drops its own.
    pub deepest_result: Mutex<(i32, Vec<RootMove>)>,
    /// The moves threads are searching now, for the others to put off.
    pub busy: BusyMoves,
}

impl Shared {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
    pub fn ponderhit_applies(&self) -> bool {
        self.signals.ponderhit.load(Ordering::Relaxed)
    }
    /// A thread completed iteration `depth` with these root moves.
    pub fn publish_iteration(&self, depth: i32, root_moves: &[RootMove]) {
        if depth <= self.deepest.load(Ordering::Relaxed) {
            return;
        }
        let mut r = self
            .deepest_result
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if depth > r.0 {
            *r = (depth, root_moves.to_vec());
            self.deepest.store(depth, Ordering::Release);
        }
    }
    /// The deepest completed iteration, if it is at least `depth`.
    pub fn iteration_at_least(&self, depth: i32) -> Option<(i32, Vec<RootMove>)> {
        let r = self
            .deepest_result
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        (r.0 >= depth).then(|| r.clone())
    }
}
