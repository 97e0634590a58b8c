//! Generic evaluation: terms (code) times weights (data). Everything comes from the
//! variant: the terms are defined on its pieces, board and rules ([`basis`]), the
//! weights from its weights file or, where it has none, derived from its pieces
//! ([`params`]). The terms: material on the board and in hand, pairs, piece-square
//! terms from geometry (advance, centre, reach) plus a table per type where the
//! weights give one (folded into one table at construction), mobility (all squares,
//! their square root, and those safe from enemy pawns), closeness to the enemy
//! royal piece, pawn structure (backward pawns included), shelter, storm, passed
//! pawns, the royal piece's distance to its pawns and a pawnless flank, space, and
//! pieces on open files, outposts, behind pawns and (colour-bound pieces) among own
//! pawns on their colour where the variant has pawns, threats (hanging pieces,
//! cheaper attackers, safe pawns and safe pawn pushes, contested squares), attacks
//! on the royal piece's flank, tempo, and king danger from attacks, safe and unsafe
//! checks (drops included), droppable pieces, defenders, the attacking types
//! present, flank attacks and defence and the mobility difference, which turns into
//! a penalty quadratic in the middlegame. The result
//! is tapered between middlegame and endgame by the material left on the board
//! and in hand, and scaled towards a draw when the side ahead cannot mate.
//!
//! The evaluation is written once, generic over a [`trace::Trace`]: the engine's
//! [`NoTrace`](trace::NoTrace) costs nothing, the tuner's records every weight's
//! coefficient ([`tune`]).
//!
//! The terms are declared once, in the table of [`terms`] (name, shape, default,
//! fitted or not); [`weights`] reads a weights file by that table, [`params`]
//! holds the weights as one flat list and `tables` turns them into the dense
//! arrays and tables the evaluation reads.
//!
//! The modules by concern: `tables` builds the evaluator from its weights;
//! `material` is the cheap part (material, piece-square tables, phase) and
//! `pawns` the pawn terms, both before the lazy exit; then `facts`, the first
//! pass, computes what several terms read (attack maps, check squares, pawn maps,
//! every piece's targets) and the terms read it: `mobility`, the pawn terms of
//! pieces, `threats`, `king_safety`; `scale` gives the endgame scale and
//! `cache` holds the thread's caches.
//!
//! Where a learned evaluation ([`crate::nnue`]) of the variant's layout is set
//! ([`Evaluator::with_nnue`]), it replaces all of this in the search; the
//! hand-crafted evaluation stays the fallback and the tuner's subject.

pub mod basis;
mod cache;
mod facts;
mod king_safety;
mod material;
mod mobility;
pub mod net_key;
pub mod params;
mod pawns;
mod scale;
mod tables;
pub mod terms;
mod threats;
pub mod trace;
pub mod tune;
pub mod values;
pub mod weights;

use crate::board::{Position, Ruleset};
use crate::nnue::{Layout, Nnue};
use crate::types::{Color, MAX_WORDS, PieceType, SquareSet, Squares, TypeSet, Width};
use basis::Basis;
use cache::{EVAL_UNKNOWN, EvalWidth, with_scratch};
use params::{Params, global_slot};
use std::sync::Arc;
use terms::{GlobalTerm, PieceTerm};
use trace::Trace;

pub use facts::{Targets, piece_targets};

/// Largest phase value: all starting material on the board or in hand.
const PHASE_MAX: i32 = 256;
/// The endgame part is scaled in 64ths.
pub(crate) const SCALE_ONE: i32 = 64;
/// Window bounds at which the lazy exit is off.
const LAZY_OFF: i32 = 30_000;
/// No evaluation goes beyond this (far from the search's mate scores).
const EVAL_LIMIT: i32 = 10_000;
/// The middlegame king-danger penalty is danger² / this.
const DANGER_DIVISOR: i32 = 4096;

