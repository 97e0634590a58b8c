//! One search thread: its state (position, stack of plies, move-ordering buffers,
//! node counters) and iterative deepening with aspiration windows; the main thread
//! also keeps the clock and reports. The search itself is in `root.rs` (the root
//! moves), `node.rs` (a node before its moves), `moves.rs` (the move loop) and
//! `qsearch.rs` (quiescence).

use super::checks::CheckHints;
use super::history::History;
use super::live::Live;
use super::movepick::{MovePicker, OrderCtx, PickBuf};
use super::score::{INF, MATE_BOUND, MAX_PLY, to_score};
use super::shared::{RootMove, Shared};
use super::timeman::TimeManager;
use super::{Event, Info, Limits, Score};
use crate::board::NodeInfo;
use crate::board::{Position, Ruleset, StepMode};
use crate::eval::Evaluator;
use crate::rules;
use crate::types::{Color, GOLDEN_GAMMA, Move, MoveList, PieceType, absorb};
use crate::variant::{CountingRule, GameValue};
use std::sync::atomic::Ordering;
use std::sync::{Arc, OnceLock};

/// What the search keeps per ply.
#[derive(Clone, Default)]
pub(super) struct Frame {
    pub(super) killers: [Move; 2],
    pub(super) eval: i32,
    pub(super) pv: Vec<Move>,
    /// Null move made at this ply (no second null move in a row).
    pub(super) null: bool,
    /// Continuation row of the move being searched at this ply (none for a null
    /// move).
    pub(super) cont_row: Option<usize>,
    /// History of the quiet move being searched at this ply, less
    /// [`params::STAT_SCORE_NEUTRAL`](super::params::STAT_SCORE_NEUTRAL) (0 for
    /// other moves), and its number among the legal moves.
    pub(super) stat_score: i32,
    pub(super) move_count: usize,
    /// The move a singular-extension search at this ply leaves out.
    pub(super) excluded: Move,
}

/// Late-move reduction table, [depth][move number], in plies (computed once: 8000
/// logarithms per search would be a share of a fast move).
fn reductions() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[0; 64]; 64];
        for (d, row) in table.iter_mut().enumerate() {
            for (m, r) in row.iter_mut().enumerate() {
                if d > 0 && m > 0 {
                    *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as i32;
                }
            }
        }
        table
    })
}

pub struct Worker {
    pub id: usize,
    pub pos: Position,
    pub(super) rules: Arc<Ruleset>,
    pub(super) eval: Arc<Evaluator>,
    pub(super) checks: Arc<CheckHints>,
    pub(super) shared: Arc<Shared>,
    pub nodes: u64,
    pub(super) published: u64,
    pub(super) seldepth: usize,
    pub(super) stack: Vec<Frame>,
    /// Shared with the other threads (history.rs).
    pub(super) hist: History,
    pub(super) bufs: Vec<PickBuf>,
    /// Stands in for a ply's buffer while a singular-extension search reuses the ply.
    pub(super) spare_buf: PickBuf,
    /// Null-move verification: below this ply the verifying side makes no null move.
    pub(super) nmp_min_ply: usize,
    pub(super) nmp_side: Option<Color>,
    pub(super) scratch: MoveList,
    pub(super) lmr: &'static [[i32; 64]; 64],
    pub root_moves: Vec<RootMove>,
    pub(super) pv_index: usize,
    pub(super) root_depth: i32,
    pub completed_depth: i32,
    pub(super) stopped: bool,
    /// Several threads search: iterations are published and may be superseded.
    pub(super) smp: bool,
    /// The current iteration was dropped because another thread completed it (or
    /// a deeper one) first; `stopped` is set too, to unwind.
    pub(super) superseded: bool,
    /// Main thread only: clock and limits.
    pub(super) tm: Option<TimeManager>,
    /// Main thread only: current move, line and refutation reports, when asked for.
    pub(super) live: Option<Live>,
    pub(super) node_limit: Option<u64>,
    /// Null move allowed at all in this variant (zugzwang-prone games turn it off).
    pub(super) null_ok: bool,
    /// Types that count as "pieces" for the null-move zugzwang guard.
    pub(super) non_pawn: u64,
    /// Pawn-like types: their squares key the correction history.
    pub(super) structure: u64,
    /// Mate search: no forward pruning or reductions, so that a mate in N is found
    /// at depth 2N-1.
    pub(super) exhaustive: bool,
    pub(super) captures_to_hand: bool,
    /// False when every move of the variant is a capture (Clobber): quiescence would
    /// then be the whole game tree, so it stops at the static evaluation.
    pub(super) quiet_moves_exist: bool,
}

/// Does some piece of the variant have a non-capturing move (or are there drops)?
fn quiet_moves_exist(rules: &Ruleset) -> bool {
    let v = &rules.variant;
    v.piece_drops
        || (0..v.num_types() as PieceType).any(|t| {
            v.geometry.all().iter().any(|sq| {
                rules
                    .steps(Color::White, t, sq)
                    .any(|step| step.mode().contains(StepMode::MOVE))
            })
        })
}

