//! Attack probes: seen from a target square, where an attacker of some types could
//! stand, built from the pieces' capturing components (the attack tests read them
//! instead of generating moves).

use super::builder::Builder;
use super::gated::{Gated, lame_path};
use super::step::OrderedRay;
use crate::types::{Color, SquareSet, TypeSet};
use crate::xbetza::{AtomShape, Mode, Range};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProbeKind {
    Leap,
    Slide,
    Hop,
    Grasshop,
}

/// Plain leaps into a target square, seen from it: the squares an attacker of one of
/// `types` captures from with no other square mattering.
#[derive(Clone, Copy, Debug)]
pub struct LeapGroup {
    pub types: TypeSet,
    pub from: SquareSet,
}

/// Seen from a target square: where an attacker of some types could stand.
#[derive(Clone, Copy, Debug)]
pub struct Probe {
    pub kind: ProbeKind,
    pub types: TypeSet,
    /// Ray outward from the target (Leap: one square, the attacker's).
    pub start: u32,
    pub len: u16,
    pub block_start: u32,
    pub block_len: u8,
    pub must_jump: bool,
    /// Index+1 into `Tables::regions` the attacker must stand in (0 = anywhere).
    pub from_region: u16,
    /// Slide: the ray as a set, when its squares are numbered in ray order.
    pub ray: Option<OrderedRay>,
}

impl Probe {
    /// A one-square leap with no lame or jumped square and no region: whether it
    /// hits depends only on the piece standing on its square.
    #[inline]
    pub fn is_plain_leap(&self) -> bool {
        self.kind == ProbeKind::Leap && self.block_len == 0 && self.from_region == 0
    }
}

/// Group key of a probe pattern.
#[derive(PartialEq)]
struct PatternKey {
    kind: ProbeKind,
    dx: i32,
    dy: i32,
    max: usize,
    lame: bool,
    lame_full: bool,
    must_jump: bool,
    cylinder: bool,
    region: Option<[SquareSet; 2]>,
}

