//! A plain alpha-beta search behind the [`Searcher`](super::Searcher) interface:
//! iterative deepening, material evaluation, captures-only quiescence. It plays
//! legal, sensible moves in every variant; the real search replaces it.

use super::{Callback, Event, Info, Limits, Score, Signals};
use crate::board::{Color, Position};
use crate::movegen::{Move, MoveList, Ruleset};
use crate::rules;
use crate::variant::GameValue;
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const MATE: i32 = 30000;
const INF: i32 = 32000;

#[derive(Default)]
pub struct SharedState {}

struct Ctx<'a> {
    rules: &'a Ruleset,
    values: Vec<i32>,
    signals: &'a Signals,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    nodes: u64,
    stopped: bool,
    lists: Vec<MoveList>,
}

fn piece_values(rules: &Ruleset) -> Vec<i32> {
    let v = &rules.variant;
    let g = v.geometry;
    let center = g.square(g.files / 2, g.ranks / 2);
    (0..v.num_types())
        .map(|t| {
            if let Some(x) = v.piece_value_mg[t] {
                return x * 100 / 126;
            }
            if v.pieces[t].royal {
                return 0;
            }
            if Some(t as u8) == rules.pawn_type {
                return 100;
            }
            let steps = rules.tables.steps_of(Color::White, t as u8, center);
            let targets: usize = steps.iter().map(|s| s.len as usize).sum();
            100 + 35 * targets as i32
        })
        .collect()
}