/// The variant-derived tables and the evaluation function.
pub struct Evaluator {
    /// Unique per evaluator: keys its pawn-cache entries.
    id: u64,
    rules: Arc<Ruleset>,
    basis: Basis,
    params: Params,
    n: usize,
    /// Cells of a piece-square table (the tuner's slots of those weights).
    cells: usize,
    /// The weights of the piece terms, rounded, indexed `type * PieceTerm::COUNT +
    /// term` (mg, eg; a danger term in the first place): centipawns, but the
    /// mobility terms in eighths of a centipawn (see `tables::unit`).
    piece_weights: Vec<[i32; 2]>,
    /// The weights of the global terms, rounded, indexed by term.
    global_weights: [[i32; 2]; GlobalTerm::COUNT],
    /// What taking a piece of the type gains, for static exchange: its value, plus in
    /// drop games the value of the (demoted) piece that goes to the taker's hand.
    see_values: Vec<i32>,
    value_mg: Vec<i32>,
    /// Piece-square terms, indexed `(color * n + type) * squares + square` (as
    /// many squares as the board has: a small board's table stays small).
    psq: Vec<[i32; 2]>,
    /// The board's number of squares.
    squares: usize,
    /// Per type and number of squares reached below `MOBILITY_TABLE`, the mobility
    /// and mobility-root terms together (mg, eg), as `mobility::mobility_score`
    /// computes them: indexed `type * MOBILITY_TABLE + reached`.
    mobility_table: Vec<[i32; 2]>,
    /// Some type has a `threat` weight (else the weak pieces are not walked).
    threat_on: bool,
    /// Some type has a `threat_by_pawn` weight (else its walks are skipped).
    threat_by_pawn_on: bool,
    /// Per colour and square: what a pawn of the colour there, or anywhere ahead
    /// of it on its file, attacks (the squares it may one day attack).
    pawn_span: Vec<SquareSet>,
    /// Any type has a weight on the pawn-related piece terms (else the pawn
    /// maps they read are not needed).
    pawn_terms_on: bool,
    /// The pawn maps are needed and the pawns' captures do not depend on the
    /// occupancy: the pawn cache keeps the maps' pawn-only part.
    pawn_maps_cached: bool,
    /// Proximity per type and distance to the enemy royal piece (mg, eg).
    proximity: Vec<[[i32; 2]; 16]>,
    /// Per type: the types worth more (by estimate), whose pieces it threatens.
    more_valuable: Vec<TypeSet>,
    /// Passed pawn by relative rank (mg, eg).
    passed: [[i32; 2]; 16],
    /// Passed pawn with its square ahead empty, and the two royal pieces' distances
    /// to that square, by relative rank (mg, eg), the distances in units.
    passed_free: [[i32; 2]; 16],
    passed_own_king: [[i32; 2]; 16],
    passed_enemy_king: [[i32; 2]; 16],
    /// Losing all pieces wins (giveaway): material counts against its owner.
    material_sign: i32,
    drop_game: bool,
    /// Checks matter: there are royal pieces to check.
    checks: bool,
    /// How far the terms after the lazy exit can move the score, roughly.
    lazy_margin: i32,
    /// The variant's learned evaluation, where one is in use: it replaces the
    /// hand-crafted one (the tuner's traced evaluation excepted).
    nnue: Option<Arc<Nnue>>,
}

impl Evaluator {
    /// The weight of a piece term for type `t` (see `piece_weights`).
    #[inline(always)]
    fn pw(&self, t: usize, term: PieceTerm) -> [i32; 2] {
        self.piece_weights[t * PieceTerm::COUNT + term as usize]
    }

    /// The weight of a global term.
    #[inline(always)]
    fn gw(&self, term: GlobalTerm) -> [i32; 2] {
        self.global_weights[term as usize]
    }

    /// A rough value for ordering and pruning: middlegame material.
    #[inline]
    pub fn value(&self, t: PieceType) -> i32 {
        self.value_mg[t as usize]
    }

