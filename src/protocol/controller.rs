//! The engine controller both protocols drive: the loaded variants, the game (a
//! position that carries its own history), the searcher and the book.
//!
//! The protocols never touch search internals; they call this small API and receive
//! search events through the session's input channel.

use super::game_end::{self, GameEnd};
use super::io::{Input, PerftEvent};
use crate::board::fen::FenError;
use crate::board::{Position, Ruleset};
use crate::book::Book;
use crate::movegen::perft_divide_until;
use crate::nnue::builtin::builtin_nnue;
use crate::nnue::{NetError, Nnue};
use crate::search::tt::TableError;
use crate::search::{Callback, Limits, Searcher, ThreadsError};
use crate::types::{Move, MoveList};
use crate::variant::{LoadReport, UnknownVariant, Variant, VariantSet};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

/// Why a session woke up.
pub enum Wake {
    Input(Input),
    /// The deadline given to [`Controller::next_input`] passed.
    Deadline,
    /// The search thread ended without reporting its end (it panicked).
    SearchDied,
}

/// Why the controller did not do what a protocol asked. Whatever it was to change
/// (the game, the threads, the table) stays as it was.
#[derive(Debug, thiserror::Error)]
pub enum ControlError {
    #[error("{0}")]
    Variant(UnknownVariant),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error("cannot start the perft thread: {0}")]
    PerftThread(std::io::Error),
    #[error("{0}")]
    Threads(ThreadsError),
    #[error("{table}; the table stays {old_mb} MB")]
    Table { table: TableError, old_mb: usize },
    #[error("{0}; playing on with the hand-crafted evaluation")]
    Net(#[from] NetError),
}

/// How often a session checks that a running search is still alive.
const WATCH_INTERVAL: Duration = Duration::from_millis(100);

pub struct Controller {
    variants: VariantSet,
    rules: Arc<Ruleset>,
    /// The game: set up from a FEN or the start position, then the moves played.
    pos: Position,
    searcher: Searcher,
    /// The perft running in the background, if any.
    perft: Option<PerftJob>,
    /// Id of the latest search or perft.
    search_id: u64,
    events: Sender<Input>,
    book: Option<Book>,
    startup_report: Vec<String>,
    /// UCI_Chess960: every variant is played as a chess960 variant (Shredder-FEN
    /// castling rights, castling written king takes rook), as Fairy-Stockfish does.
    chess960: bool,
    /// The selected variant as loaded (`rules` may hold a chess960 copy of it).
    selected: Arc<Variant>,
    /// EvalFile: the net file asked for (empty: none).
    eval_file: String,
    /// The net read from it for the current variant, if it read and fits.
    nnue: Option<Arc<Nnue>>,
    /// Use NNUE: the net, where there is one, replaces the hand-crafted evaluation.
    use_nnue: bool,
    /// The net the searcher was last given.
    active_net: Option<Arc<Nnue>>,
}

/// A perft counting on a thread of its own, and the flag that stops it.
struct PerftJob {
    stop: Arc<AtomicBool>,
    handle: std::thread::JoinHandle<()>,
}

/// The variant a session starts with: orthodox chess when it is loaded.
pub const DEFAULT_VARIANT: &str = "chess";

impl Controller {
    /// `variants` must not be empty (the built-in set always has chess);
    /// `startup_report` is what loading them had to say.
    pub fn new(
        variants: VariantSet,
        startup_report: Vec<String>,
        events: Sender<Input>,
    ) -> Controller {
        let variant = variants
            .get(DEFAULT_VARIANT)
            .or_else(|| variants.iter().next().cloned())
            .expect("at least one variant is loaded");
        let rules = Ruleset::new(variant.clone());
        let pos = Position::start(&rules);
        let book = Book::builtin(&rules.variant.name);
        let mut controller = Controller {
            chess960: false,
            selected: variant,
            variants,
            rules,
            pos,
            searcher: Searcher::new(),
            perft: None,
            search_id: 0,
            events,
            book,
            startup_report,
            eval_file: String::new(),
            nnue: None,
            use_nnue: true,
            active_net: None,
        };
        if controller.rules.variant.net.is_some() {
            controller.reload_net();
        }
        controller
    }

    // ------------------------------------------------------------------ variants

    pub fn variants(&self) -> &VariantSet {
        &self.variants
    }

    /// Load a variant file at run time. The current game is kept; a variant that is
    /// redefined takes effect the next time it is selected.
    pub fn load_variant_file(&mut self, path: &Path) -> LoadReport {
        crate::eval::weights::load_variant_file(&mut self.variants, path)
    }

    /// What loading the command line's variant files had to say (errors, then
    /// notes), taken once: the protocol tells the user after its handshake, when
    /// the GUI can show it.
    pub fn take_startup_report(&mut self) -> Vec<String> {
        std::mem::take(&mut self.startup_report)
    }

