//! The move loop of a main-search node: moves in the move picker's order, the hash
//! move tested for a singular extension, shallow-depth pruning (decided before the
//! move is made whenever it certainly does not give check), check extensions,
//! principal variation search with late-move reductions, and the history updates of
//! a cut-off.

use super::busy::{BusyMoves, DEFER_DEPTH, PutOff};
use super::history::{History, last_mover};
use super::movepick::{MovePicker, captured_type, move_key, quiet_history};
use super::node::Node;
use super::params;
use super::score::{INF, MATE_BOUND, to_tt, value_score};
use super::tt::{Bound, EVAL_NONE, Probe};
use super::worker::Worker;
use crate::rules;
use crate::types::{Move, MoveKind};

/// One move of the loop, as the pruning and reduction decisions see it.
struct Candidate {
    m: Move,
    /// Its number among the legal moves.
    number: usize,
    /// Neither a capture nor a promotion to a new piece.
    quiet: bool,
    /// A killer or the counter-move.
    refutation: bool,
    piece_to: usize,
    /// Butterfly plus continuation histories (quiet moves; 0 for others).
    history: i32,
}

/// What the shallow-depth pruning decided for a move before it is made.
enum Pruning {
    Search,
    /// Prune it now, unmade: a capture or promotion losing too much by static
    /// exchange, or a quiet move (check or not) past the move-count limit.
    Skip,
    /// Prune it unless it gives check; a check is pruned too when it loses more
    /// than the capture margin by static exchange.
    UnlessCheck,
}

/// What the singular-extension test found for the hash move.
enum Singular {
    No,
    Extend,
    /// The node is decided (multi-cut, or the search was stopped).
    Cut(i32),
}

/// A cut-off to learn from.
struct Cutoff<'a> {
    ply: usize,
    depth: i32,
    mv: Move,
    quiet: bool,
    /// The moves tried before it.
    quiets: &'a [Move],
    captures: &'a [Move],
    prev_slot: Option<usize>,
    cont: [Option<usize>; 3],
}

/// Quiet moves searched at `depth` before the rest are pruned.
fn futility_move_count(improving: bool, depth: i32) -> usize {
    ((params::FUTILITY_MOVE_COUNT_BASE + depth * depth) * (1 + improving as i32) / 2) as usize
}

/// Static exchange a quiet move may lose before it is pruned, at reduced depth `d`.
fn quiet_see_margin(d: i32) -> i32 {
    -(params::SEE_QUIET_BASE - d.min(params::SEE_QUIET_DEPTH_CAP)) * d * d * params::SEE_QUIET_SCALE
        / 100
}

/// Static exchange a capture or check may lose before it is pruned, at `depth`.
fn capture_see_margin(depth: i32) -> i32 {
    params::SEE_CAPTURE_MARGIN * depth
}

/// History bonus for a cut-off at `depth`.
fn stat_bonus(depth: i32) -> i32 {
    if depth > params::STAT_BONUS_MAX_DEPTH {
        0
    } else {
        params::STAT_BONUS_QUADRATIC * depth * depth + params::STAT_BONUS_LINEAR * depth
            - params::STAT_BONUS_OFFSET
    }
}