pub(super) fn build_probes(b: &mut Builder, gated: &[Vec<Gated>], generated: TypeSet) {
    let g = b.g;
    let v = b.v;
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        let mut patterns: Vec<(PatternKey, TypeSet)> = Vec::new();
        for (t, comps) in gated.iter().enumerate() {
            let bit = 1u64 << t;
            if generated & bit != 0 {
                b.t.complex_attackers[color as usize] |= bit;
                continue;
            }
            for gc in comps {
                let c = &gc.component;
                let leg = c.final_leg();
                let captures = leg.mode.contains(Mode::CAPTURE) && !leg.mode.contains(Mode::TAME);
                if !captures && !c.is_multi_leg() {
                    continue;
                }
                let unit = c.atom.long == 1 && c.atom.shape != AtomShape::Oblique;
                let simple = !c.is_multi_leg()
                    && !(leg.jumps > 0 && (unit || leg.range.is_slider()))
                    && !(leg.mode.intersects(Mode::HOP | Mode::GRASSHOP)
                        && matches!(leg.range, Range::Limited(_)));
                if !simple {
                    if c.final_leg().mode.contains(Mode::CAPTURE) || c.captures_on_the_way() {
                        b.t.complex_attackers[color as usize] |= bit;
                    }
                    continue;
                }
                for &d in &leg.directions {
                    let (x, y) = c.atom.vector(d);
                    let (dx, dy) = (x * sign, y * sign);
                    if c.atom.shape == AtomShape::Castle {
                        continue;
                    }
                    let hop = leg.mode.contains(Mode::HOP);
                    let grass = leg.mode.contains(Mode::GRASSHOP);
                    let kind = match leg.range {
                        Range::Leap if hop || grass => continue,
                        Range::Leap => ProbeKind::Leap,
                        _ if grass => ProbeKind::Grasshop,
                        _ if hop => ProbeKind::Hop,
                        _ => ProbeKind::Slide,
                    };
                    let key = PatternKey {
                        kind,
                        dx,
                        dy,
                        max: leg.range.max_steps(),
                        lame: leg.mode.contains(Mode::LAME),
                        lame_full: leg.mode.contains(Mode::LAME_FULL_PATH),
                        must_jump: leg.jumps > 0,
                        cylinder: leg.mode.contains(Mode::CYLINDER),
                        region: gc.region,
                    };
                    match patterns.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, m)) => *m |= bit,
                        None => patterns.push((key, bit)),
                    }
                }
            }
        }
        b.t.has_hoppers |= patterns
            .iter()
            .any(|(k, _)| matches!(k.kind, ProbeKind::Hop | ProbeKind::Grasshop));
        b.t.has_lame |= patterns.iter().any(|(k, _)| k.lame || k.must_jump);
        for target in g.squares() {
            let mut probes = Vec::new();
            for (k, types) in &patterns {
                // A piece only attacks squares of its mobility region.
                let mut types = *types;
                for (t, r) in v.mobility_region[color as usize].iter().enumerate() {
                    if let Some(r) = r
                        && !r.contains(target)
                    {
                        types &= !(1u64 << t);
                    }
                }
                if types == 0 {
                    continue;
                }
                let from_region = match &k.region {
                    Some(r) => b.region_id(r[color as usize]),
                    None => 0,
                };
                match k.kind {
                    ProbeKind::Leap => {
                        let from = if k.cylinder {
                            g.offset_wrapping(target, -k.dx, -k.dy)
                        } else {
                            g.offset(target, -k.dx, -k.dy)
                        };
                        let Some(from) = from.filter(|&f| f != target) else {
                            continue;
                        };
                        let mut blocks = Vec::new();
                        if k.lame || k.must_jump {
                            for (bx, by) in lame_path(k.dx, k.dy, k.lame_full && !k.must_jump) {
                                let sq = if k.cylinder {
                                    g.offset_wrapping(from, bx, by)
                                } else {
                                    g.offset(from, bx, by)
                                };
                                if let Some(sq) = sq {
                                    blocks.push(sq);
                                }
                            }
                        }
                        let start = b.push_squares(&[from]);
                        let block_start = b.push_squares(&blocks);
                        probes.push(Probe {
                            kind: ProbeKind::Leap,
                            types,
                            start,
                            len: 1,
                            block_start,
                            block_len: blocks.len() as u8,
                            must_jump: k.must_jump,
                            from_region,
                            ray: None,
                        });
                    }
                    _ => {
                        let max = if k.kind == ProbeKind::Slide {
                            k.max
                        } else {
                            usize::MAX
                        };
                        let ray = b.ray(target, -k.dx, -k.dy, max, k.cylinder);
                        if ray.is_empty() {
                            continue;
                        }
                        let start = b.push_squares(&ray);
                        let ordered = if k.kind == ProbeKind::Slide {
                            b.ordered_ray(&ray)
                        } else {
                            None
                        };
                        probes.push(Probe {
                            kind: k.kind,
                            types,
                            start,
                            len: ray.len() as u16,
                            block_start: 0,
                            block_len: 0,
                            must_jump: false,
                            from_region,
                            ray: ordered,
                        });
                    }
                }
            }
            let index = color as usize * 256 + target as usize;
            let start = b.t.probes.len() as u32;
            b.t.probes.extend_from_slice(&probes);
            b.t.probe_index[index] = (start, probes.len() as u32);
            let mut groups: Vec<LeapGroup> = Vec::new();
            let mut others = Vec::new();
            for p in probes {
                if !p.is_plain_leap() {
                    others.push(p);
                    continue;
                }
                let from = b.t.squares[p.start as usize];
                match groups.iter_mut().find(|g| g.types == p.types) {
                    Some(g) => g.from.insert(from),
                    None => groups.push(LeapGroup {
                        types: p.types,
                        from: SquareSet::single(from),
                    }),
                }
            }
            let start = b.t.leap_groups.len() as u32;
            b.t.leap_groups.extend_from_slice(&groups);
            b.t.leap_group_index[index] = (start, groups.len() as u32);
            let start = b.t.other_probes.len() as u32;
            b.t.other_probes.extend_from_slice(&others);
            b.t.other_probe_index[index] = (start, others.len() as u32);
        }
    }
}