    pub fn variant(&self) -> &Arc<Variant> {
        &self.rules.variant
    }

    /// Switch to a loaded variant, at its start position.
    pub fn select_variant(&mut self, name: &str) -> Result<(), ControlError> {
        let v = self.variants.find(name).map_err(ControlError::Variant)?;
        self.searcher.stop();
        // Compiling the move tables takes a moment; GUIs re-select the same variant
        // before every search (UCI_Variant).
        if !Arc::ptr_eq(&v, &self.selected) {
            self.rules = Ruleset::new(self.played_as(&v));
            self.selected = v;
            self.reload_net();
        }
        self.book = Book::builtin(&self.rules.variant.name);
        self.reset();
        Ok(())
    }

    /// UCI_Chess960 on or off; the game goes back to the variant's start position
    /// when that changes how the variant is played.
    pub fn set_chess960(&mut self, on: bool) {
        if on == self.chess960 {
            return;
        }
        self.chess960 = on;
        if !self.selected.chess960 {
            self.searcher.stop();
            self.rules = Ruleset::new(self.played_as(&self.selected));
            self.reset();
            self.reload_net();
        }
    }

    // ------------------------------------------------------------------ the net

    /// EvalFile: read the net at `path` for the current variant (empty: none, or
    /// the net of the variant's `nnue` key). A file that cannot be used is refused
    /// with the reason; the engine then plays with the hand-crafted evaluation.
    pub fn set_eval_file(&mut self, path: &str) -> Result<(), ControlError> {
        self.searcher.stop();
        self.eval_file = path.to_string();
        self.nnue = None;
        let loaded = if path.is_empty() {
            self.nnue = self.variant_net();
            Ok(())
        } else {
            Nnue::load(Path::new(path), &self.rules).map(|n| self.nnue = Some(Arc::new(n)))
        };
        self.sync_net();
        Ok(loaded?)
    }

    /// The net of the variant's `nnue` key, where it has one that reads and fits
    /// (`menagerie check` says why one does not); without a key, the built-in
    /// net made for the variant's layout, if any.
    fn variant_net(&self) -> Option<Arc<Nnue>> {
        match crate::eval::net_key::variant_net(&self.rules) {
            Some(keyed) => keyed.ok().map(Arc::new),
            None => builtin_nnue(&self.rules).map(Arc::new),
        }
    }

    /// Use NNUE on or off.
    pub fn set_use_nnue(&mut self, on: bool) {
        self.searcher.stop();
        self.use_nnue = on;
        self.sync_net();
    }

    /// The net in use, if any.
    pub fn nnue(&self) -> Option<&Arc<Nnue>> {
        self.nnue.as_ref().filter(|_| self.use_nnue)
    }

    /// After the rules changed: the EvalFile again, for the new rules (a net for
    /// another variant does not read; that variant plays with the hand-crafted
    /// evaluation, and the file is used again when its variant comes back), or
    /// without one the net of the variant's `nnue` key.
    fn reload_net(&mut self) {
        self.nnue = match self.eval_file.as_str() {
            "" => self.variant_net(),
            path => Nnue::load(Path::new(path), &self.rules).ok().map(Arc::new),
        };
        self.sync_net();
    }

    /// Give the searcher the net in use. When the evaluation changes, the
    /// transposition table's scores are of the old one: it is cleared.
    fn sync_net(&mut self) {
        let net = self.nnue().cloned();
        let changed = match (&net, &self.active_net) {
            (Some(a), Some(b)) => !Arc::ptr_eq(a, b),
            (None, None) => false,
            _ => true,
        };
        if changed {
            self.clear_hash();
        }
        self.active_net = net.clone();
        self.searcher.set_nnue(net);
    }

    /// The variant as played: a chess960 copy of `v` under UCI_Chess960.
    fn played_as(&self, v: &Arc<Variant>) -> Arc<Variant> {
        if self.chess960 && !v.chess960 {
            let mut copy = Variant::clone(v);
            copy.chess960 = true;
            Arc::new(copy)
        } else {
            v.clone()
        }
    }

    // ------------------------------------------------------------------ the game

    /// Back to the variant's start position.
    pub fn reset(&mut self) {
        self.pos = Position::start(&self.rules);
    }

    /// Set up a position from a FEN ([`Position::from_fen`]: it must read and be
    /// playable); on any problem the game is left as it was.
    pub fn set_fen(&mut self, fen: &str) -> Result<(), ControlError> {
        self.pos = Position::from_fen(&self.rules, fen)?;
        Ok(())
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Mutable access for move parsing and generation (which make and unmake moves).
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.pos
    }

    pub fn legal_moves(&mut self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.rules.generate_legal(&mut self.pos, &mut list);
        list.moves
    }

    pub fn play(&mut self, m: Move) {
        self.pos.make(m);
    }

    /// Take back the last move; false when no move was made since the set-up.
    pub fn undo(&mut self) -> bool {
        if self.pos.ply_count() == 0 {
            return false;
        }
        self.pos.unmake();
        true
    }

