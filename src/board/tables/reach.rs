//! What the tables say beyond the steps: from where the attackers the probes cannot
//! describe could capture on a square, and the squares where a piece has no move.

use super::Tables;
use super::gated::Gated;
use crate::types::{Color, Geometry, Square, SquareSet, TypeSet};
use crate::variant::Variant;
use crate::xbetza::{AtomShape, Mode};

/// Where could a piece capture from `origin` on an empty board, counting every square
/// any leg passes with a capturing mode (a superset of its real captures)?
fn capture_spots(g: Geometry, comps: &[Gated], color: Color, origin: Square) -> SquareSet {
    let sign = if color == Color::White { 1 } else { -1 };
    let mut spots = SquareSet::EMPTY;
    for gc in comps {
        if let Some(r) = &gc.region
            && !r[color as usize].contains(origin)
        {
            continue;
        }
        let c = &gc.component;
        if c.atom.shape == AtomShape::Castle {
            continue;
        }
        let mut frontier = vec![(origin, 0u8, 1usize)];
        for (li, leg) in c.legs.iter().enumerate() {
            let captures = leg.mode.intersects(Mode::CAPTURE | Mode::DESTROY);
            let mut next = Vec::new();
            for &(sq, prev, _) in &frontier {
                for &d in &leg.directions {
                    let dir = if li == 0 { d } else { (prev + d) % 8 };
                    let (x, y) = c.atom.vector(dir);
                    let cyl = leg.mode.contains(Mode::CYLINDER);
                    let mut cur = sq;
                    for n in 1..=leg.range.max_steps().min(16) {
                        let step = if cyl {
                            g.offset_wrapping(cur, x * sign, y * sign)
                        } else {
                            g.offset(cur, x * sign, y * sign)
                        };
                        let Some(to) = step else {
                            break;
                        };
                        if to == sq {
                            break;
                        }
                        cur = to;
                        if captures {
                            spots.insert(to);
                        }
                        next.push((to, dir, n));
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            frontier = next;
        }
    }
    spots
}

pub(super) fn compute_complex_reach(
    t: &mut Tables,
    gated: &[Vec<Gated>],
    generated: TypeSet,
    lines: &SquareSet,
) {
    let n = t.num_types;
    if t.complex_attackers == [0, 0] {
        return;
    }
    t.complex_reach = vec![SquareSet::EMPTY; 2 * n * 256];
    let g = t.geometry;
    for color in Color::BOTH {
        for (kind, comps) in gated.iter().enumerate() {
            if t.complex_attackers[color as usize] & 1u64 << kind == 0 {
                continue;
            }
            if generated & 1u64 << kind != 0 {
                // Janggi's moves along the marked diagonals join marked squares.
                for target in lines.iter() {
                    t.complex_reach[(color as usize * n + kind) * 256 + target as usize] |= *lines;
                }
            }
            for origin in g.squares() {
                for target in capture_spots(g, comps, color, origin).iter() {
                    t.complex_reach[(color as usize * n + kind) * 256 + target as usize]
                        .insert(origin);
                }
            }
        }
    }
}

pub(super) fn compute_immobile(t: &mut Tables, gated: &[Vec<Gated>], v: &Variant) {
    let g = t.geometry;
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        for (kind, comps) in gated.iter().enumerate() {
            let mut set = SquareSet::EMPTY;
            for s in g.squares() {
                let mobile = comps.iter().any(|gc| {
                    // Fairy-Stockfish's immobility test ignores initial moves.
                    if gc.component.initial
                        || (gc.region.is_some() && v.pieces[kind].is_pawn_slot())
                    {
                        return false;
                    }
                    if let Some(r) = &gc.region
                        && !r[color as usize].contains(s)
                    {
                        return false;
                    }
                    let c = &gc.component;
                    if !c.final_leg().mode.contains(Mode::MOVE) {
                        return false;
                    }
                    let mut cur = vec![(s, 0u8)];
                    for (li, leg) in c.legs.iter().enumerate() {
                        let mut next = Vec::new();
                        for &(sq, prev_dir) in &cur {
                            for &d in &leg.directions {
                                let dir = if li == 0 { d } else { (prev_dir + d) % 8 };
                                let (x, y) = c.atom.vector(dir);
                                if let Some(to) = g.offset(sq, x * sign, y * sign) {
                                    next.push((to, dir));
                                }
                            }
                        }
                        cur = next;
                    }
                    !cur.is_empty()
                });
                if !mobile {
                    set.insert(s);
                }
            }
            t.immobile[color as usize][kind] = set;
        }
    }
}
