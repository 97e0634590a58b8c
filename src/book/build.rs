//! `menagerie book build`: grow a book from the start position with the engine's own
//! searches. Every position up to `plies` from the start that the book reaches is
//! searched with several principal variations; the moves within `margin` centipawns
//! of the best go into the book (weighted by how close they are) and their positions
//! are expanded in turn.

use crate::board::Position;
use crate::movegen::notation;
use crate::search::{Callback, Event, Info, Limits, Score, Searcher, TableError, ThreadsError};
use crate::types::RankNumbering;
use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex};

#[derive(Clone, Debug)]
pub struct BuildOptions {
    pub plies: u32,
    pub depth: u32,
    /// Principal variations searched per position.
    pub width: usize,
    /// Moves scoring within this many centipawns of the best are kept.
    pub margin: i32,
    pub threads: usize,
    pub hash_mb: usize,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            plies: 6,
            depth: 8,
            width: 3,
            margin: 40,
            threads: 1,
            hash_mb: 64,
        }
    }
}

fn cp(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
    }
}

/// Why a book cannot be built: the searcher's threads or table cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Threads(ThreadsError),
    #[error("hash table: {0}")]
    Table(TableError),
}

/// Build the book text; `header` lines go first (each is written as a comment),
/// `progress` hears about every position searched. Fails when the table or the
/// threads cannot be had.
pub fn build(
    start: &Position,
    opts: &BuildOptions,
    header: &[String],
    mut progress: impl FnMut(usize, &str),
) -> Result<String, BuildError> {
    let mut out = String::new();
    for h in header {
        out.push_str("# ");
        out.push_str(h);
        out.push('\n');
    }
    let mut searcher = Searcher::new();
    searcher
        .set_threads(opts.threads)
        .map_err(BuildError::Threads)?;
    searcher
        .set_hash_mb(opts.hash_mb)
        .map_err(BuildError::Table)?;
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    queue.push_back((start.clone(), 0u32));
    seen.insert(start.key());
    let mut count = 0;
    while let Some((pos, ply)) = queue.pop_front() {
        let infos: Arc<Mutex<Vec<Info>>> = Arc::new(Mutex::new(Vec::new()));
        let sink = infos.clone();
        let cb: Callback = Arc::new(move |e| {
            if let Event::Info(i) = e {
                sink.lock().expect("not poisoned").push(i);
            }
        });
        let out_search = searcher.think(
            pos.clone(),
            Limits {
                depth: Some(opts.depth),
                multi_pv: opts.width,
                ..Default::default()
            },
            cb,
        );
        if out_search.best.is_none() {
            continue;
        }
        // The lines of the deepest completed iteration, one per multipv index.
        let infos = infos.lock().expect("not poisoned");
        let depth = infos.iter().map(|i| i.depth).max().unwrap_or(0);
        let mut lines: Vec<&Info> = Vec::new();
        for i in infos
            .iter()
            .filter(|i| i.depth == depth && !i.pv.is_empty())
        {
            lines.retain(|l| l.multipv != i.multipv);
            lines.push(i);
        }
        lines.sort_by_key(|l| l.multipv);
        let Some(best) = lines.iter().map(|l| cp(l.score)).max() else {
            continue;
        };
        let mut entry = pos.fen();
        for l in &lines {
            let s = cp(l.score);
            if s < best - opts.margin {
                continue;
            }
            let m = l.pv[0];
            let weight = (100 - 2 * (best - s)).max(1);
            entry.push_str(&format!(
                " ; {} {}",
                notation::move_to_string(&pos, m, RankNumbering::FromOne),
                weight
            ));
            if ply + 1 < opts.plies {
                let mut child = pos.clone();
                child.make(m);
                if seen.insert(child.key()) {
                    queue.push_back((child, ply + 1));
                }
            }
        }
        count += 1;
        progress(count, &entry);
        out.push_str(&entry);
        out.push('\n');
    }
    Ok(out)
}
