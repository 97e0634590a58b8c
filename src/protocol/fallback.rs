//! A last-resort move chooser for when the search thread dies without reporting a
//! move (a bug there must not make the engine forfeit on time or hang the GUI): a
//! short material-only alpha-beta that at least mates in one, takes hanging pieces
//! and keeps the game going with legal moves.

use super::common::FALLBACK_BUDGET;
use crate::board::{Position, Ruleset};
use crate::rules;
use crate::search::{Info, Limits, Score};
use crate::types::{Color, Move, MoveList};
use crate::variant::GameValue;
use std::time::{Duration, Instant};

const MATE: i32 = 100_000;

/// The deepest the fallback looks: it has to answer within a fraction of a second.
const MAX_DEPTH: u32 = 4;

struct Ctx {
    values: Vec<i32>,
    deadline: Instant,
    out_of_time: bool,
}

/// What the fallback found.
pub struct Choice {
    pub best: Move,
    pub score: Score,
    pub depth: u32,
}

impl Choice {
    /// The choice as a search report (one move of PV, no node counts), for the
    /// thinking/info line the GUI is owed.
    pub fn info(&self) -> Info {
        Info {
            depth: self.depth,
            seldepth: self.depth,
            multipv: 1,
            score: self.score,
            nodes: 0,
            nps: 0,
            time: Duration::ZERO,
            pv: vec![self.best],
            hashfull: 0,
        }
    }
}

/// A legal move of `pos` (None when it has none) for the search that died with
/// these `limits`: chosen within [`FALLBACK_BUDGET`] (less when the move time is
/// shorter) and the depth limit, among the search moves when there are some.
pub fn choose(pos: &Position, limits: &Limits) -> Option<Choice> {
    let budget = limits
        .movetime
        .map_or(FALLBACK_BUDGET, |t| t.min(FALLBACK_BUDGET));
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let mut pos = pos.clone();
    let rules = pos.rules().clone();
    let mut root = MoveList::new();
    rules.generate_legal(&mut pos, &mut root);
    if !limits.search_moves.is_empty() {
        root.moves.retain(|m| limits.search_moves.contains(m));
    }
    let first = *root.moves.first()?;
    let mut ctx = Ctx {
        values: piece_values(&rules),
        deadline: Instant::now() + budget,
        out_of_time: false,
    };
    // Vary the choice between equal moves from game to game.
    let seed = pos.key() as usize;
    let n = root.len();
    root.moves.rotate_left(seed % n);
    let mut best = first;
    let mut best_score = 0;
    let mut reached = 0;
    for depth in 1..=max_depth as i32 {
        let mut alpha = -2 * MATE;
        let mut iteration_best = None;
        for &m in root.iter() {
            pos.make(m);
            let s = -ctx.search(&mut pos, depth - 1, -2 * MATE, -alpha, 1);
            pos.unmake();
            if ctx.out_of_time {
                break;
            }
            if s > alpha {
                alpha = s;
                iteration_best = Some(m);
            }
        }
        if ctx.out_of_time {
            break;
        }
        if let Some(m) = iteration_best {
            best = m;
            best_score = alpha;
            reached = depth as u32;
            // Searched moves first next time.
            if let Some(i) = root.moves.iter().position(|&x| x == m) {
                root.moves.swap(0, i);
            }
        }
    }
    let score = if best_score.abs() > MATE - 1000 {
        let plies = MATE - best_score.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if best_score > 0 { moves } else { -moves })
    } else {
        Score::Cp(best_score)
    };
    Some(Choice {
        best,
        score,
        depth: reached,
    })
}

/// Rough values: pawns 100, other pieces by how many squares they reach from the
/// centre of an empty board, royal pieces nothing.
fn piece_values(rules: &Ruleset) -> Vec<i32> {
    let v = &rules.variant;
    let g = v.geometry;
    let centre = g.square(g.files / 2, g.ranks / 2);
    (0..v.num_types())
        .map(|t| {
            if v.pieces[t].royal {
                0
            } else if Some(t as u8) == rules.pawn_type {
                100
            } else {
                let steps = rules.steps(Color::White, t as u8, centre);
                100 + 30 * steps.map(|s| s.reach().len() as i32).sum::<i32>()
            }
        })
        .collect()
}

impl Ctx {
    fn evaluate(&self, pos: &Position) -> i32 {
        let v = pos.variant();
        let us = pos.side_to_move();
        let mut score = 0;
        for c in Color::BOTH {
            let sign = if c == us { 1 } else { -1 };
            for t in 0..v.num_types() {
                let n = pos.count(c, t as u8) as i32 + pos.hand(c, t as u8) as i32;
                score += sign * n * self.values[t];
            }
        }
        score
    }

    fn value(v: GameValue, ply: i32) -> i32 {
        match v {
            GameValue::Win => MATE - ply,
            GameValue::Loss => ply - MATE,
            _ => 0,
        }
    }

    fn search(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        if Instant::now() >= self.deadline {
            self.out_of_time = true;
            return 0;
        }
        if let Some(r) = rules::immediate_result(pos) {
            return Self::value(r, ply);
        }
        let rules = pos.rules().clone();
        let mut list = MoveList::new();
        rules.generate_legal(pos, &mut list);
        if list.is_empty() {
            return Self::value(rules::no_moves_value(pos), ply);
        }
        if depth <= 0 {
            return self.evaluate(pos);
        }
        let mut best = -2 * MATE;
        for &m in list.iter() {
            pos.make(m);
            let s = -self.search(pos, depth - 1, -beta, -alpha, ply + 1);
            pos.unmake();
            if self.out_of_time {
                return 0;
            }
            if s > best {
                best = s;
                alpha = alpha.max(s);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}
