//! The root of the search: every root move searched in turn (the first with the
//! full window, the others with a null window and late-move reductions), scores and
//! principal variations kept per root move for iterative deepening and MultiPV.

use super::Limits;
use super::busy::{BusyMoves, DEFER_DEPTH, PutOff};
use super::movepick::move_key;
use super::score::INF;
use super::shared::RootMove;
use super::worker::Worker;
use crate::board::Position;
use crate::types::MoveList;

impl Worker {
    pub(super) fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INF;
        let start = self.pv_index;
        let n = self.root_moves.len();
        let in_check = self.pos.in_check();
        // Only moves searched in this round carry a score, so that an interrupted
        // round never ranks a stale score above the first move's fresh one.
        for rm in &mut self.root_moves[start + 1..] {
            rm.score = -INF;
        }
        // Root moves another thread is searching are put off to the end (busy.rs).
        let may_defer = self.smp && depth >= DEFER_DEPTH;
        let key = self.pos.key();
        let mut put_off = PutOff::<64>::new();
        let mut fresh = start..n;
        loop {
            let (i, first_pass) = match fresh.next() {
                Some(i) => (i, true),
                None => match put_off.pop(&self.shared.busy, key) {
                    Some((_, i)) => (i, false),
                    None => break,
                },
            };
            let m = self.root_moves[i].mv;
            let busy_tag = may_defer.then(|| BusyMoves::tag(key, m));
            if first_pass
                && i > start
                && busy_tag.is_some_and(|t| self.shared.busy.is_busy(t))
                && put_off.push(m, i)
            {
                continue;
            }
            if let Some(tag) = busy_tag {
                self.shared.busy.enter(tag);
            }
            if let Some(live) = &self.live {
                live.root_move(m, i + 1);
            }
            let capture = self.rules.is_capture(&self.pos, m);
            let piece_to = move_key(&self.hist, &self.pos, m);
            self.stack[0].cont_row = Some(self.hist.row(piece_to));
            self.make_move(m);
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1 + (gives_check && self.safe_check(m)) as i32;
            let mut score;
            if i == start {
                score = -self.search(-beta, -alpha, new_depth, 1, false);
            } else {
                let r = if !self.exhaustive
                    && depth >= 3
                    && !capture
                    && !gives_check
                    && !in_check
                    && i > start + 3
                {
                    (self.lmr[depth.min(63) as usize][i.min(63)] - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                score = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.pos.unmake();
            if let Some(tag) = busy_tag {
                self.shared.busy.leave(tag);
            }
            if self.stopped {
                // An unfinished search says nothing, except that the first move's
                // result is still usable if it was completed.
                return best;
            }
            if let Some(live) = &self.live {
                live.searched(m, &mut self.pos, &self.shared.tt);
            }
            let rm = &mut self.root_moves[i];
            if i == start || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.stack[1].pv);
            } else {
                rm.score = -INF;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }
}

/// Legal root moves of `pos` after the limits' filters.
pub fn root_moves(pos: &mut Position, limits: &Limits) -> Vec<RootMove> {
    let rules = pos.rules().clone();
    let mut list = MoveList::new();
    rules.generate_legal(pos, &mut list);
    list.iter()
        .filter(|m| {
            (limits.search_moves.is_empty() || limits.search_moves.contains(m))
                && !limits.exclude_moves.contains(m)
        })
        .map(|&mv| RootMove {
            mv,
            score: -INF,
            prev_score: -INF,
            pv: vec![mv],
        })
        .collect()
}
