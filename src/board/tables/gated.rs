//! A piece type's components with where each applies: its own XBetza plus the
//! moves rules give it (the pawn's double and triple steps, the soldier's sideways
//! step), and the squares a lame leap must find empty.

use crate::types::{PieceType, SquareSet};
use crate::variant::Variant;
use crate::xbetza::{self, Component, Dialect};

/// A component together with where it applies (the origin square must be in the
/// region for the colour; `None` = everywhere).
pub(super) struct Gated {
    pub(super) component: Component,
    pub(super) region: Option<[SquareSet; 2]>,
}

/// The components of a piece type including rule-given extras: the pawn's double and
/// triple steps, the soldier's sideways step after the river, and FSF's initial moves.
pub(super) fn gated_components(v: &Variant, t: PieceType) -> Vec<Gated> {
    let def = &v.pieces[t as usize];
    let parse = |s: &str| {
        xbetza::parse(s, Dialect::FairyStockfish)
            .expect("built-in XBetza parses")
            .components
    };
    let mut out = Vec::new();
    let default_soldier = def.slot == "soldier" && def.betza == "fsW";
    if default_soldier {
        // Sideways only from the soldier-promotion rank on (relative, 1-based).
        let g = v.geometry;
        let spr = v.soldier_promotion_rank.max(1) - 1;
        let region = |white: bool| -> SquareSet {
            g.squares()
                .filter(|&s| g.relative_rank(s, white) >= spr)
                .collect()
        };
        for c in parse("fW") {
            out.push(Gated {
                component: c,
                region: None,
            });
        }
        for c in parse("sW") {
            out.push(Gated {
                component: c,
                region: Some([region(true), region(false)]),
            });
        }
        return out;
    }
    for c in &def.moves.components {
        let region = c.initial.then_some(v.double_step_region);
        out.push(Gated {
            component: c.clone(),
            region,
        });
    }
    if def.is_pawn_slot() {
        if v.double_step {
            for c in parse("fmnD") {
                out.push(Gated {
                    component: c,
                    region: Some(v.double_step_region),
                });
            }
        }
        if !v.triple_step_region[0].is_empty() || !v.triple_step_region[1].is_empty() {
            for c in parse("fmnH") {
                out.push(Gated {
                    component: c,
                    region: Some(v.triple_step_region),
                });
            }
        }
    }
    out
}

/// Intermediate offsets that must be empty for a lame leap of (dx, dy).
/// `full`: every square of the stepped path (Fairy-Stockfish); otherwise the single
/// square XBoard tests (halfway, rounding towards the start / the first step).
pub fn lame_path(dx: i32, dy: i32, full: bool) -> Vec<(i32, i32)> {
    let (ax, ay) = (dx.abs(), dy.abs());
    if ax.max(ay) <= 1 {
        return Vec::new();
    }
    let (sx, sy) = (dx.signum(), dy.signum());
    let mut path = Vec::new();
    let (mut x, mut y) = (0, 0);
    while (x, y) != (dx, dy) {
        let (rx, ry) = ((dx - x).abs(), (dy - y).abs());
        if rx > ry {
            x += sx;
        } else if ry > rx {
            y += sy;
        } else {
            x += sx;
            y += sy;
        }
        if (x, y) != (dx, dy) {
            path.push((x, y));
        }
    }
    if full {
        path
    } else {
        // XBoard: for D, N, A the halfway square; for longer leaps the first step.
        path.into_iter().take(1).collect()
    }
}
