//! Piece values: taken from the variant file when it gives them, otherwise estimated
//! from the piece's compiled moves on an empty board (how many squares it reaches,
//! how far, in which directions), its royal status and what it promotes to.

use crate::board::{Ruleset, StepKind, StepMode};
use crate::types::{Color, PieceType, Square};

/// What the empty-board walk of one piece type found.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveProfile {
    /// Average over the squares it may stand on of the weighted number of targets.
    pub mobility: f64,
    /// Average mobility on each square (for the piece-square tables), White's view.
    pub squares: usize,
    /// Share of targets that lie ahead of the piece (0..1).
    pub forward: f64,
    /// True when it can move to fewer than half of the board's colours (bishop-like).
    pub colour_bound: bool,
    /// True when the piece has no move back towards its own side.
    pub no_retreat: bool,
}

/// Slider targets further away are less likely to be open in a game: each further
/// square counts this much of the previous one.
const RAY_DECAY: f64 = 0.84;

/// The weighted number of squares a piece of type `t` reaches from `sq` on an empty
/// board, and how many of those lie ahead / behind. Quiet-only and capture-only
/// targets count half each. Reads each step's reach (every square it may go to on
/// some board), not the walk over an occupancy: a hopper has no target on an empty
/// board, and counts part of its ray instead.
pub fn empty_board_targets(rules: &Ruleset, t: PieceType, sq: Square) -> (f64, f64, f64) {
    let v = &rules.variant;
    let g = v.geometry;
    let region = &v.mobility_region[0][t as usize];
    let rank = g.rank(sq) as i32;
    let (mut total, mut ahead, mut behind) = (0.0, 0.0, 0.0);
    let mut add = |to: Square, w: f64| {
        if region.as_ref().is_some_and(|r| !r.contains(to)) {
            return;
        }
        total += w;
        let dr = g.rank(to) as i32 - rank;
        if dr > 0 {
            ahead += w;
        } else if dr < 0 {
            behind += w;
        }
    };
    for step in rules.steps(Color::White, t, sq) {
        let half = |m: StepMode| if step.mode().contains(m) { 0.5 } else { 0.0 };
        let mode_w = half(StepMode::MOVE) + half(StepMode::CAPTURE);
        match step.kind() {
            StepKind::Leap => add(step.reach()[0], mode_w),
            StepKind::Slide => {
                let mut w = mode_w;
                for &to in step.reach() {
                    add(to, w);
                    w *= RAY_DECAY;
                }
            }
            StepKind::Hop => {
                // A hopper needs a screen: on a real board roughly every other ray has one.
                let mut w = mode_w * 0.4;
                for &to in step.reach().iter().skip(1) {
                    add(to, w);
                    w *= RAY_DECAY;
                }
            }
            // Multi-leg moves: count the component once as a few targets.
            StepKind::Multi => add(sq, 2.0 * mode_w),
        }
    }
    (total, ahead, behind)
}

/// Squares a type may stand on (its mobility region, without squares it could never
/// leave when the variant forbids such moves).
pub fn standing_squares(rules: &Ruleset, t: PieceType) -> Vec<Square> {
    let v = &rules.variant;
    let g = v.geometry;
    g.squares()
        .filter(|&s| {
            v.mobility_region[0][t as usize]
                .as_ref()
                .is_none_or(|r| r.contains(s))
        })
        .filter(|&s| !(v.immobility_illegal && rules.immobile_squares(Color::White, t).contains(s)))
        .collect()
}

pub fn profile(rules: &Ruleset, t: PieceType) -> MoveProfile {
    let g = rules.variant.geometry;
    let squares = standing_squares(rules, t);
    let (mut sum, mut ahead, mut behind) = (0.0, 0.0, 0.0);
    let mut reach_colours = [false; 2];
    for &s in &squares {
        let (m, a, b) = empty_board_targets(rules, t, s);
        sum += m;
        ahead += a;
        behind += b;
        for step in rules.steps(Color::White, t, s) {
            if let Some(&to) = step.reach().first() {
                let parity = |x: Square| ((g.file(x) + g.rank(x)) & 1) as usize;
                if parity(to) != parity(s) {
                    reach_colours[0] = true;
                } else {
                    reach_colours[1] = true;
                }
            }
        }
    }
    let n = squares.len().max(1) as f64;
    MoveProfile {
        mobility: sum / n,
        squares: squares.len(),
        forward: if sum > 0.0 { ahead / sum } else { 0.0 },
        colour_bound: !reach_colours[0],
        no_retreat: behind == 0.0,
    }
}

