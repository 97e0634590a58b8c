//! Quiescence: captures and quiet promotions (and, at its first ply, checking drops;
//! every move when in check) until the position is quiet, standing on the static
//! evaluation. Captures that lose material by static exchange, and those that cannot
//! reach alpha even if the victim were free, are skipped.

use super::movepick::{MovePicker, move_key};
use super::node::bound_allows;
use super::params;
use super::score::{INF, MAX_PLY, from_tt, to_tt, value_score};
use super::tt::{Bound, EVAL_NONE, Probe};
use super::worker::Worker;
use crate::rules;
use crate::types::{Move, MoveKind};

impl Worker {
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        self.stack[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply);
        if let Some(r) = rules::immediate_result(&self.pos) {
            return value_score(r, ply);
        }
        if ply >= MAX_PLY || !self.quiet_moves_exist {
            return self.eval.evaluate(&self.pos);
        }
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let tt = self.shared.tt.probe(key);
        let pv_node = beta - alpha > 1;
        if let Some(t) = tt {
            let s = from_tt(t.score, ply);
            if !pv_node && bound_allows(t.bound, s, alpha, beta) {
                return s;
            }
        }
        let mut best = -INF;
        let mut static_eval = -INF;
        // The static evaluation stored with this node: none when only a lazy bound of
        // it was computed (the main search must not take that for the real thing).
        let mut stored_eval = EVAL_NONE;
        if !in_check {
            let raw;
            (raw, stored_eval) = match tt {
                Some(t) if t.eval != EVAL_NONE => (t.eval, t.eval),
                _ => match self.eval.evaluate_window(&self.pos, alpha, beta) {
                    (e, true) => (e, e),
                    (e, false) => (e, EVAL_NONE),
                },
            };
            static_eval = self.corrected(raw, self.structure_key());
            best = static_eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let tt_move = tt.map(|t| t.mv).unwrap_or(Move::NONE);
        let buf = std::mem::take(&mut self.bufs[ply]);
        let mut picker = MovePicker::new_qsearch(buf, tt_move, in_check, checks);
        let info = self.rules.node_info(&self.pos);
        let mut legal = 0;
        let mut best_move = Move::NONE;
        let cont = self.cont_rows(ply);
        while let Some(m) = self.next_legal(&mut picker, cont, &info, Move::NONE) {
            legal += 1;
            // Checking drops and quiet promotions that lose the piece are not worth a
            // look.
            let quiet = m.is_drop()
                || (m.kind() == MoveKind::Promotion && !self.rules.is_capture(&self.pos, m));
            if !in_check && quiet && !self.rules.see_ge(&self.pos, m, 0, self.eval.see_values()) {
                continue;
            }
            if !in_check && m.kind() != MoveKind::Promotion && !m.is_drop() {
                // Delta pruning: even winning the victim outright cannot reach alpha.
                let p = self.pos.piece_at(m.to());
                // (In drop games the victim also goes to the capturer's hand.)
                let victim = if p.is_some() { p.kind() } else { 0 };
                let gain = self.eval.value(victim) * if self.captures_to_hand { 2 } else { 1 };
                if static_eval + gain + params::DELTA_MARGIN <= alpha && !m.has_extra() {
                    continue;
                }
            }
            self.stack[ply].cont_row = Some(self.hist.row(move_key(&self.hist, &self.pos, m)));
            self.make_move(m);
            let score = -self.qsearch(-beta, -alpha, ply + 1, false);
            self.pos.unmake();
            if self.stopped {
                self.bufs[ply] = picker.into_buf();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.bufs[ply] = picker.into_buf();
        if in_check && legal == 0 {
            return value_score(rules::no_moves_value(&self.pos), ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Probe {
                mv: best_move,
                score: to_tt(best, ply),
                eval: stored_eval,
                depth: 0,
                bound,
            },
        );
        best
    }
}