impl Worker {
    pub fn new(
        id: usize,
        pos: Position,
        eval: Arc<Evaluator>,
        checks: Arc<CheckHints>,
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
        let structure = (0..v.num_types())
            .filter(|&t| !v.pieces[t].royal && non_pawn & 1 << t == 0)
            .fold(0, |m, t| m | 1 << t);
        let null_ok =
            !(v.must_capture || v.extinction_all_types && v.extinction_value == GameValue::Win);
        Worker {
            id,
            pos,
            rules,
            eval,
            checks,
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
            spare_buf: PickBuf::default(),
            nmp_min_ply: 0,
            nmp_side: None,
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
            structure,
            exhaustive: false,
            captures_to_hand,
            quiet_moves_exist,
        }
    }

    /// The key of the pawn structure (the squares of the pawn-like types), which
    /// keys the correction history.
    pub(super) fn structure_key(&self) -> u64 {
        let mut h = GOLDEN_GAMMA;
        for c in Color::BOTH {
            let mut types = self.structure;
            while types != 0 {
                let t = types.trailing_zeros() as PieceType;
                types &= types - 1;
                for &w in self.pos.pieces_of(c, t).0.data.iter() {
                    h = absorb(h, w);
                }
            }
        }
        h
    }

    /// The static evaluation `raw` corrected by what searches found of it with this
    /// pawn structure.
    pub(super) fn corrected(&self, raw: i32, structure: u64) -> i32 {
        let stm = self.pos.side_to_move() as usize;
        (raw + self.hist.correction(stm, structure)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    pub(super) fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Every 256 nodes: publish the node count, look at the stop flags and clock.
    /// (In variants whose legality test generates moves, janggi's or sittuyin's, the
    /// search runs some 40,000 nodes a second on a slow machine: 1024 nodes took
    /// 25 ms, past a clock of a few milliseconds.)
    #[inline]
    pub(super) fn poll(&mut self) {
        if self.nodes & 255 != 0 {
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
    pub(super) fn has_pieces(&self) -> bool {
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

    /// Draw by the n-move rule, or repetition (the variant's values): once inside the
    /// tree, `ply` plies deep, or the game's full count with the moves before the root.
    #[inline]
    pub(super) fn rule_result(&self, ply: usize) -> Option<GameValue> {
        let v = &self.rules.variant;
        let st = self.pos.state();
        if rules::n_move_rule_over(&self.pos) && !self.pos.in_check() {
            return Some(rules::counted(&self.pos, GameValue::Draw));
        }
        if v.counting_rule != CountingRule::None
            && rules::counting_over(&self.pos)
            && !self.pos.in_check()
        {
            return Some(GameValue::Draw);
        }
        if st.plies_from_null < 4 {
            return None;
        }
        rules::repetition_result(&self.pos, v.n_fold_rule.max(2), ply)
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
                && self.tm.as_ref().is_some_and(|t| t.is_clock())
                && depth >= 6
            {
                break; // a forced move in a game: no need to think
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

    /// `m` was just made and gives check: does it keep its material? Only such checks
    /// are extended: a check by a piece that is simply taken back proves nothing (in
    /// drop games most checks are of that kind).
    pub(super) fn safe_check(&mut self, m: Move) -> bool {
        if !self
            .rules
            .attacked_by(&self.pos, m.to(), self.pos.side_to_move())
        {
            return true;
        }
        self.pos.unmake();
        let safe = self.rules.see_ge(&self.pos, m, 0, self.eval.see_values());
        self.pos.make(m);
        safe
    }

    /// Make a legal move, skipping the check test when the check hints rule a check
    /// out.
    #[inline]
    pub(super) fn make_move(&mut self, m: Move) {
        if self.checks.never_checks(&self.rules, &self.pos, m) {
            self.pos.make_without_check(m);
        } else {
            self.pos.make(m);
        }
        self.shared.tt.prefetch(self.pos.key());
    }

    /// The principal variation at `ply` becomes `m` followed by the child's.
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.stack.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(m);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// The picker's next legal move other than `excluded` (`Move::NONE` excludes
    /// nothing); None when it has no more.
    #[inline]
    pub(super) fn next_legal(
        &mut self,
        picker: &mut MovePicker,
        cont: [Option<usize>; 3],
        info: &NodeInfo,
        excluded: Move,
    ) -> Option<Move> {
        loop {
            let ctx = OrderCtx {
                rules: &self.rules,
                eval: &self.eval,
                hist: &self.hist,
                cont,
            };
            let m = picker.next(&ctx, &mut self.pos, &mut self.scratch)?;
            if m != excluded && self.rules.is_legal_with(&mut self.pos, m, info) {
                return Some(m);
            }
        }
    }

    /// Continuation rows of the moves one, two and four plies before `ply`.
    pub(super) fn cont_rows(&self, ply: usize) -> [Option<usize>; 3] {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.stack[p].cont_row);
        [back(1), back(2), back(4)]
    }
}