impl Ctx<'_> {
    fn check_time(&mut self) {
        if self.nodes & 1023 == 0 {
            if self.signals.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            if let Some(d) = self.deadline
                && Instant::now() >= d
            {
                self.stopped = true;
            }
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        }
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        let v = &self.rules.variant;
        let mut score = 0;
        for c in Color::BOTH {
            let sign = if c == pos.side_to_move() { 1 } else { -1 };
            for t in 0..v.num_types() {
                let n = pos.count(c, t as u8) as i32 + pos.hand(c, t as u8) as i32;
                score += sign * n * self.values[t];
            }
        }
        score
    }

    fn value_of(&self, v: GameValue, ply: i32) -> i32 {
        match v {
            GameValue::Win => MATE - ply,
            GameValue::Loss => -MATE + ply,
            _ => 0,
        }
    }

    fn qsearch(&mut self, pos: &mut Position, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        self.nodes += 1;
        self.check_time();
        if let Some(r) = rules::immediate_result(pos) {
            return self.value_of(r, ply);
        }
        let stand = self.evaluate(pos);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        if ply > 60 || self.stopped {
            return stand;
        }
        let depth_index = ply as usize;
        if self.lists.len() <= depth_index {
            self.lists.push(MoveList::new());
        }
        let mut list = std::mem::take(&mut self.lists[depth_index]);
        self.rules.generate_legal(pos, &mut list);
        let mut best = stand;
        for &m in list.iter() {
            if !self.rules.is_capture(pos, m) {
                continue;
            }
            pos.make(m);
            let s = -self.qsearch(pos, -beta, -alpha, ply + 1);
            pos.unmake();
            if s > best {
                best = s;
                alpha = alpha.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        self.lists[depth_index] = list;
        best
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        pv: &mut Vec<Move>,
    ) -> i32 {
        self.nodes += 1;
        self.check_time();
        pv.clear();
        if ply > 0 {
            if let Some(r) = rules::immediate_result(pos) {
                return self.value_of(r, ply);
            }
            if let Some(r) = rules::repetition_result(pos, 2) {
                return self.value_of(r, ply);
            }
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        let depth_index = ply as usize;
        if self.lists.len() <= depth_index {
            self.lists.push(MoveList::new());
        }
        let mut list = std::mem::take(&mut self.lists[depth_index]);
        self.rules.generate_legal(pos, &mut list);
        if list.is_empty() {
            self.lists[depth_index] = list;
            return self.value_of(rules::no_moves_value(pos), ply);
        }
        // Captures first.
        list.moves.sort_by_key(|&m| !self.rules.is_capture(pos, m));
        let mut best = -INF;
        let mut child = Vec::new();
        for &m in list.iter() {
            pos.make(m);
            let s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, &mut child);
            pos.unmake();
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                pv.clear();
                pv.push(m);
                pv.extend_from_slice(&child);
                alpha = alpha.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        self.lists[depth_index] = list;
        best
    }
}

fn to_score(s: i32) -> Score {
    if s.abs() > MATE - 1000 {
        let plies = MATE - s.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if s > 0 { moves } else { -moves })
    } else {
        Score::Cp(s)
    }
}

pub fn search(
    mut pos: Position,
    limits: Limits,
    signals: &Signals,
    _state: &Mutex<SharedState>,
    callback: &Callback,
) {
    let rules = pos.rules().clone();
    let start = Instant::now();
    let budget = if let Some(t) = limits.movetime {
        Some(t)
    } else {
        limits.time_left.map(|left| {
            let moves = limits.moves_to_go.unwrap_or(30).max(1);
            let share = left / moves + limits.increment / 2;
            share
                .min(left / 2)
                .saturating_sub(limits.move_overhead)
                .max(Duration::from_millis(1))
        })
    };
    let timed = !(limits.infinite || limits.ponder);
    let mut ctx = Ctx {
        rules: &rules,
        values: piece_values(&rules),
        signals,
        deadline: if timed {
            budget.map(|b| start + b)
        } else {
            None
        },
        node_limit: limits.nodes,
        nodes: 0,
        stopped: false,
        lists: Vec::new(),
    };
    let mut root = MoveList::new();
    rules.generate_legal(&mut pos, &mut root);
    root.moves.retain(|m| {
        (limits.search_moves.is_empty() || limits.search_moves.contains(m))
            && !limits.exclude_moves.contains(m)
    });
    let mut best = root.moves.first().copied().unwrap_or(Move::NONE);
    let mut best_pv: Vec<Move> = Vec::new();
    let max_depth = limits.depth.unwrap_or(64).min(64) as i32;
    for depth in 1..=max_depth {
        if root.is_empty() {
            break;
        }
        let mut alpha = -INF;
        let mut iteration_best = None;
        let mut iteration_pv = Vec::new();
        let mut child = Vec::new();
        // Previous best first.
        if let Some(i) = root.moves.iter().position(|&m| m == best) {
            root.moves.swap(0, i);
        }
        for i in 0..root.len() {
            let m = root.moves[i];
            pos.make(m);
            let s = -ctx.negamax(&mut pos, depth - 1, -INF, -alpha, 1, &mut child);
            pos.unmake();
            if ctx.stopped {
                break;
            }
            if s > alpha || iteration_best.is_none() {
                alpha = s;
                iteration_best = Some((m, s));
                iteration_pv = std::iter::once(m).chain(child.iter().copied()).collect();
            }
        }
        if ctx.stopped && depth > 1 {
            break;
        }
        if let Some((m, s)) = iteration_best {
            best = m;
            best_pv = iteration_pv;
            let elapsed = start.elapsed();
            callback(Event::Info(Info {
                depth: depth as u32,
                seldepth: depth as u32,
                multipv: 1,
                score: to_score(s),
                nodes: ctx.nodes,
                nps: (ctx.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                time: elapsed,
                pv: best_pv.clone(),
                hashfull: 0,
            }));
            if limits
                .mate
                .is_some_and(|n| matches!(to_score(s), Score::Mate(k) if k > 0 && k as u32 <= n))
            {
                break;
            }
        }
        if ctx.stopped {
            break;
        }
        if let Some(b) = budget
            && timed
            && start.elapsed() > b / 2
        {
            break;
        }
    }
    // Infinite and ponder searches wait for stop (or ponderhit with its clock).
    while (limits.infinite || limits.ponder) && !signals.stop.load(Ordering::Relaxed) {
        if limits.ponder && signals.ponderhit.load(Ordering::Relaxed) {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let ponder = best_pv.get(1).copied();
    callback(Event::BestMove { best, ponder });
}