    /// Piece values for static exchange ([`Ruleset::see_ge`]).
    #[inline]
    pub fn see_values(&self) -> &[i32] {
        &self.see_values
    }

    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }

    /// How far the terms after the lazy exit may move the score (centipawns).
    pub fn lazy_margin(&self) -> i32 {
        self.lazy_margin
    }

    /// The weights in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    pub fn basis(&self) -> &Basis {
        &self.basis
    }

    /// This evaluator with the learned evaluation `nnue`, where its layout is
    /// this variant's (else as it was: a net for another layout never plays).
    pub fn with_nnue(mut self, nnue: Arc<Nnue>) -> Evaluator {
        if Layout::new(&self.rules).fingerprint() == nnue.layout().fingerprint() {
            self.nnue = Some(nnue);
        }
        self
    }

    /// +1 where material counts for its owner, -1 where it counts against
    /// (variants won by losing every piece).
    pub fn material_sign(&self) -> i32 {
        self.material_sign
    }

    /// The learned evaluation in use, if any.
    pub fn nnue(&self) -> Option<&Arc<Nnue>> {
        self.nnue.as_ref()
    }

    /// The static evaluation from the side to move's point of view, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_window(pos, -LAZY_OFF, LAZY_OFF).0
    }

    /// The evaluation, reporting every weight's coefficient to `trace` (a tracing
    /// evaluation never takes the lazy exit).
    pub fn evaluate_traced<T: Trace>(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        tr: &mut T,
    ) -> (i32, bool) {
        let mut lazy = EVAL_UNKNOWN;
        self.evaluate_parts(pos, alpha, beta, tr, &mut lazy)
    }

    /// The evaluation (see [`Self::evaluate_traced`]), leaving in `lazy` the score
    /// of its cheap part, the one the lazy exit reads (untouched where there is no
    /// such exit).
    fn evaluate_parts<T: Trace>(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        tr: &mut T,
        lazy_score: &mut i32,
    ) -> (i32, bool) {
        match Width::for_squares(self.squares) {
            Width::One => self.evaluate_in::<T, 1>(pos, alpha, beta, tr, lazy_score),
            Width::Two => self.evaluate_in::<T, 2>(pos, alpha, beta, tr, lazy_score),
            Width::Full => self.evaluate_in::<T, MAX_WORDS>(pos, alpha, beta, tr, lazy_score),
        }
    }

    /// [`Self::evaluate_parts`] with square sets of `W` words, the narrowest that
    /// hold the board's squares (see [`Width`]).
    fn evaluate_in<T: Trace, const W: usize>(
        &self,
        pos: &Position,
        alpha: i32,
        beta: i32,
        tr: &mut T,
        lazy_score: &mut i32,
    ) -> (i32, bool)
    where
        Squares<W>: EvalWidth<W>,
    {
        let stm = pos.side_to_move();
        let material::MaterialPart {
            mut mg,
            mut eg,
            phase,
            material,
        } = self.material::<T, W>(pos, tr);
        if self.material_sign < 0 {
            return (self.giveaway_score(pos, &mg), true);
        }
        let tempo = self.gw(GlobalTerm::Tempo);
        mg[stm as usize] += tempo[0];
        eg[stm as usize] += tempo[1];
        tr.linear(stm, global_slot(self.n, GlobalTerm::Tempo), 1.0);
        let cached_maps = self.pawns::<T, W>(pos, &mut mg, &mut eg, tr);
        self.goals(pos, &mut mg, &mut eg, tr);

        // Lazy exit: far outside the window, the rest cannot bring the score back
        // (quiescence asks with its alpha-beta window).
        let phase = (phase * PHASE_MAX / self.basis.phase_total).min(PHASE_MAX);
        if !T::ON {
            let lazy = taper(&mg, &eg, phase, SCALE_ONE, stm);
            *lazy_score = lazy;
            if (alpha > -LAZY_OFF || beta < LAZY_OFF)
                && (lazy + self.lazy_margin <= alpha || lazy - self.lazy_margin >= beta)
            {
                return (lazy, false);
            }
        }

        with_scratch::<W, ()>(self.n, |sets, pieces| {
            let (check_squares, checks_reached) = sets.split_at_mut(2 * self.n);
            let facts = self.facts::<T, W>(pos, cached_maps, check_squares, checks_reached, pieces);
            self.activity(pos, &facts, &mut mg, &mut eg, tr);
            self.piece_pawn_terms(pos, &facts, &mut mg, &mut eg, tr);
            self.threats(pos, &facts, &mut mg, &mut eg, tr);
            for c in Color::BOTH {
                self.king_danger(pos, c, &facts, &mut mg, &mut eg, tr);
            }
        });
        let scale = self.eg_scale(&material, &eg);
        tr.taper(phase, scale);
        let score = taper(&mg, &eg, phase, scale, stm);
        (score.clamp(-EVAL_LIMIT, EVAL_LIMIT), true)
    }
}

/// The number of squares in a set (`.cargo/config.toml` enables the POPCNT
/// instruction, so the empty words of small boards cost no more than a test).
#[inline]
fn count<const W: usize>(set: &Squares<W>) -> i32 {
    set.count() as i32
}

/// The score from the side to move's view: middlegame and (scaled) endgame
/// differences blended by the phase.
#[inline]
fn taper(mg: &[i32; 2], eg: &[i32; 2], phase: i32, scale: i32, stm: Color) -> i32 {
    let e = (eg[0] - eg[1]) * scale / SCALE_ONE;
    let w = ((mg[0] - mg[1]) * phase + e * (PHASE_MAX - phase)) / PHASE_MAX;
    if stm == Color::White { w } else { -w }
}

#[cfg(test)]
mod tests;