/// Estimated material values in centipawns for every type of the variant, from the
/// pieces' moves alone (the variant file's values left aside): the basis of the
/// generic weights, and the fixed scale by which the evaluation weighs threatened
/// pieces, measures the game phase and spots drawn material.
pub fn estimated_values(rules: &Ruleset) -> Vec<i32> {
    let v = &rules.variant;
    let n = v.num_types();
    let profiles: Vec<MoveProfile> = (0..n).map(|t| profile(rules, t as PieceType)).collect();
    let mut base: Vec<f64> = profiles
        .iter()
        .enumerate()
        .map(|(t, p)| {
            if v.pieces[t].royal {
                return 0.0;
            }
            let mut x = mobility_value(p.mobility);
            if p.colour_bound {
                x *= 0.88;
            }
            if p.no_retreat {
                x *= 0.8;
            }
            x
        })
        .collect();
    // Defenders: a piece confined to a region of the board (a palace, its own half)
    // cannot attack much; its worth is guarding its royal piece, which the move count
    // misses.
    let g = v.geometry;
    for (t, b) in base.iter_mut().enumerate() {
        let confined = v.mobility_region[0][t]
            .as_ref()
            .is_some_and(|r| (r.count() as usize) * 2 <= g.num_squares());
        if confined && !v.pieces[t].royal {
            *b += 80.0;
        }
    }
    // Promotion traits: a piece that promotes carries part of its promoted form's value.
    for t in 0..n {
        if v.pieces[t].royal {
            continue;
        }
        let mut best_promo: f64 = 0.0;
        if is_pawnlike(rules, t as PieceType) {
            for p in types_of(v.promotion_piece_types[0]) {
                best_promo = best_promo.max(base[p]);
            }
        }
        if let Some(p) = v.promoted_piece_type[t] {
            best_promo = best_promo.max(base[p as usize]);
        }
        if best_promo > base[t] {
            base[t] += (best_promo - base[t]) * 0.03;
        }
    }
    // Where captured pieces change sides, a capture swings twice the victim's value
    // and the cheapest piece can be dropped anywhere: the values lie closer to the
    // cheapest piece's (half the distance).
    if v.captures_to_hand {
        let cheapest = (0..n)
            .filter(|&t| !v.pieces[t].royal)
            .map(|t| base[t])
            .fold(f64::INFINITY, f64::min);
        if cheapest.is_finite() {
            for (t, x) in base.iter_mut().enumerate() {
                if !v.pieces[t].royal && *x > cheapest {
                    *x = cheapest + (*x - cheapest) / 2.0;
                }
            }
        }
    }
    base.iter().map(|x| x.round() as i32).collect()
}

/// Material values (mg, eg) in centipawns: the variant file's `pieceValueMg` and
/// `pieceValueEg` where it gives them, the estimate otherwise.
pub fn piece_values(rules: &Ruleset) -> (Vec<i32>, Vec<i32>) {
    let v = &rules.variant;
    let est = estimated_values(rules);
    let mg = (0..v.num_types())
        .map(|t| v.piece_value_mg[t].map(file_value).unwrap_or(est[t]))
        .collect();
    let eg = (0..v.num_types())
        .map(|t| {
            v.piece_value_eg[t]
                .or(v.piece_value_mg[t])
                .map(file_value)
                .unwrap_or(est[t])
        })
        .collect();
    (mg, eg)
}

/// Does the type promote like a pawn (the variant's pawn, or a promotion pawn type)?
pub fn is_pawnlike(rules: &Ruleset, t: PieceType) -> bool {
    Some(t) == rules.pawn_type || rules.variant.promotion_pawn_types[0] & 1 << t != 0
}

/// The types of a set, in order.
pub fn types_of(set: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |&t| set & 1u64 << t != 0)
}

/// Value of a piece with `m` weighted empty-board targets. Calibrated on the knight
/// (5.25 targets = 320) and the orthodox queen: concave below the knight (short-range
/// pieces are worth roughly their reach), convex above it (long-range pieces combine
/// their lines: a queen is worth more than rook plus bishop reach suggests).
pub fn mobility_value(m: f64) -> f64 {
    const KNIGHT_REACH: f64 = 5.25;
    if m <= KNIGHT_REACH {
        320.0 * (m.max(0.0) / KNIGHT_REACH).powf(0.9)
    } else {
        194.0 + 10.45 * m.powf(1.5)
    }
}

/// Files give values in Fairy-Stockfish's scale (pawn = 126 midgame).
fn file_value(x: i32) -> i32 {
    x * 100 / 126
}