    /// The result of the game if it is over in the current position.
    pub fn game_end(&mut self) -> Option<GameEnd> {
        game_end::judge(&mut self.pos)
    }

    // ------------------------------------------------------------------ search

    /// Start searching `pos` (usually a copy of the game position, possibly with a
    /// speculative move made). Events arrive on the session channel tagged with the
    /// returned id; events of earlier searches carry older ids.
    pub fn start_search(&mut self, pos: Position, limits: Limits) -> u64 {
        self.search_id += 1;
        let id = self.search_id;
        let tx = self.events.clone();
        let callback: Callback = Arc::new(move |event| {
            let _ = tx.send(Input::Search(id, event));
        });
        self.searcher.start(pos, limits, callback);
        id
    }

    /// Count the leaves of the game position's move tree to `depth` in the
    /// background, root move by root move, as a search runs: the counts arrive on
    /// the session channel tagged with the returned id, then their end;
    /// [`Controller::stop_search`] stops the count.
    pub fn start_perft(&mut self, depth: u32) -> Result<u64, ControlError> {
        self.search_id += 1;
        let id = self.search_id;
        let mut pos = self.pos.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let tx = self.events.clone();
        let flag = stop.clone();
        let handle = std::thread::Builder::new()
            .name("perft".into())
            .spawn(move || {
                let done = perft_divide_until(&mut pos, depth, &flag, |m, n| {
                    let _ = tx.send(Input::Perft(id, PerftEvent::Move(m, n)));
                });
                let _ = tx.send(Input::Perft(id, PerftEvent::Done { stopped: !done }));
            })
            .map_err(ControlError::PerftThread)?;
        self.perft = Some(PerftJob { stop, handle });
        Ok(id)
    }

    /// Is a search or a perft running?
    fn busy(&self) -> bool {
        self.searcher.is_searching() || self.perft.as_ref().is_some_and(|j| !j.handle.is_finished())
    }

    /// The next input. While `searching`, also wake up at `deadline` and when the
    /// search (or perft) thread has died without a word.
    pub fn next_input(
        &self,
        rx: &Receiver<Input>,
        searching: bool,
        deadline: Option<Instant>,
    ) -> Wake {
        if !searching {
            return Wake::Input(rx.recv().unwrap_or(Input::Eof));
        }
        loop {
            let now = Instant::now();
            if deadline.is_some_and(|d| d <= now) {
                return Wake::Deadline;
            }
            let wait = deadline.map_or(WATCH_INTERVAL, |d| (d - now).min(WATCH_INTERVAL));
            match rx.recv_timeout(wait) {
                Ok(i) => return Wake::Input(i),
                Err(RecvTimeoutError::Disconnected) => return Wake::Input(Input::Eof),
                Err(RecvTimeoutError::Timeout) => {
                    if !self.busy() {
                        // Whatever it sent before it ended is already queued.
                        return match rx.try_recv() {
                            Ok(i) => Wake::Input(i),
                            Err(TryRecvError::Empty) => Wake::SearchDied,
                            Err(TryRecvError::Disconnected) => Wake::Input(Input::Eof),
                        };
                    }
                }
            }
        }
    }

    /// Is `id` the most recently started search?
    pub fn is_current_search(&self, id: u64) -> bool {
        id == self.search_id
    }

    /// The session ends: the running search or perft is told to stop (no one waits
    /// for what it would still report).
    pub fn end_session(&self) {
        self.stop_search();
    }

    /// Ask the running search to finish (it still reports a best move), or the
    /// running perft (it reports that it stopped).
    pub fn stop_search(&self) {
        self.searcher.signal_stop();
        if let Some(job) = &self.perft {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    pub fn ponderhit(&self) {
        self.searcher.ponderhit();
    }

    /// Search threads, at most [`crate::search::max_threads`]: returns how many
    /// there are now. On an error the old threads stay.
    pub fn set_threads(&mut self, n: usize) -> Result<usize, ControlError> {
        self.searcher.set_threads(n).map_err(ControlError::Threads)
    }

    /// Table size in MB. More than the machine has is refused, and the old table
    /// stays.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), ControlError> {
        let old_mb = self.searcher.hash_mb();
        self.searcher
            .set_hash_mb(mb)
            .map_err(|table| ControlError::Table { table, old_mb })
    }

    pub fn clear_hash(&mut self) {
        self.searcher.clear();
    }

    /// Book moves of the game position that are legal, best weight first.
    pub fn book_moves(&mut self) -> Vec<(Move, u32)> {
        let Some(book) = &self.book else {
            return Vec::new();
        };
        let mut moves = book.moves(&self.pos);
        let legal = self.legal_moves();
        moves.retain(|(m, _)| legal.contains(m));
        moves.sort_by_key(|&(_, w)| std::cmp::Reverse(w));
        moves
    }
}
