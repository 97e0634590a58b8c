//! The tables under construction and what building them shares: the squares of
//! steps and probes, the ordered rays, the regions, and the single-leg steps of a
//! component on one square.

use super::Tables;
use super::gated::lame_path;
use super::step::{OrderedRay, Step, StepKind, StepMode};
use crate::types::{Color, Geometry, Square, SquareSet};
use crate::variant::Variant;
use crate::xbetza::{AtomShape, Component, Mode, Range};

pub(super) struct Builder<'a> {
    pub(super) g: Geometry,
    pub(super) t: Tables,
    pub(super) v: &'a Variant,
    /// Index of each ray set in `t.ray_sets`.
    pub(super) ray_ids: std::collections::HashMap<SquareSet, u32>,
}

impl<'a> Builder<'a> {
    pub(super) fn push_squares(&mut self, sqs: &[Square]) -> u32 {
        let start = self.t.squares.len() as u32;
        self.t.squares.extend_from_slice(sqs);
        start
    }

    /// The ray as an [`OrderedRay`], if its squares are numbered in ray order.
    pub(super) fn ordered_ray(&mut self, ray: &[Square]) -> Option<OrderedRay> {
        let descending = if ray.windows(2).all(|w| w[0] < w[1]) {
            false
        } else if ray.windows(2).all(|w| w[0] > w[1]) {
            true
        } else {
            return None;
        };
        let set: SquareSet = ray.iter().copied().collect();
        let sets = &mut self.t.ray_sets;
        let id = *self.ray_ids.entry(set).or_insert_with(|| {
            sets.push(set);
            sets.len() as u32 - 1
        });
        Some(OrderedRay {
            set: id,
            descending,
        })
    }

    pub(super) fn region_id(&mut self, r: SquareSet) -> u16 {
        if let Some(i) = self.t.regions.iter().position(|x| *x == r) {
            return i as u16 + 1;
        }
        self.t.regions.push(r);
        self.t.regions.len() as u16
    }

    /// Ray from `s` along (dx, dy): up to `max` squares, wrapping around the files
    /// when `cylinder`, never returning to `s`.
    pub(super) fn ray(
        &self,
        s: Square,
        dx: i32,
        dy: i32,
        max: usize,
        cylinder: bool,
    ) -> Vec<Square> {
        let mut out = Vec::new();
        let mut cur = s;
        while out.len() < max {
            let next = if cylinder {
                self.g.offset_wrapping(cur, dx, dy)
            } else {
                self.g.offset(cur, dx, dy)
            };
            match next {
                Some(n) if n != s => {
                    out.push(n);
                    cur = n;
                }
                _ => break,
            }
        }
        out
    }

    pub(super) fn compile_single(
        &mut self,
        comp: &Component,
        color: Color,
        s: Square,
        steps: &mut Vec<Step>,
    ) {
        let leg = &comp.legs[0];
        let sign = if color == Color::White { 1 } else { -1 };
        let mode = StepMode::of_leg(leg.mode);
        let cyl = leg.mode.contains(Mode::CYLINDER);
        let hop = leg.mode.intersects(Mode::HOP | Mode::GRASSHOP);
        let unit = comp.atom.long == 1 && comp.atom.shape != AtomShape::Oblique;
        let full_lame = leg.mode.contains(Mode::LAME_FULL_PATH);
        if comp.atom.shape == AtomShape::Castle {
            return; // castling comes from the castling rules (O only sets the distance)
        }
        for &d in &leg.directions {
            let (x, y) = comp.atom.vector(d);
            let (dx, dy) = (x * sign, y * sign);
            match leg.range {
                Range::Leap if !hop => {
                    if unit && leg.jumps > 0 {
                        continue; // jW: skips its only square
                    }
                    let to = if cyl {
                        self.g.offset_wrapping(s, dx, dy)
                    } else {
                        self.g.offset(s, dx, dy)
                    };
                    let Some(to) = to.filter(|&t| t != s) else {
                        continue;
                    };
                    let mut blocks = Vec::new();
                    let mut must_jump = false;
                    if leg.mode.contains(Mode::LAME) || leg.jumps > 0 {
                        for (bx, by) in lame_path(dx, dy, full_lame && leg.jumps == 0) {
                            let b = if cyl {
                                self.g.offset_wrapping(s, bx, by)
                            } else {
                                self.g.offset(s, bx, by)
                            };
                            if let Some(b) = b {
                                blocks.push(b);
                            }
                        }
                        must_jump = leg.jumps > 0;
                        if must_jump && blocks.is_empty() {
                            continue;
                        }
                    }
                    let start = self.push_squares(&[to]);
                    let block_start = self.push_squares(&blocks);
                    steps.push(Step {
                        kind: StepKind::Leap,
                        mode,
                        start,
                        len: 1,
                        block_start,
                        block_len: blocks.len() as u8,
                        must_jump,
                        hop_after: 0,
                        multi: 0,
                        ray: None,
                    });
                }
                Range::Leap => {} // p/g on a leaper: no moves
                _ => {
                    let mut ray = self.ray(s, dx, dy, leg.range.max_steps(), cyl);
                    if unit && leg.jumps > 0 {
                        let skip = (leg.jumps as usize).min(ray.len());
                        ray.drain(..skip);
                    }
                    if ray.is_empty() {
                        continue;
                    }
                    let start = self.push_squares(&ray);
                    let ordered = if hop { None } else { self.ordered_ray(&ray) };
                    steps.push(Step {
                        kind: if hop { StepKind::Hop } else { StepKind::Slide },
                        mode,
                        start,
                        len: ray.len() as u16,
                        block_start: 0,
                        block_len: 0,
                        must_jump: false,
                        hop_after: if leg.mode.contains(Mode::GRASSHOP) {
                            1
                        } else {
                            0
                        },
                        multi: 0,
                        ray: ordered,
                    });
                }
            }
        }
    }
}
