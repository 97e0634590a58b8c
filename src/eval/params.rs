//! The evaluation's weights as one flat list of (middlegame, endgame) pairs, in the
//! order the tuner fits them: the piece terms of type 0, of type 1, ..., then the
//! global terms, then the piece-square tables of type 0, of type 1, .... Single-
//! number terms (king danger) use the first number of their pair. A variant's
//! weights are its weights file's where it gives them and the generic ones, derived
//! from its pieces, elsewhere (an untuned piece-square table is zero).

use super::basis::Basis;
use super::terms::{GlobalTerm, PieceTerm, square_cells};
use super::values;
use super::weights::Weights;
use crate::board::Ruleset;

#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub n: usize,
    /// Cells of a piece-square table (see [`square_cells`]).
    pub cells: usize,
    pub w: Vec<[f64; 2]>,
}

/// Where the weight of a piece term lives in the flat list.
#[inline]
pub fn piece_slot(t: usize, term: PieceTerm) -> usize {
    t * PieceTerm::COUNT + term as usize
}

/// Where the weight of a global term lives in the flat list of a variant with `n`
/// piece types.
#[inline]
pub fn global_slot(n: usize, term: GlobalTerm) -> usize {
    n * PieceTerm::COUNT + term as usize
}

/// Where the piece-square weight of type `t` on `cell` lives in the flat list of a
/// variant with `n` piece types and `cells` cells per table.
#[inline]
pub fn square_slot(n: usize, cells: usize, t: usize, cell: usize) -> usize {
    n * PieceTerm::COUNT + GlobalTerm::COUNT + t * cells + cell
}

/// The global term whose weight lives in `slot` (none for piece and square slots).
fn global_term(n: usize, slot: usize) -> Option<GlobalTerm> {
    slot.checked_sub(n * PieceTerm::COUNT)
        .and_then(|i| GlobalTerm::ALL.get(i).copied())
}

/// The name of the term whose weight lives in `slot`, as a weights file writes it
/// (`square` for the piece-square slots).
pub fn slot_name(n: usize, slot: usize) -> &'static str {
    if slot < n * PieceTerm::COUNT {
        PieceTerm::ALL[slot % PieceTerm::COUNT].name()
    } else {
        global_term(n, slot).map_or("square", GlobalTerm::name)
    }
}

/// Is the slot a single number (a danger term)?
pub fn is_single(n: usize, slot: usize) -> bool {
    if slot < n * PieceTerm::COUNT {
        PieceTerm::ALL[slot % PieceTerm::COUNT].is_danger()
    } else {
        global_term(n, slot).is_some_and(GlobalTerm::is_single)
    }
}

/// Is the slot a weight set by hand or measured, which the tuner leaves alone?
pub fn is_fixed(n: usize, slot: usize) -> bool {
    global_term(n, slot).is_some_and(GlobalTerm::is_fixed)
}

impl Params {
    pub fn len(n: usize, cells: usize) -> usize {
        n * PieceTerm::COUNT + GlobalTerm::COUNT + n * cells
    }

    #[inline]
    pub fn square(&self, t: usize, cell: usize) -> [f64; 2] {
        self.w[square_slot(self.n, self.cells, t, cell)]
    }

    #[inline]
    pub fn piece(&self, t: usize, term: PieceTerm) -> [f64; 2] {
        self.w[piece_slot(t, term)]
    }
    #[inline]
    pub fn global(&self, term: GlobalTerm) -> [f64; 2] {
        self.w[global_slot(self.n, term)]
    }

    /// The weights of `rules`' variant: its weights file over the generic weights
    /// (the file's wrong lines left out: loading reports them).
    pub fn for_variant(rules: &Ruleset, basis: &Basis) -> Params {
        let file = rules.variant.weights.as_deref();
        let weights = file.map(|f| Weights::read(f, &rules.variant).0);
        Params::over_generic(rules, basis, weights.as_ref())
    }

    /// The generic weights with those `weights` gives in their place.
    pub fn over_generic(rules: &Ruleset, basis: &Basis, weights: Option<&Weights>) -> Params {
        let mut p = Params::generic(rules, basis);
        if let Some(w) = weights {
            p.apply(w);
        }
        p
    }

    /// Replace the weights `w` gives.
    pub fn apply(&mut self, w: &Weights) {
        for (t, terms) in w.piece.iter().enumerate().take(self.n) {
            for term in PieceTerm::ALL {
                if let Some([m, e]) = terms[term as usize] {
                    self.w[piece_slot(t, term)] = [m, e];
                }
            }
        }
        for term in GlobalTerm::ALL {
            if let Some([m, e]) = w.global[term as usize] {
                self.w[global_slot(self.n, term)] = [m, e];
            }
        }
        for (t, cells) in w.square.iter().enumerate().take(self.n) {
            for (cell, x) in cells.iter().enumerate().take(self.cells) {
                if let Some([m, e]) = *x {
                    self.w[square_slot(self.n, self.cells, t, cell)] = [m, e];
                }
            }
        }
    }

