//! perft: the number of leaf nodes of the legal move tree, the correctness check of
//! move generation.

use crate::board::{Position, Ruleset};
use crate::types::{Move, MoveList};

/// Leaf count at `depth`. Move lists are allocated once per depth, not per node.
/// The rules are read through one reference for the whole tree.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let rules = pos.rules().clone();
    let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    perft_inner(&rules, pos, depth, &mut lists)
}

fn perft_inner(rules: &Ruleset, pos: &mut Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = lists.split_first_mut().expect("one list per depth");
    rules.generate_legal(pos, list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for i in 0..list.len() {
        let m = list.moves[i];
        pos.make(m);
        nodes += perft_inner(rules, pos, depth - 1, rest);
        pos.unmake();
    }
    nodes
}

/// Per root move counts at `depth` (depth >= 1).
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let rules = pos.rules().clone();
    let mut root = MoveList::new();
    rules.generate_legal(pos, &mut root);
    let mut out = Vec::with_capacity(root.len());
    for &m in root.iter() {
        let n = if depth <= 1 {
            1
        } else {
            pos.make(m);
            let n = perft(pos, depth - 1);
            pos.unmake();
            n
        };
        out.push((m, n));
    }
    out
}
