//! Search. The protocol layer talks to it only through [`Searcher`]: start a search
//! on a position with [`Limits`], receive [`Event`]s through a callback, stop it.
//! The search never prints.

pub mod bench;
mod busy;
mod checks;
mod history;
mod live;
mod movepick;
mod moves;
mod node;
mod pages;
mod params;
mod qsearch;
mod root;
mod score;
pub mod selfplay;
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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
pub use tt::TableError;
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

impl Limits {
    /// The same limits with `spent` already gone from the clock (and from a fixed
    /// move time).
    pub fn less_time(mut self, spent: Duration) -> Limits {
        if spent.is_zero() {
            return self;
        }
        self.time_left = self.time_left.map(|t| t.saturating_sub(spent));
        self.movetime = self.movetime.map(|t| t.saturating_sub(spent));
        self
    }
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
    table: Arc<PreparedTable>,
    /// No search has used the table since it was made or cleared.
    table_is_empty: bool,
    history: History,
    compiled: Arc<thread::Compiled>,
    last: Option<Outcome>,
}

/// Why the search threads could not be changed. The old ones stay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadsError(pub String);

impl std::fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot start the search threads: {}", self.0)
    }
}

/// More search threads than cores only make the threads take turns: Lazy SMP gains
/// nothing from them, a stop takes longer to reach every thread, and the input
/// thread waits for its turn (512 threads on 2 cores answered `stop` after 3.3 s).
const MAX_THREADS_PER_CORE: usize = 1;

/// The most search threads this machine is given: [`MAX_THREADS_PER_CORE`] per
/// logical core.
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores * MAX_THREADS_PER_CORE
}

fn build_pool(n: usize) -> Result<Arc<rayon::ThreadPool>, ThreadsError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .thread_name(|i| format!("search-{i}"))
        // Deep searches recurse: give the workers room.
        .stack_size(64 << 20)
        .build()
        .map(Arc::new)
        .map_err(|e| ThreadsError(e.to_string()))
}

/// The transposition table, or the background job that prepares it (filling a new
/// table with empty entries, or clearing the old one, in parallel on rayon's global
/// pool: the search pool stays free): large tables take seconds to prepare, and the
/// protocol thread must go on answering meanwhile. A search waits for the job in its
/// own thread, unless it is told to stop first.
struct PreparedTable {
    table: OnceLock<Arc<TranspositionTable>>,
    job: Mutex<Option<JoinHandle<Arc<TranspositionTable>>>>,
}

impl PreparedTable {
    fn ready(table: TranspositionTable) -> PreparedTable {
        PreparedTable {
            table: OnceLock::from(Arc::new(table)),
            job: Mutex::new(None),
        }
    }

    /// Run `prepare` on a thread of its own (here, if no thread can be started).
    fn preparing(
        prepare: impl FnOnce() -> Arc<TranspositionTable> + Send + 'static,
    ) -> PreparedTable {
        let task = Arc::new(Mutex::new(Some(prepare)));
        let theirs = task.clone();
        let job = std::thread::Builder::new()
            .name("tt-prepare".into())
            .spawn(move || {
                let prepare = theirs.lock().unwrap_or_else(|e| e.into_inner()).take();
                prepare.map_or_else(|| Arc::new(TranspositionTable::new(1)), |f| f())
            });
        let cell = PreparedTable {
            table: OnceLock::new(),
            job: Mutex::new(None),
        };
        match job {
            Ok(handle) => *cell.job.lock().unwrap_or_else(|e| e.into_inner()) = Some(handle),
            Err(_) => {
                if let Some(prepare) = task.lock().unwrap_or_else(|e| e.into_inner()).take() {
                    let _ = cell.table.set(prepare());
                }
            }
        }
        cell
    }

