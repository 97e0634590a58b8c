//! Lazy SMP: every thread of the rayon pool runs the same iterative deepening on its
//! own copy of the position. They read the same compiled rules, evaluator and check
//! hints, and share the transposition table, the move-ordering history, the stop
//! flag and node counters. Thread 0 is the main thread: it owns the clock and the output,
//! and its result is the search's result. With one thread this is exactly the
//! single-threaded search.

use super::busy::BusyMoves;
use super::checks::CheckHints;
use super::history::History;
use super::root::root_moves;
use super::score::to_score;
use super::shared::{PaddedCounter, Shared};
use super::skill::Picker;
use super::timeman::TimeManager;
use super::tt::TranspositionTable;
use super::worker::Worker;
use super::{Callback, Event, Info, Limits, Score, Signals};
use crate::board::{Position, Ruleset};
use crate::eval::Evaluator;
use crate::nnue::Nnue;
use crate::types::Move;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The result of a finished search.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub best: Move,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Nodes of the main thread alone (deterministic at one thread).
    pub main_nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
}

/// What a search runs on: the thread pool, the controls, and the memory that
/// outlives one search (transposition table, move-ordering history, what was
/// compiled from the rules).
pub struct Resources {
    pub pool: Arc<rayon::ThreadPool>,
    pub signals: Arc<Signals>,
    pub tt: Arc<TranspositionTable>,
    pub history: History,
    pub compiled: Arc<Compiled>,
}

/// The evaluator and check hints of the last rules searched, kept for the next
/// search of the same rules: compiling them takes milliseconds, a noticeable share
/// of a move at a fast time control.
#[derive(Default)]
pub struct Compiled {
    last: Mutex<Option<CompiledRules>>,
    /// The learned evaluation the next searches use where it fits their variant.
    nnue: Mutex<Option<Arc<Nnue>>>,
}

struct CompiledRules {
    rules: Arc<Ruleset>,
    nnue: Option<Arc<Nnue>>,
    eval: Arc<Evaluator>,
    checks: Arc<CheckHints>,
}

/// The same net, or none on both sides.
fn same_net(a: &Option<Arc<Nnue>>, b: &Option<Arc<Nnue>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

impl Compiled {
    /// Use `nnue` from the next search on (None: the hand-crafted evaluation).
    pub fn set_nnue(&self, nnue: Option<Arc<Nnue>>) {
        *self.nnue.lock().unwrap_or_else(|e| e.into_inner()) = nnue;
    }

    fn for_rules(&self, rules: &Arc<Ruleset>) -> (Arc<Evaluator>, Arc<CheckHints>) {
        let nnue = self.nnue.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = &*last
            && Arc::ptr_eq(&c.rules, rules)
            && same_net(&c.nnue, &nnue)
        {
            return (c.eval.clone(), c.checks.clone());
        }
        let mut eval = Evaluator::new(rules);
        if let Some(net) = &nnue {
            eval = eval.with_nnue(net.clone());
        }
        let eval = Arc::new(eval);
        let checks = Arc::new(CheckHints::new(rules));
        *last = Some(CompiledRules {
            rules: rules.clone(),
            nnue,
            eval: eval.clone(),
            checks: checks.clone(),
        });
        (eval, checks)
    }
}

/// Run one search on the pool, blocking until it ends; reports through `callback`.
pub fn run(res: Resources, mut pos: Position, mut limits: Limits, callback: &Callback) -> Outcome {
    let Resources {
        pool,
        signals,
        tt,
        history,
        compiled,
    } = res;
    let start = Instant::now();
    let threads = pool.current_num_threads().max(1);
    let roots = root_moves(&mut pos, &limits);
    if roots.is_empty() {
        wait_for_stop(&limits, &signals);
        callback(Event::BestMove {
            best: Move::NONE,
            ponder: None,
        });
        return Outcome {
            best: Move::NONE,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            main_nodes: 0,
            time: start.elapsed(),
            pv: Vec::new(),
        };
    }
    // Playing weaker: a smaller search, then a choice among its near-best moves.
    let picker = limits.skill.map(|skill| {
        let picker = Arc::new(Picker::new(skill, &limits, roots.len(), pos.key()));
        skill.restrict(&mut limits);
        picker
    });
    let callback = &match &picker {
        Some(p) => p.wrap(callback.clone()),
        None => callback.clone(),
    };
    tt.new_search();
    let (eval, checks) = compiled.for_rules(pos.rules());
    let shared = Arc::new(Shared {
        tt,
        stop: AtomicBool::new(false),
        signals: signals.clone(),
        nodes: (0..threads).map(|_| PaddedCounter::default()).collect(),
        deepest: AtomicI32::new(0),
        deepest_result: Mutex::new((0, Vec::new())),
        busy: BusyMoves::new(threads),
    });
    let results = pool.broadcast(|ctx| {
        let i = ctx.index();
        // Every thread reads the same rules, evaluator and check hints: the search
        // touches no reference count, so sharing them costs nothing.
        let mut w = Worker::new(
            i,
            pos.clone(),
            eval.clone(),
            checks.clone(),
            shared.clone(),
            history.clone(),
        );
        w.root_moves = roots.clone();
        if i == 0 {
            w.iterate(
                &limits,
                Some(TimeManager::new(&limits, start)),
                Some(callback),
            );
            shared.stop.store(true, Ordering::Relaxed);
        } else if picker.is_none() {
            // (A weakened search is the main thread's alone: the same strength
            // whatever the number of threads.)
            w.iterate(&limits, None, None);
        }
        let rm = &w.root_moves[0];
        (rm.mv, rm.pv.clone(), rm.score, w.completed_depth, w.nodes)
    });
    let (mut best, mut pv, mut score, mut depth, main_nodes) =
        results.into_iter().next().expect("the main thread ran");
    // Stopped (clock, stop command) while a helper had already completed a deeper
    // iteration than the main thread: that iteration's move is the better guess.
    if let Some((d, rms)) = shared.iteration_at_least(depth + 1)
        && let Some(rm) = rms.first()
    {
        (best, pv, score, depth) = (rm.mv, rm.pv.clone(), rm.score, d);
        // Report it, so that the last PV shown starts with the move played.
        let time = start.elapsed();
        let nodes = shared.total_nodes();
        callback(Event::Info(Info {
            depth: d as u32,
            seldepth: d as u32,
            multipv: 1,
            score: to_score(score),
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
            time,
            pv: pv.clone(),
            hashfull: shared.tt.hashfull(),
        }));
    }
    let mut score = to_score(score);
    if let Some(chosen) = picker.and_then(|p| p.choose())
        && chosen.pv.first() != Some(&best)
    {
        (best, pv, score) = (chosen.pv[0], chosen.pv.clone(), chosen.score);
        // Reported as the main line: the last PV shown starts with the move played.
        callback(Event::Info(Info {
            multipv: 1,
            ..chosen
        }));
    }
    wait_for_stop(&limits, &signals);
    let ponder = pv.get(1).copied();
    callback(Event::BestMove { best, ponder });
    Outcome {
        best,
        ponder,
        score,
        depth: depth.max(0) as u32,
        nodes: shared.total_nodes(),
        main_nodes,
        time: start.elapsed(),
        pv,
    }
}

/// Infinite and ponder searches report their move only when told to stop (or, when
/// pondering, at ponderhit).
fn wait_for_stop(limits: &Limits, signals: &Signals) {
    while (limits.infinite || limits.ponder) && !signals.stop.load(Ordering::Relaxed) {
        if limits.ponder && !limits.infinite && signals.ponderhit.load(Ordering::Relaxed) {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}
