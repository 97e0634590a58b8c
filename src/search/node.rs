//! A node of the main search before its moves: game-end and draw rules, mate distance,
//! the transposition table, the static evaluation, and the pruning that may decide the
//! node without looking at its moves (razoring, reverse futility, null move, ProbCut).
//! The move loop is in `moves.rs`.

use super::movepick::{MovePicker, move_key};
use super::params;
use super::score::{INF, MATE, MATE_BOUND, MAX_PLY, from_tt, value_score};
use super::tt::{Bound, EVAL_NONE, Probe};
use super::worker::Worker;
use crate::rules;
use crate::types::Move;

/// Mixed into the position key for a search that leaves one move out.
const EXCLUSION_KEY: u64 = crate::types::GOLDEN_GAMMA;

/// What a node knows once it has been entered.
pub(super) struct Node {
    pub ply: usize,
    pub depth: i32,
    pub alpha: i32,
    pub beta: i32,
    pub pv: bool,
    pub cut: bool,
    pub in_check: bool,
    /// The table key (with the excluded move mixed in).
    pub key: u64,
    /// The move a singular-extension search leaves out (none in other searches).
    pub excluded: Move,
    pub tt: Option<Probe>,
    pub tt_move: Move,
    /// The evaluation function's own score (what the table stores).
    pub raw_eval: i32,
    /// The key of the pawn structure (correction history; 0 in check).
    pub structure: u64,
    /// The evaluation corrected by the correction history (-INF in check).
    pub static_eval: i32,
    /// The static evaluation sharpened by the table's score where its bound allows.
    pub eval: i32,
    /// The static evaluation is better than two plies ago.
    pub improving: bool,
}

