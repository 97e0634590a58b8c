//! Search. The protocol layer talks to it only through [`Searcher`]: start a search
//! on a position with [`Limits`], receive [`Event`]s through a callback, stop it.
//! The search never prints.

pub mod bench;
mod busy;
mod checks;
mod history;
mod live;
pub mod movegen_fast;
mod movepick;
mod moves;
mod node;
mod params;
mod qsearch;
mod root;
mod score;
mod shared;
pub mod skill;
mod thread;
mod timeman;
pub mod tt;
mod worker;

pub use live::LiveReports;
pub use score::{MATE, MATE_BOUND};
pub use skill::Skill;
pub use thread::Outcome;

use crate::board::Position;
use crate::types::Move;
use history::History;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;
use tt::TranspositionTable;

/// What a search may use. `None` everywhere means "until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Exactly this long (UCI movetime, CECP st).
    pub movetime: Option<Duration>,
    /// Clock of the side to move, its increment, moves until the next time control.
    pub time_left: Option<Duration>,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
    /// Time the GUI needs per move (lag), taken off every budget.
    pub move_overhead: Duration,
    /// Search until `stop` (analysis, UCI infinite).
    pub infinite: bool,
    /// Pondering: like infinite until `ponderhit` turns the clock limits on.
    pub ponder: bool,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Only these root moves (empty = all).
    pub search_moves: Vec<Move>,
    /// Never these root moves (CECP exclude).
    pub exclude_moves: Vec<Move>,
    /// CECP `nps`: node budget per second instead of wall time.
    pub nps: Option<u64>,
    /// Principal variations to report.
    pub multi_pv: usize,
    /// Play weaker (skill.rs): a node budget and a choice among near-best moves.
    pub skill: Option<Skill>,
    /// What to report besides the principal variations (live.rs).
    pub live: LiveReports,
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: getting mated).
    Mate(i32),
}

#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
}

#[derive(Clone, Debug)]
pub enum Event {
    Info(Info),
    /// The main thread starts searching root move `mv`, number `number` (from 1) in
    /// the current order (sent only if asked for, after the first second).
    CurrMove {
        mv: Move,
        number: usize,
    },
    /// The line the main thread is searching, from the root (a null move is
    /// `Move::NONE`).
    CurrLine(Vec<Move>),
    /// A root move just searched, then the best answer found to it and that answer's
    /// continuation (only the move when no answer is known).
    Refutation(Vec<Move>),
    /// The search ended. `best` is legal unless the position has no legal move
    /// (then it is `Move::NONE`).
    BestMove {
        best: Move,
        ponder: Option<Move>,
    },
}

pub type Callback = Arc<dyn Fn(Event) + Send + Sync>;

/// Controls that may be touched while a search runs.
#[derive(Default)]
pub struct Signals {
    pub stop: AtomicBool,
    /// Set by ponderhit: from now on the clock limits apply.
    pub ponderhit: AtomicBool,
}

/// Runs searches in a background thread, on a rayon pool of `threads` workers
/// (Lazy SMP) sharing one transposition table.
pub struct Searcher {
    threads: usize,
    hash_mb: usize,
    signals: Arc<Signals>,
    handle: Option<JoinHandle<Outcome>>,
    pool: Arc<rayon::ThreadPool>,
    tt: Arc<TranspositionTable>,
    history: History,
    last: Option<Outcome>,
}

fn build_pool(n: usize) -> Arc<rayon::ThreadPool> {
    Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("search-{i}"))
            // Deep searches recurse: give the workers room.
            .stack_size(64 << 20)
            .build()
            .expect("a thread pool can be built"),
    )
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher {
            threads: 1,
            hash_mb: 16,
            signals: Arc::new(Signals::default()),
            handle: None,
            pool: build_pool(1),
            tt: Arc::new(TranspositionTable::new(16)),
            history: History::default(),
            last: None,
        }
    }
    /// Worker threads (CECP `cores`, UCI `Threads`): the pool is rebuilt.
    pub fn set_threads(&mut self, n: usize) {
        self.wait();
        let n = n.max(1);
        if n != self.threads {
            self.threads = n;
            self.pool = build_pool(n);
        }
    }
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Transposition table size (CECP `memory`, UCI `Hash`).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.wait();
        let mb = mb.max(1);
        if mb != self.hash_mb {
            self.hash_mb = mb;
            // Free the old table before allocating the new one.
            self.tt = Arc::new(TranspositionTable::new(1));
            self.tt = Arc::new(TranspositionTable::new(mb));
        }
    }
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }
    /// Forget everything learnt (new game, Clear Hash).
    pub fn clear(&mut self) {
        self.wait();
        self.tt.clear();
        self.history.clear();
    }
    /// Start searching `pos` (which carries the game history for repetitions).
    /// Any running search is stopped first.
    pub fn start(&mut self, pos: Position, limits: Limits, callback: Callback) {
        self.stop();
        self.signals = Arc::new(Signals::default());
        let v = pos.variant();
        self.history.fit(v.num_types(), v.geometry.num_squares());
        let resources = thread::Resources {
            pool: self.pool.clone(),
            signals: self.signals.clone(),
            tt: self.tt.clone(),
            history: self.history.clone(),
        };
        self.handle = Some(std::thread::spawn(move || {
            thread::run(resources, pos, limits, &callback)
        }));
    }

    /// Search `pos` on the calling thread's behalf and return the result (bench,
    /// book building, tests). Events still go to `callback`.
    pub fn think(&mut self, pos: Position, limits: Limits, callback: Callback) -> Outcome {
        self.start(pos, limits, callback);
        self.wait();
        self.last.take().expect("a finished search has an outcome")
    }

    /// The outcome of the last search that ended (taken once).
    pub fn take_outcome(&mut self) -> Option<Outcome> {
        self.wait();
        self.last.take()
    }
    /// Ask the search to finish now; it still reports its best move.
    pub fn stop(&mut self) {
        self.signals.stop.store(true, Ordering::SeqCst);
        self.wait();
    }
    /// Ask without waiting (for use from another thread's command).
    pub fn signal_stop(&self) {
        self.signals.stop.store(true, Ordering::SeqCst);
    }
    pub fn ponderhit(&self) {
        self.signals.ponderhit.store(true, Ordering::SeqCst);
    }
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }
    /// Block until the current search (if any) has ended.
    pub fn wait(&mut self) {
        if let Some(Ok(o)) = self.handle.take().map(|h| h.join()) {
            self.last = Some(o);
        }
    }
}
