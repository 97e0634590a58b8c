//! What a GUI may ask to see of a running search besides its principal variations:
//! the root move being searched (UCI `currmove`/`currmovenumber`, CECP `stat01`), the
//! line being searched (UCI `currline`) and each root move's refutation (UCI
//! `refutation`). Only the main thread reports, and only after the first second of
//! the search, as the UCI specification suggests, so that short searches send nothing
//! more than before.

use super::tt::TranspositionTable;
use super::{Callback, Event};
use crate::board::Position;
use crate::types::{Move, MoveList};
use std::time::{Duration, Instant};

/// Which of these reports a search sends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveReports {
    pub curr_move: bool,
    pub curr_line: bool,
    pub refutations: bool,
}

impl LiveReports {
    fn any(&self) -> bool {
        self.curr_move || self.curr_line || self.refutations
    }
}

/// Nothing is reported before this much of the search has passed.
const QUIET_START: Duration = Duration::from_secs(1);
/// The current line is sent at most this often.
const CURR_LINE_INTERVAL: Duration = Duration::from_secs(1);
/// A refutation is followed through the transposition table this many plies at most.
const REFUTATION_PLIES: usize = 8;

/// The main thread's reporter.
pub struct Live {
    wants: LiveReports,
    callback: Callback,
    start: Instant,
    /// Plies of the game before the search's root (the search's moves follow).
    root_ply: usize,
    next_line: Duration,
}

impl Live {
    /// A reporter for a search from `root`, or None when nothing is wanted.
    pub fn new(wants: LiveReports, callback: &Callback, root: &Position) -> Option<Live> {
        wants.any().then(|| Live {
            wants,
            callback: callback.clone(),
            start: Instant::now(),
            root_ply: root.ply_count(),
            next_line: QUIET_START,
        })
    }

    fn started(&self) -> bool {
        self.start.elapsed() >= QUIET_START
    }

    /// The main thread starts on root move `mv`, number `number` (from 1).
    pub fn root_move(&self, mv: Move, number: usize) {
        if self.wants.curr_move && self.started() {
            (self.callback)(Event::CurrMove { mv, number });
        }
    }

    /// Root move `mv` has been searched (`pos` is the root again): its best answer,
    /// as far as the transposition table knows it.
    pub fn searched(&self, mv: Move, pos: &mut Position, tt: &TranspositionTable) {
        if !(self.wants.refutations && self.started()) {
            return;
        }
        let mut line = vec![mv];
        pos.make(mv);
        let mut list = MoveList::new();
        while line.len() <= REFUTATION_PLIES {
            let Some(m) = tt.probe(pos.key()).map(|p| p.mv).filter(|m| !m.is_none()) else {
                break;
            };
            list.clear();
            let rules = pos.rules().clone();
            rules.generate_legal(pos, &mut list);
            if !list.contains(m) {
                break;
            }
            pos.make(m);
            line.push(m);
        }
        for _ in 0..line.len() {
            pos.unmake();
        }
        (self.callback)(Event::Refutation(line));
    }

    /// Called as the main thread polls: the line it is searching, once a second.
    pub fn poll(&mut self, pos: &Position) {
        if !self.wants.curr_line {
            return;
        }
        let elapsed = self.start.elapsed();
        if elapsed < self.next_line {
            return;
        }
        self.next_line = elapsed + CURR_LINE_INTERVAL;
        let history = pos.history();
        let mut line: Vec<Move> = history
            .iter()
            .skip(self.root_ply + 1)
            .map(|s| s.last_move)
            .collect();
        if pos.ply_count() > self.root_ply {
            line.push(pos.state().last_move);
        }
        (self.callback)(Event::CurrLine(line));
    }
}