impl Worker {
    /// Alpha-beta search of the current position to `depth` plies.
    pub(super) fn search(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, true);
        }
        let mut node = match self.enter(alpha, beta, depth, ply, cut_node) {
            Ok(node) => node,
            Err(score) => return score,
        };
        if let Some(score) = self.prune_node(&node) {
            return score;
        }
        // No hash move in a PV or cut node: search a little shallower (the table
        // will have a move next time).
        if !self.exhaustive && node.tt_move.is_none() && node.depth >= 4 && (node.pv || node.cut) {
            node.depth -= 1;
        }
        self.search_moves(node)
    }

    /// Enter a node: count it, settle it by the rules or the table if possible
    /// (`Err` carries the score), else evaluate it.
    fn enter(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
    ) -> Result<Node, i32> {
        let pv = beta - alpha > 1;
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return Err(0);
        }
        self.stack[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply);
        if let Some(r) = rules::immediate_result(&self.pos) {
            return Err(value_score(r, ply));
        }
        if let Some(r) = self.rule_result(ply) {
            return Err(value_score(r, ply));
        }
        if ply >= MAX_PLY {
            return Err(self.eval.evaluate(&self.pos));
        }
        // Mate distance pruning: no line from here beats a faster mate already found.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return Err(alpha);
        }

        // A search without one move (singular extension) has its own table entry.
        let excluded = self.stack[ply].excluded;
        let key = self.pos.key() ^ excluded.0.wrapping_mul(EXCLUSION_KEY);
        let in_check = self.pos.in_check();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.map(|t| t.mv).unwrap_or(Move::NONE);
        if let Some(t) = tt {
            let s = from_tt(t.score, ply);
            if !pv && t.depth >= depth && bound_allows(t.bound, s, alpha, beta) {
                return Err(s);
            }
        }

        // In check there is no static evaluation (nor a correction to learn).
        let (raw_eval, static_eval, structure) = if in_check {
            (-INF, -INF, 0)
        } else {
            let raw = match tt {
                Some(t) if t.eval != EVAL_NONE => t.eval,
                _ => self.eval.evaluate(&self.pos),
            };
            let structure = self.structure_key();
            (raw, self.corrected(raw, structure), structure)
        };
        let eval = match tt {
            Some(t) if !in_check && t.score.abs() < MATE_BOUND => match t.bound {
                Bound::Exact => t.score,
                Bound::Lower if t.score > static_eval => t.score,
                Bound::Upper if t.score < static_eval => t.score,
                _ => static_eval,
            },
            _ => static_eval,
        };
        self.stack[ply].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].eval;
        self.stack[ply + 1].killers = [Move::NONE; 2];
        Ok(Node {
            ply,
            depth,
            alpha,
            beta,
            pv,
            cut,
            in_check,
            key,
            excluded,
            tt,
            tt_move,
            raw_eval,
            structure,
            static_eval,
            eval,
            improving,
        })
    }

    /// Decide the node without searching its moves, if one of the pruning steps can.
    fn prune_node(&mut self, n: &Node) -> Option<i32> {
        if n.pv || n.in_check || self.exhaustive {
            return None;
        }
        // Razoring: hopeless at the last ply unless a capture saves it.
        if n.depth == 1 && n.eval + params::RAZOR_MARGIN <= n.alpha {
            return Some(self.qsearch(n.alpha, n.beta, n.ply, true));
        }
        // Reverse futility: far above beta near the leaves, stand.
        if n.depth <= params::REVERSE_FUTILITY_DEPTH
            && n.eval - params::REVERSE_FUTILITY_MARGIN * (n.depth - n.improving as i32) >= n.beta
            && n.eval.abs() < MATE_BOUND
        {
            return Some(n.eval);
        }
        if let Some(score) = self.null_move(n) {
            return Some(score);
        }
        if n.depth >= params::PROBCUT_DEPTH && n.beta.abs() < MATE_BOUND && n.excluded.is_none() {
            if let Some(score) = self.probcut(n) {
                return Some(score);
            }
            if self.stopped {
                return Some(0);
            }
        }
        None
    }

    /// Null move: give the opponent a free move; if we still beat beta, cut. Deep
    /// cut-offs are verified by a search without the null move, with null moves off
    /// for this side for a while: in zugzwang the free move was the only good one.
    fn null_move(&mut self, n: &Node) -> Option<i32> {
        let (ply, depth, beta) = (n.ply, n.depth, n.beta);
        let allowed = self.null_ok
            && n.excluded.is_none()
            && (ply >= self.nmp_min_ply || self.nmp_side != Some(self.pos.side_to_move()))
            && depth >= 2
            && n.eval >= beta
            && n.static_eval >= beta - params::NULL_EVAL_MARGIN * depth
            && !self.stack[ply - 1].null
            && beta.abs() < MATE_BOUND
            && self.has_pieces();
        if !allowed {
            return None;
        }
        let r = params::NULL_REDUCTION
            + depth / params::NULL_DEPTH_DIVISOR
            + ((n.eval - beta) / params::NULL_EVAL_DIVISOR).min(params::NULL_EVAL_REDUCTION_MAX);
        self.stack[ply].null = true;
        self.stack[ply].cont_row = None;
        self.pos.make_null();
        let s = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, !n.cut);
        self.pos.unmake_null();
        self.stack[ply].null = false;
        if self.stopped {
            return Some(0);
        }
        if s < beta {
            return None;
        }
        let s = if s >= MATE_BOUND { beta } else { s };
        if self.nmp_min_ply > 0 || depth < params::NULL_VERIFY_DEPTH {
            return Some(s);
        }
        self.nmp_min_ply = ply + 3 * (depth - 1 - r).max(0) as usize / 4;
        self.nmp_side = Some(self.pos.side_to_move());
        let v = self.search(beta - 1, beta, depth - 1 - r, ply, false);
        self.nmp_min_ply = 0;
        self.nmp_side = None;
        if self.stopped {
            return Some(0);
        }
        (v >= beta).then_some(s)
    }

    /// ProbCut: a capture winning at least `probcut_beta - static_eval` by static
    /// exchange that beats the raised beta in quiescence and then in a search four
    /// plies shallower almost certainly makes the full search beat beta too.
    fn probcut(&mut self, n: &Node) -> Option<i32> {
        let beta = n.beta + params::PROBCUT_MARGIN - params::PROBCUT_IMPROVING * n.improving as i32;
        let ply = n.ply;
        let buf = std::mem::take(&mut self.spare_buf);
        let mut picker = MovePicker::new_probcut(buf, n.tt_move, beta - n.static_eval);
        let info = self.rules.node_info(&self.pos);
        let cont = self.cont_rows(ply);
        let mut tried = 0;
        let mut result = None;
        while tried < params::PROBCUT_MOVES + params::PROBCUT_MOVES * n.cut as usize {
            let Some(m) = self.next_legal(&mut picker, cont, &info, Move::NONE) else {
                break;
            };
            tried += 1;
            let piece_to = move_key(&self.hist, &self.pos, m);
            self.stack[ply].cont_row = Some(self.hist.row(piece_to));
            self.stack[ply].stat_score = 0;
            self.stack[ply].move_count = tried;
            self.make_move(m);
            let mut v = -self.qsearch(-beta, -beta + 1, ply + 1, false);
            if v >= beta && !self.stopped {
                v = -self.search(-beta, -beta + 1, n.depth - 4, ply + 1, !n.cut);
            }
            self.pos.unmake();
            if self.stopped {
                break;
            }
            if v >= beta {
                result = Some(v);
                break;
            }
        }
        self.spare_buf = picker.into_buf();
        result
    }
}

/// Does a table score `s` with this bound settle a search with window (alpha, beta)?
#[inline]
pub(super) fn bound_allows(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    }
}