    /// Every weight, rounded, as a weights file gives them.
    pub fn to_weights(&self, file: &str) -> Weights {
        let mut w = Weights::empty(file, self.n, self.cells);
        // To a tenth, as the file keeps them.
        let round = |[m, e]: [f64; 2], single: bool| {
            let r = |x: f64| (x * 10.0).round() / 10.0;
            Some([r(m), if single { r(m) } else { r(e) }])
        };
        for t in 0..self.n {
            for term in PieceTerm::ALL {
                w.piece[t][term as usize] = round(self.piece(t, term), term.is_danger());
            }
        }
        for term in GlobalTerm::ALL {
            w.global[term as usize] = round(self.global(term), term.is_single());
        }
        // Piece-square weights where they are not zero (an untuned table is zero).
        for t in 0..self.n {
            for cell in 0..self.cells {
                let x = self.square(t, cell);
                if x != [0.0, 0.0] {
                    w.square[t][cell] = round(x, false);
                }
            }
        }
        w
    }

    /// Weights for a variant nobody tuned, derived from its pieces: material from
    /// the variant file or the estimate, mobility per square falling with the
    /// piece's reach, piece-square terms from each piece's reach on its squares
    /// and its way to promotion, king danger by the attackers' values, and the
    /// defaults of the global terms.
    pub fn generic(rules: &Ruleset, basis: &Basis) -> Params {
        let v = &rules.variant;
        let g = v.geometry;
        let n = v.num_types();
        let cells = square_cells(&g);
        let mut p = Params {
            n,
            cells,
            w: vec![[0.0; 2]; Params::len(n, cells)],
        };
        let (value_mg, value_eg) = values::piece_values(rules);
        let drop_game = v.piece_drops;
        // A piece in hand is worth its value where captures change sides; where the
        // hand holds a variant's extra pieces (gating), a little more.
        let hand_bonus = if v.captures_to_hand { 0.0 } else { 0.125 };
        for t in 0..n {
            let set = |p: &mut Params, term: PieceTerm, w: [f64; 2]| {
                p.w[piece_slot(t, term)] = w;
            };
            let royal = v.pieces[t].royal;
            let (vm, ve) = (value_mg[t] as f64, value_eg[t] as f64);
            set(&mut p, PieceTerm::Value, [vm, ve]);
            set(
                &mut p,
                PieceTerm::Hand,
                [vm * (1.0 + hand_bonus), ve * (1.0 + hand_bonus)],
            );
            // Long-range pieces get less per square: each of a queen's squares
            // matters less than each of a knight's.
            let scale = (5.25 / basis.raw_reach[t].max(1.0)).sqrt().clamp(0.4, 1.5);
            set(
                &mut p,
                PieceTerm::Mobility,
                [
                    (4.0 * scale * 8.0).round() / 8.0,
                    (3.0 * scale * 8.0).round() / 8.0,
                ],
            );
            if royal {
                // Kings hide in the middlegame (stay home) and centralise late; in
                // drop games they stay home throughout.
                let home = -12.0 * (g.ranks as f64 - 1.0);
                set(
                    &mut p,
                    PieceTerm::Advance,
                    [home, if drop_game { home } else { 0.0 }],
                );
                set(
                    &mut p,
                    PieceTerm::Reach,
                    [0.0, if drop_game { 0.0 } else { 7.0 }],
                );
            } else {
                set(&mut p, PieceTerm::Reach, [50.0, 40.0]);
            }
            if basis.pawnlike[t] {
                let best = values::types_of(v.promotion_piece_types[0])
                    .map(|q| value_eg[q])
                    .max()
                    .unwrap_or(0);
                let gain = (best - value_eg[t]).max(0) as f64;
                set(&mut p, PieceTerm::Advance2, [gain * 0.04, gain * 0.12]);
            }
            // King danger: attackers by their value, checks and drops near the king.
            let weight = (basis.estimate[t] as f64 / 180.0).clamp(1.0, 6.0);
            if !royal {
                let minor = if basis.pawnlike[t] { 0.4 } else { 1.0 };
                set(&mut p, PieceTerm::Attacker, single(30.0 * weight));
                set(&mut p, PieceTerm::Check, single(700.0 * minor));
                set(&mut p, PieceTerm::DropCheck, single(700.0 * minor));
                set(&mut p, PieceTerm::HandDanger, single(40.0 * weight));
                set(&mut p, PieceTerm::Defender, single(-40.0));
            }
        }
        for term in GlobalTerm::ALL {
            p.w[global_slot(n, term)] = term.default();
        }
        // Where pieces come back from the hand, king danger swings more.
        if drop_game {
            p.w[global_slot(n, GlobalTerm::LazyMargin)] = [700.0, 700.0];
        }
        p
    }
}

/// A single-number weight.
fn single(x: f64) -> [f64; 2] {
    [x, x]
}
