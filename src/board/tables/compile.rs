//! Building the tables: every piece's steps from every square, then the probes,
//! the immobile squares and the complex attackers' reach.

use super::Tables;
use super::builder::Builder;
use super::gated::{Gated, gated_components};
use super::probes::build_probes;
use super::reach::{compute_complex_reach, compute_immobile};
use super::step::{MultiPattern, Step, StepKind, StepMode};
use crate::types::{Color, PieceType, Square, SquareSet, TypeSet};
use crate::variant::Variant;

/// Compile the step tables and attack probes of a variant.
/// `generated_attackers`: types whose attacks rules beyond their XBetza change
/// (janggi's): they are complex attackers, with every square in reach.
pub fn build(v: &Variant, generated_attackers: TypeSet) -> Tables {
    let g = v.geometry;
    let n = v.pieces.len();
    let mut b = Builder {
        g,
        v,
        ray_ids: Default::default(),
        t: Tables {
            geometry: g,
            num_types: n,
            num_squares: g.num_squares(),
            step_index: vec![(0, 0); 2 * n * g.num_squares()],
            steps: Vec::new(),
            other_index: vec![(0, 0); 2 * n * g.num_squares()],
            other_steps: Vec::new(),
            plain_leaps: vec![[SquareSet::EMPTY; 2]; 2 * n * g.num_squares()],
            capture_reach: vec![SquareSet::EMPTY; 2 * n * g.num_squares()],
            squares: Vec::new(),
            ray_sets: Vec::new(),
            multi: Vec::new(),
            probe_index: vec![(0, 0); 2 * 256],
            probes: Vec::new(),
            leap_group_index: vec![(0, 0); 2 * 256],
            leap_groups: Vec::new(),
            other_probe_index: vec![(0, 0); 2 * 256],
            other_probes: Vec::new(),
            regions: Vec::new(),
            complex_attackers: [0, 0],
            complex_reach: Vec::new(),
            overlapping: [0, 0],
            immobile: [vec![SquareSet::EMPTY; n], vec![SquareSet::EMPTY; n]],
            has_hoppers: false,
            has_lame: false,
        },
    };
    let gated: Vec<Vec<Gated>> = (0..n)
        .map(|t| gated_components(v, t as PieceType))
        .collect();
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        for (t, comps) in gated.iter().enumerate() {
            // Multi-leg patterns are shared by all squares.
            let mut multi_ids = Vec::new();
            for gc in comps {
                if gc.component.is_multi_leg() {
                    b.t.multi.push(MultiPattern {
                        component: gc.component.clone(),
                        sign,
                    });
                    multi_ids.push(Some(b.t.multi.len() as u16 - 1));
                } else {
                    multi_ids.push(None);
                }
            }
            let ep_capable =
                v.en_passant_types[color as usize] & 1 << t != 0 || v.pieces[t].is_pawn_slot();
            for s in g.squares() {
                let mut steps = Vec::new();
                for (gc, mid) in comps.iter().zip(&multi_ids) {
                    if let Some(r) = &gc.region
                        && !r[color as usize].contains(s)
                    {
                        continue;
                    }
                    let first = steps.len();
                    if let Some(id) = mid {
                        steps.push(Step {
                            kind: StepKind::Multi,
                            mode: StepMode::of_leg(gc.component.final_leg().mode),
                            start: 0,
                            len: 0,
                            block_start: 0,
                            block_len: 0,
                            must_jump: false,
                            hop_after: 0,
                            multi: *id,
                            ray: None,
                        });
                    } else {
                        b.compile_single(&gc.component, color, s, &mut steps);
                    }
                    if gc.component.initial {
                        for st in &mut steps[first..] {
                            st.mode |= StepMode::INITIAL;
                        }
                    }
                }
                // En passant for pawn-like types (Fairy-Stockfish): squares the piece
                // could capture on but not move to quietly.
                if ep_capable {
                    let quiet: Vec<Square> = steps
                        .iter()
                        .filter(|st| st.mode.contains(StepMode::MOVE) && st.kind != StepKind::Multi)
                        .flat_map(|st| b.t.ray(st.start, st.len).first().copied())
                        .collect();
                    for st in steps.iter_mut() {
                        if st.kind == StepKind::Leap
                            && st.mode.contains(StepMode::CAPTURE)
                            && !st.mode.contains(StepMode::MOVE)
                            && !quiet.contains(&b.t.squares[st.start as usize])
                        {
                            st.mode |= StepMode::EN_PASSANT;
                        }
                    }
                }
                let mut targets = SquareSet::EMPTY;
                let mut overlap = false;
                for st in steps.iter().filter(|st| st.kind != StepKind::Multi) {
                    for &sq in b.t.ray(st.start, st.len) {
                        overlap |= targets.contains(sq);
                        targets.insert(sq);
                    }
                }
                if overlap {
                    b.t.overlapping[color as usize] |= 1u64 << t;
                }
                let idx = b.t.piece_square(color, t as PieceType, s);
                let mut reach = SquareSet::EMPTY;
                for st in &steps {
                    if st.kind == StepKind::Multi || st.mode.contains(StepMode::DESTROY) {
                        reach = g.squares().collect();
                        break;
                    }
                    if st.mode.intersects(StepMode::CAPTURE | StepMode::EN_PASSANT) {
                        for &sq in b.t.ray(st.start, st.len) {
                            reach.insert(sq);
                        }
                    }
                }
                b.t.capture_reach[idx] = reach;
                let start = b.t.steps.len() as u32;
                b.t.steps.extend_from_slice(&steps);
                b.t.step_index[idx] = (start, steps.len() as u32);
                let (plain, other): (Vec<Step>, Vec<Step>) =
                    steps.iter().partition(|st| st.is_plain_leap());
                for st in &plain {
                    let to = b.t.squares[st.start as usize];
                    for (i, mode) in [StepMode::MOVE, StepMode::CAPTURE].into_iter().enumerate() {
                        if st.mode.contains(mode) {
                            b.t.plain_leaps[idx][i].insert(to);
                        }
                    }
                }
                let start = b.t.other_steps.len() as u32;
                b.t.other_steps.extend_from_slice(&other);
                b.t.other_index[idx] = (start, other.len() as u32);
            }
        }
    }
    compute_immobile(&mut b.t, &gated, v);
    build_probes(&mut b, &gated, generated_attackers);
    compute_complex_reach(&mut b.t, &gated, generated_attackers, &v.diagonal_lines);
    b.t
}
