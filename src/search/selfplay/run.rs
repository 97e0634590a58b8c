//! Games played on several threads at once, handed over in game order: a game that
//! finishes before its predecessors waits until they are done, so that the file's
//! content does not depend on the number of threads or on timing.

use super::{Game, Options, play_game};
use crate::board::Ruleset;
use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// Play games `games` (indices) on `threads` threads (one game per thread at a time),
/// giving each finished game to `take` in index order. An error from `take` stops
/// the threads after their current game and is returned.
pub fn generate<E>(
    rules: &Arc<Ruleset>,
    opts: &Options,
    games: Range<u64>,
    threads: usize,
    take: impl FnMut(Game) -> Result<(), E>,
) -> Result<(), E> {
    generate_with(games, threads, |index| play_game(rules, opts, index), take)
}

/// Games `games` played by `play` (given the index) on `threads` threads, handed to
/// `take` in index order, as [`generate`].
pub fn generate_with<E>(
    games: Range<u64>,
    threads: usize,
    play: impl Fn(u64) -> Game + Sync,
    mut take: impl FnMut(Game) -> Result<(), E>,
) -> Result<(), E> {
    let next = AtomicU64::new(games.start);
    let quit = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<Game>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let sender = sender.clone();
            let (next, quit, play) = (&next, &quit, &play);
            scope.spawn(move || {
                while !quit.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games.end {
                        break;
                    }
                    if sender.send(play(index)).is_err() {
                        break;
                    }
                }
            });
        }
        // The receiver ends once every thread has dropped its sender.
        drop(sender);
        let mut waiting = BTreeMap::new();
        let mut expected = games.start;
        for game in receiver {
            waiting.insert(game.index, game);
            while let Some(game) = waiting.remove(&expected) {
                expected += 1;
                if let Err(e) = take(game) {
                    quit.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
        }
        Ok(())
    })
}
