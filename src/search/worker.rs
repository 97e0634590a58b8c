//! The search of one thread: iterative deepening with aspiration windows around a
//! principal variation search, quiescence, and the usual pruning (null move,
//! reverse futility, late-move reductions and pruning), all scored by the variant's
//! own game-end rules.

use super::busy::{BusyMoves, DEFER_DEPTH, PutOff};
use super::history::{HISTORY_MAX, History, last_mover};
use super::live::Live;
use super::movegen_fast::FastGen;
use super::movepick::{MovePicker, PickBuf};
use super::shared::{RootMove, Shared};
use super::timeman::TimeManager;
use super::tt::Bound;
use super::{Event, Info, Limits, Score};
use crate::board::tables::M_MOVE;
use crate::board::{Position, Ruleset};
use crate::eval::Evaluator;
use crate::types::{Color, Move, MoveKind, MoveList, PieceType};
use crate::variant::GameValue;
use crate::{movegen, rules};
use std::sync::Arc;
use std::sync::atomic::Ordering;

pub const INF: i32 = 32000;
pub const MATE: i32 = 31000;
pub const MAX_PLY: usize = 120;
/// Scores beyond this are mate (or a variant win/loss) in a known number of plies.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 10;

/// Score of a game value for the side to move, `ply` plies from the root.
#[inline]
pub fn value_score(v: GameValue, ply: usize) -> i32 {
    match v {
        GameValue::Win => MATE - ply as i32,
        GameValue::Loss => -MATE + ply as i32,
        _ => 0,
    }
}

/// Mate scores are stored in the table relative to the node, not the root.
#[inline]
fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

pub fn to_score(s: i32) -> Score {
    if s.abs() >= MATE_BOUND {
        let plies = MATE - s.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if s > 0 { moves } else { -moves })
    } else {
        Score::Cp(s)
    }
}

#[derive(Clone, Default)]
struct Frame {
    killers: [Move; 2],
    eval: i32,
    pv: Vec<Move>,
    /// Null move made at this ply (no second null move in a row).
    null: bool,
}

/// Late-move reduction table, [depth][move number], in plies.
fn reductions() -> Vec<[i32; 64]> {
    (0..64)
        .map(|d| {
            let mut row = [0; 64];
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
                }
            }
            row
        })
        .collect()
}

pub struct Worker {
    pub id: usize,
    pub pos: Position,
    rules: Arc<Ruleset>,
    eval: Arc<Evaluator>,
    movegen: Arc<FastGen>,
    shared: Arc<Shared>,
    pub nodes: u64,
    published: u64,
    seldepth: usize,
    stack: Vec<Frame>,
    /// Shared with the other threads (history.rs).
    hist: History,
    bufs: Vec<PickBuf>,
    scratch: MoveList,
    lmr: Vec<[i32; 64]>,
    pub root_moves: Vec<RootMove>,
    pv_index: usize,
    root_depth: i32,
    pub completed_depth: i32,
    stopped: bool,
    /// Several threads search: iterations are published and may be superseded.
    smp: bool,
    /// The current iteration was dropped because another thread completed it (or
    /// a deeper one) first; `stopped` is set too, to unwind.
    superseded: bool,
    /// Main thread only: clock and limits.
    tm: Option<TimeManager>,
    /// Main thread only: current move, line and refutation reports, when asked for.
    live: Option<Live>,
    node_limit: Option<u64>,
    /// Null move allowed at all in this variant (zugzwang-prone games turn it off).
    null_ok: bool,
    /// Types that count as "pieces" for the null-move zugzwang guard.
    non_pawn: u64,
    /// Mate search: no forward pruning or reductions, so that a mate in N is found
    /// at depth 2N-1.
    exhaustive: bool,
    captures_to_hand: bool,
    /// False when every move of the variant is a capture (Clobber): quiescence would
    /// then be the whole game tree, so it stops at the static evaluation.
    quiet_moves_exist: bool,
}

/// Does some piece of the variant have a non-capturing move (or are there drops)?
fn quiet_moves_exist(rules: &Ruleset) -> bool {
    let v = &rules.variant;
    v.piece_drops
        || (0..v.num_types() as PieceType).any(|t| {
            v.geometry.all().iter().any(|sq| {
                rules
                    .tables
                    .steps_of(Color::White, t, sq)
                    .iter()
                    .any(|step| step.mode & M_MOVE != 0)
            })
        })
}

