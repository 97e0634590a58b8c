//! perft: the number of leaf nodes of the legal move tree, the correctness check of
//! move generation.

use crate::board::{Position, Ruleset};
use crate::types::{Move, MoveList};
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaf count at `depth`. Move lists are allocated once per depth, not per node.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let never = AtomicBool::new(false);
    perft_until(pos, depth, &never).unwrap_or(0)
}

/// Leaf count at `depth`, or None when `stop` was set before the count was done
/// (it is looked at in every node that has children). The rules are read through
/// one reference for the whole tree.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let rules = pos.rules().clone();
    let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    perft_inner(&rules, pos, depth, &mut lists, stop)
}

fn perft_inner(
    rules: &Ruleset,
    pos: &mut Position,
    depth: u32,
    lists: &mut [MoveList],
    stop: &AtomicBool,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    let (list, rest) = lists.split_first_mut().expect("one list per depth");
    rules.generate_legal(pos, list);
    if depth == 1 {
        return Some(list.len() as u64);
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut nodes = 0;
    for i in 0..list.len() {
        let m = list.moves[i];
        pos.make(m);
        let n = perft_inner(rules, pos, depth - 1, rest, stop);
        pos.unmake();
        nodes += n?;
    }
    Some(nodes)
}

/// Per root move counts at `depth` (depth >= 1).
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let never = AtomicBool::new(false);
    let mut out = Vec::new();
    perft_divide_until(pos, depth, &never, |m, n| out.push((m, n)));
    out
}

/// Per root move counts at `depth` (depth >= 1), each handed to `each` as soon as it
/// is known; false when `stop` ended the count early.
pub fn perft_divide_until(
    pos: &mut Position,
    depth: u32,
    stop: &AtomicBool,
    mut each: impl FnMut(Move, u64),
) -> bool {
    let rules = pos.rules().clone();
    let mut root = MoveList::new();
    rules.generate_legal(pos, &mut root);
    for &m in root.iter() {
        let n = if depth <= 1 {
            Some(1)
        } else {
            pos.make(m);
            let n = perft_until(pos, depth - 1, stop);
            pos.unmake();
            n
        };
        match n {
            Some(n) => each(m, n),
            None => return false,
        }
    }
    true
}