    /// The table once its job is done, or, if `stop` is set first, a small empty
    /// one: a search told to stop while its table is still being prepared ends at
    /// once (with a move) instead of after the job.
    fn get_unless(&self, stop: &AtomicBool) -> Arc<TranspositionTable> {
        loop {
            let done = self
                .job
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_ref()
                .is_none_or(|job| job.is_finished());
            if done || self.table.get().is_some() {
                return self.get();
            }
            if stop.load(Ordering::Relaxed) {
                return Arc::new(TranspositionTable::new(1));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The table, once its job is done.
    fn get(&self) -> Arc<TranspositionTable> {
        self.table
            .get_or_init(|| {
                let job = self.job.lock().unwrap_or_else(|e| e.into_inner()).take();
                match job.map(JoinHandle::join) {
                    Some(Ok(table)) => table,
                    // The job died (it cannot, short of a bug): a small empty table
                    // keeps the engine playing.
                    _ => Arc::new(TranspositionTable::new(1)),
                }
            })
            .clone()
    }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

/// Table size in MB before any is set.
const DEFAULT_HASH_MB: usize = 16;

impl Searcher {
    pub fn new() -> Searcher {
        Searcher {
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            signals: Arc::new(Signals::default()),
            handle: None,
            pool: build_pool(1).expect("one search thread can be started"),
            table: Arc::new(PreparedTable::ready(TranspositionTable::new(
                DEFAULT_HASH_MB,
            ))),
            table_is_empty: true,
            history: History::default(),
            compiled: Arc::default(),
            last: None,
        }
    }
    /// Worker threads (CECP `cores`, UCI `Threads`), at most [`max_threads`]: the
    /// pool is rebuilt. Returns how many there are now; on an error the old pool
    /// stays.
    pub fn set_threads(&mut self, n: usize) -> Result<usize, ThreadsError> {
        self.wait();
        let n = n.clamp(1, max_threads());
        if n != self.threads {
            self.pool = build_pool(n)?;
            self.threads = n;
        }
        Ok(n)
    }
    pub fn threads(&self) -> usize {
        self.threads
    }
    /// Transposition table size (CECP `memory`, UCI `Hash`). The memory is reserved
    /// here, fallibly (more than the machine has free is refused and the old table
    /// stays); the new table is written empty in the background.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), TableError> {
        self.wait();
        let mb = mb.max(1);
        if mb == self.hash_mb {
            return Ok(());
        }
        let reserved = tt::Reserved::new(mb, self.hash_mb)?;
        let old = std::mem::replace(
            &mut self.table,
            Arc::new(PreparedTable::preparing(move || Arc::new(reserved.fill()))),
        );
        self.table_is_empty = true;
        // Giving a large table back to the system takes a moment too.
        let _ = std::thread::Builder::new()
            .name("tt-free".into())
            .spawn(move || drop(old));
        self.hash_mb = mb;
        Ok(())
    }
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }
    /// Forget everything learnt (new game, Clear Hash). The table is cleared in the
    /// background; the next search waits for it.
    pub fn clear(&mut self) {
        self.wait();
        self.history.clear();
        if self.table_is_empty {
            return;
        }
        let old = self.table.clone();
        self.table = Arc::new(PreparedTable::preparing(move || {
            let table = old.get();
            table.clear();
            table
        }));
        self.table_is_empty = true;
    }
    /// The learned evaluation of the searches that start from now on (None: the
    /// hand-crafted one). A net whose layout is not the searched variant's is
    /// not used.
    pub fn set_nnue(&mut self, nnue: Option<Arc<crate::nnue::Nnue>>) {
        self.compiled.set_nnue(nnue);
    }

    /// Start searching `pos` (which carries the game history for repetitions).
    /// Any running search is stopped first.
    pub fn start(&mut self, pos: Position, limits: Limits, callback: Callback) {
        self.stop();
        self.signals = Arc::new(Signals::default());
        let signals = self.signals.clone();
        let pool = self.pool.clone();
        let table = self.table.clone();
        self.table_is_empty = false;
        let v = pos.variant();
        self.history.fit(v.num_types(), v.geometry.num_squares());
        let history = self.history.clone();
        let compiled = self.compiled.clone();
        // No thread, no search: the caller sees it end without a word (and then
        // plays a fallback move).
        self.handle = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                let asked = Instant::now();
                let tt = table.get_unless(&signals.stop);
                // The clock ran while the table was being prepared.
                let limits = limits.less_time(asked.elapsed());
                let resources = thread::Resources {
                    pool,
                    signals,
                    tt,
                    history,
                    compiled,
                };
                thread::run(resources, pos, limits, &callback)
            })
            .ok();
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 10: with `memory 4096` the first `new` cleared the table on the protocol
    /// thread for 10 s. Making and clearing a table now only starts a job; the next
    /// search waits for it.
    #[test]
    fn tables_are_prepared_in_the_background() {
        let mut s = Searcher::new();
        s.set_hash_mb(64).expect("64 MB");
        assert!(
            s.table.table.get().is_none(),
            "the new table is being filled"
        );
        assert_eq!(s.table.get().size_mb(), 64);
        s.table_is_empty = false;
        s.clear();
        assert!(s.table.table.get().is_none(), "the table is being cleared");
        assert_eq!(s.table.get().size_mb(), 64);
        // Refused: the old table stays.
        assert!(s.set_hash_mb(usize::MAX / 4).is_err());
        assert_eq!((s.hash_mb(), s.table.get().size_mb()), (64, 64));
    }

    #[test]
    fn threads_are_capped_at_the_machine() {
        let mut s = Searcher::new();
        assert_eq!(s.set_threads(100_000), Ok(max_threads()));
        assert_eq!(s.threads(), max_threads());
        assert_eq!(s.set_threads(0), Ok(1));
    }
}