impl Worker {
    pub fn new(
        id: usize,
        pos: Position,
        eval: Arc<Evaluator>,
        movegen: Arc<FastGen>,
        shared: Arc<Shared>,
        hist: History,
    ) -> Worker {
        let rules = pos.rules().clone();
        let v = &rules.variant;
        let captures_to_hand = v.captures_to_hand;
        let quiet_moves_exist = quiet_moves_exist(&rules);
        let mut non_pawn = 0u64;
        for t in 0..v.num_types() {
            let pawnlike = Some(t as PieceType) == rules.pawn_type
                || v.promotion_pawn_types[0] & 1 << t != 0
                || eval.value(t as PieceType) < 150
                // Pieces confined to a region (palace guards) are often stuck: a
                // side with only those may be in zugzwang or stalemate.
                || v.mobility_region[0][t]
                    .as_ref()
                    .is_some_and(|r| (r.count() as usize) * 2 <= v.geometry.num_squares());
            if !v.pieces[t].royal && !pawnlike {
                non_pawn |= 1 << t;
            }
        }
        let null_ok =
            !(v.must_capture || v.extinction_all_types && v.extinction_value == GameValue::Win);
        Worker {
            id,
            pos,
            rules,
            eval,
            movegen,
            shared,
            nodes: 0,
            published: 0,
            seldepth: 0,
            stack: vec![
                Frame {
                    pv: Vec::with_capacity(MAX_PLY + 1),
                    ..Default::default()
                };
                MAX_PLY + 4
            ],
            hist,
            bufs: (0..MAX_PLY + 2).map(|_| PickBuf::default()).collect(),
            scratch: MoveList::new(),
            lmr: reductions(),
            root_moves: Vec::new(),
            pv_index: 0,
            root_depth: 0,
            completed_depth: 0,
            stopped: false,
            smp: false,
            superseded: false,
            tm: None,
            live: None,
            node_limit: None,
            null_ok,
            non_pawn,
            exhaustive: false,
            captures_to_hand,
            quiet_moves_exist,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Every 1024 nodes: publish the node count, look at the stop flags and clock.
    #[inline]
    fn poll(&mut self) {
        if self.nodes & 1023 != 0 {
            return;
        }
        let d = self.nodes - self.published;
        self.shared.nodes[self.id].fetch_add(d, Ordering::Relaxed);
        self.published = self.nodes;
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.is_main() {
            if self.shared.signals.stop.load(Ordering::Relaxed) {
                self.stop_all();
            }
            if let Some(tm) = &mut self.tm {
                if tm.suspended && self.shared.ponderhit_applies() {
                    tm.suspended = false;
                }
                if tm.hard_stop(self.nodes) {
                    self.stop_all();
                }
            }
            if let Some(live) = &mut self.live {
                live.poll(&self.pos);
            }
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stop_all();
        }
        if self.smp
            && !self.stopped
            && self.shared.deepest.load(Ordering::Relaxed) >= self.root_depth
        {
            self.stopped = true;
            self.superseded = true;
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.shared.stop.store(true, Ordering::Relaxed);
    }

    fn publish_nodes(&mut self) {
        let d = self.nodes - self.published;
        self.shared.nodes[self.id].fetch_add(d, Ordering::Relaxed);
        self.published = self.nodes;
    }

    /// Can the side to move pass safely (it has real pieces: zugzwang is unlikely)?
    fn has_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        let mut ty = self.non_pawn;
        while ty != 0 {
            let t = ty.trailing_zeros() as PieceType;
            ty &= ty - 1;
            if self.pos.count(us, t) > 0 || self.pos.hand(us, t) > 0 {
                return true;
            }
        }
        false
    }

    /// Draw by the n-move rule or repetition inside the tree (the variant's values).
    #[inline]
    fn rule_result(&self) -> Option<GameValue> {
        let v = &self.rules.variant;
        let st = self.pos.state();
        if v.n_move_rule > 0 && st.rule50 >= 2 * v.n_move_rule && !self.pos.in_check() {
            return Some(GameValue::Draw);
        }
        if st.plies_from_null < 4 {
            return None;
        }
        rules::repetition_result(&self.pos, 2)
    }

    // ------------------------------------------------------------------ iterative deepening

    /// Run iterative deepening. The main thread (`tm` given) reports through the
    /// callback and decides when to stop; helpers search until told to stop.
    pub fn iterate(
        &mut self,
        limits: &Limits,
        tm: Option<TimeManager>,
        callback: Option<&super::Callback>,
    ) {
        self.tm = tm;
        self.live = callback.and_then(|cb| Live::new(limits.live, cb, &self.pos));
        self.node_limit = if self.is_main() { limits.nodes } else { None };
        self.exhaustive = limits.mate.is_some();
        // Only the main thread obeys a depth limit: helpers go on until the main
        // thread has finished and stops them (a helper that skips the last depth
        // would otherwise sit idle while the main thread searches it alone).
        let max_depth = match limits.depth {
            Some(d) if self.is_main() => d.clamp(1, MAX_PLY as u32 - 10) as i32,
            _ => MAX_PLY as i32 - 10,
        };
        let multi_pv = limits.multi_pv.clamp(1, self.root_moves.len().max(1));
        let mut last_best = Move::NONE;
        let mut stability = 0;
        let mut prev_score = -INF;
        self.smp = self.shared.nodes.len() > 1;
        let mut depth = 0;
        while depth < max_depth {
            depth += 1;
            if self.stopped {
                break;
            }
            // A helper never starts a depth another thread has already completed.
            if self.id > 0 {
                let next = self.shared.deepest.load(Ordering::Relaxed) + 1;
                depth = depth.max(next.min(max_depth));
            }
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_index in 0..multi_pv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                let prev = self.root_moves[pv_index].prev_score;
                let mut delta = 20;
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let score = self.root_search(alpha, beta, depth);
                    // Sort what was searched this round: best first (stable keeps order
                    // among the unsearched, which keep -INF).
                    self.root_moves[pv_index..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if self.stopped {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INF);
                    } else if score >= beta {
                        beta = (score + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2 + 5;
                }
                self.root_moves[..=pv_index].sort_by_key(|r| std::cmp::Reverse(r.score));
                if self.stopped {
                    break;
                }
            }
            if self.superseded {
                // Another thread completed this depth (or a deeper one) first: take
                // its result as this thread's and go on from there.
                self.superseded = false;
                self.stopped = false;
                let Some((d, rms)) = self.shared.iteration_at_least(depth) else {
                    break; // (cannot happen: `deepest` only grows)
                };
                self.root_moves = rms;
                depth = d;
            } else if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if self.smp {
                self.shared.publish_iteration(depth, &self.root_moves);
            }
            if !self.is_main() {
                continue;
            }
            if let Some(cb) = callback {
                self.report(depth, multi_pv, cb);
            }
            let best = self.root_moves[0].mv;
            let score = self.root_moves[0].score;
            if best == last_best {
                stability += 1;
            } else {
                stability = 0;
            }
            last_best = best;
            if let (Some(m), Score::Mate(k)) = (limits.mate, to_score(score))
                && k > 0
                && k as u32 <= m
            {
                break;
            }
            if self.root_moves.len() == 1
                && self
                    .tm
                    .as_ref()
                    .is_some_and(|t| !t.suspended && !t.is_fixed())
                && depth >= 6
            {
                break; // a forced move: no need to think
            }
            if let Some(tm) = &self.tm {
                // Unstable best move or falling score: take more time.
                let mut scale = match stability {
                    0 => 1.8,
                    1 => 1.3,
                    2 => 1.0,
                    _ => 0.75,
                };
                if prev_score > -INF && score < prev_score - 30 {
                    scale *= 1.3;
                }
                let total = self.shared.total_nodes();
                if !tm.is_fixed() && tm.soft_stop(total.max(self.nodes), scale) {
                    break;
                }
            }
            prev_score = score;
        }
        self.publish_nodes();
    }

    fn report(&self, depth: i32, multi_pv: usize, cb: &super::Callback) {
        let Some(tm) = &self.tm else {
            return;
        };
        let nodes = self.shared.total_nodes().max(self.nodes);
        let time = tm.elapsed();
        let nps = (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64;
        let hashfull = self.shared.tt.hashfull();
        for (i, rm) in self.root_moves.iter().take(multi_pv).enumerate() {
            cb(Event::Info(Info {
                depth: depth as u32,
                seldepth: self.seldepth.max(depth as usize) as u32,
                multipv: i + 1,
                score: to_score(rm.score),
                nodes,
                nps,
                time,
                pv: rm.pv.clone(),
                hashfull,
            }));
        }
    }

    // ------------------------------------------------------------------ root

    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
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
            self.pos.make(m);
            let gives_check = self.pos.in_check();
            let new_depth = depth - 1 + gives_check as i32;
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

    // ------------------------------------------------------------------ main search

    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, true);
        }
        let pv_node = beta - alpha > 1;
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        self.stack[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply);
        if let Some(r) = movegen::immediate_result(&self.pos) {
            return value_score(r, ply);
        }
        if let Some(r) = self.rule_result() {
            return value_score(r, ply);
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        // Mate distance pruning: no line from here beats a faster mate already found.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = self.pos.key();
        let in_check = self.pos.in_check();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.map(|t| t.mv).unwrap_or(Move::NONE);
        if let Some(t) = tt {
            let s = from_tt(t.score, ply);
            if !pv_node
                && t.depth >= depth
                && match t.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }

        let static_eval = if in_check {
            -INF
        } else if let Some(t) = tt {
            t.eval
        } else {
            self.eval.evaluate(&self.pos)
        };
        // Use the table's score as a sharper static estimate when its bound allows.
        let eval = match tt {
            Some(t) if !in_check && t.score.abs() < MATE_BOUND => {
                let s = t.score;
                match t.bound {
                    Bound::Exact => s,
                    Bound::Lower if s > static_eval => s,
                    Bound::Upper if s < static_eval => s,
                    _ => static_eval,
                }
            }
            _ => static_eval,
        };
        self.stack[ply].eval = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.stack[ply - 2].eval;
        self.stack[ply + 1].killers = [Move::NONE; 2];

        if !pv_node && !in_check && !self.exhaustive {
            // Reverse futility: far above beta near the leaves, stand.
            if depth <= 6
                && eval - 90 * (depth - improving as i32) >= beta
                && eval.abs() < MATE_BOUND
            {
                return eval;
            }
            // Null move: give the opponent a free move; if we still beat beta, cut.
            if self.null_ok
                && depth >= 2
                && eval >= beta
                && static_eval >= beta - 20 * depth
                && !self.stack[ply - 1].null
                && beta.abs() < MATE_BOUND
                && self.has_pieces()
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.stack[ply].null = true;
                self.pos.make_null();
                let s = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
                self.pos.unmake_null();
                self.stack[ply].null = false;
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // No hash move in a PV or cut node: search a little shallower (the table
        // will have a move next time).
        let depth = if !self.exhaustive && tt_move.is_none() && depth >= 4 && (pv_node || cut_node)
        {
            depth - 1
        } else {
            depth
        };

        let us = self.pos.side_to_move() as usize;
        let prev_slot = last_mover(&self.pos)
            .map(|p| History::counter_slot(p, self.pos.state().last_move.to()));
        let counter = self.hist.counter(prev_slot);
        let all_at_once = in_check || self.rules.variant.must_capture;
        let buf = std::mem::take(&mut self.bufs[ply]);
        let mut picker =
            MovePicker::new(buf, tt_move, self.stack[ply].killers, counter, all_at_once);
        let info = self.rules.node_info(&self.pos);

        let mut best = -INF;
        let mut best_move = Move::NONE;
        // Legal moves met so far.
        let mut legal_moves = 0;
        let mut quiets: [Move; 64] = [Move::NONE; 64];
        let mut n_quiets = 0;
        // Moves another thread is searching are put off to the end (busy.rs).
        let may_defer = self.smp && depth >= DEFER_DEPTH;
        let mut put_off = PutOff::<32>::new();
        let mut picker_done = false;
        loop {
            // `legal`: the move's number among the legal moves.
            let (m, legal, first_pass) = if !picker_done
                && let Some(m) = picker.next(
                    &self.rules,
                    &self.movegen,
                    &mut self.pos,
                    &self.eval,
                    &self.hist,
                    &mut self.scratch,
                ) {
                if !self.rules.is_legal_with(&mut self.pos, m, &info) {
                    continue;
                }
                legal_moves += 1;
                (m, legal_moves, true)
            } else if let Some((m, number)) = put_off.pop(&self.shared.busy, key) {
                picker_done = true;
                (m, number, false)
            } else {
                break;
            };
            let busy_tag = may_defer.then(|| BusyMoves::tag(key, m));
            if first_pass
                && legal > 1
                && busy_tag.is_some_and(|t| self.shared.busy.is_busy(t))
                && put_off.push(m, legal)
            {
                continue;
            }
            let capture = self.rules.is_capture(&self.pos, m);
            let quiet = !capture && m.kind() != MoveKind::Promotion;
            let is_killer = self.stack[ply].killers.contains(&m) || m == counter;
            // Late-move pruning and futility need to know if the move checks: decided
            // after making it.
            let prune_candidate = !self.exhaustive
                && !pv_node
                && !in_check
                && quiet
                && best > -MATE_BOUND
                && legal > 1;
            self.pos.make(m);
            let gives_check = self.pos.in_check();
            if prune_candidate && !gives_check {
                let lmp_limit = (3 + depth * depth) / (2 - improving as i32);
                let futile = depth <= 5 && static_eval + 100 + 100 * depth <= alpha;
                if (depth <= 6 && legal > lmp_limit as usize) || futile {
                    self.pos.unmake();
                    if n_quiets < quiets.len() {
                        quiets[n_quiets] = m;
                        n_quiets += 1;
                    }
                    continue;
                }
            }
            let ext = (gives_check && (ply as i32) < 2 * self.root_depth) as i32;
            let new_depth = depth - 1 + ext;
            if let Some(tag) = busy_tag {
                self.shared.busy.enter(tag);
            }
            let mut score;
            if legal == 1 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node);
            } else {
                let mut r = 0;
                if !self.exhaustive
                    && depth >= 3
                    && legal > 1 + pv_node as usize
                    && (quiet || !pv_node)
                    && !gives_check
                {
                    r = self.lmr[depth.min(63) as usize][legal.min(63)];
                    r += cut_node as i32;
                    r -= pv_node as i32;
                    r -= is_killer as i32;
                    r += (!improving) as i32;
                    if quiet {
                        r -= self.hist.score(us, m) / (HISTORY_MAX / 2);
                    } else {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.pos.unmake();
            if let Some(tag) = busy_tag {
                self.shared.busy.leave(tag);
            }
            if self.stopped {
                self.bufs[ply] = picker.into_buf();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        let (head, tail) = self.stack.split_at_mut(ply + 1);
                        let pv = &mut head[ply].pv;
                        pv.clear();
                        pv.push(m);
                        pv.extend_from_slice(&tail[0].pv);
                    }
                    if score >= beta {
                        if quiet {
                            self.reward_quiet(ply, m, depth, &quiets[..n_quiets], prev_slot);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
        }
        self.bufs[ply] = picker.into_buf();

        if legal_moves == 0 {
            return value_score(rules::no_moves_value(&self.pos), ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && !best_move.is_none() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            static_eval.clamp(-INF, INF),
            depth,
            bound,
        );
        best
    }

    fn reward_quiet(
        &mut self,
        ply: usize,
        m: Move,
        depth: i32,
        tried: &[Move],
        prev_slot: Option<usize>,
    ) {
        let us = self.pos.side_to_move() as usize;
        let bonus = (depth * depth * 16).min(HISTORY_MAX / 2);
        self.hist.update(us, m, bonus);
        for &q in tried {
            if q != m {
                self.hist.update(us, q, -bonus);
            }
        }
        let k = &mut self.stack[ply].killers;
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        self.hist.set_counter(prev_slot, m);
    }

    // ------------------------------------------------------------------ quiescence

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        self.stack[ply].pv.clear();
        self.seldepth = self.seldepth.max(ply);
        if let Some(r) = movegen::immediate_result(&self.pos) {
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
            if !pv_node
                && match t.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                }
            {
                return s;
            }
        }
        let mut best = -INF;
        let mut static_eval = -INF;
        if !in_check {
            static_eval = match tt {
                Some(t) => t.eval,
                None => self.eval.evaluate_window(&self.pos, alpha, beta),
            };
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
        while let Some(m) = picker.next(
            &self.rules,
            &self.movegen,
            &mut self.pos,
            &self.eval,
            &self.hist,
            &mut self.scratch,
        ) {
            if !self.rules.is_legal_with(&mut self.pos, m, &info) {
                continue;
            }
            legal += 1;
            if !in_check && m.kind() != MoveKind::Promotion && !m.is_drop() {
                // Delta pruning: even winning the victim outright cannot reach alpha.
                let p = self.pos.piece_at(m.to());
                // (In drop games the victim also goes to the capturer's hand.)
                let victim = if p.is_some() { p.kind() } else { 0 };
                let gain = self.eval.value(victim) * if self.captures_to_hand { 2 } else { 1 };
                if static_eval + gain + 200 <= alpha && !m.has_extra() {
                    continue;
                }
            }
            self.pos.make(m);
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
                        let (head, tail) = self.stack.split_at_mut(ply + 1);
                        let pv = &mut head[ply].pv;
                        pv.clear();
                        pv.push(m);
                        pv.extend_from_slice(&tail[0].pv);
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
            best_move,
            to_tt(best, ply),
            static_eval.clamp(-INF, INF),
            0,
            bound,
        );
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