impl Worker {
    /// Search the moves of an entered node that no pruning step decided.
    pub(super) fn search_moves(&mut self, n: Node) -> i32 {
        let (ply, depth, beta) = (n.ply, n.depth, n.beta);
        let mut alpha = n.alpha;
        let prev_slot = last_mover(&self.pos)
            .map(|p| History::counter_slot(p, self.pos.state().last_move.to()));
        let counter = self.hist.counter(prev_slot);
        let all_at_once = n.in_check || self.rules.variant.must_capture;
        let buf = std::mem::take(&mut self.bufs[ply]);
        let killers = self.stack[ply].killers;
        let mut picker = MovePicker::new(buf, n.tt_move, killers, counter, all_at_once, depth);
        let cont = self.cont_rows(ply);
        let info = self.rules.node_info(&self.pos);

        let has_pieces = self.has_pieces();
        // The hash move was found singular: the other moves are reduced less.
        let mut singular_lmr = false;
        // The move that led here looked good for its side (or was its first move).
        let prev_good =
            ply >= 1 && (self.stack[ply - 1].stat_score > 0 || self.stack[ply - 1].move_count == 1);
        let mut best = -INF;
        let mut best_move = Move::NONE;
        // Legal moves met so far.
        let mut legal_moves = 0;
        let mut quiets: [Move; 64] = [Move::NONE; 64];
        let mut n_quiets = 0;
        let mut captures: [Move; 32] = [Move::NONE; 32];
        let mut n_captures = 0;
        // Moves another thread is searching are put off to the end (busy.rs).
        let may_defer = self.smp && depth >= DEFER_DEPTH;
        let mut put_off = PutOff::<32>::new();
        let mut picker_done = false;
        loop {
            // `legal`: the move's number among the legal moves.
            let (m, legal, first_pass) = if !picker_done
                && let Some(m) = self.next_legal(&mut picker, cont, &info, n.excluded)
            {
                legal_moves += 1;
                (m, legal_moves, true)
            } else if let Some((m, number)) = put_off.pop(&self.shared.busy, n.key) {
                picker_done = true;
                (m, number, false)
            } else {
                break;
            };
            let busy_tag = may_defer.then(|| BusyMoves::tag(n.key, m));
            if first_pass
                && legal > 1
                && busy_tag.is_some_and(|t| self.shared.busy.is_busy(t))
                && put_off.push(m, legal)
            {
                continue;
            }
            let capture = self.rules.is_capture(&self.pos, m);
            let quiet = !capture && m.kind() != MoveKind::Promotion;
            let c = Candidate {
                m,
                number: legal,
                quiet,
                refutation: self.stack[ply].killers.contains(&m) || m == counter,
                piece_to: move_key(&self.hist, &self.pos, m),
                history: if quiet {
                    quiet_history(&self.hist, &cont, &self.pos, m)
                } else {
                    0
                },
            };
            let singular = match self.singular(&n, m) {
                Singular::No => false,
                Singular::Extend => {
                    singular_lmr = true;
                    true
                }
                Singular::Cut(score) => {
                    self.bufs[ply] = picker.into_buf();
                    return score;
                }
            };
            let prunable = !self.exhaustive && !n.in_check && best > -MATE_BOUND && has_pieces;
            let pruning = if prunable {
                self.shallow_pruning(&n, &c, alpha, prev_good, &cont)
            } else {
                Pruning::Search
            };
            // A move pruned unless it checks is pruned unmade when it certainly does
            // not check, and made to find out otherwise.
            let prune_quiet = match pruning {
                Pruning::Skip => continue,
                Pruning::Search => false,
                Pruning::UnlessCheck => true,
            };
            let prune_unmade = prune_quiet && !self.checks.may_check(&self.rules, &self.pos, m);
            // (The exchange is judged before the move is made, and only for a move
            // that may give check: the others are pruned whatever it says.)
            let check_loses = prune_quiet
                && !prune_unmade
                && !self.rules.see_ge(
                    &self.pos,
                    m,
                    capture_see_margin(depth),
                    self.eval.see_values(),
                );
            if !prune_unmade {
                self.make_move(m);
            }
            let gives_check = !prune_unmade && self.pos.in_check();
            if prune_quiet && (!gives_check || check_loses) {
                if !prune_unmade {
                    self.pos.unmake();
                }
                if n_quiets < quiets.len() {
                    quiets[n_quiets] = m;
                    n_quiets += 1;
                }
                continue;
            }
            self.stack[ply].stat_score = if quiet {
                c.history - params::STAT_SCORE_NEUTRAL
            } else {
                0
            };
            self.stack[ply].move_count = legal;
            let extend_check =
                gives_check && (ply as i32) < 2 * self.root_depth && self.safe_check(m);
            let new_depth = depth - 1 + (singular || extend_check) as i32;
            if let Some(tag) = busy_tag {
                self.shared.busy.enter(tag);
            }
            self.stack[ply].cont_row = Some(self.hist.row(c.piece_to));
            let score = self.search_move(&n, &c, alpha, new_depth, gives_check, singular_lmr);
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
                    if n.pv {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.reward_cutoff(Cutoff {
                            ply,
                            depth,
                            mv: m,
                            quiet,
                            quiets: &quiets[..n_quiets],
                            captures: &captures[..n_captures],
                            prev_slot,
                            cont,
                        });
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            } else if capture && n_captures < captures.len() {
                captures[n_captures] = m;
                n_captures += 1;
            }
        }
        self.bufs[ply] = picker.into_buf();

        if legal_moves == 0 {
            // Without the excluded move there may be none left: that says nothing.
            if !n.excluded.is_none() {
                return alpha;
            }
            return value_score(rules::no_moves_value(&self.pos), ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if n.pv && !best_move.is_none() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The static evaluation was off by what the search found: remember it for
        // this pawn structure (not when a capture decided, nor when the bound says
        // nothing about the direction).
        if !n.in_check
            && n.excluded.is_none()
            && best.abs() < MATE_BOUND
            && (best_move.is_none() || !self.rules.is_capture(&self.pos, best_move))
            && !(bound == Bound::Lower && best <= n.static_eval)
            && !(bound == Bound::Upper && best >= n.static_eval)
        {
            let stm = self.pos.side_to_move() as usize;
            self.hist
                .update_correction(stm, n.structure, best - n.static_eval, n.depth);
        }
        let stored_eval = if n.in_check { EVAL_NONE } else { n.raw_eval };
        self.shared.tt.store(
            n.key,
            Probe {
                mv: best_move,
                score: to_tt(best, ply),
                eval: stored_eval,
                depth,
                bound,
            },
        );
        best
    }

    /// Singular extension: when the hash move is much better than every other move
    /// (a search without it at half depth fails low), it is extended; when even the
    /// alternatives beat beta, several moves refute the position and the node is cut
    /// (multi-cut).
    fn singular(&mut self, n: &Node, m: Move) -> Singular {
        let Some(t) = n.tt.filter(|t| {
            m == n.tt_move
                && !self.exhaustive
                && n.excluded.is_none()
                && n.depth >= params::SINGULAR_DEPTH
                && t.bound != Bound::Upper
                && t.depth >= n.depth - params::SINGULAR_TT_DEPTH_SLACK
                && t.score.abs() < MATE_BOUND
        }) else {
            return Singular::No;
        };
        let ply = n.ply;
        let singular_beta = t.score - params::SINGULAR_MARGIN * n.depth;
        // The search reuses this ply: its move buffer is in use by our picker.
        self.stack[ply].excluded = m;
        self.bufs[ply] = std::mem::take(&mut self.spare_buf);
        let v = self.search(singular_beta - 1, singular_beta, n.depth / 2, ply, n.cut);
        self.spare_buf = std::mem::take(&mut self.bufs[ply]);
        self.stack[ply].excluded = Move::NONE;
        if self.stopped {
            Singular::Cut(0)
        } else if v < singular_beta {
            Singular::Extend
        } else if singular_beta >= n.beta {
            Singular::Cut(singular_beta)
        } else {
            Singular::No
        }
    }

    /// Shallow-depth pruning of one move (not the first): late quiet moves (checks
    /// included), quiet moves with a poor continuation history or a hopeless
    /// futility estimate (unless they check), and moves losing too much by static
    /// exchange.
    fn shallow_pruning(
        &self,
        n: &Node,
        c: &Candidate,
        alpha: i32,
        prev_good: bool,
        cont: &[Option<usize>; 3],
    ) -> Pruning {
        let depth = n.depth;
        let see_values = self.eval.see_values();
        let see_loses = |margin: i32| !self.rules.see_ge(&self.pos, c.m, margin, see_values);
        if !c.quiet {
            return if see_loses(capture_see_margin(depth)) {
                Pruning::Skip
            } else {
                Pruning::Search
            };
        }
        // Late quiet moves are pruned whether or not they check: sparing every late
        // check of every node made the tree search about three times the checks
        // Fairy-Stockfish does at the same depth. (Skipped, they are not made, and
        // take no history penalty at a cut-off.)
        if c.number >= futility_move_count(n.improving, depth) {
            return Pruning::Skip;
        }
        let lmr_depth =
            (depth - 1 - self.lmr[depth.min(63) as usize][c.number.min(63)] - !n.improving as i32)
                .max(0);
        let cont_of = |i: usize| cont[i].map_or(0, |row| self.hist.continuation(row, c.piece_to));
        let prune = (lmr_depth < params::CONT_HISTORY_PRUNE_DEPTH + prev_good as i32
            && cont_of(0) < 0
            && cont_of(1) < 0)
            || (lmr_depth < params::FUTILITY_LMR_DEPTH
                && n.static_eval + params::FUTILITY_BASE + params::FUTILITY_PER_DEPTH * lmr_depth
                    <= alpha
                && c.history < params::FUTILITY_HISTORY_LIMIT)
            || see_loses(quiet_see_margin(lmr_depth));
        if prune {
            Pruning::UnlessCheck
        } else {
            Pruning::Search
        }
    }

    /// Principal variation search of a made move: the first move with the full
    /// window, the others with a null window (reduced when late and quiet), searched
    /// again when they surprise.
    fn search_move(
        &mut self,
        n: &Node,
        c: &Candidate,
        alpha: i32,
        new_depth: i32,
        gives_check: bool,
        singular_lmr: bool,
    ) -> i32 {
        let (ply, beta) = (n.ply, n.beta);
        if c.number == 1 {
            return -self.search(-beta, -alpha, new_depth, ply + 1, !n.pv && !n.cut);
        }
        let r = if !self.exhaustive
            && n.depth >= params::LMR_DEPTH
            && c.number > 1 + n.pv as usize
            && (c.quiet || !n.pv)
            && !gives_check
        {
            self.reduction(n, c, singular_lmr).clamp(0, new_depth - 1)
        } else {
            0
        };
        let mut score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
        if score > alpha && r > 0 {
            score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !n.cut);
        }
        if n.pv && score > alpha && score < beta {
            score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
        }
        score
    }

    /// Late-move reduction of a move, in plies (before clamping to the depth).
    fn reduction(&self, n: &Node, c: &Candidate, singular_lmr: bool) -> i32 {
        let mut r = self.lmr[n.depth.min(63) as usize][c.number.min(63)];
        r += n.cut as i32;
        r -= n.pv as i32;
        r -= c.refutation as i32;
        r -= singular_lmr as i32;
        r += (!n.improving) as i32;
        if c.quiet {
            // Histories over the neutral level earn less reduction, below it more.
            r -= (c.history - params::STAT_SCORE_NEUTRAL) / params::LMR_HISTORY_DIVISOR;
        } else {
            r -= 1;
        }
        r
    }

    /// A move caused a beta cut-off: reward it in the histories (quiet: butterfly,
    /// continuation, killer and counter-move; capture: capture history) and punish
    /// the moves tried before it.
    fn reward_cutoff(&mut self, c: Cutoff) {
        let us = self.pos.side_to_move() as usize;
        let bonus = stat_bonus(c.depth);
        let hist = &self.hist;
        let pos = &self.pos;
        let cont = c.cont;
        let quiet_update = |q: Move, b: i32| {
            hist.update(us, q, b);
            let key = move_key(hist, pos, q);
            for row in cont.iter().flatten() {
                hist.update_continuation(*row, key, b);
            }
        };
        let capture_update = |x: Move, b: i32| {
            if let Some(v) = captured_type(pos, x) {
                hist.update_capture(move_key(hist, pos, x), v, b);
            }
        };
        if c.quiet {
            quiet_update(c.mv, bonus);
            for &q in c.quiets {
                if q != c.mv {
                    quiet_update(q, -bonus);
                }
            }
        } else {
            capture_update(c.mv, bonus);
        }
        for &x in c.captures {
            if x != c.mv {
                capture_update(x, -bonus);
            }
        }
        if c.quiet {
            let k = &mut self.stack[c.ply].killers;
            if k[0] != c.mv {
                k[1] = k[0];
                k[0] = c.mv;
            }
            self.hist.set_counter(c.prev_slot, c.mv);
        }
    }
}
